// Rules that span several keys, which a per-field schema cannot express. They read the raw parsed
// YAML (not the validated config) so their problems are reported together with the schema's.
import type { LifecycleEvent } from './schema.js'
import type { Problem } from './zod-issues.js'
import type { catastrophicRegex } from './regex-safety.js'
import { requiredCheck } from './errors.js'

/** Events whose hooks must finish before proctor can decide, so they can never run async. */
export const ANSWERED_EVENTS: readonly LifecycleEvent[] = ['stop']

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isSet = (value: unknown): boolean => value !== undefined && value !== null

/** `unsafeRegex` (regex-safety.ts, with safe-regex2) is needed only when the file has detect rules. */
export function crossCheck(raw: unknown, unsafeRegex?: typeof catastrophicRegex): Problem[] {
  if (!isObject(raw)) return []
  return [
    ...checkAgent(raw),
    ...checkBatch(raw),
    ...checkStopHookNames(raw),
    ...checkAnsweredHooks(raw),
    ...checkRegexes(raw, unsafeRegex),
  ]
}

const LIMITS = ['usd', 'tokens', 'requests'] as const

/**
 * The metering proxy needs its API, and a budget needs the proxy: refused here, at the line, like any other
 * mistake in the file, not at the start of a session. `merged` is the file over its agent preset (the
 * presets turn the proxy on and name the API).
 */
export function checkModelApi(merged: unknown): Problem[] {
  if (!isObject(merged)) return []
  const api = isObject(merged.model_api) ? merged.model_api : {}
  if (api.proxy === true && !isSet(api.api))
    return [
      {
        path: ['model_api', 'proxy'],
        atKey: true,
        message: 'model_api.proxy needs model_api.api',
        hint: 'add api: anthropic, openai or gemini under model_api (the agent presets set it)',
      },
    ]
  const budget = merged.budget
  const limited = (b: unknown) => isObject(b) && LIMITS.some((key) => isSet(b[key]))
  if (!isObject(budget) || (!limited(budget) && !limited(budget.batch)) || api.proxy === true) return []
  return [
    {
      path: ['budget'],
      atKey: true,
      message: 'a budget needs the metering proxy, which is off',
      hint: 'add model_api: { proxy: true, api: anthropic | openai | gemini } (or use an agent preset), or remove the budget',
    },
  ]
}

function checkAgent(raw: Record<string, unknown>): Problem[] {
  const agent = raw.agent
  if (!isObject(agent) || !isSet(agent.command) || !isSet(agent.shell)) return []
  return [
    {
      path: ['agent', 'shell'],
      atKey: true,
      message: 'agent.command and agent.shell cannot both be set',
      hint: 'keep command (an argv list, run directly) or shell (a string run by /bin/sh -c)',
    },
  ]
}

function checkBatch(raw: Record<string, unknown>): Problem[] {
  const tasks = isObject(raw.batch) ? raw.batch.tasks : undefined
  if (!Array.isArray(tasks)) return []
  return tasks.flatMap((task, index): Problem[] => {
    if (!isObject(task)) return []
    const path = ['batch', 'tasks', index]
    if (isSet(task.command) && isSet(task.shell)) {
      return [
        {
          path: [...path, 'shell'],
          atKey: true,
          message: 'a batch task cannot have both command and shell',
          hint: 'keep command (an argv list) or shell (a string run by /bin/sh -c)',
        },
      ]
    }
    if (!isSet(task.command) && !isSet(task.shell)) {
      return [
        {
          path,
          message: 'a batch task needs a command or a shell',
          hint: 'add command: [file, args…] or shell: "…"',
        },
      ]
    }
    return []
  })
}

