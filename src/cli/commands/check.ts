// proctor check [--hook <name>] [--pre-push] [--json]: the stop hooks against the working tree, no agent.
// Exit 0 allow, 1 block, 2 config or usage error.
import type { Command } from 'commander'
import { ConfigError } from '../../config/errors.js'
import { loadConfig } from '../../config/load.js'
import type { Config } from '../../config/schema.js'
import { runCheck, UnknownHookError } from '../../hooks/check.js'
import { processHookIO, type HookCommandIO } from '../../hooks/cli-io.js'
import { formatStopHookLine } from '../../hooks/display.js'
import { CliExit, ExitCode } from '../exit.js'

export interface CheckDeps {
  /**
   * Pushes the local checkpoint branches (checkpoints.push_on_pre_push). The lead wires the checkpoints push
   * API here; it must push with hooks disabled, or the pre-push hook would run again.
   */
  pushCheckpoints?: (options: { cwd: string; config: Config; remote: string | null }) => Promise<string>
}

interface CheckFlags {
  config?: string
  hook: string[]
  prePush?: boolean
  json?: boolean
}

export function registerCheckCommand(
  program: Command,
  deps: CheckDeps = {},
  io: HookCommandIO = processHookIO,
): Command {
  return program
    .command('check')
    .description('run the stop hooks against the working tree (exit 0 allow, 1 block, 2 config error)')
    .argument('[remote]', 'with --pre-push: the remote name git passes to the hook')
    .argument('[url]', 'with --pre-push: the remote URL git passes to the hook')
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .option('--hook <name>', 'run only this stop hook (repeatable)', collect, [])
    .option('--pre-push', "run as git's pre-push hook: reads the pushed refs from stdin")
    .option('--json', 'print the result as JSON')
    .action(async (remote: string | undefined, url: string | undefined, flags: CheckFlags) => {
      await check(flags, remote ?? null, url ?? null, deps, io)
    })
}

async function check(
  flags: CheckFlags,
  remote: string | null,
  url: string | null,
  deps: CheckDeps,
  io: HookCommandIO,
): Promise<void> {
  const env = io.env()
  const skip = skipReason(env, flags.prePush === true)
  if (skip) {
    io.stderr(`proctor check: skipped (${skip})\n`)
    return
  }
  const cwd = io.cwd()
  let config: Config
  try {
    const loaded = await loadConfig({ file: flags.config, cwd })
    config = loaded.config
    for (const warning of loaded.warnings) io.stderr(`proctor: warning: ${warning}\n`)
  } catch (error) {
    if (error instanceof ConfigError) throw new CliExit(ExitCode.usage, error.message)
    throw error
  }
  const stdin = flags.prePush && !io.stdinIsTTY() ? await io.readStdin() : ''
  if (flags.prePush && !io.stdinIsTTY() && stdin.trim() === '') {
    io.stderr('proctor check: git has nothing to push; stop hooks not run\n')
    return
  }
  // In a git hook, stdout belongs to git (git push --porcelain); githooks(5) says to report on stderr.
  const report = flags.prePush ? io.stderr : io.stdout
  const width = Math.max(4, ...config.stop_hooks.map((hook) => hook.name.length))
  const abort = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => abort.abort(signal)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  let result
  try {
    result = await runCheck({
      config,
      cwd,
      env,
      only: flags.hook,
      prePush: flags.prePush ? { stdin, remote, url } : null,
      signal: abort.signal,
      onResult: flags.json ? undefined : (hook) => report(formatStopHookLine(hook, width)),
    })
  } catch (error) {
    if (error instanceof UnknownHookError) throw new CliExit(ExitCode.usage, error.message)
    throw error
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
  if (abort.signal.aborted) {
    throw new CliExit(
      abort.signal.reason === 'SIGTERM' ? ExitCode.sigterm : ExitCode.sigint,
      'proctor check: interrupted; stop hooks stopped',
    )
  }
  if (result.kind === 'nothing') {
    if (flags.json)
      io.stdout(
        `${JSON.stringify({ verdict: 'allow', results: [], reasons: [], message: result.message })}\n`,
      )
    else io.stderr(`proctor check: ${result.message}\n`)
    return
  }
  const { outcome, pushedRefs } = result
  if (flags.json) {
    const body = {
      verdict: outcome.verdict,
      stop_reason: flags.prePush ? 'pre-push' : 'manual',
      results: outcome.results,
      reasons: outcome.reasons,
      errors: outcome.errors,
      pushed_refs: pushedRefs,
    }
    io.stdout(`${JSON.stringify(body, null, 2)}\n`)
  } else {
    const blocked = outcome.results.filter((hook) => hook.verdict === 'block').length
    const errors = outcome.results.filter((hook) => hook.verdict === 'error' && !hook.advisory).length
    const counts = [`${blocked} blocked`, errors > 0 ? `${errors} errored` : null].filter(Boolean).join(', ')
    report(`proctor check: ${outcome.verdict} (${outcome.results.length} hooks, ${counts})\n`)
  }
  if (outcome.verdict === 'block') {
    if (flags.prePush)
      io.stderr('proctor: push blocked by stop hooks (skip once with PROCTOR_SKIP=1 git push)\n')
    throw new CliExit(ExitCode.failed)
  }
  if (flags.prePush && config.checkpoints.push_on_pre_push) {
    if (!deps.pushCheckpoints) {
      // TODO(lead): wire the checkpoints push API (src/checkpoints/push.ts) through CheckDeps.pushCheckpoints.
      io.stderr('proctor: checkpoints.push_on_pre_push is set but this build cannot push checkpoints yet\n')
    } else {
      try {
        io.stderr(`proctor: ${await deps.pushCheckpoints({ cwd, config, remote })}\n`)
      } catch (error) {
        // Pushing checkpoints is a convenience; it never blocks the user's own push.
        io.stderr(`proctor: warning: could not push checkpoint branches: ${(error as Error).message}\n`)
      }
    }
  }
}

/** PROCTOR_SKIP=1 always skips; HUSKY=0 only for the git hook (CI often sets HUSKY=0 globally). */
export function skipReason(env: Record<string, string | undefined>, prePush: boolean): string | null {
  if (env.PROCTOR_SKIP === '1') return 'PROCTOR_SKIP=1'
  if (prePush && env.HUSKY === '0') return 'HUSKY=0'
  return null
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value]
}
