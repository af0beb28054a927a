// Watches a worktree for the checkpoint triggers: one non-recursive fs.watch (one inotify watch) per
// directory, nothing per file. The triggers only need "which paths changed" (git decides what changed
// at checkpoint time), so no stat of every file is kept. Measured on a 10,000-file tree: chokidar's
// initial scan took seconds and about 110 MiB; this walk takes a fraction of a second and a few MiB, and
// it runs in the background (it yields between directories), so it never delays the agent.
// A directory that appears later is asked about first (ignoredAmong: one git check-ignore for the directories
// seen together): one git ignores (a `.venv/` from pip, a `target/`) is reported once and never descended
// into, so a 100,000-file install costs one event, not a watch per directory and an event per file. That is
// safe whatever the patterns say: git cannot re-include a file whose parent directory is excluded.
import fs from 'node:fs'
import path from 'node:path'

/**
 * `ignoredDir`: a directory that appeared after the start and that git ignores, reported once and never
 * descended into (no watch, no walk, no event for anything in it).
 */
export type TreeEvent = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir' | 'ignoredDir'

export interface TreeWatcherOptions {
  root: string
  /** Relative POSIX path (never '') → true when neither it nor anything under it is watched. */
  ignored: (rel: string) => boolean
  /**
   * Which of these directories, all of which appeared after the start, git ignores. Asked once per batch of
   * directories seen together (the events handled at once, one level of a new tree), before any of them is
   * watched or walked. Without it every new directory is watched.
   */
  ignoredAmong?: (dirs: string[]) => Promise<ReadonlySet<string>>
  onEvent: (event: TreeEvent, rel: string) => void
  onError: (error: Error) => void
}

/** Events handled together (one lstat each, at once): bounds the memory of a flood in a watched directory. */
const BATCH = 1000

