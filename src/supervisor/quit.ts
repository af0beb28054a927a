// Ending an interactive agent once the session is decided. A TUI left at its prompt would wait until the
// total timeout, so proctor first asks it to exit the way a person would (agent.quit, e.g. "/exit" and
// Enter: the agent saves its session and restores the terminal), and stops it the hard way (SIGTERM, grace,
// SIGKILL) only if it is still running after `graceMs`.
import { setTimeout as sleep } from 'node:timers/promises'
import type { AgentExit } from './agent-run.js'
import type { StopCause, WriteResult } from './types.js'

export interface QuitTarget {
  /** `final`: the quit keys are the one thing typed after the session is decided. */
  write(data: string, options: { final: true }): Promise<WriteResult>
  stop(cause: StopCause): Promise<AgentExit>
  readonly finished: Promise<AgentExit>
}

export interface QuitResult {
  /** The agent exited by itself after the quit keys (false: none configured, or it had to be stopped). */
  graceful: boolean
}

export async function quitAgent(
  target: QuitTarget,
  keys: string | undefined,
  { submitDelayMs, graceMs }: { submitDelayMs: number; graceMs: number },
): Promise<QuitResult> {
  if (keys) {
    // A final Enter goes as its own write, like typed reasons: a TUI may take one long write for a paste.
    const enter = keys.length > 1 && keys.endsWith('\r')
    const text = enter ? keys.slice(0, -1) : keys
    let delivered = (await target.write(text, { final: true })).delivered
    if (delivered && enter) {
      await sleep(submitDelayMs)
      delivered = (await target.write('\r', { final: true })).delivered
    }
    if (delivered && (await exitsWithin(target.finished, graceMs))) return { graceful: true }
  }
  void target.stop('requested')
  return { graceful: false }
}

function exitsWithin(finished: Promise<AgentExit>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void finished.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
