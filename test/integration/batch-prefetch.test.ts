// Worktrees made ahead: the next task's worktree is ready while the current one runs, and one made ahead
// for a task that an interrupt cancelled is removed like any other.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runBatch } from '../../src/session/batch.js'
import { batchRepo, extraWorktrees, fastConfig, waitUntil, type BatchRepo } from './batch-helpers.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function repo(): BatchRepo {
  const r = batchRepo()
  cleanups.push(r.cleanup)
  return r
}

/** Waits (up to 20 s) for the next task's worktree to be checked out next to this one; exits 7 if not. */
const WAIT_FOR_NEXT = [
  'i=0',
  'while [ ! -f ../1-next/README.md ]; do',
  '  i=$((i+1)); [ $i -gt 400 ] && { echo "next worktree never appeared" >&2; exit 7; }',
  '  sleep 0.05',
  'done',
].join('\n')

describe('runBatch worktrees made ahead', () => {
  it('checks the next task out while the current task still runs, and removes both at the end', async () => {
    const r = repo()
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      concurrency: 1,
      batchId: 'ahead',
      tasks: [
        { name: 'first', command: { shell: `${WAIT_FOR_NEXT}\necho saw the next worktree` }, role: null },
        { name: 'next', command: { shell: 'cat README.md' }, role: null },
      ],
    })
    expect(outcome.batch.children.map((c) => [c.name, c.status])).toEqual([
      ['first', 'completed'],
      ['next', 'completed'],
    ])
    expect(extraWorktrees(r)).toEqual([])
    expect(fs.existsSync(path.join(r.dir, '.proctor/worktrees/ahead'))).toBe(false)
  })

  it('removes a worktree made ahead for a task that the interrupt kept from starting', async () => {
    const r = repo()
    const controller = new AbortController()
    const nextReady = path.join(r.dir, '.proctor/worktrees/cancel/1-next/README.md')
    const marker = path.join(path.dirname(r.stopLog), 'next-ran')
    const running = runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      concurrency: 1,
      batchId: 'cancel',
      signal: controller.signal,
      tasks: [
        { name: 'first', command: { shell: `${WAIT_FOR_NEXT}\nexec sleep 30` }, role: null },
        { name: 'next', command: { shell: `touch '${marker}'` }, role: null },
      ],
    })
    await waitUntil(() => fs.existsSync(nextReady), 'the next task’s worktree to be made ahead')
    controller.abort('SIGINT')
    const outcome = await running
    expect(outcome.batch.children.map((c) => [c.name, c.status])).toEqual([
      ['first', 'interrupted'],
      ['next', 'interrupted'],
    ])
    expect(outcome.batch.children[1]!.summary).toMatch(/not started/)
    expect(fs.existsSync(marker)).toBe(false)
    expect(extraWorktrees(r)).toEqual([])
    expect(fs.existsSync(path.join(r.dir, '.proctor/worktrees/cancel'))).toBe(false)
  })
})
