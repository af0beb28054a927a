// proctor hooks list | doctor | test <event> [--no-wait]
import type { Command } from 'commander'
import { ConfigError } from '../../config/errors.js'
import { loadConfig } from '../../config/load.js'
import type { Config, LifecycleEvent } from '../../config/schema.js'
import { lifecycleEvents } from '../../config/events.js'
import { processHookIO, type HookCommandIO } from '../../hooks/cli-io.js'
import { describeCommand } from '../../hooks/command.js'
import { sanitizeForTerminal } from '../../hooks/display.js'
import { doctorHooks } from '../../hooks/doctor.js'
import { doctorPrePush } from '../../hooks/doctor-pre-push.js'
import { isLifecycleEvent, LifecycleHooks, type FireResult } from '../../hooks/lifecycle.js'
import { syntheticExtra } from '../../hooks/payloads.js'
import { formatDuration } from '../../util/units.js'
import { CliExit, ExitCode } from '../exit.js'

interface FileOption {
  config?: string
}

export function registerHooksCommand(program: Command, io: HookCommandIO = processHookIO): Command {
  const hooks = program.command('hooks').description('list, check and try out stop hooks and lifecycle hooks')

  hooks
    .command('list')
    .description('list the stop hooks and lifecycle hooks (async ones tagged [async])')
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .action(async (opts: FileOption) => {
      io.stdout(listHooks(await load(opts, io)))
    })

  hooks
    .command('doctor')
    .description(
      'find missing or non-executable commands, async hooks on events that need an answer, duplicates, and whether git runs the pre-push hook',
    )
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .option('--json', 'print {errors, warnings, findings: [{level, where, message}]} as JSON')
    .action(async (opts: FileOption & { json?: boolean }) => {
      const config = await load(opts, io)
      const findings = [
        ...doctorHooks(config, io.cwd(), io.env().PATH ?? ''),
        ...(await doctorPrePush(io.cwd(), io.env())),
      ]
      if (opts.json) {
        const errors = findings.filter((finding) => finding.level === 'error').length
        io.stdout(`${JSON.stringify({ errors, warnings: findings.length - errors, findings }, null, 2)}\n`)
        if (errors > 0) throw new CliExit(ExitCode.failed)
        return
      }
      for (const finding of findings)
        io.stdout(`${finding.level.padEnd(7)} ${finding.where}: ${finding.message}\n`)
      const errors = findings.filter((finding) => finding.level === 'error').length
      if (findings.length === 0) io.stdout('hooks doctor: no problems found\n')
      else io.stdout(`hooks doctor: ${errors} error(s), ${findings.length - errors} warning(s)\n`)
      if (errors > 0) throw new CliExit(ExitCode.failed)
    })

  hooks
    .command('test')
    .description('fire one lifecycle event with a synthetic payload (stop hooks: use proctor check)')
    .argument('<event>', `one of ${lifecycleEvents.join(', ')}`)
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .option(
      '--no-wait',
      'schedule async hooks the real fire-and-forget way and report the scheduling latency',
    )
    .action(async (event: string, opts: FileOption & { wait: boolean }) => {
      if (!isLifecycleEvent(event)) {
        throw new CliExit(
          ExitCode.usage,
          `unknown event "${event}"; use one of ${lifecycleEvents.join(', ')}`,
        )
      }
      await testEvent(await load(opts, io), event, opts.wait, io)
    })

  return hooks
}

