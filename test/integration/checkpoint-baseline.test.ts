// The baseline (issue 27): the store records the worktree as the user left it before the agent runs, and
// judges, reverts and resumes against it; its private index is never mistaken for a crashed session's.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import {
  CheckpointStore,
  type CheckpointStoreOptions,
  type ValidateContext,
} from '../../src/checkpoints/store.js'
import { removeStaleIndexes } from '../../src/checkpoints/stale-indexes.js'
import { revertPaths } from '../../src/checkpoints/restore.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, userState, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
const stores: CheckpointStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined)
  for (const repo of repos.splice(0)) repo.cleanup()
})

const withhold = (p: string) => (p === '.env' || p.startsWith('secrets/') ? 'in a forbidden area' : null)

function setup(): TempRepo {
  const repo = makeTempRepo({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'keep.txt': 'keep\n' } })
  repos.push(repo)
  repo.write('a.txt', 'a\nuser\n')
  repo.write('b.txt', 'b\nstaged\n')
  repo.git(['add', 'b.txt'])
  repo.write('notes.txt', 'notes\n')
  repo.write('.env', 'SECRET=user\n')
  return repo
}

function open(repo: TempRepo, extra: Partial<CheckpointStoreOptions> = {}): CheckpointStore {
  const store = new CheckpointStore({
    git: new Git({ cwd: repo.dir, env: repo.env }),
    session: 'base-1',
    maxFileSize: 1024 * 1024,
    withhold,
    ...extra,
  })
  stores.push(store)
  return store
}

