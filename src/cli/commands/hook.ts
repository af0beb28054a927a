// proctor hook stop --adapter <claude|codex|gemini|copilot>: the command an agent's own Stop hook runs (see
// src/hooks/adapters). Reads the agent's hook JSON on stdin and answers in that agent's protocol.
import type { Command } from 'commander'
import { loadConfig } from '../../config/load.js'
import { isNativeAdapterName, nativeAdapters } from '../../hooks/adapters/index.js'
import { processHookIO, type HookCommandIO } from '../../hooks/cli-io.js'
import { runNativeStop } from '../../hooks/native.js'
import { relayNativeStop } from '../../hooks/native-relay.js'
import { CliExit, ExitCode } from '../exit.js'

export function registerHookCommand(program: Command, io: HookCommandIO = processHookIO): Command {
  const hook = program.command('hook').description("entry points for agents' own hook systems")
  hook
    .command('stop')
    .description("run proctor's stop hooks from an agent's Stop hook and answer in its protocol")
    .requiredOption('--adapter <name>', `the agent: ${Object.keys(nativeAdapters).join(', ')}`)
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .option('--session <id>', 'the proctor session this agent runs under (set by `proctor run`)')
    .option('--socket <path>', "the session's socket to hand the stop to (set by `proctor run`)")
    .action(async (opts: { adapter: string; config?: string; session?: string; socket?: string }) => {
      if (!isNativeAdapterName(opts.adapter)) {
        throw new CliExit(
          ExitCode.usage,
          `unknown adapter "${opts.adapter}"; use one of ${Object.keys(nativeAdapters).join(', ')}`,
        )
      }
      const input = await io.readStdin()
      const answer = opts.socket
        ? await relayNativeStop(opts.socket, {
            adapter: opts.adapter,
            session: opts.session ?? 'unknown',
            input,
          })
        : await runNativeStop({
            adapter: opts.adapter,
            input,
            cwd: io.cwd(),
            env: io.env(),
            loadConfig: async (cwd) => (await loadConfig({ file: opts.config, cwd })).config,
          })
      if (answer.stdout) io.stdout(`${answer.stdout}\n`)
      if (answer.exitCode !== 0) throw new CliExit(answer.exitCode, answer.stderr.trimEnd())
      if (answer.stderr) io.stderr(answer.stderr.endsWith('\n') ? answer.stderr : `${answer.stderr}\n`)
    })
  return hook
}
