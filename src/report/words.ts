// The words every rendering of a report uses for the same fact — terminal, job log, PR comment, job
// summary and check runs — so they cannot drift: a hook that could not run is a "hook error" everywhere.
import type { Severity, StopHookResult, UsageFigures } from './model.js'

export type HookWord = 'passed' | 'blocked' | 'hook error' | 'timed out'

/** How a stop hook ended, in one word. */
export function hookWord(result: Pick<StopHookResult, 'verdict' | 'timed_out'>): HookWord {
  if (result.timed_out) return 'timed out'
  return HOOK_WORDS[result.verdict]
}

const HOOK_WORDS: Record<StopHookResult['verdict'], HookWord> = {
  allow: 'passed',
  block: 'blocked',
  error: 'hook error',
}

/** The icon beside a hook word where markdown renders it (comment, job summary). */
export const HOOK_ICON: Record<HookWord, string> = {
  passed: '✅',
  blocked: '❌',
  'hook error': '⚠️',
  'timed out': '⏱️',
}

/**
 * The icon of a violation's severity wherever markdown shows one (a table row, a checkpoint's count): the
 * same as a blocked hook's for an error, since an error-level violation blocks like one.
 */
export const SEVERITY_ICON: Record<Severity, string> = {
  info: 'ℹ️',
  warning: '⚠️',
  error: '❌',
  critical: '🛑',
}

const SEVERITY_RANK: Severity[] = ['info', 'warning', 'error', 'critical']

/** The worst of some severities (a checkpoint's violations), or undefined for none. */
export function worstSeverity(severities: Iterable<Severity>): Severity | undefined {
  let worst: Severity | undefined
  for (const s of severities)
    if (worst === undefined || SEVERITY_RANK.indexOf(s) > SEVERITY_RANK.indexOf(worst)) worst = s
  return worst
}

/**
 * The part of a failed hook's reason that says what failed: its lines up to the first blank line (the
 * failure lines src/hooks/verdict.ts puts first), without the "End of its output" tail the check run keeps.
 */
export function reasonHead(text: string): string {
  return text.split(/\n[ \t]*\n/, 1)[0]!.trim()
}

/** The first line of a reason that says something, trimmed; undefined when there is none. */
export function firstLine(text: string | null | undefined): string | undefined {
  return text
    ?.split('\n')
    .find((line) => line.trim())
    ?.trim()
}

/**
 * What the worktree already held when the session started, never the agent's (report.baseline): "3 files
 * were already changed before the session; not judged".
 */
export function describePreExisting(count: number): string {
  return `${count} file${count === 1 ? ' was' : 's were'} already changed before the session; not judged`
}

/**
 * A session's or batch's model usage in one line, the same in every rendering: "12.3k tokens in (8.0k
 * cached) · 1.1k out · ≈ $0.04 (estimate)"; "cost unknown" when a model has no price; undefined when no usage
 * is known.
 */
export function describeUsage(usage: UsageFigures | undefined): string | undefined {
  if (!usage || usage.tokens === 0) return undefined
  const split = usage.input_tokens + usage.output_tokens
  const unsplit = usage.tokens - split
  const parts: string[] = []
  if (split > 0) {
    const cached = usage.cached_input_tokens ? ` (${formatTokens(usage.cached_input_tokens)} cached)` : ''
    parts.push(
      `${formatTokens(usage.input_tokens)} tokens in${cached}`,
      `${formatTokens(usage.output_tokens)} out`,
    )
  }
  // Codex's "tokens used N" does not say which were input and which output.
  if (unsplit > 0)
    parts.push(`${formatTokens(unsplit)} ${split > 0 ? 'more ' : ''}tokens (in and out not told apart)`)
  parts.push(usage.cost_usd === null ? 'cost unknown' : `≈ ${formatUsd(usage.cost_usd)} (estimate)`)
  return parts.join(' · ')
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.50M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n)
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`
  return `${(n / 1_000_000).toFixed(2)}M`
}

/** $12.34, $0.04; below a cent two significant digits ($0.0014), below a hundredth of a cent "< $0.0001". */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00'
  if (usd >= 0.01) return `$${usd.toFixed(2)}`
  if (usd < 0.0001) return '< $0.0001'
  return `$${Number(usd.toPrecision(2))}`
}

/** Why a file was left out of a checkpoint, in the words every rendering uses (CheckpointRecord.skipped_reasons). */
export function skipReasonWord(reason: string): string {
  switch (reason) {
    case 'size':
      return 'over max_file_size'
    case 'lfs':
      return 'LFS-tracked'
    case 'forbidden':
      return 'forbidden area'
    case 'secret':
      return 'holds a secret'
    case 'unrecordable':
      return 'git could not record it'
    default:
      return reason
  }
}
