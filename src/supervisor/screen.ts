// What the agent's output looks like to a person: a rendered terminal screen for PTY sessions (TUIs
// redraw in place, so the raw byte stream is not what is on screen) and plain lines for pipe sessions.
import type * as Xterm from '@xterm/headless'
import { stripTerminal } from '../util/sanitize.js'

type XtermModule = typeof Xterm

/**
 * xterm is loaded on first use: loading it costs a pipe session (which never renders) about 6 MB of
 * memory, and its peak while streaming has a 100 MiB budget (docs/benchmarks.md). It is a chunk of its
 * own in the bundled CLI, imported by loadRenderer(); a RenderedScreen constructed before it is loaded
 * starts loading it and holds the output until then, so a PTY agent is spawned without waiting for
 * xterm's ~15 ms of evaluation.
 */
let xtermModule: XtermModule | undefined
let loading: Promise<XtermModule> | undefined

/** Loads xterm for RenderedScreen (once; later calls share the first). */
export async function loadRenderer(): Promise<void> {
  await xterm()
}

function xterm(): Promise<XtermModule> {
  loading ??= import('@xterm/headless').then((loaded: XtermModule & { default?: XtermModule }) => {
    xtermModule = loaded.default ?? loaded
    return xtermModule
  })
  return loading
}

/** The text a detector matches, with where it sits so one appearance is told from the next. */
export interface ScreenLine {
  /** One logical line: rows joined when the terminal wrapped a long line. */
  text: string
  /**
   * Identity of the line where the logical line starts: it stays the same while the line scrolls up
   * (through scrollback, even once old lines are trimmed off the top). On the alternate screen, which
   * has no scrollback, it is the row.
   */
  line: number
  /** Row on the visible screen (0-based) where it starts. */
  row: number
}

/** The common face of both views: what the pipeline and reports use. */
export interface OutputView {
  readonly kind: 'screen' | 'lines'
  /** `hasEscape`: whether the chunk holds an ESC byte, when the caller already looked. */
  write(chunk: Uint8Array, hasEscape?: boolean): void
  /** Resolves once everything written so far is reflected in the view. */
  flush(): Promise<void>
  /** Output is coming faster than it is rendered: only the end of it reaches the view for now. */
  readonly flooding: boolean
  /** The visible lines (the screen, or the last lines), trailing spaces trimmed. */
  visibleLines(): string[]
  visibleText(): string
  /** The last `lines` lines including scrollback, trailing blank lines left out. */
  tailText(lines: number): string
  dispose(): void
}

export interface ScreenOptions {
  cols: number
  rows: number
  /** Lines kept above the screen; tailText() can reach back this far. Default DEFAULT_SCROLLBACK. */
  scrollback?: number
  /** Called each time xterm has parsed a written chunk (the screen changed). */
  onParsed?: () => void
}

/**
 * xterm throws once 50 MB are queued unparsed. Well before that, chunks are left out of the rendering
 * (the transcript keeps them): detection on a screen that is megabytes behind is meaningless anyway.
 */
const MAX_UNPARSED_BYTES = 16 * 1024 * 1024

/**
 * Rendering costs more CPU per byte than reading the PTY. In a flood (more than FEED_BUDGET bytes
 * within FEED_WINDOW_MS) only the last FLOOD_TAIL bytes of it are rendered, when it pauses or every
 * FLOOD_RENDER_MS: everything before would have scrolled off the screen before the next detection scan
 * anyway, and the transcript keeps every byte. Interactive output never comes close to this rate. Once a
 * window had to be thinned, the next ones get no budget of their own (only their tail is rendered) until
 * output slows down: a budget rendered at the start of every window of a flood is scrolled away unseen.
 */
const FEED_WINDOW_MS = 50
const FEED_BUDGET = 64 * 1024
/**
 * Of a window's budget, this much is rendered once the output pauses (FEED_PAUSE_MS); the rest waits for
 * the window's end and is rendered in full then if the window stayed within its budget (a large redraw
 * of a TUI, 50 ms late at most), or only as a flood's tail if it did not: rendering the whole budget of a
 * flood's first window at once was half of what xterm parsed of a 25 MB stream.
 */
const FEED_AT_ONCE = 16 * 1024
/**
 * What comes at once is rendered when the output has paused this long, not as it comes: a flood never
 * pauses, so it is known as one (over its budget) before xterm parses any of it. At the start of a
 * stream xterm's code is cold, and rendering the first 16 KB of a flood as it came kept proctor from
 * reading for ~45 ms on Node 20 (no compile cache there) and ~20 ms on Node 24, while the agent waited
 * on a full terminal. A TUI writes a frame in one go, so a frame waits just this long; detection waits
 * for 10 ms of quiet after it anyway (OutputPipeline).
 */
