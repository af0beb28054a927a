// How a session ends: every way (the stop hooks' verdict, a timeout, a detector, a signal, a failure) is one
// named Ending, and the Ending is what report.json and the exit code say. Only constructors and the
// decisions that pick one: after an agent run (endingOfAttempt), after a throw (endingOfError) and once the
// final checkpoint is in (finalEnding).
import type { Config } from '../config/schema.js'
import type { Verdict } from '../report/model.js'
import type { SessionEnd } from '../report/builder.js'
import type { AgentExit } from '../supervisor/agent-run.js'
import { exitCodeForSignal, type ShutdownSignal } from '../supervisor/signals.js'
import type { ProxyStop } from '../proxy/server.js'
import { SpawnError } from '../supervisor/types.js'
import { ExitCode } from '../cli/exit.js'
import { formatDuration } from '../util/units.js'
import type { SessionCheckpoints } from './checkpointing.js'

/** How a session ended: what report.json and the exit code say (the builder's SessionEnd without the output). */
export type Ending = Pick<SessionEnd, 'status' | 'verdict' | 'exitCode' | 'signal' | 'reason' | 'cause'>

/** What one agent run decided by itself, for endingOfAttempt (attempt.ts fills it). */
export interface AttemptOutcome {
  exit: AgentExit
  /** Set when stop hooks were evaluated while the agent was still running (interactive completion). */
  decided: { verdict: Verdict; reason: string | null; cause?: string } | null
  stopReason: string | null
  /** The agent gave up on a failure of its own (a detector rule of kind agent_error): the session's reason. */
  agentError: string | null
}

export const completed = (verdict: Verdict, reason: string | null, cause?: string): Ending => ({
  status: 'completed',
  verdict,
  exitCode: verdict === 'allow' ? 0 : 1,
  signal: null,
  reason,
  ...(cause ? { cause } : {}),
})

export const interrupted = (signal: ShutdownSignal): Ending => ({
  status: 'interrupted',
  verdict: 'block',
  exitCode: exitCodeForSignal(signal),
  signal,
  reason: `interrupted by ${signal}`,
})

export const errored = (reason: string, exitCode = 1): Ending => ({
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
export function endingOfProxyStop(stop: ProxyStop): Ending {
  if (stop.kind === 'budget') return { ...failed(stop.reason), status: 'budget', exitCode: ExitCode.budget }
  return failed(stop.reason)
}

/** A session that threw (the spawn failed, a hook could not start...): errored, or interrupted if a signal came. */
export function endingOfError(error: unknown, interruptedBy: ShutdownSignal | null): Ending {
  const message = (error as Error).message
  return interruptedBy
    ? { ...interrupted(interruptedBy), reason: message }
    : errored(message, error instanceof SpawnError ? 2 : 1)
}

/** The ending an agent run decides by itself (signal, timeout, detector, failure), or null: ask the stop hooks. */
export function endingOfAttempt(
  attempt: AttemptOutcome,
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

/**
 * The ending once the final checkpoint is in: checkpoints that failed beyond max_failures (or never
 * succeeded) make the session errored; unresolved error/critical violations make an allow a block.
 */
export function finalEnding(
  ending: Ending,
  checkpoints: SessionCheckpoints,
  wasInterrupted: boolean,
): Ending {
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
