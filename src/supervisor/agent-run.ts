// The agent's supervised run: one spawnManaged process plus the limits around it (total time,
// idle time, output size). Every way of ending — exit, timeout, idle, cap, a signal to proctor —
// funnels into the process's single `exited` promise, so the run finalizes exactly once and the
// first stop cause is the one recorded.
import { EventEmitter } from 'node:events'
import { spawnManaged } from './process.js'
import { startWatchdog, type Watchdog } from './watchdog.js'
import { randomHex } from '../util/random.js'
import type { ExitInfo, ManagedProcess, SpawnMode, SpawnOptions, StopCause, WriteResult } from './types.js'

/** Where output goes besides the 'output' event, e.g. the OutputPipeline (capture, screen, detection). */
export interface OutputSink {
  /**
   * Each chunk in arrival order. The agent's output is read into one reused buffer, so the chunk is only
   * valid during the call: copy what you keep.
   */
  write(chunk: Buffer, stream: 'pty' | 'stdout' | 'stderr'): void
  /** Awaited before 'exit' is emitted, so consumers have seen every byte when the run is finished. */
  flush?(): Promise<void>
}

export interface AgentRunOptions {
  spawn: Omit<SpawnOptions, 'onOutput'>
  /** Stop the agent after this long (ms); 0 or absent: no limit. */
  totalTimeoutMs?: number
  /** Stop the agent after this long without output (ms); 0 or absent: no limit. Paused time doesn't count. */
  idleTimeoutMs?: number
  /** Stop the agent once it has written more than this many bytes; absent: no limit. */
  outputCapBytes?: number
  output?: OutputSink
}

export interface AgentExit extends ExitInfo {
  /** The same as stoppedBy: why proctor ended the run, or null when the agent exited by itself. */
  cause: StopCause | null
  startedAt: Date
  endedAt: Date
  durationMs: number
  outputBytes: number
}

export interface AgentRunEvents {
  spawn: [info: { pid: number; pgid: number; mode: SpawnMode }]
  /** A copy of each chunk, made only while someone listens (the OutputSink gets it without a copy). */
  output: [chunk: Buffer, stream: 'pty' | 'stdout' | 'stderr']
  timeout: [info: { limitMs: number }]
  idle_timeout: [info: { limitMs: number }]
  output_cap: [info: { limitBytes: number; bytes: number }]
  /** The session is decided (decide(), or any stop): emitted once, before a stop's signal is sent. */
  decided: []
  exit: [exit: AgentExit]
}

/** What write() answers once the session is decided. */
export const DECIDED = 'the session is decided: nothing more is typed into the agent'

export class AgentRun extends EventEmitter<AgentRunEvents> {
  /** Resolves once with the run's end (after the 'exit' event). Pending until start() succeeds. */
  readonly finished: Promise<AgentExit>
  private resolveFinished!: (exit: AgentExit) => void
  private child: ManagedProcess | undefined
  private totalTimer: NodeJS.Timeout | undefined
  private idleTimer: NodeJS.Timeout | undefined
  /** performance.now() of the latest output, or of the (re)start of the idle clock. */
  private lastActivity = 0
  private paused = false
  private ended = false
  private outputBytes = 0
  private capReached = false
  private startedAt = new Date()
  private startedMs = 0
  private watchdog: Watchdog | null = null
  private isDecided = false

