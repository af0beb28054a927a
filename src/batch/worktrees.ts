// The batch's git worktrees: detached worktrees at the batch's base commit, under
// `.proctor/worktrees/<batch>/` (ignored by the `.proctor/.gitignore`, so the user's `git status` never
// shows them), made, recycled for the next task, and removed. Each worktree has its own `.proctor/`; a
// child's session state is moved back to the repository's `.proctor/sessions/` before its worktree is
// reset or removed, so reports outlive the worktrees.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readDetachedHead } from '../git/on-disk.js'
import { readRegularFile, writeFileAtomic } from '../util/safe-file.js'
import { Git } from '../git/runner.js'
import type { SessionReport } from '../report/model.js'
import { BatchError } from './tasks.js'
import { STATE_DIR_NAME, findRepoRoot, sessionPath, worktreesPath } from '../state/layout.js'
import { reconcileOrphans } from '../supervisor/registry.js'

export interface BatchRepo {
  root: string
  git: Git
  base: string
  /** Paths with uncommitted changes in the main worktree; they are not part of the batch. */
  dirty: number
  /**
   * Worktree administration, one at a time: concurrent `git worktree add`s read each other's
   * half-written `.git/worktrees/<name>/` and fail ("failed to read .../commondir").
   */
  serial: <T>(work: () => Promise<T>) => Promise<T>
}

/** The repository a batch runs in, or a BatchError saying how to get one. */
export async function openBatchRepo(cwd: string, env: NodeJS.ProcessEnv): Promise<BatchRepo> {
  const root = findRepoRoot(cwd)
  if (!root) {
    throw new BatchError(
      `proctor batch: ${cwd} is not inside a git repository. Each task runs in its own git worktree, ` +
        'so run the batch inside a repository (git init && git commit), or run one session with proctor run',
    )
  }
  const git = new Git({ cwd: root, env })
  const base = await git.headCommit()
  if (!base) {
    throw new BatchError(
      `proctor batch: the repository at ${root} has no commits yet. Each task's worktree starts at HEAD, ` +
        'so commit first (git commit --allow-empty -m init)',
    )
  }
  const dirty = (await git.statusZ({ untracked: 'normal' })).length
  return { root, git, base, dirty, serial: serializer() }
}

function serializer(): BatchRepo['serial'] {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(work, work)
    tail = result.catch(() => undefined)
    return result
  }
}

export function worktreesDir(root: string, batchId: string): string {
  return join(worktreesPath(root), batchId)
}

/**
 * A fresh worktree is made in two steps: `git worktree add --no-checkout` under the lock (fast: no files;
 * after it, the worktree exists and must be removed), then the checkout outside it, so the slow part —
 * writing every file — runs in parallel for concurrent tasks. This is what `git worktree add` does itself
 * (`reset --hard` in the new worktree), split in two. Files are written by `read-tree -u --reset`, which
 * the runner runs in its shadow git dir: a `filter.*.smudge` an earlier task's agent put in the shared
 * .git/config is never run (docs/checkpoints.md, "proctor's own git").
 */
export async function registerWorktree(repo: BatchRepo, dir: string): Promise<void> {
  await mkdir(join(dir, '..'), { recursive: true })
  await repo.serial(() =>
    repo.git.raw(['worktree', 'add', '--quiet', '--no-checkout', '--detach', '--', dir, repo.base]),
  )
}

export async function checkoutWorktree(repo: BatchRepo, dir: string): Promise<void> {
  await repo.git.at(dir).raw(['read-tree', '-u', '--reset', 'HEAD'])
}

/** The worktree's administrative directory, from its `.git` link (`gitdir: <path>`). */
export function worktreeGitDir(dir: string): string {
  // The task's agent had this worktree: its `.git` may be a FIFO now, which a plain read would block on.
  const link = readRegularFile(join(dir, '.git'), 64 * 1024).toString('utf8')
  const match = /^gitdir: (.+)$/m.exec(link)
  if (!match) throw new Error(`${join(dir, '.git')} is not a worktree link`)
  return resolve(dir, match[1]!.trim())
}

/**
 * State a task can leave in its worktree that a checkout and a clean do not undo: an operation in
 * progress, a sparse checkout, per-worktree config, initialized submodules, a lock. A worktree with any
 * of them is replaced.
 */
const UNRECYCLABLE = [
  'rebase-merge',
  'rebase-apply',
  'sequencer',
  'BISECT_LOG',
  'BISECT_START',
  'info/sparse-checkout',
  'config.worktree',
  'modules',
  'locked',
  'index.lock',
]

/** The files of an operation in progress that `git checkout` removes (git's remove_branch_state). */
const BRANCH_STATE = [
  'MERGE_HEAD',
  'MERGE_RR',
  'MERGE_MSG',
  'MERGE_MODE',
  'AUTO_MERGE',
  'SQUASH_MSG',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
]

/**
 * Makes a finished task's worktree indistinguishable from a fresh one for the next task: HEAD detached at
 * the base (the task may have committed or switched branches; branches it made stay, as they would),
 * every tracked file as in the base, and no untracked or ignored file left — its `.proctor/` (run records,
 * session state) included. Only what the task touched is rewritten. Throws when the worktree is not
 * plainly ours any more (its `.git` link replaced or gone: git would then find the main repository and
 * reset that), or holds state these commands do not undo; the caller then uses a fresh worktree.
 */
