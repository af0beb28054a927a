// `proctor run` without commander (main.ts): its arguments read as commander would read them, when they are
// the plain ones. commander's module, program and parse were ~10 ms of CPU before every agent's spawn.
// A module of its own, apart from run.ts: main.ts imports it, and rollup gives each module the CLI's entry
// imports a chunk of its own together with what that module imports statically (rollup.config.mjs) —
// run.ts's would be the whole session.
import type { RunFlags } from './commands/run.js'

/** `proctor run`'s options that take a value, by how they are written. */
const VALUE_OPTIONS = new Map<string, 'config' | 'agent' | 'shell' | 'timeout' | 'idleTimeout' | 'session'>([
  ['-c', 'config'],
  ['--config', 'config'],
  ['--agent', 'agent'],
  ['--shell', 'shell'],
  ['--timeout', 'timeout'],
  ['--idle-timeout', 'idleTimeout'],
  ['--session', 'session'],
])
/** Its switches: the flag each sets, and to what. */
const SWITCHES = new Map<string, ['quiet' | 'json', true] | ['pty' | 'checkpoints' | 'push', false]>([
  ['-q', ['quiet', true]],
  ['--quiet', ['quiet', true]],
  ['--json', ['json', true]],
  ['--no-pty', ['pty', false]],
  ['--no-checkpoints', ['checkpoints', false]],
  ['--no-push', ['push', false]],
])

/**
 * The arguments after `run` as commander would hand them to the action, when they are the plain ones: each
 * option at most once, written `-q`, `--name`, `--name value` or `--name=value`, then `--` and the agent's
 * argv (or nothing). main.ts runs such a `proctor run` without commander. Anything else — help, a typo, a short option with its value
 * attached, an operand before `--`, a separate value that looks like an option — is null: commander parses
 * and reports it as for every other command.
 */
export function plainRunArgs(args: readonly string[]): { argv: string[]; flags: RunFlags } | null {
  const flags: RunFlags = { pty: true, checkpoints: true, push: true }
  const given = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') return { argv: args.slice(i + 1), flags }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const name = eq < 0 ? arg : arg.slice(0, eq)
    const switched = SWITCHES.get(name)
    if (switched) {
      if (eq >= 0 || given.has(name)) return null
      given.add(name)
      if (switched[1]) flags[switched[0]] = true
      else flags[switched[0]] = false
      continue
    }
    const key = VALUE_OPTIONS.get(name)
    if (key === undefined || given.has(key)) return null
    given.add(key)
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i]
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return null
    flags[key] = value
  }
  return { argv: [], flags }
}

/** The run command's module (the session, the config loader), loaded once the arguments are known to be plain. */
export const loadRunCommand = () => import('./commands/run.js')
