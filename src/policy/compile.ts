// A policy compiled once (globs → matchers) and reused for every diff of a session.
import { compileAreas, PolicyConfigError, type AreaMatcher } from './areas.js'
import { CONSTRAINTS, DEFAULT_SEVERITIES, type Constraint, type PolicyConfig } from './types.js'
import type { Severity } from '../report/model.js'
import { testFileMatchers } from './tests-weakened/index.js'

export interface CompiledPolicy {
  readonly config: PolicyConfig
  readonly allowed: AreaMatcher
  readonly forbidden: AreaMatcher
  readonly protected: AreaMatcher
  /** Paths secretlint's rules do not judge (policy.secret_allowed_paths; see policy/secrets). */
  readonly secretAllowed: AreaMatcher
  severityOf(constraint: Constraint): Severity
}

const cache = new WeakMap<PolicyConfig, CompiledPolicy>()

/** Throws PolicyConfigError naming the offending key when a pattern or severity key is unusable. */
export function compilePolicy(config: PolicyConfig): CompiledPolicy {
  const cached = cache.get(config)
  if (cached) return cached
  for (const key of Object.keys(config.severities)) {
    if (!(CONSTRAINTS as readonly string[]).includes(key)) {
      const hint = closest(key, CONSTRAINTS)
      throw new PolicyConfigError(
        `severities.${key}`,
        `unknown constraint${hint ? ` (did you mean "${hint}"?)` : ''}; known constraints: ${CONSTRAINTS.join(', ')}`,
      )
    }
  }
  const compiled: CompiledPolicy = {
    config,
    allowed: compileAreas('allowed_areas', config.allowed_areas),
    forbidden: compileAreas('forbidden_areas', config.forbidden_areas),
    protected: compileAreas('protected_areas', config.protected_areas),
    secretAllowed: compileAreas('secret_allowed_paths', config.secret_allowed_paths),
    severityOf: (constraint) =>
      config.severities[constraint] ?? DEFAULT_SEVERITIES[constraint] ?? config.violation_severity,
  }
  cache.set(config, compiled)
  return compiled
}

/**
 * Problems with a policy for `proctor config validate` and the loader: errors make the policy
 * unusable; warnings describe settings that will not do what they seem to.
 */
export function checkPolicyConfig(config: PolicyConfig): { errors: string[]; warnings: string[] } {
  const errors: string[] = []
  const warnings: string[] = []
  try {
    compilePolicy(config)
    testFileMatchers(config)
  } catch (error) {
    if (!(error instanceof PolicyConfigError)) throw error
    errors.push(error.message)
  }
  if (config.revert_on_violation) {
    // git_tamper is undone by policy.git_tamper, not by revert_on_violation: it does not count here. Nor
    // does secret_content's default (the file is withheld whatever its severity): the user chose no revert.
    const chosen = (c: Constraint) =>
      config.severities[c] ??
      (c === 'secret_content' ? null : (DEFAULT_SEVERITIES[c] ?? config.violation_severity))
    const anyCritical = CONSTRAINTS.some((c) => c !== 'git_tamper' && chosen(c) === 'critical')
    if (!anyCritical) {
      warnings.push(
        'policy.revert_on_violation is true but no constraint has severity critical, so nothing will be reverted; ' +
          'set policy.violation_severity: critical or policy.severities.<constraint>: critical',
      )
    }
  }
  for (const [a, b] of [
    ['allowed_areas', 'forbidden_areas'],
    ['allowed_areas', 'protected_areas'],
  ] as const) {
    for (const pattern of config[a]) {
      if (config[b].includes(pattern)) {
        warnings.push(`policy: "${pattern}" is in both policy.${a} and policy.${b}; the ${b} rule applies`)
      }
    }
  }
  return { errors, warnings }
}

function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate)
    if (d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    }
    previous = current
  }
  return previous[b.length]!
}
