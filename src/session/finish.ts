// The end of every session, however it ended: the proxy closed, the agent's hook settings put back, the
// final checkpoint and push (bounded after a signal), `session_end`, the async hooks drained, report.json.
// Never throws: whatever fails is an event in the report.
import { join } from 'node:path'
import type { SessionReport } from '../report/model.js'
import { lifecycleExtra } from '../hooks/payloads.js'
import { writeFileAtomic } from '../util/safe-file.js'
import { fire, type SessionContext } from './context.js'
import { finalEnding, type Ending } from './endings.js'
import type { SessionOutcome } from './options.js'
import type { SessionWork } from './rounds.js'

/** ...and the final push gets this long before report.json is written anyway. */
const INTERRUPT_PUSH_DEADLINE_MS = 3_000

export async function finishSession(
  ctx: SessionContext,
  decided: Ending,
  work: SessionWork,
): Promise<SessionOutcome> {
  const { report, halts, checkpoints, config } = ctx
  await releaseAgentSide(ctx, work)
  await ctx.housekeeping()
  try {
    await checkpoints.finish(halts.signal ? INTERRUPT_PUSH_DEADLINE_MS : undefined)
  } catch (error) {
    report.event('error', `final checkpoint failed: ${(error as Error).message}`)
  }
  const ending = finalEnding(decided, checkpoints, halts.signal !== null)
  const { status, verdict, exitCode, reason } = ending
  report.finish({ ...ending, outputTail: work.outputTail, transcript: work.transcript })
  report.event('session_end', `session ended: ${status}, verdict ${verdict}`)
  await fire(
    ctx.lifecycle,
    'session_end',
    lifecycleExtra.session_end({ status, verdict, exit_code: exitCode, reason }),
  )
  // Async hooks (session_end's webhook) finish before proctor exits; after a signal the runner's cancel
  // window leaves no time, so they are stopped at once (with a warning).
  await ctx.lifecycle.drain(halts.signal ? 0 : config.hooks_async_drain_timeout)
  ctx.unlisten()

  const final = report.snapshot()
  const reportPath = join(ctx.dir, 'report.json')
  const reportError = saveReport(reportPath, final)
  // A session whose report could not be saved has not passed: its verdict would be lost with it.
  return { report: final, reportPath, exitCode: reportError && exitCode === 0 ? 1 : exitCode, reportError }
}

/** The metering proxy closed, the agent's hook settings restored, the native hook's relay closed. */
async function releaseAgentSide(ctx: SessionContext, work: SessionWork): Promise<void> {
  const { report } = ctx
  await work.modelProxy?.close().catch(() => undefined)
  await (work.native?.restore() ?? Promise.resolve([]))
    .then((changed) => {
      for (const file of changed)
        report.event(
          'warning',
          `the agent changed ${file}, which proctor wrote for its Stop hook; the original was put back`,
        )
    })
    .catch((error: unknown) =>
      report.event('error', `could not restore the agent's hook settings: ${(error as Error).message}`),
    )
  await work.nativeStops?.close().catch(() => undefined)
}

/**
 * Writes report.json through a temp file and a rename (writeFileAtomic): a FIFO or symlink the agent put
 * at the path is replaced, not opened, and a full disk leaves no torn file. Returns the one-line problem.
 */
function saveReport(path: string, report: SessionReport): string | undefined {
  try {
    writeFileAtomic(path, JSON.stringify(report, null, 2) + '\n')
    return undefined
  } catch (error) {
    return `${(error as Error).message}; proctor exits 1 because the report is lost (the summary above is all that remains): free the space or fix the path and run again`
  }
}
