// The action's inputs (action.yml) as one typed value, and how they override proctor.yml.
import { parse as parseShellWords } from 'shell-quote'
import type { Config } from '../config/schema.js'
import type { CommandSpec } from '../supervisor/types.js'
import { parseDuration } from '../util/units.js'

export interface ActionInputs {
  command: string
  shell: string
  config: string
  configGiven: boolean
  githubToken: string
  timeout: string
  checkpointBranch: string
  pushCheckpoints: string
  comment: string
  checks: string
  publish: string
  failOn: string
  mode: string
  workingDirectory: string
  reports: string
  artifactPattern: string
  /** mode run: hand the session over to a verify job (artifact) instead of publishing or pushing. */
  handoff: boolean
  /** mode publish: the name of the job (or matrix `name (…)` legs) that ran `mode: verify`. */
  verifyJob: string
}

export class InputError extends Error {
  override name = 'InputError'
}

type Env = Record<string, string | undefined>

/** Reads `INPUT_<NAME>` the way the runner sets them (spaces → _, upper case), trimmed. */
export function input(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

export function readInputs(env: Env = process.env): ActionInputs {
  const config = input(env, 'config')
  return {
    command: input(env, 'command'),
    shell: input(env, 'shell'),
    config: config || 'proctor.yml',
    configGiven: config !== '' && config !== 'proctor.yml',
    githubToken: input(env, 'github-token') || env.GITHUB_TOKEN || '',
    timeout: input(env, 'timeout'),
    checkpointBranch: input(env, 'checkpoint-branch'),
    pushCheckpoints: input(env, 'push-checkpoints'),
    comment: input(env, 'comment'),
    checks: input(env, 'checks'),
    publish: input(env, 'publish'),
    failOn: input(env, 'fail-on'),
    mode: input(env, 'mode') || 'run',
    workingDirectory: input(env, 'working-directory'),
    reports: input(env, 'reports'),
    artifactPattern: input(env, 'artifact-pattern'),
    handoff: /^(true|yes|1)$/i.test(input(env, 'handoff')),
    verifyJob: input(env, 'verify-job') || 'verify',
  }
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new InputError(`input ${name}: expected one of ${allowed.join(', ')}, got "${value}"`)
}

/** Inputs win over proctor.yml; an empty input leaves the config as it is. */
export function applyInputs(config: Config, inputs: ActionInputs): Config {
  const next: Config = structuredClone(config)
  if (inputs.timeout) {
    const ms = parseDuration(inputs.timeout)
    if (typeof ms === 'string' || ms <= 0)
      throw new InputError(`input timeout: ${typeof ms === 'string' ? ms : 'must be > 0'}`)
    next.timeouts.total = ms
  }
  if (inputs.checkpointBranch) next.checkpoints.branch = inputs.checkpointBranch
  if (inputs.pushCheckpoints) {
    next.checkpoints.push = oneOf('push-checkpoints', inputs.pushCheckpoints, [
      'auto',
      'always',
      'never',
    ] as const)
  }
  if (inputs.comment)
    next.github.comment = oneOf('comment', inputs.comment, ['sticky', 'new', 'off'] as const)
  if (inputs.checks)
    next.github.checks = oneOf('checks', inputs.checks, ['true', 'false'] as const) === 'true'
  if (inputs.publish) next.github.publish = oneOf('publish', inputs.publish, ['each', 'aggregate'] as const)
  if (inputs.failOn)
    next.github.fail_on = oneOf('fail-on', inputs.failOn, ['block', 'violation-error', 'never'] as const)
  return next
}

/**
 * The agent command: `command` is split like a shell would split words (quotes and backslashes), but
 * never run through a shell — a pipe or `&&` needs the `shell` input instead.
 */
export function agentCommand(inputs: ActionInputs, config: Config): CommandSpec | null {
  if (inputs.command && inputs.shell)
    throw new InputError('give either the command input or the shell input, not both')
  if (inputs.shell) return { shell: inputs.shell }
  if (inputs.command) {
    const words = parseShellWords(inputs.command, (name) => `$${name}`)
    const argv: string[] = []
    for (const word of words) {
      if (typeof word !== 'string') {
        const what = 'op' in word ? `"${String(word.op)}"` : 'a shell construct'
        throw new InputError(
          `input command: ${what} needs a shell; use the shell input for pipelines, redirections and &&, or write the command as plain words`,
        )
      }
      argv.push(word)
    }
    if (argv.length === 0) throw new InputError('input command is empty')
    return { file: argv[0]!, args: argv.slice(1) }
  }
  if (config.agent.command) return { file: config.agent.command[0]!, args: config.agent.command.slice(1) }
  if (config.agent.shell) return { shell: config.agent.shell }
  return null
}
