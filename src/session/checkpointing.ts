// The session's side of checkpoints: a CheckpointStore with policy on every diff, the triggers that
// decide when, and the push queue. Without a git repository (or with checkpoints.enabled: false) every
// method is a no-op, so the session reads the same either way.
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import { MAX_PRE_EXISTING_LISTED, type CheckpointRecord, type Violation } from '../report/model.js'
import type { ReportBuilder } from '../report/builder.js'
import { Git } from '../git/runner.js'
import {
  CheckpointStore,
  resolveOpening,
  type OpeningObjects,
  type PauseHooks,
  type ValidateContext,
} from '../checkpoints/store.js'
import { CheckpointTriggers, type WatchMark } from '../checkpoints/triggers.js'
import { describeBlocker, findBlocker, scanForBlocker } from '../checkpoints/git-blockers.js'
import { GitError } from '../git/errors.js'
import type { SnapshotProgress } from '../checkpoints/first-snapshot.js'
import { PushQueue, type RefMoved } from '../checkpoints/push.js'
import type { PushedCheckpoint } from '../hooks/ci-checks.js'
import { GitMachinery } from '../checkpoints/git-machinery.js'
import { withDeadline } from '../util/deadline.js'
import type { LifecycleHooks } from '../hooks/lifecycle.js'
import { Workspace } from '../state/workspace.js'
import { describePreExisting, skipReasonWord } from '../report/words.js'

/**
 * The git reads start() makes before the agent starts — the commit its work is judged against, and the
 * repository's machinery untouched — begun early by the CLI (startCheckpointReads), so their processes
 * run while the config is parsed instead of after it.
 */
export interface CheckpointReads {
  cwd: string
  sessionId: string
  workspace: Workspace
  objects: Promise<OpeningObjects>
  machinery: Promise<GitMachinery>
  /**
   * The worktree is proctor's own, just checked out at the base with nothing else in it (a batch child's):
   * its baseline is the base, so nothing is read before the agent's spawn (see SessionCheckpoints.start).
   */
  pristine: boolean
}

/**
 * Starts the reads start() would make for `sessionId` in `cwd`; null outside a repository. Read-only: if
 * the session does not use them (checkpoints off, a session_start hook that may change the repository
 * runs first, orphans were reaped), nothing is left behind.
 */
export function startCheckpointReads(
  cwd: string,
  sessionId: string,
  options: { pristine?: boolean } = {},
): CheckpointReads | null {
  const workspace = Workspace.find(cwd)
  if (!workspace) return null
  const objects = resolveOpening(workspace.git, sessionId)
  const machinery = GitMachinery.record(workspace.git)
  // Awaited by start(), if at all: never an unhandled rejection meanwhile.
  objects.catch(() => undefined)
  machinery.catch(() => undefined)
  return { cwd, sessionId, workspace, objects, machinery, pristine: options.pristine === true }
}

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
  /** proctor's credential for the pushes only (tokenHeaderConfig); never in .git/config. */
  pushSecretConfig?: readonly [string, string][]
  /**
   * Checkpoints failed more than checkpoints.max_failures times in a row: the session stops the agent
   * and ends errored. Called once, with the reason.
   */
  onFatal?: (reason: string) => void
  /** Shown live (the terminal) besides the report: a large first checkpoint and how long it took. */
  onNotice?: (message: string) => void
  /** How far along a large first checkpoint is, while it works (a few seconds apart). */
  onProgress?: (progress: SnapshotProgress) => void
  /** Absolute paths never recorded (settings files proctor itself writes); may grow after start(). */
  hiddenPaths?: ReadonlySet<string>
  /** The reads start() makes, begun earlier for this session and cwd (startCheckpointReads). */
  reads?: CheckpointReads | null
}

/** The key a violation is reported under: each (constraint, file) once per session. */
const keyOf = (v: Violation) => `${v.constraint}\0${v.file}`

type Policy = typeof import('../policy/index.js')

