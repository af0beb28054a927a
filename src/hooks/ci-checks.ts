// The built-in stop hook `uses: ci-checks`: the repository's own CI as the gate after the agent. It pushes
// the judged checkpoint through the session's push queue, waits (until the hook's timeout) for the checks
// the repository requires on that commit, and blocks with the failing ones' names, annotations and log
// tails. docs/hooks.md#the-prs-ci-as-a-stop-hook says where it can run and why a timeout is an error.
import { setTimeout as sleep } from 'node:timers/promises'
import type { StopHookConfig } from '../config/schema.js'
import { CiReader, classifyTrouble, type CiGitHub, type RequiredChecks } from '../github/ci-status.js'
import { Git } from '../git/runner.js'
import { shellQuote } from '../policy/evaluate.js'
import { createSanitizer, stripControl } from '../util/sanitize.js'
import { formatDuration } from '../util/units.js'
import {
  currentChecks,
  failureReason,
  judgeChecks,
  MAX_ANNOTATIONS,
  type FailureDetail,
} from './ci-checks-judge.js'
import { changedWorkflowDefinitions, type ChangedDefinition } from '../checkpoints/ci-workflows.js'
import type { StopContext } from './context.js'
import { cap } from './verdict.js'

/** The judged checkpoint on the remote: the commit CI runs on, or why it is not there. */
export type PushedCheckpoint = { ok: true; sha: string; branch: string } | { ok: false; reason: string }

/** What a built-in hook may use besides its config: only a session that may push and read GitHub has it. */
export interface BuiltinHooks {
  /** Pushes checkpoint `sha` through the session's push queue (checkpoints.push_timeout) and waits. */
  push: (sha: string) => Promise<PushedCheckpoint>
  github: CiGitHub
  /**
   * The session's baseline commit (checkpoint 0: the worktree as the user left it), from which the agent's
   * changes to CI's own definition are counted; null on an unborn HEAD (the empty tree); undefined when the
   * session recorded none (then nothing proves CI is the user's, and the hook blocks).
   */
  baseline: string | null | undefined
}

export interface BuiltinOutcome {
  verdict: 'allow' | 'block' | 'error'
  reason: string | null
  timedOut: boolean
}

/** How long GitHub may take to answer past the deadline (the last read, made at the deadline itself). */
const LAST_READ_MS = 5_000

/** Below this many requests left in the rate-limit window, the next read waits for the window to reset. */
const LOW_RATE_REMAINING = 50

const NOT_HERE =
  'ci-checks cannot run here: it pushes the checkpoint and reads GitHub, which only a session of the action in the one-job layout (mode: run) can, with a token that may push and read checks (docs/hooks.md#the-prs-ci-as-a-stop-hook); the verify job of the two-job layout, an agent job with handoff, a fork pull request, `proctor check` and `proctor run` have neither'

export async function runCiChecks(o: {
  hook: StopHookConfig
  context: StopContext
  builtins: BuiltinHooks | undefined
  signal?: AbortSignal
  /** Values redacted from the reason (tokens). */
  secrets?: readonly string[]
}): Promise<BuiltinOutcome> {
  const error = (reason: string, timedOut = false): BuiltinOutcome => ({
    verdict: 'error',
    reason: cap(reason),
    timedOut,
  })
  if (!o.builtins) return error(NOT_HERE)
  const checkpoint = o.context.checkpoint
  if (!checkpoint)
    return error('no checkpoint to push: checkpoints are off, or the work could not be recorded')
  const deadline = Date.now() + o.hook.timeout
  // CI runs the workflows of the commit it is given: one the agent rewrote would judge nothing. Asked
  // before the push, so such a checkpoint never reaches CI.
  const rewritten = await ciRewritten(o.context.cwd, o.builtins.baseline, checkpoint.sha)
  if (rewritten) return { verdict: rewritten.verdict, reason: cap(rewritten.reason), timedOut: false }
  const pushed = await o.builtins.push(checkpoint.sha)
  if (!pushed.ok)
    return error(`could not push checkpoint ${checkpoint.sha.slice(0, 12)} for CI: ${pushed.reason}`)

  const options = o.hook.with
  const pollMs = options?.poll_interval ?? 15_000
  const reader = new CiReader(o.builtins.github)
  const redact = createSanitizer({ secrets: [...(o.secrets ?? [])] }).redact
  let watched: { names: string[] | null; from: string } | null = null
  let lastTrouble: string | null
  let quietPolls = 0
  let pending: string[] = ['(nothing read yet)']
  for (;;) {
    if (o.signal?.aborted) return error('stopped while waiting for CI (proctor is shutting down)')
    let waitMs = pollMs
    // The read at the deadline still gets a moment to answer: a check that finished just then counts.
    const remaining = Math.max(0, deadline - Date.now()) + LAST_READ_MS
    reader.signal = o.signal
      ? AbortSignal.any([o.signal, AbortSignal.timeout(remaining)])
      : AbortSignal.timeout(remaining)
    try {
      watched ??= await watchedChecks(reader, o.hook)
      const { runs, statuses } = await reader.commitChecks(pushed.sha)
      const checks = currentChecks(runs, statuses)
      const judged = judgeChecks(checks, watched.names)
      lastTrouble = null
      pending = judged.pending
      const seenAny = watched.names !== null || checks.length > 0
      if (judged.failing.length > 0 && (judged.pending.length === 0 || Date.now() >= deadline)) {
        const details = await Promise.all(
          judged.failing.map(async (check): Promise<FailureDetail> => ({
            check,
            annotations: check.run ? await reader.annotations(check.run.id, MAX_ANNOTATIONS) : [],
            log: check.run ? await reader.jobLog(check.run.detailsUrl) : null,
          })),
        )
        const reason = failureReason({
          sha: pushed.sha,
          branch: pushed.branch,
          details,
          pending: judged.pending,
          watchedFrom: watched.from,
        })
        return { verdict: 'block', reason: redact(reason), timedOut: false }
      }
      // Every check is known up front when they are named; with "every check on the commit", one that a
      // slower workflow adds later would be missed, so all must look finished on two reads in a row.
      if (judged.pending.length === 0 && judged.failing.length === 0 && seenAny) {
        if (watched.names !== null || ++quietPolls >= 2)
          return { verdict: 'allow', reason: null, timedOut: false }
      } else quietPolls = 0
      if (!seenAny) pending = ['no check has been reported on the commit yet']
    } catch (thrown) {
      if (o.signal?.aborted) return error('stopped while waiting for CI (proctor is shutting down)')
      const trouble = classifyTrouble(thrown)
      if (trouble.kind === 'permanent') return error(permanentReason(trouble.status, trouble.message))
      lastTrouble = trouble.message
      if (trouble.kind === 'rate-limit') waitMs = Math.max(waitMs, trouble.waitMs)
    }
    const rate = reader.rate
    if (rate && rate.remaining < LOW_RATE_REMAINING) waitMs = Math.max(waitMs, rate.resetAt - Date.now())
    const left = deadline - Date.now()
    if (left <= 0) {
      const what = `CI did not finish on ${pushed.sha.slice(0, 12)} within ${formatDuration(o.hook.timeout)} (the hook's timeout): still pending: ${pending.join(', ')}`
      return error(
        redact(
          `${what}${lastTrouble ? `; last GitHub error: ${lastTrouble}` : ''}; the agent was not sent back (it cannot make CI finish)`,
        ),
        true,
      )
    }
    try {
      await sleep(Math.min(waitMs, left), undefined, o.signal ? { signal: o.signal } : {})
    } catch {
      return error('stopped while waiting for CI (proctor is shutting down)')
    }
  }
}

