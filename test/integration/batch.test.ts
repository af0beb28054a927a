import fs from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { runBatch, BatchError } from '../../src/batch/batch.js'
import { parseSessionReport } from '../../src/report/aggregate.js'
import type { BatchReport } from '../../src/report/model.js'
import { makeTempRepo, tempDir } from '../helpers/git-repo.js'
import {
  batchRepo,
  extraWorktrees,
  fastConfig,
  hookLines,
  waitUntil,
  type BatchRepo,
} from './batch-helpers.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function repo(): BatchRepo {
  const r = batchRepo()
  cleanups.push(r.cleanup)
  return r
}

function counters(batch: BatchReport) {
  return [
    batch.completed_count,
    batch.failed_count,
    batch.errored_count,
    batch.interrupted_count,
    batch.timeout_count,
  ]
}

describe('runBatch', () => {
  it('runs every task as its own session and reports each outcome with the five counters', async () => {
    const r = repo()
    const ended: string[] = []
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      concurrency: 2,
      batchId: 'mix',
      tasks: [
        { name: 'ok', command: { shell: 'echo all good' }, role: 'tester' },
        { name: 'fails', command: { shell: 'echo broken >&2; exit 3' }, role: null },
        { name: 'missing', command: { file: 'proctor-no-such-agent', args: [] }, role: null },
        { name: 'slow', command: { shell: 'exec sleep 30' }, role: null, timeoutMs: 400 },
      ],
      onChildEnd: (child) => ended.push(child.name),
    })
    const { batch } = outcome
    expect(batch.children.map((c) => [c.task_index, c.name, c.status])).toEqual([
      [0, 'ok', 'completed'],
      [1, 'fails', 'failed'],
      [2, 'missing', 'errored'],
      [3, 'slow', 'timeout'],
    ])
    expect(batch.children[0]!.role).toBe('tester')
    expect(batch.children[1]!.summary).toContain('exited with code 3')
    expect(batch.children[3]!.summary).toContain('timeout')
    expect(counters(batch)).toEqual([1, 1, 1, 0, 1])
    expect(batch.verdict).toBe('block')
    expect(outcome.exitCode).toBe(1)
    expect(ended.sort()).toEqual(['fails', 'missing', 'ok', 'slow'])

    // Each child's report.json is in the repository's .proctor/sessions/ and listed in batch.json.
    const saved = JSON.parse(fs.readFileSync(outcome.reportPath, 'utf8')) as BatchReport
    expect(outcome.reportPath).toBe(path.join(r.dir, '.proctor/batches/mix/batch.json'))
    expect(saved.children.map((c) => c.status)).toEqual(batch.children.map((c) => c.status))
    for (const child of saved.children) {
      expect(child.report_path).toBe(
        path.join(r.dir, `.proctor/sessions/mix-${child.task_index}-${child.name}/report.json`),
      )
      const report = parseSessionReport(fs.readFileSync(child.report_path!, 'utf8'))
      if (typeof report === 'string') throw new Error(report)
      expect(report.session_id).toBe(`mix-${child.task_index}-${child.name}`)
      expect(report.status).toBe(child.status)
      // The agent that never spawned has no transcript; the others' moved along with their reports.
      if (child.name !== 'missing') expect(fs.existsSync(report.transcript.path)).toBe(true)
    }
    expect(fs.readFileSync(path.join(r.dir, '.proctor/sessions/mix-0-ok/transcript.log'), 'utf8')).toContain(
      'all good',
    )

    // Worktrees are gone, and proctor's state never shows in the user's git status.
    expect(extraWorktrees(r)).toEqual([])
    expect(fs.existsSync(path.join(r.dir, '.proctor/worktrees/mix'))).toBe(false)
    expect(r.git(['status', '--porcelain'])).toBe('')
  })

  it('fires subagent_stop per child and subagent_batch_complete exactly once with the partition', async () => {
    const r = repo()
    await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      batchId: 'hooks',
      tasks: [
        { name: 'a', command: { shell: 'true' }, role: 'writer' },
        { name: 'b', command: { shell: 'exit 1' }, role: null },
        { name: 'c', command: { shell: 'true' }, role: null },
      ],
    })
    const stops = hookLines(r.stopLog)
    expect(stops.map((s) => [s.extra.name, s.extra.status]).sort()).toEqual([
      ['a', 'completed'],
      ['b', 'failed'],
      ['c', 'completed'],
    ])
    expect(stops.every((s) => s.hook_event_name === 'subagent_stop' && s.session_id === 'hooks')).toBe(true)

    const complete = hookLines(r.completeLog)
    expect(complete).toHaveLength(1)
    const extra = complete[0]!.extra
    expect(complete[0]!.hook_event_name).toBe('subagent_batch_complete')
    expect(extra).toMatchObject({
      child_count: 3,
      completed_count: 2,
      failed_count: 1,
      errored_count: 0,
      interrupted_count: 0,
      timeout_count: 0,
    })
    expect(typeof extra.total_duration_ms).toBe('number')
    expect(extra.children!.map((c) => [c.task_index, c.name, c.role, c.status])).toEqual([
      [0, 'a', 'writer', 'completed'],
      [1, 'b', null, 'failed'],
      [2, 'c', null, 'completed'],
    ])
    for (const child of extra.children!) {
      expect(child).toHaveProperty('duration_ms')
      expect(child).toHaveProperty('summary')
      expect(child).toHaveProperty('checkpoint_ref')
      expect(child).toHaveProperty('violation_count')
    }
  })

  it('gives each child its own checkpoint ref holding only its own work, and never touches the user’s branch', async () => {
    const r = repo()
    const head = r.git(['rev-parse', 'HEAD']).trim()
    const outcome = await runBatch({
      config: fastConfig(r, { checkpoints: { enabled: true, push: 'never' } }),
      cwd: r.dir,
      env: r.env,
      batchId: 'refs',
      concurrency: 2,
      tasks: [
        { name: 'left', command: { shell: 'echo left > src/left.ts' }, role: null },
        { name: 'right', command: { shell: 'echo right > src/right.ts' }, role: null },
      ],
    })
    expect(outcome.exitCode).toBe(0)
    const [left, right] = outcome.batch.children
    expect(left!.checkpoint_ref).toBe('refs/proctor/refs-0-left')
    expect(right!.checkpoint_ref).toBe('refs/proctor/refs-1-right')
    expect(r.git(['show', 'refs/proctor/refs-0-left:src/left.ts'])).toBe('left\n')
    expect(r.git(['ls-tree', '--name-only', 'refs/proctor/refs-0-left', 'src/'])).not.toContain('right.ts')
    expect(r.git(['show', 'refs/proctor/refs-1-right:src/right.ts'])).toBe('right\n')
    expect(r.git(['ls-tree', '--name-only', 'refs/proctor/refs-1-right', 'src/'])).not.toContain('left.ts')
    // Both start from the user's HEAD, which stays where it was; the files never reach the main worktree.
    expect(r.git(['rev-parse', 'refs/proctor/refs-0-left~1']).trim()).toBe(head)
    expect(r.git(['rev-parse', 'HEAD']).trim()).toBe(head)
    expect(r.exists('src/left.ts') || r.exists('src/right.ts')).toBe(false)
    expect(extraWorktrees(r)).toEqual([])
  })

  it('keeps the worktrees when asked', async () => {
    const r = repo()
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      batchId: 'keep',
      keepWorktrees: true,
      tasks: [{ name: 'w', command: { shell: 'echo kept > out.txt' }, role: null }],
    })
    const dir = outcome.worktrees[0]!
    expect(dir).toBe(path.join(r.dir, '.proctor/worktrees/keep/0-w'))
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('kept\n')
    expect(extraWorktrees(r)).toEqual([dir])
    // The report is in the repository's state as well, so the batch lists a path that outlives the worktree.
    expect(outcome.batch.children[0]!.report_path).toBe(
      path.join(r.dir, '.proctor/sessions/keep-0-w/report.json'),
    )

    // The next batch points the kept worktree out and leaves it alone.
    let said = ''
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        said += chunk.toString()
        done()
      },
    })
    await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      batchId: 'next',
      output,
      tasks: [{ name: 'n', command: { shell: 'true' }, role: null }],
    })
    expect(said).toMatch(
      /1 worktree\(s\) of earlier batches are still in \.proctor\/worktrees\/.*git worktree remove --force/,
    )
    expect(extraWorktrees(r)).toEqual([dir])
    r.git(['worktree', 'remove', '--force', dir])
  })

  it('counts a task whose worktree cannot be created as errored, reports why, and runs the others', async () => {
    const r = repo()
    // Something already occupies the second task's worktree directory, so `git worktree add` refuses.
    r.write('.proctor/worktrees/crash/1-blocked/occupied.txt', 'not yours\n')
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      batchId: 'crash',
      tasks: [
        { name: 'fine', command: { shell: 'true' }, role: null },
        { name: 'blocked', command: { shell: 'true' }, role: null },
        { name: 'also-fine', command: { shell: 'true' }, role: null },
      ],
    })
    expect(outcome.batch.children.map((c) => c.status)).toEqual(['completed', 'errored', 'completed'])
    expect(outcome.batch.children[1]!.summary).toMatch(/task blocked could not get a worktree/)
    expect(outcome.batch.problems).toHaveLength(1)
    expect(counters(outcome.batch)).toEqual([2, 0, 1, 0, 0])
    expect(hookLines(r.completeLog)).toHaveLength(1)
    expect(hookLines(r.stopLog)).toHaveLength(3)
    // The occupying file is the user's: left alone.
    expect(r.read('.proctor/worktrees/crash/1-blocked/occupied.txt')).toBe('not yours\n')
  })

  it('on abort interrupts the running task, never starts the queued ones, and still completes once', async () => {
    const r = repo()
    const marks = tempDir('proctor-batch-marks-')
    cleanups.push(() => fs.rmSync(marks, { recursive: true, force: true }))
    const abort = new AbortController()
    const run = runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: { ...r.env, MARKS: marks },
      batchId: 'stop',
      concurrency: 1,
      signal: abort.signal,
      tasks: ['first', 'second', 'third'].map((name) => ({
        name,
        command: { shell: 'touch "$MARKS/$PROCTOR_TASK_NAME"; exec sleep 30' },
        role: null,
      })),
    })
    await waitUntil(() => fs.existsSync(path.join(marks, 'first')), 'the first task to start')
    abort.abort('SIGTERM')
    const outcome = await run
    expect(outcome.exitCode).toBe(143)
    expect(outcome.interruptedBy).toBe('SIGTERM')
    expect(outcome.batch.children.map((c) => c.status)).toEqual(['interrupted', 'interrupted', 'interrupted'])
    expect(outcome.batch.children[0]!.report_path).not.toBeNull()
    expect(outcome.batch.children[1]!.summary).toMatch(/not started/)
    expect(outcome.batch.children[2]!.report_path).toBeNull()
    expect(fs.readdirSync(marks)).toEqual(['first'])
    expect(counters(outcome.batch)).toEqual([0, 0, 0, 3, 0])
    const complete = hookLines(r.completeLog)
    expect(complete).toHaveLength(1)
    expect(complete[0]!.extra.interrupted_count).toBe(3)
    expect(hookLines(r.stopLog).map((s) => s.extra.name)).toEqual(['first'])
    expect(extraWorktrees(r)).toEqual([])
  })

  it('refuses to run outside a git repository, in a repository without commits, or without tasks', async () => {
    const plain = tempDir('proctor-batch-plain-')
    cleanups.push(() => fs.rmSync(plain, { recursive: true, force: true }))
    const r = repo()
    const config = fastConfig(r)
    const task = [{ name: 't', command: { shell: 'true' }, role: null }]

    const outside = runBatch({ config, cwd: plain, tasks: task })
    await expect(outside).rejects.toBeInstanceOf(BatchError)
    await expect(outside).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/not inside a git repository/),
    })

    const unborn = makeTempRepo({ commit: false })
    cleanups.push(unborn.cleanup)
    await expect(runBatch({ config, cwd: unborn.dir, env: unborn.env, tasks: task })).rejects.toThrow(
      /no commits yet/,
    )

    await expect(runBatch({ config, cwd: r.dir, env: r.env })).rejects.toThrow(
      /no tasks.*batch\.tasks.*--task/,
    )
    expect(hookLines(r.completeLog)).toEqual([])
  })

  it('takes its tasks, roles and timeouts from proctor.yml', async () => {
    const r = repo()
    const config = fastConfig(r, {
      batch: {
        concurrency: 2,
        tasks: [
          { name: 'argv', command: ['sh', '-c', 'echo from-argv'], role: 'tester' },
          { name: 'shell', shell: 'exec sleep 30', timeout: '300ms' },
        ],
      },
    })
    const outcome = await runBatch({ config, cwd: r.dir, env: r.env, batchId: 'yml' })
    expect(outcome.batch.children.map((c) => [c.name, c.role, c.status])).toEqual([
      ['argv', 'tester', 'completed'],
      ['shell', null, 'timeout'],
    ])
  })
})
