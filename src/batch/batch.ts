// A batch: several full supervised sessions (subagents), each in its own git worktree at the same base,
// at most `concurrency` at a time, then one BatchReport. Every task ends up as exactly one child with one
// of the five statuses — a crash, a worktree that could not be created, or a task never started because
// the batch was interrupted included — so completed + failed + errored + interrupted + timeout ==
// child_count, and `subagent_batch_complete` fires exactly once, whatever happened.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import { Budget, limitsOf } from '../proxy/budget.js'
import { UsageMeter } from '../usage/meter.js'
import { pricerFor } from '../usage/prices.js'
import type { Pricer } from '../usage/types.js'
import type { BatchChild, BatchReport } from '../report/model.js'
import { aggregateReports, type ChildInput } from '../report/aggregate.js'
import { LifecycleHooks } from '../hooks/lifecycle.js'
import { agentEnvironment } from '../supervisor/agent-env.js'
import { exitCodeForSignal, type ShutdownSignal } from '../supervisor/signals.js'
import { formatDuration } from '../util/units.js'
import { runSession } from '../session/session.js'
import { startCheckpointReads, type CheckpointReads } from '../session/checkpointing.js'
import { ensureStateDir } from '../state/layout.js'
import { readDetachedHead } from '../git/on-disk.js'
import { sanitizeRefPart } from '../session/session-id.js'
import { runPool } from './pool.js'
import {
  BatchError,
  childConfig,
  childSessionId,
  makeBatchId,
  tasksFromConfig,
  type BatchTask,
} from './tasks.js'
import { WorktreePool, type Lease } from './worktree-pool.js'
import {
  collectChildSession,
  openBatchRepo,
  reapLeftoverWorktrees,
  removeEmptyWorktreesDir,
  worktreesDir,
  type BatchRepo,
} from './worktrees.js'

export { BatchError, parseTaskFlag, type BatchTask } from './tasks.js'

export interface BatchOptions {
  config: Config
  cwd: string
  /** Default: config.batch.tasks. */
  tasks?: BatchTask[]
  /** Default: config.batch.concurrency. */
  concurrency?: number
  /** Default: config.batch.keep_worktrees. */
  keepWorktrees?: boolean
  /** Default: PROCTOR_BATCH_ID, else generated (run id, attempt and job in CI). */
  batchId?: string
  /** Aborting interrupts running children (reason 'SIGTERM' → SIGTERM, else SIGINT); queued ones never start. */
  signal?: AbortSignal
  /** Progress lines (child started / ended); the agents' own output is in each child's transcript. */
  output?: NodeJS.WritableStream | null
  onChildStart?: (task: BatchTask, index: number) => void
  onChildEnd?: (child: BatchChild) => void
  /** Base environment for agents, hooks and git (default process.env). */
  env?: Record<string, string | undefined>
  ci?: Record<string, string | number | null>
  /** Prices usage for budget.batch.usd; default: proctor.yml's `pricing` over the built-in table. */
  pricer?: Pricer
}

export interface BatchOutcome {
  batch: BatchReport
  reportPath: string
  /** 0 all completed and allowed · 1 otherwise · 130/143 interrupted by SIGINT/SIGTERM. */
  exitCode: number
  interruptedBy: ShutdownSignal | null
  /** Worktrees left in place (keep_worktrees), by task index. */
  worktrees: Record<number, string>
}

const NOT_STARTED = 'not started: the batch was interrupted'

