// The work behind `proctor check`: run the stop hooks against the working tree without an agent.
import type { Config } from '../config/schema.js'
import type { StopHookResult } from '../report/model.js'
import { isDeletion, parsePrePushLines, type PushedRef } from './context.js'
import { runStopHooks, type StopHooksOutcome } from './stop-hooks.js'

export interface CheckOptions {
  config: Config
  cwd: string
  env: Record<string, string | undefined>
  /** Only these stop hooks (by name); all when empty. */
  only: string[]
  prePush: { stdin: string; remote: string | null; url: string | null } | null
  signal?: AbortSignal
  onResult?: (result: StopHookResult) => void
}

export type CheckOutcome =
  { kind: 'ran'; outcome: StopHooksOutcome; pushedRefs: PushedRef[] } | { kind: 'nothing'; message: string }

/** Thrown for a --hook name that is not configured (a usage error, exit 2). */
export class UnknownHookError extends Error {}

export async function runCheck(options: CheckOptions): Promise<CheckOutcome> {
  const { config } = options
  const unknown = options.only.filter((name) => !config.stop_hooks.some((hook) => hook.name === name))
  if (unknown.length > 0) {
    const known = config.stop_hooks.map((hook) => hook.name).join(', ') || 'none'
    throw new UnknownHookError(
      `no stop hook named ${unknown.join(', ')} in proctor.yml (configured: ${known})`,
    )
  }
  const hooks =
    options.only.length > 0
      ? config.stop_hooks.filter((hook) => options.only.includes(hook.name))
      : config.stop_hooks
  if (hooks.length === 0)
    return { kind: 'nothing', message: 'no stop hooks configured in proctor.yml; nothing to check' }
  const pushedRefs = options.prePush ? parsePrePushLines(options.prePush.stdin) : []
  if (options.prePush && pushedRefs.length > 0 && pushedRefs.every(isDeletion)) {
    return { kind: 'nothing', message: 'this push only deletes refs; nothing to check' }
  }
  const outcome = await runStopHooks({
    hooks,
    context: {
      session_id: options.env.PROCTOR_SESSION_ID ?? `check-${compactTimestamp(new Date())}`,
      cwd: options.cwd,
      stop_reason: options.prePush ? 'pre-push' : 'manual',
      final_text: '',
      rounds: 1,
      stop_hook_active: false,
      checkpoint: null,
      violations: [],
      pushed_refs: pushedRefs,
      remote: options.prePush?.remote
        ? { name: options.prePush.remote, url: options.prePush.url ?? options.prePush.remote }
        : null,
    },
    cwd: options.cwd,
    env: options.env,
    graceMs: config.timeouts.grace,
    round: 1,
    onResult: options.onResult,
    signal: options.signal,
  })
  return { kind: 'ran', outcome, pushedRefs }
}

function compactTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}
