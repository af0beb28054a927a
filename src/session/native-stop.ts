// The session's side of a native Stop hook: each time the agent's own Stop hook calls `proctor hook stop`
// (relayed over the session's socket), the session runs its stop hooks — the same evaluation, checkpoint and
// report entries as any other stop — counts the round, and answers in the agent's protocol. Blocks are
// counted per prompt in memory, so an agent that resets its own stop_hook_active (Gemini CLI after a tool
// call) still stops after max_stop_rounds. When the agent has exited, `ending()` is what the rounds decided:
// the stop hooks are not run a second time.
import type { ReportBuilder } from '../report/builder.js'
import type { Verdict } from '../report/model.js'
import {
  nativeAdapters,
  type NativeAdapterName,
  type NativeAnswer,
  type NativeHookTarget,
} from '../hooks/adapters/index.js'
import { continuationMessage } from '../hooks/continue.js'
import { continuesBlockSequence, parseNativeInput } from '../hooks/native.js'
import { isAgentSessionId } from '../agents/session-store.js'
import { startNativeRelay, type NativeRelay, type NativeRelayRequest } from '../hooks/native-relay.js'

export interface NativeStopsOptions {
  adapter: NativeAdapterName
  sessionId: string
  maxStopRounds: number
  report: ReportBuilder
  /** The session's round when the agent first stops. */
  firstRound: () => number
  /** Runs the stop hooks for this round (checkpoint, lifecycle `stop`, report entries). */
  evaluate: (round: number, finalText: string) => Promise<{ verdict: Verdict; reasons: string[] }>
}

export class NativeStops {
  private relay: NativeRelay | null = null
  private calls = 0
  private round = 0
  private sequence = 0
  private last: { verdict: Verdict; promptKey: string | null } | null = null
  private decided: { verdict: Verdict; reason: string | null } | null = null
  /** The last answer let the agent stop (an allow, or the round cap) and no stop is being decided now. */
  private letStop = false
  private readonly settleListeners = new Set<() => void>()

  constructor(private readonly o: NativeStopsOptions) {}

  async start(): Promise<NativeHookTarget> {
    this.relay = await startNativeRelay((request) => this.handle(request))
    return { session: this.o.sessionId, socket: this.relay.socket }
  }

  /** Whether the agent ever called proctor's Stop hook. */
  get called(): boolean {
    return this.calls > 0
  }

  get lastRound(): number {
    return this.round
  }

  /**
   * The agent was let stop by its last call and has not called again since: an interactive agent still
   * running is now idle for good, and the session can end it (see live-stop.ts).
   */
  get settled(): boolean {
    return this.letStop
  }

  /** Calls `listener` each time an answer lets the agent stop; returns the unsubscribe. */
  onSettle(listener: () => void): () => void {
    this.settleListeners.add(listener)
    return () => this.settleListeners.delete(listener)
  }

  private settle(): void {
    this.letStop = true
    for (const listener of this.settleListeners) listener()
  }

  /** What the agent's stops decided (null when the agent never called the hook). */
  ending(): { verdict: Verdict; reason: string | null } | null {
    return this.decided
  }

  async close(): Promise<void> {
    await this.relay?.close()
    this.relay = null
  }

  private async handle(request: NativeRelayRequest): Promise<NativeAnswer> {
    const { adapter: name, report, maxStopRounds } = this.o
    const adapter = nativeAdapters[name]
    if (request.adapter !== name || request.session !== this.o.sessionId) {
      return {
        exitCode: 1,
        stdout: '',
        stderr: `proctor hook stop: this socket serves ${name} in session ${this.o.sessionId}\n`,
      }
    }
    const parsed = parseNativeInput(name, request.input)
    if ('failure' in parsed) {
      report.event(
        'warning',
        `${name}'s Stop hook sent input proctor cannot read: ${parsed.failure.stderr.trim()}`,
      )
      return parsed.failure
    }
    const { input } = parsed
    // The CLI's own session, for a later round to resume (report.agent_session_id); an id that could pass
    // for an option or a path is not kept.
    if (input.sessionId !== null && isAgentSessionId(input.sessionId)) report.agentSession(input.sessionId)
    this.letStop = false
    if (!continuesBlockSequence(input, this.last)) this.sequence = 0
    this.round = this.calls === 0 ? this.o.firstRound() : this.round + 1
    this.calls++
    this.sequence++
    report.round(this.round)
    const decision = await this.o.evaluate(this.round, input.finalText)
    this.last = { verdict: decision.verdict, promptKey: input.promptKey }
    if (decision.verdict === 'allow') {
      this.decided = { verdict: 'allow', reason: null }
      this.settle()
      return adapter.answer({ block: false })
    }
    if (this.sequence >= maxStopRounds) {
      const reason = `stop hooks still blocked after ${this.sequence} round(s) (max_stop_rounds: ${maxStopRounds})`
      this.decided = { verdict: 'block', reason }
      // The next stop (a new prompt in an interactive agent) starts a fresh count.
      this.last = { verdict: 'allow', promptKey: input.promptKey }
      report.event('stop_hooks', `letting ${name} stop: ${reason}`, { data: { round: this.round } })
      this.settle()
      return adapter.answer({ block: false, note: `proctor: ${reason}; the verdict is block` })
    }
    this.decided = {
      verdict: 'block',
      reason: `stop hooks blocked in round ${this.round} and ${name} exited without stopping again`,
    }
    report.event('continue', `round ${this.round + 1}: ${name}'s own Stop hook sends the reasons back`, {
      data: { reasons: decision.reasons },
    })
    return adapter.answer({ block: true, reason: continuationMessage(decision.reasons) })
  }
}
