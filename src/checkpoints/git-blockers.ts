// Files git opens as it reads the worktree (ignore and attribute files) that would block it: git opens
// them without O_NONBLOCK, so a FIFO the agent plants there (`mkfifo .gitignore`) holds git in open()
// until somebody writes to it, which nobody does. Checked before each checkpoint where it is cheap (a few
// lstat calls: the usual places and the ones the tree watcher saw created), and looked for in the whole
// tree after a git call timed out (git/deadline.ts), so the failure names the file and the fix.
import fs from 'node:fs'
import path from 'node:path'

import { readGitDirs } from '../git/on-disk.js'
import { describeKind } from '../util/safe-file.js'

/** Names git opens in every directory it walks. */
const READ_IN_EVERY_DIRECTORY = new Set(['.gitignore', '.gitattributes'])
/** The walk after a timeout stops after this many entries (about a second on a slow disk). */
const SCAN_LIMIT = 200_000

export interface GitBlocker {
  /** Relative to the worktree root (POSIX), or absolute for a file in the git dir. */
  path: string
  /** "a FIFO (named pipe)" */
  kind: string
}

/** Whether git opens `rel` (a POSIX path relative to the root) as it walks the worktree. */
export function isReadByGit(rel: string): boolean {
  return READ_IN_EVERY_DIRECTORY.has(path.posix.basename(rel))
}

/** "a FIFO (named pipe) at sub/.gitignore blocks git, which opens it to read it; remove it" */
export function describeBlocker(blocker: GitBlocker): string {
  return `${blocker.kind} at ${blocker.path} blocks git, which opens it to read it; remove it`
}

/**
 * The first of the usual places (the root's ignore and attribute files, .proctor/.gitignore, the git
 * dir's info/exclude and info/attributes) and `candidates` that would block git; null when none does.
 */
export function findBlocker(root: string, candidates: Iterable<string> = []): GitBlocker | null {
  for (const rel of ['.gitignore', '.gitattributes', '.proctor/.gitignore', ...candidates]) {
    // In the worktree git does not follow a symlinked .gitignore or .gitattributes (it opens them with
    // O_NOFOLLOW), so lstat is what it sees.
    const kind = blockingKind(() => fs.lstatSync(path.join(root, rel)))
    if (kind) return { path: rel, kind }
  }
  const dirs = readGitDirs(root)
  for (const dir of dirs ? new Set([dirs.gitDir, dirs.commonDir]) : []) {
    for (const name of ['info/exclude', 'info/attributes']) {
      const file = path.join(dir, name)
      const kind = blockingKind(() => fs.statSync(file))
      if (kind) return { path: file, kind }
    }
  }
  return null
}

/**
 * findBlocker, then a walk of the whole worktree (outside .git) for an ignore or attribute file that would
 * block git: after a git call timed out, to say why. Directory entries carry their type, so the walk
 * reads directories and stats nothing.
 */
export function scanForBlocker(root: string, candidates: Iterable<string> = []): GitBlocker | null {
  const usual = findBlocker(root, candidates)
  if (usual) return usual
  const pending = ['']
  let seen = 0
  while (pending.length > 0 && seen < SCAN_LIMIT) {
    const dir = pending.pop()!
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      seen++
      const rel = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (entry.name !== '.git') pending.push(rel)
      } else if (READ_IN_EVERY_DIRECTORY.has(entry.name) && !entry.isFile() && !entry.isSymbolicLink()) {
        const kind = blockingKind(() => fs.lstatSync(path.join(root, rel)))
        if (kind) return { path: rel, kind }
      }
    }
  }
  return null
}

/** What blocks an open() for reading (a FIFO, a device), in words; null for anything else or nothing. */
function blockingKind(stat: () => fs.Stats): string | null {
  let stats: fs.Stats
  try {
    stats = stat()
  } catch {
    return null
  }
  return stats.isFIFO() || stats.isCharacterDevice() || stats.isBlockDevice() ? describeKind(stats) : null
}
