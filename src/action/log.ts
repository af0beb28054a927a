// The action's job log, read like a good CI tool: the agent's output (redacted, inside the runner's
// stop-commands), a collapsible group per stop hook with its output as it runs, one line per checkpoint
// and push, progress lines for a large first checkpoint, a heartbeat for long hooks, and a final verdict line with the reason. Everything untrusted is
// redacted and neutralized before it is written; annotations and groups go through @actions/core.
import * as core from '@actions/core'
import type { SessionEvent, SessionReport, StopHookResult } from '../report/model.js'
import type { Sanitizer } from '../util/sanitize.js'
import { RedactingWriter, type LineSink } from '../util/redacting-writer.js'
import { formatDuration } from '../util/units.js'
import { describeSnapshotProgress, type SnapshotProgress } from '../checkpoints/first-snapshot.js'

export interface ActionLogOptions {
  sanitizer: Sanitizer
  /** Where log text goes (default process.stdout; @actions/core writes there too). */
  out?: LineSink
  /** A hook still running after this long gets a "still running" line, and again each interval (default 30 s). */
  heartbeatMs?: number
}

/** Output of a hook that is not the one shown live, kept until its group can be written (tail kept). */
const MAX_BUFFERED_CHARS = 256 * 1024

interface HookState {
  name: string
  round: number
  startedAt: number
  buffered: string[]
  bufferedChars: number
  result: StopHookResult | null
  /** Its group has been written (open or closed). */
  shown: boolean
}

export class ActionLog {
  /** The agent's live output: redacted, commands neutralized, wrapped in stop-commands. */
  readonly agentOutput: RedactingWriter
  private readonly out: LineSink
  private readonly hooks: HookState[] = []
  /** The hook whose group is open and whose output streams live. */
  private live: HookState | null = null
  private liveWriter: RedactingWriter | null = null
  private heartbeat: NodeJS.Timeout | null = null

  constructor(private readonly options: ActionLogOptions) {
    this.out = options.out ?? process.stdout
    this.agentOutput = this.writer()
  }

  /** A plain log line (redacted, commands neutralized). */
  line(text: string): void {
    this.out.write(`${this.options.sanitizer.forLog(text)}\n`)
  }

  hookStarted(name: string, round: number): void {
    this.agentOutput.flush()
    const hook: HookState = {
      name,
      round,
      startedAt: Date.now(),
      buffered: [],
      bufferedChars: 0,
      result: null,
      shown: false,
    }
    this.hooks.push(hook)
    if (!this.live) this.open(hook)
    this.startHeartbeat()
  }

  /** Hooks run in parallel: one streams inside its open group, the others wait in a buffer for theirs. */
  hookOutput(name: string, chunk: Uint8Array): void {
    const hook = this.find(name)
    if (!hook) return
    if (hook === this.live) {
      this.liveWriter?.write(chunk)
      return
    }
    const text = Buffer.from(chunk).toString('utf8')
    hook.buffered.push(text)
    hook.bufferedChars += text.length
    while (hook.bufferedChars > MAX_BUFFERED_CHARS && hook.buffered.length > 1)
      hook.bufferedChars -= hook.buffered.shift()!.length
  }

  hookFinished(result: StopHookResult): void {
    const hook = this.find(result.name)
    if (!hook) return
    hook.result = result
    if (hook === this.live) this.closeLive()
    if (!this.hooks.some((h) => !h.result)) this.stopHeartbeat()
  }

  /** Checkpoints, pushes and warnings as they happen: one line each. */
  event(event: SessionEvent): void {
    if (event.kind === 'checkpoint' || event.kind === 'push' || event.kind === 'checkpoint_skipped') {
      this.agentOutput.flush()
      const sha = typeof event.data?.sha === 'string' ? ` → ${event.data.sha.slice(0, 12)}` : ''
      this.line(`proctor: ${event.message}${event.kind === 'checkpoint' ? sha : ''}`)
    }
  }

  /** A large first checkpoint's progress: "checkpoint 1: 6,000 / 13,711 files (44%)". */
  checkpointProgress(progress: SnapshotProgress): void {
    this.line(`proctor: ${describeSnapshotProgress(progress)}`)
  }

