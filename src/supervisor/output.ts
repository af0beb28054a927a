// The output side of a supervised process: every raw chunk goes to the transcript, the in-memory tail
// and the rendered view; detectors run on the view, coalesced, and raise events. No processes here —
// the caller feeds chunks and acts on the events (send keys, stop...).
import { EventEmitter } from 'node:events'
import type { DetectRule } from '../config/schema.js'
import { Transcript, type TranscriptSummary } from './capture.js'
import { compileRules, Detector, type DetectionEvent } from './detect.js'
import type { PresetName } from './presets.js'
import { LineView, RenderedScreen, type OutputView } from './screen.js'

export interface OutputPipelineOptions {
  mode: 'pty' | 'pipe'
  /** Terminal size of the PTY (the rendered screen must match what the agent thinks it has). */
  cols?: number
  rows?: number
  transcriptPath: string
  /** config output.transcript_max */
  transcriptMax: number
  /** config detect */
  rules?: readonly DetectRule[]
  /** config detect_presets */
  presets?: readonly PresetName[]
  /** Time source for event timestamps and lastOutputAt (ms); Date.now by default. */
  clock?: () => number
  /** Detection runs once output has been quiet this long... */
  settleMs?: number
  /** ...or at the latest this long after the first unscanned output, during a continuous stream. */
  maxDelayMs?: number
}

export interface OutputPipelineEvents {
  /** A detector rule matched something new. */
  event: [event: DetectionEvent]
  /** The transcript reached its cap (once); later bytes are counted, not written. */
  capped: [maxBytes: number]
  /** A detect rule took too long on one line and was disabled for the rest of the session. */
  slow_rule: [rule: string, ms: number]
  /** The detectors looked at the output (after any 'event's of that scan). */
  scanned: []
}

const DEFAULT_SETTLE_MS = 10
const DEFAULT_MAX_DELAY_MS = 50
/**
 * While the view is thinning a flood, a scan waits for the output to pause (settleMs), or this long: a
 * prompt cannot be waiting for an answer while the agent is still pouring out output, and a scan reads
 * (PTY) or decodes (pipe) the whole visible output. The pause at the flood's end is scanned as before.
 */
const FLOOD_MAX_DELAY_MS = 250
/**
 * calm(): output counts as a flood while more than CALM_MAX_BYTES arrive per CALM_WINDOW_MS (about
 * 1.3 MB/s). A TUI redrawing its spinner or a model streaming text stays far below that; a build log
 * or `cat` of a large file is far above it.
 */
const CALM_WINDOW_MS = 50
const CALM_MAX_BYTES = 64 * 1024
/** How long the rate must have stayed below that. */
const CALM_SPAN_MS = 200
/** A freshly started agent may take this long to print its first byte; silence before then is not calm. */
const CALM_FIRST_OUTPUT_MS = 250

export class OutputPipeline extends EventEmitter<OutputPipelineEvents> {
  readonly mode: 'pty' | 'pipe'
  readonly transcript: Transcript
  readonly view: OutputView
  readonly detector: Detector
  private readonly clock: () => number
  private readonly settleMs: number
  private readonly maxDelayMs: number
  private timer: NodeJS.Timeout | null = null
  /** When the first change not yet scanned happened, and the latest one. */
  private dirtySince: number | null = null
  private lastChange = 0
  /** When the latest chunk arrived (performance.now()): the screen changes later, when xterm parsed it. */
  private lastWrite = 0
  private lastOutput: number | null = null
  private totalBytes = 0
  private closing: Promise<TranscriptSummary> | null = null
  private deadlineTimer: NodeJS.Timeout | null = null
  private paste = new BracketedPasteTracker()

  /** Throws DetectRuleError when a rule is unusable (bad regex, conflicting responses). */
  constructor(opts: OutputPipelineOptions) {
    super()
    this.mode = opts.mode
    this.clock = opts.clock ?? Date.now
    this.settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS
    this.maxDelayMs = Math.max(this.settleMs, opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS)
    this.detector = new Detector(compileRules(opts.rules ?? [], opts.presets ?? []), this.clock)
    this.detector.onSlowRule = (rule, ms) => this.emit('slow_rule', rule, ms)
    // The transcript may throw (its directory cannot be created): before anything needs disposing.
    this.transcript = new Transcript(opts.transcriptPath, opts.transcriptMax)
    this.transcript.on('capped', (max) => this.emit('capped', max))
    this.view =
      opts.mode === 'pty'
        ? new RenderedScreen({
            cols: opts.cols ?? 120,
            rows: opts.rows ?? 40,
            // A PTY screen changes when xterm has parsed the bytes, not when they arrive.
            onParsed: () => this.markDirty(),
          })
        : new LineView({ trackPending: !this.detector.isEmpty })
  }