export async function runBatch(opts: BatchOptions): Promise<BatchOutcome> {
  const env = { ...(opts.env ?? process.env) }
  const tasks = opts.tasks ?? tasksFromConfig(opts.config)
  if (tasks.length === 0) {
    throw new BatchError(
      'proctor batch: no tasks. Add batch.tasks to proctor.yml (name plus command or shell for each) ' +
        "or give them on the command line: --task tests='npm test'",
    )
  }
  const concurrency = opts.concurrency ?? opts.config.batch.concurrency
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new BatchError(
      `proctor batch: concurrency must be a whole number of at least 1 (got ${concurrency})`,
    )
  }
  const keep = opts.keepWorktrees ?? opts.config.batch.keep_worktrees
  const repo = await openBatchRepo(opts.cwd, env)
  const batchId = opts.batchId ? sanitizeRefPart(opts.batchId) : makeBatchId(env)
  const state = ensureStateDir(repo.root)
  const batchDir = join(state.state, 'batches', batchId)
  mkdirSync(batchDir, { recursive: true })
  const say = (line: string) => opts.output?.write(`proctor batch: ${line}\n`)

  say(
    `${batchId}: ${tasks.length} task(s), ${Math.min(concurrency, tasks.length)} at a time, ` +
      `each in a worktree at ${repo.base.slice(0, 12)}`,
  )
  if (repo.dirty > 0) {
    say(
      `note: ${repo.dirty} uncommitted change(s) in ${repo.root} are not part of the batch (tasks start at HEAD)`,
    )
  }

  const leftovers = await reapLeftoverWorktrees(repo.root, Math.min(opts.config.timeouts.grace, 2_000))
  if (leftovers.length > 0) {
    say(
      `note: ${leftovers.length} worktree(s) of earlier batches are still in .proctor/worktrees/ ` +
        '(kept, or left by a batch that did not finish); remove them with git worktree remove --force <dir>',
    )
  }

  const lifecycle = new LifecycleHooks({
    hooks: opts.config.hooks,
    poolSize: opts.config.hooks_async_pool_size,
    shutdownGraceMs: opts.config.hooks_async_shutdown_grace,
    sessionId: batchId,
    cwd: repo.root,
    // The same environment as a session's hooks and agent: no runner tokens, no step files.
    env: agentEnvironment(env, opts.config.agent.env_passthrough),
    onWarning: (message) => say(`warning: ${message}`),
  })

  // One controller for every child: the caller's abort (or signal) reaches them all with its reason.
  const abort = new AbortController()
  let interruptedBy: ShutdownSignal | null = null
  const onAbort = () => {
    interruptedBy = opts.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'
    say(`received ${interruptedBy}: interrupting running tasks; queued tasks will not start`)
    abort.abort(interruptedBy)
  }
  if (opts.signal?.aborted) onAbort()
  else opts.signal?.addEventListener('abort', onAbort, { once: true })

  const started = new Date()
  const inputs: ChildInput[] = new Array<ChildInput>(tasks.length)
  const worktrees: Record<number, string> = {}
  const wtRoot = worktreesDir(repo.root, batchId)
  // `concurrency` worktrees and a spare; a finished task's is reset for a later one (not with keep).
  const readAhead = readsAhead(opts.config)
  const worktreePool = new WorktreePool({
    repo,
    size: concurrency,
    tasks: tasks.length,
    recycle: !keep,
    dirFor: (index) => join(wtRoot, `${index}-${sanitizeRefPart(tasks[index]!.name)}`),
    signal: abort.signal,
    warn: (message) => say(`warning: ${message}`),
    ...(readAhead
      ? {
          prepare: (dir: string, index: number) =>
            startCheckpointReads(dir, childSessionId(batchId, index, tasks[index]!.name), { pristine: true }),
        }
      : {}),
  })

  const child = new ChildRunner({
    opts,
    env,
    repo,
    batchId,
    keep,
    readAhead,
    signal: abort.signal,
    lifecycle,
    say,
    worktrees: worktreePool,
    usage: batchUsage(opts),
  })
  await runPool({
    count: tasks.length,
    concurrency,
    signal: abort.signal,
    run: async (index) => {
      const task = tasks[index]!
      try {
        opts.onChildStart?.(task, index)
        const result = await child.run(task, index, tasks.length)
        inputs[index] = result.input
        if (result.keptWorktree) worktrees[index] = result.keptWorktree
      } catch (error) {
        // Only a caller's callback can throw here; the child still counts, so the invariant holds.
        inputs[index] ??= erroredInput(task, `task ${task.name}: ${(error as Error).message}`)
      }
    },
    skip: (index) => {
      const task = tasks[index]!
      inputs[index] = { source: task.name, name: task.name, role: task.role, status: 'interrupted' }
    },
  })
  opts.signal?.removeEventListener('abort', onAbort)
  await worktreePool.close()
  if (!keep) removeEmptyWorktreesDir(wtRoot)

  const batch = aggregateReports(batchId, inputs, {
    started_at: started.toISOString(),
    ended_at: new Date().toISOString(),
  })
  // Cancelled tasks have no report but are not problems with one: say why they have none.
  for (const entry of batch.children) {
    const input = inputs[entry.task_index]!
    if (!input.report && !input.problem && input.status === 'interrupted') entry.summary = NOT_STARTED
  }
  const reportPath = join(batchDir, 'batch.json')
  try {
    writeFileSync(reportPath, JSON.stringify(batch, null, 2) + '\n')
  } finally {
    await fireSafely(lifecycle, 'subagent_batch_complete', batchCompletePayload(batch))
    await finishHooks(lifecycle, opts.config, interruptedBy !== null)
  }
  say(
    `${batchId} done in ${formatDuration(batch.total_duration_ms)}: ${batch.completed_count} completed, ` +
      `${batch.failed_count} failed, ${batch.errored_count} errored, ${batch.interrupted_count} interrupted, ` +
      `${batch.timeout_count} timeout`,
  )
  const exitCode = interruptedBy ? exitCodeForSignal(interruptedBy) : batch.verdict === 'allow' ? 0 : 1
  return { batch, reportPath, exitCode, interruptedBy, worktrees }
}