export class TreeWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>()
  /**
   * The inode each watched directory had when its watch began: a directory removed and made again under the
   * same name in one batch of events is a new directory the old watch does not see into.
   */
  private readonly inodes = new Map<string, { ino: number; birth: number }>()
  /** Directories that appeared ignored: reported once, never watched; forgotten when they go. */
  private readonly skipped = new Set<string>()
  private pending: { type: string; rel: string }[] = []
  private draining: Promise<void> | null = null
  private closed = false

  constructor(private readonly options: TreeWatcherOptions) {}

  /** Watches every directory under the root; resolves when the walk is done (or the watcher closed). */
  async start(): Promise<void> {
    await this.watchTree([''], false)
  }

  /** Resolves once every event received so far has been classified and reported (onEvent). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining
  }

  close(): void {
    this.closed = true
    this.pending = []
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
  }

  /**
   * Watch `dirs` and every directory below them, a level at a time; with `report` they are new (created
   * late): their files are reported, and each level's directories are asked about in one batch first.
   */
  private async watchTree(dirs: string[], report: boolean): Promise<void> {
    let level = dirs
    while (level.length > 0 && !this.closed) {
      const next: string[] = []
      for (const current of level) {
        if (this.closed) return
        // skipped: found ignored meanwhile (an event for it was handled while this walk was under way).
        if (this.watchers.has(current) || this.skipped.has(current) || !this.watch(current)) continue
        let entries: fs.Dirent[]
        try {
          entries = await fs.promises.readdir(this.abs(current), { withFileTypes: true })
        } catch {
          continue // gone again, or unreadable: nothing to watch there
        }
        for (const entry of entries) {
          const rel = current ? `${current}/${entry.name}` : entry.name
          if (this.options.ignored(rel)) continue
          if (entry.isDirectory()) next.push(rel)
          else if (report) this.options.onEvent('add', rel)
        }
      }
      level = report ? await this.admit(next) : next
    }
  }

  /** Of directories that appeared, the ones to walk; the ignored ones are reported once and skipped. */
  private async admit(dirs: string[]): Promise<string[]> {
    if (dirs.length === 0) return dirs
    const ignored = await this.ignoredAmong(dirs)
    const walk: string[] = []
    for (const dir of dirs) {
      if (this.closed) break
      if (ignored.has(dir)) {
        this.skipped.add(dir)
        this.options.onEvent('ignoredDir', dir)
      } else {
        this.options.onEvent('addDir', dir)
        walk.push(dir)
      }
    }
    return walk
  }

  /** A failed question is answered "none ignored": the directory is watched, as before the question. */
  private async ignoredAmong(dirs: string[]): Promise<ReadonlySet<string>> {
    if (!this.options.ignoredAmong) return new Set()
    return this.options.ignoredAmong(dirs).catch(() => new Set<string>())
  }

  private watch(dir: string): boolean {
    if (this.closed) return false
    // Before the watch: a directory swapped in after this lstat has another inode than the one noted here.
    // (The root is followed: the repository may be reached through a symlink.)
    let stat: fs.Stats | undefined
    try {
      stat = (dir ? fs.lstatSync : fs.statSync)(this.abs(dir), { throwIfNoEntry: false })
    } catch {
      return false // unreadable: nothing to watch there
    }
    if (!stat?.isDirectory()) return false
    this.inodes.set(dir, { ino: stat.ino, birth: stat.birthtimeMs })
    try {
      const watcher = fs.watch(this.abs(dir), { persistent: true }, (type, name) => {
        const rel = name ? (dir ? `${dir}/${name.toString()}` : name.toString()) : dir
        if (rel && !this.options.ignored(rel)) this.enqueue(type, rel)
      })
      watcher.on('error', (error) => {
        this.forget(dir)
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.options.onError(error)
      })
      this.watchers.set(dir, watcher)
      return true
    } catch (error) {
      this.inodes.delete(dir)
      // ENOSPC (inotify limit) or a directory that vanished: counting is a hint, checkpoints still see it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.options.onError(error as Error)
      return false
    }
  }

  /** Events are classified in arrival order, in batches, so the log keeps their order (add before unlink). */
  private enqueue(type: string, rel: string): void {
    this.pending.push({ type, rel })
    this.draining ??= this.drain().finally(() => (this.draining = null))
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 && !this.closed) {
      const batch = this.pending.splice(0, BATCH)
      const stats = await Promise.all(
        batch.map(({ rel }) => fs.promises.lstat(this.abs(rel)).catch(() => null)),
      )
      if (this.closed) return
      const appeared = new Set<string>()
      batch.forEach(({ type, rel }, i) => {
        const stat = stats[i]
        if (!stat?.isDirectory() || this.skipped.has(rel)) return
        // Another directory than the one watched (removed and made again): its watches see nothing of this one.
        // Its inode may be reused at once; its birth time tells them apart where the file system keeps one,
        // else any name created or removed in its parent ('rename') that is a directory now is taken as new.
        const known = this.inodes.get(rel)
        const same =
          known?.ino === stat.ino && (known.birth > 0 ? known.birth === stat.birthtimeMs : type !== 'rename')
        if (this.watchers.has(rel) && same) return
        this.forget(rel)
        appeared.add(rel)
      })
      // One question for all the directories of the batch, before any of them is watched or walked.
      const ignored = appeared.size > 0 ? await this.ignoredAmong([...appeared]) : new Set<string>()
      if (this.closed) return
      const walk: string[] = []
      batch.forEach(({ type, rel }, i) => {
        const stat = stats[i]
        if (!stat) {
          if (this.watchers.has(rel)) {
            this.forget(rel)
            this.options.onEvent('unlinkDir', rel)
          } else if (this.skipped.delete(rel)) {
            this.options.onEvent('unlinkDir', rel)
          } else {
            this.options.onEvent('unlink', rel)
          }
        } else if (stat.isDirectory()) {
          if (!appeared.delete(rel)) return // watched, skipped, or handled earlier in this batch
          if (ignored.has(rel)) {
            this.skipped.add(rel)
            this.options.onEvent('ignoredDir', rel)
          } else {
            this.options.onEvent('addDir', rel)
            walk.push(rel)
          }
        } else {
          this.skipped.delete(rel) // an ignored directory replaced by a file: the file is reported
          this.options.onEvent(type === 'rename' ? 'add' : 'change', rel)
        }
      })
      if (walk.length > 0) await this.watchTree(walk, true)
    }
  }

  /** Stop watching a directory that is gone, and everything that was below it. */
  private forget(dir: string): void {
    for (const [key, watcher] of this.watchers) {
      if (key === dir || key.startsWith(`${dir}/`)) {
        watcher.close()
        this.watchers.delete(key)
        this.inodes.delete(key)
      }
    }
    for (const key of this.skipped) if (key.startsWith(`${dir}/`)) this.skipped.delete(key)
  }

  private abs(rel: string): string {
    return rel ? path.join(this.options.root, rel) : this.options.root
  }
}
