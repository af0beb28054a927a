// Catastrophic-backtracking check for the regular expressions a config gives proctor (detect rules).
// safe-regex2 (maintained by the Fastify team, no network, plain JS) flags nested quantifiers such as
// `(a+)+`, whose matching time grows exponentially with the line: one such rule froze the supervisor.
import safeRegex from 'safe-regex2'

/** Null when `pattern` is safe; otherwise why not and how to fix it. */
export function catastrophicRegex(pattern: string, flags = ''): { message: string; hint: string } | null {
  let regex: RegExp
  try {
    regex = new RegExp(pattern, flags)
  } catch {
    return null // invalid patterns are reported on their own
  }
  if (safeRegex(regex)) return null
  return {
    message:
      `${JSON.stringify(pattern)} can backtrack catastrophically (a quantifier inside a quantified group, ` +
      'such as (a+)+): matching one long line could take minutes',
    hint: 'drop the inner or the outer quantifier, e.g. write (a+)+$ as a+$ and (\\w+\\s?)+ as [\\w\\s]+',
  }
}
