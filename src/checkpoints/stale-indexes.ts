// Private index files left by sessions that crashed (SIGKILL, OOM): <git dir>/proctor/index-<session>,
// its .commit/.lock companions, and the throwaway indexes of `checkpoints` commands and restores. Each is
// as big as the repository's index, so they are removed when nobody can be using them any more.
import fs from 'node:fs'
import path from 'node:path'

import { Git } from '../git/runner.js'
import { readGitDirs } from '../git/on-disk.js'
import { pidExists } from '../supervisor/proc-info.js'
import { findRepoRoot } from '../state/layout.js'

/** A file this recent may belong to a session that is still starting up (no run record yet). */
export const STALE_INDEX_AGE_MS = 10 * 60 * 1000

/**
 * Deletes private index files in `dir` (the `proctor/` directory under the git dir) that no live
 * process owns: session indexes whose session is not in `liveSessions`, and per-process indexes
 * (`cli-<pid>`, `restore-<pid>-…`, `restore-index-<pid>-…`) whose process is gone; never one touched in
 * the last STALE_INDEX_AGE_MS. Returns the names removed.
 */
export function removeStaleIndexes(
  dir: string,
  liveSessions: ReadonlySet<string>,
  now: number = Date.now(),
): string[] {
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const base = name.replace(/\.(commit|lock)$/, '').replace(/\.commit\.lock$/, '')
    const session = /^index-(.+)$/.exec(base)?.[1]
    const pid = /^(?:cli|restore|restore-index)-(\d+)(?:-[0-9a-f]+)?$/.exec(base)?.[1]
    if (session === undefined && pid === undefined) continue
    if (session !== undefined && liveSessions.has(session)) continue
    if (pid !== undefined && Number(pid) !== process.pid && pidExists(Number(pid))) continue
    if (pid !== undefined && Number(pid) === process.pid) continue
    const file = path.join(dir, name)
    try {
      if (now - fs.statSync(file).mtimeMs < STALE_INDEX_AGE_MS) continue
      fs.rmSync(file, { force: true })
      removed.push(name)
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed
}

/** removeStaleIndexes for the repository at `cwd` (nothing outside a repository). */
export async function removeStaleRepoIndexes(
  cwd: string,
  liveSessions: ReadonlySet<string>,
): Promise<string[]> {
  return removeStaleIndexes(await proctorGitPath(cwd), liveSessions)
}

/**
 * `<git dir>/proctor`, read from `.git` (a directory, or the `gitdir:` link of a linked worktree such as a
 * batch child's) without starting git: each git process forks proctor, which blocks its event loop while
 * an agent's output waits to be read. Only an unusual layout asks git.
 */
async function proctorGitPath(cwd: string): Promise<string> {
  const root = findRepoRoot(cwd)
  const dirs = root ? readGitDirs(root) : null
  if (dirs) return path.join(dirs.gitDir, 'proctor')
  return new Git({ cwd }).gitPath('proctor')
}
