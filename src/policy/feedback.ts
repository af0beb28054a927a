// What the agent is told about the policy: the reasons the `policy` gate sends back with a blocked stop
// (one per unresolved error/critical violation), the warnings that ride along, and the one-line notice
// typed into an interactive agent at its idle prompt.
import type { Violation } from '../report/model.js'
import { typedText } from '../util/sanitize.js'

/** Caps a violation's text: a reason must stay readable inside one typed prompt. */
const MAX_REASON_CHARS = 600

function line(v: Violation): string {
  const text = `${v.message}. ${v.suggestion}`
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text
}

/** The `policy` gate's reasons, labelled like a stop hook's ("policy: …"). */
export function policyReasons(blocking: readonly Violation[]): string[] {
  return blocking.map((v) => `policy: ${v.severity} ${v.constraint}: ${line(v)}`)
}

/** Warnings sent back along with a blocked stop; they do not block by themselves. */
export function warningReasons(warnings: readonly Violation[]): string[] {
  return warnings.map((v) => `policy warning (${v.constraint}, does not block): ${line(v)}`)
}

/** One line for an interactive agent's prompt: no control characters, capped, ending with Enter. */
export function typedNotice(warnings: readonly Violation[], maxChars = 4000): string {
  const text = typedText(
    `proctor: policy warnings about your changes (they do not stop you; please fix them): ${warnings
      .map((v) => `[${v.constraint}] ${line(v)}`)
      .join(' ')}`,
    maxChars,
  )
  return `${text}\r`
}
