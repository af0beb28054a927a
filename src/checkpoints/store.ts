// One session's checkpoints: snapshots of the worktree committed to refs/proctor/<session> through a
// private index. The user's index, HEAD, branches, stash and files are never written: every index
// operation sets GIT_INDEX_FILE to our own file, and refs are only created under refs/proctor/.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { CheckpointRecord, Violation } from '../report/model.js'
import { RefMovedError } from '../git/errors.js'
import { CommitWriter } from '../git/commit-writer.js'
import { RefUpdater } from '../git/ref-updater.js'
import { parseStatusV2Z } from '../git/nul.js'
import { globalConfigFiles, readGitDirs, readIndexSummary, refMayExist } from '../git/on-disk.js'
import type { Git } from '../git/runner.js'
import type { ContentScanner } from '../policy/secrets/scanner.js'
import { diffTreePairs, diffTrees, touchedPaths, type ChangedFile } from './diff.js'
import type { ContentFinding } from '../policy/secrets/types.js'
import { FirstSnapshotWatch, type SnapshotNotice, type SnapshotProgress } from './first-snapshot.js'
import { baselineOf, formatCheckpointMessage, parseCheckpointMessage, type SkippedFile } from './message.js'
import { checkpointRef, localBaselineRef } from './refs.js'
import { claimIndex, ownerFileOf } from './stale-indexes.js'
import { STATE_DIR_NAME } from '../state/layout.js'
import { randomHex } from '../util/random.js'
import { readRegularFile, type FileError } from '../util/safe-file.js'

/** Triggers that may not wait for min_interval spacing (shutdown, the user, a restore). */
const URGENT_TRIGGERS = new Set(['final', 'manual', 'safety'])

/**
 * The listing of what differs in the worktree from the private index (changedPaths, openFromStatus):
 * `status` rather than `ls-files -m -o`, because status stats the index's entries on several threads
 * (preload), writes the stat data it refreshed back (a touched but unchanged file is read once, not at every
 * listing), and keeps git's untracked cache in the private index: a directory whose stat data (with its
 * ctime, which no process can set back: PRIVATE_INDEX_CONFIG trusts it) is unchanged since the last listing
 * is not read again. At 100k files that made the listing 230 → 135 ms. The cache serves `all` only when the
 * setting, not the command-line option, asks for it (listingOptions). Submodules are compared by their
 * commit only.
 */
const LISTING_ARGS = ['status', '--porcelain=v2', '-z', '--ignore-submodules=dirty', '--no-renames']
/**
 * The listing's settings (`-c` through the runner, which puts it before the subcommand it isolates by) and,
 * when what it learnt is kept (`keep`), GIT_OPTIONAL_LOCKS back on, which the runner turns off (never write
 * the user's index): this index is proctor's own, and writing its refreshed stat data and untracked cache
 * is what makes the next listing cheap. A session's baseline keeps it (~6 ms at 10k files, ~30 at 100k,
 * before the agent's spawn: the first checkpoint after it then costs what later ones do, where it was up to
 * 1.4x at 100k); a listing that opens a store for one checkpoint (a one-shot `checkpoints create`) does not,
 * as it lists once.
 */
function listingOptions(keep: boolean): { config: string[]; env?: Record<string, string> } {
  const config = ['status.showUntrackedFiles=all']
  return keep ? { config, env: { GIT_OPTIONAL_LOCKS: '1' } } : { config }
}

export interface ValidateContext {
  seq: number
  /** Changes since the previous checkpoint (or the baseline for the first). */
  files: ChangedFile[]
  /** Changes since the session's baseline (the worktree as the user left it, see recordBaseline). */
  cumulative: ChangedFile[]
  /** Changes left out by `withhold` (still in the worktree), described as the diff would have. */
  withheld: ChangedFile[]
  tree: string
}

export interface PauseHooks {
  pause(): void
  resume(): void
}

export interface CheckpointStoreOptions {
  /** A runner whose cwd is anywhere inside the worktree. */
  git: Git
  session: string
  /** Files larger than this (bytes) are left out and listed as skipped. */
  maxFileSize: number
  /** Minimum spacing between checkpoints (ms) for non-urgent triggers. */
  minIntervalMs?: number
  /**
   * The commit a new chain starts from, resolved by the caller before the agent could move HEAD (the
   * store opens after the agent's spawn): an agent that commits at once must not make its commit the
   * base, where the cumulative diff and the policy would never see it. Default: HEAD at open().
   */
  baseCommit?: string
  /**
   * What the caller already resolved before the agent's spawn, with one cat-file (resolveOpening):
   * the store then starts no git process of its own to open.
   */
  resolved?: OpeningObjects
  /**
   * The effective `core.attributesFile` when the caller already read it (the session's git machinery
   * recording reads every scope's value): null when unset. Default: one `git config` at open.
   */
  attributesFile?: string | null
  /** Policy hook: its violations are counted in the Proctor-Violations trailer. */
  validate?: (context: ValidateContext) => Promise<Violation[]> | Violation[]
  /**
   * Paths whose content must never be written into a checkpoint (policy.forbidden_areas): returns why,
   * or null. A withheld path keeps its previous state in the checkpoint tree (absent, or the base's
   * content) and is listed as skipped; the file in the worktree is not touched.
   */
  withhold?: (path: string) => string | null
  /**
   * The content scan (policy/secrets/scanner.ts), made by `prepare`: a file it finds a secret in (or a copy
   * of a forbidden file's bytes) is withheld like a forbidden one, with the finding on its diff entry.
   */
  scanner?: () => Pick<ContentScanner, 'scanFile' | 'forbid'> | null
  /**
   * Awaited before `withhold` is first asked (when a listing has paths to weigh): loads what it needs, so a
   * store opened before the agent's spawn on a clean worktree loads nothing more.
   */
  prepare?: () => Promise<void>
  /** With pause_agent: the agent is paused while the worktree is read, and always resumed. */
  pauser?: PauseHooks
  /**
   * Name of the private index under `<gitdir>/proctor/` (default `index-<session>`). A CLI command acting
   * on a session that may be live uses its own, so two processes never share one index.
   */
  indexName?: string
  /** Told when the first snapshot is large (and how long it took): see first-snapshot.ts. */
  notice?: SnapshotNotice
  /** Told how far along a large first snapshot is while git hashes it (see first-snapshot.ts). */
  onProgress?: (progress: SnapshotProgress) => void
  /** Spacing of those progress reports (default 3 s; 0 in tests: every chunk of git's output). */
  progressIntervalMs?: number
  /**
   * Absolute paths left out of every checkpoint, as .proctor/ is: files proctor itself writes into the
   * worktree (an agent's Stop-hook settings). The checkpoint keeps whatever the base commit had there.
   */
  hiddenPaths?: ReadonlySet<string>
  /**
   * Told right before git lists the worktree for a checkpoint (the session notes what its watcher has seen
   * by then, so the end of the session knows whether anything changed since: SessionCheckpoints.finish).
   */
  onListing?: () => Promise<void> | void
  /** Injected clock and wait (tests); default Date.now and setTimeout. */
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * HEAD's (or the base's) commit and tree and the session chain's tip, tree and message; null where
 * missing.
 */