const FEED_PAUSE_MS = 4
/**
 * What is rendered of a thinned flood at the end of a window: several screenfuls (a 40x120 screen of
 * text is under 5 KB, and well under 16 with colours), from a line start. xterm parses about 4 MB/s,
 * so each KB rendered of a flood is a quarter of a millisecond the agent's output waits. Of plain text
 * (no ESC) only the last lines anything reads are rendered (REPORTED_LINES or the screen's rows): they
 * alone decide what the screen shows, and 16 KB of 80-column lines is five times that.
 */
const FLOOD_TAIL = 16 * 1024
/**
 * Once a flood is being thinned, its tail is rendered when the output pauses for FLOOD_QUIET_MS, or every
 * FLOOD_RENDER_MS while it goes on: in between the screen only scrolls, and a prompt cannot be waiting
 * for its answer while output pours past it, so the pause is what matters. Rendering a tail every window
 * made xterm the costliest part of a flood; with 32 KB every 250 ms it still parsed ~160 KB of a 25 MB
 * stream, ~100 KB with 16 KB every 500 ms.
 */
const FLOOD_QUIET_MS = 15
const FLOOD_RENDER_MS = 500

/** Switches between the normal and the alternate screen; the last one in skipped bytes is replayed. */
const SCREEN_SWITCHES = ['\x1b[?1049h', '\x1b[?1049l', '\x1b[?1047h', '\x1b[?1047l', '\x1b[?47h', '\x1b[?47l']
/** Every switch starts with CSI ?, so one backward search finds the candidates. */
const PRIVATE_CSI = Buffer.from('\x1b[?', 'latin1')
const LONGEST_SWITCH = Math.max(...SCREEN_SWITCHES.map((s) => s.length))

/**
 * The last screen switch in bytes that are skipped. This runs over every byte of a flood, so it makes
 * one backward pass (searching for each switch separately made it the costliest step of a flood).
 */
function lastScreenSwitch(bytes: Buffer): string | null {
  // Most of a flood has no escape at all: one byte search (memchr) settles it.
  if (bytes.indexOf(0x1b) === -1) return null
  let at = bytes.lastIndexOf(PRIVATE_CSI)
  while (at !== -1) {
    const text = bytes.toString('latin1', at, at + LONGEST_SWITCH)
    const found = SCREEN_SWITCHES.find((seq) => text.startsWith(seq))
    if (found) return found
    at = at === 0 ? -1 : bytes.lastIndexOf(PRIVATE_CSI, at - 1)
  }
  return null
}

/** Where to start rendering a thinned flood: after a line break, so no character or sequence is cut. */
function tailStart(bytes: Buffer, keep: number): number {
  const from = bytes.length - keep
  const nl = bytes.indexOf(0x0a, from)
  return nl === -1 || nl === bytes.length - 1 ? from : nl + 1
}

/**
 * Where the last `lines` lines of `bytes` begin (after the LF before them); when it holds fewer, the
 * first line start, as tailStart.
 */
function lastLinesStart(bytes: Buffer, lines: number): number {
  let at = bytes.length
  for (let i = 0; i < lines; i++) {
    const nl = at === 0 ? -1 : bytes.lastIndexOf(0x0a, at - 1)
    if (nl === -1) return tailStart(bytes, bytes.length)
    at = nl
  }
  return at + 1
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
}

/**
 * The last `capacity` bytes of a flood, in one buffer allocated once. Chunks are read into a reused buffer
 * (reuse-read.ts), so what a view keeps is copied; a ring copies each byte once and allocates nothing,
 * where keeping a copy of every chunk of a flood would allocate megabytes that only wait to be collected.
 * `onDrop` sees every byte that falls out of it, in order: `source[start, end)`, which began at byte
 * `offset` of everything pushed (no view is allocated for it: a flood drops bytes at every chunk).
 */
export class TailRing {
  private buffer: Buffer | null = null
  /** Where the next byte goes. */
  private end = 0
  private held = 0

  constructor(
    readonly capacity: number,
    private readonly onDrop: (source: Buffer, start: number, end: number, offset: number) => void,
  ) {}

  /** Bytes pushed so far (the offset after the last one). */
  pushed = 0
  private dropped = 0

  get length(): number {
    return this.held
  }

  push(chunk: Uint8Array): void {
    const bytes = asBuffer(chunk)
    const cap = this.capacity
    const buffer = (this.buffer ??= Buffer.allocUnsafeSlow(cap))
    this.pushed += bytes.length
    if (bytes.length >= cap) {
      this.dropOldest(this.held)
      const head = bytes.length - cap
      if (head > 0) {
        this.onDrop(bytes, 0, head, this.dropped)
        this.dropped += head
      }
      buffer.set(head > 0 ? bytes.subarray(head) : bytes, 0)
      this.end = 0
      this.held = cap
      return
    }
    this.dropOldest(this.held + bytes.length - cap)
    const first = Math.min(bytes.length, cap - this.end)
    buffer.set(first < bytes.length ? bytes.subarray(0, first) : bytes, this.end)
    if (first < bytes.length) buffer.set(bytes.subarray(first), 0)
    this.end = (this.end + bytes.length) % cap
    this.held += bytes.length
  }