  /** When the agent last produced output (clock ms), for idle timeouts; null before the first byte. */
  get lastOutputAt(): number | null {
    return this.lastOutput
  }

  /** Bytes received so far (including any beyond the transcript cap). */
  get bytes(): number {
    return this.totalBytes
  }

  /**
   * Takes one raw chunk, in arrival order. Every byte is on its way to disk when this returns (see
   * Transcript); the rendered screen may keep a reference to the chunk until it is parsed, so the
   * caller must not reuse the buffer. Chunks after close() are ignored.
   *
   * No copies and no per-chunk allocations here: in a flood this runs thousands of times a second,
   * and whatever it allocates is garbage the process carries until the next collection.
   */
  write(chunk: Buffer): void {
    if (this.closing || chunk.length === 0) return
    this.totalBytes += chunk.length
    this.lastOutput = this.clock()
    this.lastWrite = performance.now()
    this.transcript.write(chunk)
    // One search for ESC serves both: most of a flood has none.
    const hasEscape = chunk.indexOf(0x1b) !== -1
    this.view.write(chunk, hasEscape)
    this.paste.write(chunk, hasEscape)
    if (this.view.kind === 'lines') this.markDirty()
  }

  /**
   * Resolves once the output is not a flood: when less than CALM_MAX_BYTES per CALM_WINDOW_MS came over
   * the last CALM_SPAN_MS, counting only time after the first byte (a process starting up is silent
   * before it floods) or after CALM_FIRST_OUTPUT_MS without one; at the latest after `maxMs`, or at
   * close().
   *
   * For work that can wait and would slow the reading down: every process proctor starts forks it, and a
   * fork of a process this size blocks its event loop for milliseconds (far longer on a busy machine)
   * while the agent's output piles up; the child processes then compete with the agent for the CPU.
   * Nothing per chunk: a timer compares byte counts. The span is several windows long because on a busy
   * machine the agent (or proctor) can go unscheduled for a window in the middle of a flood.
   */
  calm(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const began = performance.now()
      const initial = this.totalBytes
      /** [time, bytes so far] at each check, back to the newest one at least CALM_SPAN_MS old. */
      const samples: [number, number][] = [[began, initial]]
      const check = (): void => {
        const now = performance.now()
        samples.push([now, this.totalBytes])
        while (samples.length > 2 && now - samples[1]![0] >= CALM_SPAN_MS) samples.shift()
        const [since, bytesThen] = samples[0]!
        const started = bytesThen > initial || since - began >= CALM_FIRST_OUTPUT_MS
        const span = now - since
        const calm =
          started &&
          span >= CALM_SPAN_MS &&
          (this.totalBytes - bytesThen) / span < CALM_MAX_BYTES / CALM_WINDOW_MS
        if (calm || this.closing || now - began >= maxMs) resolve()
        else wait()
      }
      // Checked after the next poll for I/O: a timer runs before it, and after proctor itself went
      // unscheduled the output that piled up meanwhile would not be counted yet.
      const wait = (): void => {
        setTimeout(() => setImmediate(check), CALM_WINDOW_MS).unref()
      }
      wait()
    })
  }

  /** The agent has turned on bracketed paste (ESC[?2004h, not turned off since): pasted text is one input. */
  get bracketedPaste(): boolean {
    return this.paste.enabled
  }

  /** proctor is about to type into the agent: completions already on screen are old (see Detector.markTyped). */
  markTyped(): void {
    this.detector.markTyped()
  }

  /** Resolves once everything written so far is rendered and has been through the detectors. */
  async flush(): Promise<void> {
    await this.view.flush()
    this.scan()
  }

  /** Call when the PTY is resized: the rendered screen must match the agent's terminal. */
  resize(cols: number, rows: number): void {
    if (this.view instanceof RenderedScreen) this.view.resize(cols, rows)
  }

  /** The last rendered lines of output (for reports and the stop hooks' final_text). Not sanitized. */
  tailText(lines = 40): string {
    return this.view.tailText(lines)
  }

  /** Flushes, runs the detectors one last time, closes the transcript. Idempotent. */
  close(): Promise<TranscriptSummary> {
    this.closing ??= (async () => {
      if (this.deadlineTimer) clearTimeout(this.deadlineTimer)
      await this.view.flush()
      this.scan()
      const summary = await this.transcript.close()
      // The view stays readable after close: reports still ask for tailText().
      return summary
    })()
    return this.closing
  }

  private markDirty(): void {
    if (this.detector.isEmpty) return
    const now = performance.now()
    this.lastChange = now
    if (this.dirtySince === null) this.dirtySince = now
    if (!this.timer) this.schedule(this.settleMs)
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => this.onTimer(), ms)
    // Pending detection must not keep a finished process alive.
    this.timer.unref()
  }

  /**
   * Debounce with a ceiling: one timer per quiet period, re-armed (not re-created per chunk) while
   * output keeps coming, so a fast stream costs a scan every maxDelayMs rather than one per chunk.
   */
  private onTimer(): void {
    this.timer = null
    if (this.dirtySince === null) return
    const now = performance.now()
    // Quiet means no new output either: a thinned flood renders once a window, so the screen alone
    // would look settled between its renders.
    const quietFor = now - Math.max(this.lastChange, this.lastWrite)
    const waitedFor = now - this.dirtySince
    const maxDelay = this.view.flooding ? Math.max(this.maxDelayMs, FLOOD_MAX_DELAY_MS) : this.maxDelayMs
    if (quietFor < this.settleMs && waitedFor < maxDelay) {
      this.schedule(Math.min(this.settleMs - quietFor, maxDelay - waitedFor))
      return
    }
    this.scan()
  }

  private scan(): void {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    this.dirtySince = null
    if (this.detector.isEmpty) return
    const view = this.view
    const events =
      view instanceof RenderedScreen
        ? this.detector.scanScreen(view)
        : this.detector.scanLines((view as LineView).takeLines())
    for (const event of events) this.emit('event', event)
    this.scheduleDeadline()
    this.emit('scanned')
  }

  /** A delayed or repeated answer falls due even when the screen does not change: scan then. */
  private scheduleDeadline(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer)
    this.deadlineTimer = null
    const due = this.detector.nextDeadline()
    if (due === null || this.closing) return
    this.deadlineTimer = setTimeout(
      () => {
        this.deadlineTimer = null
        if (!this.closing) this.scan()
      },
      Math.max(1, due - this.clock()),
    )
    this.deadlineTimer.unref()
  }
}

