// Runs every configured stop hook in parallel and combines their verdicts: any block blocks, every reason is kept.
import type { StopHookConfig } from '../config/schema.js'
import type { StopHookResult } from '../report/model.js'
import { toCommandSpec } from './command.js'
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
  /** One entry per blocking hook, "<name>: <reason>", in configuration order. */
  reasons: string[]
}

export async function runStopHooks(options: RunStopHooksOptions): Promise<StopHooksOutcome> {
  const stdin = `${JSON.stringify(stopPayload(options.context, options.round))}\n`
  const running: StartedHook[] = []
  const stopAll = (): void => {
    for (const hook of running) void hook.process?.stop('shutdown')
  }
  options.signal?.addEventListener('abort', stopAll, { once: true })
  try {
    const results = await Promise.all(
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
        const interpreted = interpretStopHook({ ...run, timeoutMs: hook.timeout })
        const result: StopHookResult = {
          name: hook.name,
          verdict: interpreted.verdict,
          reason: interpreted.reason,
          exit_code: run.exitCode,
          duration_ms: Math.round(run.durationMs),
          round: options.round,
        }
        if (run.timedOut) result.timed_out = true
        if (result.verdict === 'error' && hook.on_error === 'block') {
          // The hook itself failed; on_error: block makes that failure a gate instead of a warning.
          result.verdict = 'block'
          result.reason = `hook error (on_error: block): ${interpreted.reason ?? 'unknown error'}`
        }
        options.onResult?.(result)
        return result
      }),
    )
    const blocking = results.filter((result) => result.verdict === 'block')
    return {
      verdict: blocking.length > 0 ? 'block' : 'allow',
      results,
      reasons: blocking.map((result) => `${result.name}: ${result.reason ?? 'blocked'}`),
    }
  } finally {
    options.signal?.removeEventListener('abort', stopAll)
  }
}