/** The `subagent_batch_complete` hook payload's `extra` (the seed's contract, plus batch id and verdict). */
export function batchCompletePayload(batch: BatchReport): Record<string, unknown> {
  return {
    batch_id: batch.batch_id,
    child_count: batch.child_count,
    completed_count: batch.completed_count,
    failed_count: batch.failed_count,
    errored_count: batch.errored_count,
    interrupted_count: batch.interrupted_count,
    timeout_count: batch.timeout_count,
    total_duration_ms: batch.total_duration_ms,
    verdict: batch.verdict,
    children: batch.children.map(childPayload),
  }
}

function childPayload(c: BatchChild): Record<string, unknown> {
  return {
    task_index: c.task_index,
    name: c.name,
    role: c.role,
    status: c.status,
    duration_ms: c.duration_ms,
    summary: c.summary,
    checkpoint_ref: c.checkpoint_ref,
    violation_count: c.violation_count,
    report_path: c.report_path,
  }
}

interface ChildRunnerContext {
  opts: BatchOptions
  env: Record<string, string | undefined>
  repo: BatchRepo
  batchId: string
  keep: boolean
  /** Whether a child's session uses checkpoint reads begun before it (readsAhead). */
  readAhead: boolean
  signal: AbortSignal
  lifecycle: LifecycleHooks
  say: (line: string) => void
  worktrees: WorktreePool
  /** The batch's usage tally and budget.batch, shared by every session's metering proxy. */
  usage: { meter: UsageMeter; budget: Budget }
}

interface ChildResult {
  input: ChildInput
  keptWorktree: string | null
}

/** Runs one task from worktree to subagent_stop. Never throws: every failure becomes an errored child. */
class ChildRunner {
  constructor(private readonly c: ChildRunnerContext) {}

  async run(task: BatchTask, index: number, total: number): Promise<ChildResult> {
    const { c } = this
    const sessionId = childSessionId(c.batchId, index, task.name)
    const label = `[${index + 1}/${total}] ${task.name}`
    const began = Date.now()
    let input: ChildInput | undefined
    let lease: Lease | null = null
    try {
      lease = await c.worktrees.acquire(index)
    } catch (error) {
      input = erroredInput(
        task,
        `task ${task.name} could not get a worktree: ${(error as Error).message}`,
        began,
      )
    }
    if (lease && c.signal.aborted) {
      c.worktrees.release(lease, { keep: false })
      lease = null
    }
    if (lease) {
      c.say(`${label}: started (session ${sessionId})`)
      try {
        input = await this.session(task, index, sessionId, lease)
      } catch (error) {
        input = erroredInput(task, `task ${task.name} crashed: ${(error as Error).message}`, began)
      }
      // Its session state has been moved out: the worktree can be reset for the next task.
      c.worktrees.release(lease, { keep: c.keep })
    }
    // No worktree and no error: the batch was interrupted before this task could start.
    input ??= { source: task.name, name: task.name, role: task.role, status: 'interrupted' }
    const keptWorktree = lease && c.keep ? lease.dir : null

    const entry = aggregateReports(c.batchId, [input]).children[0]!
    entry.task_index = index
    if (input.status === 'interrupted' && !input.report && !input.problem) entry.summary = NOT_STARTED
    c.say(`${label}: ${entry.status} in ${formatDuration(entry.duration_ms)} — ${entry.summary}`)
    await fireSafely(c.lifecycle, 'subagent_stop', { batch_id: c.batchId, ...childPayload(entry) })
    try {
      c.opts.onChildEnd?.(entry)
    } catch (error) {
      c.say(`warning: onChildEnd failed for ${task.name}: ${(error as Error).message}`)
    }
    return { input, keptWorktree }
  }

