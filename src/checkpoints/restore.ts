// Putting a checkpoint's files back into the worktree, safely:
// - a safety checkpoint of the current state is always taken first (restore is undoable);
// - whole-tree restore refuses when HEAD moved away from the checkpoint's base;
// - files are written through a throwaway private index (`read-tree` + `checkout-index`), so the
//   user's index, HEAD and branches are never touched;
// - only files that exist now but not in the checkpoint (added after it) are deleted, never ignored ones.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import type { Git } from '../git/runner.js'
import { GITLINK_MODE } from './diff.js'
import { resolveCheckpoint, type CheckpointInfo } from './history.js'
import { CheckpointStore } from './store.js'

export interface RestoreOptions {
  git: Git
  /** What to restore: `<session>@<seq>`, a sha, `latest`... (see resolveCheckpoint). */
  id: string
  /** Restore only these paths (files or directories, repository-relative); empty = the whole tree. */
  files?: readonly string[]
  /** max_file_size for the safety checkpoint. */
  maxFileSize: number
  /** Paths the safety checkpoint must not record (policy.forbidden_areas); see CheckpointStore. */
  withhold?: (path: string) => string | null
  /** Directory relative `files` are resolved against (the CLI passes its cwd); default the repository root. */
  cwd?: string
}

export interface RestoreResult {
  checkpoint: CheckpointInfo
  /** The safety checkpoint holding the state before the restore (null: nothing differed from the session's tip). */
  safety: { seq: number; sha: string } | null
  /** Commit whose tree is the pre-restore state (safety checkpoint, the session tip if unchanged, or HEAD). */
  before: string | null
  restored: string[]
  deleted: string[]
  /** Files that would have been deleted but are ignored by .gitignore; left alone. */
  keptIgnored: string[]
}

/** A restore that was refused; the message says why and what to do. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RestoreRefused'
  }
}

export async function restoreCheckpoint(options: RestoreOptions): Promise<RestoreResult> {
  const root = await options.git.topLevel()
  const git = options.git.at(root)
  const checkpoint = await resolveCheckpoint(git, options.id)
  const paths = (options.files ?? []).map((p) => normalizeRepoPath(root, p, options.cwd ?? root))
  const wholeTree = paths.length === 0

  const head = await git.headCommit()
  if (wholeTree && head !== checkpoint.base) {
    throw new RestoreRefused(
      `refusing to restore the whole tree of ${checkpoint.session}@${checkpoint.seq}: HEAD is ` +
        `${head ? head.slice(0, 12) : 'unborn'} but the checkpoint was taken on ` +
        `${checkpoint.base ? checkpoint.base.slice(0, 12) : 'an unborn HEAD'}, so files committed since would be ` +
        `rolled back. Check out the base first (git switch --detach ${checkpoint.base ?? '<base>'}), or restore ` +
        'single files with --files <path>...',
    )
  }

  // The safety checkpoint goes on the checkpoint's own session, through its own private index.
  const store = new CheckpointStore({
    git,
    session: checkpoint.session,
    maxFileSize: options.maxFileSize,
    ...(options.withhold ? { withhold: options.withhold } : {}),
    indexName: `restore-${process.pid}-${crypto.randomBytes(4).toString('hex')}`,
  })
  let safetyRecord
  try {
    safetyRecord = await store.create('safety')
  } finally {
    await store.close()
  }
  const before = safetyRecord?.sha ?? store.latest ?? head
  const beforeTree = before
    ? (await git.raw(['rev-parse', `${before}^{tree}`])).stdout.trim()
    : await git.emptyTree()

  const wanted = await git.lsTree(checkpoint.sha, paths)
  const present = await git.lsTree(beforeTree, paths)
  if (!wholeTree && wanted.length === 0 && present.length === 0) {
    throw new RestoreRefused(
      `none of ${paths.map((p) => JSON.stringify(p)).join(', ')} exists in ${checkpoint.session}@${checkpoint.seq} ` +
        'or in the current worktree; check the paths with: proctor checkpoints show ' +
        `${checkpoint.session}@${checkpoint.seq}`,
    )
  }

  const restored = wanted.filter((e) => e.mode !== GITLINK_MODE).map((e) => e.path)
  await writeFromCheckpoint(git, checkpoint.sha, wholeTree ? 'all' : restored)

  const keep = new Set(wanted.map((e) => e.path))
  const candidates = present.filter((e) => !keep.has(e.path) && e.mode !== GITLINK_MODE).map((e) => e.path)
  // Ignored under the restored .gitignore (or the one before): user data, never deleted.
  const ignored = await git.checkIgnore(candidates)
  const deleted: string[] = []
  const keptIgnored: string[] = []
  for (const file of candidates) {
    if (ignored.has(file)) {
      keptIgnored.push(file)
      continue
    }
    fs.rmSync(path.join(root, file), { force: true })
    removeEmptyParents(root, file)
    deleted.push(file)
  }
  return {
    checkpoint,
    safety: safetyRecord ? { seq: safetyRecord.seq, sha: safetyRecord.sha } : null,
    before,
    restored,
    deleted,
    keptIgnored,
  }
}

/**
 * Put `paths` back to their state in `commit` without a safety checkpoint or HEAD check: files in the
 * commit are written, files absent from it are deleted (unless ignored). For revert_on_violation, which
 * restores only the violating files from the last valid checkpoint. Returns what it did.
 */