  /** The bytes held, oldest first, in a buffer of their own; the ring is empty afterwards. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.held)
    if (this.held > 0) {
      const [start, first] = this.oldest(this.held)
      out.set(this.buffer!.subarray(start, start + first), 0)
      if (first < this.held) out.set(this.buffer!.subarray(0, this.held - first), first)
    }
    this.clear()
    return out
  }

  clear(): void {
    this.end = 0
    this.held = 0
    // What was held is gone too: offsets of later drops go on from the end of it.
    this.dropped = this.pushed
  }

  private dropOldest(count: number): void {
    if (count <= 0) return
    const [start, first] = this.oldest(count)
    this.onDrop(this.buffer!, start, start + first, this.dropped)
    if (first < count) this.onDrop(this.buffer!, 0, count - first, this.dropped + first)
    this.dropped += count
    this.held -= count
  }

  /** Where the oldest byte is, and how many of the oldest `count` lie before the end of the buffer. */
  private oldest(count: number): [number, number] {
    const start = (this.end - this.held + this.capacity) % this.capacity
    return [start, Math.min(count, this.capacity - start)]
  }
}

/**
 * Reports and stop hooks read the last 40 lines; the transcript has everything else. Each scrollback
 * line is a live object of 12 bytes per column, and filling 1000 of them in a flood made the screen
 * the largest part of proctor's memory (about 10 MB more peak RSS than 200 lines).
 */
const DEFAULT_SCROLLBACK = 200
/** The most lines anything reads back from the screen: the reports' and stop hooks' tail (tailText(40)). */
const REPORTED_LINES = 40

/** The private corner of xterm that tells when scrollback lines are trimmed (see followTrims). */
interface XtermInternals {
  _core?: {
    buffers?: {
      normal?: { lines?: { onTrim?: (listener: (amount: number) => void) => { dispose(): void } } }
    }
  }
}

/** A headless xterm fed with the raw PTY output. */
export class RenderedScreen implements OutputView {
  readonly kind = 'screen' as const
  cols: number
  rows: number
  /** Null until xterm is loaded; output written meanwhile waits in `early`. */
  private term: Xterm.Terminal | null = null
  private early: Uint8Array[] | null = null
  private earlyBytes = 0
  private readonly ready: Promise<void> | null = null
  private readonly scrollback: number
  private readonly onParsed: (() => void) | undefined
  private unparsedBytes = 0
  private pendingWrites = 0
  private waiters: (() => void)[] = []
  private skipped = 0
  private disposed = false
  private windowStart = -Infinity
  private fedInWindow = 0
  /** The last window was thinned: until a quiet window, only tails are rendered. */
  private thinning = false
  private thinned = false
  /** The end of a flood, waiting to be rendered. */
  private readonly held = new TailRing(FLOOD_TAIL, (source, start, end, offset) => {
    this.skipped += end - start
    this.thinned = true
    this.droppedSinceRelease = true
    // Only bytes of a chunk that held an ESC can hold a screen switch.
    if (offset < this.escapesBefore) {
      this.heldSwitch = lastScreenSwitch(source.subarray(start, end)) ?? this.heldSwitch
    }
  })
  /** Every ESC pushed into `held` lies before this offset of it. */
  private escapesBefore = 0
  /** Bytes fell out of the ring since the last render: the held tail starts somewhere in a line. */
  private droppedSinceRelease = false
  /** This window's output beyond FEED_AT_ONCE, while it is within FEED_BUDGET (see FEED_AT_ONCE). */
  private burst: Buffer | null = null
  private burstBytes = 0
  private burstEscape = false
  /** performance.now() of the latest chunk into `burst`, and the timer that waits for a pause after it. */
  private lastBurst = 0
  private pauseTimer: NodeJS.Timeout | null = null
  private heldSwitch: string | null = null
  private heldTimer: NodeJS.Timeout | null = null
  /** While thinning: renders the held tail once the output pauses (FLOOD_QUIET_MS after lastHeld). */
  private quietTimer: NodeJS.Timeout | null = null
  private lastHeld = 0
  private trimmed = 0
  private trimSource: object | null = null
  private trimSubscription: { dispose(): void } | null = null