export class SessionCheckpoints {
  /** Set by start() in a repository with checkpoints on: every method below does its work. */
  private active = false
  /** Created when it opens (launch), after the agent's spawn. */
  private store: CheckpointStore | null = null
  /**
   * The policy's code (its glob matcher among it), loaded for the store (launch) or the first machinery
   * check, whichever is first: not before the agent's spawn. Every violation comes from it, so while it is
   * not loaded there is none to judge.
   */
  private policy: Promise<Policy> | null = null
  private policyLoaded: Policy | null = null
  private triggers: CheckpointTriggers | null = null
  private push: PushQueue | null = null
  private root: string | null = null
  private git: Git | null = null
  private running = false
  private opening: Promise<void> = Promise.resolve()
  /** Starts the watcher and opens the store; set by start(), run once (see start()). */
  private launch: (() => void) | null = null
  /** Every violation reported so far, by key; `resolved` is kept up to date at each checkpoint. */
  private readonly reported = new Map<string, Violation>()
  private readonly records: CheckpointRecord[] = []
  /** What the session's work holds now: the cumulative diff's violations at the latest checkpoint. */
  private current: Violation[] = []
  /** Warnings already sent back to the agent (by key). */
  private readonly delivered = new Set<string>()
  private machinery: GitMachinery | null = null
  private machineryQueue: Promise<void> = Promise.resolve()
  /** git_tamper violations still standing (policy.git_tamper: report), by what changed. */
  private readonly tamper = new Map<string, Violation>()
  private consecutiveFailures = 0
  private totalFailures = 0
  private lastFailure: string | null = null
  private fatalReason: string | null = null
  /** What the watcher had seen when the checkpoint being taken listed the worktree. */
  private listingMark: WatchMark | null = null
  /**
   * The same at the latest checkpoint that succeeded: if the watcher saw nothing since, the worktree holds
   * nothing that checkpoint did not record, and the final one has nothing to list (see take).
   */
  private recordedMark: WatchMark | null = null

  constructor(private readonly o: SessionCheckpointsOptions) {}

