// proctor's own state lives in `.proctor/` at the repository root. It holds a `.gitignore` of `*` (as
// pytest does for its cache) so the state never shows in `git status` and never enters a checkpoint.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { findRepoRoot } from '../config/load.js'

export const STATE_DIR_NAME = '.proctor'

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
  if (!existsSync(ignore) || statSync(ignore).size === 0)
    writeFileSync(ignore, '# proctor state: never tracked\n*\n')
  return { root, state, sessions: join(state, 'sessions'), runs: join(state, 'runs') }
}

export function sessionDir(dirs: StateDirs, sessionId: string): string {
  const dir = join(dirs.sessions, sessionId)
  mkdirSync(dir, { recursive: true })
  return dir
}