  constructor(opts: ScreenOptions) {
    this.cols = opts.cols
    this.rows = opts.rows
    this.onParsed = opts.onParsed
    this.scrollback = opts.scrollback ?? DEFAULT_SCROLLBACK
    if (xtermModule) {
      this.term = this.open(xtermModule)
      return
    }
    // xterm is read, compiled and evaluated from the next turn on (unless loadRenderer() started it
    // already): whatever runs synchronously after this constructor (the session spawns its agent) does
    // not wait for it. The output until then is rendered once it is here.
    this.early = []
    this.ready = new Promise<void>((resolve) => setImmediate(resolve)).then(xterm).then(
      (module) => {
        const early = this.early ?? []
        this.early = null
        this.earlyBytes = 0
        if (this.disposed) return
        this.term = this.open(module)
        for (const chunk of early) this.write(chunk)
      },
      () => {
        // Not renderable (a broken install): the transcript keeps the output; the screen stays empty.
        this.skipped += this.earlyBytes
        this.early = null
      },
    )
  }

  private open(module: XtermModule): Xterm.Terminal {
    return new module.Terminal({
      cols: this.cols,
      rows: this.rows,
      scrollback: this.scrollback,
      allowProposedApi: true,
    })
  }

  get flooding(): boolean {
    return this.thinning || this.thinned
  }

  /** Bytes left out of the rendering (flood thinning, or xterm too far behind). */
  get skippedBytes(): number {
    return this.skipped
  }

  /** Follows a PTY resize so the rendering wraps where the agent's terminal does. */
  resize(cols: number, rows: number): void {
    if (this.disposed || (cols === this.cols && rows === this.rows)) return
    // Held output was written before the resize, so it is rendered at the old size.
    this.releaseHeld()
    this.cols = cols
    this.rows = rows
    this.term?.resize(cols, rows)
  }

  /** Which buffer is showing: full-screen TUIs switch to the alternate one (no scrollback). */
  get bufferType(): 'normal' | 'alternate' {
    return this.term?.buffer.active.type ?? 'normal'
  }

  write(chunk: Uint8Array, hasEscape?: boolean): void {
    if (this.disposed || chunk.length === 0) return
    if (this.early) {
      // Bounded like xterm's own queue (MAX_UNPARSED_BYTES); beyond it the rendering skips, as in a flood.
      if (this.earlyBytes + chunk.length > MAX_UNPARSED_BYTES) this.skipped += chunk.length
      else {
        // The chunk is only lent (OutputPipeline.write): what waits is a copy.
        this.early.push(Buffer.from(chunk))
        this.earlyBytes += chunk.length
      }
      return
    }
    if (!this.term) {
      this.skipped += chunk.length
      return
    }
    const now = performance.now()
    if (now - this.windowStart >= FEED_WINDOW_MS && this.held.length === 0 && this.burstBytes === 0) {
      // A whole window went by without output to hold: whatever flood there was is over.
      this.windowStart = now
      this.fedInWindow = 0
      this.thinning = false
    }
    const budget = this.thinning ? 0 : FEED_BUDGET
    if (this.held.length === 0 && this.fedInWindow + this.burstBytes + chunk.length <= budget) {
      // The chunk is only lent (OutputPipeline.write): it waits in the screen's own buffer, up to
      // FEED_AT_ONCE of it for a pause, the rest for the window's end.
      this.burst ??= Buffer.allocUnsafeSlow(FEED_BUDGET)
      this.burst.set(chunk, this.burstBytes)
      this.burstBytes += chunk.length
      this.burstEscape ||= hasEscape ?? asBuffer(chunk).indexOf(0x1b) !== -1
      this.lastBurst = now
      if (this.fedInWindow + this.burstBytes <= FEED_AT_ONCE && !this.pauseTimer) this.armPause(FEED_PAUSE_MS)
      // Output that never pauses (a progress bar redrawn every few ms) is rendered at the window's end.
      if (!this.heldTimer) this.armHeldTimer(FEED_WINDOW_MS, now)
      return
    }
    if (!this.thinning) {
      // Over budget: a flood. Its tail is rendered when it pauses or FLOOD_RENDER_MS on, not at the end of
      // this window: the code xterm runs is still cold at the start of a stream (and tens of ms per 16 KB).
      this.thinning = true
      if (this.heldTimer) clearTimeout(this.heldTimer)
      this.heldTimer = null
    }
    if (this.burstBytes > 0) {
      // What waited is the start of the flood.
      const burst = this.burst!.subarray(0, this.burstBytes)
      this.burstBytes = 0
      const escape = this.burstEscape
      this.burstEscape = false
      this.hold(burst, now, escape)
    }
    this.hold(chunk, now, hasEscape ?? asBuffer(chunk).indexOf(0x1b) !== -1)
  }

