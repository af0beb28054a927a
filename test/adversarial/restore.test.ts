// Issue 13, items 1 and 2: restore never loses a file, and plans before it writes.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { restoreCheckpoint, RestoreRefused } from '../../src/checkpoints/restore.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const MB = 1 << 20
const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

async function session(files: Record<string, string>, work: (repo: TempRepo) => void) {
  const repo = makeTempRepo({ files: { '.gitignore': '*.log\n', ...files } })
  repos.push(repo)
  const git = new Git({ cwd: repo.dir, env: repo.env })
  const store = new CheckpointStore({ git, session: 's1', maxFileSize: MB })
  work(repo)
  const first = (await store.create('interval'))!
  await store.close()
  return { repo, git, first }
}

/** Relative path → sha256 of every file under the worktree (not .git): "nothing changed" checks. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name
      if (child === '.git') continue
      if (entry.isDirectory()) walk(child)
      else
        out[child] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(dir, child)))
          .digest('hex')
    }
  }
  walk('')
  return out
}

const undoId = (undo: string) => undo.split(' ')[3]!

describe('restore saves every file it overwrites (issue 13.1)', () => {
  it('a 6 MB uncommitted file over max_file_size is in the safety checkpoint and comes back with the undo', async () => {
    const { repo, git } = await session({}, (r) => r.write('data.bin', 'small v1\n'))
    // Later work the session could not record (over max_file_size): the user's only copy.
    const big = crypto.randomBytes(6 * MB)
    repo.write('data.bin', big)
    const later = new CheckpointStore({ git, session: 's1', maxFileSize: MB })
    // Skipped for size: its content is in no checkpoint; the checkpoint only lists it, so it is judged by path.
    const recorded = await later.create('interval')
    expect(recorded?.files_changed).toEqual([])
    expect(recorded?.skipped_reasons).toEqual({ 'data.bin': 'size' })
    await later.close()

    const result = await restoreCheckpoint({ git, id: 's1@1', maxFileSize: MB })
    expect(repo.read('data.bin')).toBe('small v1\n')
    expect(result.safety).not.toBeNull()
    expect(result.undo).toBe(`proctor checkpoints restore s1@${result.safety!.seq}`)

    await restoreCheckpoint({ git, id: undoId(result.undo), maxFileSize: MB })
    expect(fs.readFileSync(path.join(repo.dir, 'data.bin')).equals(big)).toBe(true)
  })

  it('prints an undo command even when nothing changed since the latest checkpoint', async () => {
    const { git } = await session({}, (r) => r.write('a.txt', 'v1\n'))
    const result = await restoreCheckpoint({ git, id: 's1@1', files: ['a.txt'] })
    expect(result.safety).toBeNull()
    expect(result.undo).toBe('proctor checkpoints restore s1@1 --files a.txt')
  })

  it('refuses, listing it, to overwrite an ignored file no checkpoint holds; nothing changes', async () => {
    const { repo, git } = await session({}, (r) => {
      r.write('.gitignore', '') // the agent un-ignored *.log and wrote one
      r.write('notes.log', 'agent wrote this\n')
    })
    repo.remove('notes.log')
    repo.write('.gitignore', '*.log\n')
    const later = new CheckpointStore({ git, session: 's1', maxFileSize: MB })
    await later.create('interval') // s1@2: notes.log gone, *.log ignored again
    await later.close()
    repo.write('notes.log', "the user's precious notes\n") // ignored: no checkpoint can hold it
    const before = snapshot(repo.dir)
    const error = await restoreCheckpoint({ git, id: 's1@1', files: ['notes.log'] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RestoreRefused)
    expect((error as Error).message).toMatch(/notes\.log: would be overwritten/)
    expect(snapshot(repo.dir)).toEqual(before)
  })
})

describe('restore plans type conflicts before it writes (issue 13.2)', () => {
  it('restores a file where a directory is now, and the directory comes back with the undo', async () => {
    const { repo, git } = await session({}, (r) => r.write('x', 'x was a file\n'))
    repo.remove('x')
    repo.write('x/inner.txt', 'now a directory\n')
    const result = await restoreCheckpoint({ git, id: 's1@1' })
    expect(repo.read('x')).toBe('x was a file\n')
    expect(result.deleted).toEqual(['x/inner.txt'])
    await restoreCheckpoint({ git, id: undoId(result.undo) })
    expect(repo.read('x/inner.txt')).toBe('now a directory\n')
  })

  it('restores a directory where a file is now (whole tree and --files)', async () => {
    const { repo, git } = await session({}, (r) => r.write('d/f.txt', 'in a directory\n'))
    repo.remove('d/f.txt')
    fs.rmdirSync(path.join(repo.dir, 'd'))
    repo.write('d', 'now a file\n')
    await restoreCheckpoint({ git, id: 's1@1', files: ['d'] })
    expect(repo.read('d/f.txt')).toBe('in a directory\n')
    fs.rmSync(path.join(repo.dir, 'd'), { recursive: true })
    repo.write('d', 'a file again\n')
    await restoreCheckpoint({ git, id: 's1@1' })
    expect(repo.read('d/f.txt')).toBe('in a directory\n')
  })

  it('refuses cleanly, changing nothing, when the directory in the way holds an ignored file', async () => {
    const { repo, git } = await session({ 'other.txt': 'base\n' }, (r) => {
      r.write('x', 'x was a file\n')
      r.write('other.txt', 'changed by the agent\n')
    })
    repo.remove('x')
    repo.write('x/inner.txt', 'saved\n')
    repo.write('x/build.log', 'ignored, cannot be saved\n')
    repo.write('other.txt', 'changed again\n')
    const before = snapshot(repo.dir)
    const error = await restoreCheckpoint({ git, id: 's1@1' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RestoreRefused)
    expect((error as Error).message).toContain('x/build.log: inside x/, which is a file in the checkpoint')
    expect((error as Error).message).not.toMatch(/ENOTDIR|EISDIR|\n\s+at /)
    expect(snapshot(repo.dir)).toEqual(before) // not half-restored: other.txt untouched too
  })
})
