// The contract of the one process owner. Only src/supervisor/ starts, signals or reaps processes;
// hooks, sessions and batches go through `spawnManaged` (src/supervisor/process.ts).

/** An explicit command: an argv (never joined) or a shell string run by `/bin/sh -c`. */
export type CommandSpec = { file: string; args: string[] } | { shell: string }

export type SpawnMode = 'pty' | 'pipe'

/** Why a managed process ended, when proctor ended it. */
export type StopCause =
  'timeout' | 'idle_timeout' | 'signal' | 'detector' | 'output_cap' | 'shutdown' | 'requested'

export interface SpawnOptions {
  command: CommandSpec
  cwd: string
  /** The complete environment of the child (not merged with process.env by the spawner). */
  env: Record<string, string | undefined>
  mode: SpawnMode
  /** PTY size; defaults 120x40. */
  cols?: number
  rows?: number
  /**
   * Pipe mode only: written to stdin, then stdin is closed. Without it stdin is closed at once, unless
   * `keepStdinOpen` keeps it an open pipe that write() feeds (an agent answering prompts without a PTY).
   */
  stdin?: string | Buffer
  keepStdinOpen?: boolean
  /** Time between SIGTERM to the group and SIGKILL when stopping. */
  graceMs: number
  /** Raw output as it arrives: PTY output, or (pipe mode) stdout and stderr tagged. */
  onOutput?: (chunk: Buffer, stream: 'pty' | 'stdout' | 'stderr') => void
  /**
   * Read the output into one reused buffer (src/supervisor/reuse-read.ts): no allocation per read, but
   * `onOutput`'s chunk is then only valid during the call — copy what you keep.
   */
  reuseOutputBuffer?: boolean
  /** Records the process in the run registry so a crashed proctor's children are reaped later. */
  registry?: { dir: string; role: 'agent' | 'hook' | 'batch'; session?: string }
  /**
   * The run's token (PROCTOR_RUN_TOKEN in the child's environment), for a caller that must know it before
   * the spawn (the watchdog finds the agent's processes by it). Without it, a run with a registry gets a
   * random one.
   */
  runToken?: string
  /** Label used in error messages and the registry ("agent", "hook tests", ...). */
  label?: string
}

export type WriteResult = { delivered: true } | { delivered: false; reason: string }

export interface ExitInfo {
  /** Exit code, or null when killed by a signal. */
  exitCode: number | null
  signal: NodeJS.Signals | null
  /** Set when proctor stopped the process (the group was signalled on purpose). */
  stoppedBy: StopCause | null
  /** Whether SIGKILL was needed after the grace period. */
  killed: boolean
}

export interface ManagedProcess {
  readonly pid: number
  /** The child leads its own process group: pgid === pid. */
  readonly pgid: number
  readonly mode: SpawnMode
  /** Resolves once, after exit AND end of all output (no tail loss). Never rejects. */
  readonly exited: Promise<ExitInfo>
  /**
   * PTY: typed into the terminal. Pipe: written to stdin if still open. Resolves with whether the bytes
   * reached the child (a closed stdin, an exited child or a full pipe nobody reads are "not delivered").
   */
  write(data: string | Buffer): Promise<WriteResult>
  /**
   * SIGTERM to the group, SIGKILL after graceMs (or the shorter `graceMs` given here, e.g. while proctor
   * itself is being cancelled); idempotent; resolves with the exit.
   */
  stop(cause: StopCause, graceMs?: number): Promise<ExitInfo>
  /** SIGSTOP / SIGCONT to the whole group (used around checkpoints). */
  pause(): void
  resume(): void
  resize(cols: number, rows: number): void
}

/** Thrown before anything is spawned: the executable is missing or not executable. */
export class SpawnError extends Error {
  constructor(
    message: string,
    readonly command: CommandSpec,
    readonly code: 'ENOENT' | 'EACCES' | 'EINVAL',
  ) {
    super(message)
    this.name = 'SpawnError'
  }
}