  /** `chunk` must be the screen's own: xterm parses it later. */
  private feed(chunk: Uint8Array): void {
    this.fedInWindow += chunk.length
    if (this.unparsedBytes + chunk.length > MAX_UNPARSED_BYTES) {
      this.skipped += chunk.length
      return
    }
    this.unparsedBytes += chunk.length
    this.pendingWrites++
    this.term!.write(chunk, () => {
      this.followTrims()
      this.unparsedBytes -= chunk.length
      this.pendingWrites--
      if (this.pendingWrites === 0) this.releaseWaiters()
      this.onParsed?.()
    })
  }

  flush(): Promise<void> {
    if (this.early && this.ready) return this.ready.then(() => this.flush())
    this.releaseHeld()
    if (this.pendingWrites === 0 || this.disposed) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  /** Over budget in this window: keep the end of the output for the window's end, FLOOD_TAIL at most. */
  private hold(chunk: Uint8Array, now: number, hasEscape: boolean): void {
    if (hasEscape) this.escapesBefore = this.held.pushed + chunk.length
    this.held.push(chunk)
    this.lastHeld = now
    if (!this.heldTimer) this.armHeldTimer(this.thinning ? FLOOD_RENDER_MS : FEED_WINDOW_MS, now)
    // Not pushed back per chunk (re-arming a timer thousands of times a second costs measurably): when
    // it fires, it waits out what is left of the pause since the latest chunk.
    if (this.thinning && !this.quietTimer) this.armQuiet(FLOOD_QUIET_MS)
  }

  /**
   * Renders what the window may render at once (FEED_AT_ONCE) once the output paused for FEED_PAUSE_MS.
   * Not pushed back per chunk: when it fires, it waits out what is left of the pause.
   */
  private armPause(ms: number): void {
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = null
      if (this.burstBytes === 0 || this.disposed) return
      const quietFor = performance.now() - this.lastBurst
      if (quietFor < FEED_PAUSE_MS) {
        this.armPause(Math.max(1, FEED_PAUSE_MS - quietFor))
        return
      }
      const count = Math.min(this.burstBytes, FEED_AT_ONCE - this.fedInWindow)
      if (count <= 0) return
      const data = Buffer.from(this.burst!.subarray(0, count))
      this.burst!.copyWithin(0, count, this.burstBytes)
      this.burstBytes -= count
      this.feed(data)
    }, ms)
    this.pauseTimer.unref()
  }

  /** Renders what waits at the end of the window (`window` ms after it began). */
  private armHeldTimer(window: number, now: number): void {
    this.heldTimer = setTimeout(() => this.releaseHeld(), Math.max(1, window - (now - this.windowStart)))
    this.heldTimer.unref()
  }

  private armQuiet(ms: number): void {
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null
      const quietFor = performance.now() - this.lastHeld
      if (quietFor < FLOOD_QUIET_MS) this.armQuiet(Math.max(1, FLOOD_QUIET_MS - quietFor))
      else this.releaseHeld()
    }, ms)
    this.quietTimer.unref()
  }

  /** Renders the tail of what was held (from a line start), after the last screen switch it skipped. */
  private releaseHeld(): void {
    if (this.heldTimer) {
      clearTimeout(this.heldTimer)
      this.heldTimer = null
    }
    if (this.quietTimer) {
      clearTimeout(this.quietTimer)
      this.quietTimer = null
    }
    if (this.pauseTimer) {
      clearTimeout(this.pauseTimer)
      this.pauseTimer = null
    }
    if (this.disposed) return
    if (this.burstBytes > 0) {
      // The window stayed within its budget: all of it is rendered.
      const data = Buffer.from(this.burst!.subarray(0, this.burstBytes))
      this.burstBytes = 0
      this.burstEscape = false
      this.windowStart = performance.now()
      this.fedInWindow = 0
      this.feed(data)
      return
    }
    if (this.held.length === 0) return
    // No ESC in what is held: plain text, whose last lines alone decide what the screen shows.
    const plain = this.escapesBefore <= this.held.pushed - this.held.length
    const data = this.held.take()
    // What fell out of the ring began a line (or a sequence): render from the next line start, and of
    // plain text only the lines anything reads back (the screen, REPORTED_LINES) and two more.
    const start = !this.droppedSinceRelease
      ? 0
      : plain
        ? lastLinesStart(data, Math.max(this.rows, REPORTED_LINES) + 2)
        : tailStart(data, data.length)
    this.droppedSinceRelease = false
    if (start > 0) {
      this.skipped += start
      this.heldSwitch = lastScreenSwitch(data.subarray(0, start)) ?? this.heldSwitch
    }
    this.thinning = this.thinned || start > 0
    this.thinned = false
    const prefix = this.heldSwitch
    this.heldSwitch = null
    this.windowStart = performance.now()
    this.fedInWindow = 0
    if (prefix) this.feed(Buffer.from(prefix, 'latin1'))
    this.feed(data.subarray(start))
  }

  /** The logical lines on the visible screen, for matching. */
  screenLines(): ScreenLine[] {
    this.followTrims()
    if (!this.term) return []
    const buffer = this.term.buffer.active
    const top = buffer.baseY
    const trimmed = buffer.type === 'normal' ? this.trimmed : 0
    const out: ScreenLine[] = []
    for (let row = 0; row < this.rows; row++) {
      const line = buffer.getLine(top + row)
      if (!line) break
      const text = line.translateToString(true)
      const last = out[out.length - 1]
      if (line.isWrapped && last) last.text += text
      else out.push({ text, line: top + row + trimmed, row })
    }
    for (const l of out) l.text = l.text.trimEnd()
    return out
  }

  visibleLines(): string[] {
    if (!this.term) return Array.from({ length: this.rows }, () => '')
    const buffer = this.term.buffer.active
    const lines: string[] = []
    for (let row = 0; row < this.rows; row++) {
      lines.push(
        buffer
          .getLine(buffer.baseY + row)
          ?.translateToString(true)
          .trimEnd() ?? '',
      )
    }
    return lines
  }

  visibleText(): string {
    return this.visibleLines().join('\n')
  }

  tailText(lines: number): string {
    if (!this.term) return ''
    const buffer = this.term.buffer.active
    let end = buffer.baseY + this.rows
    while (
      end > 0 &&
      !buffer
        .getLine(end - 1)
        ?.translateToString(true)
        .trim()
    )
      end--
    const out: string[] = []
    for (let y = Math.max(0, end - Math.max(0, lines)); y < end; y++) {
      out.push(buffer.getLine(y)?.translateToString(true).trimEnd() ?? '')
    }
    return out.join('\n')
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    if (this.heldTimer) clearTimeout(this.heldTimer)
    if (this.quietTimer) clearTimeout(this.quietTimer)
    if (this.pauseTimer) clearTimeout(this.pauseTimer)
    this.held.clear()
    this.burstBytes = 0
    this.early = null
    this.trimSubscription?.dispose()
    this.term?.dispose()
    this.releaseWaiters()
  }

  /**
   * Counts lines trimmed off the top of the normal buffer once the scrollback is full, so line
   * identities stay put while content scrolls. xterm's public API has no trim event; its buffer's
   * internal one is used when present (a terminal reset replaces the buffer, so it is re-attached).
   * Without it, identities are exact until the scrollback fills.
   */
  private followTrims(): void {
    const lines = (this.term as unknown as XtermInternals | null)?._core?.buffers?.normal?.lines
    if (!lines || lines === this.trimSource || typeof lines.onTrim !== 'function') return
    this.trimSubscription?.dispose()
    this.trimSource = lines
    this.trimSubscription = lines.onTrim((n: number) => (this.trimmed += n))
  }

  private releaseWaiters(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const resolve of waiters) resolve()
  }
}

