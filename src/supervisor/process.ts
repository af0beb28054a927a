// spawnManaged: the one way proctor starts a process. The command is resolved before spawning,
// the child leads its own process group (PTY: session leader; pipes: detached), and the group is
// what we stop, pause and reap — so a grandchild can't outlive its agent.
import { resolve as resolvePath } from 'node:path'
import { randomHex } from '../util/random.js'
import type { ChildAdapter, LeaderExit } from './adapter.js'
import { signalTarget, terminateGroup, type GroupTarget } from './group.js'
import { groupHasLiveMembers, isOwnLiveChild } from './proc-info.js'
import { spawnPipe } from './pipe.js'
import { spawnPty } from './pty.js'
import { ensureRunsDir, recordExit, recordSpawn, RUN_TOKEN_ENV, type RunRecord } from './registry.js'
import { resolveCommand } from './resolve.js'
import {
  SpawnError,
  type ExitInfo,
  type ManagedProcess,
  type SpawnMode,
  type SpawnOptions,
  type StopCause,
  type WriteResult,
} from './types.js'

const DEFAULT_COLS = 120
const DEFAULT_ROWS = 40
/**
 * After the leader exited (and its group was dealt with), how long output may still take to end.
 * Only a process that escaped the group (its own setsid) can hold a pipe open longer than this.
 */
const OUTPUT_DRAIN_MS = 2000

/**
 * Starts `opts.command` as the leader of a new process group. Throws SpawnError before anything is
 * spawned when the executable is missing or not executable, the cwd is missing, or PTY mode is
 * unavailable.
 */
export function spawnManaged(opts: SpawnOptions): ManagedProcess {
  const label = opts.label ?? 'command'
  if (!Number.isFinite(opts.graceMs) || opts.graceMs < 0) {
    throw new SpawnError(
      `${label}: graceMs must be a non-negative number, got ${opts.graceMs}`,
      opts.command,
      'EINVAL',
    )
  }
  if (opts.mode !== 'pty' && opts.mode !== 'pipe') {
    throw new SpawnError(
      `${label}: mode must be "pty" or "pipe", got ${String(opts.mode)}`,
      opts.command,
      'EINVAL',
    )
  }
  const resolved = resolveCommand(opts.command, opts.cwd, opts.env, label)
  if (opts.registry) ensureRunsDir(opts.registry.dir)

  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(opts.env)) if (value !== undefined) env[key] = value
  // PWD is the directory the process starts in, not proctor's: opencode (Bun) takes its project from PWD, and
  // with proctor's own it worked in proctor's directory instead of the session's (a batch worktree, a temp repo).
  env.PWD = resolvePath(opts.cwd)
  // The proof, after a crash, that a process group is this run's (see registry.ts).
  const runToken = opts.runToken ?? (opts.registry ? randomHex(16) : undefined)
  if (runToken) env[RUN_TOKEN_ENV] = runToken
  const onOutput = opts.onOutput ?? (() => undefined)
  const adapterOptions = {
    file: resolved.file,
    args: resolved.args,
    cwd: opts.cwd,
    env,
    cols: opts.cols ?? DEFAULT_COLS,
    rows: opts.rows ?? DEFAULT_ROWS,
    stdin: opts.stdin,
    keepStdinOpen: opts.keepStdinOpen,
    onOutput,
    reuseBuffer: opts.reuseOutputBuffer === true,
  }
  let adapter: ChildAdapter
  try {
    adapter = opts.mode === 'pty' ? spawnPty(adapterOptions) : spawnPipe(adapterOptions)
  } catch (error) {
    if (error instanceof SpawnError) throw error
    throw new SpawnError(`${label}: ${(error as Error).message}`, opts.command, 'EINVAL')
  }

  let record: RunRecord | undefined
  if (opts.registry) {
    try {
      record = recordSpawn(opts.registry.dir, {
        pid: adapter.pid,
        role: opts.registry.role,
        session: opts.registry.session,
        label,
        executable: resolved.file,
        token: runToken,
      })
    } catch {
      // The process runs either way; a missing record only weakens crash recovery.
    }
  }
  return new GroupLeader(adapter, opts.mode, opts.graceMs, (info) => {
    if (record && opts.registry) {
      try {
        recordExit(opts.registry.dir, record, info)
      } catch {
        // Best effort, as above.
      }
    }
  })
}

