// When to take a checkpoint: every `interval`, after `max_changes` distinct paths changed (a watcher
// counts them; git decides what actually changed when the checkpoint runs), on detector
// events, at the end (`final`) and on demand (`manual`). Every file event goes to an audit log;
// a directory git ignores is one line there, never entered.
import fs from 'node:fs'
import path from 'node:path'

import type { Git } from '../git/runner.js'
import { splitNul } from '../git/nul.js'
import { STATE_DIR_NAME } from '../state/layout.js'
import { findBlocker, isReadByGit } from './git-blockers.js'
import { TreeWatcher, type TreeEvent } from './tree-watcher.js'
import { openAppendRegular } from '../util/safe-file.js'

export type TriggerName = 'interval' | 'changes' | 'event' | 'final' | 'manual'

export interface CheckpointTriggersOptions {
  /** Repository root to watch. */
  root: string
  /**
   * Learns at start which directories .gitignore excludes, and whether each directory that appears later
   * is excluded: neither is watched.
   */
  git?: Git
  /** 0 disables the interval trigger. */
  intervalMs: number
  /** Distinct changed paths that trigger a checkpoint; 0 disables the watcher. */
  maxChanges: number
  /** Takes the checkpoint (normally CheckpointStore.create, which serializes). */
  take: (trigger: TriggerName, detail?: string) => Promise<unknown>
  /** `<sessionDir>/file-events.jsonl`; omitted: no audit log. */
  eventLogPath?: string
  /** Called when a triggered checkpoint fails (the session records it); never throws out of a timer. */
  onError?: (error: unknown, trigger: TriggerName) => void
  /** Paths no checkpoint records (relative): their changes do not make the tree differ (quietSince). */
  unrecorded?: (rel: string) => boolean
  /**
   * The checkpoints' private index, once there is one: what they track is what counts as tracked when the
   * watcher, at its start, asks which directories git ignores as a whole (the agent's own index can drop a
   * file from it).
   */
  indexFile?: () => string | undefined
  /**
   * Which of these directories hold something the checkpoints record (CheckpointStore.recordedAmong); null
   * when that cannot be told now. Without it, quietSince never vouches for a directory it skips.
   */
  recordedAmong?: (dirs: readonly string[]) => Promise<ReadonlySet<string> | null>
}

/** What the watcher had seen when a checkpoint listed the worktree (see mark and quietSince). */
export interface WatchMark {
  /** The watcher had walked the whole tree: every directory git can record was watched. */
  walked: boolean
  events: number
}

// Never watched at any depth (git records no path through a `.git`; node_modules is checked by quietSince).
// proctor's state is only the root's `.proctor/`: a `src/.proctor/` is the agent's, and git records it.
const ALWAYS_IGNORED = new Set(['.git', 'node_modules'])

export class CheckpointTriggers {
  private readonly options: CheckpointTriggersOptions
  private watcher: TreeWatcher | null = null
  private timer: NodeJS.Timeout | null = null
  private readonly changed = new Set<string>()
  private readonly unchecked = new Set<string>()
  private checking: Promise<void> | null = null
  private inFlight: Promise<unknown> | null = null
  private log: fs.WriteStream | null = null
  private ignoredDirs = new Set<string>()
  private stopped = false
  /** The final checkpoint is queued: interval and change triggers no longer fire. */
  private ending = false
  private watching: Promise<void> = Promise.resolve()
  /** The walk of the tree is done and no watch failed: a change anywhere git looks is an event. */
  private walked = false
  private blind = false
  /** Events on paths a checkpoint may record, since the watcher started. */
  private events = 0
  /** node_modules directories the watcher skips that were not known to be ignored when it started. */
  private readonly unverified = new Set<string>()
  /** Directories found ignored when they appeared (ignoredDir), skipped while they exist. */
  private readonly skippedLate = new Set<string>()
  /**
   * Ignore and attribute files the watcher saw created or changed (git opens them as it walks): checked
   * before each checkpoint, so a FIFO planted there fails it before git blocks on it (git-blockers.ts).
   */
  readonly readByGit = new Set<string>()

  constructor(options: CheckpointTriggersOptions) {
    this.options = options
  }

