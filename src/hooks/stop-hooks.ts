// Runs every configured stop hook in parallel and combines their verdicts: any gating block, failure or
// error blocks; the reasons the agent can act on (blocks and failures) are kept apart from hook errors,
// which only the user can fix.
import type { StopHookConfig } from '../config/schema.js'
import type { StopHookResult } from '../report/model.js'
import { describeCommand, toCommandSpec } from './command.js'
import { stopEnv, stopPayload, type StopContext } from './context.js'
import { startHookProcess, type StartedHook } from './run-hook.js'
import { interpretStopHook, type InterpretedVerdict } from './verdict.js'
import type { BuiltinHooks } from './ci-checks.js'

export interface RunStopHooksOptions {
  hooks: StopHookConfig[]
  context: StopContext
  cwd: string
  /** The hooks' base environment (usually process.env plus agent.env); PROCTOR_* variables are added. */
  env: Record<string, string | undefined>
  /** Time between SIGTERM and SIGKILL when a hook is stopped (timeouts.grace), at most STOP_HOOK_MAX_GRACE_MS. */
  graceMs: number
  /** Which stop-hook round this is (1 on the first stop). */
  round: number
  onStart?: (name: string) => void
  onResult?: (result: StopHookResult) => void
  /** A hook's output as it arrives (the live log); the verdict still reads the captured copy. */
  onOutput?: (name: string, chunk: Uint8Array) => void
  /** Aborting stops every running hook (their results become errors). */
  signal?: AbortSignal
  /** Run registry (the state dir) so hooks of a crashed proctor are reaped by the next start. */
  registry?: { dir: string; session?: string }
  /** What built-in hooks (`uses: ci-checks`) need: a session's push and GitHub; absent, they are errors. */
  builtins?: BuiltinHooks
}

export interface StopHooksOutcome {
  verdict: 'allow' | 'block'
  results: StopHookResult[]
  /**
   * What the agent is sent back with, in configuration order: "<name>: <reason>" per blocking hook and
   * "<name> (<command>) exited N: <output>" per failed one.
   */
  reasons: string[]
  /** Hooks that could not run and block (not sent to the agent: it cannot fix proctor.yml). */
  errors: string[]
}

/**
 * The longest a stopped stop hook gets between SIGTERM and SIGKILL, whatever timeouts.grace says: a stop round
 * is what a user waits on at an interrupt, and a hook (unlike the agent) has no work to save.
 */
export const STOP_HOOK_MAX_GRACE_MS = 2_500

