// "Did you mean" for misspelled keys and enum values.

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("stpo" → "stop" is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

// Case and "-" vs "_" are the most common slips (max-stop-rounds, Timeout), so they cost nothing.
const normalize = (word: string): string => word.toLowerCase().replace(/-/g, '_')

/** The closest candidate, if it is close enough to be a plausible typo of `word`. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const target = normalize(word)
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const distance = editDistance(target, normalize(candidate))
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  const allowed = Math.max(1, Math.floor(target.length / 3))
  return bestDistance <= allowed ? best : undefined
}