export interface OpeningObjects {
  startCommit: string | null
  startTree: string | null
  chainCommit: string | null
  chainTree: string | null
  chainMessage: string | null
}

/**
 * What the store needs to open for `session`, from `start` (HEAD by default): one cat-file, which reads
 * both commits (their trees, and the chain tip's message that says where the chain stands).
 */
export async function resolveOpening(git: Git, session: string, start = 'HEAD'): Promise<OpeningObjects> {
  const [startCommit, chainCommit] = await git.readCommits([
    `${start}^{commit}`,
    `${checkpointRef(session)}^{commit}`,
  ])
  return {
    startCommit: startCommit?.oid ?? null,
    startTree: startCommit?.tree ?? null,
    chainCommit: chainCommit?.oid ?? null,
    chainTree: chainCommit?.tree ?? null,
    chainMessage: chainCommit?.message ?? null,
  }
}

/** The worktree as the user left it when the session started (checkpoint 0; see recordBaseline). */
export interface Baseline {
  /** The commit the agent's work is judged against: checkpoint 0, or the base when nothing was changed. */
  commit: string | null
  /**
   * Paths that already differed from HEAD (modified, staged, deleted, untracked and not ignored, withheld
   * or over max_file_size included) when the session started: never the agent's. Empty for a resumed chain.
   */
  preExisting: string[]
}

export interface CheckpointResult {
  record: CheckpointRecord
  tree: string
  parent: string | null
  files: ChangedFile[]
  cumulative: ChangedFile[]
  violations: Violation[]
  skipped: SkippedFile[]
  withheld: ChangedFile[]
}

export class CheckpointStore {
  readonly session: string
  readonly ref: string
  private readonly options: CheckpointStoreOptions
  private git: Git
  /**
   * Created once the repository is known: one git process for the session's commit objects and one for
   * its ref updates, instead of a process for each per checkpoint.
   */
  private commits: CommitWriter | undefined
  private refs: RefUpdater | undefined
  /**
   * Commits this store has written. The first is made with one `commit-tree`, which is all a one-shot
   * `proctor checkpoints create` or a short session ever needs; the long-lived writer (and the identity
   * probe behind it) starts with the second. The ref updater's one process serves them all: it starts as
   * soon as a listing finds changes, so even the first update waits for no git start-up.
   */
  private commitsMade = 0
  /**
   * The first checkpoint's listing when the store opened with it (see openFromStatus); taken by that
   * checkpoint only.
   */
  private earlyListing: Listing | undefined
  private root = ''
  private indexFile = ''
  private userIndex = ''
  private baseCommit: string | null = null
  /** Checkpoint 0 (recordBaseline) when the worktree differed from HEAD at the start; else baseCommit. */
  private baselineCommit: string | null = null
  /**
   * A local-only commit on refs/proctor-local/<session>: the baseline plus the withheld files' content as
   * the user left them, so a revert can give them back; never pushed. Null when nothing was withheld.
   */
  private localBaseline: string | null = null
  /** Withheld paths (forbidden areas) that were there at the baseline, with their blob ids. */
  private baselineWithheld = new Map<string, string>()
  /** Stat of a baseline-withheld file when its bytes last matched the baseline (unchangedSinceBaseline). */
  private withheldVerified = new Map<string, string>()
  private preExisting: string[] = []
  /**
   * Paths the baseline left out for their size, LFS or a secret, with their stat then: the user's, never
   * judged while the stat is the same (ctime: no write leaves it as it was). Any other such path is the
   * agent's and judged by path like any change, though its content is not recorded.
   */
  private baselineLeftOut = new Map<string, string>()
  /** The checkpoint being taken is the baseline (filesToSkip records what it leaves out as the user's). */
  private takingBaseline = false
  /** Paths kept skip-worktree in the private index (keepSkipWorktree) while their file is absent. */
  private skipWorktree = new Set<string>()
  /** recordBaseline's caller, told once the worktree has been read (the rest does not read it). */
  private onBaselineRead: (() => void) | undefined
  /** null (with headTree) until needed when the opening did not learn it (see startTreeNow). */
  private baseTree: string | null = ''
  private head: string | null = null
  private headTree: string | null = ''
  private seq = 0
  private lastAt: number | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private urgentQueued = 0
  private wakeSpacing: (() => void) | null = null
  private opened: Promise<void> | undefined
  private filterAttributeFiles = false
  /**
   * The private index holds exactly headTree (just seeded, or just committed). With nothing staged since,
   * `write-tree` would only confirm that, so an unchanged worktree costs the listing alone.
   */
  private indexMatchesHead = false
  /** A checkpoint is listing, staging or committing: the private index may be ahead of the chain's tip. */
  private writing = false
  /** See nothingMoreToRecord. */
  private nothingLeft = false
  /** Withheld paths of the latest checkpoint with their stat, so a new or changed one is a checkpoint. */
  private withheldKey = ''
  /** .gitattributes text per directory; a checkpoint re-reads them (the agent may edit them). */
  private attributesCache = new Map<string, string>()
  private firstSnapshot: FirstSnapshotWatch

  constructor(options: CheckpointStoreOptions) {
    this.options = options
    this.firstSnapshot = new FirstSnapshotWatch(options.notice, {
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
    })
    this.session = options.session
    this.ref = checkpointRef(options.session)
    this.git = options.git
  }

  /** The session's base commit (HEAD when the store opened, or the resumed chain's base); null if unborn. */
  get base(): string | null {
    return this.baseCommit
  }

  /** The commit the agent's work is judged against (checkpoint 0, else the base); null if unborn. */
  get baseline(): string | null {
    return this.baselineCommit ?? this.baseCommit
  }

  /**
   * What a path goes back to when proctor reverts it: the baseline, with the withheld files' content as the
   * user left them (the local-only commit) when there were any.
   */
  get revertSource(): string | null {
    return this.localBaseline ?? this.baseline
  }

  /** The latest checkpoint commit of this session, if any. */
  get latest(): string | null {
    return this.head
  }

  /** The sequence number of the latest checkpoint (0 before the first). */
  get latestSeq(): number {
    return this.seq
  }

  get repoRoot(): string {
    return this.root
  }

  get privateIndexPath(): string {
    return this.indexFile
  }

  /** Find the repository, resume an existing chain and seed the private index. Idempotent. */
  open(): Promise<void> {
    this.opened ??= this.doOpen(false)
    return this.opened
  }

  /**
   * Take a checkpoint unless nothing changed since the previous one (then null). Serialized: concurrent
   * calls run one after another.
   */
  async create(trigger: string): Promise<CheckpointRecord | null> {
    return (await this.createDetailed(trigger))?.record ?? null
  }

