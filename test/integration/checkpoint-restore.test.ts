import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { listCheckpoints, listSessions, resolveCheckpoint } from '../../src/checkpoints/history.js'
import { restoreCheckpoint, RestoreRefused, revertPaths } from '../../src/checkpoints/restore.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, userState, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

/** base: a, c, .gitignore; checkpoint 1: a modified, b added, c deleted; then more work after it. */
async function scenario() {
  const repo = makeTempRepo({ files: { 'a.txt': 'base a\n', 'c.txt': 'base c\n', '.gitignore': '*.log\n' } })
  repos.push(repo)
  const git = new Git({ cwd: repo.dir, env: repo.env })
  const store = new CheckpointStore({ git, session: 's1', maxFileSize: 1 << 20 })
  repo.write('a.txt', 'agent a v1\n')
  repo.write('dir/b.txt', 'agent b\n')
  repo.remove('c.txt')
  const first = (await store.create('interval'))!
  repo.write('a.txt', 'agent a v2\n')
  repo.write('later/d.txt', 'added after the checkpoint\n')
  repo.write('debug.log', 'ignored and precious\n')
  const second = (await store.create('interval'))!
  await store.close()
  return { repo, git, first, second }
}

const restore = (git: Git, id: string, files?: string[]) =>
  restoreCheckpoint({ git, id, files, maxFileSize: 1 << 20 })

describe('history', () => {
  it('lists sessions and their checkpoints and resolves the ids users type', async () => {
    const { git, first, second } = await scenario()
    expect((await listSessions(git)).map((s) => s.session)).toEqual(['s1'])
    const chain = await listCheckpoints(git, 's1')
    expect(chain.map((c) => [c.seq, c.sha, c.trigger])).toEqual([
      [1, first.sha, 'interval'],
      [2, second.sha, 'interval'],
    ])
    expect((await resolveCheckpoint(git, 's1@1')).sha).toBe(first.sha)
    expect((await resolveCheckpoint(git, 's1')).sha).toBe(second.sha)
    expect((await resolveCheckpoint(git, 'latest')).sha).toBe(second.sha)
    expect((await resolveCheckpoint(git, first.sha.slice(0, 10))).seq).toBe(1)
    await expect(resolveCheckpoint(git, 's1@9')).rejects.toThrow(/has no checkpoint 9; it has 1..2/)
    await expect(resolveCheckpoint(git, 'nope@1')).rejects.toThrow(/no session "nope"; sessions: s1/)
    await expect(resolveCheckpoint(git, 'HEAD')).rejects.toThrow(/is not a checkpoint/)
  })
})