  constructor(private readonly options: AgentRunOptions) {
    super()
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve))
  }

  /** Spawns the agent. Throws SpawnError (nothing spawned) for a bad command; attach listeners first. */
  start(): this {
    if (this.child) throw new Error('AgentRun.start() called twice')
    this.startedAt = new Date()
    this.startedMs = performance.now()
    const total = this.options.totalTimeoutMs ?? 0
    // Before the spawn: the agent can stop proctor (`kill -STOP $PPID`) before spawnManaged returns, and
    // the timer below cannot fire while proctor is stopped.
    // The token is decided here so the watchdog knows it before the agent exists.
    const runToken = this.options.spawn.runToken ?? randomHex(16)
    this.watchdog =
      total > 0 ? startWatchdog({ deadlineMs: total, graceMs: this.options.spawn.graceMs, runToken }) : null
    let child: ManagedProcess
    try {
      child = spawnManaged({
        ...this.options.spawn,
        runToken,
        onOutput: (chunk, stream) => this.onOutput(chunk, stream),
        reuseOutputBuffer: true,
      })
    } catch (error) {
      this.watchdog?.stop()
      throw error
    }
    this.child = child
    this.watchdog?.agentGroup(child.pgid)
    this.emit('spawn', { pid: child.pid, pgid: child.pgid, mode: child.mode })
    if (total > 0) {
      this.totalTimer = setTimeout(() => {
        if (this.ended) return
        this.emit('timeout', { limitMs: total })
        void this.stop('timeout')
      }, total)
    }
    this.armIdle()
    void child.exited.then((exit) => this.finalize(exit))
    return this
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  /**
   * Bytes for the agent (an answer, typed text); resolves with whether they reached it. Once the session
   * is decided only `final` bytes (agent.quit) go through: a dialog the agent draws while it is being
   * ended (Claude Code's API-key dialog after a timeout) is never answered, whoever asks.
   */
  write(data: string | Buffer, { final = false }: { final?: boolean } = {}): Promise<WriteResult> {
    if (!this.child) return Promise.resolve({ delivered: false, reason: 'the agent has not started' })
    if (this.isDecided && !final) return Promise.resolve({ delivered: false, reason: DECIDED })
    return this.child.write(data)
  }

  /** The session is decided: from now on only agent.quit is typed, and the run is about to end. */
  decide(): void {
    if (this.isDecided) return
    this.isDecided = true
    this.emit('decided')
  }

  get decided(): boolean {
    return this.isDecided
  }

  /** Freezes the agent's whole group (around a checkpoint); the idle clock stops too. */
  pause(): void {
    if (!this.child || this.ended || this.paused) return
    this.paused = true
    clearTimeout(this.idleTimer)
    this.idleTimer = undefined
    this.child.pause()
  }

  resume(): void {
    if (!this.child || !this.paused) return
    this.paused = false
    this.child.resume()
    this.armIdle()
  }

  resize(cols: number, rows: number): void {
    this.child?.resize(cols, rows)
  }

  /** Stops the agent's group (TERM → grace → KILL). The first cause wins; later calls share its result. */
  async stop(cause: StopCause, graceMs?: number): Promise<AgentExit> {
    if (!this.child) throw new Error('AgentRun.stop() before start()')
    this.decide()
    this.paused = false
    void this.child.stop(cause, graceMs)
    return this.finished
  }

  private onOutput(chunk: Buffer, stream: 'pty' | 'stdout' | 'stderr'): void {
    this.outputBytes += chunk.length
    this.lastActivity = performance.now()
    this.options.output?.write(chunk, stream)
    if (this.listenerCount('output') > 0) this.emit('output', Buffer.from(chunk), stream)
    const cap = this.options.outputCapBytes
    if (cap !== undefined && !this.capReached && this.outputBytes > cap) {
      this.capReached = true
      this.emit('output_cap', { limitBytes: cap, bytes: this.outputBytes })
      void this.stop('output_cap')
    }
  }

  /**
   * Starts the idle clock now. Output does not touch the timer (pushing a timer back on every chunk
   * costs measurably in a flood): it only notes the time, and the timer, when it fires, waits out what
   * is left since the latest output.
   */
  private armIdle(): void {
    const idle = this.options.idleTimeoutMs ?? 0
    if (idle <= 0 || this.ended) return
    this.lastActivity = performance.now()
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.checkIdle(idle), idle)
  }

  private checkIdle(idle: number): void {
    this.idleTimer = undefined
    if (this.ended || this.paused) return
    const quietFor = performance.now() - this.lastActivity
    if (quietFor < idle) {
      this.idleTimer = setTimeout(() => this.checkIdle(idle), Math.ceil(idle - quietFor))
      return
    }
    this.emit('idle_timeout', { limitMs: idle })
    void this.stop('idle_timeout')
  }

  /**
   * Killed by a signal after the total deadline, before proctor's own overdue timer could fire: proctor was
   * stopped past the deadline and the watchdog's backstop killed the agent (on resuming, proctor may see the
   * exit before the timer). The run is then a timeout.
   */
  private killedPastDeadline(exit: ExitInfo, total: number): boolean {
    return (
      exit.stoppedBy === null &&
      exit.signal !== null &&
      total > 0 &&
      performance.now() - this.startedMs >= total
    )
  }

  private async finalize(exit: ExitInfo): Promise<void> {
    this.ended = true
    this.watchdog?.stop()
    clearTimeout(this.totalTimer)
    clearTimeout(this.idleTimer)
    try {
      await this.options.output?.flush?.()
    } catch {
      // A failing consumer must not keep the run from finishing; it reports its own errors.
    }
    const total = this.options.totalTimeoutMs ?? 0
    const overdue = this.killedPastDeadline(exit, total)
    if (overdue) this.emit('timeout', { limitMs: total })
    const endedAt = new Date()
    const result: AgentExit = {
      ...exit,
      cause: overdue ? 'timeout' : exit.stoppedBy,
      startedAt: this.startedAt,
      endedAt,
      durationMs: Math.round(performance.now() - this.startedMs),
      outputBytes: this.outputBytes,
    }
    try {
      this.emit('exit', result)
    } finally {
      this.resolveFinished(result)
    }
  }
}
