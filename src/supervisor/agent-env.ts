// What the agent and its hooks may see of proctor's environment. An agent is untrusted code: the tokens
// the runner hands a JavaScript action (the github-token input, the artifact/cache runtime token, the
// OIDC request token) and the file commands that steer later steps must never reach it, whatever mode
// proctor runs in. Variables named in `agent.env_passthrough` are the user's explicit opt-in.
//
// Removing a variable from process.env is not enough on Linux: /proc/<pid>/environ shows the block the
// process was started with, and any process of the same user (the agent) can read it. So the action also
// overwrites those bytes in its own memory (withholdSecrets); the values live on only in the JS heap.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs'

type Env = Record<string, string | undefined>

/**
 * Runner variables that are credentials, or addresses only useful with one: the action's inputs (the
 * github-token input among them), the Actions runtime token and its service URLs (artifacts, cache,
 * results), the OIDC token request, and the tokens proctor itself falls back to.
 */
const WITHHELD: readonly RegExp[] = [
  /^INPUT_/i,
  /^ACTIONS_RUNTIME_(TOKEN|URL)$/i,
  /^ACTIONS_ID_TOKEN_REQUEST_(TOKEN|URL)$/i,
  /^ACTIONS_(RESULTS|CACHE)_URL$/i,
  /^ACTIONS_CACHE_SERVICE_V2$/i,
  /^GITHUB_TOKEN$/i,
  /^GH_TOKEN$/i,
]

/**
 * File commands of the step: writing GITHUB_ENV or GITHUB_PATH changes every later step (NODE_OPTIONS...),
 * GITHUB_OUTPUT and GITHUB_STATE are proctor's own outputs and post-step state.
 */
const STEP_FILES: readonly string[] = ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_OUTPUT', 'GITHUB_STATE']

/** Whether `name` holds a runner credential (or the address of a service only a credential opens). */
export function isRunnerSecret(name: string): boolean {
  return WITHHELD.some((re) => re.test(name))
}

/** Whether `name` is withheld from the agent and its hooks unless passed through. */
export function isWithheld(name: string): boolean {
  return isRunnerSecret(name) || STEP_FILES.includes(name.toUpperCase())
}

/**
 * The environment the agent and every hook start from: `base` minus the withheld variables, except the
 * ones `passthrough` names (exact names, case-sensitive as the environment is).
 */
export function agentEnvironment(base: Env, passthrough: readonly string[] = []): Env {
  const keep = new Set(passthrough)
  const env: Env = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (isWithheld(name) && !keep.has(name)) continue
    env[name] = value
  }
  return env
}

/** The withheld values this process was started with, taken out of its environment. */
export interface WithheldSecrets {
  readonly values: Readonly<Record<string, string>>
  /** Whether /proc/self/environ no longer shows them (false off Linux, or when memory could not be written). */
  readonly scrubbed: boolean
  /** Why the start-up environment could not be scrubbed, when it could not. */
  readonly problem: string | null
}

/**
 * Takes every runner credential out of process.env (the step files stay: proctor writes its outputs and
 * state there; agentEnvironment keeps them from the agent) and overwrites its bytes in the environment block the
 * kernel shows as /proc/self/environ, so children (and anything of the same user) find nothing there.
 * The values are returned for proctor's own use (its GitHub client, the artifact upload). Idempotent.
 */
export function withholdSecrets(env: NodeJS.ProcessEnv = process.env): WithheldSecrets {
  const values: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !isRunnerSecret(name)) continue
    values[name] = value
    delete env[name]
  }
  const result = scrubStartupEnvironment(isRunnerSecret)
  return { values, scrubbed: result === null, problem: result }
}

/**
 * Takes the variables `names` out of process.env and out of the start-up environment block (as
 * withholdSecrets does for runner credentials), e.g. the model API key the metering proxy keeps from the
 * agent. Returns the values found, or why /proc/self/environ could not be scrubbed.
 */
export function withholdVariables(
  names: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { values: Record<string, string>; problem: string | null } {
  const values: Record<string, string> = {}
  for (const name of names) {
    const value = env[name]
    if (value === undefined) continue
    values[name] = value
    delete env[name]
  }
  return { values, problem: scrubStartupEnvironment((name) => names.includes(name)) }
}

/**
 * Sets `names` from `secrets` in process.env while `fn` runs (e.g. the artifact client reads
 * ACTIONS_RUNTIME_TOKEN there), then removes them again. Only for after the agent and hooks are gone.
 */
export async function withSecretsInEnv<T>(
  secrets: WithheldSecrets,
  names: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  const set: string[] = []
  for (const name of names) {
    const value = secrets.values[name]
    if (value !== undefined && process.env[name] === undefined) {
      process.env[name] = value
      set.push(name)
    }
  }
  try {
    return await fn()
  } finally {
    for (const name of set) delete process.env[name]
  }
}

/**
 * Overwrites the `NAME=value` entries `withheld` names of the start-up environment block with NUL bytes, through
 * /proc/self/mem (a process may always write its own memory). Returns null on success, else why not.
 * process.env no longer points into those bytes once the variables were deleted (unsetenv).
 */
function scrubStartupEnvironment(withheld: (name: string) => boolean): string | null {
  if (process.platform !== 'linux') return 'only Linux exposes a process environment this way'
  let fd: number | null = null
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // Fields after "(comm)": the first is field 3 (state); env_start and env_end are fields 50 and 51.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const start = Number(fields[50 - 3])
    const end = Number(fields[51 - 3])
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start)
      return 'the kernel does not report where the environment lives (/proc/self/stat)'
    fd = openSync('/proc/self/mem', 'r+')
    const block = Buffer.alloc(end - start)
    readSync(fd, block, 0, block.length, start)
    let offset = 0
    while (offset < block.length) {
      let stop = block.indexOf(0, offset)
      if (stop === -1) stop = block.length
      const entry = block.toString('latin1', offset, stop)
      const eq = entry.indexOf('=')
      const name = eq > 0 ? entry.slice(0, eq) : entry
      if (withheld(name)) {
        writeSync(fd, Buffer.alloc(stop - offset), 0, stop - offset, start + offset)
      }
      offset = stop + 1
    }
    return null
  } catch (error) {
    return `could not overwrite the start-up environment: ${(error as Error).message}`
  } finally {
    if (fd !== null) closeSync(fd)
  }
}
