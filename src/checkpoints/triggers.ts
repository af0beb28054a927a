// When to take a checkpoint: every `interval`, after `max_changes` distinct paths changed (a chokidar
// watcher counts them; git decides what actually changed when the checkpoint runs), on detector
// events, at the end (`final`) and on demand (`manual`). Every file event goes to an audit log.
import fs from 'node:fs'
import path from 'node:path'

import { watch, type FSWatcher } from 'chokidar'

import type { Git } from '../git/runner.js'
import { splitNul } from '../git/nul.js'
import { PROCTOR_DIR } from './store.js'

export type TriggerName = 'interval' | 'changes' | 'event' | 'final' | 'manual'

export interface CheckpointTriggersOptions {
  /** Repository root to watch. */
  root: string
  /** Used once at start to learn which directories .gitignore excludes (not watched). */
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
}

const ALWAYS_IGNORED = new Set(['.git', PROCTOR_DIR, 'node_modules'])

export class CheckpointTriggers {
  private readonly options: CheckpointTriggersOptions
  private watcher: FSWatcher | null = null
  private timer: NodeJS.Timeout | null = null
  private readonly changed = new Set<string>()
  private readonly unchecked = new Set<string>()
  private checking: Promise<void> | null = null
  private inFlight: Promise<unknown> | null = null
  private log: fs.WriteStream | null = null
  private ignoredDirs: string[] = []
  private stopped = false

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

  /** Start the interval timer and the watcher; resolves once the watcher is ready. */
  async start(): Promise<void> {
    if (this.options.eventLogPath) {
      fs.mkdirSync(path.dirname(this.options.eventLogPath), { recursive: true })
      this.log = fs.createWriteStream(this.options.eventLogPath, { flags: 'a' })
    }
    if (this.options.intervalMs > 0) {
      this.timer = setInterval(() => this.fire('interval'), this.options.intervalMs)
      this.timer.unref()
    }
    if (this.options.maxChanges > 0 || this.log) await this.startWatcher()
  }

  /** A detector event (e.g. completion) asks for a checkpoint. */
  event(name: string): Promise<unknown> {
    return this.fire('event', name)
  }

  manual(): Promise<unknown> {
    return this.fire('manual')
  }

  /** Stop watching, then take the final checkpoint (always, even if one is running). */
  async final(): Promise<unknown> {
    await this.stop()
    this.changed.clear()
    return this.options.take('final')
  }

  /** Stop timers and the watcher; idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.watcher?.close()
    this.watcher = null
    await this.checking
    await this.inFlight?.catch(() => undefined)
    const log = this.log
    this.log = null
    if (log) await new Promise<void>((resolve) => log.end(resolve))
  }

  private fire(trigger: TriggerName, detail?: string): Promise<unknown> {
    // An interval or change trigger while one is running would only produce an empty checkpoint.
    if (this.inFlight && (trigger === 'interval' || trigger === 'changes')) return this.inFlight
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
    this.ignoredDirs = await this.listIgnoredDirs()
    const root = this.options.root
    this.watcher = watch(root, {
      ignoreInitial: true,
      persistent: true,
      followSymlinks: false,
      ignored: (p: string) => this.isIgnored(path.relative(root, p)),
    })
    this.watcher.on('all', (event, file) => this.onFileEvent(event, path.relative(root, file)))
    this.watcher.on('error', (error) =>
      this.writeLog({ event: 'watch_error', path: '', message: String(error) }),
    )
    await new Promise<void>((resolve) => this.watcher!.once('ready', resolve))
  }

  private onFileEvent(event: string, rel: string): void {
    const file = rel.split(path.sep).join('/')
    this.writeLog({ event, path: file })
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
      if (this.options.git) ignored = await this.options.git.checkIgnore(batch)
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

  private isIgnored(rel: string): boolean {
    if (rel === '' || rel.startsWith('..')) return false
    const parts = rel.split(path.sep)
    if (parts.some((part) => ALWAYS_IGNORED.has(part))) return true
    const posix = parts.join('/')
    return this.ignoredDirs.some((dir) => posix === dir || posix.startsWith(`${dir}/`))
  }

  /** Directories .gitignore excludes right now (e.g. dist/, build/), so the watcher never descends. */
  private async listIgnoredDirs(): Promise<string[]> {
    if (!this.options.git) return []
    try {
      const result = await this.options.git.raw([
        'ls-files',
        '-z',
        '--others',
        '--ignored',
        '--exclude-standard',
        '--directory',
      ])
      return splitNul(result.stdout)
        .filter((p) => p.endsWith('/'))
        .map((p) => p.slice(0, -1))
    } catch {
      return []
    }
  }
}
