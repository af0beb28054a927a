// The stop of an agent that is still running: an interactive agent that says it is done (a detector rule of
// kind `completion`) but keeps its process. The stop round decides right there; a block is typed into its
// prompt so the same process continues, anything else ends it (agent.quit, else a stop). With a native Stop
// hook the agent's own hook already decided: once it let the agent stop, the agent idling at its prompt is
// ended.
import type { AgentRun } from '../supervisor/agent-run.js'
import type { OutputPipeline } from '../supervisor/output.js'
import { decodeKeys } from '../supervisor/detect.js'
import { typeAndSubmit } from '../supervisor/typing.js'
import { quitAgent } from '../supervisor/quit.js'
import { formatDuration } from '../util/units.js'
import type { SessionContext } from './context.js'
import type { AttemptOutcome } from './endings.js'
import type { NativeStops } from './native-stop.js'
import type { StopRound } from './stop-round.js'

/** How often an interactive agent the native hook let stop is checked for still showing itself busy. */
const SETTLE_CHECK_MS = 500

export class LiveStop {
  /** The round, counted on when a block is typed into the agent. */
  round: number
  /** The verdict the stop hooks gave while the agent still ran, if they did. */
  decided: AttemptOutcome['decided'] = null
  private ended = false
  private exited = false
  private evaluation: Promise<void> | null = null

  constructor(
    private readonly ctx: SessionContext,
    private readonly run: AgentRun,
    private readonly pipeline: OutputPipeline,
    /** The agent's own Stop hook runs the stop hooks (agent.adapter): a completion on screen only ends it. */
    private readonly native: NativeStops | null,
  ) {
    this.round = ctx.round
    void run.finished.then(() => (this.exited = true))
  }

  /** A stop is being decided now (the agent is not told anything else meanwhile). */
  get deciding(): boolean {
    return this.evaluation !== null
  }

  /** The agent said it is done: decide, unless a decision is under way. */
  completion(): void {
    this.evaluation ??= this.onCompletion().finally(() => (this.evaluation = null))
  }

  /** Resolves once a decision under way has settled (the agent exited meanwhile). */
  async settled(): Promise<void> {
    await this.evaluation
  }

  /**
   * The agent's own hook let an interactive agent (one with agent.quit) stop: it is ended once the screen
   * stops showing it busy, whether or not its "done" line came before the hook answered (that line may be
   * drawn while the hook still runs, and is then not a new completion). Returns the unsubscribe.
   */
  watchNative(): () => void {
    const native = this.native
    if (!native || !this.ctx.config.agent.quit) return () => undefined
    return native.onSettle(() => {
      void (async () => {
        do {
          await new Promise((resolve) => setTimeout(resolve, SETTLE_CHECK_MS))
        } while (!this.ended && !this.exited && native.settled && this.pipeline.detector.workingNow)
        const ending = native.settled && !this.exited ? native.ending() : null
        if (ending) await this.end(ending)
      })()
    })
  }

  private async onCompletion(): Promise<void> {
    if (this.native) {
      const ending = this.native.settled ? this.native.ending() : null
      if (ending) await this.end(ending)
      return
    }
    try {
      await this.decideOnScreen()
    } finally {
      this.ctx.progress()
    }
  }

  private async decideOnScreen(): Promise<void> {
    const stopRound = await this.ctx.stopRound()
    const { reasons, step } = await stopRound.decide(
      { round: this.round, finalText: this.pipeline.tailText(40), stopReason: 'completed' },
      { running: true, nativeHooks: false },
    )
    if (this.ctx.halts.signal) return
    if (step.kind !== 'continue') {
      await this.end(
        step.kind === 'block'
          ? { verdict: 'block', reason: step.reason, ...(step.cause ? { cause: step.cause } : {}) }
          : { verdict: step.kind, reason: null },
      )
      return
    }
    this.round++
    this.ctx.report.round(this.round)
    this.ctx.report.event('continue', `round ${this.round}: typing the stop hooks' reasons into the agent`, {
      data: { reasons },
    })
    await this.typeReasons(stopRound, reasons)
  }

  private async typeReasons(stopRound: StopRound, reasons: string[]): Promise<void> {
    const { config, report, halts } = this.ctx
    const typed = await typeAndSubmit(
      this.run,
      this.pipeline,
      stopRound.typedLine(reasons),
      config.agent.typing,
      halts.hooks.signal,
    )
    report.event(
      typed.reacted ? 'continue' : 'warning',
      typed.reacted
        ? `typed the reasons${typed.bracketed ? ' as a bracketed paste' : ''} and pressed Enter ` +
            `${typed.attempts === 1 ? 'once' : `${typed.attempts} times`}; the agent reacted`
        : `typed the reasons and pressed Enter ${typed.attempts} times, but the agent showed no activity`,
      { data: { ...typed } },
    )
  }

  /** The session is decided while the agent still runs: ask it to exit (agent.quit), else stop it. */
  private async end(verdict: AttemptOutcome['decided']): Promise<void> {
    if (this.ended) return
    this.ended = true
    this.decided = verdict
    this.run.decide()
    const { config, report } = this.ctx
    const quit = await quitAgent(this.run, config.agent.quit ? decodeKeys(config.agent.quit) : undefined, {
      submitDelayMs: config.agent.typing.submit_delay,
      graceMs: config.timeouts.grace,
    })
    if (config.agent.quit)
      report.event(
        quit.graceful ? 'exit' : 'warning',
        quit.graceful
          ? `asked the agent to exit (agent.quit) and it did`
          : `the agent did not exit within ${formatDuration(config.timeouts.grace)} of agent.quit; stopping it`,
      )
  }
}
