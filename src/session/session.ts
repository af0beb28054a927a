// One supervised session: the agent under the supervisor, checkpoints and policy on its work, stop hooks
// deciding whether it may stop (and sending it back when they block), lifecycle hooks, and the report.
// Every way a session can end — exit, timeout, a detector, SIGINT/SIGTERM — funnels into `finish()`,
// which takes the final checkpoint, pushes, writes report.json and leaves nothing running.
import { join, resolve } from 'node:path'
import type { Config } from '../config/schema.js'
import type {
  SessionEvent,
  SessionReport,
  SessionStatus,
  StopHookResult,
  Verdict,
  Violation,
} from '../report/model.js'
import { ReportBuilder } from '../report/builder.js'
import { AgentRun, type AgentExit } from '../supervisor/agent-run.js'
import { OutputPipeline } from '../supervisor/output.js'
import { loadRenderer } from '../supervisor/screen.js'
import { loadNodePty } from '../supervisor/pty.js'
import { AGENT_ERROR_KIND, agentErrorReason, decodeKeys, type DetectionEvent } from '../supervisor/detect.js'
import { liveSessions, pruneFinished, reconcileOrphans } from '../supervisor/registry.js'
import { removeStaleRepoIndexes } from '../checkpoints/stale-indexes.js'
import { installShutdownSignals, exitCodeForSignal, type ShutdownSignal } from '../supervisor/signals.js'
import { SpawnError, type CommandSpec } from '../supervisor/types.js'
import { LifecycleHooks } from '../hooks/lifecycle.js'
import type { Continuation, planContinuation } from '../hooks/continue.js'
import { typeAndSubmit } from '../supervisor/typing.js'
import { quitAgent } from '../supervisor/quit.js'
import type { StopContext } from '../hooks/context.js'
import { ensureStateDir, findRepoRoot, sessionDir } from '../state/layout.js'
import { makeSessionId, sanitizeRefPart } from './session-id.js'
import { SessionCheckpoints, type CheckpointReads } from './checkpointing.js'
import type { SnapshotProgress } from '../checkpoints/first-snapshot.js'
import { describeCommand } from '../hooks/command.js'
import { formatDuration } from '../util/units.js'
import { writeFileAtomic } from '../util/safe-file.js'
import { lifecycleExtra } from '../hooks/payloads.js'
import { prepareNativeHooks } from './native-hooks.js'
import { agentEnvironment } from '../supervisor/agent-env.js'
import { UsageMeter } from '../usage/meter.js'
import type { Pricer } from '../usage/types.js'
import type { ProxyStop } from '../proxy/server.js'
import type { SessionProxy } from '../proxy/session-proxy.js'
import { hasBudget, type Budget } from '../proxy/budget.js'
import { ExitCode } from '../cli/exit.js'
import type { NativeStops } from './native-stop.js'
import { OutputTail } from '../usage/tail.js'
import { pricerFor } from '../usage/prices.js'
import type { CiGitHub } from '../github/ci-status.js'
import type { Continuing } from './resume.js'
import { isAgentSessionId } from '../agents/session-store.js'

export interface SessionListener {
  started?(report: SessionReport): void
  progress?(report: SessionReport): void
  hookStarted?(name: string, round: number): void
  hookFinished?(result: StopHookResult): void
  /** A stop hook's output as it arrives (stdout and stderr), for a live log. */
  hookOutput?(name: string, chunk: Uint8Array): void
  /** Every event as it is recorded (checkpoints, pushes, warnings...), for a live log. */
  event?(event: SessionEvent): void
  /** Something worth saying while it happens (a large first checkpoint); also in the report's events. */
  notice?(message: string): void
  /** How far along a large first checkpoint is, a few seconds apart while it works (not in the report). */
  checkpointProgress?(progress: SnapshotProgress): void
}

export interface SessionOptions {
  config: Config
  /** The proctor.yml that was read (native agent hooks load it again), or null for defaults. */
  configFile?: string | null
  command: CommandSpec
  cwd: string
  sessionId?: string
  /** Where the agent's output is echoed live (the terminal), or null. */
  output: { write(chunk: Uint8Array | string): unknown } | null
  /** Keystrokes forwarded to a PTY agent (an interactive terminal), or null. */
  input: NodeJS.ReadStream | null
  /** Handle SIGINT/SIGTERM to this process (the CLI); batches and tests use `signal` instead. */
  installSignalHandlers: boolean
  /** Aborting interrupts the session as SIGINT would (reason: the abort reason, if a signal name). */
  signal?: AbortSignal
  listener?: SessionListener
  /** Base environment for the agent and hooks (default process.env). */
  env?: Record<string, string | undefined>
  /** CI facts for the report. */
  ci?: Record<string, string | number | null>
  /** Fired instead of session lifecycle hooks' own subagent events (batches). */
  role?: string
  /** proctor's credential for the checkpoint pushes only (tokenHeaderConfig); never in .git/config. */
  pushSecretConfig?: readonly [string, string][]
  /** GitHub for the built-in `ci-checks` stop hook (the action's one-job layout); without it, it is an error. */
  github?: CiGitHub
  /**
   * The git reads checkpoints need before the agent starts, begun before the config was parsed
   * (startCheckpointReads, for `sessionId` and `cwd`); used when nothing ran in between that may have
   * changed the repository.
   */
  checkpointReads?: CheckpointReads | null
  /** The session's one usage tally (the proxy and the CLI-output readers add, the report reads); fresh by default. */
  usage?: UsageMeter
  /** Prices usage for the report and budget.usd; default: proctor.yml's `pricing` over the built-in table. */
  pricer?: Pricer
  /** The batch's tally and budget (budget.batch), shared by its sessions' proxies. */
  batchUsage?: { meter: UsageMeter; budget: Budget }
  /**
   * A later round of a session that ended (`proctor run --continue`, src/session/resume.ts): its rounds
   * go on from the previous report's, whose stop-hook results and agent session this report keeps.
   */
  continuing?: Continuing | null
}

export interface SessionOutcome {
  report: SessionReport
  reportPath: string
  exitCode: number
  /** Set when report.json could not be written (a full disk): one line naming the file and the reason. */
  reportError?: string
}

/** While a signal is being handled the agent gets less grace: the runner's cancel window is 7.5 s in all. */
const INTERRUPT_GRACE_MS = 2_500
/** ...and the final push gets this long before report.json is written anyway. */
const INTERRUPT_PUSH_DEADLINE_MS = 3_000
/**
 * The longest the checkpoint machinery waits for the agent's first flood of output to end: changes made
 * meanwhile are in the next checkpoint all the same (git decides what changed), the watcher only counts.
 */
