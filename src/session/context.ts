// The shared context of one session: what every room of it reads (the config, the agent's environment, the
// report builder, the lifecycle hooks, the checkpoints, what halts it, the round it is in), opened once by
// openSession before anything of the user's runs. Opening it reaps what a crashed proctor left, so the
// agent never writes next to a stale one.
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import { ReportBuilder } from '../report/builder.js'
import {
  liveSessions,
  pruneFinished,
  reconcileOrphans,
  type ReconcileOutcome,
} from '../supervisor/registry.js'
import { removeStaleRepoIndexes } from '../checkpoints/stale-indexes.js'
import type { CommandSpec } from '../supervisor/types.js'
import { LifecycleHooks } from '../hooks/lifecycle.js'
import { ensureStateDir, sessionDir } from '../state/layout.js'
import { describeCommand } from '../hooks/command.js'
import { agentEnvironment } from '../supervisor/agent-env.js'
import { UsageMeter } from '../usage/meter.js'
import type { Pricer } from '../usage/types.js'
import { pricerFor } from '../usage/prices.js'
import { isAgentSessionId } from '../agents/session-store.js'
import { makeSessionId, sanitizeRefPart } from './session-id.js'
import { SessionCheckpoints } from './checkpointing.js'
import { Halts, INTERRUPT_GRACE_MS } from './halts.js'
import type { SessionOptions } from './options.js'
import type { StopRound } from './stop-round.js'

export type Env = Record<string, string | undefined>

export interface SessionContext {
  readonly opts: SessionOptions
  readonly config: Config
  /** The agent's and the hooks' environment: no tokens, no step files; the native hooks and the proxy add to it. */
  readonly env: Env
  /** `.proctor/runs/`: every process the session starts is recorded there. */
  readonly registryDir: string
  readonly sessionId: string
  /** `.proctor/sessions/<id>/`: report.json, the transcripts. */
  readonly dir: string
  readonly mode: 'pty' | 'pipe'
  /** The first round of this run (a continuation's comes after the earlier ones); max_stop_rounds counts from it. */
  readonly firstRound: number
  /**
   * The round the current attempt started in, set by the rounds between attempts (the proxy's usage and a
   * native Stop hook's first stop are counted in it); a block typed into a live agent counts on in
   * live-stop.ts, and reaches this when the attempt ends.
   */
  round: number
  readonly usage: { meter: UsageMeter; pricer: Pricer }
  readonly report: ReportBuilder
  readonly lifecycle: LifecycleHooks
  readonly checkpoints: SessionCheckpoints
  readonly halts: Halts
  /** Settings files proctor writes for an agent's native Stop hook: never checkpointed (see native-hooks.ts). */
  readonly hiddenPaths: Set<string>
  /** Tells the listener the report changed. */
  progress(): void
  /** Pruning old run records and the stale-index sweep (it forks git), once: after the spawn or at the end. */
  housekeeping(): Promise<unknown>
  /** The session's one stop round, loaded at the first stop (stop-round.ts). */
  stopRound(): Promise<StopRound>
  /** Stops listening for signals (the end of the session). */
  unlisten(): void
}

export async function openSession(opts: SessionOptions): Promise<SessionContext> {
  const { config } = opts
  // Tokens and step files never reach the agent or a hook (docs/action.md#what-the-agent-can-see).
  const env = agentEnvironment(opts.env ?? process.env, config.agent.env_passthrough)
  const dirs = ensureStateDir(opts.cwd)
  // Orphans are reaped before the agent starts (a crashed session's agent must not write into this one);
  // pruning old run records and the stale-index sweep are housekeeping, after the spawn.
  const reaped = await reconcileOrphans(dirs.state, {
    graceMs: Math.min(config.timeouts.grace, 2_000),
    prune: false,
  })
  const sessionId = opts.sessionId ? sanitizeRefPart(opts.sessionId) : makeSessionId(env)
  const dir = sessionDir(dirs, sessionId)
  const mode = config.agent.pty ? 'pty' : 'pipe'
  const usage = { meter: opts.usage ?? new UsageMeter(), pricer: opts.pricer ?? pricerFor(config) }
  const report = openReport(opts, { sessionId, dir, mode, usage })
  const progress = () => opts.listener?.progress?.(report.snapshot())
  await recordContinuation(opts, report)
  recordReaped(report, reaped)

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
  const halts = new Halts(report)
  const unlisten = halts.listen(opts.installSignalHandlers, opts.signal)
  const hiddenPaths = new Set<string>()
  const parts = { env, sessionId, dir, report, lifecycle, hiddenPaths, progress }
  const checkpoints = openCheckpoints(opts, halts, reaped.length > 0, parts)
  halts.onInterrupt(() => checkpoints.interrupted(INTERRUPT_GRACE_MS))

  let sweep: Promise<unknown> | null = null
  let stopRound: Promise<StopRound> | null = null
  const firstRound = opts.continuing?.firstRound ?? 1
  const ctx: SessionContext = {
    opts,
    config,
    env,
    registryDir: dirs.state,
    sessionId,
    dir,
    mode,
    firstRound,
    round: firstRound,
    usage,
    report,
    lifecycle,
    checkpoints,
    halts,
    hiddenPaths,
    progress,
    housekeeping: () =>
      (sweep ??= new Promise((resolve) => setImmediate(resolve))
        .then(() => pruneFinished(dirs.state))
        .then(() => removeStaleRepoIndexes(opts.cwd, liveSessions(dirs.state), sessionId))
        .catch(() => [])),
    // The one deferred import of the stop round: its code (the stop hooks' runner, the policy gate, how the
    // agent is sent back, the rounds' summary) loads at the first stop, ~20 ms kept off the agent's start.
    stopRound: () => (stopRound ??= import('./stop-round.js').then((m) => new m.StopRound(ctx))),
    unlisten,
  }
  return ctx
}