function checkStopHookNames(raw: Record<string, unknown>): Problem[] {
  if (!Array.isArray(raw.stop_hooks)) return []
  const firstIndex = new Map<string, number>()
  const problems: Problem[] = []
  raw.stop_hooks.forEach((hook, index) => {
    if (isObject(hook))
      problems.push(...checkStopHookKind(hook, index), ...checkCiChecksPush(raw, hook, index))
    if (!isObject(hook) || typeof hook.name !== 'string') return
    if (hook.name === 'policy') {
      problems.push({
        path: ['stop_hooks', index, 'name'],
        message: `the stop hook name "policy" is reserved for proctor's policy gate`,
        hint: 'its check run "proctor / policy" reports the policy; give this hook another name',
      })
      return
    }
    const first = firstIndex.get(hook.name)
    if (first === undefined) {
      firstIndex.set(hook.name, index)
      return
    }
    problems.push({
      path: ['stop_hooks', index, 'name'],
      message: `duplicate stop hook name "${hook.name}" (also stop_hooks[${first}])`,
      hint: 'each stop hook is reported as the check "proctor / <name>", so names must be unique',
    })
  })
  return problems
}

/** A stop hook runs a command or a built-in (`uses`), exactly one; `with` only configures a built-in. */
function checkStopHookKind(hook: Record<string, unknown>, index: number): Problem[] {
  if (hook.command !== undefined && hook.uses !== undefined)
    return [
      {
        path: ['stop_hooks', index, 'uses'],
        message: 'a stop hook has either a command or uses, not both',
        hint: 'remove command (uses: ci-checks is the whole hook) or uses',
      },
    ]
  if (hook.command === undefined && hook.uses === undefined)
    return [
      {
        path: ['stop_hooks', index],
        message: 'a stop hook needs a command (or uses: ci-checks)',
        hint: 'add command: "npm test" or uses: ci-checks',
      },
    ]
  if (hook.with !== undefined && hook.uses === undefined)
    return [
      {
        path: ['stop_hooks', index, 'with'],
        message: 'with configures a built-in hook, and this hook has no uses',
        hint: 'add uses: ci-checks, or remove with',
      },
    ]
  return []
}

/** `uses: ci-checks` pushes the checkpoint CI runs on: a config that never pushes one can never pass it. */
function checkCiChecksPush(
  raw: Record<string, unknown>,
  hook: Record<string, unknown>,
  index: number,
): Problem[] {
  if (hook.uses !== 'ci-checks') return []
  const checkpoints = isObject(raw.checkpoints) ? raw.checkpoints : {}
  const off =
    checkpoints.enabled === false
      ? 'checkpoints.enabled is false'
      : checkpoints.push === 'never'
        ? 'checkpoints.push is never'
        : null
  if (!off) return []
  return [
    {
      path: ['stop_hooks', index, 'uses'],
      message: `ci-checks pushes the checkpoint for CI to run on, and ${off}`,
      hint: 'set checkpoints.push to auto or always (and checkpoints.enabled to true), or remove this hook',
    },
  ]
}

function checkAnsweredHooks(raw: Record<string, unknown>): Problem[] {
  if (!isObject(raw.hooks)) return []
  const hooks = raw.hooks
  return ANSWERED_EVENTS.flatMap((event) => {
    const entries = hooks[event]
    if (!Array.isArray(entries)) return []
    return entries.flatMap((entry, index): Problem[] =>
      isObject(entry) && entry.async === true
        ? [
            {
              path: ['hooks', event, index, 'async'],
              message: `the ${event} event needs an answer, so it cannot run async; remove async or move the hook to session_end`,
            },
          ]
        : [],
    )
  })
}

function checkRegexes(raw: Record<string, unknown>, unsafeRegex?: typeof catastrophicRegex): Problem[] {
  if (!Array.isArray(raw.detect) || raw.detect.length === 0) return []
  const unsafe = requiredCheck(unsafeRegex, 'catastrophicRegex')
  return raw.detect.flatMap((rule, index): Problem[] => {
    if (!isObject(rule) || typeof rule.match !== 'string' || rule.match === '') return []
    // Invalid flags are reported by the schema; check the pattern with the flags only when they are valid.
    const flags = typeof rule.flags === 'string' && /^[imsu]*$/.test(rule.flags) ? rule.flags : ''
    try {
      new RegExp(rule.match, flags)
      const problem = unsafe(rule.match, flags)
      return problem ? [{ path: ['detect', index, 'match'], ...problem }] : []
    } catch (error) {
      const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')
      return [
        {
          path: ['detect', index, 'match'],
          message: `${JSON.stringify(rule.match)} is not a valid regular expression: ${reason}`,
          hint: 'escape special characters such as ( [ { ? * + with a backslash',
        },
      ]
    }
  })
}