export async function recycleWorktree(
  repo: BatchRepo,
  lease: { dir: string; gitDir: string },
): Promise<void> {
  let gitDir: string
  try {
    gitDir = worktreeGitDir(lease.dir)
  } catch (error) {
    throw new Error(`its .git link is gone or broken (${(error as Error).message})`, { cause: error })
  }
  if (gitDir !== lease.gitDir) throw new Error(`its .git link points at ${gitDir}, not ${lease.gitDir}`)
  const left = UNRECYCLABLE.filter((name) => existsSync(join(gitDir, name)))
  if (left.length > 0) throw new Error(`the task left ${left.join(', ')} in ${gitDir}`)
  const git = repo.git.at(lease.dir)
  // `checkout --detach --force <base>` in two steps, so no smudge filter of the repository's config runs:
  // HEAD is moved only when the task moved it (one git process less in the common case).
  if (readDetachedHead(gitDir) !== repo.base) {
    await git.raw(['update-ref', '--no-deref', '-m', 'proctor: recycle', 'HEAD', repo.base])
  }
  await git.raw(['read-tree', '-u', '--reset', repo.base])
  // What checkout clears besides: a merge, cherry-pick or revert the task left half-done.
  for (const name of BRANCH_STATE) rmSync(join(gitDir, name), { force: true })
  await git.raw(['clean', '-ffdxq'])
}

/**
 * Removes a task's worktree (its checkpoints live on in refs). The files go first, in parallel with other
 * tasks and off the event loop; only git's own bookkeeping (`worktree remove`) takes the lock. Falls back
 * to delete + prune.
 */
export async function removeWorktree(repo: BatchRepo, dir: string): Promise<string | null> {
  await emptyExceptGitLink(dir)
  return repo.serial(async () => {
    try {
      await repo.git.worktreeRemove(dir, { force: true })
      return null
    } catch (error) {
      await rm(dir, { recursive: true, force: true })
      try {
        await repo.git.raw(['worktree', 'prune'])
      } catch {
        // prune only tidies .git/worktrees/; a leftover entry is harmless and pruned by git itself later.
      }
      return (error as Error).message
    }
  })
}

/** Deletes a worktree's files but keeps its `.git` link, so `git worktree remove` still recognizes it. */
async function emptyExceptGitLink(dir: string): Promise<void> {
  try {
    const entries = (await readdir(dir)).filter((entry) => entry !== '.git')
    await Promise.all(entries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })))
  } catch {
    // Whatever is left, `git worktree remove --force` (or the fallback) deletes.
  }
}

/**
 * Worktrees left by a batch that never finished (proctor was SIGKILLed): their agents may still run, and
 * their run records live in the worktree's own `.proctor/runs`, which no later session looks at. Reaps
 * those orphans (the registry verifies each process's identity first) and returns the leftover dirs.
 */
export async function reapLeftoverWorktrees(root: string, graceMs: number): Promise<string[]> {
  const base = worktreesPath(root)
  const leftovers: string[] = []
  for (const batch of safeList(base)) {
    for (const task of safeList(join(base, batch))) {
      const dir = join(base, batch, task)
      leftovers.push(dir)
      const state = join(dir, STATE_DIR_NAME)
      if (existsSync(join(state, 'runs'))) await reconcileOrphans(state, { graceMs }).catch(() => [])
    }
  }
  return leftovers
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** Drops `.proctor/worktrees/<batch>/` once every worktree in it is gone. */
export function removeEmptyWorktreesDir(dir: string): void {
  try {
    if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true })
  } catch {
    // Left behind only if something else wrote there; nothing depends on it.
  }
}

/**
 * Moves (or, for a kept worktree, copies) a child's session directory from its worktree's `.proctor/`
 * to the repository's, and points the report's own file paths at the new place. Returns the new
 * report path and the report as written there.
 */
export function collectChildSession(opts: {
  root: string
  worktree: string
  sessionId: string
  report: SessionReport
  keep: boolean
}): { reportPath: string; report: SessionReport } {
  const from = sessionPath(opts.worktree, opts.sessionId)
  const to = sessionPath(opts.root, opts.sessionId)
  mkdirSync(join(to, '..'), { recursive: true })
  rmSync(to, { recursive: true, force: true })
  if (opts.keep) cpSync(from, to, { recursive: true })
  else {
    try {
      renameSync(from, to)
    } catch {
      cpSync(from, to, { recursive: true })
    }
  }
  const reportPath = join(to, 'report.json')
  // The report the session returned, not the file: the child's agent (or a process it left) can rewrite,
  // link or FIFO its session directory's report.json; the atomic write replaces whatever stands there.
  const report = relocate(opts.report, from, to)
  writeFileAtomic(reportPath, JSON.stringify(report, null, 2) + '\n')
  return { reportPath, report }
}

function relocate(report: SessionReport, from: string, to: string): SessionReport {
  const move = (path: string) => (path.startsWith(from) ? to + path.slice(from.length) : path)
  const next = { ...report, transcript: { ...report.transcript, path: move(report.transcript.path) } }
  if (report.pushed?.bundle) next.pushed = { ...report.pushed, bundle: move(report.pushed.bundle) }
  return next
}