const PASTE_ON = Buffer.from('\x1b[?2004h', 'latin1')
const PASTE_OFF = Buffer.from('\x1b[?2004l', 'latin1')
const EMPTY = Buffer.alloc(0)

/** Follows DEC mode 2004 (bracketed paste) in the raw output, including a sequence split across chunks. */
export class BracketedPasteTracker {
  enabled = false
  private tail: Buffer = EMPTY

  write(chunk: Buffer, hasEscape = chunk.indexOf(0x1b) !== -1): void {
    // No ESC in this chunk nor in the previous one's last bytes: no sequence can start or end here, and
    // a one-byte search (memchr) is far cheaper than two searches for a sequence over every chunk.
    if (!hasEscape && this.tail.indexOf(0x1b) === -1) {
      this.tail = EMPTY
      return
    }
    // Only the boundary needs a copy: the last bytes of the previous chunk and the first of this one.
    const edge =
      this.tail.length > 0 ? Buffer.concat([this.tail, chunk.subarray(0, PASTE_ON.length - 1)]) : null
    let on = chunk.lastIndexOf(PASTE_ON)
    let off = chunk.lastIndexOf(PASTE_OFF)
    if (on === -1 && off === -1 && edge) {
      on = edge.lastIndexOf(PASTE_ON)
      off = edge.lastIndexOf(PASTE_OFF)
    }
    if (on !== -1 || off !== -1) this.enabled = on > off
    this.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (PASTE_ON.length - 1))))
  }
}
