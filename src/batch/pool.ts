// A small promise pool: at most `concurrency` items in flight, taken in order. Once `signal` aborts, the
// items not yet taken are handed to `skip` instead of being started (the running ones finish on their own
// terms: they watch the same signal).

export interface PoolOptions {
  count: number
  concurrency: number
  signal: AbortSignal
  run: (index: number) => Promise<void>
  skip: (index: number) => void
}

export async function runPool(opts: PoolOptions): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++
      if (index >= opts.count) return
      if (opts.signal.aborted) opts.skip(index)
      else await opts.run(index)
    }
  }
  const workers = Math.max(1, Math.min(opts.concurrency, opts.count))
  await Promise.all(Array.from({ length: workers }, worker))
}