/**
 * One line of a pipe session's output. `seq` tells lines apart, in order: from 0, one per line, except
 * that the lines a flood left out move it on by at least one rather than one each. The unfinished last
 * line keeps its seq.
 */
export interface TextLine {
  seq: number
  text: string
  /** False for the current line (no newline yet): it may still grow, and a prompt often ends there. */
  complete: boolean
}

export interface LineViewOptions {
  /** Lines kept for visibleLines()/tailText(). */
  keepLines?: number
  /** Characters of one line kept for matching and display; a longer line keeps its end. */
  maxLineChars?: number
  /** Keep completed lines for takeLines() (off when there are no detector rules). */
  trackPending?: boolean
  /** Characters of completed lines waiting for takeLines(); beyond this the oldest are skipped. */
  maxPendingChars?: number
}

/** An escape sequence still open at the end of a chunk: kept for the next chunk. */
const OPEN_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|\]|[PX^_][^\x1b]*(?:\x1b)?|[ -/]*)?$/
/** An unterminated OSC/DCS longer than this is garbage, not a sequence worth waiting for. */
const MAX_OPEN_ESCAPE = 4096
/**
 * Pipe output is split into lines as it comes, up to FLOOD_BUDGET_BYTES per FLOOD_WINDOW_MS (the rate
 * OutputPipeline.calm() calls a flood, as the PTY screen's budget); beyond that (and in every window after
 * one that went beyond it) only the last FLOOD_TAIL_BYTES are: decoding and splitting 25 MB of a build log
 * line by line cost proctor more CPU than reading it, which slowed the agent writing it to a quarter of a
 * plain pipe's speed. Every line split is also matched against every rule: with 256 KB budgets and 64 KB
 * tails, the lines of a 25 MB flood's first window and tails were a tenth of proctor's CPU for it.
 */
