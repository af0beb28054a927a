// The last bytes of an agent's raw output, kept for the CLI-output usage readers (cli-output.ts): the CLIs
// print their usage summary last, and the transcript may have stopped at its cap long before. One buffer,
// allocated at the first byte; a write copies into it and allocates nothing.
export const OUTPUT_TAIL_BYTES = 1024 * 1024

export class OutputTail {
  #buffer: Buffer | null = null
  #end = 0
  #total = 0

  constructor(private readonly capacity = OUTPUT_TAIL_BYTES) {}

  write(chunk: Uint8Array): void {
    const buffer = (this.#buffer ??= Buffer.allocUnsafe(this.capacity))
    this.#total += chunk.length
    // The common case, a chunk that fits before the end, copies without making a view.
    if (chunk.length <= this.capacity - this.#end) {
      buffer.set(chunk, this.#end)
      this.#end = (this.#end + chunk.length) % this.capacity
      return
    }
    // Only the last `capacity` bytes of a chunk larger than the buffer can survive it.
    const data = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk
    const first = this.capacity - this.#end
    buffer.set(data.subarray(0, first), this.#end)
    buffer.set(data.subarray(first), 0)
    this.#end = data.length - first
  }

  /** The kept bytes, oldest first, as text. */
  text(): string {
    const buffer = this.#buffer
    if (!buffer) return ''
    if (this.#total < this.capacity) return buffer.toString('utf8', 0, this.#end)
    return Buffer.concat([buffer.subarray(this.#end), buffer.subarray(0, this.#end)]).toString('utf8')
  }
}