  async start(): Promise<void> {
    const { config, report } = this.o
    if (!config.checkpoints.enabled) return
    const begun = this.o.reads
    const reads = begun && begun.cwd === this.o.cwd && begun.sessionId === this.o.sessionId ? begun : null
    const workspace = reads ? reads.workspace : Workspace.find(this.o.cwd)
    if (!workspace) {
      report.event('warning', 'not inside a git repository: checkpoints are off for this session')
      return
    }
    this.root = workspace.root
    const git = workspace.git
    this.git = git
    // Reading the baseline is bounded like the agent's attempt (agentRunning moves the end at the spawn): a
    // FIFO the user left where git reads must not hold the start for the per-call limit (git/deadline.ts).
    git.deadline.endBy(Date.now() + config.timeouts.total + config.timeouts.grace)
    // Before the agent starts, side by side: the commit its work is judged against (the store opens only
    // after the spawn, when the agent may already have moved HEAD), and what the repository's own
    // machinery looks like untouched.
    // The same cat-file also resolves what the store needs to open (HEAD's tree, a resumed chain), so
    // opening it after the spawn starts no git process for that.
    const [objects, machinery] = await Promise.all([
      reads ? reads.objects : resolveOpening(git, this.o.sessionId),
      config.policy.git_tamper === 'off' ? null : reads ? reads.machinery : GitMachinery.record(git),
    ])
    const head = objects.startCommit
    this.machinery = machinery
    this.active = true
    // The store is created before the agent's spawn, to record the baseline (below). The policy's code it
    // weighs paths and judges checkpoints by (the withheld forbidden areas, the glob matcher) loads only when
    // there is a changed path to weigh: a clean worktree spawns the agent without it.
    const openStore = async (): Promise<CheckpointStore> => {
      return workspace.store(this.o.sessionId, config, {
        ...(head ? { baseCommit: head } : {}),
        resolved: objects,
        // The recording read core.attributesFile from every scope already: no `git config` at open.
        ...(machinery ? { attributesFile: machinery.recordedValue('core.attributesfile') } : {}),
        hiddenPaths: this.o.hiddenPaths,
        // The session judges each checkpoint itself: it tracks what is resolved and what the agent heard.
        validate: (ctx) => this.validate(ctx),
        notice: (level, message) => {
          report.event(level === 'warning' ? 'warning' : 'checkpoint', message)
          this.o.onNotice?.(message)
        },
        onProgress: (progress) => this.o.onProgress?.(progress),
        onListing: async () => {
          this.listingMark = (await this.triggers?.mark()) ?? null
        },
        // Freezing the agent only makes sense while it runs; between rounds there is nothing to pause.
        pauser: config.checkpoints.pause_agent
          ? { pause: () => this.running && this.o.pauser.pause(), resume: () => this.o.pauser.resume() }
          : undefined,
      })
    }
    const triggers = new CheckpointTriggers({
      root: this.root,
      git,
      intervalMs: config.checkpoints.interval,
      maxChanges: config.checkpoints.max_changes,
      take: (trigger, detail) => this.take(trigger, detail),
      eventLogPath: join(this.o.sessionDir, 'file-events.jsonl'),
      onError: (error, trigger) =>
        report.event('error', `checkpoint (${trigger}) failed: ${(error as Error).message}`),
      unrecorded: (rel) => this.o.hiddenPaths?.has(join(workspace.root, rel)) === true,
      indexFile: () => this.store?.privateIndexPath || undefined,
      recordedAmong: (dirs) => this.store?.recordedAmong(dirs) ?? Promise.resolve(null),
    })
    // The watcher's scan and the push queue do not delay the agent: the scan grows with the repository, and
    // each git process forks proctor (a synchronous ~1 ms per 50 MB of RSS, far more on a busy machine), so
    // they start once the agent has been spawned (agentRunning) and its first burst of output is over, or at
    // the first checkpoint or the end if that comes first. Only reading the baseline precedes the spawn (it
    // must: the agent could change the tree). A checkpoint (and the end of the session) waits for the store;
    // a store that cannot open fails its checkpoints, which the session counts like any other failure.
    this.triggers = triggers
    // The baseline, before the agent runs: the worktree as the user left it, which every checkpoint, the
    // policy and a revert compare with (issue 27). It is the store's first snapshot, taken now instead of at
    // the first checkpoint; a clean worktree costs one listing. A store that cannot open or record it fails
    // the session's checkpoints (judging the agent against HEAD would blame it for the user's work).
    let worktreeRead = (): void => undefined
    const read = new Promise<void>((resolve) => (worktreeRead = resolve))
    // A batch child's worktree was checked out at the base by proctor a moment ago: its baseline is the base,
    // and the store opens after the spawn, as before (the batch reads ahead so that no git process runs
    // between a task's start and its agent's).
    const pristine = reads?.pristine === true
    const record = async (): Promise<CheckpointStore> => {
      const store = await openStore()
      this.store = store
      const blocker = findBlocker(workspace.root)
      if (blocker) {
        const message = `could not record the session's baseline: ${describeBlocker(blocker)}`
        report.event('error', message)
        throw new Error(message)
      }
      if (pristine) {
        await store.open()
        report.baseline({ commit: store.baseline, pre_existing_count: 0, pre_existing: [] })
        return store
      }
      const baseline = await store.recordBaseline(worktreeRead).catch((failure: unknown) => {
        const error = this.explain(failure)
        const message =
          `could not record the session's baseline (the worktree as you left it), so no checkpoint can ` +
          `judge the agent's work: ${(error as Error).message}`
        report.event('error', message)
        throw new Error(message, { cause: error })
      })
      report.baseline({
        commit: baseline.commit,
        pre_existing_count: baseline.preExisting.length,
        pre_existing: baseline.preExisting.slice(0, MAX_PRE_EXISTING_LISTED),
      })
      if (baseline.preExisting.length) {
        report.event('checkpoint', describePreExisting(baseline.preExisting.length), {
          name: '0',
          data: { sha: baseline.commit, count: baseline.preExisting.length },
        })
      }
      return store
    }
    let recording: Promise<CheckpointStore> | null = null
    if (!pristine) {
      recording = record()
      this.opening = recording.then(() => undefined)
      this.opening.catch(() => undefined)
      // The agent waits only until the worktree has been read; the baseline's commit and refs follow
      // meanwhile (every checkpoint waits for them).
      await Promise.race([read, this.opening.catch(() => undefined)])
    }
    this.launch = () => {
      this.launch = null
      triggers.start()
      this.opening = (recording ?? record()).then(async (store) => {
        // The agent runs: what judging its first checkpoint needs (the policy's code, the content scan)
        // loads now, so that checkpoint (often the one at its exit) does not wait for it.
        void store.warm()
        this.loadPolicy()
          .then((policy) => policy.prepareJudge(config.policy))
          .catch(() => undefined)
        this.push = await workspace.pushQueue(this.o.sessionId, config, {
          base: store.base,
          baseline: store.baseline,
          // Only checkpoints this session wrote are pushed (schedule(sha)), never what the ref holds.
          written: store.latest,
          mode: this.pushMode(),
          ...(this.o.pushSecretConfig ? { secretConfig: this.o.pushSecretConfig } : {}),
        })
      })
      this.opening.catch(() => undefined)
    }
  }

