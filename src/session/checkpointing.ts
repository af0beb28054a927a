// The session's side of checkpoints: a CheckpointStore with policy on every diff, the triggers that
// decide when, and the push queue. Without a git repository (or with checkpoints.enabled: false) every
// method is a no-op, so the session reads the same either way.
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import type { CheckpointRecord, Violation } from '../report/model.js'
import type { ReportBuilder } from '../report/builder.js'
import { Git } from '../git/runner.js'
import { CheckpointStore, type PauseHooks, type ValidateContext } from '../checkpoints/store.js'
import { CheckpointTriggers } from '../checkpoints/triggers.js'
import { PushQueue } from '../checkpoints/push.js'
import { evaluateCheckpoint, filesToRevert, notifiesAgent } from '../policy/index.js'
import { revertPaths } from '../checkpoints/restore.js'
import { withDeadline } from '../util/deadline.js'
import type { LifecycleHooks } from '../hooks/lifecycle.js'
import { findRepoRoot } from '../config/load.js'

export interface SessionCheckpointsOptions {
  config: Config
  cwd: string
  sessionId: string
  sessionDir: string
  report: ReportBuilder
  lifecycle: LifecycleHooks
  pauser: PauseHooks
  onChange: () => void
  /** To tell CI from a laptop (checkpoints.push: auto pushes only in CI). */
  env: Record<string, string | undefined>
  /** Shown live (the terminal) besides the report: a large first checkpoint and how long it took. */
  onNotice?: (message: string) => void
  /** Absolute paths never recorded (settings files proctor itself writes); may grow after start(). */
  hiddenPaths?: ReadonlySet<string>
}

export class SessionCheckpoints {
  private store: CheckpointStore | null = null
  private triggers: CheckpointTriggers | null = null
  private push: PushQueue | null = null
  private root: string | null = null
  private git: Git | null = null
  private running = false
  private opening: Promise<void> = Promise.resolve()
  private readonly seen = new Set<string>()
  private readonly records: CheckpointRecord[] = []

  constructor(private readonly o: SessionCheckpointsOptions) {}

  async start(): Promise<void> {
    const { config, report } = this.o
    if (!config.checkpoints.enabled) return
    this.root = findRepoRoot(this.o.cwd)
    if (!this.root) {
      report.event('warning', 'not inside a git repository: checkpoints are off for this session')
      return
    }
    const git = new Git({ cwd: this.root })
    this.git = git
    this.store = new CheckpointStore({
      git,
      session: this.o.sessionId,
      maxFileSize: config.checkpoints.max_file_size,
      minIntervalMs: config.checkpoints.min_interval,
      hiddenPaths: this.o.hiddenPaths,
      validate: (ctx) => this.validate(ctx),
      notice: (level, message) => {
        report.event(level === 'warning' ? 'warning' : 'checkpoint', message)
        this.o.onNotice?.(message)
      },
      // Freezing the agent only makes sense while it runs; between rounds there is nothing to pause.
      pauser: config.checkpoints.pause_agent
        ? { pause: () => this.running && this.o.pauser.pause(), resume: () => this.o.pauser.resume() }
        : undefined,
    })
    const triggers = new CheckpointTriggers({
      root: this.root,
      git,
      intervalMs: config.checkpoints.interval,
      maxChanges: config.checkpoints.max_changes,
      take: (trigger, detail) => this.take(trigger, detail),
      eventLogPath: join(this.o.sessionDir, 'file-events.jsonl'),
      onError: (error, trigger) =>
        report.event('error', `checkpoint (${trigger}) failed: ${(error as Error).message}`),
    })
    // Neither the watcher's scan nor seeding the private index delays the agent: both grow with the
    // repository. A checkpoint (and the end of the session) waits for the store to open; a store that
    // cannot open fails its checkpoints, which the session counts like any other checkpoint failure.
    triggers.start()
    this.triggers = triggers
    const store = this.store
    this.opening = store.open().then(() => {
      this.push = new PushQueue({
        git,
        session: this.o.sessionId,
        remote: config.checkpoints.remote,
        branchTemplate: config.checkpoints.branch,
        mode: this.pushMode(),
        sessionDir: this.o.sessionDir,
        base: store.base,
      })
    })
    this.opening.catch(() => undefined)
  }

  /** `auto` pushes in CI only: a laptop session keeps its checkpoints local unless told `always`. */
  private pushMode(): 'auto' | 'always' | 'never' {
    const mode = this.o.config.checkpoints.push
    const inCi = this.o.env.CI === 'true' || this.o.env.GITHUB_ACTIONS === 'true'
    return mode === 'auto' && !inCi ? 'never' : mode
  }

  agentRunning(running: boolean): void {
    this.running = running
  }

  /** A detector event listed in checkpoints.on_events. */
  onEvent(kind: string): void {
    void this.triggers?.event(kind).catch(() => undefined)
  }

  /** Takes a checkpoint now and waits for it (before stop hooks, so they see the latest work). */
  async settle(trigger: string): Promise<void> {
    if (!this.store) return
    try {
      await this.take(trigger)
    } catch (error) {
      this.o.report.event('error', `checkpoint (${trigger}) failed: ${(error as Error).message}`)
    }
  }

