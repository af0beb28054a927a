// Where things are: the repository root, and proctor's own state in `.proctor/` at that root. This module
// is the one place that knows the layout; everything else asks it for a path. `.proctor/` holds a
// `.gitignore` of `*` (as pytest does for its cache) so the state never shows in `git status` and never
// enters a checkpoint. See docs/architecture.md ("State on disk").
import fs, { existsSync, lstatSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { writeFileAtomic } from '../util/safe-file.js'

/** The name of proctor's state directory at the repository root (and what checkpoints never include). */
export const STATE_DIR_NAME = '.proctor'

/**
 * The nearest directory at or above `cwd` that holds `.git` (a directory, or a file in worktrees and
 * submodules). Found with fs, not git, so it works before git is even looked at.
 */
export function findRepoRoot(cwd: string): string | null {
  let dir = resolve(cwd)
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

export interface StateDirs {
  root: string
  state: string
  sessions: string
  runs: string
}

/** Creates (idempotently) `.proctor/` with its `.gitignore`, under the repo root or `base` outside a repo. */
export function ensureStateDir(base: string): StateDirs {
  const root = findRepoRoot(base) ?? resolve(base)
  const state = join(root, STATE_DIR_NAME)
  mkdirSync(join(state, 'sessions'), { recursive: true })
  mkdirSync(join(state, 'runs'), { recursive: true })
  const ignore = join(state, '.gitignore')
  // lstat: a FIFO or symlink the agent put there is replaced (writeFileAtomic), never opened or followed.
  if (!isNonEmptyFile(ignore)) writeFileAtomic(ignore, '# proctor state: never tracked\n*\n')
  return { root, state, sessions: join(state, 'sessions'), runs: join(state, 'runs') }
}

export function sessionDir(dirs: StateDirs, sessionId: string): string {
  const dir = join(dirs.sessions, sessionId)
  mkdirSync(dir, { recursive: true })
  return dir
}

/** `.proctor/sessions` under a repository root (nothing is created). */
export function sessionsPath(root: string): string {
  return join(root, STATE_DIR_NAME, 'sessions')
}

/** `.proctor/sessions/<id>` under a repository root (nothing is created). */
export function sessionPath(root: string, sessionId: string): string {
  return join(sessionsPath(root), sessionId)
}

/** `.proctor/worktrees`: where batches keep their git worktrees (nothing is created). */
export function worktreesPath(root: string): string {
  return join(root, STATE_DIR_NAME, 'worktrees')
}

/**
 * A folder under `.proctor/` for state that is not a session's (native adapters' rounds), created the one
 * way the session creates `.proctor/` (with its `.gitignore` of `*`).
 */
export async function proctorStateDir(cwd: string, ...sub: string[]): Promise<string> {
  const dir = join(ensureStateDir(cwd).state, ...sub)
  // fs.promises read when called, not imported: loading node:fs/promises (and the readline it loads) is
  // a cost every command importing this module would pay, `checkpoints create` included.
  await fs.promises.mkdir(dir, { recursive: true })
  return dir
}

function isNonEmptyFile(path: string): boolean {
  try {
    const stats = lstatSync(path)
    return stats.isFile() && stats.size > 0
  } catch {
    return false
  }
}
