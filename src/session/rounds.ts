// The session's rounds: what starts before the first (the metering proxy, `session_start`, the baseline
// checkpoint, the agent's own Stop hook wired to proctor), then one agent attempt per round until an ending:
// a halt (halts.ts), what the attempt decided by itself (endings.ts), or the stop round's step — stop, give
// up, or re-run agent.continue with the reasons.
import { loadNodePty } from '../supervisor/pty.js'
import type { CommandSpec } from '../supervisor/types.js'
import type { SessionProxy } from '../proxy/session-proxy.js'
import { lifecycleExtra } from '../hooks/payloads.js'
import { commandArgv, fire, type SessionContext } from './context.js'
import { completed, endingOfAttempt, type Ending } from './endings.js'
import { prepareNativeHooks, type PreparedNativeHooks } from './native-hooks.js'
import type { NativeStops } from './native-stop.js'
import { superviseAgent, type AttemptResult } from './attempt.js'
import { startModelApiProxy } from './proxy.js'

/** What the rounds started and leave for the session's end (finish.ts). */
export interface SessionWork {
  modelProxy: SessionProxy | null
  /** The agent's own Stop hook handing each stop to this session (agent.adapter), or null. */
  nativeStops: NativeStops | null
  /** The agent's command with its native hook wired, and how to put its settings back. */
  native: PreparedNativeHooks | null
  outputTail: string
  transcript: { bytes: number; capped: boolean }
}

export function newWork(): SessionWork {
  return {
    modelProxy: null,
    nativeStops: null,
    native: null,
    outputTail: '',
    transcript: { bytes: 0, capped: false },
  }
}

/**
 * Everything before the first round; the agent has not been spawned when it returns. Returns the agent's
 * command with its native Stop hook wired (as given for a generic agent).
 */
export async function beginSession(ctx: SessionContext, work: SessionWork): Promise<PreparedNativeHooks> {
  const { opts, checkpoints, report } = ctx
  // Before anything that sees the environment runs (session_start hooks, the agent): the model key is
  // swapped for the proxy's placeholder there.
  work.modelProxy = await startModelApiProxy(ctx)
  await fire(
    ctx.lifecycle,
    'session_start',
    lifecycleExtra.session_start(commandArgv(opts.command), opts.cwd, ctx.mode),
  )
  const starting = checkpoints.start()
  // A PTY agent needs node-pty's native module (~7 ms to load): loaded while the git processes the
  // checkpoints wait for run (`proctor run` started them before it read the config). If it cannot
  // load, the spawn says so.
  if (ctx.mode === 'pty') {
    try {
      loadNodePty()
    } catch {
      // reported by the spawn
    }
  }
  await starting
  opts.listener?.started?.(report.snapshot())
  return wireNativeStop(ctx, work)
}

/** The agent's own Stop hook (agents/native) hands each stop to this session's stop round. */
async function wireNativeStop(ctx: SessionContext, work: SessionWork): Promise<PreparedNativeHooks> {
  const { config, opts, report } = ctx
  const adapter = config.agent.adapter
  work.nativeStops =
    adapter === 'generic'
      ? null
      : // Deferred: the native adapters and their relay socket cost ~25 ms to load, and a generic agent
        // (no agent.adapter) never uses them.
        new (await import('./native-stop.js')).NativeStops({
          adapter,
          sessionId: ctx.sessionId,
          maxStopRounds: config.max_stop_rounds,
          report,
          firstRound: () => ctx.round,
          evaluate: (round, finalText) =>
            ctx
              .stopRound()
              .then((stopRound) => stopRound.evaluate({ round, finalText, stopReason: 'native' }))
              .finally(ctx.progress),
        })
  const target = await work.nativeStops?.start()
  const native = await prepareNativeHooks(
    config,
    opts.command,
    opts.cwd,
    opts.configFile ?? null,
    ctx.env,
    target,
  )
  for (const file of native.files) ctx.hiddenPaths.add(file)
  Object.assign(ctx.env, native.env)
  work.native = native
  if (native.active)
    report.event('session_start', `wired proctor into ${adapter}'s own Stop hook: ${native.summary}`)
  return native
}