export async function revertPaths(
  git: Git,
  commit: string,
  paths: readonly string[],
): Promise<{ restored: string[]; deleted: string[]; keptIgnored: string[] }> {
  if (paths.length === 0) return { restored: [], deleted: [], keptIgnored: [] }
  const root = await git.topLevel()
  const atRoot = git.at(root)
  const wanted = (await atRoot.lsTree(commit, paths))
    .filter((e) => e.mode !== GITLINK_MODE)
    .map((e) => e.path)
  await writeFromCheckpoint(atRoot, commit, wanted)
  const keep = new Set(wanted)
  const missing = paths.filter((p) => !keep.has(p) && fs.existsSync(path.join(root, p)))
  const ignored = await atRoot.checkIgnore(missing)
  const deleted: string[] = []
  const keptIgnored: string[] = []
  for (const file of missing) {
    if (ignored.has(file) || fs.lstatSync(path.join(root, file)).isDirectory()) {
      keptIgnored.push(file)
      continue
    }
    fs.rmSync(path.join(root, file), { force: true })
    removeEmptyParents(root, file)
    deleted.push(file)
  }
  return { restored: wanted, deleted, keptIgnored }
}

/** Write files of `commit` into the worktree through a throwaway index (the user's index is untouched). */
async function writeFromCheckpoint(
  git: Git,
  commit: string,
  files: readonly string[] | 'all',
): Promise<void> {
  const indexFile = await git.gitPath(
    `proctor/restore-index-${process.pid}-${crypto.randomBytes(4).toString('hex')}`,
  )
  fs.mkdirSync(path.dirname(indexFile), { recursive: true })
  try {
    await git.readTree(indexFile, commit)
    if (files === 'all' || files.length > 0) {
      // A path that is a directory now but a file in the checkpoint (or vice versa) must be cleared first.
      if (files !== 'all') for (const file of files) clearTypeConflict(git.cwd, file)
      await git.checkoutIndex(indexFile, files)
    }
  } finally {
    fs.rmSync(indexFile, { force: true })
  }
}

function clearTypeConflict(root: string, file: string): void {
  const full = path.join(root, file)
  try {
    const stat = fs.lstatSync(full)
    if (stat.isDirectory() && fs.readdirSync(full).length === 0) fs.rmdirSync(full)
  } catch {
    // Absent: checkout-index creates it.
  }
}

function removeEmptyParents(root: string, file: string): void {
  let dir = path.dirname(path.join(root, file))
  while (dir.startsWith(root + path.sep)) {
    try {
      fs.rmdirSync(dir)
    } catch {
      return // not empty (or already gone)
    }
    dir = path.dirname(dir)
  }
}

/** Repository-relative, `/`-separated; rejects paths outside the repository. */
export function normalizeRepoPath(root: string, file: string, cwd: string = root): string {
  const relative = path.relative(root, path.resolve(cwd, file))
  const normal = path.posix.normalize(relative.split(path.sep).join('/')).replace(/\/$/, '')
  if (normal === '' || normal === '.' || normal.startsWith('../') || normal === '..') {
    throw new RestoreRefused(`${JSON.stringify(file)} is not a path inside the repository ${root}`)
  }
  return normal
}