  /** `auto` pushes in CI only: a laptop session keeps its checkpoints local unless told `always`. */
  private pushMode(): 'auto' | 'always' | 'never' {
    const mode = this.o.config.checkpoints.push
    const inCi = this.o.env.CI === 'true' || this.o.env.GITHUB_ACTIONS === 'true'
    return mode === 'auto' && !inCi ? 'never' : mode
  }

  /**
   * The agent started (or ended). The store and the watcher launch now, or once `launchWhen` resolves
   * (the session passes the end of the agent's first burst of output: their git processes would stall the
   * reading of it); a checkpoint or the end launches them earlier if it comes first.
   */
  agentRunning(running: boolean, launchWhen?: Promise<void>): void {
    this.running = running
    // proctor's git calls end when the attempt is due to be over (its total timeout, then grace), so no git
    // the agent can block (a FIFO where git reads) outlasts that (git/deadline.ts).
    const { total, grace } = this.o.config.timeouts
    if (running) this.git?.deadline.endBy(Date.now() + total + grace)
    if (launchWhen) void launchWhen.then(() => this.launch?.())
    else this.launch?.()
  }

  /**
   * SIGTERM or SIGINT: the runner's cancel window is short, so every git call of the session ends within
   * `ms` (a call started later still gets the deadline's floor: the final checkpoint).
   */
  interrupted(ms: number): void {
    this.git?.deadline.shorten(Date.now() + ms)
  }

  /** A detector event listed in checkpoints.on_events. */
  onEvent(kind: string): void {
    this.triggers?.event(kind).catch(() => undefined)
  }

  /**
   * Takes a checkpoint now and waits for it (before stop hooks, so they see the latest work). Urgent: it
   * never sleeps out min_interval, and a triggered checkpoint still waiting gives way to it.
   */
  async settle(trigger: string): Promise<void> {
    if (!this.active) return
    try {
      await this.take(trigger, undefined, true)
    } catch (error) {
      this.o.report.event('error', `checkpoint (${trigger}) failed: ${(error as Error).message}`)
    }
  }

  /**
   * Pushes checkpoint `sha` now and waits (the `ci-checks` stop hook): the remote commit and branch, or
   * why not. Outside CI, `checkpoints.push: auto` does not push, so this says so.
   */
  async pushCheckpoint(sha: string): Promise<PushedCheckpoint> {
    await this.opening.catch(() => undefined)
    if (!this.push)
      return {
        ok: false,
        reason: 'checkpoints are not pushed in this session (no git repository, or checkpoints are off)',
      }
    if (this.pushMode() === 'never')
      return {
        ok: false,
        reason:
          this.o.config.checkpoints.push === 'never'
            ? 'pushing is off (checkpoints.push: never)'
            : 'checkpoints.push is auto, which pushes only in CI',
      }
    const pushed = await this.push.pushOf(sha)
    return pushed.ok ? { ...pushed, branch: this.push.branch } : pushed
  }

  latest(): CheckpointRecord | null {
    return this.records[this.records.length - 1] ?? null
  }

  /**
   * The error/critical violations the session's work holds now (the policy gate): from the cumulative
   * diff of the latest checkpoint, plus git machinery changes that were not undone.
   */
  blocking(): Violation[] {
    const policy = this.policyLoaded
    // Every violation comes from the policy's code, so without it there is none; were one there anyway, the
    // gate blocks on it rather than let it through unjudged.
    if (!policy) return [...this.current, ...this.tamper.values()]
    return [...this.current, ...this.tamper.values()].filter((v) => policy.atLeast(v.severity, 'error'))
  }