describe('CheckpointStore baseline', () => {
  it("records the dirty tree as checkpoint 0 and judges only the agent's changes after it", async () => {
    const repo = setup()
    const before = userState(repo)
    const head = repo.git(['rev-parse', 'HEAD']).trim()
    const judged: ValidateContext[] = []
    const store = open(repo, { validate: (ctx) => (judged.push(ctx), []) })

    const baseline = await store.recordBaseline()

    expect(baseline.preExisting).toEqual(['.env', 'a.txt', 'b.txt', 'notes.txt'])
    expect(userState(repo)).toBe(before)
    expect(repo.git(['rev-parse', 'refs/proctor/base-1']).trim()).toBe(baseline.commit)
    expect(repo.git(['rev-parse', `${baseline.commit}^`]).trim()).toBe(head)
    expect(repo.git(['show', `${baseline.commit}:b.txt`])).toBe('b\nstaged\n')
    expect(repo.git(['ls-tree', '--name-only', baseline.commit!])).not.toContain('.env')
    // The user's forbidden file is kept, byte for byte, on a local-only ref outside refs/proctor/.
    expect(repo.git(['show', 'refs/proctor-local/base-1:.env'])).toBe('SECRET=user\n')

    // Nothing the agent did: no checkpoint, nothing judged.
    expect(await store.create('interval')).toBeNull()
    repo.write('a.txt', 'a\nuser\nagent\n')
    const one = await store.createDetailed('interval')
    expect(one!.record.seq).toBe(1)
    expect(one!.record.files_changed).toEqual(['a.txt'])
    expect(judged).toHaveLength(1)
    expect(judged[0]!.cumulative.map((f) => f.path)).toEqual(['a.txt'])
    expect(judged[0]!.withheld).toEqual([])
    expect(judged[0]!.files[0]!.linesAdded).toBe(1)

    // The agent changes the user's forbidden file: judged as a modification, and given back by a revert.
    repo.write('.env', 'SECRET=agent\n')
    await store.create('interval')
    expect(judged.at(-1)!.withheld.map((f) => [f.path, f.status])).toEqual([['.env', 'M']])
    await revertPaths(new Git({ cwd: repo.dir, env: repo.env }), store.revertSource!, ['.env'])
    expect(repo.read('.env')).toBe('SECRET=user\n')
  })

  it('a resumed chain keeps its first baseline, and an untouched forbidden file stays unjudged', async () => {
    const repo = setup()
    const first = open(repo, { indexName: 'cli-1' })
    const baseline = await first.recordBaseline()
    await first.close()
    // The user commits between the two sessions: the second still judges against the first baseline.
    repo.git(['commit', '-q', '-m', 'staged work'])
    const judged: ValidateContext[] = []
    const second = open(repo, { indexName: 'cli-2', validate: (ctx) => (judged.push(ctx), []) })
    expect((await second.recordBaseline()).commit).toBe(baseline.commit)
    repo.write('keep.txt', 'agent\n')
    const record = await second.create('manual')
    expect(record!.seq).toBe(1)
    expect(judged[0]!.cumulative.map((f) => f.path)).toEqual(['keep.txt'])
    expect(judged[0]!.withheld).toEqual([])
    expect(repo.git(['log', '-1', '--format=%B', record!.sha])).toContain(
      `Proctor-Baseline: ${baseline.commit}`,
    )
  })

  it('a clean tree costs no commit: the baseline is HEAD', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    repos.push(repo)
    const store = open(repo)
    const baseline = await store.recordBaseline()
    expect(baseline).toEqual({ commit: repo.git(['rev-parse', 'HEAD']).trim(), preExisting: [] })
    expect(repo.git(['for-each-ref', 'refs/proctor', 'refs/proctor-local'])).toBe('')
  })

  it('an over-size file the user left is pre-existing even when it is all that differs (no checkpoint 0)', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    repos.push(repo)
    repo.write('data.bin', Buffer.alloc(4096, 7))
    const store = open(repo, { maxFileSize: 1024 })
    const baseline = await store.recordBaseline()
    expect(baseline).toEqual({ commit: repo.git(['rev-parse', 'HEAD']).trim(), preExisting: ['data.bin'] })
  })

  it("a sparse checkout's files outside the cone are not deletions, but a file the agent writes there is recorded", async () => {
    const repo = makeTempRepo({ files: { 'd1/a.txt': 'a\n', 'd2/b.txt': 'b\n', 'd2/c.txt': 'c\n' } })
    repos.push(repo)
    repo.git(['sparse-checkout', 'set', 'd1'])
    repo.write('notes.txt', 'notes\n')
    const store = open(repo)
    const baseline = await store.recordBaseline()
    expect(baseline.preExisting).toEqual(['notes.txt'])
    expect(repo.git(['ls-tree', '-r', '--name-only', baseline.commit!]).split('\n')).toContain('d2/b.txt')
    // Outside the cone, git's own status does not look; the agent's file there must not be hidden.
    repo.write('d2/b.txt', 'agent\n')
    const record = await store.create('manual')
    expect(record!.files_changed).toEqual(['d2/b.txt'])
    expect(repo.git(['show', `${record!.sha}:d2/b.txt`])).toBe('agent\n')
    expect(repo.git(['ls-tree', '-r', '--name-only', record!.sha]).split('\n')).toContain('d2/c.txt')
  })
})

describe('removeStaleIndexes', () => {
  it("never removes a live session's index, however old its mtime (a copy of the user's index)", () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'proctor-stale-'))
    try {
      const old = new Date(Date.now() - 60 * 60 * 1000)
      const index = path.join(dir, 'index-live-1')
      fs.writeFileSync(index, 'DIRC')
      fs.writeFileSync(`${index}.owner`, `${process.pid} \n`)
      fs.writeFileSync(path.join(dir, 'index-crashed-1'), 'DIRC')
      fs.writeFileSync(path.join(dir, 'index-crashed-1.owner'), '999999999 \n')
      for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), old, old)

      // Its session's run record says nothing (the agent already exited): the owner decides.
      const removed = removeStaleIndexes(dir, new Set())

      expect(removed.sort()).toEqual(['index-crashed-1', 'index-crashed-1.owner'])
      expect(fs.readdirSync(dir).sort()).toEqual(['index-live-1', 'index-live-1.owner'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