  /** Distinct paths changed since the last checkpoint started (as the watcher saw them). */
  get pendingChanges(): number {
    return this.changed.size
  }

  /** Resolves when the file events seen so far have been counted (ignore checks done). */
  async counted(): Promise<void> {
    while (this.checking) await this.checking
  }

  /**
   * Start the interval timer and launch the watcher. It does not wait for the watcher's walk of the
   * tree, which grows with the repository: the agent starts at once, and a change made before the walk
   * reached its directory is still in the next checkpoint (git decides what changed; the watcher only
   * counts towards `max_changes`). `ready()` waits for the walk.
   */
  start(): void {
    if (this.options.eventLogPath) {
      this.log = openEventLog(this.options.eventLogPath)
    }
    if (this.options.intervalMs > 0) {
      this.timer = setInterval(() => void this.fire('interval'), this.options.intervalMs)
      this.timer.unref()
    }
    if (this.options.maxChanges > 0 || this.log) {
      this.watching = this.startWatcher().catch((error: unknown) =>
        this.writeLog({ event: 'watch_error', path: '', message: String(error) }),
      )
    }
  }

  /** Resolves once the watcher has walked the tree (or gave up); events from then on are counted. */
  ready(): Promise<void> {
    return this.watching
  }

  /** A detector event (e.g. completion) asks for a checkpoint. */
  event(name: string): Promise<unknown> {
    return this.fire('event', name)
  }

  manual(): Promise<unknown> {
    return this.fire('manual')
  }

  /**
   * Taken right before a checkpoint lists the worktree, once the events of every change made before it
   * have been counted (else a change the listing sees would count as one made after it).
   */
  async mark(): Promise<WatchMark> {
    if (this.walked && !this.blind) await this.settled()
    return { walked: this.walked && !this.blind && !this.stopped, events: this.events }
  }

  /**
   * Whether the worktree holds nothing new for a checkpoint since `mark` was taken: the watcher had walked
   * the whole tree by then, no watch failed, and it has seen no change since on a path a checkpoint could
   * record (events still queued in the kernel or being classified are waited for). Every directory it skips
   * (node_modules, and the ones git ignored at the start or when they appeared) is checked to be ignored by
   * git still, as a whole (ignoredAsWholes): one the checkpoints record a file in, or one a .gitignore edit
   * un-ignored, would hide changes from the watcher. False whenever in doubt: the caller then lists the tree.
   */
  async quietSince(mark: WatchMark): Promise<boolean> {
    if (!mark.walked || this.blind || this.stopped) return false
    await this.settled()
    if (this.stopped || this.blind || this.events !== mark.events) return false
    // Every directory the watcher does not enter must still be ignored by git as a whole: one the agent
    // un-ignored (a .gitignore edit) holds changes git records and no watch saw. One that is gone hides none.
    // .git and proctor's own state are never recorded, whatever git says of them.
    const skipped = [...new Set([...this.ignoredDirs, ...this.skippedLate, ...this.unverified])].filter(
      (dir) =>
        !dir.split('/').some((part, i) => part === '.git' || (i === 0 && part === STATE_DIR_NAME)) &&
        fs.lstatSync(path.join(this.options.root, dir), { throwIfNoEntry: false }) !== undefined,
    )
    if (skipped.length === 0) return true
    return this.ignoredAsWholes(skipped)
  }

  /**
   * Take the final checkpoint (always, even if one is running) and stop watching. The final one is queued
   * before waiting for a triggered one, so a checkpoint still waiting out min_interval gives way to it
   * instead of holding the end of the session. No trigger fires from now on, but the watcher stays open
   * until the final checkpoint is done: it tells that checkpoint whether anything changed (quietSince).
   */
  async final(): Promise<unknown> {
    this.changed.clear()
    this.ending = true
    // A walk still under way cannot vouch for the tree: it is abandoned now, as stop() did here before, so a
    // short session's final checkpoint does not share the machine with the rest of the walk.
    if (!this.walked) this.watcher?.close()
    const final = this.options.take('final')
    await final.catch(() => undefined)
    await this.stop()
    return final
  }

