// A checkpointed session reads two things before its agent starts: HEAD (with its resumed chain) and the
// repository's machinery (git config, hooks). In a batch, a worktree waiting for its next task has those
// reads begun for that task, so a later task's agent starts without waiting for a git process; what they
// recorded is used only if it still holds when the task starts. Every git call is logged when it starts
// and when it ends (with the directory it ran in) by a `git` on PATH that runs the real one.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runBatch } from '../../src/batch/batch.js'
import type { SessionReport } from '../../src/report/model.js'
import { tempDir } from '../helpers/git-repo.js'
import { writeGitLogger } from '../helpers/git-logger.js'
import { batchRepo, fastConfig, type BatchRepo } from './batch-helpers.js'

let bin = ''
let log = ''
const saved = new Map<string, string | undefined>()
const cleanups: (() => void)[] = []

beforeAll(() => {
  bin = tempDir('proctor-git-log-')
  log = path.join(bin, 'calls.log')
  writeGitLogger(bin, { where: true, ends: true })
  // The sessions' checkpoint stores run git with proctor's own environment: PATH and the isolation
  // (no machine git config deciding what the machinery recording holds) go there.
  const env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    PROCTOR_TEST_GIT_LOG: log,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  }
  for (const [key, value] of Object.entries(env)) {
    saved.set(key, process.env[key])
    process.env[key] = value
  }
})

afterAll(() => {
  for (const [key, value] of saved) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  fs.rmSync(bin, { recursive: true, force: true })
})

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function setup(): BatchRepo {
  const r = batchRepo()
  cleanups.push(r.cleanup)
  fs.writeFileSync(log, '')
  return r
}

function logLines(): string[] {
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)
}

function reportOf(reportPath: string | null): SessionReport {
  return JSON.parse(fs.readFileSync(reportPath!, 'utf8')) as SessionReport
}

describe('runBatch reads ahead for the next task', () => {
  it("starts a later task's agent with no git process in between, and checkpoints as before", async () => {
    const r = setup()
    const worktree = (name: string) => path.join(r.dir, '.proctor', 'worktrees', 'ahead', name)
    // So that no machine is too slow for the reads to be done before the next task starts, task 0 waits
    // for the spare's (made for task 1) and task 1 for those of task 0's worktree, reset for task 2 (its
    // third `git config` there: task 0's own reading, task 0's last check, then task 2's). At most 10 s.
    const waits = [
      `grep -c '^${worktree('1-t1')} config done$'`,
      `grep -c '^${worktree('0-t0')} config done$'`,
    ]
    const wanted = [1, 3]
    const tasks = Array.from({ length: 3 }, (_, i) => ({
      name: `t${i}`,
      command: {
        shell: [
          `echo "$(pwd -P) AGENT" >> "$PROCTOR_TEST_GIT_LOG"`,
          i < 2
            ? `n=0; until [ "$(${waits[i]} "$PROCTOR_TEST_GIT_LOG")" -ge ${wanted[i]} ] || [ $n -ge 500 ]; do n=$((n+1)); sleep 0.02; done`
            : ':',
          `echo task ${i} > out-${i}.txt`,
        ].join('\n'),
      },
      role: null,
    }))
    const outcome = await runBatch({
      config: fastConfig(r, { checkpoints: { enabled: true, push: 'never' } }),
      cwd: r.dir,
      tasks,
      concurrency: 1,
      batchId: 'ahead',
      env: { ...process.env, ...r.env, PATH: process.env.PATH },
      onChildStart: (_task, index) => fs.appendFileSync(log, `START ${index}\n`),
    })
    expect(outcome.batch.completed_count).toBe(3)
    for (let i = 0; i < 3; i++) {
      expect(r.git(['show', `refs/proctor/ahead-${i}-t${i}:out-${i}.txt`])).toBe(`task ${i}\n`)
      const report = reportOf(outcome.batch.children[i]!.report_path)
      expect(report.checkpoints.length).toBeGreaterThan(0)
      // Judged against the batch's base: the chain starts on it.
      const chain = r.git(['rev-list', '--reverse', `refs/proctor/ahead-${i}-t${i}`]).split('\n')
      expect(chain[0]).toBe(r.git(['rev-parse', 'HEAD']).trim())
      expect(report.violations).toEqual([])
    }

    const lines = logLines()
    // The first task's worktree is made while it waits (its reads run beside that checkout); tasks 1
    // and 2 take the spare and a recycled worktree, whose reads were begun before they started.
    for (const index of [1, 2]) {
      const start = lines.indexOf(`START ${index}`)
      const agent = lines.findIndex((line, at) => at > start && line.endsWith(' AGENT'))
      expect(start).toBeGreaterThanOrEqual(0)
      expect(agent).toBeGreaterThan(start)
      const worktree = lines[agent]!.slice(0, -' AGENT'.length)
      const inBetween = lines
        .slice(start + 1, agent)
        .filter((line) => line.startsWith(`${worktree} `) && !line.endsWith(' done'))
      expect(inBetween, lines.join('\n')).toEqual([])
      const before = lines.slice(0, start).filter((line) => line.startsWith(`${worktree} `))
      expect(before).toContain(`${worktree} cat-file`)
      expect(before).toContain(`${worktree} config`)
    }
  })

  it('reads again when another task changed the shared git hooks after the read', async () => {
    const r = setup()
    const spare = path.join(r.dir, '.proctor', 'worktrees', 'stale', '1-t1')
    // Task 0 waits (up to 10 s) until the spare's reads for task 1 are done, then plants a hook in the
    // repository's shared hooks directory; with git_tamper: report it stays there.
    const plant = [
      `i=0; until grep -q '^${spare} config done$' "$PROCTOR_TEST_GIT_LOG" || [ $i -ge 500 ]; do i=$((i+1)); sleep 0.02; done`,
      'hooks="$(git rev-parse --path-format=absolute --git-common-dir)/hooks"',
      'mkdir -p "$hooks"',
      `printf '#!/bin/sh\\nexit 0\\n' > "$hooks/post-checkout"`,
      'chmod +x "$hooks/post-checkout"',
    ].join('\n')
    const outcome = await runBatch({
      config: fastConfig(r, {
        checkpoints: { enabled: true, push: 'never' },
        policy: { git_tamper: 'report' },
      }),
      cwd: r.dir,
      tasks: [
        { name: 't0', command: { shell: plant }, role: null },
        { name: 't1', command: { shell: 'echo quiet > quiet.txt' }, role: null },
      ],
      concurrency: 1,
      batchId: 'stale',
      env: { ...process.env, ...r.env, PATH: process.env.PATH },
    })
    const tamper = (index: number) =>
      reportOf(outcome.batch.children[index]!.report_path)
        .violations.filter((v) => v.constraint === 'git_tamper')
        .map((v) => v.file)
    // The hook is task 0's doing, reported by its session; task 1 found it there when it started.
    expect(tamper(0)).toEqual([path.join(r.dir, '.git', 'hooks', 'post-checkout')])
    expect(tamper(1)).toEqual([])
    expect(fs.existsSync(path.join(r.dir, '.git', 'hooks', 'post-checkout'))).toBe(true)
  })
})
