// `proctor batch` as a user runs it: a real process (the batch/report entry in test/fixtures/batch), real
// tasks in a real repository, the printed summary, the exit codes, and SIGINT/SIGTERM to the CLI itself.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { BatchReport } from '../../src/report/model.js'
import { tempDir } from '../helpers/git-repo.js'
import { batchRepo, extraWorktrees, hookLines, waitUntil, type BatchRepo } from './batch-helpers.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href
const ENTRY = path.join(ROOT, 'test/fixtures/batch/proctor-cli.ts')

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function repo(yml?: string): BatchRepo {
  const r = batchRepo()
  cleanups.push(r.cleanup)
  r.write(
    'proctor.yml',
    yml ??
      [
        'agent: { pty: false }',
        'timeouts: { grace: 300ms }',
        'checkpoints: { enabled: false }',
        'hooks:',
        `  subagent_batch_complete: [ { command: "cat >> '${r.completeLog}'" } ]`,
        '',
      ].join('\n'),
  )
  r.commitAll('config')
  return r
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function proctor(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onSpawn?: (pid: number) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, ENTRY, 'batch', ...args], {
      cwd,
      env: { ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    if (child.pid) onSpawn?.(child.pid)
  })
}

describe('proctor batch (CLI)', () => {
  it('runs --task shell strings, prints the summary table, and exits 1 when a task failed', async () => {
    const r = repo()
    const run = await proctor(r.dir, ['--task', "ok=echo 'it works' && true", '--task', 'bad=exit 4'], r.env)
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/verdict block/)
    expect(run.stdout).toContain('completed 1 · failed 1 · errored 0 · interrupted 0 · timeout 0')
    expect(run.stdout).toMatch(/0 completed\s+ok/)
    expect(run.stdout).toMatch(/1 failed\s+bad/)
    expect(run.stdout).toMatch(/report: .*\.proctor\/batches\/.+\/batch\.json/)
    expect(run.stderr).toMatch(/\[2\/2\] bad: failed/)
    expect(hookLines(r.completeLog)).toHaveLength(1)
    expect(extraWorktrees(r)).toEqual([])
  })

  it('exits 0 with --json when every task completed and the stop hooks allowed', async () => {
    const r = repo()
    const run = await proctor(
      r.dir,
      ['--json', '--concurrency', '2', '--task', 'a=true', '--task', 'b=true'],
      r.env,
    )
    expect(run.code).toBe(0)
    const batch = JSON.parse(run.stdout) as BatchReport
    expect(batch).toMatchObject({ child_count: 2, completed_count: 2, verdict: 'allow' })
  })

  it('reads batch.tasks from the config file given with -c', async () => {
    const r = repo()
    r.write(
      'other.yml',
      [
        'agent: { pty: false }',
        'checkpoints: { enabled: false }',
        'batch:',
        '  tasks:',
        '    - { name: from-file, shell: "exit 0", role: tester }',
        '',
      ].join('\n'),
    )
    const run = await proctor(r.dir, ['-c', 'other.yml', '--json'], r.env)
    expect(run.code).toBe(0)
    const batch = JSON.parse(run.stdout) as BatchReport
    expect(batch.children.map((c) => [c.name, c.role, c.status])).toEqual([
      ['from-file', 'tester', 'completed'],
    ])
  })

  it('exits 2 with a message saying how to fix bad usage', async () => {
    const r = repo()
    const noEq = await proctor(r.dir, ['--task', 'just-a-name'], r.env)
    expect(noEq.code).toBe(2)
    expect(noEq.stderr).toMatch(/expected name=command.*\/bin\/sh -c/)

    const zero = await proctor(r.dir, ['--concurrency', '0', '--task', 'a=true'], r.env)
    expect(zero.code).toBe(2)
    expect(zero.stderr).toMatch(/--concurrency "0": give a whole number from 1 to 64/)

    const none = await proctor(r.dir, [], r.env)
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/no tasks/)

    const plain = tempDir('proctor-batch-cli-plain-')
    cleanups.push(() => fs.rmSync(plain, { recursive: true, force: true }))
    const outside = await proctor(plain, ['--task', 'a=true'], r.env)
    expect(outside.code).toBe(2)
    expect(outside.stderr).toMatch(/not inside a git repository/)
    expect(hookLines(r.completeLog)).toEqual([])
  })

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`on ${signal} interrupts the running task, cancels the queued one, reports, and exits ${code}`, async () => {
      const r = repo()
      const marks = tempDir('proctor-batch-cli-marks-')
      cleanups.push(() => fs.rmSync(marks, { recursive: true, force: true }))
      const task = 'touch "$MARKS/$PROCTOR_TASK_NAME"; exec sleep 30'
      let pid = 0
      const running = proctor(
        r.dir,
        ['--concurrency', '1', '--task', `first=${task}`, '--task', `second=${task}`],
        { ...r.env, MARKS: marks },
        (p) => (pid = p),
      )
      await waitUntil(() => fs.existsSync(path.join(marks, 'first')), 'the first task to start')
      process.kill(pid, signal)
      const run = await running
      expect(run.code).toBe(code)
      expect(run.stdout).toContain('interrupted 2')
      expect(run.stdout).toMatch(/not started: the batch was interrupted/)
      expect(fs.readdirSync(marks)).toEqual(['first'])
      const complete = hookLines(r.completeLog)
      expect(complete).toHaveLength(1)
      expect(complete[0]!.extra).toMatchObject({ child_count: 2, interrupted_count: 2 })
      expect(extraWorktrees(r)).toEqual([])
    })
  }
})
