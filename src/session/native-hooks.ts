// Agents with their own hook systems (Claude Code, Codex, Gemini CLI) get proctor wired into their Stop
// hook, so a block happens inside the agent's own loop. This prepares the agent command, its environment and
// any settings file for one session, and puts every touched file back afterwards.
import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Config } from '../config/schema.js'
import type { CommandSpec } from '../supervisor/types.js'
import type { NativeHookTarget } from '../hooks/adapters/index.js'
import { describeFlags, mergeFlags } from '../agents/presets/flags.js'

export interface PreparedNativeHooks {
  command: CommandSpec
  active: boolean
  /** What the agent's environment needs for its hooks to load (under the user's agent.env). */
  env: Record<string, string>
  /** Absolute paths of the settings files proctor wrote: never checkpointed, never the agent's work. */
  files: string[]
  /** What was added to the agent's command, in one line, and what it already had (for the report). */
  summary: string
  /** The same wiring for another command of this agent (an agent.continue re-run). */
  wire(command: CommandSpec): CommandSpec
  /** Restores every touched file byte for byte; returns the ones the agent changed meanwhile. */
  restore(): Promise<string[]>
}

/** How an agent's hook can start this very proctor: PROCTOR_BIN, else the running CLI script (dist/cli.js). */
export function proctorInvocation(env: Record<string, string | undefined> = process.env): string[] {
  if (env.PROCTOR_BIN) return [env.PROCTOR_BIN]
  const script = process.argv[1] ?? ''
  // Inside the action the running file is dist/index.js; the CLI sits next to it.
  const sibling = join(dirname(script), 'cli.js')
  const cli = basename(script) === 'cli.js' || !existsSync(sibling) ? script : sibling
  return [process.execPath, ...process.execArgv, cli]
}

export async function prepareNativeHooks(
  config: Config,
  command: CommandSpec,
  cwd: string,
  configFile: string | null,
  env: Record<string, string | undefined>,
  target?: NativeHookTarget,
): Promise<PreparedNativeHooks> {
  const adapterName = config.agent.adapter
  if (adapterName === 'generic') {
    return {
      command,
      active: false,
      env: {},
      files: [],
      summary: '',
      wire: (other) => other,
      restore: async () => [],
    }
  }
  // The adapters' code (their settings files, fs/promises) only for an agent that has one: a generic
  // agent's session does not load it before the spawn.
  const { installNativeHooks, nativeAdapters, nativeHookCommand, shellQuote } =
    await import('../hooks/adapters/index.js')
  const adapter = nativeAdapters[adapterName]
  const slowest = Math.max(60_000, ...config.stop_hooks.map((h) => h.timeout))
  const setup = adapter.setup({
    hookCommand: nativeHookCommand(proctorInvocation(env), adapterName, configFile ?? undefined, target),
    timeoutMs: slowest + 30_000,
  })
  const installed = await installNativeHooks(setup, cwd)
  // A flag the command already has is not given again (Codex exits 2 on a repeated flag).
  const merged = (other: CommandSpec) =>
    mergeFlags('shell' in other ? other.shell.split(/\s+/) : other.args, setup.args)
  const wire = (other: CommandSpec): CommandSpec => {
    const { added } = merged(other)
    if (added.length === 0) return other
    return 'shell' in other
      ? { shell: `${other.shell} ${added.map(shellQuote).join(' ')}` }
      : { file: other.file, args: [...other.args, ...added] }
  }
  const { added, present } = merged(command)
  return {
    command: wire(command),
    summary: [
      added.length ? `added ${describeFlags(added)}` : '',
      installed.paths.length ? `merged its hook into ${installed.paths.join(', ')}` : '',
      present.length ? `already given: ${present.join(' ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
    active: true,
    env: setup.env,
    // The real path: the checkpoint store compares against the repository root git reports.
    files: installed.paths.map((path) => join(realpathSync(cwd), path)),
    wire,
    restore: () => installed.restore(),
  }
}
