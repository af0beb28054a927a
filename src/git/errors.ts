/** The last few lines of a command's stderr, enough to see why it failed without flooding a log. */
export function tail(text: string, maxLines = 12, maxChars = 2000): string {
  const lines = text.trimEnd().split('\n')
  const kept = lines.slice(-maxLines).join('\n')
  return kept.length > maxChars ? kept.slice(-maxChars) : kept
}

export interface GitErrorDetails {
  args: readonly string[]
  cwd: string
  exitCode: number | null
  signal: NodeJS.Signals | null
  stderr: string
  cause?: unknown
  /** Killed at its deadline (exec.ts), not ended by itself. */
  timedOut?: boolean
}

/** A git command that failed. The message names the command, how it ended and the end of its stderr. */
export class GitError extends Error {
  readonly args: readonly string[]
  readonly cwd: string
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
  /** Killed at its deadline: something held it (a FIFO where it reads, a slow mount, a dead network). */
  readonly timedOut: boolean

  constructor(details: GitErrorDetails, summary?: string) {
    const how =
      details.exitCode !== null
        ? `exit code ${details.exitCode}`
        : details.signal
          ? `signal ${details.signal}`
          : 'could not start'
    const stderrTail = tail(details.stderr)
    const head = summary ?? `git ${details.args.join(' ')} failed (${how}) in ${details.cwd}`
    super(stderrTail ? `${head}\n${stderrTail}` : head, details.cause ? { cause: details.cause } : undefined)
    this.name = 'GitError'
    this.args = details.args
    this.cwd = details.cwd
    this.exitCode = details.exitCode
    this.signal = details.signal
    this.stderr = details.stderr
    this.timedOut = details.timedOut === true
  }
}

/** A compare-and-swap ref update lost: the ref no longer points where we expected. */
export class RefMovedError extends GitError {
  readonly ref: string
  readonly expected: string | null
  constructor(ref: string, expected: string | null, details: GitErrorDetails) {
    super(
      details,
      `${ref} moved: expected ${expected ?? 'no ref'}, but something else updated it; nothing was overwritten`,
    )
    this.name = 'RefMovedError'
    this.ref = ref
    this.expected = expected
  }
}
