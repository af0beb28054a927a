// Capture of the agent's raw output: the full transcript on disk (capped) and a bounded in-memory tail.
import { EventEmitter } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'

/** What the transcript file holds once it is closed. */
export interface TranscriptSummary {
  path: string
  /** Bytes of the agent's output written to the file (the cap note is not counted). */
  bytes: number
  capped: boolean
  /** Bytes of the agent's output left out because of the cap. */
  dropped: number
  /** Set when the file could not be written (disk full, permissions); capture went on in memory. */
  error: string | null
}

export function transcriptCapNote(maxBytes: number, dropped: number): string {
  return `\n[proctor: transcript capped at ${maxBytes} bytes; ${dropped} bytes dropped]\n`
}

/** Above this many bytes queued for the disk, write() returns false until 'drain' (backpressure). */
const TRANSCRIPT_HIGH_WATER = 1024 * 1024
/**
 * A PTY delivers a few KB per read; one disk write per read costs more CPU than everything else
 * proctor does with the bytes. Small chunks are collected for up to COALESCE_MS (or COALESCE_BYTES).
 */
const COALESCE_BYTES = 64 * 1024
const COALESCE_MS = 20

/**
 * The full raw byte stream, in order, to one file. Writes go through a write stream so they never block
 * the event loop; write() returns false while the stream is backlogged, like a Writable, so a producer
 * that can pause (a PTY) may wait for 'drain'.
 */
export class Transcript extends EventEmitter<{ drain: []; capped: [maxBytes: number] }> {
  readonly path: string
  readonly maxBytes: number
  private readonly stream: fs.WriteStream
  private written = 0
  private droppedBytes = 0
  private error: string | null = null
  private closing: Promise<TranscriptSummary> | null = null
  private pending: Buffer[] = []
  private pendingSize = 0
  private pendingTimer: NodeJS.Timeout | null = null

  constructor(filePath: string, maxBytes: number) {
    super()
    if (!Number.isFinite(maxBytes) || maxBytes < 0) {
      throw new RangeError(`transcript cap must be a non-negative number of bytes, got ${maxBytes}`)
    }
    this.path = filePath
    this.maxBytes = maxBytes
    fs.mkdirSync(path.dirname(filePath), { recursive: true })
    this.stream = fs.createWriteStream(filePath, { flags: 'w', highWaterMark: TRANSCRIPT_HIGH_WATER })
    // An unwritable transcript must not take the session down: remember why and keep going without it.
    this.stream.on('error', (err) => this.fail(err))
    this.stream.on('drain', () => this.emit('drain'))
  }

  get bytes(): number {
    return this.written
  }

  get dropped(): number {
    return this.droppedBytes
  }

  get capped(): boolean {
    return this.droppedBytes > 0
  }

  /** True while the disk is behind; 'drain' follows. */
  get backlogged(): boolean {
    return this.stream.writableNeedDrain
  }

  /** Bytes accepted but not yet on disk. */
  get pendingBytes(): number {
    return this.pendingSize + this.stream.writableLength
  }

  /** Appends a chunk (up to the cap). Returns false while the disk is behind; 'drain' follows. */
  write(chunk: Buffer): boolean {
    if (this.closing) return true
    const room = this.maxBytes - this.written
    if (chunk.length > room) {
      const wasCapped = this.capped
      this.droppedBytes += chunk.length - Math.max(room, 0)
      if (!wasCapped) this.emit('capped', this.maxBytes)
      if (room <= 0) return true
      chunk = chunk.subarray(0, room)
    }
    this.written += chunk.length
    if (this.error || chunk.length === 0) return true
    this.pending.push(chunk)
    this.pendingSize += chunk.length
    if (this.pendingSize >= COALESCE_BYTES) this.writePending()
    else if (!this.pendingTimer) {
      this.pendingTimer = setTimeout(() => this.writePending(), COALESCE_MS)
      this.pendingTimer.unref()
    }
    return !this.stream.writableNeedDrain
  }

  /** Hands the collected chunks to the stream as one write. */
  private writePending(): void {
    if (this.pendingTimer) {
      clearTimeout(this.pendingTimer)
      this.pendingTimer = null
    }
    if (this.pending.length === 0) return
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingSize)
    this.pending = []
    this.pendingSize = 0
    if (!this.error && !this.stream.destroyed) this.stream.write(data)
  }

  private fail(err: Error): void {
    this.error ??= `cannot write transcript ${this.path}: ${err.message}`
  }

  /** Appends the cap note when capped, flushes and closes the file. Idempotent. */
  close(): Promise<TranscriptSummary> {
    this.closing ??= new Promise<TranscriptSummary>((resolve) => {
      this.writePending()
      if (this.capped && !this.error) this.stream.write(transcriptCapNote(this.maxBytes, this.droppedBytes))
      const done = () =>
        resolve({
          path: this.path,
          bytes: this.written,
          capped: this.capped,
          dropped: this.droppedBytes,
          error: this.error,
        })
      if (this.stream.destroyed) return done()
      this.stream.end((err?: Error | null) => {
        if (err) this.fail(err)
        done()
      })
    })
    return this.closing
  }
}

/** The last `capacity` bytes of a stream, in a fixed circular buffer: appends copy only what is kept. */
export class RingBuffer {
  readonly capacity: number
  private readonly data: Buffer
  /** Next write position. */
  private head = 0
  private filled = 0
  private total = 0

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`output buffer size must be a non-negative whole number of bytes, got ${capacity}`)
    }
    this.capacity = capacity
    this.data = Buffer.allocUnsafeSlow(capacity)
  }

  /** Bytes currently held (≤ capacity). */
  get size(): number {
    return this.filled
  }

  /** Bytes ever appended. */
  get totalBytes(): number {
    return this.total
  }

  append(chunk: Uint8Array): void {
    this.total += chunk.length
    if (this.capacity === 0 || chunk.length === 0) return
    // Only the last `capacity` bytes of a large chunk can survive; skip copying the rest.
    if (chunk.length >= this.capacity) {
      this.data.set(chunk.subarray(chunk.length - this.capacity))
      this.head = 0
      this.filled = this.capacity
      return
    }
    const first = Math.min(chunk.length, this.capacity - this.head)
    this.data.set(chunk.subarray(0, first), this.head)
    if (first < chunk.length) this.data.set(chunk.subarray(first), 0)
    this.head = (this.head + chunk.length) % this.capacity
    this.filled = Math.min(this.capacity, this.filled + chunk.length)
  }

  /** A copy of the last `maxBytes` bytes held (all of them by default). */
  tail(maxBytes: number = this.filled): Buffer {
    const n = Math.max(0, Math.min(maxBytes, this.filled))
    const out = Buffer.allocUnsafe(n)
    const start = (this.head - n + this.capacity) % (this.capacity || 1)
    const first = Math.min(n, this.capacity - start)
    this.data.copy(out, 0, start, start + first)
    if (first < n) this.data.copy(out, first, 0, n - first)
    return out
  }

  /** The tail decoded as UTF-8, starting at a character boundary. */
  tailString(maxBytes: number = this.filled): string {
    const bytes = this.tail(maxBytes)
    let skip = 0
    // A cut tail may start inside a multi-byte character: drop its continuation bytes.
    while (skip < bytes.length && skip < 3 && (bytes[skip]! & 0xc0) === 0x80) skip++
    return bytes.subarray(skip).toString('utf8')
  }
}