/** One agent attempt per round until the session has its ending. */
export async function runRounds(
  ctx: SessionContext,
  work: SessionWork,
  native: PreparedNativeHooks,
): Promise<Ending> {
  // The proxy's arguments (Codex's provider) go on every run, agent.continue's re-runs too.
  const pointed = (c: CommandSpec) => work.modelProxy?.command(c) ?? c
  let command = pointed(native.command)
  for (;;) {
    // Interrupted between rounds (e.g. during the stop hooks): no new agent run starts.
    const halted = ctx.halts.pending()
    if (halted) return halted
    ctx.report.round(ctx.round)
    const attempt = await superviseAgent(ctx, {
      command,
      native: native.active ? work.nativeStops : null,
      metered: work.modelProxy !== null,
    })
    ctx.halts.run = null
    // An answer the agent hung up on is still read for its usage: what it spent counts before the stop.
    if (attempt.exit.cause === null && !ctx.halts.signal)
      await work.modelProxy?.settled(ctx.halts.hooks.signal)
    keepAttempt(ctx, work, attempt)
    const ending = ctx.halts.pending() ?? endingOfAttempt(attempt, ctx.halts.signal, ctx.config)
    if (ending) return ending
    // The agent's own Stop hook already ran the stop hooks; they are not run again.
    const nativeEnding = work.nativeStops?.ending()
    if (nativeEnding) return completed(nativeEnding.verdict, nativeEnding.reason)
    const next = await stopAfterExit(ctx, work, attempt)
    if (next.kind === 'halted') continue // the top of the loop records the halt
    if (next.kind === 'end') return next.ending
    ctx.round++
    command = pointed(native.wire(next.command))
  }
}

function keepAttempt(ctx: SessionContext, work: SessionWork, attempt: AttemptResult): void {
  work.outputTail = attempt.outputTail
  work.transcript = {
    bytes: work.transcript.bytes + attempt.transcript.bytes,
    capped: work.transcript.capped || attempt.transcript.capped,
  }
  ctx.round = attempt.round
}

/** After a stop round: the session ends, the agent is re-run with this command, or a halt came meanwhile. */
type AfterStop =
  { kind: 'end'; ending: Ending } | { kind: 'rerun'; command: CommandSpec } | { kind: 'halted' }

/** The agent finished by itself: the stop round decides whether it may stop. */
async function stopAfterExit(
  ctx: SessionContext,
  work: SessionWork,
  attempt: AttemptResult,
): Promise<AfterStop> {
  const { report, halts } = ctx
  const adapter = ctx.config.agent.adapter
  const nativeActive = work.native?.active === true
  if (nativeActive) {
    report.event(
      'warning',
      `${adapter} never called proctor's Stop hook: proctor runs the stop hooks itself now that it exited`,
    )
  }
  const stopRound = await ctx.stopRound()
  const { reasons, step } = await stopRound.decide(
    { round: ctx.round, finalText: attempt.outputTail, stopReason: 'completed' },
    {
      running: false,
      nativeHooks: nativeActive && (work.nativeStops?.called ?? false),
      nativeNote: nativeActive ? `${adapter} never called proctor's Stop hook, and ` : '',
    },
  )
  ctx.progress()
  if (halts.signal || halts.fatal) return { kind: 'halted' }
  if (step.kind !== 'continue') {
    const ending = completed(
      step.kind,
      step.kind === 'block' ? step.reason : null,
      step.kind === 'block' ? step.cause : undefined,
    )
    return { kind: 'end', ending }
  }
  if (step.plan.kind !== 'rerun') throw new Error('unreachable: an exited agent is re-run')
  report.event('continue', `round ${ctx.round + 1}: re-running the agent with agent.continue`, {
    data: { reasons },
  })
  return { kind: 'rerun', command: step.plan.command }
}