describe('restoreCheckpoint', () => {
  it('restores the whole tree, deletes only files added after it, keeps ignored files and the index', async () => {
    const { repo, git, first } = await scenario()
    const indexBefore = JSON.parse(userState(repo)).index
    const result = await restore(git, 's1@1')
    expect(repo.read('a.txt')).toBe('agent a v1\n')
    expect(repo.read('dir/b.txt')).toBe('agent b\n')
    expect(repo.exists('c.txt')).toBe(false)
    expect(repo.exists('later/d.txt')).toBe(false)
    expect(repo.exists('later')).toBe(false)
    expect(repo.read('debug.log')).toBe('ignored and precious\n')
    expect(result.deleted).toEqual(['later/d.txt'])
    expect(result.checkpoint.sha).toBe(first.sha)
    // The user's index and HEAD did not move.
    expect(JSON.parse(userState(repo)).index).toEqual(indexBefore)
    expect(repo.git(['symbolic-ref', 'HEAD']).trim()).toBe('refs/heads/main')
  })

  it('writes only the files that differ, and leaves alone what the checkpoint skipped (the user had it then)', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n', 'big.txt': 'small\n', 'same.txt': 'same\n' } })
    repos.push(repo)
    const git = new Git({ cwd: repo.dir, env: repo.env })
    const store = new CheckpointStore({ git, session: 's2', maxFileSize: 64 })
    const big = 'x'.repeat(200) + '\n'
    repo.write('big.txt', big) // tracked, over max_file_size: the checkpoint holds HEAD's "small"
    repo.write('data.bin', 'y'.repeat(200)) // untracked, over max_file_size: not in the checkpoint
    repo.write('a.txt', 'a v1\n')
    const first = (await store.create('interval'))!
    expect(first.skipped).toEqual(['big.txt', 'data.bin'])
    await store.close()
    repo.write('a.txt', 'a v2\n')
    const old = new Date(Date.now() - 3600_000)
    fs.utimesSync(path.join(repo.dir, 'same.txt'), old, old)
    const result = await restore(git, 's2@1')
    expect(result.restored).toEqual(['a.txt'])
    expect(repo.read('a.txt')).toBe('a v1\n')
    expect(fs.statSync(path.join(repo.dir, 'same.txt')).mtimeMs).toBe(old.getTime())
    expect(repo.read('big.txt')).toBe(big)
    expect(repo.read('data.bin')).toBe('y'.repeat(200))
    expect(result.deleted).toEqual([])
    expect(result.keptSkipped.sort()).toEqual(['big.txt', 'data.bin'])
  })

  it('refuses to delete when the checkpoint skipped more files than its message lists (it cannot tell them apart)', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    repos.push(repo)
    const git = new Git({ cwd: repo.dir, env: repo.env })
    const store = new CheckpointStore({ git, session: 's3', maxFileSize: 8 })
    for (let i = 0; i < 51; i++) repo.write(`big/${i}.bin`, 'over eight bytes\n')
    repo.write('a.txt', 'a v1\n')
    const first = (await store.create('interval'))!
    expect(first.skipped).toHaveLength(51)
    await store.close()
    repo.write('later.txt', 'added\n')
    await expect(restore(git, 's3@1')).rejects.toThrow(/skipped more files than its message lists/)
    expect(repo.exists('big/50.bin')).toBe(true)
    expect(repo.exists('later.txt')).toBe(true)
  })

  it('takes a safety checkpoint first, so the restore can be undone', async () => {
    const { repo, git } = await scenario()
    repo.write('a.txt', 'unsaved edit\n')
    const result = await restore(git, 's1@1')
    expect(result.safety).not.toBeNull()
    expect(repo.git(['show', `${result.safety!.sha}:a.txt`])).toBe('unsaved edit\n')
    await restore(git, `s1@${result.safety!.seq}`)
    expect(repo.read('a.txt')).toBe('unsaved edit\n')
    expect(repo.read('later/d.txt')).toBe('added after the checkpoint\n')
  })

  it('refuses a whole-tree restore when HEAD moved from the checkpoint base, and says what to do', async () => {
    const { repo, git } = await scenario()
    repo.commitAll('user committed meanwhile')
    const error = await restore(git, 's1@1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RestoreRefused)
    expect((error as Error).message).toMatch(
      /HEAD is .* but the checkpoint was taken on .*git switch --detach.*--files/s,
    )
    expect(repo.read('a.txt')).toBe('agent a v2\n')
  })

  it('restores single files (even after HEAD moved) and deletes a requested file absent from the checkpoint', async () => {
    const { repo, git } = await scenario()
    repo.commitAll('user committed meanwhile')
    const result = await restore(git, 's1@1', ['a.txt', 'later/d.txt'])
    expect(repo.read('a.txt')).toBe('agent a v1\n')
    expect(repo.exists('later/d.txt')).toBe(false)
    expect(result.restored).toEqual(['a.txt'])
    expect(result.deleted).toEqual(['later/d.txt'])
    expect(repo.read('debug.log')).toBe('ignored and precious\n')
  })

  it('never deletes a file the restored .gitignore ignores', async () => {
    const repo = makeTempRepo({ files: { '.gitignore': 'gen/\n', 'a.txt': 'a\n' } })
    repos.push(repo)
    const git = new Git({ cwd: repo.dir, env: repo.env })
    const store = new CheckpointStore({ git, session: 's2', maxFileSize: 1 << 20 })
    repo.write('a.txt', 'a1\n')
    await store.create('interval')
    await store.close()
    repo.write('.gitignore', '')
    repo.write('gen/out.txt', 'generated\n')
    const result = await restore(git, 's2@1')
    expect(repo.read('.gitignore')).toBe('gen/\n')
    expect(repo.read('gen/out.txt')).toBe('generated\n')
    expect(result.keptIgnored).toEqual(['gen/out.txt'])
  })

  it('rejects paths outside the repository and paths that exist nowhere', async () => {
    const { git } = await scenario()
    await expect(restore(git, 's1@1', ['../etc/passwd'])).rejects.toThrow(/not a path inside the repository/)
    await expect(restore(git, 's1@1', ['no/such.txt'])).rejects.toThrow(
      /exists in s1@1 or in the current worktree/,
    )
  })
})

describe('revertPaths', () => {
  it('puts only the given files back to a commit, without a safety checkpoint', async () => {
    const { repo, git, first } = await scenario()
    const done = await revertPaths(git, first.sha, ['a.txt', 'later/d.txt'])
    expect(done).toEqual({ restored: ['a.txt'], deleted: ['later/d.txt'], keptIgnored: [] })
    expect(repo.read('a.txt')).toBe('agent a v1\n')
    expect((await listCheckpoints(git, 's1')).length).toBe(2)
  })
})