/** The session's report builder, its first event recorded and its events passed on to the listener. */
function openReport(
  opts: SessionOptions,
  o: { sessionId: string; dir: string; mode: 'pty' | 'pipe'; usage: SessionContext['usage'] },
): ReportBuilder {
  const report = new ReportBuilder({
    sessionId: o.sessionId,
    command: commandArgv(opts.command),
    cwd: opts.cwd,
    mode: o.mode,
    transcriptPath: join(o.dir, 'transcript.log'),
    ci: opts.ci,
    ...o.usage,
  })
  if (opts.listener?.event) report.onEvent = (event) => opts.listener?.event?.(event)
  report.event(
    'session_start',
    `session ${o.sessionId} started: ${describeCommand('shell' in opts.command ? opts.command.shell : commandArgv(opts.command))}`,
  )
  return report
}

/** The session's checkpoints: they pause the running agent while they snapshot, and halt it past max_failures. */
function openCheckpoints(
  opts: SessionOptions,
  halts: Halts,
  reapedAny: boolean,
  o: Pick<SessionContext, 'env' | 'sessionId' | 'dir' | 'report' | 'lifecycle' | 'hiddenPaths' | 'progress'>,
): SessionCheckpoints {
  const { config } = opts
  return new SessionCheckpoints({
    config,
    cwd: opts.cwd,
    sessionId: o.sessionId,
    sessionDir: o.dir,
    report: o.report,
    lifecycle: o.lifecycle,
    hiddenPaths: o.hiddenPaths,
    pauser: {
      pause: () => halts.run?.pause(),
      resume: () => halts.run?.resume(),
    },
    onChange: o.progress,
    env: o.env,
    ...(opts.pushSecretConfig ? { pushSecretConfig: opts.pushSecretConfig } : {}),
    onFatal: (reason) => halts.checkpointsFailed(reason),
    onNotice: (message) => opts.listener?.notice?.(message),
    onProgress: (progress) => opts.listener?.checkpointProgress?.(progress),
    // Reads begun before the session are of the repository as it is before the agent starts only when
    // nothing ran since: no orphan was reaped (it may have written until then) and no session_start hook
    // runs before the checkpoints start (it may commit or change the git config).
    reads: !reapedAny && !config.hooks.session_start?.length ? opts.checkpointReads : null,
  })
}

/** A later round of a session that ended: the earlier rounds stay in this report, and the agent's own session. */
async function recordContinuation(opts: SessionOptions, report: ReportBuilder): Promise<void> {
  if (!opts.continuing) return
  // Deferred: resume.ts (with the trigger's text cleaning it imports) costs ~15 ms to load, and only
  // `proctor run --continue` reads it.
  const { earlierResults } = await import('./resume.js')
  for (const result of earlierResults(opts.continuing)) report.stopHook(result)
  const { agent_session_id: agentSession } = opts.continuing.previous
  if (typeof agentSession === 'string' && isAgentSessionId(agentSession)) report.agentSession(agentSession)
  const firstRound = opts.continuing.firstRound
  report.event('continue', `round ${firstRound}: continuing after ${firstRound - 1} earlier round(s)`)
}

function recordReaped(report: ReportBuilder, reaped: readonly ReconcileOutcome[]): void {
  for (const orphan of reaped) {
    report.event(
      'warning',
      `reconciled a run left by a crashed proctor: ${orphan.label} pid ${orphan.pid} (${orphan.action})`,
      {
        data: { ...orphan },
      },
    )
  }
}

/** Fires a lifecycle hook event; its failures are its own warnings and never end a session. */
export async function fire(
  lifecycle: LifecycleHooks,
  event: Parameters<LifecycleHooks['fire']>[0],
  extra: Record<string, unknown>,
): Promise<void> {
  try {
    await lifecycle.fire(event, extra)
  } catch {
    // Lifecycle hooks report their own failures as warnings; they never end a session.
  }
}

export function commandArgv(command: CommandSpec): string[] {
  return 'shell' in command ? ['/bin/sh', '-c', command.shell] : [command.file, ...command.args]
}
