// What halts a session from outside its rounds: a signal (SIGINT/SIGTERM, or the caller's abort), the
// checkpoints failing beyond checkpoints.max_failures, and the metering proxy (a spent budget, a model API
// that refused the key). Each stops the agent that runs now; the rounds ask `pending()` before they start
// another run and after each one.
import type { ReportBuilder } from '../report/builder.js'
import type { AgentRun } from '../supervisor/agent-run.js'
import { installShutdownSignals, type ShutdownSignal } from '../supervisor/signals.js'
import type { ProxyStop } from '../proxy/server.js'
import { endingOfProxyStop, errored, interrupted, type Ending } from './endings.js'

/** While a signal is being handled the agent gets less grace: the runner's cancel window is 7.5 s in all. */
export const INTERRUPT_GRACE_MS = 2_500

export class Halts {
  /** The first SIGINT/SIGTERM (or abort): the agent and the hooks are stopped; finishing goes on. */
  signal: ShutdownSignal | null = null
  /** Checkpoints failed beyond checkpoints.max_failures: the agent is stopped, the session ends errored. */
  fatal: string | null = null
  /** The metering proxy ended the session: the budget is spent or the model API refused the key or kept failing. */
  proxyStop: ProxyStop | null = null
  /** The agent run going on now, if any: what a halt stops. */
  run: AgentRun | null = null
  /** Aborted by a signal: the stop hooks running now are stopped too. */
  readonly hooks = new AbortController()
  /** Set once the session's checkpoints exist; a signal may come before. */
  private cutGitShort: () => void = () => undefined

  constructor(private readonly report: ReportBuilder) {}

  interrupt(signal: ShutdownSignal): void {
    if (this.signal) return
    this.signal = signal
    this.report.event('signal', `received ${signal}: stopping the agent and finishing the session`)
    this.hooks.abort()
    this.cutGitShort()
    void this.run?.stop('signal', INTERRUPT_GRACE_MS)
  }

  /** A git blocked on something the agent planted must not outlast the cancel window either. */
  onInterrupt(cutGitShort: () => void): void {
    this.cutGitShort = cutGitShort
    if (this.signal) cutGitShort()
  }

  checkpointsFailed(reason: string): void {
    this.fatal ??= reason
    void this.run?.stop('requested')
  }

  proxyStopped(stop: ProxyStop): void {
    this.proxyStop ??= stop
    this.report.event(stop.kind === 'budget' ? 'budget' : 'error', stop.reason)
    void this.run?.stop('requested')
  }

  /** The ending a halt decided (a signal first), or null: the session goes on. */
  pending(): Ending | null {
    if (this.signal) return interrupted(this.signal)
    if (this.fatal) return errored(this.fatal)
    if (this.proxyStop) return endingOfProxyStop(this.proxyStop)
    return null
  }

  /**
   * Interrupts on SIGINT/SIGTERM to this process (the CLI: `handleSignals`) and on `signal`'s abort
   * (batches, tests); returns the undo.
   */
  listen(handleSignals: boolean, signal: AbortSignal | undefined): () => void {
    const uninstall = handleSignals
      ? installShutdownSignals(async (received) => this.interrupt(received))
      : () => undefined
    const onAbort = () => this.interrupt(signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT')
    if (signal?.aborted) onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    return () => {
      uninstall()
      signal?.removeEventListener('abort', onAbort)
    }
  }
}