  /**
   * Records the session's baseline, before the agent runs: the worktree as the user left it (HEAD plus
   * staged, unstaged and untracked files that are not ignored) as checkpoint 0 on the session's ref, with
   * HEAD as its parent; nothing when the worktree is HEAD. It is the store's first snapshot (the one the
   * first checkpoint took before), so it costs no second pass over the tree; every later checkpoint, its
   * diffs and the policy speak of the agent's changes since it. Forbidden-area files are withheld from it as
   * from every checkpoint, and kept on a local-only ref (refs/proctor-local/<session>) so a revert can give
   * them back. A resumed chain keeps the baseline its first session recorded. `onRead` is told once the
   * worktree has been read (its content is in the object store): what is left, the commit and the refs,
   * reads nothing the agent could change, so the agent may be spawned then.
   */
  recordBaseline(onRead?: () => void): Promise<Baseline> {
    this.onBaselineRead = onRead
    const run = this.queue.then(async () => {
      this.opened ??= this.doOpen(!this.options.pauser, true)
      await this.opened
      if (!this.head) await this.checkpoint('baseline', true).finally(() => (this.writing = false))
      return { commit: this.baseline, preExisting: [...this.preExisting] }
    })
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * `urgent` (implied by final, manual and safety) skips the min_interval wait: a caller that waits for
   * this checkpoint (the stop hooks need the agent's latest work) must not sleep out the spacing.
   */
  createDetailed(trigger: string, options: { urgent?: boolean } = {}): Promise<CheckpointResult | null> {
    const urgent = options.urgent === true || URGENT_TRIGGERS.has(trigger)
    if (urgent) {
      // A checkpoint still waiting out min_interval would only record part of what the urgent one is
      // about to record: it gives way at once, so the end of a session never waits for the spacing.
      this.urgentQueued++
      this.wakeSpacing?.()
    }
    const run = this.queue.then(() => {
      if (urgent) this.urgentQueued--
      return this.checkpoint(trigger, urgent).finally(() => (this.writing = false))
    })
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * The session ends and nothing changed since the last checkpoint listed the worktree (the final one was
   * found needless): a triggered checkpoint still waiting out min_interval would record nothing, so it gives
   * way now, as to an urgent one, instead of holding the end of the session for the rest of the interval.
   */
  nothingMoreToRecord(): void {
    this.nothingLeft = true
    this.wakeSpacing?.()
  }

  /**
   * Which of `dirs` (relative, POSIX) hold something the chain records: a path at or under one of them in
   * the latest checkpoint's tree, which is what the private index holds between checkpoints. A listing
   * compares every such entry with the worktree, whatever .gitignore says, so a directory git ignores can
   * still hold changes it records. Null when that cannot be told now (a checkpoint is under way, or the last
   * one did not finish): the caller then lists the worktree.
   */
  async recordedAmong(dirs: readonly string[]): Promise<ReadonlySet<string> | null> {
    if (!this.opened || this.writing || !this.indexMatchesHead) return null
    await this.opened
    if (this.writing || !this.indexMatchesHead) return null
    const tree = await this.startTreeNow()
    const found = new Set<string>()
    for (const { path: entry } of await this.git.lsTree(tree, dirs, { recursive: false })) {
      const owner = dirs.find((dir) => entry === dir || entry.startsWith(`${dir}/`))
      if (owner !== undefined) found.add(owner)
    }
    return found
  }

  /**
   * Loads now what weighing a listing's paths needs (`prepare`: the policy's code and the content scan),
   * which the first listing with changes would otherwise wait for. Never rejects: that listing asks again.
   */
  async warm(): Promise<void> {
    await this.options.prepare?.().catch(() => undefined)
  }

  /** Wait for queued checkpoints, then delete the private index (the commits and ref stay). */
  async close(options: { keepIndex?: boolean } = {}): Promise<void> {
    await this.queue
    await Promise.all([this.commits?.close(), this.refs?.close()])
    if (!options.keepIndex && this.indexFile) {
      fs.rmSync(this.indexFile, { force: true })
      fs.rmSync(`${this.indexFile}.lock`, { force: true })
      fs.rmSync(ownerFileOf(this.indexFile), { force: true })
    }
  }

  // ---- opening -----------------------------------------------------------------------------------

  /**
   * `listing`: the store opens for a checkpoint that is about to list the worktree anyway (a one-shot
   * `checkpoints create`, a session's baseline, or a first checkpoint before anything opened the store), so
   * one `git status` may find HEAD and list the changes at once (see openFromStatus). `keep`: for a
   * session's baseline, whose store lists again (listingOptions).
   */
  private async doOpen(listing: boolean, keep = false): Promise<void> {
    const indexName = this.options.indexName ?? `index-${this.session}`
    const { root, userIndex, gitDir, commonDir, infoAttributes, configFiles } = await this.locate()
    this.root = root
    this.git = this.options.git.at(this.root)
    this.refs = new RefUpdater(this.git, 'proctor checkpoint')
    this.userIndex = userIndex
    this.indexFile = path.join(gitDir, 'proctor', indexName)
    this.commits = new CommitWriter(this.git, `${this.indexFile}.commit`)
    fs.mkdirSync(path.dirname(this.indexFile), { recursive: true })
    // An index and lock a crashed proctor of this same session left: nobody else uses this private index,
    // and it cannot be read (it is split, and its shared part was in that process's private git directory:
    // the runner's splitIndexSetting). The chain it staged for is on the ref; it is seeded again.
    fs.rmSync(`${this.indexFile}.lock`, { force: true })
    fs.rmSync(this.indexFile, { force: true })
    // Before the index exists: another proctor's sweep of stale indexes leaves it alone while we live.
    claimIndex(this.indexFile)
    // The identity probe and the empty tree are only needed at the first commit (see checkpoint()):
    // a session whose agent changes nothing never pays for them, and opening does not compete with them.
    // A new chain from HEAD: nothing but HEAD to resolve, which the status that lists the changes names.
    const newChainFromHead =
      listing &&
      !this.options.resolved &&
      this.options.baseCommit === undefined &&
      commonDir !== null &&
      !refMayExist(commonDir, this.ref)
    // Else one cat-file for the start commit, the chain tip and their trees (missing ones come back as
    // null), unless the caller resolved them before the agent's spawn; the attributes files alongside.
    const resolve = () =>
      this.options.resolved ?? resolveOpening(this.git, this.session, this.options.baseCommit ?? 'HEAD')
    const [fromStatus, filters, resolved] = await Promise.all([
      newChainFromHead ? this.openFromStatus(keep) : null,
      this.globalAttributeFiles(infoAttributes, configFiles),
      newChainFromHead ? null : resolve(),
    ])
    this.filterAttributeFiles = filters
    if (fromStatus) {
      this.baseCommit = fromStatus.head
      this.baseTree = fromStatus.tree
      this.headTree = fromStatus.tree
      if (fromStatus.listing) {
        // The copy of the user's index holds exactly HEAD's content: seeded, and the listing stands.
        this.earlyListing = fromStatus.listing
        this.indexMatchesHead = true
      } else {
        // The user staged something: the copy status read is already in place, with its mtime.
        await this.seedIndex({ copied: true })
      }
      return
    }
    const objects = resolved ?? (await resolve())
    this.head = objects.chainCommit
    if (this.head) {
      const parsed = parseCheckpointMessage(objects.chainMessage ?? '')
      this.seq = parsed.seq ?? 0
      this.baseCommit = parsed.base
      this.headTree = objects.chainTree!
      // A resumed chain keeps its first baseline: named by every later checkpoint, or the tip itself when
      // the chain holds nothing but the baseline.
      this.baselineCommit = baselineOf(this.head, parsed)
      this.baseTree =
        this.baselineCommit === this.head
          ? this.headTree
          : !this.baselineCommit
            ? await this.git.emptyTree()
            : this.baselineCommit === objects.startCommit && objects.startTree
              ? objects.startTree
              : await this.treeOf(this.baselineCommit)
      if (commonDir === null || refMayExist(commonDir, localBaselineRef(this.session))) {
        await this.readLocalBaseline()
      }
    } else {
      this.baseCommit = objects.startCommit
      this.baseTree = objects.startTree ?? (await this.git.emptyTree())
      this.headTree = this.baseTree
    }
    await this.seedIndex()
  }

  /**
   * Opens a new chain from HEAD with one `git status` on a copy of the user's index (mtime kept, as
   * seedIndex makes it), instead of a `cat-file` for HEAD and the chain and a listing after it: status
   * names HEAD's commit, says whether the index differs from HEAD anywhere, and lists what differs in the
   * worktree, as every later listing does (changedPaths). Its untracked cache and refreshed stat data stay
   * in the copy, so the next listing starts from them. When the index holds
   * HEAD's content (the user staged nothing), the copy is the seed and the listing is the first
   * checkpoint's; else `listing` is null and the caller seeds from HEAD. HEAD's tree is then the root of
   * the copy's cache-tree when valid (whatever extensions the file has), else null (resolved only if a
   * checkpoint needs it: startTreeNow). Null when this cannot be relied on (an index with assume-unchanged
   * or skip-worktree entries, which status would not look at, or one this reader does not understand; a
   * git without these options): the caller then opens as always.
   */
  private async openFromStatus(keep: boolean): Promise<{
    head: string | null
    tree: string | null
    listing: Listing | null
  } | null> {
    const abandon = (): null => {
      fs.rmSync(this.indexFile, { force: true })
      return null
    }
    try {
      this.copyUserIndex()
    } catch {
      return abandon()
    }
    // Read from the copy, not the user's file, which may have changed since. SHA-1, else SHA-256.
    let hashBytes = 20
    let summary = readIndexSummary(this.indexFile, hashBytes)
    if (!summary) summary = readIndexSummary(this.indexFile, (hashBytes = 32))
    if (!summary || summary.hidden) return abandon()
    let status: ReturnType<typeof parseStatusV2Z>
    try {
      await this.options.onListing?.()
      const result = await this.git.raw([...LISTING_ARGS, '--branch', '--no-ahead-behind'], {
        indexFile: this.indexFile,
        ...listingOptions(keep),
      })
      status = parseStatusV2Z(result.stdout)
    } catch {
      return abandon()
    }
    // The index was read with the wrong hash size after all.
    if (status.head !== null && status.head.length !== hashBytes * 2) return abandon()
    if (status.staged) return { head: status.head, tree: null, listing: null }
    return {
      head: status.head,
      tree: summary.cacheTree,
      listing: this.listingOf([
        ...status.changed.map((p) => ({ path: p, tracked: true })),
        ...status.untracked.map((p) => ({ path: p, tracked: false })),
      ]),
    }
  }

  /** A resumed chain's local-only baseline copy: which withheld paths it holds, and their blob ids. */
  private async readLocalBaseline(): Promise<void> {
    const local = await this.git.revParse(`${localBaselineRef(this.session)}^{commit}`)
    if (!local || !this.baseTree) return
    this.localBaseline = local
    const { raw } = await this.git.diffTreeZ(this.baseTree, local)
    for (const entry of raw)
      if (!/^0+$/.test(entry.newMode)) this.baselineWithheld.set(entry.path, entry.newSha)
  }

  /**
   * Hashes what the baseline withholds (forbidden-area files as the user left them) into the object store,
   * before the agent runs: regular files only, as they are on disk (--no-filters), so each compares byte for
   * byte with the file later (unchangedSinceBaseline). Recorded on a ref by keepWithheldLocally.
   */
  private async hashWithheld(withheld: readonly ChangedFile[]): Promise<WithheldBlob[]> {
    const files = withheld
      .filter((f) => f.newMode === '100644' || f.newMode === '100755')
      .filter((f) => !f.path.includes('\n'))
    if (files.length === 0) return []
    const hashed = await this.git.raw(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
      input: files.map((f) => path.join(this.root, f.path)).join('\n') + '\n',
    })
    const ids = hashed.stdout.trim().split('\n')
    return files.map((f, i) => ({ path: f.path, mode: f.newMode!, id: ids[i]! }))
  }

  /**
   * Keeps the withheld files' blobs on a local-only ref: the baseline's tree plus those files, committed on
   * top of the baseline as refs/proctor-local/<session>. That ref is outside refs/proctor/, so no push or
   * bundle ever carries it, and it keeps the blobs from being pruned.
   */
  private async keepWithheldLocally(blobs: readonly WithheldBlob[], baseline: string): Promise<void> {
    if (blobs.length === 0) return
    const indexFile = path.join(path.dirname(this.indexFile), `baseline-${process.pid}-${randomHex(4)}`)
    try {
      fs.copyFileSync(this.indexFile, indexFile)
      await this.git.raw(['update-index', '-z', '--index-info'], {
        indexFile,
        input: blobs.map((b) => `${b.mode} ${b.id}\t${b.path}\0`).join(''),
      })
      const tree = await this.git.writeTree(indexFile)
      const message =
        `proctor baseline (local only): ${blobs.length} withheld file(s) as the user left them\n\n` +
        'Never pushed: proctor gives these back when it reverts a path to the baseline.\n'
      const commit = await this.git.commitTree(tree, [baseline], message)
      await this.git.raw(['update-ref', '-m', 'proctor baseline', localBaselineRef(this.session), commit])
      this.localBaseline = commit
      for (const b of blobs) this.baselineWithheld.set(b.path, b.id)
    } finally {
      fs.rmSync(indexFile, { force: true })
    }
  }

  /**
   * The tree the chain stands on (headTree), when the opening left it unknown (openFromStatus without a
   * valid cache-tree): HEAD's tree, or the empty tree on an unborn branch.
   */
  private async startTreeNow(): Promise<string> {
    if (this.headTree === null) {
      const tree = this.baseCommit ? await this.treeOf(this.baseCommit) : await this.git.emptyTree()
      this.headTree = tree
      this.baseTree = tree
    }
    return this.headTree
  }

  /**
   * The worktree's top level, the user's index, the git dir and info/attributes: read from the files git
   * keeps them in when the layout is a plain one (readGitDirs), else from one `rev-parse` (`--git-path`
   * knows every layout).
   */
  private async locate(): Promise<{
    root: string
    userIndex: string
    gitDir: string
    /** Where shared refs live; null when unknown. */
    commonDir: string | null
    infoAttributes: string
    /** The repository's config files, when known without git (see attributesFileUnset). */
    configFiles: string[] | null
  }> {
    const cwd = this.options.git.cwd
    // readGitDirs answers only for a worktree's top level (it reads `<cwd>/.git`): else rev-parse.
    const dirs = readGitDirs(cwd)
    if (dirs) {
      return {
        root: cwd,
        userIndex: path.join(dirs.gitDir, 'index'),
        gitDir: dirs.gitDir,
        commonDir: dirs.commonDir,
        infoAttributes: path.join(dirs.commonDir, 'info', 'attributes'),
        configFiles: [path.join(dirs.commonDir, 'config'), path.join(dirs.gitDir, 'config.worktree')],
      }
    }
    const paths = (
      await this.options.git.raw([
        'rev-parse',
        '--show-toplevel',
        '--git-path',
        'index',
        '--git-dir',
        '--git-path',
        'info/attributes',
      ])
    ).stdout.split('\n')
    return {
      root: paths[0]!,
      userIndex: path.resolve(cwd, paths[1]!),
      gitDir: path.resolve(cwd, paths[2]!),
      commonDir: null,
      infoAttributes: path.resolve(cwd, paths[3]!),
      configFiles: null,
    }
  }

  /**
   * Seed from a copy of the user's index (copyUserIndex) so its stat data is reused (only changed files
   * get hashed). `read-tree --reset` then drops what the user staged but did not commit, keeping matching
   * stat entries; it is skipped when the user's index records (in its cache-tree) that it holds exactly
   * the start tree, the common case of a user who staged nothing. Assume-unchanged or skip-worktree
   * entries, an index this reader does not understand, an unborn HEAD or a resumed chain take the plain
   * path. `copied`: openFromStatus made the copy already (and read it), so it is read and used as it is.
   */
  private async seedIndex(options: { copied?: boolean } = {}): Promise<void> {
    const startTree = this.head ? this.headTree : this.baseCommit
    // Any id of this repository gives the hash size (headTree is null when openFromStatus left it unknown).
    const known = this.headTree || this.baseCommit
    const source = options.copied ? this.indexFile : this.userIndex
    const summary = startTree !== null && known ? readIndexSummary(source, known.length / 2) : null
    try {
      if (startTree !== null && summary && !summary.hidden) {
        if (!options.copied) this.copyUserIndex()
        if (this.headTree === null || summary.tree !== this.headTree)
          await this.git.readTree(this.indexFile, startTree, { reset: true })
        this.indexMatchesHead = true
        return
      }
    } catch {
      // A split or unreadable user index: fall through to a fresh index (slower first checkpoint only).
    }
    fs.rmSync(this.indexFile, { force: true })
    await this.git.readTree(this.indexFile, startTree)
    // A sparse index is one this reader does not understand (summary null): its entries are looked at too.
    if (!summary || summary.hidden) await this.keepSkipWorktree()
    this.indexMatchesHead = true
  }

  /**
   * The user's skip-worktree entries whose file is absent (a sparse checkout's files outside the cone) stay
   * skip-worktree in the private index: absent by design, they are not deletions, so no checkpoint records
   * them as deleted and no pushed branch deletes them. One whose file is on disk is compared as any file
   * (a user's `--skip-worktree` over a local edit hides nothing from a checkpoint), and so is one that
   * appears later (revealSkipWorktree).
   */
  private async keepSkipWorktree(): Promise<void> {
    let listing
    try {
      listing = await this.git.raw(['ls-files', '-z', '-t'], { indexFile: this.userIndex })
    } catch {
      return // no user index git can read (unborn, damaged): nothing is skip-worktree
    }
    const absent = listing.stdout
      .split('\0')
      .filter((field) => field.startsWith('S ') && !onDisk(path.join(this.root, field.slice(2))))
      .map((field) => field.slice(2))
    if (absent.length === 0) return
    await this.git.raw(['update-index', '-z', '--skip-worktree', '--stdin'], {
      indexFile: this.indexFile,
      input: absent.join('\0') + '\0',
    })
    this.skipWorktree = new Set(absent)
  }

  /**
   * A file written where a kept skip-worktree entry is (outside the sparse cone) is the agent's work: its
   * entry is compared again from then on, so git's listing sees it. One lstat per such entry per listing.
   */
  private async revealSkipWorktree(): Promise<void> {
    if (this.skipWorktree.size === 0) return
    const appeared = [...this.skipWorktree].filter((p) => onDisk(path.join(this.root, p)))
    if (appeared.length === 0) return
    await this.git.raw(['update-index', '-z', '--no-skip-worktree', '--stdin'], {
      indexFile: this.indexFile,
      input: appeared.join('\0') + '\0',
    })
    for (const p of appeared) this.skipWorktree.delete(p)
  }

  /**
   * The private index as a copy of the user's, with its mtime: git trusts an entry's stat data by comparing
   * it to the index file's own mtime (racy-git), and a fresh mtime would hide same-size edits made in the
   * same second.
   */
  private copyUserIndex(): void {
    const stat = fs.statSync(this.userIndex)
    fs.copyFileSync(this.userIndex, this.indexFile)
    fs.utimesSync(this.indexFile, stat.atime, stat.mtime)
  }

  // ---- one checkpoint ----------------------------------------------------------------------------

  private async checkpoint(trigger: string, urgent: boolean): Promise<CheckpointResult | null> {
    // With pause_agent the worktree is only read while the agent is paused (below), so the opening lists
    // nothing.
    this.opened ??= this.doOpen(!this.options.pauser)
    await this.opened
    if (!(await this.waitForSpacing(urgent))) return null
    this.writing = true
    const startedAt = monotonicMs()
    const skipped: SkippedFile[] = []
    const withheld: ChangedFile[] = []
    this.attributesCache.clear()
    this.takingBaseline = trigger === 'baseline'
    const pauser = this.options.pauser
    let staged: string[]
    pauser?.pause()
    try {
      staged = await this.stageChanges(skipped, withheld)
    } finally {
      this.firstSnapshot.end()
      pauser?.resume()
    }
    // A withheld file is never staged, so the tree cannot show it: a change in what is withheld (a new
    // forbidden file, or one removed) is a checkpoint of its own, so policy sees it and the record lists it.
    // Sorted: the listing's order is git's, not a stable one to compare.
    // What the user left that no checkpoint can hold (over max_file_size, LFS, forbidden) is theirs even
    // when nothing else differs from HEAD and no checkpoint 0 is written.
    if (trigger === 'baseline') this.preExisting = [...new Set(skipped.map((f) => f.path))].sort()
    const withheldKey = withheld
      .map((f) => `${f.path}\0${f.status}\0${f.size}\0${f.newMode}`)
      .sort()
      .join('\0')
    const withheldChanged = withheldKey !== this.withheldKey
    if (staged.length === 0 && this.indexMatchesHead && !withheldChanged) return null
    this.indexMatchesHead = false
    // From the second commit on: what the commit will need (started once per session), overlapping the
    // write-tree and the diffs. A synchronous runner (a one-shot create) starts no long-lived git: one
    // commit-tree and one update-ref.
    const streams = !this.git.synchronous
    const plainCommit = this.commitsMade === 0 || !streams
    if (!plainCommit) {
      this.commits!.prepare()
      this.refs!.prepare()
    }
    const baseline = trigger === 'baseline'
    const tree = await this.git.writeTree(this.indexFile)
    const headTree = await this.startTreeNow()
    if (tree === headTree && !withheldChanged) {
      this.indexMatchesHead = true
      return null
    }
    // The baseline's content is all in the object store now: the agent may start while it is committed.
    const keptBlobs = baseline ? await this.hashWithheld(withheld) : []
    if (baseline) this.onBaselineRead?.()

    const seq = baseline ? 0 : this.seq + 1
    // The detailed diffs cost two git processes each; they are only computed for the policy hook. The
    // baseline is the user's, never judged.
    let files: ChangedFile[] = []
    let cumulative: ChangedFile[] = []
    let violations: Violation[] = []
    if (this.options.validate && !baseline) {
      const baseTree = this.baseTree!
      // Since the previous checkpoint and since the baseline: one diff-tree and one cat-file for both.
      if (headTree === baseTree) files = cumulative = await diffTrees(this.git, headTree, tree)
      else
        [files, cumulative] = (await diffTreePairs(this.git, [
          [headTree, tree],
          [baseTree, tree],
        ])) as [ChangedFile[], ChangedFile[]]
      violations = await this.options.validate({ seq, files, cumulative, withheld, tree })
    }
    const changedPaths = this.options.validate && !baseline ? touchedPaths(files) : staged
    const parent = this.head ?? this.baseCommit
    const message = formatCheckpointMessage({
      session: this.session,
      seq,
      base: this.baseCommit,
      ...(baseline ? {} : { baseline: this.baselineCommit }),
      trigger,
      filesChanged: changedPaths.length,
      violations: violations.length,
      skipped,
      maxFileSize: this.options.maxFileSize,
    })
    const sha = plainCommit
      ? await this.git.commitTree(tree, parent ? [parent] : [], message)
      : await this.commits!.commit(tree, parent ? [parent] : [], message)
    try {
      if (streams) await this.refs!.updateCas(this.ref, sha, this.head)
      else await this.git.updateRefCas(this.ref, sha, this.head, 'proctor checkpoint')
    } catch (error) {
      if (error instanceof RefMovedError) {
        throw new Error(
          `checkpoint ${seq} of session ${this.session} was not recorded: ${this.ref} was moved by another ` +
            'process (is a second proctor running with the same session id?). Nothing was overwritten; ' +
            'use a distinct session id per run.',
          { cause: error },
        )
      }
      throw error
    }
    this.commitsMade++
    this.head = sha
    this.headTree = tree
    this.withheldKey = withheldKey
    if (baseline) {
      this.baselineCommit = sha
      this.baseTree = tree
      // What the baseline withheld is left out of later checkpoints as long as it is unchanged (filesToSkip).
      this.withheldKey = ''
      this.preExisting = [...new Set([...staged, ...skipped.map((f) => f.path)])].sort()
      await this.keepWithheldLocally(keptBlobs, sha)
    }
    this.indexMatchesHead = true
    this.seq = seq
    this.lastAt = this.now()
    const record: CheckpointRecord = {
      seq,
      sha,
      ref: this.ref,
      trigger,
      files_changed: changedPaths,
      violations: violations.length,
      skipped: skipped.map((s) => s.path),
      skipped_reasons: Object.fromEntries(skipped.map((s) => [s.path, s.reason])),
      created_at: new Date().toISOString(),
      duration_ms: Math.round(monotonicMs() - startedAt),
    }
    return { record, tree, parent, files, cumulative, violations, skipped, withheld }
  }

  /**
   * Bring the private index up to date with the worktree. The listing finds what changed; only
   * those paths are hashed, with `update-index` (no second directory walk), minus files over
   * max_file_size, LFS-tracked files and .proctor/. If that fails (a path vanished or changed type
   * mid-way, a nested repository without commits), fall back to a whole-tree `add -A`, leaving out
   * nested repositories git cannot record.
   */
  private async stageChanges(skipped: SkippedFile[], withheld: ChangedFile[]): Promise<string[]> {
    const early = this.earlyListing
    this.earlyListing = undefined
    if (!early) await this.revealSkipWorktree()
    const { paths: changed, tracked } = early ?? (await this.changedPaths())
    this.firstSnapshot.begin(changed, this.seq)
    if (this.baselineWithheld.size > 0) withheld.push(...this.removedSinceBaseline(new Set(changed)))
    if (changed.length === 0) return []
    const toScan: { path: string; stat: fs.Stats }[] = []
    const exclude = [
      ...(await this.filesToSkip(changed, skipped, withheld, tracked, toScan)),
      ...this.hiddenRelative(),
    ]
    const excluded = new Set(exclude)
    const paths = changed.filter((p) => !excluded.has(p))
    if (paths.length === 0) return []
    const scanning = this.scanContent(toScan, { skipped, withheld, tracked })
    // A failed staging must not leave the scan's promise unobserved.
    scanning.catch(() => undefined)
    const staged = await this.stagePaths(paths, exclude, skipped)
    const hits = await scanning
    if (hits.length === 0) return staged
    await this.unstage(hits)
    const found = new Set(hits)
    return staged.filter((p) => !found.has(p))
  }

  /** Stages `paths` (update-index; a whole-tree add -A without `exclude` when that fails). */
  private async stagePaths(paths: string[], exclude: string[], skipped: SkippedFile[]): Promise<string[]> {
    try {
      const staging = this.git.raw(
        [
          'update-index',
          ...(this.firstSnapshot.active ? ['--verbose'] : []),
          '--add',
          '--remove',
          '--replace',
          '-z',
          '--stdin',
        ],
        { indexFile: this.indexFile, input: paths.join('\0') + '\0', ...this.progressCounter(paths.length) },
      )
      // Something will most likely be committed: the ref updater's git starts while update-index works
      // (the runner spawns it on a later microtask; a spawn blocks this thread for a few ms), so its
      // start-up overlaps the staging, the tree and the commit instead of following them.
      if (!this.git.synchronous) setImmediate(() => this.refs?.prepare())
      await staging
    } catch {
      try {
        await this.git.addAll(this.indexFile, { exclude: [STATE_DIR_NAME, ...exclude] })
      } catch (error) {
        const dirs = paths.filter((p) => isDirectory(path.join(this.root, p)))
        if (dirs.length === 0) throw error
        for (const dir of dirs) skipped.push({ path: dir, reason: 'unrecordable' })
        await this.git.addAll(this.indexFile, { exclude: [STATE_DIR_NAME, ...exclude, ...dirs] })
        return paths.filter((p) => !dirs.includes(p))
      }
    }
    return paths
  }

  /**
   * For a large first snapshot: `update-index --verbose` prints one line per path as it hashes it ("add
   * 'path'", "remove 'path'"), so counting lines as they come says how far along it is. A path holding a
   * newline could count twice; the watch caps the count at the total.
   */
  private progressCounter(total: number): { onStdout?: (chunk: Buffer) => void } {
    if (!this.firstSnapshot.active) return {}
    let lines = 0
    return {
      onStdout: (chunk) => {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
        this.firstSnapshot.progress(lines, total)
      },
    }
  }

  /**
   * Paths whose worktree state differs from the private index (modified, deleted, untracked), from one
   * `status` (LISTING_ARGS): a file whose stat data changed but whose size did not is compared by content
   * (as `git diff` does), so a touched but unchanged file is not counted as changed (and its new stat data
   * is written back, so it is not read again), and submodules are compared by their HEAD only.
   */
  private async changedPaths(): Promise<Listing> {
    await this.options.onListing?.()
    const listing = await this.git.raw(LISTING_ARGS, {
      indexFile: this.indexFile,
      ...listingOptions(!this.git.synchronous),
    })
    const status = parseStatusV2Z(listing.stdout)
    return this.listingOf([
      ...status.changed.map((p) => ({ path: p, tracked: true })),
      ...status.untracked.map((p) => ({ path: p, tracked: false })),
    ])
  }

  /** A listing's paths, once each, without .proctor/ and the hidden paths. */
  private listingOf(entries: readonly { path: string; tracked: boolean }[]): Listing {
    const paths: string[] = []
    const tracked = new Set<string>()
    const seen = new Set<string>()
    for (const entry of entries) {
      // A nested repository is listed as a directory.
      const p = entry.path.replace(/\/$/, '')
      if (seen.has(p)) continue
      seen.add(p)
      if (p === STATE_DIR_NAME || p.startsWith(`${STATE_DIR_NAME}/`)) continue
      if (this.options.hiddenPaths?.has(path.join(this.root, p))) continue
      paths.push(p)
      if (entry.tracked) tracked.add(p)
    }
    return { paths, tracked }
  }

  private hiddenRelative(): string[] {
    return [...(this.options.hiddenPaths ?? [])].map((p) => path.relative(this.root, p))
  }

  /**
   * A file left out for its size, LFS or a secret: its content is not recorded, but it is still judged by
   * path (a 2 MB workflow under a protected area is a change there), unless it is the user's, as they left it.
   */
  private leaveOut(
    p: string,
    stat: fs.Stats,
    skip: SkippedFile,
    into: { skipped: SkippedFile[]; withheld: ChangedFile[]; tracked: ReadonlySet<string> },
    secret?: ContentFinding,
  ): void {
    into.skipped.push(skip)
    const key = statKey(stat)
    if (this.takingBaseline) this.baselineLeftOut.set(p, key)
    if (this.takingBaseline || this.baselineLeftOut.get(p) === key) return
    const change = withheldChange(this.root, p, stat, into.tracked.has(p) || this.baselineLeftOut.has(p))
    if (secret) change.secret = secret
    into.withheld.push(change)
  }

  /**
   * What the listing's paths leave out of the checkpoint (forbidden, over the size limit, LFS), and in
   * `toScan` the regular files the content scan has to read (scanContent).
   */
  private async filesToSkip(
    paths: readonly string[],
    skipped: SkippedFile[],
    withheld: ChangedFile[],
    tracked: ReadonlySet<string>,
    toScan: { path: string; stat: fs.Stats }[],
  ): Promise<string[]> {
    const exclude: string[] = []
    const present: string[] = []
    const stats = new Map<string, fs.Stats>()
    await this.options.prepare?.()
    const withhold = this.options.withhold
    const scanner = this.options.scanner?.() ?? null
    const into = { skipped, withheld, tracked }
    const leaveOut = (p: string, stat: fs.Stats, skip: SkippedFile) => {
      exclude.push(p)
      this.leaveOut(p, stat, skip, into)
    }
    for (const p of paths) {
      let stat: fs.Stats
      try {
        stat = fs.lstatSync(path.join(this.root, p))
      } catch {
        continue // deleted: nothing to hash (a deletion writes no content, so it is recorded)
      }
      const why = withhold?.(p) ?? null
      if (why !== null && this.unchangedSinceBaseline(p, stat)) {
        // The user's, as they left it: never recorded and never judged, but still listed as skipped, so a
        // restore knows no checkpoint holds it and refuses to overwrite it.
        scanner?.forbid(path.join(this.root, p), p, stat)
        exclude.push(p)
        skipped.push({ path: p, reason: 'forbidden', detail: why })
        continue
      }
      if (why !== null) {
        exclude.push(p)
        skipped.push({ path: p, reason: 'forbidden', detail: why })
        // A file the user had at the baseline is modified, not added, whether git tracks it or not.
        withheld.push(withheldChange(this.root, p, stat, tracked.has(p) || this.baselineWithheld.has(p)))
        // Its bytes are recognised wherever they reappear (a copy, a hard link).
        scanner?.forbid(path.join(this.root, p), p, stat)
        continue
      }
      if (!stat.isFile()) continue
      present.push(p)
      stats.set(p, stat)
      if (stat.size > this.options.maxFileSize)
        leaveOut(p, stat, { path: p, reason: 'size', size: stat.size })
    }
    let candidates = present.filter((p) => !exclude.includes(p))
    if (candidates.length > 0 && this.attributesMayFilter(candidates)) {
      const filters = await this.git.checkAttr('filter', candidates, this.indexFile)
      for (const p of candidates) {
        if (filters.get(p) === 'lfs') leaveOut(p, stats.get(p)!, { path: p, reason: 'lfs' })
      }
      candidates = candidates.filter((p) => !exclude.includes(p))
    }
    if (scanner) for (const p of candidates) toScan.push({ path: p, stat: stats.get(p)! })
    return exclude
  }

  /**
   * The content scan of the files about to be staged; runs while git stages them (its own process), so it
   * costs the checkpoint little time. Returns the paths holding a secret, each left out with its finding.
   */
  private async scanContent(
    files: readonly { path: string; stat: fs.Stats }[],
    into: { skipped: SkippedFile[]; withheld: ChangedFile[]; tracked: ReadonlySet<string> },
  ): Promise<string[]> {
    const scanner = this.options.scanner?.() ?? null
    if (!scanner || files.length === 0) return []
    // git is spawned first (the runner does so on a later turn): the scan then runs beside it.
    await new Promise((resolve) => setImmediate(resolve))
    const hits: string[] = []
    for (const { path: p, stat } of files) {
      const found = await scanner.scanFile(path.join(this.root, p), p, stat)
      if (!found) continue
      hits.push(p)
      this.leaveOut(
        p,
        stat,
        { path: p, reason: 'secret', detail: `${found.what} (${found.rule})` },
        into,
        found,
      )
    }
    return hits
  }

  /**
   * Puts the private index's entries of `paths` back to the tree the chain stands on (absent where it has
   * none): their content was staged beside the scan that found a secret in it. The blob git wrote is
   * referenced by no tree, commit or ref, so no push or bundle can carry it (gc prunes it).
   */
  private async unstage(paths: readonly string[]): Promise<void> {
    const headTree = await this.startTreeNow()
    const entries = await this.git.lsTree(headTree, paths)
    const kept = new Set(entries.map((e) => e.path))
    const none = '0'.repeat(headTree.length)
    const lines = [
      ...paths.filter((p) => !kept.has(p)).map((p) => `0 ${none}\t${p}\0`),
      ...entries.map((e) => `${e.mode} ${e.sha}\t${e.path}\0`),
    ]
    await this.git.raw(['update-index', '-z', '--index-info'], {
      indexFile: this.indexFile,
      input: lines.join(''),
    })
  }

  /**
   * Whether a withheld file still holds what it held at the baseline: its bytes hash to the blob the
   * baseline kept locally (git's blob id, computed here: the file is never handed to git again).
   */
  private unchangedSinceBaseline(p: string, stat: fs.Stats): boolean {
    const kept = this.baselineWithheld.get(p)
    if (kept === undefined || !stat.isFile()) return false
    // Read again only when its stat changed since it last matched (ctime: no write leaves it as it was), so a
    // large forbidden file is not re-read at every checkpoint.
    const key = `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`
    if (this.withheldVerified.get(p) === key) return true
    try {
      // Non-blocking and capped at the size just seen: swapped for a FIFO, or grown, it is not unchanged.
      const content = readRegularFile(path.join(this.root, p), stat.size)
      // Not imported at the top: a session opens its store before the spawn, and node:crypto costs it there.
      const { createHash } = process.getBuiltinModule('node:crypto')
      const hash = createHash(kept.length === 64 ? 'sha256' : 'sha1')
      hash.update(`blob ${content.length}\0`)
      hash.update(content)
      if (hash.digest('hex') !== kept) return false
      this.withheldVerified.set(p, key)
      return true
    } catch {
      return false
    }
  }

  /**
   * Baseline-withheld files the agent removed: the listing cannot show an untracked one, so it is described
   * from what the baseline kept (a tracked one is staged as a deletion and shows in the diff).
   */
  private removedSinceBaseline(listed: ReadonlySet<string>): ChangedFile[] {
    const removed: ChangedFile[] = []
    for (const p of this.baselineWithheld.keys()) {
      if (listed.has(p) || fs.existsSync(path.join(this.root, p))) continue
      removed.push({
        path: p,
        status: 'D',
        oldMode: '100644',
        newMode: null,
        size: null,
        linesAdded: null,
        linesDeleted: null,
      })
    }
    return removed
  }

  /**
   * Whether any attributes file that applies to these paths mentions `filter` (LFS is `filter=lfs`).
   * Reading a few small files is much cheaper than a `git check-attr` process per checkpoint.
   */
  private attributesMayFilter(paths: readonly string[]): boolean {
    if (this.filterAttributeFiles) return true
    const dirs = new Set<string>()
    for (const p of paths) {
      let dir = path.posix.dirname(p)
      for (;;) {
        dirs.add(dir)
        if (dir === '.') break
        dir = path.posix.dirname(dir)
      }
    }
    for (const dir of dirs) {
      let text = this.attributesCache.get(dir)
      if (text === undefined) {
        try {
          // Non-blocking: the agent may have made it a FIFO, which a plain read would wait on forever.
          text = readText(path.join(this.root, dir, '.gitattributes'))
        } catch {
          text = ''
        }
        this.attributesCache.set(dir, text)
      }
      if (/filter/.test(text)) return true
    }
    return false
  }

  /** info/attributes, core.attributesFile or the default global file mentions a filter. */
  private async globalAttributeFiles(infoAttributes: string, configFiles: string[] | null): Promise<boolean> {
    const candidates = [infoAttributes]
    const configured =
      this.options.attributesFile !== undefined
        ? this.options.attributesFile
        : configFiles && this.attributesFileUnset(configFiles)
          ? null
          : await this.git.configGet('core.attributesFile')
    if (configured) candidates.push(configured.replace(/^~(?=\/)/, os.homedir()))
    const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config')
    candidates.push(path.join(xdg, 'git', 'attributes'))
    return candidates.some((file) => {
      try {
        return /filter/.test(readText(file))
      } catch {
        return false
      }
    })
  }

  /**
   * True when no config file git reads can set core.attributesFile: none of them (the repository's,
   * global, system) mentions `attributesfile` or an include, and no config comes from the environment.
   * Saves a one-shot `checkpoints create` its `git config` process; any doubt asks git.
   */
  private attributesFileUnset(repositoryFiles: string[]): boolean {
    const env = (key: string) => this.git.envValue(key)
    if (env('GIT_CONFIG_PARAMETERS') || env('GIT_CONFIG_COUNT')) return false
    return [...repositoryFiles, ...globalConfigFiles(env)].every((file) => {
      let text: string
      try {
        text = readText(file)
      } catch (error) {
        return (error as FileError).code === 'ENOENT'
      }
      return !/attributesfile|include/i.test(text)
    })
  }

  /** Waits out min_interval for a non-urgent trigger; false when an urgent checkpoint came in meanwhile. */
  private async waitForSpacing(urgent: boolean): Promise<boolean> {
    if (urgent) return true
    if (this.urgentQueued > 0 || this.nothingLeft) return false
    const min = this.options.minIntervalMs ?? 0
    if (this.lastAt === null || min <= 0) return true
    const wait = this.lastAt + min - this.now()
    if (wait > 0) {
      let timer: NodeJS.Timeout | undefined
      const woken = new Promise<void>((resolve) => (this.wakeSpacing = resolve))
      const slept = this.options.sleep
        ? this.options.sleep(wait)
        : new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))
      await Promise.race([slept, woken])
      clearTimeout(timer)
      this.wakeSpacing = null
    }
    return this.urgentQueued === 0 && !this.nothingLeft
  }

