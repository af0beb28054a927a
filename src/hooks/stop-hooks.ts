// Runs every configured stop hook in parallel and combines their verdicts: any gating block, failure or
// error blocks; the reasons the agent can act on (blocks and failures) are kept apart from hook errors,
// which only the user can fix.
import type { StopHookConfig } from '../config/schema.js'
import type { StopHookResult } from '../report/model.js'
import { describeCommand, toCommandSpec } from './command.js'
import { stopEnv, stopPayload, type StopContext } from './context.js'
import { startHookProcess, type StartedHook } from './run-hook.js'
import { interpretStopHook } from './verdict.js'

export interface RunStopHooksOptions {
  hooks: StopHookConfig[]
  context: StopContext
  cwd: string
  /** The hooks' base environment (usually process.env plus agent.env); PROCTOR_* variables are added. */
  env: Record<string, string | undefined>
  /** Time between SIGTERM and SIGKILL when a hook is stopped. */
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

export async function runStopHooks(options: RunStopHooksOptions): Promise<StopHooksOutcome> {
  const stdin = `${JSON.stringify(stopPayload(options.context, options.round))}\n`
  const running: StartedHook[] = []
  const stopAll = (): void => {
    for (const hook of running) void hook.process?.stop('shutdown')
  }
  options.signal?.addEventListener('abort', stopAll, { once: true })
  try {
    const settled = await Promise.all(
      options.hooks.map(async (hook) => {
        options.onStart?.(hook.name)
        const started = startHookProcess({
          command: toCommandSpec(hook.command),
          cwd: options.cwd,
          env: { ...options.env, ...stopEnv(options.context, options.round, hook.name) },
          stdin,
          timeoutMs: hook.timeout,
          graceMs: options.graceMs,
          label: `stop hook ${hook.name}`,
          registry: options.registry,
          ...(options.onOutput
            ? { onOutput: (chunk: Uint8Array) => options.onOutput?.(hook.name, chunk) }
            : {}),
        })
        running.push(started)
        if (options.signal?.aborted) void started.process?.stop('shutdown')
        const run = await started.done
        const interpreted = interpretStopHook({
          ...run,
          timeoutMs: hook.timeout,
          name: hook.name,
          command: describeCommand(hook.command),
          secrets: knownSecrets(options.env),
          cwd: options.cwd,
        })
        const advisory = hook.advisory || (hook.on_error === 'allow' && interpreted.verdict !== 'block')
        const result: StopHookResult = {
          name: hook.name,
          verdict: interpreted.verdict === 'fail' ? 'block' : interpreted.verdict,
          reason: interpreted.reason,
          exit_code: run.exitCode,
          duration_ms: Math.round(run.durationMs),
          round: options.round,
        }
        if (interpreted.verdict === 'fail' && advisory) result.verdict = 'error'
        if (run.timedOut) result.timed_out = true
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

/** Token values in the hooks' environment that must not be quoted back from their output. */
function knownSecrets(env: Record<string, string | undefined>): string[] {
  return ['GITHUB_TOKEN', 'GH_TOKEN', 'INPUT_GITHUB-TOKEN', 'INPUT_GITHUB_TOKEN']
    .map((name) => env[name])
    .filter((value): value is string => typeof value === 'string' && value.length > 0)
}