const LAUNCH_AFTER_FLOOD_MAX_MS = 5_000

export async function runSession(opts: SessionOptions): Promise<SessionOutcome> {
  const { config } = opts
  // Tokens and step files never reach the agent or a hook (docs/action.md#what-the-agent-can-see).
  const env = agentEnvironment(opts.env ?? process.env, config.agent.env_passthrough)
  const dirs = ensureStateDir(opts.cwd)
  // Orphans are reaped before the agent starts (a crashed session's agent must not write into this one);
  // pruning old run records and the stale-index sweep (it forks git) are housekeeping: they run once the
  // agent has been spawned (or at the end if it never was), so they never delay the agent's start.
  const reaped = await reconcileOrphans(dirs.state, {
    graceMs: Math.min(config.timeouts.grace, 2_000),
    prune: false,
  })
  let sweep: Promise<unknown> | null = null
  const sweepStaleIndexes = () =>
    (sweep ??= new Promise((resolve) => setImmediate(resolve))
      .then(() => pruneFinished(dirs.state))
      .then(() => removeStaleRepoIndexes(opts.cwd, liveSessions(dirs.state), sessionId))
      .catch(() => []))
  const sessionId = opts.sessionId ? sanitizeRefPart(opts.sessionId) : makeSessionId(env)
  const dir = sessionDir(dirs, sessionId)
  const mode = config.agent.pty ? 'pty' : 'pipe'
  const usage = { meter: opts.usage ?? new UsageMeter(), pricer: opts.pricer ?? pricerFor(config) }
  const report = new ReportBuilder({
    sessionId,
    command: commandArgv(opts.command),
    cwd: opts.cwd,
    mode,
    transcriptPath: join(dir, 'transcript.log'),
    ci: opts.ci,
    ...usage,
  })
  if (opts.listener?.event) report.onEvent = (event) => opts.listener?.event?.(event)
  const progress = () => opts.listener?.progress?.(report.snapshot())
  report.event(
    'session_start',
    `session ${sessionId} started: ${describeCommand('shell' in opts.command ? opts.command.shell : commandArgv(opts.command))}`,
  )
  // >>> continuation: the earlier rounds stay in this report, and the agent's own session with them.
  const firstRound = opts.continuing?.firstRound ?? 1
  if (opts.continuing) {
    const { earlierResults } = await import('./resume.js')
    for (const result of earlierResults(opts.continuing)) report.stopHook(result)
    const { agent_session_id: agentSession } = opts.continuing.previous
    if (typeof agentSession === 'string' && isAgentSessionId(agentSession)) report.agentSession(agentSession)
    report.event('continue', `round ${firstRound}: continuing after ${firstRound - 1} earlier round(s)`)
  }
  // <<< continuation
  for (const orphan of reaped) {
    report.event(
      'warning',
      `reconciled a run left by a crashed proctor: ${orphan.label} pid ${orphan.pid} (${orphan.action})`,
      {
        data: { ...orphan },
      },
    )
  }

  const lifecycle = new LifecycleHooks({
    hooks: config.hooks,
    poolSize: config.hooks_async_pool_size,
    shutdownGraceMs: config.hooks_async_shutdown_grace,
    sessionId,
    cwd: opts.cwd,
    env,
    onWarning: (message, data) => report.event('warning', message, data ? { data } : {}),
    registryDir: dirs.state,
  })

  // Interruption: the first SIGINT/SIGTERM (or abort) stops the agent and the hooks; finishing goes on.
  let interruptedBy: ShutdownSignal | null = null
  /** Checkpoints failed beyond checkpoints.max_failures: the agent is stopped, the session ends errored. */
  let fatal: string | null = null
  /** The metering proxy ended the session: the budget is spent or the model API refused the key or kept failing. */
  let proxyStop: ProxyStop | null = null
  let currentRun: AgentRun | null = null
  const hooksAbort = new AbortController()
  // Set once the session's checkpoints exist (below); a signal may come before.
  let cutGitShort = (): void => undefined
  const interrupt = (signal: ShutdownSignal) => {
    if (interruptedBy) return
    interruptedBy = signal
    report.event('signal', `received ${signal}: stopping the agent and finishing the session`)
    hooksAbort.abort()
    cutGitShort()
    void currentRun?.stop('signal', INTERRUPT_GRACE_MS)
  }
  const uninstallSignals = opts.installSignalHandlers
    ? installShutdownSignals(async (signal) => interrupt(signal))
    : () => undefined
  const onAbort = () => interrupt(opts.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT')
  if (opts.signal?.aborted) onAbort()
  opts.signal?.addEventListener('abort', onAbort, { once: true })

  // Settings files proctor writes for an agent's native Stop hook: never checkpointed (see native-hooks.ts).
  const proctorFiles = new Set<string>()
  const checkpoints = new SessionCheckpoints({
    config,
    cwd: opts.cwd,
    sessionId,
    sessionDir: dir,
    report,
    lifecycle,
    hiddenPaths: proctorFiles,
    pauser: {
      pause: () => currentRun?.pause(),
      resume: () => currentRun?.resume(),
    },
    onChange: progress,
    env,
    ...(opts.pushSecretConfig ? { pushSecretConfig: opts.pushSecretConfig } : {}),
    onFatal: (reason) => {
      fatal ??= reason
      void currentRun?.stop('requested')
    },
    onNotice: (message) => opts.listener?.notice?.(message),
    onProgress: (progress) => opts.listener?.checkpointProgress?.(progress),
    // Reads begun before the session are of the repository as it is before the agent starts only when
    // nothing ran since: no orphan was reaped (it may have written until then) and no session_start hook
    // runs before the checkpoints start (it may commit or change the git config).
    reads: reaped.length === 0 && !config.hooks.session_start?.length ? opts.checkpointReads : null,
  })
  // A git blocked on something the agent planted must not outlast the cancel window either.
  cutGitShort = () => checkpoints.interrupted(INTERRUPT_GRACE_MS)
  if (interruptedBy) cutGitShort()

  let ending: Ending
  let outputTail = ''
  let transcript = { bytes: 0, capped: false }
  let restoreNative = async (): Promise<string[]> => []
  let nativeStops: NativeStops | null = null
  let modelProxy: SessionProxy | null = null
  let round = firstRound

  try {
    // Before anything that sees the environment runs (session_start hooks, the agent): the model key is
    // swapped for the proxy's placeholder there.
    modelProxy = await startModelApiProxy(opts, usage, env, () => round, {
      warning: (reason) => report.event('warning', reason),
      budget: (reason) => report.event('budget', reason),
      stop: (stop) => {
        proxyStop ??= stop
        report.event(stop.kind === 'budget' ? 'budget' : 'error', stop.reason)
        void currentRun?.stop('requested')
      },
    })
    await fire(
      lifecycle,
      'session_start',
      lifecycleExtra.session_start(commandArgv(opts.command), opts.cwd, mode),
    )
    const starting = checkpoints.start()
    // A PTY agent needs node-pty's native module (~7 ms to load): loaded while the git processes the
    // checkpoints wait for run (`proctor run` started them before it read the config). If it cannot
    // load, the spawn says so.
    if (mode === 'pty') {
      try {
        loadNodePty()
      } catch {
        // reported by the spawn
      }
    }
    await starting
    opts.listener?.started?.(report.snapshot())

    // >>> native Stop hook (agents/native): the agent's own Stop hook hands each stop to this session.
    const adapter = config.agent.adapter
    nativeStops =
      adapter === 'generic'
        ? null
        : new (await import('./native-stop.js')).NativeStops({
            adapter,
            sessionId,
            maxStopRounds: config.max_stop_rounds,
            report,
            firstRound: () => round,
            evaluate: (nativeRound, finalText) =>
              evaluateStop({
                config,
                github: opts.github,
                registryDir: dirs.state,
                sessionId,
                cwd: opts.cwd,
                env,
                round: nativeRound,
                finalText,
                stopReason: 'native',
                report,
                lifecycle,
                checkpoints,
                listener: opts.listener,
                signal: hooksAbort.signal,
              }).finally(progress),
          })
    const target = await nativeStops?.start()
    const native = await prepareNativeHooks(
      config,
      opts.command,
      opts.cwd,
      opts.configFile ?? null,
      env,
      target,
    )
    for (const file of native.files) proctorFiles.add(file)
    Object.assign(env, native.env)
    restoreNative = native.restore
    if (native.active)
      report.event('session_start', `wired proctor into ${adapter}'s own Stop hook: ${native.summary}`)
    // <<< native Stop hook
    // The proxy's arguments (Codex's provider) go on every run, agent.continue's re-runs too.
    const pointed = (c: CommandSpec) => modelProxy?.command(c) ?? c
    let command = pointed(native.command)
    for (;;) {
      // Interrupted between rounds (e.g. during the stop hooks): no new agent run starts.
      if (interruptedBy) {
        ending = interrupted(interruptedBy)
        break
      }
      if (fatal) {
        ending = errored(fatal)
        break
      }
      if (proxyStop) {
        ending = endingOfProxyStop(proxyStop)
        break
      }
      report.round(round)
      const attempt = await superviseAgent({
        opts,
        registryDir: dirs.state,
        command,
        round,
        sessionId,
        dir,
        report,
        lifecycle,
        checkpoints,
        env,
        setRun: (run) => (currentRun = run),
        interrupted: () => interruptedBy !== null,
        hooksSignal: hooksAbort.signal,
        progress,
        native: native.active ? nativeStops : null,
        metered: modelProxy !== null,
        spawned: () => void sweepStaleIndexes(),
      })
      currentRun = null
      // An answer the agent hung up on is still read for its usage: what it spent counts before the stop.
      if (attempt.exit.cause === null && !interruptedBy) await modelProxy?.settled(hooksAbort.signal)
      outputTail = attempt.outputTail
      transcript = {
        bytes: transcript.bytes + attempt.transcript.bytes,
        capped: transcript.capped || attempt.transcript.capped,
      }
      round = attempt.round
      if (fatal && !interruptedBy) {
        ending = errored(fatal)
        break
      }
      if (proxyStop && !interruptedBy) {
        ending = endingOfProxyStop(proxyStop)
        break
      }
      const early = endingOfAttempt(attempt, interruptedBy, config)
      if (early) {
        ending = early
        break
      }
      // >>> native Stop hook: the agent's own Stop hook already ran the stop hooks; they are not run again.
      const nativeEnding = nativeStops?.ending()
      if (nativeEnding) {
        ending = completed(nativeEnding.verdict, nativeEnding.reason)
        break
      }
      if (native.active) {
        report.event(
          'warning',
          `${adapter} never called proctor's Stop hook: proctor runs the stop hooks itself now that it exited`,
        )
      }
      // <<< native Stop hook

      // The agent finished by itself: the stop hooks decide whether it may stop.
      const { reasons, step } = await decideStop(
        {
          config,
          github: opts.github,
          registryDir: dirs.state,
          sessionId,
          cwd: opts.cwd,
          env,
          round,
          finalText: attempt.outputTail,
          stopReason: 'completed',
          report,
          lifecycle,
          checkpoints,
          listener: opts.listener,
          signal: hooksAbort.signal,
          firstRound,
        },
        {
          mode,
          running: false,
          nativeHooks: native.active && (nativeStops?.called ?? false),
          nativeNote: native.active ? `${adapter} never called proctor's Stop hook, and ` : '',
        },
      )
      progress()
      if (interruptedBy || fatal) continue // the top of the loop records the interruption
      if (step.kind !== 'continue') {
        ending = completed(
          step.kind,
          step.kind === 'block' ? step.reason : null,
          step.kind === 'block' ? step.cause : undefined,
        )
        break
      }
      if (step.plan.kind !== 'rerun') throw new Error('unreachable: an exited agent is re-run')
      round++
      command = pointed(native.wire(step.plan.command))
      report.event('continue', `round ${round}: re-running the agent with agent.continue`, {
        data: { reasons },
      })
    }
  } catch (error) {
    const message = (error as Error).message
    report.event('error', message)
    ending = interruptedBy
      ? { ...interrupted(interruptedBy), reason: message }
      : errored(message, error instanceof SpawnError ? 2 : 1)
  }
  // Finishing: final checkpoint, push, lifecycle end, report. Never throws past here.
  await modelProxy?.close().catch(() => undefined)
  await restoreNative()
    .then((changed) => {
      for (const file of changed)
        report.event(
          'warning',
          `the agent changed ${file}, which proctor wrote for its Stop hook; the original was put back`,
        )
    })
    .catch((error: unknown) =>
      report.event('error', `could not restore the agent's hook settings: ${(error as Error).message}`),
    )
  await nativeStops?.close().catch(() => undefined)
  await sweepStaleIndexes()
  try {
    await checkpoints.finish(interruptedBy ? INTERRUPT_PUSH_DEADLINE_MS : undefined)
  } catch (error) {
    report.event('error', `final checkpoint failed: ${(error as Error).message}`)
  }
  ending = finalEnding(ending, checkpoints, interruptedBy !== null)
  const { status, verdict, exitCode, reason } = ending
  report.finish({ ...ending, outputTail, transcript })
  report.event('session_end', `session ended: ${status}, verdict ${verdict}`)
  await fire(
    lifecycle,
    'session_end',
    lifecycleExtra.session_end({ status, verdict, exit_code: exitCode, reason }),
  )
  // Async hooks (session_end's webhook) finish before proctor exits; after a signal the runner's cancel
  // window leaves no time, so they are stopped at once (with a warning).
  await lifecycle.drain(interruptedBy ? 0 : config.hooks_async_drain_timeout)
  uninstallSignals()
  opts.signal?.removeEventListener('abort', onAbort)

  const final = report.snapshot()
  const reportPath = join(dir, 'report.json')
  const reportError = saveReport(reportPath, final)
  // A session whose report could not be saved has not passed: its verdict would be lost with it.
  return { report: final, reportPath, exitCode: reportError && exitCode === 0 ? 1 : exitCode, reportError }
}

/**
 * Writes report.json through a temp file and a rename (writeFileAtomic): a FIFO or symlink the agent put
 * at the path is replaced, not opened, and a full disk leaves no torn file. Returns the one-line problem.
 */
function saveReport(path: string, report: SessionReport): string | undefined {
  try {
    writeFileAtomic(path, JSON.stringify(report, null, 2) + '\n')
    return undefined
  } catch (error) {
    return `${(error as Error).message}; proctor exits 1 because the report is lost (the summary above is all that remains): free the space or fix the path and run again`
  }
}

interface AttemptContext {
  opts: SessionOptions
  registryDir: string
  command: CommandSpec
  round: number
  sessionId: string
  dir: string
  report: ReportBuilder
  lifecycle: LifecycleHooks
  checkpoints: SessionCheckpoints
  env: Record<string, string | undefined>
  setRun: (run: AgentRun) => void
  interrupted: () => boolean
  hooksSignal: AbortSignal
  progress: () => void
  /** The agent's own Stop hook runs the stop hooks (agent.adapter): a completion on screen only ends it. */
  native: NativeStops | null
  /** The metering proxy counts the model calls: what the agent prints about its usage is not read. */
  metered: boolean
  /** Called once the agent's process has been started (background work that must not delay it). */
  spawned: () => void
}

interface AttemptResult {
  exit: AgentExit
  round: number
  outputTail: string
  transcript: { bytes: number; capped: boolean }
  /** Set when stop hooks were evaluated while the agent was still running (interactive completion). */
  decided: { verdict: Verdict; reason: string | null; cause?: string } | null
  stopReason: string | null
  /** The agent gave up on a failure of its own (a detector rule of kind agent_error): the session's reason. */
  agentError: string | null
}

/** Runs the agent once (one process), answering detections, until it exits or is stopped. */
async function superviseAgent(ctx: AttemptContext): Promise<AttemptResult> {
  const { opts, report } = ctx
  const { config } = opts
  const mode = config.agent.pty ? 'pty' : 'pipe'
  const transcriptPath = join(
    ctx.dir,
    ctx.round === 1 ? 'transcript.log' : `transcript.round-${ctx.round}.log`,
  )
  // A pipe session never loads the terminal renderer (memory; see screen.ts). A PTY session's screen
  // loads it after the spawn below (the constructor only starts the import) and renders the output that
  // came meanwhile then: the agent does not wait for xterm.
  const pipeline = new OutputPipeline({
    mode,
    cols: config.agent.cols,
    rows: config.agent.rows,
    transcriptPath,
    transcriptMax: config.output.transcript_max,
    rules: config.detect,
    presets: config.detect_presets,
  })
  // The CLI's own usage summary, printed last (usage/cli-output.ts), read when the process has ended.
  const usageTail = new OutputTail()
  const run = new AgentRun({
    spawn: {
      command: ctx.command,
      // agent.cwd is relative to the repository root (docs/configuration.md), wherever proctor was started.
      cwd: config.agent.cwd ? resolve(findRepoRoot(opts.cwd) ?? opts.cwd, config.agent.cwd) : opts.cwd,
      env: {
        ...ctx.env,
        ...config.agent.env,
        PROCTOR_SESSION_ID: ctx.sessionId,
        PROCTOR_ROUND: String(ctx.round),
      },
      mode,
      // Without a PTY the agent's stdin stays an open pipe when a detector may answer (respond: send or
      // deny), so the answer reaches it. Otherwise it is closed at spawn: CLIs such as `codex exec` and
      // `claude -p` read a piped stdin to its end before they start, and would wait forever.
      keepStdinOpen: pipeline.detector.rules.some(
        (rule) => rule.response.type === 'send' || rule.response.type === 'deny',
      ),
      cols: config.agent.cols,
      rows: config.agent.rows,
      graceMs: config.timeouts.grace,
      registry: { dir: ctx.registryDir, role: 'agent', session: ctx.sessionId },
      label: 'agent',
    },
    // The session's length, not each run's: a re-run gets what is left, so rounds sent back cannot add up
    // to max_stop_rounds × timeouts.total.
    totalTimeoutMs: Math.max(1, config.timeouts.total - report.elapsed()),
    idleTimeoutMs: config.timeouts.idle,
    output: {
      write: (chunk) => {
        pipeline.write(chunk)
        usageTail.write(chunk)
      },
      flush: () => pipeline.flush(),
    },
  })
  let round = ctx.round
  let decided: AttemptResult['decided'] = null
  let stopReason: string | null = null
  let agentError: string | null = null
  // The screen as it was when the session was decided: what the agent draws while being ended (Claude
  // Code redraws its API-key dialog on SIGTERM) is not what it ended on.
  let tailAtDecision: string | null = null
  run.once('decided', () => (tailAtDecision = pipeline.tailText(40)))
  let evaluation: Promise<void> | null = null
  const answers = new Set<Promise<void>>()

  // Only with an echo: the run copies each chunk for its 'output' listeners.
  const echo = opts.output
  if (echo) run.on('output', (chunk) => echo.write(chunk))
  pipeline.on('capped', (max) => report.event('output_capped', `transcript capped at ${max} bytes`))
  pipeline.on('slow_rule', (rule, ms) =>
    report.event(
      'detector',
      `warning: detect rule "${rule}" took ${Math.round(ms)} ms on one line; disabled`,
      {
        name: rule,
      },
    ),
  )
  run.on('timeout', () =>
    report.event('timeout', `total timeout of ${formatDuration(config.timeouts.total)} reached`),
  )
  run.on('idle_timeout', ({ limitMs }) =>
    report.event('idle_timeout', `no output for ${formatDuration(limitMs)}`),
  )

  // Recorded once the write settles: an answer that never reached the agent is not counted as one. The
  // first answer and its repeats (respond.retry_after) go the same way.
  const answer = (event: DetectionEvent, text: string, what: string) => {
    const data = { attempt: event.attempt, fire: event.fire }
    const written = run.write(text).then((result) =>
      report.event('response', result.delivered ? what : `${what} — not delivered: ${result.reason}`, {
        name: event.rule,
        data: result.delivered ? { delivered: true, ...data } : { ...result, ...data },
      }),
    )
    answers.add(written)
    void written.finally(() => answers.delete(written))
  }

  const onDetection = (event: DetectionEvent) => {
    const response = event.response
    if (event.attempt > 1) {
      // The prompt is still on screen after the last answer (respond.retry_after): answer it again.
      if (response.text !== undefined)
        answer(
          event,
          response.text,
          `${response.type} again (attempt ${event.attempt}, the prompt is still on screen): ${JSON.stringify(response.text)}`,
        )
      ctx.progress()
      return
    }
    report.event(event.kind, event.text, { name: event.rule, data: { match: event.match, fire: event.fire } })
    if (event.kind === 'approval_request')
      void fire(ctx.lifecycle, 'approval_request', lifecycleExtra.approval_request(event.rule, event.text))
    if (config.checkpoints.on_events.includes(event.kind)) ctx.checkpoints.onEvent(event.kind)
    if (event.kind === AGENT_ERROR_KIND) agentError ??= agentErrorReason(event)
    if ((response.type === 'send' || response.type === 'deny') && response.text !== undefined) {
      answer(event, response.text, `${response.type}: ${JSON.stringify(response.text)}`)
    } else if (response.type === 'stop') {
      stopReason = agentError ?? `stopped by detector rule "${event.rule}": ${event.text}`
      report.event('response', 'stop the agent', { name: event.rule })
      void run.stop('detector')
      return
    } else {
      report.event('response', 'notify', { name: event.rule })
    }
    if (event.kind === 'completion' && !evaluation)
      evaluation = onCompletion().finally(() => (evaluation = null))
    if (event.kind === 'idle' && mode === 'pty' && !evaluation) void tellWarnings()
    ctx.progress()
  }

  // An interactive agent waiting at its prompt (a detector rule of kind `idle`) hears the policy's
  // warnings about its work so far, typed in as one line; each warning once.
  const tellWarnings = async () => {
    await ctx.checkpoints.settle('event')
    if (ctx.interrupted() || evaluation) return
    const warnings = ctx.checkpoints.takeWarnings()
    if (warnings.length === 0) return
    const { typedNotice } = await import('../policy/feedback.js')
    // Typed like the stop hooks' reasons (a bracketed paste when the agent asked for it, then Enter).
    const typed = await typeAndSubmit(
      run,
      pipeline,
      typedNotice(warnings).replace(/\r$/, ''),
      config.agent.typing,
      ctx.hooksSignal,
    )
    report.event('policy_notice', `told the agent about ${warnings.length} policy warning(s)`, {
      data: {
        violations: warnings.map((v) => ({ file: v.file, constraint: v.constraint })),
        typing: { ...typed },
      },
    })
  }

  // The session is decided while the agent still runs: ask it to exit (agent.quit), else stop it.
  let ended = false
  let exited = false
  void run.finished.then(() => (exited = true))
  const end = async (verdict: AttemptResult['decided']) => {
    if (ended) return
    ended = true
    decided = verdict
    run.decide()
    const quit = await quitAgent(run, config.agent.quit ? decodeKeys(config.agent.quit) : undefined, {
      submitDelayMs: config.agent.typing.submit_delay,
      graceMs: config.timeouts.grace,
    })
    if (config.agent.quit)
      report.event(
        quit.graceful ? 'exit' : 'warning',
        quit.graceful
          ? `asked the agent to exit (agent.quit) and it did`
          : `the agent did not exit within ${formatDuration(config.timeouts.grace)} of agent.quit; stopping it`,
      )
  }

  // An interactive agent that says it is done but keeps running: the stop hooks decide now, and a block
  // is typed into its prompt so the same process continues. With a native Stop hook the agent's own hook
  // already decided: once it let the agent stop, the agent idling at its prompt is ended.
  const onCompletion = async () => {
    if (ctx.native) {
      const ending = ctx.native.settled ? ctx.native.ending() : null
      if (ending) await end(ending)
      return
    }
    await decideOnScreen()
  }
  // The agent's own hook let an interactive agent (one with agent.quit) stop: it is ended once the screen
  // stops showing it busy, whether or not its "done" line came before the hook answered (that line may be
  // drawn while the hook still runs, and is then not a new completion).
  const native = ctx.native
  const offSettle =
    native && config.agent.quit
      ? native.onSettle(() => {
          void (async () => {
            do {
              await new Promise((resolve) => setTimeout(resolve, SETTLE_CHECK_MS))
            } while (!ended && !exited && native.settled && pipeline.detector.workingNow)
            const ending = native.settled && !exited ? native.ending() : null
            if (ending) await end(ending)
          })()
        })
      : () => undefined

  const decideOnScreen = async () => {
    try {
      const { reasons, step } = await decideStop(
        {
          config,
          github: opts.github,
          registryDir: ctx.registryDir,
          sessionId: ctx.sessionId,
          cwd: opts.cwd,
          env: ctx.env,
          round,
          finalText: pipeline.tailText(40),
          stopReason: 'completed',
          report,
          lifecycle: ctx.lifecycle,
          checkpoints: ctx.checkpoints,
          listener: opts.listener,
          signal: ctx.hooksSignal,
          firstRound: ctx.opts.continuing?.firstRound ?? 1,
        },
        { mode, running: true, nativeHooks: false },
      )
      if (ctx.interrupted()) return
      if (step.kind !== 'continue') {
        await end(
          step.kind === 'block'
            ? { verdict: 'block', reason: step.reason, ...(step.cause ? { cause: step.cause } : {}) }
            : { verdict: step.kind, reason: null },
        )
        return
      }
      round++
      report.round(round)
      report.event('continue', `round ${round}: typing the stop hooks' reasons into the agent`, {
        data: { reasons },
      })
      const { typedLine } = await import('../hooks/continue.js')
      const typed = await typeAndSubmit(
        run,
        pipeline,
        typedLine(reasons),
        config.agent.typing,
        ctx.hooksSignal,
      )
      report.event(
        typed.reacted ? 'continue' : 'warning',
        typed.reacted
          ? `typed the reasons${typed.bracketed ? ' as a bracketed paste' : ''} and pressed Enter ` +
              `${typed.attempts === 1 ? 'once' : `${typed.attempts} times`}; the agent reacted`
          : `typed the reasons and pressed Enter ${typed.attempts} times, but the agent showed no activity`,
        { data: { ...typed } },
      )
    } finally {
      ctx.progress()
    }
  }
  pipeline.on('event', onDetection)

  // Forward the user's keystrokes to an interactive PTY agent.
  const input = mode === 'pty' ? opts.input : null
  // A keystroke's delivery is not awaited: write() answers undelivered instead of rejecting.
  const forward = (data: Buffer): void => void run.write(data)
  let rawWasOn = false
  if (input) {
    rawWasOn = input.isRaw
    input.setRawMode?.(true)
    input.on('data', forward)
    input.resume()
  }

  try {
    ctx.setRun(run)
    run.start()
    if (mode === 'pty')
      loadRenderer().catch((error: unknown) =>
        report.event(
          'warning',
          `the terminal renderer did not load (${(error as Error).message}): detection sees no output; the transcript keeps it`,
        ),
      )
    report.event('spawn', `agent started (pid ${run.pid}, ${mode})`, { data: { pid: run.pid, round } })
    // The checkpoint store, the watcher and the stale-index sweep start git processes; each forks proctor,
    // which stalls its reading. An agent that starts by flooding its output (a build log, a large file)
    // would wait on those stalls, so they start once the flood is over (docs/architecture.md).
    const calm = pipeline.calm(LAUNCH_AFTER_FLOOD_MAX_MS)
    ctx.checkpoints.agentRunning(true, calm)
    void calm.then(ctx.spawned)
    const exit = await run.finished
    // The exit is recorded as it happened, before the checkpoints react to it (which may fork git).
    report.event(
      'exit',
      exit.cause
        ? `agent stopped (${exit.cause})${exit.killed ? ' with SIGKILL after the grace period' : ''}`
        : exit.signal
          ? `agent killed by ${exit.signal}`
          : `agent exited with code ${exit.exitCode}`,
      { data: { exit_code: exit.exitCode, signal: exit.signal, cause: exit.cause, killed: exit.killed } },
    )
    ctx.checkpoints.agentRunning(false)
    // A completion evaluation may still be running (the agent exited meanwhile): let it settle.
    await evaluation
    const summary = await pipeline.close()
    if (!ctx.metered) await readCliUsage(usageTail, report, ctx.round, commandArgv(ctx.command))
    await Promise.all([...answers])
    return {
      exit,
      round,
      outputTail: tailAtDecision ?? pipeline.tailText(40),
      transcript: { bytes: summary.bytes, capped: summary.capped },
      decided,
      stopReason,
      agentError,
    }
  } finally {
    offSettle()
    if (input) {
      input.off('data', forward)
      input.setRawMode?.(rawWasOn)
      input.pause()
    }
  }
}

interface StopEvaluation {
  config: Config
  registryDir: string
  sessionId: string
  cwd: string
  env: Record<string, string | undefined>
  round: number
  finalText: string
  stopReason: string
  report: ReportBuilder
  lifecycle: LifecycleHooks
  checkpoints: SessionCheckpoints
  listener: SessionListener | undefined
  signal: AbortSignal
  /** For `uses: ci-checks` (SessionOptions.github). */
  github?: CiGitHub | undefined
  /** The first round of this run (a continuation's is after the earlier ones); max_stop_rounds counts from it. */
  firstRound?: number
}

/**
 * THE stop decision, for an agent that exited (the round loop) and for one that says it is done while
 * still running (a completion detector): evaluate the stop, then stop, give up or send the agent back.
 */
async function decideStop(
  e: StopEvaluation,
  s: Omit<StepState, 'config' | 'round' | 'planContinuation' | 'firstRound' | 'agentSession' | 'history'>,
): Promise<{ reasons: string[]; step: NextStep }> {
  const decision = await evaluateStop(e)
  // How the agent is sent back: loaded at the first stop, not before the agent's spawn.
  const [{ planContinuation }, { summarizeRounds }] = await Promise.all([
    import('../hooks/continue.js'),
    import('./resume.js'),
  ])
  return {
    reasons: decision.reasons,
    step: nextStep(decision, {
      ...s,
      config: e.config,
      round: e.round,
      firstRound: e.firstRound ?? 1,
      planContinuation,
      agentSession: e.report.lastAgentSession,
      history: () => summarizeRounds(e.report.snapshot(), { ended: false }),
    }),
  }
}

/**
 * A checkpoint of what the agent left, then every stop hook in parallel, then the policy gate: the
 * unresolved error/critical violations in the session's work block like a stop hook named `policy`.
 * Warnings the agent has not heard yet ride along when it is sent back.
 */
async function evaluateStop(
  e: StopEvaluation,
): Promise<{ verdict: Verdict; reasons: string[]; errors: string[] }> {
  await e.checkpoints.settle('event')
  await fire(e.lifecycle, 'stop', lifecycleExtra.stop(e.round, e.stopReason))
  const hooks = await runHooks(e)
  const feedback = await import('../policy/feedback.js')
  const policy = policyGate(e, feedback.policyReasons)
  const verdict = hooks.verdict === 'allow' && policy.verdict === 'allow' ? 'allow' : 'block'
  const reasons = [...hooks.reasons, ...policy.reasons]
  if (verdict === 'block' && reasons.length)
    reasons.push(...feedback.warningReasons(e.checkpoints.takeWarnings()))
  return { verdict, reasons, errors: hooks.errors }
}

/** The policy gate of one stop round, recorded as the stop hook `policy` once it has had to block. */
function policyGate(
  e: StopEvaluation,
  policyReasons: (blocking: readonly Violation[]) => string[],
): { verdict: Verdict; reasons: string[] } {
  const blocking = e.checkpoints.blocking()
  const blockedBefore = e.report.snapshot().stop_hooks.some((r) => r.name === POLICY_GATE)
  if (blocking.length === 0 && !blockedBefore) return { verdict: 'allow', reasons: [] }
  const reasons = policyReasons(blocking)
  const result: StopHookResult = {
    name: POLICY_GATE,
    verdict: blocking.length ? 'block' : 'allow',
    reason: blocking.length
      ? `${blocking.length} unresolved error/critical violation(s): ${blocking.map((v) => v.file || '(whole diff)').join(', ')}`
      : null,
    exit_code: null,
    duration_ms: 0,
    round: e.round,
  }
  // Recorded in the report (the comment lists it with the stop hooks); its check run is `proctor /
  // policy`, which the reporter completes from the violations at the end.
  e.report.stopHook(result)
  e.report.event(
    'policy_gate',
    blocking.length ? `policy blocked (round ${e.round})` : `policy allowed (round ${e.round})`,
    { data: { verdict: result.verdict, reasons, round: e.round } },
  )
  return { verdict: result.verdict === 'allow' ? 'allow' : 'block', reasons }
}

async function runHooks(
  e: StopEvaluation,
): Promise<{ verdict: Verdict; reasons: string[]; errors: string[] }> {
  if (e.config.stop_hooks.length === 0) return { verdict: 'allow', reasons: [], errors: [] }
  // Loaded when a session first has stop hooks to run, not before its agent starts.
  const { runStopHooks } = await import('../hooks/stop-hooks.js')
  const latest = e.checkpoints.latest()
  const context: StopContext = {
    session_id: e.sessionId,
    cwd: e.cwd,
    stop_reason: e.stopReason,
    final_text: e.finalText,
    rounds: e.round,
    stop_hook_active: e.round > 1,
    checkpoint: latest ? { ref: latest.ref, sha: latest.sha, files_changed: latest.files_changed } : null,
    violations: e.report.snapshot().violations,
  }
  const outcome = await runStopHooks({
    hooks: e.config.stop_hooks,
    context,
    cwd: e.cwd,
    env: e.env,
    graceMs: Math.min(e.config.timeouts.grace, INTERRUPT_GRACE_MS),
    round: e.round,
    signal: e.signal,
    registry: { dir: e.registryDir, session: e.sessionId },
    ...(e.github
      ? {
          builtins: {
            push: (sha) => e.checkpoints.pushCheckpoint(sha),
            github: e.github,
            baseline: e.report.snapshot().baseline?.commit,
          },
        }
      : {}),
    onStart: (name) => e.listener?.hookStarted?.(name, e.round),
    onResult: (result) => {
      e.report.stopHook(result)
      e.listener?.hookFinished?.(result)
    },
    ...(e.listener?.hookOutput
      ? { onOutput: (name: string, chunk: Uint8Array) => e.listener?.hookOutput?.(name, chunk) }
      : {}),
  })
  e.report.event(
    'stop_hooks',
    outcome.verdict === 'allow'
      ? `stop hooks allowed (round ${e.round})`
      : `stop hooks blocked (round ${e.round})`,
    { data: { verdict: outcome.verdict, reasons: outcome.reasons, errors: outcome.errors, round: e.round } },
  )
  return { verdict: outcome.verdict, reasons: outcome.reasons, errors: outcome.errors }
}

async function fire(
  lifecycle: LifecycleHooks,
  event: Parameters<LifecycleHooks['fire']>[0],
  extra: Record<string, unknown>,
) {
  try {
    await lifecycle.fire(event, extra)
  } catch {
    // Lifecycle hooks report their own failures as warnings; they never end a session.
  }
}

/**
 * The usage the agent CLI printed about itself, for a session without the metering proxy (with it, the proxy's
 * count is the only one: a summary the agent prints is its own word, even before its first proxied call).
 */
async function readCliUsage(tail: OutputTail, report: ReportBuilder, round: number, argv: string[]) {
  if (report.usage.samples().some((s) => s.source === 'proxy')) return
  const { usageFromCliOutput } = await import('../usage/cli-output.js')
  for (const sample of usageFromCliOutput(tail.text(), { round, at: report.elapsed(), argv }))
    report.usage.add(sample)
}

function commandArgv(command: CommandSpec): string[] {
  return 'shell' in command ? ['/bin/sh', '-c', command.shell] : [command.file, ...command.args]
}

/** How a session ended: what report.json and the exit code say. */
interface Ending {
  status: SessionStatus
  verdict: Verdict
  exitCode: number
  signal: string | null
  reason: string | null
  /** The reason without the blocking hooks' reasons it ends with (report.cause). */
  cause?: string
}

const completed = (verdict: Verdict, reason: string | null, cause?: string): Ending => ({
  status: 'completed',
  verdict,
  exitCode: verdict === 'allow' ? 0 : 1,
  signal: null,
  reason,
  ...(cause ? { cause } : {}),
})

const interrupted = (signal: ShutdownSignal): Ending => ({
  status: 'interrupted',
  verdict: 'block',
  exitCode: exitCodeForSignal(signal),
  signal,
  reason: `interrupted by ${signal}`,
})

const errored = (reason: string, exitCode = 1): Ending => ({
  status: 'errored',
  verdict: 'block',
  exitCode,
  signal: null,
  reason,
})

const failed = (reason: string, signal: string | null = null): Ending => ({
  status: 'failed',
  verdict: 'block',
  exitCode: 1,
  signal,
  reason,
})

/**
 * The metering proxy's stop: a spent budget ends the session like a timeout (status budget, its own exit
 * code); a model API that refused the key or kept failing, like a detector's stop (failed, with the reason).
 */
function endingOfProxyStop(stop: ProxyStop): Ending {
  if (stop.kind === 'budget') return { ...failed(stop.reason), status: 'budget', exitCode: ExitCode.budget }
  return failed(stop.reason)
}

/** Starts model_api's metering proxy for the session (src/proxy/), or null when it is off. */
async function startModelApiProxy(
  opts: SessionOptions,
  usage: { meter: UsageMeter; pricer: Pricer },
  env: Record<string, string | undefined>,
  round: () => number,
  on: {
    warning: (reason: string) => void
    budget: (reason: string) => void
    stop: (stop: ProxyStop) => void
  },
): Promise<SessionProxy | null> {
  if (!opts.config.model_api.proxy && !hasBudget(opts.config)) return null
  const { startSessionProxy } = await import('../proxy/session-proxy.js')
  const proxy = await startSessionProxy({
    config: opts.config,
    base: opts.env ?? process.env,
    agentEnv: env,
    meter: usage.meter,
    pricer: usage.pricer,
    ...(opts.batchUsage ? { batch: opts.batchUsage } : {}),
    round,
    startedAt: Date.now(),
    onWarning: on.warning,
    onBudgetWarning: on.budget,
    onStop: on.stop,
  })
  return proxy
}

/** Only hooks that could not run block: the agent cannot fix proctor.yml, so it is not sent back. */
function hookErrors(errors: readonly string[]): string {
  return `stop hooks could not run (fix proctor.yml; the agent was not sent back): ${errors.join('; ')}`
}

/** The stop hook name under which the policy gate is reported. */
const POLICY_GATE = 'policy'

type NextStep =
  | { kind: 'allow' }
  | { kind: 'block'; reason: string; cause?: string }
  | { kind: 'continue'; plan: Continuation }

/** What the next step after a stop round depends on besides the verdict. */
interface StepState {
  config: Config
  planContinuation: typeof planContinuation
  mode: 'pty' | 'pipe'
  round: number
  firstRound: number
  /** The agent CLI's own session (its Stop hook named it), for agent.continue's `{agent_session}`. */
  agentSession: string | null
  /** The rounds so far in words, for a fresh agent when there is no session to resume. */
  history: () => string
  running: boolean
  nativeHooks: boolean
  /** Prefixed to "cannot continue" when the agent's own Stop hook was wired but never called. */
  nativeNote?: string
}

/**
 * After a stop round: stop (allowed), give up (blocked), or send the agent back — typed into a live
 * PTY agent, or by re-running agent.continue for one that exited. Only decideStop() asks.
 */
function nextStep(
  decision: { verdict: Verdict; reasons: string[]; errors: string[] },
  s: StepState,
): NextStep {
  if (decision.verdict === 'allow') return { kind: 'allow' }
  // Only hooks that could not run: nothing for the agent to fix.
  if (decision.reasons.length === 0) return { kind: 'block', reason: hookErrors(decision.errors) }
  const step = continueOrBlock(decision, s)
  return step.kind === 'block'
    ? { kind: 'block', reason: `${step.reason}${why(decision.reasons)}`, cause: step.reason }
    : step
}

/** The first reasons, short, so a blocked session's reason says what blocked it. */
function why(reasons: readonly string[]): string {
  if (reasons.length === 0) return ''
  const cut = (r: string) => (r.length > 200 ? `${r.slice(0, 200)}…` : r)
  const shown = reasons.slice(0, 3).map(cut)
  return ` — ${shown.join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}`
}

function continueOrBlock(decision: { verdict: Verdict; reasons: string[] }, s: StepState): NextStep {
  const rounds = s.round - s.firstRound + 1
  if (rounds >= s.config.max_stop_rounds) return { kind: 'block', reason: gaveUp(rounds, s.config) }
  const plan = s.planContinuation(s.config.agent.adapter, {
    mode: s.mode,
    running: s.running,
    continueCommand: s.config.agent.continue,
    nativeHooks: s.nativeHooks,
    reasons: decision.reasons,
    round: s.round + 1,
    agentSession: s.agentSession,
    // Only a fresh re-run reads it: no session to resume, and a command to run.
    ...(s.agentSession || s.running || !s.config.agent.continue ? {} : { history: s.history() }),
  })
  if (s.running ? plan.kind === 'type-into-pty' : plan.kind === 'rerun') return { kind: 'continue', plan }
  if (s.running) {
    return { kind: 'block', reason: 'stop hooks blocked and the agent cannot be sent back (pipe mode)' }
  }
  return {
    kind: 'block',
    reason:
      plan.kind === 'native'
        ? `stop hooks still block after the agent's own Stop hook let it finish`
        : `${s.nativeNote ?? ''}stop hooks blocked and the agent cannot continue: ${plan.kind === 'none' ? plan.why : plan.kind}`,
  }
}

/**
 * The ending once the final checkpoint is in: checkpoints that failed beyond max_failures (or never
 * succeeded) make the session errored; unresolved error/critical violations make an allow a block.
 */
function finalEnding(ending: Ending, checkpoints: SessionCheckpoints, wasInterrupted: boolean): Ending {
  const failure = checkpoints.failure()
  if (failure && !wasInterrupted) return errored(failure)
  if (ending.verdict !== 'allow') return ending
  const open = checkpoints.blocking()
  if (open.length === 0) return ending
  const files = [...new Set(open.map((v) => v.file || '(whole diff)'))]
  return completed(
    'block',
    `policy: ${open.length} unresolved error/critical violation(s) at the end: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ', …' : ''}`,
  )
}

function gaveUp(round: number, config: Config): string {
  return `stop hooks still blocked after ${round} round(s) (max_stop_rounds: ${config.max_stop_rounds})`
}

/** How often an interactive agent the native hook let stop is checked for still showing itself busy. */
const SETTLE_CHECK_MS = 500

/** The ending an agent run decides by itself (signal, timeout, detector, failure), or null: ask the stop hooks. */
function endingOfAttempt(
  attempt: AttemptResult,
  interruptedBy: ShutdownSignal | null,
  config: Config,
): Ending | null {
  const exit = attempt.exit
  if (interruptedBy || exit.cause === 'signal') return interrupted(interruptedBy ?? 'SIGINT')
  // The agent said why it gave up (before any timeout could): that, not its exit code, is the reason.
  if (attempt.agentError) return failed(attempt.agentError)
  if (exit.cause === 'timeout') {
    return {
      ...failed(`total timeout of ${formatDuration(config.timeouts.total)} reached`),
      status: 'timeout',
      exitCode: 124,
    }
  }
  if (exit.cause === 'idle_timeout') {
    return {
      ...failed(`no output for ${formatDuration(config.timeouts.idle)} (idle timeout)`),
      status: 'timeout',
      exitCode: 124,
    }
  }
  // Stop hooks already ran while an interactive agent was still on screen.
  if (attempt.decided)
    return completed(attempt.decided.verdict, attempt.decided.reason, attempt.decided.cause)
  if (exit.cause === 'detector') return failed(attempt.stopReason ?? 'stopped by a detector rule')
  if (exit.exitCode !== 0) {
    return exit.signal
      ? failed(`the agent was killed by ${exit.signal}`, exit.signal)
      : failed(`the agent exited with code ${exit.exitCode}`)
  }
  return null
}
