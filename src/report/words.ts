// The words every rendering of a report uses for the same fact — terminal, job log, PR comment, job
// summary and check runs — so they cannot drift: a hook that could not run is a "hook error" everywhere.
import type { StopHookResult } from './model.js'

export type HookWord = 'passed' | 'blocked' | 'hook error' | 'timed out'

/** How a stop hook ended, in one word. */
export function hookWord(result: Pick<StopHookResult, 'verdict' | 'timed_out'>): HookWord {
  if (result.timed_out) return 'timed out'
  return HOOK_WORDS[result.verdict]
}

const HOOK_WORDS: Record<StopHookResult['verdict'], HookWord> = {
  allow: 'passed',
  block: 'blocked',
  error: 'hook error',
}

/** The icon beside a hook word where markdown renders it (comment, job summary). */
export const HOOK_ICON: Record<HookWord, string> = {
  passed: '✅',
  blocked: '❌',
  'hook error': '⚠️',
  'timed out': '⏱️',
}

/** The first line of a reason that says something, trimmed; undefined when there is none. */
export function firstLine(text: string | null | undefined): string | undefined {
  return text
    ?.split('\n')
    .find((line) => line.trim())
    ?.trim()
}

/**
 * What the worktree already held when the session started, never the agent's (report.baseline): "3 files
 * were already changed before the session; not judged".
 */
export function describePreExisting(count: number): string {
  return `${count} file${count === 1 ? ' was' : 's were'} already changed before the session; not judged`
}

/** Why a file was left out of a checkpoint, in the words every rendering uses (CheckpointRecord.skipped_reasons). */
export function skipReasonWord(reason: string): string {
  switch (reason) {
    case 'size':
      return 'over max_file_size'
    case 'lfs':
      return 'LFS-tracked'
    case 'forbidden':
      return 'forbidden area'
    case 'secret':
      return 'holds a secret'
    case 'unrecordable':
      return 'git could not record it'
    default:
      return reason
  }
}