  /** Stop timers and the watcher; idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    // Closing mid-walk abandons the rest of it: a short session never pays for the whole tree.
    this.watcher?.close()
    this.watcher = null
    await this.watching
    await this.checking
    await this.inFlight?.catch(() => undefined)
    const log = this.log
    this.log = null
    if (log && !log.destroyed) await new Promise<void>((resolve) => log.end(resolve))
  }

  private fire(trigger: TriggerName, detail?: string): Promise<unknown> {
    // An interval or change trigger while one is running would only produce an empty checkpoint.
    if (this.inFlight && (trigger === 'interval' || trigger === 'changes')) return this.inFlight
    if (this.ending && (trigger === 'interval' || trigger === 'changes')) return Promise.resolve()
    this.changed.clear()
    const run = this.options
      .take(trigger, detail)
      .catch((error: unknown) => this.options.onError?.(error, trigger))
      .finally(() => {
        if (this.inFlight === run) this.inFlight = null
      })
    this.inFlight = run
    return run
  }

  private async startWatcher(): Promise<void> {
    this.ignoredDirs = new Set(await this.ignoredDirsListed())
    if (this.stopped) return
    const watcher = new TreeWatcher({
      root: this.options.root,
      ignored: (rel) => this.isIgnored(rel),
      ignoredAmong: (dirs) => this.ignoredAmong(dirs),
      onEvent: (event, rel) => this.onFileEvent(event, rel),
      onError: (error) => {
        this.blind = true
        this.writeLog({ event: 'watch_error', path: '', message: String(error) })
      },
    })
    this.watcher = watcher
    await watcher.start()
    // Not when final() abandoned the walk (ending): then it never reached the whole tree.
    if (!this.stopped && !this.ending) this.walked = true
    // The audit log starts here, not at the agent's start (the walk waits out its first burst of output):
    // say so in the log itself, so that a change missing before this line is not read as no change.
    if (this.walked) this.writeLog({ event: 'watching', path: '' })
  }

  private onFileEvent(event: TreeEvent, file: string): void {
    this.writeLog({ event, path: file })
    // An ignored directory is one line, whatever it holds: nothing in it is watched, counted or read by git.
    if (event === 'ignoredDir') {
      this.skippedLate.add(file)
      return
    }
    if (event === 'unlinkDir') this.skippedLate.delete(file)
    if (!this.options.unrecorded?.(file)) this.events++
    if (event !== 'unlink' && isReadByGit(file)) this.readByGit.add(file)
    if (event === 'addDir' || event === 'unlinkDir' || this.stopped || this.options.maxChanges <= 0) return
    this.unchecked.add(file)
    this.checking ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.countUnchecked())
  }

  /** Count a batch of changed paths, minus those .gitignore covers (e.g. a build dir created later). */
  private async countUnchecked(): Promise<void> {
    const batch = [...this.unchecked]
    this.unchecked.clear()
    let ignored = new Set<string>()
    try {
      if (this.options.git && !this.gitWouldBlock(batch)) ignored = await this.options.git.checkIgnore(batch)
    } catch {
      // Counting is only a hint; git decides at checkpoint time.
    }
    this.checking = null
    if (this.unchecked.size > 0) this.checking = this.countUnchecked()
    if (this.stopped) return
    for (const file of batch) if (!ignored.has(file)) this.changed.add(file)
    if (this.changed.size >= this.options.maxChanges) void this.fire('changes')
  }

  private writeLog(entry: { event: string; path: string; message?: string }): void {
    this.log?.write(JSON.stringify({ at: new Date().toISOString(), ...entry }) + '\n')
  }

  /**
   * A FIFO where git reads (git-blockers.ts): the watcher's own git calls are only hints, so they are left
   * out rather than held until their deadline (the checkpoint fails and says why). Asked about `paths`, git
   * reads the .gitignore of every directory above each: one planted in the same instant as they appeared is
   * not in readByGit yet (its event may come after theirs).
   */
  private gitWouldBlock(paths: readonly string[] = []): boolean {
    const read = new Set(this.readByGit)
    for (const rel of paths) {
      let at = path.posix.dirname(rel)
      while (at !== '.' && !read.has(`${at}/.gitignore`)) {
        read.add(`${at}/.gitignore`)
        at = path.posix.dirname(at)
      }
    }
    return findBlocker(this.options.root, read) !== null
  }

