// Running detect rules so that no pattern can stall the supervisor (its timers, timeouts, signals all
// share this thread):
// - V8's linear-time engine takes over any match that backtracks excessively (the flag below), so a
//   pattern like (a+)+$ that slipped past the load-time check costs milliseconds, not minutes;
// - each line is matched on at most MAX_MATCH_INPUT characters, so a long line bounds the work;
// - a match that still takes longer than SLOW_MATCH_MS (patterns V8 cannot run linearly: back-references,
//   lookarounds) disables its rule for the rest of the session, with a warning.
import v8 from 'node:v8'

/** Characters of one line given to a rule; the rest of a longer line is not matched. */
export const MAX_MATCH_INPUT = 4096
/** A single match slower than this disables its rule. */
export const SLOW_MATCH_MS = 100

let fallbackEnabled = false

/** Turns on V8's fallback to its linear engine (idempotent; applies to every later match). */
export function enableLinearFallback(): void {
  if (fallbackEnabled) return
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks')
  fallbackEnabled = true
}

enableLinearFallback()

/** One bounded, timed match. */
export function boundedExec(regex: RegExp, text: string): { match: RegExpExecArray | null; ms: number } {
  const input = text.length > MAX_MATCH_INPUT ? text.slice(0, MAX_MATCH_INPUT) : text
  const started = performance.now()
  const match = regex.exec(input)
  return { match, ms: performance.now() - started }
}
