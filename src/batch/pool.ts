// The batch's task pool: at most `concurrency` tasks in flight, taken in order (p-limit, the same limiter
// the git runner uses). Once `signal` aborts, the tasks not yet taken are handed to `skip` instead of being
// started (the running ones finish on their own terms: they watch the same signal).
import pLimit from 'p-limit'

export interface PoolOptions {
  count: number
  concurrency: number
  signal: AbortSignal
  run: (index: number) => Promise<void>
  skip: (index: number) => void
}

export async function runPool(opts: PoolOptions): Promise<void> {
  const limit = pLimit(Math.max(1, opts.concurrency))
  await Promise.all(
    Array.from({ length: opts.count }, (_, index) =>
      limit(async () => (opts.signal.aborted ? opts.skip(index) : await opts.run(index))),
    ),
  )
}