/** How many changed paths a reason lists. */
const MAX_LISTED = 10

/**
 * A block naming the workflow definitions the agent changed since the baseline (it can undo them), or an
 * error when that cannot be told (the user's to fix); null when CI is as the user left it.
 */
async function ciRewritten(
  cwd: string,
  baseline: string | null | undefined,
  sha: string,
): Promise<{ verdict: 'block' | 'error'; reason: string } | null> {
  const unproven =
    'ci-checks cannot tell whether the agent changed the CI workflows (which GitHub runs from the pushed commit)'
  if (baseline === undefined)
    return {
      verdict: 'error',
      reason: `${unproven}: the session recorded no baseline; ci-checks does not wait for CI on it`,
    }
  let changed: ChangedDefinition[]
  try {
    changed = await changedWorkflowDefinitions(new Git({ cwd }), baseline, sha)
  } catch (error) {
    return {
      verdict: 'error',
      reason: `${unproven}: ${stripControl((error as Error).message.split('\n')[0] ?? '')}; ci-checks does not wait for CI on it`,
    }
  }
  if (changed.length === 0) return null
  const listed = changed.slice(0, MAX_LISTED)
  const shown = `${listed.map((c) => stripControl(c.path)).join(', ')}${changed.length > MAX_LISTED ? `, … (${changed.length} in all)` : ''}`
  const quote = (all: readonly ChangedDefinition[]) => all.map((c) => shellQuote(c.path)).join(' ')
  const restore = listed.filter((c) => !c.added)
  const remove = listed.filter((c) => c.added)
  const undo = [
    restore.length ? `git checkout ${baseline?.slice(0, 12) ?? 'HEAD'} -- ${quote(restore)}` : '',
    remove.length ? `rm -r -- ${quote(remove)}` : '',
  ]
    .filter(Boolean)
    .join('; ')
  return {
    verdict: 'block',
    reason:
      `CI's definition was changed since the session started: ${shown}. GitHub runs the workflows (and the ` +
      `local actions they use) of the pushed commit, so CI would judge the work by rules the agent wrote: ` +
      `ci-checks does not wait for CI on this checkpoint. Agent: undo those changes (${undo}), so CI runs the ` +
      `workflows as the user left them. User: if changing CI is the task, ci-checks cannot be its gate; ` +
      `review the workflow change yourself and judge the work with a command stop hook that runs the tests.`,
  }
}

/** The names to wait for: required by the branch, else configured, else every check on the commit (null). */
async function watchedChecks(
  reader: CiReader,
  hook: StopHookConfig,
): Promise<{ names: string[] | null; from: string }> {
  const branch = await reader.targetBranch(hook.with?.branch)
  const required: RequiredChecks | null = await reader.requiredChecks(branch)
  if (required && required.names.length > 0)
    return { names: required.names, from: `required by ${required.source}` }
  const configured = hook.with?.checks ?? []
  if (configured.length > 0) return { names: configured, from: 'with.checks' }
  return { names: null, from: `every check on the commit (${branch} requires none that could be read)` }
}

function permanentReason(status: number, message: string): string {
  const fix =
    status === 401
      ? 'the token was rejected'
      : status === 404
        ? 'the repository or commit is not visible to the token'
        : 'the token may not read them'
  return `cannot read the CI checks (${status} ${message}): ${fix}; the workflow needs \`permissions: checks: read, statuses: read\` (and \`actions: read\` for job logs)`
}
