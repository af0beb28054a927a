// How blocked stop hooks' reasons reach the agent so it keeps working. The session owns the loop; this
// decides the route: native agent hooks, typing into a live PTY, or re-running a `continue` command.
import type { CommandSpec } from '../supervisor/types.js'
import { typedText } from '../util/sanitize.js'

export type AgentAdapterName = 'generic' | 'claude' | 'codex' | 'gemini'

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
    return { kind: 'rerun', command: continueCommand(state.continueCommand, state.reasons, state.round) }
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

/** agent.continue with `{reason}`/`{round}` filled in; each template element stays exactly one argv element. */
export function continueCommand(
  template: readonly string[],
  reasons: readonly string[],
  round: number,
): CommandSpec {
  const reason = continuationMessage(reasons)
  // One pass with a callback: a reason that itself contains "{round}" or "$&" stays literal.
  const argv = template.map((part) =>
    part.replace(/\{(reason|round)\}/g, (_match, key: string) => (key === 'reason' ? reason : String(round))),
  )
  const [file, ...args] = argv
  if (file === undefined) throw new Error('agent.continue must not be empty')
  return { file, args }
}