  private async session(
    task: BatchTask,
    index: number,
    sessionId: string,
    lease: Lease,
  ): Promise<ChildInput> {
    const { c } = this
    const worktree = lease.dir
    // Begun while the worktree waited for this task, or now: either way before the session's own setup,
    // so the git processes they start are not waited for after it.
    const checkpointReads = c.readAhead
      ? ((await readsStillTrue(lease, sessionId)) ??
        startCheckpointReads(worktree, sessionId, { pristine: true }))
      : null
    const outcome = await runSession({
      config: childConfig(c.opts.config, task),
      command: task.command,
      cwd: worktree,
      sessionId,
      output: null,
      input: null,
      installSignalHandlers: false,
      signal: c.signal,
      env: {
        ...c.env,
        PROCTOR_BATCH_ID: c.batchId,
        PROCTOR_TASK_NAME: task.name,
        PROCTOR_TASK_INDEX: String(index),
      },
      ...(task.role ? { role: task.role } : {}),
      ...(c.opts.ci ? { ci: c.opts.ci } : {}),
      checkpointReads,
      batchUsage: c.usage,
    })
    try {
      const collected = collectChildSession({
        root: c.repo.root,
        worktree,
        sessionId,
        report: outcome.report,
        keep: c.keep,
      })
      return { source: collected.reportPath, name: task.name, role: task.role, report: collected.report }
    } catch (error) {
      // The session ended normally; only moving its files failed, so keep its outcome and say where it is.
      c.say(
        `warning: ${task.name}: could not move its report out of the worktree: ${(error as Error).message}`,
      )
      return { source: outcome.reportPath, name: task.name, role: task.role, report: outcome.report }
    }
  }
}

/**
 * Whether a child's session can use checkpoint reads begun before it: only when it makes them (checkpoints
 * on, the machinery recorded) and nothing runs between its start and its agent's that may change what
 * they read (a session_start hook). The session itself also drops them when it reaped an orphan first.
 */
/** One tally for the whole batch, and budget.batch kept on it (a budget without limits only counts). */
function batchUsage(opts: BatchOptions): { meter: UsageMeter; budget: Budget } {
  const meter = new UsageMeter()
  const { budget } = opts.config
  const tally = { meter, key: 'budget.batch', pricer: opts.pricer ?? pricerFor(opts.config) }
  return { meter, budget: new Budget(limitsOf(budget.batch, budget.warn_at), tally) }
}

function readsAhead(config: Config): boolean {
  return (
    config.checkpoints.enabled && config.policy.git_tamper !== 'off' && !config.hooks.session_start?.length
  )
}

/**
 * The reads begun for this task while its worktree waited (WorktreePool's prepare), if they still tell
 * what the task's agent will find: HEAD is the commit they resolved, and the repository's machinery is as
 * recorded (another task's agent may have changed the shared .git/config or hooks meanwhile, and a session
 * judges its own agent by what was there when it started). Null otherwise: the session reads again.
 */
async function readsStillTrue(lease: Lease, sessionId: string): Promise<CheckpointReads | null> {
  const reads = lease.reads
  lease.reads = null
  if (!reads || reads.sessionId !== sessionId || reads.cwd !== lease.dir) return null
  try {
    const [objects, machinery] = await Promise.all([reads.objects, reads.machinery])
    // A batch worktree's HEAD is detached at the commit its task starts from.
    const head = readDetachedHead(lease.gitDir)
    if (!objects.startCommit || head !== objects.startCommit) return null
    if ((await machinery.changes()).length > 0) return null
    return reads
  } catch {
    return null
  }
}

async function fireSafely(
  lifecycle: LifecycleHooks,
  event: 'subagent_stop' | 'subagent_batch_complete',
  extra: Record<string, unknown>,
): Promise<void> {
  try {
    await lifecycle.fire(event, extra)
  } catch {
    // Lifecycle hooks report their own failures as warnings; they never change a batch's outcome.
  }
}

/**
 * Async hooks (a webhook post of the batch summary) get up to hooks_async_drain_timeout to finish on a
 * normal end; after an interruption the runner's cancel window is short, so they are stopped right away.
 */
async function finishHooks(lifecycle: LifecycleHooks, config: Config, interrupted: boolean): Promise<void> {
  await lifecycle.drain(interrupted ? 0 : config.hooks_async_drain_timeout)
}

/** A task that ended without a session report: errored, with what went wrong (and how long it took). */
function erroredInput(task: BatchTask, problem: string, began?: number): ChildInput {
  return {
    source: task.name,
    name: task.name,
    role: task.role,
    status: 'errored',
    problem,
    ...(began !== undefined ? { duration_ms: Date.now() - began } : {}),
  }
}
