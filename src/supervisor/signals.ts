// SIGINT/SIGTERM to proctor: finalize once (stop the agent, last checkpoint, report), whatever
// else arrives meanwhile. The runner's cancel sends SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s
// after that, so repeats must never restart or abort the finalizer.

export type ShutdownSignal = 'SIGINT' | 'SIGTERM'

export interface ShutdownOptions {
  /** Called for every signal that arrives while the handler is running (or after it ran). */
  onRepeat?: (signal: ShutdownSignal) => void
  /** Called if the handler rejects; the process is not exited for you. */
  onError?: (error: unknown, signal: ShutdownSignal) => void
}

/**
 * Installs SIGINT/SIGTERM listeners. The first signal runs `handler(signal)` once; later ones are
 * reported to `onRepeat` and otherwise ignored (installing a listener also stops Node's default
 * exit on that signal). Exit codes (130 / 143) are the caller's. Returns an uninstall function.
 */
export function installShutdownSignals(
  handler: (signal: ShutdownSignal) => Promise<void>,
  options: ShutdownOptions = {},
): () => void {
  let first: ShutdownSignal | undefined
  const listeners = new Map<ShutdownSignal, () => void>()
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const listener = (): void => {
      if (first !== undefined) {
        options.onRepeat?.(signal)
        return
      }
      first = signal
      handler(signal).catch((error: unknown) => options.onError?.(error, signal))
    }
    listeners.set(signal, listener)
    process.on(signal, listener)
  }
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener)
    listeners.clear()
  }
}

/** The conventional exit code for a process ended by `signal` (128 + signal number). */
export function exitCodeForSignal(signal: ShutdownSignal): 130 | 143 {
  return signal === 'SIGINT' ? 130 : 143
}
