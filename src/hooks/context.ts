// What a stop hook is told: the JSON on its stdin and the same facts as PROCTOR_* environment variables.
import type { Violation } from '../report/model.js'

export type StopReason = 'completed' | 'manual' | 'pre-push' | 'native' | 'timeout' | 'interrupted' | string

/** One line of git's pre-push stdin: `<local ref> <local sha> <remote ref> <remote sha>`. */
export interface PushedRef {
  local_ref: string
  local_sha: string
  remote_ref: string
  remote_sha: string
}

export interface StopCheckpoint {
  ref: string
  sha: string
  files_changed: string[]
}

export interface StopContext {
  session_id: string
  cwd: string
  stop_reason: StopReason
  /** The tail of the agent's rendered output (empty outside a session). */
  final_text: string
  /** How many times the agent has tried to finish so far (1 on the first stop). */
  rounds: number
  /** True when the agent is already continuing because stop hooks blocked before. */
  stop_hook_active: boolean
  checkpoint: StopCheckpoint | null
  violations: Violation[]
  /** pre-push only: the refs git is about to push, and where to. */
  pushed_refs?: PushedRef[]
  remote?: { name: string; url: string } | null
}

/** The JSON a stop hook reads on stdin. `iterations` mirrors `rounds` for Aleph-style scripts. */
export function stopPayload(context: StopContext, round: number): Record<string, unknown> {
  return {
    hook_event_name: 'stop',
    session_id: context.session_id,
    cwd: context.cwd,
    stop_reason: context.stop_reason,
    final_text: context.final_text,
    rounds: context.rounds,
    iterations: context.rounds,
    round,
    stop_hook_active: context.stop_hook_active,
    checkpoint: context.checkpoint,
    violations: context.violations,
    pushed_refs: context.pushed_refs ?? [],
    remote: context.remote ?? null,
  }
}

/** The same facts for scripts that do not parse JSON. */
export function stopEnv(context: StopContext, round: number, hookName: string): Record<string, string> {
  return {
    PROCTOR_SESSION_ID: context.session_id,
    PROCTOR_HOOK_EVENT: 'stop',
    PROCTOR_HOOK_NAME: hookName,
    PROCTOR_STOP_REASON: context.stop_reason,
    PROCTOR_ROUND: String(round),
    PROCTOR_STOP_HOOK_ACTIVE: context.stop_hook_active ? '1' : '0',
    PROCTOR_CHECKPOINT_SHA: context.checkpoint?.sha ?? '',
    PROCTOR_CHECKPOINT_REF: context.checkpoint?.ref ?? '',
    PROCTOR_CWD: context.cwd,
  }
}

const ZERO_SHA = /^0+$/

/** Parses git's pre-push stdin; blank lines are ignored and an empty stdin (nothing to push) is fine. */
export function parsePrePushLines(text: string): PushedRef[] {
  const refs: PushedRef[] = []
  for (const line of text.split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/)
    if (parts.length !== 4) continue
    const [local_ref, local_sha, remote_ref, remote_sha] = parts as [string, string, string, string]
    refs.push({ local_ref, local_sha, remote_ref, remote_sha })
  }
  return refs
}

/** A deletion pushes nothing to check (`(delete)` with an all-zero local sha). */
export function isDeletion(ref: PushedRef): boolean {
  return ref.local_ref === '(delete)' || ZERO_SHA.test(ref.local_sha)
}