  private now(): number {
    return (this.options.now ?? Date.now)()
  }

  private async treeOf(commit: string): Promise<string> {
    return (await this.git.raw(['rev-parse', '--verify', `${commit}^{tree}`])).stdout.trim()
  }
}

/**
 * A monotonic clock in ms. Not `performance.now()`: the first use of the `performance` global loads eight
 * of Node's perf modules (~1 ms), which a one-shot `checkpoints create` would pay for one duration.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

/** A withheld file's content hashed for the baseline's local-only copy. */
interface WithheldBlob {
  path: string
  mode: string
  id: string
}

/** Paths that differ from the private index, and which of them it tracks. */
interface Listing {
  paths: string[]
  tracked: Set<string>
}

/** A withheld path described as a diff entry, from the disk (its content is never hashed into git). */
function withheldChange(root: string, p: string, stat: fs.Stats, tracked: boolean): ChangedFile {
  const mode = stat.isSymbolicLink()
    ? '120000'
    : stat.isDirectory()
      ? '160000'
      : stat.mode & 0o111
        ? '100755'
        : '100644'
  const change: ChangedFile = {
    path: p,
    status: tracked ? 'M' : 'A',
    // The previous mode is not read (that would need the index entry); a modification keeps its mode
    // here, so an unchanged executable bit is not reported as new.
    oldMode: tracked ? mode : null,
    newMode: mode,
    size: stat.isFile() ? stat.size : null,
    linesAdded: null,
    linesDeleted: null,
  }
  if (stat.isSymbolicLink()) {
    try {
      change.symlinkTarget = fs.readlinkSync(path.join(root, p), 'utf8')
    } catch {
      // Gone since the listing: the next checkpoint sees that.
    }
  }
  return change
}

/** A file's identity and content as its stat shows it (ctime: no write leaves it unchanged). */
function statKey(stat: fs.Stats): string {
  return `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`
}

/** Whether anything (a dangling symlink too) is at `file`. */
function onDisk(file: string): boolean {
  try {
    fs.lstatSync(file)
    return true
  } catch {
    return false
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.lstatSync(file).isDirectory()
  } catch {
    return false
  }
}

/** More than any real attributes or config file; a larger one is read as empty (git still decides). */
const ATTRIBUTE_FILE_MAX_BYTES = 4 * 1024 * 1024

/** Attribute and config files proctor reads itself: a FIFO or device there never blocks it (safe-file.ts). */
function readText(file: string): string {
  // How git is told there is no such file (GIT_CONFIG_GLOBAL=/dev/null): empty, as git reads it.
  if (file === '/dev/null') return ''
  return readRegularFile(file, ATTRIBUTE_FILE_MAX_BYTES).toString('utf8')
}
