// What a severity means. Each level adds one consequence to the one below it (seed semantics):
//   info      recorded in the report and the log
//   warning   + the agent is told (the violation is typed into / sent back to the agent)
//   error     + the `proctor / policy` check fails
//   critical  + the violating file is restored from the last valid checkpoint, when
//               policy.revert_on_violation is true
// Reverting only at critical keeps `revert_on_violation: true` from silently undoing work that the
// user rated as a mere warning; checkPolicyConfig warns when revert is on but nothing is critical.
import type { Severity, Violation } from '../report/model.js'
import type { PolicyConfig } from './types.js'
import { WHOLE_DIFF } from './types.js'

export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error', 'critical']

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity)
}

export function atLeast(severity: Severity, min: Severity): boolean {
  return severityRank(severity) >= severityRank(min)
}

/** The highest severity among `items`, or null when there are none. */
export function maxSeverity(items: Iterable<Severity | { severity: Severity }>): Severity | null {
  let max: Severity | null = null
  for (const item of items) {
    const severity = typeof item === 'string' ? item : item.severity
    if (max === null || severityRank(severity) > severityRank(max)) max = severity
  }
  return max
}

/** The agent hears about warnings and above. */
export function notifiesAgent(violation: Pick<Violation, 'severity'>): boolean {
  return atLeast(violation.severity, 'warning')
}

/** `proctor / policy` fails when any violation is an error or critical. */
export function failsPolicyCheck(violations: Iterable<Pick<Violation, 'severity'>>): boolean {
  for (const v of violations) if (atLeast(v.severity, 'error')) return true
  return false
}

/**
 * Whether the file of this violation is restored from the last valid checkpoint: only with
 * `revert_on_violation`, only at critical, and only for violations about one file (a diff_size
 * violation names no file to restore).
 */
export function shouldRevert(
  violation: Pick<Violation, 'severity' | 'file'>,
  policy: Pick<PolicyConfig, 'revert_on_violation'>,
): boolean {
  return policy.revert_on_violation && violation.severity === 'critical' && violation.file !== WHOLE_DIFF
}

/** The distinct files to restore for a set of violations, in first-seen order. */
export function filesToRevert(
  violations: Iterable<Pick<Violation, 'severity' | 'file'>>,
  policy: Pick<PolicyConfig, 'revert_on_violation'>,
): string[] {
  const files = new Set<string>()
  for (const v of violations) if (shouldRevert(v, policy)) files.add(v.file)
  return [...files]
}