const FLOOD_WINDOW_MS = 50
const FLOOD_BUDGET_BYTES = 64 * 1024
/** The end of a flood the detector sees: a few hundred lines of a build log (at least 4 × maxLineChars). */
const FLOOD_TAIL_BYTES = 16 * 1024

/**
 * Lines of a pipe session: UTF-8 decoded (invalid bytes become U+FFFD), escape sequences removed, the
 * last `keepLines` kept. A line that never ends (10 MB without a newline) keeps only its last
 * `maxLineChars` characters, so memory and matching stay bounded.
 */
export class LineView implements OutputView {
  readonly kind = 'lines' as const
  private readonly decoder = new TextDecoder('utf-8', { fatal: false })
  private readonly keepLines: number
  private readonly maxLineChars: number
  private readonly trackPending: boolean
  private readonly maxPendingChars: number
  private pendingChars = 0
  /** Ring of the last completed lines. */
  private readonly kept: string[] = []
  private keptStart = 0
  private pending: TextLine[] = []
  private skipped = 0
  private current = ''
  private currentTouched = false
  private carry = ''
  private nextSeq = 0
  /** Flood thinning (see write()): the current window, and whether this one or the last was a flood. */
  private windowStart = -Infinity
  private windowBytes = 0
  private floodedNow = false
  private floodedLast = false
  /** The end of a flood, waiting to be decoded. */
  private readonly deferred: TailRing
  /** The dropped bytes began a line: the next newline ends it, skipped. */
  private lost = false
  /** The decoder may hold part of a character (it decoded since it was last reset). */
  private decoderUsed = false

  constructor(opts: LineViewOptions = {}) {
    this.keepLines = Math.max(1, opts.keepLines ?? 500)
    this.maxLineChars = Math.max(80, opts.maxLineChars ?? 4096)
    this.trackPending = opts.trackPending ?? true
    this.maxPendingChars = Math.max(this.maxLineChars, opts.maxPendingChars ?? 4 * 1024 * 1024)
    this.deferred = new TailRing(Math.max(FLOOD_TAIL_BYTES, 4 * this.maxLineChars), (source, start, end) =>
      this.drop(source.subarray(start, end)),
    )
  }

  get flooding(): boolean {
    return this.floodedLast || this.floodedNow
  }

  /**
   * Completed lines never shown to the detector because it fell too far behind: exact when the detector
   * was slow, at least one per stretch of bytes a flood left out (those are never decoded, nor their
   * lines counted one by one).
   */
  get skippedLines(): number {
    this.settleFlood()
    return this.skipped
  }

  write(chunk: Uint8Array): void {
    const now = performance.now()
    if (now - this.windowStart >= FLOOD_WINDOW_MS) {
      this.windowStart = now
      this.windowBytes = 0
      this.floodedLast = this.floodedNow
      this.floodedNow = false
      // Still flooding: what the last window left waiting stays there (the next bytes join it) until the
      // flood ends or the view is read, so a long flood is decoded once per detection scan at most.
      if (!this.floodedLast) this.settleFlood()
    }
    this.windowBytes += chunk.length
    const budget = this.floodedLast ? 0 : FLOOD_BUDGET_BYTES
    if (this.deferred.length === 0 && this.windowBytes <= budget) {
      this.process(chunk)
      return
    }
    // A flood: the bytes wait, and only the last ring's worth of them is ever decoded and split into
    // lines (at the next window, or when anything reads the view); what falls out of the ring before that
    // is dropped. The transcript has every byte; the detector sees the end of the flood, where a prompt
    // would be.
    this.deferred.push(chunk)
  }

  /** Decodes what a flood left waiting: the end of its output. */
  private settleFlood(): void {
    if (this.deferred.length === 0) return
    let bytes = this.deferred.take()
    if (this.lost) {
      // The line the dropped bytes began: skipped to its end. A line with no end in sight keeps its end
      // (as any line longer than maxLineChars does), so a prompt at the end of a flood is still seen.
      this.lost = false
      const nl = bytes.indexOf(0x0a)
      if (nl !== -1) {
        this.skipLines(1)
        bytes = bytes.subarray(nl + 1)
      }
    }
    if (bytes.length > 0) this.process(bytes)
  }

  /**
   * Bytes a flood left out, never decoded. A newline among them ended at least one line unseen: the line
   * numbers move on by one, not by the count (searching for every newline of 25 MB, a call per line,
   * cost more than everything else proctor does with the bytes; the numbers only have to tell lines
   * apart and keep their order). A newline byte is never part of a UTF-8 sequence, so none is missed.
   */
  private drop(bytes: Uint8Array): void {
    this.floodedNow = true
    // A line already ended in this gap: it moved the numbers on, and the rest of the gap is skipped to the
    // next newline after it anyway. Nothing more to look at until the flood's end is decoded.
    if (this.lost) return
    const lineEnded = bytes.indexOf(0x0a) !== -1
    this.skipLines(lineEnded ? 1 : 0)
    // The bytes after the last newline began a line whose start is gone: it is skipped to its end.
    if (lineEnded) this.lost = true
  }