/** Runs the stop hooks (none configured: allow) — the one call a session's stop round and the verify job make. */
export async function runStopHooks(options: RunStopHooksOptions): Promise<StopHooksOutcome> {
  if (options.hooks.length === 0) return { verdict: 'allow', results: [], reasons: [], errors: [] }
  const graceMs = Math.min(options.graceMs, STOP_HOOK_MAX_GRACE_MS)
  const stdin = `${JSON.stringify(stopPayload(options.context, options.round))}\n`
  const running: StartedHook[] = []
  const stopAll = (): void => {
    for (const hook of running) void hook.process?.stop('shutdown')
  }
  options.signal?.addEventListener('abort', stopAll, { once: true })
  const runCommand = async (
    hook: StopHookConfig,
    command: NonNullable<StopHookConfig['command']>,
  ): Promise<Ran> => {
    const started = startHookProcess({
      command: toCommandSpec(command),
      cwd: options.cwd,
      env: { ...options.env, ...stopEnv(options.context, options.round, hook.name) },
      stdin,
      timeoutMs: hook.timeout,
      graceMs,
      label: `stop hook ${hook.name}`,
      registry: options.registry,
      ...(options.onOutput ? { onOutput: (chunk: Uint8Array) => options.onOutput?.(hook.name, chunk) } : {}),
    })
    running.push(started)
    if (options.signal?.aborted) void started.process?.stop('shutdown')
    const run = await started.done
    const interpreted = interpretStopHook({
      ...run,
      timeoutMs: hook.timeout,
      name: hook.name,
      command: describeCommand(command),
      secrets: knownSecrets(options.env),
      cwd: options.cwd,
    })
    return { interpreted, exitCode: run.exitCode, durationMs: run.durationMs, timedOut: run.timedOut }
  }
  try {
    const settled = await Promise.all(
      options.hooks.map(async (hook) => {
        options.onStart?.(hook.name)
        const ran =
          hook.command === undefined ? await runBuiltin(hook, options) : await runCommand(hook, hook.command)
        const { interpreted, exitCode, durationMs, timedOut } = ran
        const advisory = hook.advisory || (hook.on_error === 'allow' && interpreted.verdict !== 'block')
        const result: StopHookResult = {
          name: hook.name,
          verdict: interpreted.verdict === 'fail' ? 'block' : interpreted.verdict,
          reason: interpreted.reason,
          exit_code: exitCode,
          duration_ms: Math.round(durationMs),
          round: options.round,
        }
        if (interpreted.verdict === 'fail' && advisory) result.verdict = 'error'
        if (timedOut) result.timed_out = true
        if (interpreted.locations) result.locations = interpreted.locations
        if (advisory && result.verdict !== 'allow') result.advisory = true
        options.onResult?.(result)
        return { result, failed: interpreted.verdict === 'fail' }
      }),
    )
    const gating = settled.filter(({ result }) => result.verdict !== 'allow' && !result.advisory)
    return {
      verdict: gating.length > 0 ? 'block' : 'allow',
      results: settled.map(({ result }) => result),
      reasons: gating
        .filter(({ result }) => result.verdict === 'block')
        .map(({ result, failed }) =>
          // A failure's reason already starts with the hook's name and command.
          failed
            ? (result.reason ?? `${result.name} failed`)
            : `${result.name}: ${result.reason ?? 'blocked'}`,
        ),
      errors: gating
        .filter(({ result }) => result.verdict === 'error')
        .map(({ result }) => `${result.name}: ${result.reason ?? 'hook error'}`),
    }
  } finally {
    options.signal?.removeEventListener('abort', stopAll)
  }
}

/** A hook's verdict before the advisory rules, from a process or a built-in. */
interface Ran {
  interpreted: InterpretedVerdict
  exitCode: number | null
  durationMs: number
  timedOut: boolean
}

/** A built-in hook (`uses:`), in proctor's own process: it needs proctor's push and token, never a shell's. */
async function runBuiltin(hook: StopHookConfig, options: RunStopHooksOptions): Promise<Ran> {
  const started = performance.now()
  // Loaded when a config uses it, like the rest of what only a stop needs.
  const { runCiChecks } = await import('./ci-checks.js')
  // Never throws, like a hook process: anything unforeseen is this hook's error, not the session's end.
  const outcome = await runCiChecks({
    hook,
    context: options.context,
    builtins: options.builtins,
    ...(options.signal ? { signal: options.signal } : {}),
    secrets: knownSecrets(options.env),
  }).catch((error: unknown) => ({
    verdict: 'error' as const,
    reason: `${hook.uses} failed: ${error instanceof Error ? error.message : String(error)}`,
    timedOut: false,
  }))
  return {
    interpreted: { verdict: outcome.verdict, reason: outcome.reason },
    exitCode: null,
    durationMs: performance.now() - started,
    timedOut: outcome.timedOut,
  }
}

/** Token values in the hooks' environment that must not be quoted back from their output. */
function knownSecrets(env: Record<string, string | undefined>): string[] {
  return ['GITHUB_TOKEN', 'GH_TOKEN', 'INPUT_GITHUB-TOKEN', 'INPUT_GITHUB_TOKEN']
    .map((name) => env[name])
    .filter((value): value is string => typeof value === 'string' && value.length > 0)
}