  latest(): CheckpointRecord | null {
    return this.records[this.records.length - 1] ?? null
  }

  /**
   * Final checkpoint, final push (or bundle), and the private index is removed. `pushDeadlineMs` bounds the
   * push while proctor itself is being cancelled: report.json must be written before the runner's SIGKILL,
   * and the action's post step (or `proctor checkpoints push`) pushes what is left.
   */
  async finish(pushDeadlineMs?: number): Promise<void> {
    if (!this.store || !this.triggers) return
    try {
      await this.opening
    } catch (error) {
      await this.triggers.stop()
      throw error
    }
    if (!this.push) return
    try {
      await this.triggers.final()
    } finally {
      const flush = this.push.flush()
      let pushed =
        pushDeadlineMs === undefined
          ? await flush
          : await withDeadline(flush, pushDeadlineMs, () => ({
              ...this.push!.state,
              ok: false,
              reason: `the push did not finish within ${pushDeadlineMs} ms of the cancellation; run \`proctor checkpoints push\``,
            }))
      if (this.o.config.checkpoints.push === 'auto' && this.pushMode() === 'never') {
        pushed = {
          ...pushed,
          reason: 'checkpoints.push is auto, which pushes only in CI; set it to always to push from here',
        }
      }
      if (this.records.length > 0 || pushed.ok) {
        this.o.report.push(pushed)
        this.o.report.event(
          'push',
          pushed.ok ? `pushed to ${pushed.remote} ${pushed.branch}` : `not pushed: ${pushed.reason}`,
          {
            data: { ...pushed },
          },
        )
      }
      await this.store.close()
    }
  }

  private async take(trigger: string, detail?: string): Promise<CheckpointRecord | null> {
    if (!this.store) return null
    await this.opening
    const result = await this.store.createDetailed(trigger)
    if (!result) return null
    const record = result.record
    this.records.push(record)
    this.o.report.checkpoint(record)
    this.o.report.event(
      'checkpoint',
      `checkpoint ${record.seq} (${trigger}${detail ? `: ${detail}` : ''}): ${record.files_changed.length} file(s)`,
      {
        name: String(record.seq),
        data: { sha: record.sha, ref: record.ref, skipped: record.skipped },
      },
    )
    if (record.skipped.length) {
      this.o.report.event(
        'checkpoint_skipped',
        `left out of checkpoint ${record.seq}: ${record.skipped.join(', ')}`,
      )
    }
    void this.o.lifecycle
      .fire('checkpoint', {
        seq: record.seq,
        sha: record.sha,
        ref: record.ref,
        trigger,
        files_changed: record.files_changed,
      })
      .catch(() => undefined)
    for (const violation of result.violations) {
      void this.o.lifecycle.fire('violation', { ...violation }).catch(() => undefined)
    }
    await this.revert(result.violations, result.parent)
    this.push?.schedule()
    this.o.onChange()
    return record
  }

  /**
   * revert_on_violation: the files behind critical violations go back to their state before this
   * checkpoint (the previous checkpoint, or the base). The checkpoint keeps what the agent did — the audit
   * trail — and the next checkpoint records the revert.
   */
  private async revert(violations: Violation[], parent: string | null): Promise<void> {
    const paths = filesToRevert(violations, this.o.config.policy)
    if (paths.length === 0 || !this.git) return
    if (!parent) {
      this.o.report.event(
        'warning',
        `cannot revert ${paths.join(', ')}: the repository has no commit to revert to`,
      )
      return
    }
    try {
      const done = await revertPaths(this.git, parent, paths)
      for (const v of violations) if (paths.includes(v.file)) v.reverted = true
      this.o.report.event(
        'revert',
        `reverted ${paths.length} file(s) with critical violations: ${paths.join(', ')}`,
        {
          data: { ...done, to: parent },
        },
      )
    } catch (error) {
      this.o.report.event('error', `revert of ${paths.join(', ')} failed: ${(error as Error).message}`)
    }
  }

  /** Policy on this checkpoint's diff and on the cumulative diff; each (file, constraint) is reported once. */
  private validate(ctx: ValidateContext): Violation[] {
    const policy = this.o.config.policy
    const worktree = this.root ?? this.o.cwd
    const found = evaluateCheckpoint({
      seq: ctx.seq,
      files: ctx.files,
      cumulative: ctx.cumulative,
      worktree,
      policy,
    })
    const fresh = found.filter((v) => {
      const key = `${v.constraint}\0${v.file}`
      if (this.seen.has(key)) return false
      this.seen.add(key)
      return true
    })
    if (fresh.length) {
      this.o.report.violation(...fresh)
      for (const v of fresh) {
        this.o.report.event('violation', `${v.severity}: ${v.file || '(whole diff)'}: ${v.message}`, {
          name: v.constraint,
          data: { notify_agent: notifiesAgent(v) },
        })
      }
    }
    return fresh
  }
}