  /** Warnings the work holds now that the agent has not been told yet; marked told. */
  takeWarnings(): Violation[] {
    const policy = this.policyLoaded
    if (!policy) return []
    const fresh = this.current.filter(
      (v) => policy.notifiesAgent(v) && !policy.atLeast(v.severity, 'error') && !this.delivered.has(keyOf(v)),
    )
    for (const v of fresh) this.delivered.add(keyOf(v))
    return fresh
  }

  /** Why the session must end errored: too many failed checkpoints in a row, or none ever succeeded. */
  failure(): string | null {
    if (this.fatalReason) return this.fatalReason
    if (this.active && this.totalFailures > 0 && this.records.length === 0) {
      return `no checkpoint succeeded (${this.totalFailures} failed; last error: ${this.lastFailure ?? 'unknown'})`
    }
    return null
  }

  /**
   * Final checkpoint, final push (or bundle), and the private index is removed. `pushDeadlineMs` bounds the
   * push while proctor itself is being cancelled: report.json must be written before the runner's SIGKILL,
   * and the action's post step (or `proctor checkpoints push`) pushes what is left.
   */
  async finish(pushDeadlineMs?: number): Promise<void> {
    if (!this.active || !this.triggers) return
    this.launch?.()
    try {
      await this.opening
    } catch (error) {
      await this.triggers.stop()
      // No final checkpoint without a store, but the machinery is still checked (and undone) at the end.
      await this.checkMachinery(true)
      const explained = this.explain(error)
      this.noteFailure(explained)
      throw explained
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
      const moved = this.push.refMoved
      if (moved) await this.reportRefMoved(moved)
      if (this.records.length > 0 || pushed.ok || moved) {
        this.o.report.push(pushed)
        this.o.report.event(
          'push',
          pushed.ok ? `pushed to ${pushed.remote} ${pushed.branch}` : `not pushed: ${pushed.reason}`,
          {
            data: { ...pushed },
          },
        )
      }
      await this.store?.close()
    }
  }