  /** `count` lines ended unseen; the line in progress (if any) is cut off. */
  private skipLines(count: number): void {
    this.current = ''
    this.currentTouched = false
    this.carry = ''
    if (this.decoderUsed) {
      this.decoder.decode() // drops a half-received character
      this.decoderUsed = false
    }
    if (count === 0) return
    this.nextSeq += count
    this.skipped += count
    // What is kept is the end of the output: lines from before the gap would read as if they led up to it.
    this.kept.length = 0
    this.keptStart = 0
  }

  private process(chunk: Uint8Array): void {
    this.decoderUsed = true
    let text = this.carry + this.decoder.decode(chunk, { stream: true })
    this.carry = ''
    const esc = text.lastIndexOf('\x1b')
    if (esc !== -1 && text.length - esc <= MAX_OPEN_ESCAPE) {
      const open = OPEN_ESCAPE.exec(text.slice(esc))
      if (open && open.index === 0) {
        this.carry = text.slice(esc)
        text = text.slice(0, esc)
      }
    }
    // "\r" may be the first half of "\r\n": wait for the next chunk to tell a line end from a return.
    if (text.endsWith('\r')) {
      this.carry = '\r' + this.carry
      text = text.slice(0, -1)
    }
    this.consume(stripTerminal(text))
  }

  flush(): Promise<void> {
    return Promise.resolve()
  }

  /** Lines the detector has not seen yet, then the current unfinished line (seen again until it ends). */
  takeLines(): TextLine[] {
    this.settleFlood()
    const out = this.pending
    this.pending = []
    this.pendingChars = 0
    if (this.current || this.currentTouched) {
      out.push({ seq: this.nextSeq, text: this.current, complete: false })
    }
    return out
  }

  visibleLines(): string[] {
    this.settleFlood()
    const lines = this.keptLines()
    if (this.current) lines.push(this.current)
    return lines.map((l) => l.trimEnd())
  }

  visibleText(): string {
    return this.visibleLines().join('\n')
  }

  tailText(lines: number): string {
    const all = this.visibleLines()
    while (all.length > 0 && all[all.length - 1] === '') all.pop()
    return all.slice(Math.max(0, all.length - Math.max(0, lines))).join('\n')
  }

  dispose(): void {
    this.pending = []
    this.deferred.clear()
  }

  private consume(text: string): void {
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      if (nl === -1) break
      let end = nl
      while (end > start && text.charCodeAt(end - 1) === 13) end--
      this.appendToCurrent(text.slice(start, end))
      this.endLine()
      start = nl + 1
    }
    if (start < text.length) this.appendToCurrent(text.slice(start))
  }

  private appendToCurrent(piece: string): void {
    // A carriage return starts the line over (progress bars); what was there is overwritten.
    const cr = piece.lastIndexOf('\r')
    if (cr !== -1) {
      this.current = ''
      piece = piece.slice(cr + 1)
    }
    this.currentTouched = true
    this.current += piece.length > this.maxLineChars ? piece.slice(piece.length - this.maxLineChars) : piece
    // Trim in halves so a long line costs amortized O(1) per character, not a copy per chunk.
    if (this.current.length > 2 * this.maxLineChars) this.current = this.current.slice(-this.maxLineChars)
  }

  private endLine(): void {
    let line = this.current
    if (line.length > this.maxLineChars) line = line.slice(-this.maxLineChars)
    this.current = ''
    this.currentTouched = false
    const seq = this.nextSeq++
    if (this.trackPending) {
      if (this.pendingChars > this.maxPendingChars) this.dropOlderHalf()
      this.pending.push({ seq, text: line, complete: true })
      this.pendingChars += line.length + 1
    }
    if (this.kept.length < this.keepLines) this.kept.push(line)
    else {
      this.kept[this.keptStart] = line
      this.keptStart = (this.keptStart + 1) % this.keepLines
    }
  }

  /** Drops the older half at once: dropping one line at a time would be quadratic in a flood. */
  private dropOlderHalf(): void {
    const drop = Math.ceil(this.pending.length / 2)
    for (let i = 0; i < drop; i++) this.pendingChars -= this.pending[i]!.text.length + 1
    this.skipped += drop
    this.pending = this.pending.slice(drop)
  }

  private keptLines(): string[] {
    return [...this.kept.slice(this.keptStart), ...this.kept.slice(0, this.keptStart)]
  }
}
