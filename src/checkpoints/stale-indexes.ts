// Private index files left by sessions that crashed (SIGKILL, OOM): <git dir>/proctor/index-<session>,
// its .commit/.lock/.owner companions, and the throwaway indexes of `checkpoints` commands, restores and
// baselines. Each is as big as the repository's index, so they are removed when nobody can be using them
// any more. Liveness is decided by the owner, never by the file's age: a session's index is a copy of the
// user's index with its mtime kept (see store.ts, copyUserIndex), so an index of a live session can look
// hours old, and removing it made checkpoint 1 record every other file as deleted (issue 27).
import fs from 'node:fs'
import path from 'node:path'
import { readRegularFile, writeFileAtomic } from '../util/safe-file.js'

import { Git } from '../git/runner.js'
import { readGitDirs } from '../git/on-disk.js'
import { pidExists, processStartToken } from '../supervisor/proc-info.js'
import { findRepoRoot } from '../state/layout.js'

/** The companion of a session's private index that names the process using it: `<index>.owner`. */
export function ownerFileOf(indexFile: string): string {
  return `${indexFile}.owner`
}

/**
 * Claims a session's private index for this process, before the index is created: the sweep of another
 * proctor then leaves it alone for as long as this process lives (the pid and its start time).
 */
export function claimIndex(indexFile: string): void {
  // Under .git, where the agent may have planted a link or a FIFO at this name: replaced, never written through.
  writeFileAtomic(ownerFileOf(indexFile), `${process.pid} ${processStartToken(process.pid) ?? ''}\n`)
}

/** Whether the process named by an index's owner file still lives (the same process, not a reused pid). */
function ownerAlive(ownerFile: string): boolean {
  let text: string
  try {
    text = readRegularFile(ownerFile, 256).toString('utf8')
  } catch {
    return false
  }
  const [pidText, token] = text.trim().split(' ')
  const pid = Number(pidText)
  if (!Number.isInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return true
  if (!pidExists(pid)) return false
  return !token || processStartToken(pid) === token
}

/**
 * Deletes private index files in `dir` (the `proctor/` directory under the git dir) that no live
 * process owns: session indexes whose session is not in `liveSessions` (nor `ownSession`) and whose owner
 * file names no live process, and per-process indexes (`cli-<pid>`, `restore-<pid>-…`,
 * `restore-index-<pid>-…`, `baseline-<pid>-…`) whose process is gone. Returns the names removed.
 */
export function removeStaleIndexes(
  dir: string,
  liveSessions: ReadonlySet<string>,
  ownSession?: string,
): string[] {
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const base = name.replace(/\.commit\.lock$/, '').replace(/\.(commit|lock|owner)$/, '')
    const session = /^index-(.+)$/.exec(base)?.[1]
    const pid = /^(?:cli|restore|restore-index|baseline)-(\d+)(?:-[0-9a-f]+)?$/.exec(base)?.[1]
    if (session === undefined && pid === undefined) continue
    if (session !== undefined) {
      if (session === ownSession || liveSessions.has(session)) continue
      // Claimed before the index was created: an index without a live owner was left by a proctor that
      // is gone (or by one older than the claim, whose session is not live either).
      if (ownerAlive(path.join(dir, `${base}.owner`))) continue
    }
    if (pid !== undefined && Number(pid) !== process.pid && pidExists(Number(pid))) continue
    if (pid !== undefined && Number(pid) === process.pid) continue
    const file = path.join(dir, name)
    try {
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
  ownSession?: string,
): Promise<string[]> {
  return removeStaleIndexes(await proctorGitPath(cwd), liveSessions, ownSession)
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