  private async take(trigger: string, detail?: string, urgent = false): Promise<CheckpointRecord | null> {
    if (!this.active) return null
    // The machinery first: a planted filter or fsmonitor must be gone before git reads the worktree. The
    // final check reads every scope's config again; earlier ones only when a config file changed.
    // The final one may need no listing (unchangedSinceRecorded, below): finding that out reads no file git
    // would hand to a program (the ignore rules and the object store, with proctor's own config), so it runs
    // beside the machinery check, and a tamper that check finds still makes the final one list.
    const quiet = trigger === 'final' ? this.unchangedSinceRecorded().catch(() => false) : null
    await this.checkMachinery(trigger === 'final')
    this.launch?.()
    let result
    try {
      await this.opening
      // Prevention where it is cheap: a FIFO in a usual place, or one the watcher saw created, fails the
      // checkpoint before git blocks on it.
      const blocker = this.root ? findBlocker(this.root, this.triggers?.readByGit ?? []) : null
      if (blocker) throw new Error(`checkpoint not taken: ${describeBlocker(blocker)}`)
      // The session's end right after a checkpoint (the agent's exit): the watcher saw nothing change since
      // that checkpoint listed the worktree, so it holds everything there is and the final one is empty
      // without listing the tree again. A git_tamper change still standing (an exclude rule) may make git
      // see the same tree differently: then it lists.
      if (quiet && (await quiet) && this.tamper.size === 0) {
        this.store?.nothingMoreToRecord()
        return null
      }
      this.listingMark = null
      // (opened: the store is there)
      result = await this.store!.createDetailed(trigger, { urgent })
      this.recordedMark = this.listingMark ?? this.recordedMark
    } catch (error) {
      this.recordedMark = null
      const explained = this.explain(error)
      this.noteFailure(explained)
      throw explained
    }
    this.consecutiveFailures = 0
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
        `left out of checkpoint ${record.seq}: ${record.skipped
          .map((p) =>
            record.skipped_reasons?.[p] ? `${p} (${skipReasonWord(record.skipped_reasons[p])})` : p,
          )
          .join(', ')}`,
      )
    }
    this.o.lifecycle
      .fire('checkpoint', {
        seq: record.seq,
        sha: record.sha,
        ref: record.ref,
        trigger,
        files_changed: record.files_changed,
      })
      .catch(() => undefined)
    for (const violation of result.violations) {
      this.o.lifecycle.fire('violation', { ...violation }).catch(() => undefined)
    }
    const reverted = await this.revert(result.violations, this.store!.revertSource)
    if (reverted.length) {
      this.current = this.current.filter((v) => !reverted.includes(v.file))
      this.markResolved()
    }
    this.push?.schedule(record.sha)
    this.o.onChange()
    return record
  }

  private async unchangedSinceRecorded(): Promise<boolean> {
    const mark = this.recordedMark
    if (!mark || !this.triggers || this.tamper.size > 0) return false
    return this.triggers.quietSince(mark)
  }

  /**
   * revert_on_violation: the files behind critical violations go back to their state at the baseline (as
   * the user left them, withheld files included: `source` is the store's revertSource), never to HEAD. The
   * checkpoint keeps what the agent did — the audit trail — and the next checkpoint records the revert.
   */
  private async revert(violations: Violation[], source: string | null): Promise<string[]> {
    let target = source
    const { filesToRevert } = await this.loadPolicy()
    const paths = filesToRevert(violations, this.o.config.policy)
    if (paths.length === 0 || !this.git) return []
    try {
      // An unborn HEAD and a clean worktree: the baseline is empty, so the agent's files go.
      target ??= await this.git.emptyTree()
      // Loaded the first time a session reverts, not before its agent starts.
      const { revertPaths } = await import('../checkpoints/restore.js')
      const done = await revertPaths(this.git, target, paths)
      for (const v of violations) if (paths.includes(v.file)) v.reverted = true
      this.o.report.event(
        'revert',
        `reverted ${paths.length} file(s) with critical violations: ${paths.join(', ')}`,
        {
          data: { ...done, to: target },
        },
      )
      return paths
    } catch (error) {
      this.o.report.event('error', `revert of ${paths.join(', ')} failed: ${(error as Error).message}`)
      return []
    }
  }

  /**
   * A git call killed at its deadline most likely met a file that blocks it: the error then names the file
   * and the fix ("a FIFO (named pipe) at sub/.gitignore blocks git …; remove it"), and later checkpoints
   * check that path before they run git.
   */
  private explain(error: unknown): unknown {
    let timedOut: GitError | null = null
    for (let e = error; e instanceof Error; e = e.cause) {
      if (e instanceof GitError && e.timedOut) timedOut = e
    }
    if (!timedOut || !this.root) return error
    const blocker = scanForBlocker(this.root, this.triggers?.readByGit ?? [])
    if (!blocker) return error
    this.triggers?.readByGit.add(blocker.path)
    const message = `${describeBlocker(blocker)} (${timedOut.message.split('\n')[0]})`
    return new Error(message, { cause: error })
  }

  private noteFailure(error: unknown): void {
    this.consecutiveFailures++
    this.totalFailures++
    this.lastFailure = (error as Error).message
    const max = this.o.config.checkpoints.max_failures
    if (this.consecutiveFailures > max && !this.fatalReason) {
      this.fatalReason = `checkpoints failed ${this.consecutiveFailures} times in a row (checkpoints.max_failures: ${max}); last error: ${this.lastFailure}`
      this.o.report.event('error', this.fatalReason)
      this.o.onFatal?.(this.fatalReason)
    }
  }

  /** Compares the repository's machinery with the recording; one check at a time. Never throws. */
  private checkMachinery(full = false): Promise<void> {
    const run = this.machineryQueue.then(() => this.compareMachinery(full))
    this.machineryQueue = run.catch(() => undefined)
    return run.catch((error: unknown) => {
      this.o.report.event(
        'error',
        `could not check the repository's git config and hooks: ${(error as Error).message}`,
      )
    })
  }

  private async compareMachinery(full: boolean): Promise<void> {
    if (!this.machinery) return
    const changes = await this.machinery.changes({ full })
    const { compilePolicy, notifiesAgent } = await this.loadPolicy()
    const severity = compilePolicy(this.o.config.policy).severityOf('git_tamper')
    const now = new Map(changes.map((c) => [`${c.file}\0${c.what}`, c]))
    for (const [key, v] of this.tamper) {
      if (!now.has(key)) {
        v.resolved = true
        this.tamper.delete(key)
      }
    }
    for (const [key, change] of now) {
      if (this.tamper.has(key)) continue
      const v: Violation = {
        checkpoint: this.store?.latestSeq || null,
        file: change.file,
        constraint: 'git_tamper',
        severity,
        message: change.what,
        suggestion: change.suggestion,
      }
      this.tamper.set(key, v)
      this.o.report.violation(v)
      this.o.report.event('violation', `${v.severity}: ${v.file}: ${v.message}`, {
        name: v.constraint,
        data: { notify_agent: notifiesAgent(v) },
      })
      this.o.lifecycle.fire('violation', { ...v }).catch(() => undefined)
    }
    if (this.o.config.policy.git_tamper !== 'undo' || changes.length === 0) return
    const undone = this.machinery.undo(changes)
    for (const [key, change] of now) {
      if (!undone.includes(change.file)) continue
      const v = this.tamper.get(key)!
      v.reverted = true
      v.resolved = true
      this.tamper.delete(key)
    }
    if (undone.length) {
      this.o.report.event('revert', `restored the repository's git machinery: ${undone.join(', ')}`, {
        data: { files: undone },
      })
    }
  }

  /**
   * Something other than proctor moved the session's checkpoint ref (the agent, or a daemon it left behind):
   * a git_tamper violation that stands to the end (nothing puts the ref back, and nothing more was pushed).
   */
  private async reportRefMoved(moved: RefMoved): Promise<void> {
    const { compilePolicy, notifiesAgent } = await this.loadPolicy()
    const v: Violation = {
      checkpoint: this.store?.latestSeq || null,
      file: moved.ref,
      constraint: 'git_tamper',
      severity: compilePolicy(this.o.config.policy).severityOf('git_tamper'),
      message: `${moved.ref} was ${moved.expected ? `moved off checkpoint ${moved.expected.slice(0, 12)}, the last one proctor wrote` : 'written although proctor wrote no checkpoint there'} (${moved.found ? `to ${moved.found.slice(0, 12)}, a commit proctor never judged` : 'deleted'}) by something other than proctor; nothing more was pushed`,
      suggestion:
        "nothing but proctor may write refs/proctor/*; the agent's last judged checkpoint is in this report",
    }
    this.tamper.set(`${moved.ref}\0moved`, v)
    this.o.report.violation(v)
    this.o.report.event('violation', `${v.severity}: ${v.file}: ${v.message}`, {
      name: v.constraint,
      data: { notify_agent: notifiesAgent(v) },
    })
    this.o.lifecycle.fire('violation', { ...v }).catch(() => undefined)
  }

  private loadPolicy(): Promise<Policy> {
    return (this.policy ??= import('../policy/index.js').then((policy) => (this.policyLoaded = policy)))
  }

  /** Reported violations the work no longer holds are resolved; ones it holds again are not. */
  private markResolved(): void {
    const holds = new Set(this.current.map(keyOf))
    for (const [key, v] of this.reported) v.resolved = !holds.has(key)
  }

  /** Policy on this checkpoint's diff and on the cumulative diff; each (file, constraint) is reported once. */
  private async validate(ctx: ValidateContext): Promise<Violation[]> {
    const policy = this.o.config.policy
    const worktree = this.root ?? this.o.cwd
    const { evaluateCheckpointScopes, notifiesAgent, testsWeakened } = await this.loadPolicy()
    const found = evaluateCheckpointScopes({
      seq: ctx.seq,
      files: ctx.files,
      cumulative: ctx.cumulative,
      withheld: ctx.withheld,
      worktree,
      policy,
    })
    // Tests are judged on the session's whole work: a test removed in one checkpoint and put back in the next
    // weakened nothing.
    const weakened = await testsWeakened(this.git!, ctx.cumulative, ctx.seq, policy)
    found.cumulative.push(...weakened)
    found.all.push(...weakened)
    // Its message is a count that moves (3 → 2, then 3 → 0): the report keeps the latest, not the first.
    for (const v of weakened) {
      const seen = this.reported.get(keyOf(v))
      if (seen) Object.assign(seen, { message: v.message, suggestion: v.suggestion, line: v.line })
    }
    this.current = found.cumulative
    const fresh = found.all.filter((v) => {
      const key = keyOf(v)
      if (this.reported.has(key)) return false
      this.reported.set(key, v)
      return true
    })
    this.markResolved()
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
