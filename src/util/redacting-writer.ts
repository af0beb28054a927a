// The agent's live output in a CI log: whole lines go through the sanitizer's redact() before they are
// written, so a token the agent prints (and nobody registered as a secret) never reaches the job log, and a
// line that starts with `::` cannot be a workflow command (`::add-mask::`, `::stop-commands::`, `::error::`).
// A partial line is held back until its newline, or written once it grows past `maxHold` (a progress
// bar without newlines must still show) — a token can only be split at that rare boundary.
import type { Sanitizer } from './sanitize.js'

export interface LineSink {
  write(chunk: string | Uint8Array): unknown
}

export class RedactingWriter {
  private pending = ''

  constructor(
    private readonly sink: LineSink,
    private readonly sanitizer: Pick<Sanitizer, 'redact'>,
    private readonly maxHold = 8192,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    this.pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
    const cut = this.pending.lastIndexOf('\n')
    if (cut >= 0) {
      this.sink.write(this.clean(this.pending.slice(0, cut + 1)))
      this.pending = this.pending.slice(cut + 1)
    }
    if (this.pending.length > this.maxHold) this.end()
    return true
  }

  /** Writes what is held back (the session ended, or a line grew too long). */
  end(): void {
    if (!this.pending) return
    this.sink.write(this.clean(this.pending))
    this.pending = ''
  }

  private clean(text: string): string {
    // The runner reads a command where a line starts with "::" (after blanks); colours may come first.
    // OSC sequences (window title, clipboard via OSC 52, hyperlinks) act on the user's terminal, not on a
    // log: a non-interactive echo drops them, terminated (BEL or ST) or cut off at the end of the line.
    const visible = text.replace(OSC, '')
    return this.sanitizer.redact(visible).replace(/^([\s\x1b[\]0-9;?]*):(?=:)/gm, '$1:\u200b')
  }
}

const OSC = /(?:\x1b\]|\x9d)[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c|(?=\n)|$)/g
