// Runs one hook process through the supervisor: JSON on stdin, own process group, output captured (capped),
// a timeout that stops the group (SIGTERM → grace → SIGKILL). Never throws: a hook that cannot start is an outcome.
import { spawnManaged } from '../supervisor/process.js'
import { SpawnError, type CommandSpec, type ManagedProcess, type StopCause } from '../supervisor/types.js'

/** Hooks may print a lot (a test runner's log); keep enough for a reason and a JSON answer. */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024

export interface HookProcessOptions {
  command: CommandSpec
  cwd: string
  /** The complete environment of the hook. */
  env: Record<string, string | undefined>
  stdin: string
  timeoutMs: number
  graceMs: number
  label: string
  /** Records the hook in the run registry, so a crashed proctor's hooks are reaped like its agent. */
  registry?: { dir: string; session?: string }
  /** Sees the hook's output as it arrives (a live log), besides the captured copy. */
  onOutput?: (chunk: Uint8Array, stream: 'pty' | 'stdout' | 'stderr') => void
}

export interface HookRun {
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  /** Why proctor stopped it, when it did (timeout, shutdown...). */
  stoppedBy: StopCause | null
  stdout: string
  stderr: string
  durationMs: number
  spawnError?: string
}

export interface StartedHook {
  /** Null when the hook could not be started. */
  process: ManagedProcess | null
  done: Promise<HookRun>
}

export function startHookProcess(options: HookProcessOptions): StartedHook {
  const started = performance.now()
  const stdout = new CappedText(MAX_HOOK_OUTPUT_BYTES)
  const stderr = new CappedText(MAX_HOOK_OUTPUT_BYTES)
  let child: ManagedProcess
  try {
    child = spawnManaged({
      command: options.command,
      cwd: options.cwd,
      env: options.env,
      mode: 'pipe',
      stdin: options.stdin,
      graceMs: options.graceMs,
      label: options.label,
      ...(options.registry ? { registry: { ...options.registry, role: 'hook' as const } } : {}),
      onOutput: (chunk, stream) => {
        ;(stream === 'stderr' ? stderr : stdout).push(chunk)
        options.onOutput?.(chunk, stream)
      },
    })
  } catch (error) {
    const message = error instanceof SpawnError || error instanceof Error ? error.message : String(error)
    const run: HookRun = {
      exitCode: null,
      signal: null,
      timedOut: false,
      stoppedBy: null,
      stdout: '',
      stderr: '',
      durationMs: performance.now() - started,
      spawnError: `${options.label} could not start: ${message}`,
    }
    return { process: null, done: Promise.resolve(run) }
  }
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    void child.stop('timeout')
  }, options.timeoutMs)
  const done = child.exited.then((exit) => {
    clearTimeout(timer)
    return {
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut: timedOut || exit.stoppedBy === 'timeout',
      stoppedBy: exit.stoppedBy,
      stdout: stdout.text(),
      stderr: stderr.text(),
      durationMs: performance.now() - started,
    }
  })
  return { process: child, done }
}

/** Keeps the first `limit` bytes; the rest is counted, not stored. */
class CappedText {
  private readonly chunks: Buffer[] = []
  private kept = 0
  private dropped = 0

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.kept
    if (room <= 0) {
      this.dropped += chunk.length
      return
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk
    this.chunks.push(Buffer.from(part))
    this.kept += part.length
    this.dropped += chunk.length - part.length
  }

  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8')
    return this.dropped > 0 ? `${body}\n… (${this.dropped} more bytes not kept)` : body
  }
}
