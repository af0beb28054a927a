// The session's public face: what a caller hands runSession (SessionOptions, a SessionListener for live
// progress) and what it gets back (SessionOutcome). runSession itself is in session.ts.
import type { Config } from '../config/schema.js'
import type { SessionEvent, SessionReport, StopHookResult } from '../report/model.js'
import type { CommandSpec } from '../supervisor/types.js'
import type { CheckpointReads } from './checkpointing.js'
import type { SnapshotProgress } from '../checkpoints/first-snapshot.js'
import type { UsageMeter } from '../usage/meter.js'
import type { Pricer } from '../usage/types.js'
import type { Budget } from '../proxy/budget.js'
import type { CiGitHub } from '../github/ci-status.js'
import type { Continuing } from './resume.js'

export interface SessionListener {
  started?(report: SessionReport): void
  progress?(report: SessionReport): void
  hookStarted?(name: string, round: number): void
  hookFinished?(result: StopHookResult): void
  /** A stop hook's output as it arrives (stdout and stderr), for a live log. */
  hookOutput?(name: string, chunk: Uint8Array): void
  /** Every event as it is recorded (checkpoints, pushes, warnings...), for a live log. */
  event?(event: SessionEvent): void
  /** Something worth saying while it happens (a large first checkpoint); also in the report's events. */
  notice?(message: string): void
  /** How far along a large first checkpoint is, a few seconds apart while it works (not in the report). */
  checkpointProgress?(progress: SnapshotProgress): void
}

export interface SessionOptions {
  config: Config
  /** The proctor.yml that was read (native agent hooks load it again), or null for defaults. */
  configFile?: string | null
  command: CommandSpec
  cwd: string
  sessionId?: string
  /** Where the agent's output is echoed live (the terminal), or null. */
  output: { write(chunk: Uint8Array | string): unknown } | null
  /** Keystrokes forwarded to a PTY agent (an interactive terminal), or null. */
  input: NodeJS.ReadStream | null
  /** Handle SIGINT/SIGTERM to this process (the CLI); batches and tests use `signal` instead. */
  installSignalHandlers: boolean
  /** Aborting interrupts the session as SIGINT would (reason: the abort reason, if a signal name). */
  signal?: AbortSignal
  listener?: SessionListener
  /** Base environment for the agent and hooks (default process.env). */
  env?: Record<string, string | undefined>
  /** CI facts for the report. */
  ci?: Record<string, string | number | null>
  /** Fired instead of session lifecycle hooks' own subagent events (batches). */
  role?: string
  /** proctor's credential for the checkpoint pushes only (tokenHeaderConfig); never in .git/config. */
  pushSecretConfig?: readonly [string, string][]
  /** GitHub for the built-in `ci-checks` stop hook (the action's one-job layout); without it, it is an error. */
  github?: CiGitHub
  /**
   * The git reads checkpoints need before the agent starts, begun before the config was parsed
   * (startCheckpointReads, for `sessionId` and `cwd`); used when nothing ran in between that may have
   * changed the repository.
   */
  checkpointReads?: CheckpointReads | null
  /** The session's one usage tally (the proxy and the CLI-output readers add, the report reads); fresh by default. */
  usage?: UsageMeter
  /** Prices usage for the report and budget.usd; default: proctor.yml's `pricing` over the built-in table. */
  pricer?: Pricer
  /** The batch's tally and budget (budget.batch), shared by its sessions' proxies. */
  batchUsage?: { meter: UsageMeter; budget: Budget }
  /**
   * A later round of a session that ended (`proctor run --continue`, src/session/resume.ts): its rounds
   * go on from the previous report's, whose stop-hook results and agent session this report keeps.
   */
  continuing?: Continuing | null
}

export interface SessionOutcome {
  report: SessionReport
  reportPath: string
  exitCode: number
  /** Set when report.json could not be written (a full disk): one line naming the file and the reason. */
  reportError?: string
}
