// `proctor run` without commander (main.ts): its arguments read as commander would read them, when they are
// the plain ones. commander's module, program and parse were ~10 ms of CPU before every agent's spawn.
// A module of its own, apart from run.ts: main.ts imports it, and rollup gives each module the CLI's entry
// imports a chunk of its own together with what that module imports statically (rollup.config.mjs) —
// run.ts's would be the whole session.
import type { RunFlags } from './commands/run.js'
import { readPlainArgs, type PlainSpec } from './plain-args.js'

/** `proctor run`'s options, by how they are written, and the flag each sets. */
const RUN_OPTIONS: PlainSpec<keyof RunFlags> = {
  values: new Map([
    ['-c', 'config'],
    ['--config', 'config'],
    ['--agent', 'agent'],
    ['--shell', 'shell'],
    ['--timeout', 'timeout'],
    ['--idle-timeout', 'idleTimeout'],
    ['--session', 'session'],
  ]),
  switches: new Map([
    ['-q', ['quiet', true]],
    ['--quiet', ['quiet', true]],
    ['--json', ['json', true]],
    ['--no-pty', ['pty', false]],
    ['--no-checkpoints', ['checkpoints', false]],
    ['--no-push', ['push', false]],
  ]),
  argv: true,
}

/**
 * The arguments after `run` as commander would hand them to the action, when they are the plain ones
 * (readPlainArgs), then `--` and the agent's argv (or nothing). main.ts runs such a `proctor run` without
 * commander; anything else (an operand before `--` among it) is null and goes through commander.
 */
export function plainRunArgs(args: readonly string[]): { argv: string[]; flags: RunFlags } | null {
  const read = readPlainArgs(args, RUN_OPTIONS)
  if (!read) return null
  // (RUN_OPTIONS gives each key the type RunFlags has for it.)
  return {
    argv: read.argv,
    flags: { pty: true, checkpoints: true, push: true, ...(read.options as Partial<RunFlags>) },
  }
}

/** The run command's module (the session, the config loader), loaded once the arguments are known to be plain. */
export const loadRunCommand = () => import('./commands/run.js')
