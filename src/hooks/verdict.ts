// How a finished stop hook's exit code and output become a verdict. Users reuse their Claude Code, Codex,
// Gemini CLI and Hermes hook scripts, so their JSON shapes are understood too (docs/hooks.md lists them).
// Fail closed: a hook that exits non-zero (`npm test` failing exits 1) has failed, and its output is what
// the agent needs to fix it; only a hook that could not run at all is an error, which the user must fix.
import type { FailureLocation } from '../report/model.js'
import { createSanitizer, stripControl } from '../util/sanitize.js'
import { summarizeFailure, withoutBanners } from './failure-lines.js'

/**
 * allow: exit 0. block: exit 2 or a blocking JSON answer. fail: any other exit (or a crash by a signal) —
 * the agent gets the hook's output. error: the hook could not run (not found, not executable, timed out,
 * stopped by proctor) — the agent cannot fix that, the user can.
 */
export type StopHookOutcomeVerdict = 'allow' | 'block' | 'fail' | 'error'

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
  /** Why proctor stopped the hook, when it did (shutdown...): an error, not the hook's failure. */
  stoppedBy?: string | null
  /** The hook's name and command, for reasons like "tests (npm test) exited 1: …". */
  name?: string
  command?: string
  /** Values to redact from the output quoted in a reason (tokens); token-shaped strings are redacted anyway. */
  secrets?: readonly string[]
  /** The hook's working directory: absolute paths under it in the output become repository paths. */
  cwd?: string
}

export interface InterpretedVerdict {
  verdict: StopHookOutcomeVerdict
  reason: string | null
  /** Files and lines a failed hook's output names. */
  locations?: FailureLocation[]
}

/** Reasons go back to the agent and into reports: long enough for a test summary, short enough to read. */
export const MAX_REASON_CHARS = 4000
/** How much of a failed hook's output its reason quotes: the end, where test runners summarize. */
export const FAILURE_TAIL_LINES = 60
export const FAILURE_TAIL_BYTES = 4096

/** The decision a hook's JSON stdout makes, if it makes one. */
export interface JsonDecision {
  decision: 'allow' | 'block' | null
  reason: string | null
}

export function interpretStopHook(outcome: StopHookOutcome): InterpretedVerdict {
  const who = label(outcome)
  if (outcome.spawnError !== undefined) {
    return { verdict: 'error', reason: cap(`${outcome.spawnError}; fix its command in proctor.yml`) }
  }
  if (outcome.timedOut) {
    const limit = outcome.timeoutMs !== undefined ? ` after ${outcome.timeoutMs}ms` : ''
    return {
      verdict: 'error',
      reason: withTail(
        `${who} timed out${limit}; raise its timeout in proctor.yml or make it faster`,
        outcome.stderr,
      ),
    }
  }
  if (outcome.stoppedBy) {
    return { verdict: 'error', reason: `${who} was stopped (${outcome.stoppedBy}) before it finished` }
  }
  if (outcome.exitCode === 126 || outcome.exitCode === 127) {
    // The shell's "cannot execute" and "command not found": the hook never ran its check.
    const what = outcome.exitCode === 127 ? 'command not found' : 'command not executable'
    return {
      verdict: 'error',
      reason: withTail(
        `${who} could not run (exit ${outcome.exitCode}: ${what}); fix its command in proctor.yml`,
        outcome.stderr || outcome.stdout,
      ),
    }
  }
  if (outcome.exitCode === null) {
    return {
      verdict: 'fail',
      ...failureReason(`${who} was killed by ${outcome.signal ?? 'a signal'}`, outcome),
    }
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
  return { verdict: 'fail', ...failureReason(`${who} exited ${outcome.exitCode}`, outcome) }
}

/** "tests (npm test)", or "the hook" when the caller did not say. */
function label(outcome: StopHookOutcome): string {
  if (outcome.name === undefined) return 'the hook'
  return outcome.command ? `${outcome.name} (${outcome.command})` : outcome.name
}

/**
 * "<head>: <the lines that say what failed>", then the last lines of the hook's output (stdout, then
 * stderr) without package-manager banners, redacted and stripped of escape sequences. The first line is
 * what a check's title and the comment show, so it names the failure when a test runner's was recognised.
 */
function failureReason(
  head: string,
  outcome: StopHookOutcome,
): { reason: string; locations?: FailureLocation[] } {
  const redact = createSanitizer({ secrets: [...(outcome.secrets ?? [])] }).redact
  const output = withoutBanners(
    redact(
      [outcome.stdout, outcome.stderr]
        .map((text) => stripControl(text).trimEnd())
        .filter((text) => text.trim().length > 0)
        .join('\n'),
    ),
  )
  const shortHead = head.length > 300 ? `${head.slice(0, 300)}…` : head
  const failure = summarizeFailure(output, outcome.cwd)
  const failures = failure.lines.join('\n')
  const lead = failures ? `${shortHead}: ${failures}` : shortHead
  // The whole reason stays under MAX_REASON_CHARS by shortening the tail's start, never its end.
  const budget = Math.min(FAILURE_TAIL_BYTES, MAX_REASON_CHARS - lead.length - 30)
  const tail = budget > 200 ? tailOf(output, FAILURE_TAIL_LINES, budget).trim() : ''
  const locations = failure.locations.length > 0 ? { locations: failure.locations } : {}
  if (!failures)
    return { reason: tail ? `${shortHead}: ${tail}` : `${shortHead} without output`, ...locations }
  return { reason: tail ? `${lead}\n\nEnd of its output:\n${tail}` : lead, ...locations }
}

/** The last `lines` lines, at most `bytes` bytes of UTF-8, cut at a line start where possible. */
export function tailOf(text: string, lines: number, bytes: number): string {
  let tail = text.replace(/^\n+/, '').split('\n').slice(-lines).join('\n')
  const buffer = Buffer.from(tail, 'utf8')
  if (buffer.length > bytes) {
    tail = buffer
      .subarray(buffer.length - bytes)
      .toString('utf8')
      .replace(/^\uFFFD+/, '')
    const newline = tail.indexOf('\n')
    if (newline >= 0 && newline < tail.length - 1) tail = tail.slice(newline + 1)
    tail = `…\n${tail}`
  }
  return tail
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

/** A reason at most MAX_REASON_CHARS long, saying how much was cut. */
export function cap(text: string): string {
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