  /** `rel` is a POSIX path relative to the root; one lookup per component, however many dirs are ignored. */
  private isIgnored(rel: string): boolean {
    if (rel === '') return false
    const parts = rel.split('/')
    if (parts[0] === STATE_DIR_NAME || parts.some((part) => ALWAYS_IGNORED.has(part))) {
      this.noteSkipped(parts)
      return true
    }
    return this.underIgnoredDir(parts)
  }

  /** Whether a path (split at `/`) is an ignored directory or under one: one Set lookup per component. */
  private underIgnoredDir(parts: readonly string[]): boolean {
    if (this.ignoredDirs.size === 0) return false
    let prefix = ''
    for (const part of parts) {
      prefix = prefix ? `${prefix}/${part}` : part
      if (this.ignoredDirs.has(prefix)) return true
    }
    return false
  }

  /**
   * Which of these new directories git ignores: one `check-ignore` for all of them. A path without a slash
   * is matched as what it is on disk (a directory), so `build/` and `.venv/` patterns match and `out/*`
   * does not make `out` itself ignored — git's own rule for whether it descends.
   */
  private async ignoredAmong(dirs: string[]): Promise<ReadonlySet<string>> {
    if (!this.options.git || this.gitWouldBlock(dirs)) return new Set()
    return this.options.git.checkIgnore(dirs)
  }

  /**
   * Two turns of the event loop (each polls for I/O, so an inotify event the kernel queued before this call
   * has reached the watcher), then every event received is classified and counted.
   */
  private async settled(): Promise<void> {
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
    await this.watcher?.settled()
  }

  /**
   * A node_modules directory is never watched, ignored by git or not: one git does not ignore (committed
   * dependencies) is a place where changes go unseen, checked by quietSince.
   */
  private noteSkipped(parts: string[]): void {
    const at = parts.indexOf('node_modules')
    if (at < 0 || parts.includes('.git') || parts[0] === STATE_DIR_NAME) return
    const dir = parts.slice(0, at + 1).join('/')
    if (this.unverified.has(dir)) return
    if (this.underIgnoredDir(dir.split('/'))) return
    this.unverified.add(dir)
  }

  /**
   * Whether git ignores each of these directories as a whole: its .gitignore rules exclude the directory
   * (so git never looks inside for untracked files) and the checkpoints record nothing in it (a tracked file
   * is compared whatever the rules say). Neither reads the 100k-entry index (a `check-ignore` of the rules
   * and an `ls-tree` of the latest checkpoint's tree, side by side): ~5 ms where an `ls-files` of the
   * directories against the private index took ~25. False when either cannot tell.
   */
  private async ignoredAsWholes(dirs: string[]): Promise<boolean> {
    const git = this.options.git
    if (!git || !this.options.recordedAmong || this.gitWouldBlock(dirs)) return false
    const [ignored, recorded] = await Promise.all([
      git.checkIgnore(dirs).catch(() => null),
      this.options.recordedAmong(dirs).catch(() => null),
    ])
    if (!ignored || !recorded) return false
    return dirs.every((d) => ignored.has(d) && !recorded.has(d))
  }

  /**
   * Directories .gitignore excludes right now as a whole (e.g. dist/, build/; without their `/`), so the
   * watcher never descends; none on failure.
   */
  private async ignoredDirsListed(): Promise<string[]> {
    if (!this.options.git || this.gitWouldBlock()) return []
    try {
      const indexFile = this.options.indexFile?.()
      const result = await this.options.git.raw(
        ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
        indexFile ? { indexFile } : {},
      )
      return splitNul(result.stdout)
        .filter((p) => p.endsWith('/'))
        .map((p) => p.slice(0, -1))
    } catch {
      return []
    }
  }
}

/**
 * The audit log, opened so that a FIFO or symlink the agent put at its path cannot block or redirect it
 * (openAppendRegular); a log that cannot be opened or written (a full disk) is given up, never a crash.
 */
function openEventLog(file: string): fs.WriteStream | null {
  let fd: number
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fd = openAppendRegular(file)
  } catch {
    return null
  }
  const log = fs.createWriteStream('', { fd })
  log.on('error', () => log.destroy())
  return log
}