export function listHooks(config: Config): string {
  const lines: string[] = []
  lines.push(`stop hooks (run in parallel; max_stop_rounds ${config.max_stop_rounds}):`)
  if (config.stop_hooks.length === 0) lines.push('  (none)')
  const width = Math.max(4, ...config.stop_hooks.map((hook) => hook.name.length))
  for (const hook of config.stop_hooks) {
    // The default (on_error: block) fails closed; only an advisory hook is worth pointing out.
    const onError = hook.advisory ? '  advisory' : hook.on_error === 'allow' ? '  on_error: allow' : ''
    lines.push(
      `  ${hook.name.padEnd(width)}  ${hook.command !== undefined ? describeCommand(hook.command) : `uses: ${hook.uses}`}  (timeout ${formatDuration(hook.timeout)}${onError})`,
    )
  }
  lines.push(
    `lifecycle hooks (async pool ${config.hooks_async_pool_size}, drain ${formatDuration(config.hooks_async_drain_timeout)}, shutdown grace ${formatDuration(config.hooks_async_shutdown_grace)}):`,
  )
  let any = false
  for (const event of lifecycleEvents) {
    for (const entry of config.hooks[event] ?? []) {
      any = true
      const label = entry.name ? `${entry.name}: ` : ''
      lines.push(
        `  ${event.padEnd(23)}  ${label}${describeCommand(entry.command)}  (timeout ${formatDuration(entry.timeout)})${entry.async ? ' [async]' : ''}`,
      )
    }
  }
  if (!any) lines.push('  (none)')
  return `${lines.join('\n')}\n`
}

async function testEvent(
  config: Config,
  event: LifecycleEvent,
  wait: boolean,
  io: HookCommandIO,
): Promise<void> {
  const entries = config.hooks[event] ?? []
  if (entries.length === 0) {
    const hint =
      event === 'stop' && config.stop_hooks.length > 0 ? ' (stop_hooks run with: proctor check)' : ''
    io.stdout(`no hooks configured for ${event}${hint}\n`)
    return
  }
  const warnings: string[] = []
  const lifecycle = new LifecycleHooks({
    hooks: config.hooks,
    poolSize: config.hooks_async_pool_size,
    shutdownGraceMs: config.hooks_async_shutdown_grace,
    sessionId: 'hooks-test',
    cwd: io.cwd(),
    env: io.env(),
    onWarning: (message) => warnings.push(message),
  })
  const extra = syntheticExtra(event)
  io.stdout(
    `firing ${event} with ${JSON.stringify({ hook_event_name: event, session_id: 'hooks-test', extra })}\n`,
  )
  let results: FireResult[]
  try {
    results = await lifecycle.fire(event, extra, { waitForAsync: wait })
    for (const result of results) io.stdout(describeResult(result))
    if (!wait && results.some((result) => result.status === 'scheduled')) {
      io.stdout('waiting for the async hooks to finish (proctor never leaves hooks running)…\n')
      await lifecycle.settled()
    }
  } finally {
    await lifecycle.shutdown()
  }
  for (const warning of warnings) io.stderr(`warning: ${sanitizeForTerminal(warning)}\n`)
  if (results.some((result) => result.status === 'error' || result.status === 'timeout'))
    throw new CliExit(ExitCode.failed)
}

function describeResult(result: FireResult): string {
  const tag = result.async ? ' [async]' : ''
  if (result.status === 'scheduled')
    return `  scheduled  ${result.name}${tag} in ${result.duration_ms.toFixed(2)}ms\n`
  const out = [
    `  ${result.status.padEnd(9)}  ${result.name}${tag}  ${formatDuration(result.duration_ms)}${result.message ? `  ${sanitizeForTerminal(result.message)}` : ''}`,
  ]
  const stdout = result.stdout.trim()
  if (stdout)
    out.push(
      ...sanitizeForTerminal(stdout)
        .split('\n')
        .slice(0, 20)
        .map((line) => `      | ${line}`),
    )
  return `${out.join('\n')}\n`
}

async function load(opts: FileOption, io: HookCommandIO): Promise<Config> {
  try {
    const loaded = await loadConfig({ file: opts.config, cwd: io.cwd() })
    for (const warning of loaded.warnings) io.stderr(`proctor: warning: ${warning}\n`)
    return loaded.config
  } catch (error) {
    if (error instanceof ConfigError) throw new CliExit(ExitCode.usage, error.message)
    throw error
  }
}
