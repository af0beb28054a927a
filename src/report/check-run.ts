// What check runs say: a stop hook's check (title, summary, output), a violation's annotation, the policy
// check. Rendered here, in the words of every other rendering (words.ts); github/checks.ts only sends it.
import type { SessionReport, Severity, StopHookResult, Violation } from './model.js'
import { describeUsage, firstLine, hookWord } from './words.js'
import type { Sanitizer } from '../util/sanitize.js'
import { stripControl } from '../util/sanitize.js'
import { formatDuration } from '../util/units.js'

/** GitHub's limits on a check run's output. */
export const CHECK_LIMITS = { title: 255, summary: 65_535, text: 65_535, annotationsPerRequest: 50 } as const

export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'timed_out'
export type ApiAnnotationLevel = 'notice' | 'warning' | 'failure'

export interface CheckOutput {
  title: string
  summary: string
  text?: string
}

export interface CheckAnnotation {
  path: string
  start_line: number
  end_line: number
  annotation_level: ApiAnnotationLevel
  title: string
  message: string
}

const LEVEL_OF: Record<Severity, ApiAnnotationLevel> = {
  info: 'notice',
  warning: 'warning',
  error: 'failure',
  critical: 'failure',
}

/** A finished stop hook's check: "<word>: <first line of its reason>", the facts, its output's tail. */
export function hookCheckOutput(
  result: StopHookResult,
  conclusion: CheckConclusion,
  s: Sanitizer,
): CheckOutput {
  const word = conclusion === 'cancelled' ? 'cancelled' : hookWord(result)
  const first = result.reason ? firstLine(stripControl(s.redact(result.reason))) : undefined
  const title = cap(first ? `${word}: ${first}` : word, CHECK_LIMITS.title)
  const facts = [
    `**${word}** after ${formatDuration(result.duration_ms)}`,
    `exit code: ${result.exit_code ?? '—'}`,
    `round: ${result.round}`,
  ].join(' · ')
  const summary = cap(facts, CHECK_LIMITS.summary)
  if (!result.reason) return { title, summary }
  return { title, summary, text: s.forCodeBlock(result.reason, CHECK_LIMITS.text, { keep: 'tail' }) }
}

/** A failed hook's annotations: the failing tests' files and lines its output named (at most one request's worth). */
export function hookAnnotations(result: StopHookResult, s: Sanitizer): CheckAnnotation[] {
  return (result.locations ?? []).slice(0, CHECK_LIMITS.annotationsPerRequest).map((where) => ({
    path: s.redact(stripControl(where.file)),
    start_line: where.line,
    end_line: where.line,
    annotation_level: 'failure',
    title: cap(`${result.name}: ${hookWord(result)}`, 255),
    message: cap(stripControl(s.redact(where.message)) || hookWord(result), 64_000),
  }))
}

/** The workflow annotation of a hook that did not pass (the fallback when check runs are refused). */
export function hookAnnotationText(result: StopHookResult, s: Sanitizer): string {
  return `${hookWord(result)}: ${result.reason ? s.forLog(result.reason) : 'no reason given'}`
}

/** A check still open when the session ended: completed as cancelled, titled with why. */
export function cancelledOutput(reason: string, s: Sanitizer): CheckOutput {
  return {
    title: s.redact(stripControl(reason)).slice(0, CHECK_LIMITS.title) || 'cancelled',
    summary: s.forMarkdown(reason, 4000),
  }
}

/** One violation as a check-run annotation on its file. */
export function violationAnnotation(v: Violation, s: Sanitizer): CheckAnnotation {
  const message = stripControl(s.redact(`${v.message}${v.suggestion ? `\nSuggestion: ${v.suggestion}` : ''}`))
  return {
    path: s.redact(stripControl(v.file)),
    start_line: v.line ?? 1,
    end_line: v.line ?? 1,
    annotation_level: LEVEL_OF[v.severity],
    title: cap(
      `${v.constraint} (${v.severity})${v.checkpoint === null ? '' : ` · checkpoint ${v.checkpoint}`}`,
      255,
    ),
    message: cap(message || v.constraint, 64_000),
  }
}

/** The `proctor / policy` check's title. */
export function policyCheckTitle(violations: readonly Violation[]): string {
  const n = violations.length
  return n === 0 ? 'No policy violations' : `${n} policy violation${n === 1 ? '' : 's'}`
}

/** The `proctor / policy` check's summary for one session. */
export function policyCheckSummary(report: SessionReport): string {
  const usage = describeUsage(report.usage)
  const summary = violationSummary(report)
  return usage ? `${summary}\n\nModel usage: ${usage}.` : summary
}

function violationSummary(report: SessionReport): string {
  const n = report.violations.length
  if (n === 0) return 'No policy violations in this session.'
  const bySeverity = ['critical', 'error', 'warning', 'info']
    .map((sev) => [sev, report.violations.filter((v) => v.severity === sev).length] as const)
    .filter(([, count]) => count > 0)
    .map(([sev, count]) => `${count} ${sev}`)
  const checkpoints = report.checkpoints.length
  return `${n} violation${n === 1 ? '' : 's'} (${bySeverity.join(', ')}) across ${checkpoints} checkpoint${checkpoints === 1 ? '' : 's'}. Each is annotated on its file.`
}

/** The `proctor / policy` check's summary when the publish job judged `sessions` handed-off sessions. */
export function verifiedPolicySummary(
  violations: readonly Violation[],
  sessions: number,
  /** Who judged them (default: the publish job over the handed-off sessions). */
  by?: string,
): string {
  const over = by ?? `the publish job over ${sessions} handed-off session${sessions === 1 ? '' : 's'}`
  const n = violations.length
  return n === 0
    ? `No policy violations (checked by ${over}).`
    : `${n} violation${n === 1 ? '' : 's'} found by ${over}. Each is annotated on its file.`
}

/** A title or summary cut to GitHub's limit (with an ellipsis). */
export function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
