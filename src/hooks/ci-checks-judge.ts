// The `ci-checks` stop hook's judgement of one read of a commit's CI, and the reason sent back to the agent.
// Pure: the hook (ci-checks.ts) reads GitHub and waits; this decides and words.
import { isProctorCheck, type CiAnnotation, type CiCheckRun, type CiStatus } from '../github/ci-status.js'
import { stripControl } from '../util/sanitize.js'
import { cap, FAILURE_TAIL_BYTES, FAILURE_TAIL_LINES, tailOf } from './verdict.js'

export type CheckState = 'pass' | 'fail' | 'pending'

/** One check as CI reports it: a check run (latest of its name) or a commit status (latest of its context). */
export interface CiCheck {
  name: string
  kind: 'check run' | 'status'
  state: CheckState
  /** The conclusion, status or state GitHub gave (`failure`, `in_progress`, `error`...). */
  detail: string
  run: CiCheckRun | null
  description: string | null
}

/** A check run's conclusions that branch protection counts as passing. */
const PASSING = new Set(['success', 'neutral', 'skipped'])

/** Latest check run per name and latest status per context, proctor's own left out. */
export function currentChecks(runs: readonly CiCheckRun[], statuses: readonly CiStatus[]): CiCheck[] {
  const latest = new Map<string, CiCheckRun>()
  for (const run of runs) {
    if (isProctorCheck(run.name)) continue
    const seen = latest.get(run.name)
    if (!seen || run.id > seen.id) latest.set(run.name, run)
  }
  const checks: CiCheck[] = [...latest.values()].map((run) => ({
    name: run.name,
    kind: 'check run',
    state: run.status !== 'completed' ? 'pending' : PASSING.has(run.conclusion ?? '') ? 'pass' : 'fail',
    detail: run.status !== 'completed' ? run.status : (run.conclusion ?? 'no conclusion'),
    run,
    description: run.title,
  }))
  for (const status of statuses) {
    if (isProctorCheck(status.context) || latest.has(status.context)) continue
    checks.push({
      name: status.context,
      kind: 'status',
      state: status.state === 'success' ? 'pass' : status.state === 'pending' ? 'pending' : 'fail',
      detail: status.state,
      run: null,
      description: status.description,
    })
  }
  return checks.sort((a, b) => a.name.localeCompare(b.name))
}

export interface Judgement {
  failing: CiCheck[]
  /** Names still running, queued, or (for a watched name) not reported at all yet. */
  pending: string[]
  passing: CiCheck[]
}

/**
 * `watched`: the names that must pass (required or configured); null: every check on the commit. A watched
 * name with no check run or status yet is pending: CI may not have picked the commit up.
 */
export function judgeChecks(checks: readonly CiCheck[], watched: readonly string[] | null): Judgement {
  const byName = new Map(checks.map((c) => [c.name, c]))
  const relevant = watched ? watched.map((name) => byName.get(name) ?? name) : [...checks]
  const out: Judgement = { failing: [], pending: [], passing: [] }
  for (const check of relevant) {
    if (typeof check === 'string') out.pending.push(`${check} (not reported yet)`)
    else if (check.state === 'fail') out.failing.push(check)
    else if (check.state === 'pending') out.pending.push(`${check.name} (${check.detail})`)
    else out.passing.push(check)
  }
  return out
}

/** What was learnt about one failing check: its annotations and the tail of its job's log. */
export interface FailureDetail {
  check: CiCheck
  annotations: CiAnnotation[]
  log: { text: string } | { unavailable: string } | null
}

/** Annotations quoted per failing check. */
export const MAX_ANNOTATIONS = 10

/**
 * The reason sent back to the agent: which checks failed on which commit, their annotations and log tails,
 * and what is still pending. Escape sequences and controls removed; at most MAX_REASON_CHARS characters,
 * the log tails sharing the budget of one failed hook's output (FAILURE_TAIL_LINES / FAILURE_TAIL_BYTES).
 */
export function failureReason(o: {
  sha: string
  branch: string
  details: readonly FailureDetail[]
  pending: readonly string[]
  watchedFrom: string
}): string {
  const share = Math.max(1, o.details.length)
  const lines = [
    `CI failed on ${o.sha.slice(0, 12)} (pushed to ${o.branch}; checks: ${o.watchedFrom}): ${o.details.map((d) => d.check.name).join(', ')}`,
  ]
  for (const { check, annotations, log } of o.details) {
    lines.push(
      `- ${check.name} (${check.kind}, ${check.detail})${check.description ? `: ${check.description}` : ''}`,
    )
    for (const a of annotations)
      lines.push(
        `  ${a.path}:${a.line}: ${a.level ?? 'note'}: ${a.title ? `${a.title}: ` : ''}${a.message}`.replace(
          /\n+/g,
          ' ',
        ),
      )
    if (log && 'text' in log) {
      const tail = tailOf(
        stripTimestamps(stripControl(log.text)),
        Math.floor(FAILURE_TAIL_LINES / share),
        Math.floor(FAILURE_TAIL_BYTES / share),
      ).trim()
      if (tail) lines.push('  log (last lines):', ...tail.split('\n').map((line) => `    ${line}`))
    } else if (log) lines.push(`  (${log.unavailable})`)
  }
  if (o.pending.length) lines.push(`still pending: ${o.pending.join(', ')}`)
  return cap(stripControl(lines.join('\n')))
}

/** Actions prefixes every log line with its time (`2026-01-01T00:00:00.1234567Z `): noise to the agent. */
function stripTimestamps(text: string): string {
  return text.replace(/^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/gm, '')
}
