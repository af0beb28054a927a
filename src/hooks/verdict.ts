// How a finished stop hook's exit code and output become a verdict. Users reuse their Claude Code, Codex,
// Gemini CLI and Hermes hook scripts, so their JSON shapes are understood too (docs/hooks.md lists them).

export type StopHookOutcomeVerdict = 'allow' | 'block' | 'error'

export interface StopHookOutcome {
  /** Exit code, or null when the hook was killed by a signal or never started. */
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  stdout: string
  stderr: string
  /** Set when the hook could not be started at all (missing executable...). */
  spawnError?: string
  /** The hook's timeout, for the error message. */
  timeoutMs?: number
}

export interface InterpretedVerdict {
  verdict: StopHookOutcomeVerdict
  reason: string | null
}

/** Reasons go back to the agent and into reports: long enough for a test summary, short enough to read. */
export const MAX_REASON_CHARS = 4000

/** The decision a hook's JSON stdout makes, if it makes one. */
export interface JsonDecision {
  decision: 'allow' | 'block' | null
  reason: string | null
}

export function interpretStopHook(outcome: StopHookOutcome): InterpretedVerdict {
  if (outcome.spawnError !== undefined) return { verdict: 'error', reason: cap(outcome.spawnError) }
  if (outcome.timedOut) {
    const limit = outcome.timeoutMs !== undefined ? ` after ${outcome.timeoutMs}ms` : ''
    return { verdict: 'error', reason: withTail(`timed out${limit}`, outcome.stderr) }
  }
  if (outcome.exitCode === null) {
    return { verdict: 'error', reason: withTail(`killed by ${outcome.signal ?? 'a signal'}`, outcome.stderr) }
  }
  const json = parseJsonDecision(outcome.stdout)
  if (outcome.exitCode === 0) {
    if (json.decision === 'block')
      return { verdict: 'block', reason: cap(json.reason ?? 'blocked (no reason given)') }
    return { verdict: 'allow', reason: null }
  }
  if (outcome.exitCode === 2) {
    // Exit 2 always blocks (as in Claude Code): even an "approve" in the JSON cannot undo it.
    const reason =
      json.reason ?? nonEmpty(outcome.stderr) ?? nonEmpty(outcome.stdout) ?? 'exited 2 without a reason'
    return { verdict: 'block', reason: cap(reason) }
  }
  return {
    verdict: 'error',
    reason: withTail(`exited with code ${outcome.exitCode}`, outcome.stderr || outcome.stdout),
  }
}

/**
 * Reads a decision from stdout when it is one JSON object (leading whitespace allowed, as Claude Code does).
 * Accepted blocking shapes: {"decision":"block"|"deny", "reason"}, {"continue":false, "stopReason"},
 * {"action":"block"|"continue", "message"} (Hermes) and {"hookSpecificOutput":{"additionalContext"}} (Claude
 * Code's "keep going" feedback). {"decision":"approve"|"allow"} allows explicitly.
 */
export function parseJsonDecision(stdout: string): JsonDecision {
  const text = stdout.trim()
  if (!text.startsWith('{')) return { decision: null, reason: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { decision: null, reason: null }
  }
  if (!isRecord(value)) return { decision: null, reason: null }
  const decision = typeof value.decision === 'string' ? value.decision.toLowerCase() : null
  const action = typeof value.action === 'string' ? value.action.toLowerCase() : null
  const reason = firstString(value.reason, value.message)
  if (value.continue === false) {
    return {
      decision: 'block',
      reason: firstString(value.stopReason, value.reason) ?? 'asked not to continue',
    }
  }
  if (decision === 'block' || decision === 'deny' || action === 'block' || action === 'continue') {
    return { decision: 'block', reason }
  }
  const specific = isRecord(value.hookSpecificOutput) ? value.hookSpecificOutput : null
  const context = specific ? firstString(specific.additionalContext) : null
  if (context !== null && decision !== 'approve' && decision !== 'allow')
    return { decision: 'block', reason: context }
  if (decision === 'approve' || decision === 'allow') return { decision: 'allow', reason }
  return { decision: null, reason }
}

function withTail(head: string, output: string): string {
  const tail = lastLines(output, 5)
  return cap(tail ? `${head}: ${tail}` : head)
}

function lastLines(text: string, count: number): string {
  return text.trim().split(/\r?\n/).slice(-count).join('\n').trim()
}

function cap(text: string): string {
  const trimmed = text.trim()
  if (trimmed.length <= MAX_REASON_CHARS) return trimmed
  return `${trimmed.slice(0, MAX_REASON_CHARS)}… (${trimmed.length - MAX_REASON_CHARS} more characters)`
}

function nonEmpty(text: string): string | null {
  const trimmed = text.trim()
  return trimmed.length > 0 ? trimmed : null
}

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value.trim().length > 0) return value.trim()
  return null
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
