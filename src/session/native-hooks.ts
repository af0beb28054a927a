// Agents with their own hook systems (Claude Code, Codex, Gemini CLI) get proctor wired into their Stop
// hook, so a block happens inside the agent's own loop. This prepares the agent command and the settings
// files for one session and puts every touched file back afterwards.
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Config } from '../config/schema.js'
import type { CommandSpec } from '../supervisor/types.js'
import { installNativeHooks, nativeAdapters, nativeHookCommand, shellQuote } from '../hooks/adapters/index.js'

export interface PreparedNativeHooks {
  command: CommandSpec
  active: boolean
  restore(): Promise<void>
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
): Promise<PreparedNativeHooks> {
  const adapterName = config.agent.adapter
  if (adapterName === 'generic') return { command, active: false, restore: async () => undefined }
  const adapter = nativeAdapters[adapterName]
  const slowest = Math.max(60_000, ...config.stop_hooks.map((h) => h.timeout))
  const setup = adapter.setup({
    hookCommand: nativeHookCommand(proctorInvocation(env), adapterName, configFile ?? undefined),
    timeoutMs: slowest + 30_000,
  })
  const installed = await installNativeHooks(setup, cwd)
  const withArgs: CommandSpec =
    setup.args.length === 0
      ? command
      : 'shell' in command
        ? { shell: `${command.shell} ${setup.args.map(shellQuote).join(' ')}` }
        : { file: command.file, args: [...command.args, ...setup.args] }
  return { command: withArgs, active: true, restore: () => installed.restore() }
}
