// Checks that need the code that will use the value: detect rules are compiled by the detector itself and
// policy globs by the policy compiler, so a rule that would fail at the first checkpoint or the first
// output line fails at load time instead, with its file:line:col.
// The code is handed in (parse.ts, load.ts) so that a file loads only what it uses: a missing part is one
// its keys did not ask for (neededChecks), and the defaults it would check are valid (tested).
import type { Config } from './schema.js'
import type { Problem } from './zod-issues.js'
import { requiredCheck } from './errors.js'
import { closest } from './suggest.js'
import type { compileRule, DetectRuleError } from '../supervisor/detect.js'
import type { checkPolicyConfig } from '../policy/compile.js'
import type { remoteBranchFor } from '../checkpoints/refs.js'
import type { compileAreas } from '../policy/areas.js'

export interface SemanticChecks {
  compileRule?: typeof compileRule
  DetectRuleError?: typeof DetectRuleError
  checkPolicyConfig?: typeof checkPolicyConfig
  remoteBranchFor?: typeof remoteBranchFor
  compileAreas?: typeof compileAreas
}

export function semanticProblems(
  config: Config,
  checks: SemanticChecks,
): { problems: Problem[]; warnings: Problem[] } {
  const problems: Problem[] = []
  const names = new Map<string, number>()
  config.detect.forEach((rule, index) => {
    const first = names.get(rule.name)
    if (first !== undefined) {
      problems.push({
        path: ['detect', index, 'name'],
        message: `duplicate detect rule name "${rule.name}" (also detect[${first}])`,
        hint: 'give each rule its own name: events and responses are recorded by rule name',
      })
      return
    }
    names.set(rule.name, index)
    const compileRule = requiredCheck(checks.compileRule, 'compileRule')
    const DetectRuleError = requiredCheck(checks.DetectRuleError, 'DetectRuleError')
    try {
      compileRule(rule)
    } catch (error) {
      if (!(error instanceof DetectRuleError)) throw error
      problems.push({ path: ['detect', index], message: error.message.replace(/^detect rule "[^"]*": /, '') })
    }
  })
  // The branch template is checked by the code that pushes, with a sample session id: `config validate`
  // must reject what `run` would (exit 2, with the line), not let it fail at the first push.
  const template = branchTemplateProblems(config.checkpoints.branch)
  problems.push(...template.problems)
  if (checks.remoteBranchFor && template.problems.length === 0) {
    try {
      checks.remoteBranchFor(config.checkpoints.branch, 'sample-session-1')
    } catch (error) {
      problems.push({
        path: ['checkpoints', 'branch'],
        message: (error as Error).message.replace(/^checkpoints\.branch /, ''),
      })
    }
  }
  // A hook's gate_files are the policy's globs: compiled the same way, rejected the same way.
  config.stop_hooks.forEach((hook, index) => {
    if (!hook.gate_files) return
    const compileAreas = requiredCheck(checks.compileAreas, 'compileAreas')
    try {
      compileAreas('gate_files', hook.gate_files, `stop_hooks[${index}]`)
    } catch (error) {
      if ((error as Error).name !== 'PolicyConfigError') throw error
      const m = /^stop_hooks\[\d+\]\.gate_files\[(\d+)\]: ([\s\S]*)$/.exec((error as Error).message)
      problems.push({
        path: m ? ['stop_hooks', index, 'gate_files', Number(m[1])] : ['stop_hooks', index, 'gate_files'],
        message: m ? m[2]! : (error as Error).message.replace(/^stop_hooks\[\d+\]\.gate_files: /, ''),
      })
    }
  })
  const policy = checks.checkPolicyConfig?.(config.policy) ?? { errors: [], warnings: [] }
  for (const message of policy.errors) problems.push(policyProblem(message))
  return {
    problems,
    warnings: [...template.warnings, ...policy.warnings.map((message) => ({ path: ['policy'], message }))],
  }
}

const BRANCH_PLACEHOLDERS = ['session'] as const

/**
 * `{sesion}` is a typo, not part of a branch name: left in, every session would push to the same branch.
 * A template without `{session}` does that on purpose or by mistake: a warning.
 */
function branchTemplateProblems(branch: string): { problems: Problem[]; warnings: Problem[] } {
  const path = ['checkpoints', 'branch']
  const problems: Problem[] = []
  for (const [written, name] of branch.matchAll(/\{([^{}]*)\}/g)) {
    if ((BRANCH_PLACEHOLDERS as readonly string[]).includes(name!)) continue
    const near = closest(name!, BRANCH_PLACEHOLDERS)
    problems.push({
      path,
      message: `unknown placeholder ${written} in ${JSON.stringify(branch)}`,
      hint: near
        ? `did you mean {${near}}?`
        : `the only placeholder is {session} (the session id); a literal "{" cannot be in a branch name`,
    })
  }
  const warnings: Problem[] =
    problems.length === 0 && !branch.includes('{session}')
      ? [
          {
            path,
            message: `${JSON.stringify(branch)} has no {session}: every session pushes its checkpoints to the same branch`,
          },
        ]
      : []
  return { problems, warnings }
}

/** The policy compiler names the key in its message ("policy.forbidden_areas[0]: …"): point at that key. */
function policyProblem(message: string): Problem {
  // policy.forbidden_areas[1], policy.severities.x, policy.tests.python[0]
  const m = /^policy\.(\w+)(?:\.(\w+))?(?:\[(\d+)\])?: ([\s\S]*)$/.exec(message)
  if (!m) return { path: ['policy'], message }
  const path: (string | number)[] = ['policy', m[1]!]
  if (m[2] !== undefined) path.push(m[2])
  if (m[3] !== undefined) path.push(Number(m[3]))
  return { path, message: m[4]! }
}
