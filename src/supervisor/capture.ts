// Capture of the agent's raw output: the full transcript on disk (capped) and a bounded in-memory tail.
import { EventEmitter } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { openAppendRegular } from '../util/safe-file.js'

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

/**
 * A PTY delivers a few KB per read; one disk write per read costs more than everything else proctor
 * does with the bytes. Chunks are copied into one block of TRANSCRIPT_BLOCK_BYTES that goes to disk when
 * full, or FLUSH_MS after its first byte so interactive output reaches the file promptly. 256 KiB rather
 * than 64: writing 26 MB to the page cache took 12-20 ms of system time in 64 KiB writes and 9-14 ms in
 * 256 KiB ones (larger ones gained nothing more).
 */
export const TRANSCRIPT_BLOCK_BYTES = 256 * 1024
const FLUSH_MS = 20

/**
 * The full raw byte stream, in order, to one file.
 *
 * Blocks are written synchronously. A write to the page cache takes microseconds, which is less than
 * handing it to the thread pool costs, and it keeps memory flat: an asynchronous stream queues every
 * byte the disk has not taken yet (tens of MB in a flood) unless the producer honours backpressure,
 * whereas a blocking write simply delays the next read of the PTY, so a disk that falls behind slows
 * the agent down instead of growing proctor. Nothing is queued beyond the one block.
 */
export class Transcript extends EventEmitter<{ capped: [maxBytes: number] }> {
  readonly path: string
  readonly maxBytes: number
  private fd: number | null = null
  private written = 0
  private droppedBytes = 0
  private error: string | null = null
  private closing: Promise<TranscriptSummary> | null = null
  private readonly block: Buffer
  private blockUsed = 0
  /** performance.now() when the block took its first byte. */
  private blockStarted = 0
  private flushTimer: NodeJS.Timeout | null = null

  /** Throws when the directory cannot be created; a file that cannot be opened is reported by close(). */
  constructor(filePath: string, maxBytes: number) {
    super()
    if (!Number.isFinite(maxBytes) || maxBytes < 0) {
      throw new RangeError(`transcript cap must be a non-negative number of bytes, got ${maxBytes}`)
    }
    this.path = filePath
    this.maxBytes = maxBytes
    this.block = Buffer.allocUnsafeSlow(Math.min(TRANSCRIPT_BLOCK_BYTES, Math.max(1, maxBytes)))
    fs.mkdirSync(path.dirname(filePath), { recursive: true })
    try {
      // A rerun of a session id finds the file the last run's agent could replace: never open a FIFO
      // (that blocks) or follow a symlink there (openAppendRegular).
      this.fd = openAppendRegular(filePath, { truncate: true })
    } catch (err) {
      // An unwritable transcript must not take the session down: remember why and keep going without it.
      this.fail(err as Error)
    }
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

  /** Bytes accepted but not yet handed to the file (at most one block). */
  get pendingBytes(): number {
    return this.blockUsed
  }

  /** Appends a chunk (up to the cap). The chunk is copied or written at once, never kept. */
  write(chunk: Uint8Array): void {
    if (this.closing) return
    const room = this.maxBytes - this.written
    if (chunk.length > room) {
      const wasCapped = this.capped
      this.droppedBytes += chunk.length - Math.max(room, 0)
      if (!wasCapped) this.emit('capped', this.maxBytes)
      if (room <= 0) return
      chunk = chunk.subarray(0, room)
    }
    this.written += chunk.length
    if (this.fd === null || chunk.length === 0) return
    if (this.blockUsed + chunk.length > this.block.length) this.writeBlock()
    if (chunk.length >= this.block.length) {
      // Larger than a block: straight to the file, no copy.
      this.writeAll(chunk)
      return
    }
    if (this.blockUsed === 0) this.blockStarted = performance.now()
    this.block.set(chunk, this.blockUsed)
    this.blockUsed += chunk.length
    if (this.blockUsed === this.block.length) this.writeBlock()
    else if (!this.flushTimer) this.armFlush(FLUSH_MS)
  }

  /**
   * One timer for as long as blocks keep filling, not one per block: when it fires it writes a block
   * that has waited FLUSH_MS, or waits out what is left for the current one.
   */
  private armFlush(ms: number): void {
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null
      if (this.blockUsed === 0) return
      const waited = performance.now() - this.blockStarted
      if (waited < FLUSH_MS - 1) this.armFlush(FLUSH_MS - waited)
      else this.writeBlock()
    }, ms)
    this.flushTimer.unref()
  }

  /** Hands the collected block to the file. */
  private writeBlock(): void {
    if (this.blockUsed === 0) return
    const used = this.blockUsed
    this.blockUsed = 0
    this.writeAll(this.block.subarray(0, used))
  }

  private writeAll(data: Uint8Array): void {
    if (this.fd === null) return
    try {
      let offset = 0
      while (offset < data.length) offset += fs.writeSync(this.fd, data, offset, data.length - offset)
    } catch (err) {
      this.fail(err as Error)
    }
  }

  private fail(err: Error): void {
    this.error ??= `cannot write transcript ${this.path}: ${err.message}`
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd)
      } catch {
        // Already failing; the first error is the one reported.
      }
      this.fd = null
    }
  }

  /** Appends the cap note when capped, flushes and closes the file. Idempotent. */
  close(): Promise<TranscriptSummary> {
    if (!this.closing) {
      if (this.flushTimer) clearTimeout(this.flushTimer)
      this.flushTimer = null
      this.writeBlock()
      if (this.capped) this.writeAll(Buffer.from(transcriptCapNote(this.maxBytes, this.droppedBytes)))
      if (this.fd !== null) {
        try {
          fs.closeSync(this.fd)
        } catch (err) {
          this.fail(err as Error)
        }
        this.fd = null
      }
      this.closing = Promise.resolve({
        path: this.path,
        bytes: this.written,
        capped: this.capped,
        dropped: this.droppedBytes,
        error: this.error,
      })
    }
    return this.closing
  }
}
