// What proctor answers to what the detectors see on one agent run: a prompt's answer typed in (send/deny,
// again while the prompt stays on screen), a stop, a notice; each detection recorded, approval requests fired
// as lifecycle hooks, checkpoints taken on the configured events. An interactive agent idling at its prompt
// hears the policy's warnings; one that says it is done goes to the live stop (live-stop.ts).
import type { AgentRun } from '../supervisor/agent-run.js'
import type { OutputPipeline } from '../supervisor/output.js'
import { AGENT_ERROR_KIND, agentErrorReason, type DetectionEvent } from '../supervisor/detect.js'
import { typeAndSubmit } from '../supervisor/typing.js'
import { lifecycleExtra } from '../hooks/payloads.js'
import { typedNotice } from '../policy/feedback.js'
import { fire, type SessionContext } from './context.js'
import type { LiveStop } from './live-stop.js'

export class Responses {
  /** Why a detector rule stopped the agent (respond: stop), for the session's reason. */
  stopReason: string | null = null
  /** The agent gave up on a failure of its own (a detector rule of kind agent_error). */
  agentError: string | null = null
  private readonly answers = new Set<Promise<void>>()

  constructor(
    private readonly ctx: SessionContext,
    private readonly run: AgentRun,
    private readonly pipeline: OutputPipeline,
    private readonly live: LiveStop,
  ) {}

  /** Resolves once every answer written so far has been delivered or refused. */
  async delivered(): Promise<void> {
    await Promise.all([...this.answers])
  }

  readonly onDetection = (event: DetectionEvent): void => {
    const { report, config, checkpoints } = this.ctx
    const response = event.response
    if (event.attempt > 1) {
      // The prompt is still on screen after the last answer (respond.retry_after): answer it again.
      if (response.text !== undefined)
        this.answer(
          event,
          response.text,
          `${response.type} again (attempt ${event.attempt}, the prompt is still on screen): ${JSON.stringify(response.text)}`,
        )
      this.ctx.progress()
      return
    }
    report.event(event.kind, event.text, { name: event.rule, data: { match: event.match, fire: event.fire } })
    if (event.kind === 'approval_request')
      void fire(
        this.ctx.lifecycle,
        'approval_request',
        lifecycleExtra.approval_request(event.rule, event.text),
      )
    if (config.checkpoints.on_events.includes(event.kind)) checkpoints.onEvent(event.kind)
    if (event.kind === AGENT_ERROR_KIND) this.agentError ??= agentErrorReason(event)
    if ((response.type === 'send' || response.type === 'deny') && response.text !== undefined) {
      this.answer(event, response.text, `${response.type}: ${JSON.stringify(response.text)}`)
    } else if (response.type === 'stop') {
      this.stopReason = this.agentError ?? `stopped by detector rule "${event.rule}": ${event.text}`
      report.event('response', 'stop the agent', { name: event.rule })
      void this.run.stop('detector')
      return
    } else {
      report.event('response', 'notify', { name: event.rule })
    }
    if (event.kind === 'completion') this.live.completion()
    if (event.kind === 'idle' && this.ctx.mode === 'pty' && !this.live.deciding) void this.tellWarnings()
    this.ctx.progress()
  }

  /**
   * Recorded once the write settles: an answer that never reached the agent is not counted as one. The
   * first answer and its repeats (respond.retry_after) go the same way.
   */
  private answer(event: DetectionEvent, text: string, what: string): void {
    const data = { attempt: event.attempt, fire: event.fire }
    const written = this.run.write(text).then((result) =>
      this.ctx.report.event(
        'response',
        result.delivered ? what : `${what} — not delivered: ${result.reason}`,
        {
          name: event.rule,
          data: result.delivered ? { delivered: true, ...data } : { ...result, ...data },
        },
      ),
    )
    this.answers.add(written)
    void written.finally(() => this.answers.delete(written))
  }

  /**
   * An interactive agent waiting at its prompt (a detector rule of kind `idle`) hears the policy's
   * warnings about its work so far, typed in as one line; each warning once.
   */
  private async tellWarnings(): Promise<void> {
    const { checkpoints, halts, config, report } = this.ctx
    await checkpoints.settle('event')
    if (halts.signal || this.live.deciding) return
    const warnings = checkpoints.takeWarnings()
    if (warnings.length === 0) return
    // Typed like the stop hooks' reasons (a bracketed paste when the agent asked for it, then Enter).
    const typed = await typeAndSubmit(
      this.run,
      this.pipeline,
      typedNotice(warnings).replace(/\r$/, ''),
      config.agent.typing,
      halts.hooks.signal,
    )
    report.event('policy_notice', `told the agent about ${warnings.length} policy warning(s)`, {
      data: {
        violations: warnings.map((v) => ({ file: v.file, constraint: v.constraint })),
        typing: { ...typed },
      },
    })
  }
}
