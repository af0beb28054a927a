// One supervised session: the agent under the supervisor, checkpoints and policy on its work, stop hooks
// deciding whether it may stop (and sending it back when they block), lifecycle hooks, and the report.
// This file is the table of contents; each room has one job (docs/architecture.md#the-sessions-rooms):
//   context.ts    the shared context, opened once: config, environment, report, hooks, checkpoints, halts
//   halts.ts      what halts a session from outside its rounds: signals, failing checkpoints, the proxy
//   rounds.ts     what starts before the first round, then one attempt per round until an ending
//   attempt.ts    one agent process, spawn to exit (responses.ts answers detections, live-stop.ts decides
//                 the stop of an agent that keeps running)
//   stop-round.ts THE stop round: stop hooks, policy gate, and the step after it (loaded at the first stop)
//   endings.ts    every way a session ends, as one named Ending
//   finish.ts     the end of every session: final checkpoint, push, session_end, report.json
// Every way a session can end — exit, timeout, a detector, SIGINT/SIGTERM, a throw — funnels into
// finishSession(), which never throws and leaves nothing running.
import { openSession } from './context.js'
import { endingOfError, type Ending } from './endings.js'
import { finishSession } from './finish.js'
import type { SessionOptions, SessionOutcome } from './options.js'
import { beginSession, newWork, runRounds } from './rounds.js'

export type { SessionListener, SessionOptions, SessionOutcome } from './options.js'

export async function runSession(opts: SessionOptions): Promise<SessionOutcome> {
  const ctx = await openSession(opts)
  const work = newWork()
  let ending: Ending
  try {
    const native = await beginSession(ctx, work)
    ending = await runRounds(ctx, work, native)
  } catch (error) {
    ctx.report.event('error', (error as Error).message)
    ending = endingOfError(error, ctx.halts.signal)
  }
  return finishSession(ctx, ending, work)
}