  /**
   * The last line of the session: verdict, status, duration and the reason. A failing step also gets
   * `core.setFailed(reason)` (the error annotation on the run); a block that does not fail the step
   * (`fail-on: never`) and hook errors get warnings.
   */
  verdict(report: SessionReport, exitCode: number): void {
    this.finishHooks()
    this.agentOutput.end()
    const s = this.options.sanitizer
    // The session's reason already quotes the first blocking reasons; the hooks' own are the fallback.
    const reason = report.reason || blockReasons(report) || null
    const rounds = report.rounds > 1 ? `, ${report.rounds} rounds` : ''
    const line = `proctor: verdict ${report.verdict} — session ${report.status} in ${formatDuration(report.duration_ms)}${rounds}${reason ? `: ${reason}` : ''}`
    this.line(line)
    for (const hook of latestResults(report).filter((r) => r.verdict === 'error'))
      core.warning(s.forLog(`${hook.name}: ${hook.reason ?? 'hook error'}`), {
        title: `proctor / ${hook.name}`,
      })
    const why = s.forLog(reason ?? `session ${report.status}, verdict ${report.verdict}`)
    if (exitCode !== 0) core.setFailed(`proctor: ${why}`)
    else if (report.verdict === 'block') core.warning(`proctor: ${why}`, { title: 'proctor: blocked' })
  }

  private writer(): RedactingWriter {
    return new RedactingWriter(this.out, this.options.sanitizer, { stopCommands: true })
  }

  private find(name: string): HookState | undefined {
    // The latest run of that hook (a hook runs once per round).
    for (let i = this.hooks.length - 1; i >= 0; i--) if (this.hooks[i]!.name === name) return this.hooks[i]
    return undefined
  }

  private open(hook: HookState): void {
    this.live = hook
    hook.shown = true
    core.startGroup(`stop hook ${safe(hook.name)} (round ${hook.round})`)
    this.liveWriter = this.writer()
    for (const text of hook.buffered) this.liveWriter.write(text)
    hook.buffered = []
    hook.bufferedChars = 0
    if (hook.result) this.closeLive()
  }

  private closeLive(): void {
    const hook = this.live
    if (!hook) return
    this.liveWriter?.end()
    this.liveWriter = null
    if (hook.result) this.line(`proctor: stop hook ${hook.name}: ${describe(hook.result)}`)
    core.endGroup()
    this.live = null
    // The next hook that started gets the group: its buffered output first, then live.
    const next = this.hooks.find((h) => !h.shown)
    if (next) this.open(next)
  }

  /** The session ended: any hook still without a group gets one now. */
  private finishHooks(): void {
    this.stopHeartbeat()
    while (this.live) this.closeLive()
  }

  private startHeartbeat(): void {
    const every = this.options.heartbeatMs ?? 30_000
    if (this.heartbeat || every <= 0) return
    this.heartbeat = setInterval(() => {
      const running = this.hooks.filter((h) => !h.result)
      if (running.length === 0) return
      const parts = running.map((h) => `${h.name} ${formatDuration(Date.now() - h.startedAt)}`)
      this.line(`proctor: stop hooks still running: ${parts.join(', ')}`)
    }, every)
    this.heartbeat.unref()
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat)
    this.heartbeat = null
  }
}

function describe(result: StopHookResult): string {
  const took = formatDuration(result.duration_ms)
  const exit = result.exit_code === null ? '' : `, exit ${result.exit_code}`
  if (result.timed_out) return `timed out after ${took}`
  if (result.verdict === 'allow') return `passed in ${took}${exit}`
  const word = result.verdict === 'block' ? 'blocked' : 'hook error'
  const reason = result.reason?.split('\n').find((l) => l.trim())
  return `${word} after ${took}${exit}${reason ? `: ${reason.trim()}` : ''}`
}

function latestResults(report: SessionReport): StopHookResult[] {
  const round = Math.max(0, ...report.stop_hooks.map((r) => r.round))
  return report.stop_hooks.filter((r) => r.round === round)
}

/** "tests: 2 tests failed; lint: …" from the latest round's blocking hooks. */
function blockReasons(report: SessionReport): string | null {
  if (report.verdict !== 'block') return null
  const blocking = latestResults(report).filter((r) => r.verdict === 'block')
  if (blocking.length === 0) return null
  return blocking
    .map(
      (r) =>
        `${r.name}: ${
          r.reason
            ?.split('\n')
            .find((l) => l.trim())
            ?.trim() ?? 'blocked'
        }`,
    )
    .join('; ')
}

function safe(name: string): string {
  return name.replace(/[^\w./-]/g, '_').slice(0, 100)
}
