// How blocked stop hooks' reasons reach the agent so it keeps working. The session owns the loop; this
// decides the route: native agent hooks, typing into a live PTY, or re-running a `continue` command.
import type { CommandSpec } from '../supervisor/types.js'
import { typedText } from '../util/sanitize.js'

export type AgentAdapterName = 'generic' | 'claude' | 'codex' | 'gemini' | 'copilot'

export interface AgentState {
  mode: 'pty' | 'pipe'
  /** The agent process is still alive and waiting for input (an interactive PTY agent). */
  running: boolean
  /** agent.continue from proctor.yml; `{reason}` (and `{round}`) are substituted per element. */
  continueCommand?: readonly string[]
  /** The agent's own Stop hook was wired to `proctor hook stop` (it blocks inside the agent's loop). */
  nativeHooks: boolean
  /** The labelled reasons from runStopHooks. */
  reasons: readonly string[]
  /** The round about to start (2 after the first block). */
  round: number
  /**
   * The agent CLI's own session to resume (`{agent_session}` in agent.continue), or null when proctor
   * knows none (the agent never called its Stop hook) or the CLI's session store no longer has it.
   */
  agentSession?: string | null
  /** What the earlier rounds did, for a fresh agent that cannot resume them (summarizeRounds). */
  history?: string
}

export type Continuation =
  | { kind: 'type-into-pty'; text: string }
  | { kind: 'rerun'; command: CommandSpec }
  | { kind: 'native' }
  | { kind: 'none'; why: string }

/** A reason typed into a TUI must stay one prompt: long enough to be useful, no keys smuggled in. */
export const MAX_TYPED_CHARS = 4000

export function planContinuation(adapter: AgentAdapterName, state: AgentState): Continuation {
  if (adapter !== 'generic' && state.nativeHooks) return { kind: 'native' }
  if (state.running && state.mode === 'pty')
    return { kind: 'type-into-pty', text: typedPrompt(state.reasons) }
  if (state.continueCommand && state.continueCommand.length > 0) {
    const message = continuationMessage(state.reasons)
    return {
      kind: 'rerun',
      command: continueCommand(state.continueCommand, {
        message,
        round: state.round,
        agentSession: state.agentSession ?? null,
        history: state.history,
      }),
    }
  }
  if (state.running) {
    return {
      kind: 'none',
      why: 'the agent runs without a terminal (pipe mode) and agent.continue is not set',
    }
  }
  return { kind: 'none', why: 'the agent has exited and agent.continue is not set in proctor.yml' }
}

/** The message the agent reads: which hooks blocked and why. */
export function continuationMessage(reasons: readonly string[]): string {
  const body = reasons.length > 0 ? reasons.map((reason) => `- ${reason}`).join('\n') : '- (no reason given)'
  return `proctor: the stop hooks did not pass, so the task is not finished yet. Fix these and continue:\n${body}`
}

/**
 * Text typed into an interactive agent: one line (a newline or ESC inside a reason could submit early or
 * press keys), capped, ending with Enter (\r).
 */
export function typedPrompt(reasons: readonly string[]): string {
  return `${typedLine(reasons)}\r`
}

/** typedPrompt without the Enter: the text proctor pastes before pressing Enter on its own. */
export function typedLine(reasons: readonly string[]): string {
  return typedText(continuationMessage(reasons), MAX_TYPED_CHARS)
}

/** In agent.continue: the agent CLI's own session id, so a continuation resumes that conversation. */
export const AGENT_SESSION_PLACEHOLDER = '{agent_session}'

/** What fills agent.continue: the message (`{reason}`), the round, and the session to resume if any. */
export interface ContinueFill {
  message: string
  round: number
  agentSession: string | null
  /** Put before the message when no session is resumed: the fresh agent's only account of earlier rounds. */
  history?: string | undefined
}

/** Whether agent.continue resumes the CLI's own session by id (it holds `{agent_session}`). */
export function resumesById(template: readonly string[]): boolean {
  return template.some((part) => part.includes(AGENT_SESSION_PLACEHOLDER))
}

/**
 * agent.continue with `{reason}`, `{round}` and `{agent_session}` filled in; each template element stays
 * exactly one argv element. Without a session to resume, the element holding `{agent_session}` is left
 * out together with the one before it (its option or subcommand: `--resume`, `resume`) unless that is
 * the program: `[claude, --resume, "{agent_session}", -p, "{reason}"]` becomes a fresh `claude -p …`,
 * whose `{reason}` then starts with the history of the earlier rounds.
 */
export function continueCommand(
  template: readonly string[],
  fill: ContinueFill,
): { file: string; args: string[] } {
  const resume = fill.agentSession !== null && fill.agentSession !== ''
  const message = !resume && fill.history ? `${fill.history}\n\n${fill.message}` : fill.message
  const kept: string[] = []
  for (const part of template) {
    if (!resume && part.includes(AGENT_SESSION_PLACEHOLDER)) {
      if (part === AGENT_SESSION_PLACEHOLDER && kept.length > 1) kept.pop()
      continue
    }
    kept.push(part)
  }
  // One pass with a callback: a reason that itself contains "{round}" or "$&" stays literal.
  const argv = kept.map((part) =>
    part.replace(/\{(reason|round|agent_session)\}/g, (_match, key: string) =>
      key === 'reason' ? message : key === 'round' ? String(fill.round) : fill.agentSession!,
    ),
  )
  const [file, ...args] = argv
  if (file === undefined) throw new Error('agent.continue must not be empty')
  return { file, args }
}

/** The message a continuation asked for by a person carries: who asked, and their words. */
export function feedbackMessage(feedback: string, author: string | null): string {
  const who = author ? `${author} reviewed your work and asks` : 'you are asked'
  return `proctor: ${who} to continue with this:\n${feedback}`
}
