// The batch invariant under random mixes of real outcomes: completed + failed + errored + interrupted +
// timeout == child_count, every task is exactly one child, subagent_batch_complete fires exactly once with
// the same counters, queued tasks never start after an abort, and no worktree is left behind.
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { runBatch, type BatchTask } from '../../src/batch/batch.js'
import type { SessionStatus } from '../../src/report/model.js'
import { tempDir } from '../helpers/git-repo.js'
import { batchRepo, extraWorktrees, fastConfig, hookLines } from './batch-helpers.js'

type Kind = 'completed' | 'failed' | 'missing-agent' | 'no-worktree' | 'timeout' | 'slow'

const EXPECTED: Record<Kind, SessionStatus> = {
  completed: 'completed',
  failed: 'failed',
  'missing-agent': 'errored',
  'no-worktree': 'errored',
  timeout: 'timeout',
  slow: 'completed',
}

type Abort =
  | { at: 'never' }
  | { at: 'child-start' | 'child-end'; child: number; reason: 'SIGINT' | 'SIGTERM' }
  | { at: 'after-ms'; ms: number; reason: 'SIGINT' | 'SIGTERM' }

const repo = batchRepo()
const marks = tempDir('proctor-batch-prop-marks-')
afterAll(() => {
  repo.cleanup()
  fs.rmSync(marks, { recursive: true, force: true })
})

function task(kind: Kind, index: number): BatchTask {
  const mark = `touch "$MARKS/$PROCTOR_BATCH_ID-$PROCTOR_TASK_INDEX"`
  const name = `t${index}-${kind}`
  switch (kind) {
    case 'completed':
    case 'no-worktree':
      return { name, command: { shell: `${mark}; echo done` }, role: null }
    case 'failed':
      return { name, command: { shell: `${mark}; exit 3` }, role: 'tester' }
    case 'missing-agent':
      return { name, command: { file: 'proctor-no-such-agent', args: [] }, role: null }
    case 'timeout':
      return { name, command: { shell: `${mark}; exec sleep 30` }, role: null, timeoutMs: 300 }
    case 'slow':
      return { name, command: { shell: `${mark}; sleep 0.3` }, role: 'writer' }
  }
}

const kinds = fc.constantFrom<Kind>('completed', 'failed', 'missing-agent', 'no-worktree', 'timeout', 'slow')
const reason = fc.constantFrom<'SIGINT' | 'SIGTERM'>('SIGINT', 'SIGTERM')
const abort: fc.Arbitrary<Abort> = fc.oneof(
  fc.constant<Abort>({ at: 'never' }),
  fc.record({ at: fc.constantFrom('child-start' as const, 'child-end' as const), child: fc.nat(3), reason }),
  fc.record({ at: fc.constant('after-ms' as const), ms: fc.integer({ min: 0, max: 600 }), reason }),
)

let runNo = 0

describe('batch invariant (property-based)', () => {
  it(
    'partitions every mix of outcomes, crashes and cancellations exactly',
    { timeout: 240_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(kinds, { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 1, max: 3 }),
          abort,
          async (drawn, concurrency, stop) => {
            const batchId = `prop-${++runNo}`
            // Only the first `concurrency` tasks are sure to need a fresh worktree (later ones may get a
            // recycled one), so only they can be kept from getting one by an occupied directory.
            const mix = drawn.map((kind, index) =>
              kind === 'no-worktree' && index >= concurrency ? 'completed' : kind,
            )
            const tasks = mix.map(task)
            mix.forEach((kind, index) => {
              if (kind === 'no-worktree') {
                repo.write(`.proctor/worktrees/${batchId}/${index}-${tasks[index]!.name}/occupied`, 'x')
              }
            })
            const controller = new AbortController()
            let timer: NodeJS.Timeout | undefined
            if (stop.at === 'after-ms') timer = setTimeout(() => controller.abort(stop.reason), stop.ms)
            let started = 0
            let ended = 0
            const outcome = await runBatch({
              config: fastConfig(repo),
              cwd: repo.dir,
              env: { ...repo.env, MARKS: marks },
              batchId,
              tasks,
              concurrency,
              signal: controller.signal,
              onChildStart: () => {
                if (stop.at === 'child-start' && started++ === stop.child) controller.abort(stop.reason)
              },
              onChildEnd: () => {
                if (stop.at === 'child-end' && ended++ === stop.child) controller.abort(stop.reason)
              },
            })
            clearTimeout(timer)
            const { batch } = outcome
            const aborted = controller.signal.aborted

            // The five counters partition the children, and every task is exactly one child, in order.
            const statuses = batch.children.map((c) => c.status)
            const count = (s: SessionStatus) => statuses.filter((x) => x === s).length
            expect(batch.child_count).toBe(mix.length)
            expect(batch.children.map((c) => c.task_index)).toEqual(mix.map((_, i) => i))
            expect(batch.children.map((c) => c.name)).toEqual(tasks.map((t) => t.name))
            expect([
              batch.completed_count,
              batch.failed_count,
              batch.errored_count,
              batch.interrupted_count,
              batch.timeout_count,
            ]).toEqual([
              count('completed'),
              count('failed'),
              count('errored'),
              count('interrupted'),
              count('timeout'),
            ])
            expect(
              batch.completed_count +
                batch.failed_count +
                batch.errored_count +
                batch.interrupted_count +
                batch.timeout_count,
            ).toBe(batch.child_count)

            // Each child has its own outcome, or was interrupted by the abort.
            batch.children.forEach((child, i) => {
              const expected = EXPECTED[mix[i]!]
              if (aborted) expect([expected, 'interrupted']).toContain(child.status)
              else expect(child.status).toBe(expected)
              // A task cancelled before it started never ran its command.
              if (/not started/.test(child.summary)) {
                expect(fs.existsSync(path.join(marks, `${batchId}-${i}`))).toBe(false)
                expect(child.status).toBe('interrupted')
              }
            })

            // subagent_batch_complete: exactly once, with the same counters and children.
            const completes = hookLines(repo.completeLog).filter((l) => l.session_id === batchId)
            expect(completes).toHaveLength(1)
            expect(completes[0]!.extra).toMatchObject({
              child_count: batch.child_count,
              completed_count: batch.completed_count,
              failed_count: batch.failed_count,
              errored_count: batch.errored_count,
              interrupted_count: batch.interrupted_count,
              timeout_count: batch.timeout_count,
            })
            expect(completes[0]!.extra.children!.map((c) => c.status)).toEqual(statuses)

            // subagent_stop: at most once per child, for every child that was taken from the queue.
            const stops = hookLines(repo.stopLog)
              .filter((l) => l.session_id === batchId)
              .map((l) => l.extra.task_index as number)
            expect(new Set(stops).size).toBe(stops.length)
            if (!aborted) expect(stops.sort()).toEqual(mix.map((_, i) => i))
            batch.children.forEach((child, i) => {
              if (!stops.includes(i)) expect(child.summary).toMatch(/not started/)
            })

            // Exit code and cleanup.
            // (An abort that lands after the last child, while the batch is finishing, still counts.)
            if (!aborted) expect(outcome.interruptedBy).toBeNull()
            if (outcome.interruptedBy)
              expect(outcome.exitCode).toBe(outcome.interruptedBy === 'SIGTERM' ? 143 : 130)
            else expect(outcome.exitCode).toBe(statuses.every((s) => s === 'completed') ? 0 : 1)
            expect(extraWorktrees(repo)).toEqual([])
          },
        ),
        { numRuns: 15 },
      )
    },
  )
})
