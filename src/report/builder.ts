// Accumulates what happens during a session into the one SessionReport. The session owns one builder;
// sinks (terminal, files, GitHub) only ever see snapshots from `snapshot()`.
import {
  type AgentExit,
  type AgentJobClaim,
  type BaselineRecord,
  REPORT_SCHEMA_VERSION,
  type CheckpointRecord,
  type EventKind,
  type PushRecord,
  type SessionEvent,
  type SessionReport,
  type SessionStatus,
  type StopHookResult,
  type Verdict,
  type Violation,
} from './model.js'
import { UsageMeter } from '../usage/meter.js'
import { pricerFor } from '../usage/prices.js'
import { usageReport } from '../usage/summary.js'
import type { Pricer } from '../usage/types.js'

export interface SessionStart {
  sessionId: string
  command: string[]
  cwd: string
  mode: 'pty' | 'pipe'
  transcriptPath: string
  ci?: Record<string, string | number | null>
  /** When the session began, if not now (a report finished by another process: the action's post step). */
  startedAt?: Date
  /** The session's usage tally, when another part made it (the metering proxy); else the builder makes one. */
  meter?: UsageMeter
  /** Prices the usage (proctor.yml `pricing`: usage/prices.ts pricerFor); default: the built-in table. */
  pricer?: Pricer
}

export interface SessionEnd {
  status: SessionStatus
  verdict: Verdict
  exitCode: number
  signal: string | null
  reason: string | null
  /** The reason without the blocking hooks' reasons it ends with (SessionReport.cause). */
  cause?: string
  outputTail: string
  transcript: { bytes: number; capped: boolean }
}

const MAX_EVENTS = 5_000

export class ReportBuilder {
  private readonly startedAtMs: number
  private readonly events: SessionEvent[] = []
  private droppedEvents = 0
  private readonly checkpoints: CheckpointRecord[] = []
  private baselineRecord: BaselineRecord | undefined
  private readonly violations: Violation[] = []
  private readonly stopHooks: StopHookResult[] = []
  private rounds = 0
  private agentExit: AgentExit | null = null
  private pushed: PushRecord | null = null
  private agentSessionId: string | null = null
  private agentJobClaim: AgentJobClaim | null = null
  private end: SessionEnd | null = null
  private endedAtMs: number | null = null
  /** Sees every event as it is recorded (a live log); a throwing listener cannot break the report. */
  onEvent: ((event: SessionEvent) => void) | null = null
  /** The session's one usage tally: the proxy and the CLI-output readers add to it, the report reads it. */
  readonly usage: UsageMeter

  constructor(private readonly start: SessionStart) {
    this.startedAtMs = start.startedAt?.getTime() ?? Date.now()
    this.usage = start.meter ?? new UsageMeter()
  }

  get sessionId(): string {
    return this.start.sessionId
  }

  elapsed(): number {
    return Date.now() - this.startedAtMs
  }

  event(
    kind: EventKind | string,
    message: string,
    extra: { name?: string; data?: Record<string, unknown> } = {},
  ): void {
    // The agent's own exit, kept apart from the events so that an event flood cannot drop it.
    if (kind === 'exit' && extra.data) {
      const { exit_code: code, signal } = extra.data
      this.agentExit = {
        exit_code: typeof code === 'number' ? code : null,
        signal: typeof signal === 'string' ? signal : null,
      }
    }
    // A runaway detector must not grow the report without bound; the count of what was dropped stays visible.
    if (this.events.length >= MAX_EVENTS) {
      this.droppedEvents++
      return
    }
    const event = { at: this.elapsed(), kind, message, ...extra }
    this.events.push(event)
    try {
      this.onEvent?.(event)
    } catch {
      // A live log is a sink: it must not change what the report records.
    }
  }

  /**
   * Events another process recorded, at their own times (the agent job's, in the jobs that judge its
   * handoff): as they are, after the ones already recorded; that process capped them.
   */
  recorded(events: readonly SessionEvent[]): void {
    this.events.push(...events)
  }

  checkpoint(record: CheckpointRecord): void {
    this.checkpoints.push(record)
  }

  baseline(record: BaselineRecord): void {
    this.baselineRecord = record
  }

  violation(...items: Violation[]): void {
    this.violations.push(...items)
  }

  stopHook(result: StopHookResult): void {
    this.stopHooks.push(result)
  }

  round(n: number): void {
    this.rounds = n
  }

  /** The agent CLI's own session id (the last one its Stop hook named). */
  agentSession(id: string): void {
    this.agentSessionId = id
  }

  get lastAgentSession(): string | null {
    return this.agentSessionId
  }

  /** What the agent job said about its own session, in a job that judged its handoff (shown, never a verdict). */
  agentJob(claim: AgentJobClaim): void {
    this.agentJobClaim = claim
  }

  push(record: PushRecord): void {
    this.pushed = record
  }

  finish(end: SessionEnd): void {
    if (this.end) return
    this.end = end
    this.endedAtMs = Date.now()
  }

  snapshot(): SessionReport {
    const endedAt = this.endedAtMs ?? Date.now()
    const end = this.end
    const events = this.droppedEvents
      ? [
          ...this.events,
          {
            at: endedAt - this.startedAtMs,
            kind: 'warning',
            message: `${this.droppedEvents} more events were not recorded (limit ${MAX_EVENTS})`,
          },
        ]
      : [...this.events]
    const usage = usageReport(this.usage.samples(), this.start.pricer ?? pricerFor({}))
    return {
      schema: REPORT_SCHEMA_VERSION,
      session_id: this.start.sessionId,
      status: end?.status ?? 'errored',
      verdict: end?.verdict ?? 'block',
      exit_code: end?.exitCode ?? 1,
      signal: end?.signal ?? null,
      agent: this.agentExit ? { ...this.agentExit } : null,
      reason: end ? end.reason : 'session still running',
      ...(end?.cause ? { cause: end.cause } : {}),
      started_at: new Date(this.startedAtMs).toISOString(),
      ended_at: new Date(endedAt).toISOString(),
      duration_ms: endedAt - this.startedAtMs,
      command: this.start.command,
      cwd: this.start.cwd,
      mode: this.start.mode,
      events,
      checkpoints: [...this.checkpoints],
      ...(this.baselineRecord ? { baseline: { ...this.baselineRecord } } : {}),
      violations: [...this.violations],
      stop_hooks: [...this.stopHooks],
      rounds: this.rounds,
      pushed: this.pushed,
      transcript: {
        path: this.start.transcriptPath,
        bytes: end?.transcript.bytes ?? 0,
        capped: end?.transcript.capped ?? false,
      },
      output_tail: end?.outputTail ?? '',
      ...(this.agentSessionId ? { agent_session_id: this.agentSessionId } : {}),
      ...(this.start.ci ? { ci: this.start.ci } : {}),
      ...(this.agentJobClaim ? { agent_job: this.agentJobClaim } : {}),
      ...(usage ? { usage } : {}),
    }
  }
}