class GroupLeader implements ManagedProcess {
  readonly pid: number
  readonly pgid: number
  readonly exited: Promise<ExitInfo>
  private stopPromise: Promise<ExitInfo> | undefined
  /** Set by stop(): resolves when the group is gone or was SIGKILLed; true if KILL was needed. */
  private termination: Promise<boolean> | undefined
  private stoppedBy: StopCause | null = null
  private leaderGone = false
  private readonly group: GroupTarget

  constructor(
    private readonly adapter: ChildAdapter,
    readonly mode: SpawnMode,
    private readonly graceMs: number,
    onExit: (info: ExitInfo) => void,
  ) {
    this.pid = adapter.pid
    this.pgid = adapter.pid
    // Until the leader is reaped its pid can't be reused; the parent check guards the short time
    // between the reaping and our exit callback.
    this.group = { pgid: this.pgid, leaderAlive: () => !this.leaderGone && isOwnLiveChild(this.pid) }
    this.exited = this.finish().then(
      (info) => {
        onExit(info)
        return info
      },
      // finish() does not throw; this keeps the "never rejects" promise honest if it ever did.
      () => ({ exitCode: null, signal: null, stoppedBy: this.stoppedBy, killed: false }),
    )
  }

  private async finish(): Promise<ExitInfo> {
    const leader: LeaderExit = await this.adapter.leaderExit
    this.leaderGone = true
    let killed = false
    if (this.termination) {
      // stop() is in progress: members that outlived the leader get SIGKILL at the grace deadline.
      killed = await this.termination
    } else if (groupHasLiveMembers(this.pgid)) {
      // The leader exited on its own but left members behind (a background job, a daemon that
      // stayed in the group). They belong to this run; stop them without holding up the result.
      void terminateGroup({ pgid: this.pgid }, this.graceMs)
    }
    await this.outputEndOrDrainDeadline()
    return { exitCode: leader.exitCode, signal: leader.signal, stoppedBy: this.stoppedBy, killed }
  }

  private async outputEndOrDrainDeadline(): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.adapter.abandonOutput()
        resolve()
      }, this.graceMs + OUTPUT_DRAIN_MS)
    })
    await Promise.race([this.adapter.outputEnd, deadline])
    clearTimeout(timer)
  }

  write(data: string | Buffer): Promise<WriteResult> {
    if (this.leaderGone) return Promise.resolve({ delivered: false, reason: 'the agent has exited' })
    return this.adapter.write(data)
  }

  stop(cause: StopCause, graceMs?: number): Promise<ExitInfo> {
    if (this.stopPromise) return this.stopPromise
    if (this.leaderGone) {
      this.stopPromise = this.exited
      return this.stopPromise
    }
    this.stoppedBy = cause
    this.termination = terminateGroup(this.group, Math.min(graceMs ?? this.graceMs, this.graceMs))
    this.stopPromise = this.exited
    return this.stopPromise
  }

  pause(): void {
    // Once stopping, the group must stay able to act on SIGTERM.
    if (!this.leaderGone && !this.termination) signalTarget(this.group, 'SIGSTOP')
  }

  resume(): void {
    if (!this.leaderGone) signalTarget(this.group, 'SIGCONT')
  }

  resize(cols: number, rows: number): void {
    if (this.leaderGone) return
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1) {
      throw new RangeError(`terminal size must be positive integers, got ${cols}x${rows}`)
    }
    this.adapter.resize(cols, rows)
  }
}
