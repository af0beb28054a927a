// Waiting with a limit: cancellation windows and reporting budgets must not be outlived by a slow promise.

/** The promise's value, or `fallback()` once `ms` have passed. The promise itself is not cancelled. */
export async function withDeadline<T, F>(promise: Promise<T>, ms: number, fallback: () => F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback()), Math.max(0, ms))))
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}
