// The one report model. Every rendering (terminal, report.json, job summary, PR comment, check runs)
// is a view of these types; renderers never compute, sinks never format.

export const REPORT_SCHEMA_VERSION = 1

/** At most this many pre-existing paths are listed in report.json (BaselineRecord.pre_existing). */
export const MAX_PRE_EXISTING_LISTED = 1000

export type SessionStatus = 'completed' | 'failed' | 'errored' | 'interrupted' | 'timeout' | 'budget'
export type Verdict = 'allow' | 'block'
export type Severity = 'info' | 'warning' | 'error' | 'critical'

export type EventKind =
  | 'session_start'
  | 'spawn'
  | 'output_capped'
  | 'approval_request'
  | 'error'
  | 'completion'
  | 'detector'
  | 'response'
  | 'timeout'
  | 'idle_timeout'
  | 'signal'
  | 'checkpoint'
  | 'checkpoint_skipped'
  | 'violation'
  | 'revert'
  | 'push'
  | 'stop_hooks'
  | 'continue'
  | 'exit'
  | 'session_end'
  | 'warning'
  | 'policy_gate'
  | 'policy_notice'
  | 'budget'

/** One thing that happened, in order. `at` is ms since the session started. */
export interface SessionEvent {
  at: number
  kind: EventKind | string
  /** Detector rule name, hook name, checkpoint seq... */
  name?: string
  message: string
  data?: Record<string, unknown>
}

export interface Violation {
  checkpoint: number | null
  file: string
  constraint: string
  severity: Severity
  message: string
  suggestion: string
  /** The line of `file` the violation points at (1-based), when it is about one (a skip added to a test). */
  line?: number
  reverted?: boolean
  /**
   * The session's work no longer holds it (the agent fixed it, or it was reverted): set at each
   * checkpoint from the cumulative diff. Unresolved error/critical violations block the session.
   */
  resolved?: boolean
}

export interface CheckpointRecord {
  seq: number
  sha: string
  ref: string
  trigger: 'interval' | 'changes' | 'event' | 'final' | 'manual' | 'safety' | string
  files_changed: string[]
  violations: number
  skipped: string[]
  /**
   * Why each skipped path was left out (`size`, `lfs`, `forbidden`, `secret`, `unrecordable`); absent in
   * reports written before it. A left-out file is still judged by path (docs/policy.md).
   */
  skipped_reasons?: Record<string, string>
  created_at: string
  /** How long taking it took (reading the worktree to moving the ref); absent when read back from git. */
  duration_ms?: number
}

export type StopHookVerdict = 'allow' | 'block' | 'error'

/**
 * The worktree as the user left it when the session started (docs/checkpoints.md#the-baseline): what every
 * checkpoint, the policy and a revert compare the agent's work with. Absent in reports written before it.
 */
export interface BaselineRecord {
  /** Checkpoint 0 when the worktree differed from HEAD, else the base commit; null on an unborn HEAD. */
  commit: string | null
  /** How many paths were already changed (modified, staged, deleted or untracked) before the session. */
  pre_existing_count: number
  /**
   * Those paths, never judged; the first MAX_PRE_EXISTING_LISTED of them (a tree whose .gitignore misses
   * node_modules/ holds thousands).
   */
  pre_existing: string[]
}

/** A file and line a failed hook's output names (a failing test), annotated on the hook's check run. */
export interface FailureLocation {
  file: string
  line: number
  message: string
}

export interface StopHookResult {
  name: string
  verdict: StopHookVerdict
  reason: string | null
  exit_code: number | null
  duration_ms: number
  round: number
  timed_out?: boolean
  /** The hook did not pass but does not gate (on_error: allow, or advisory: true): its check is neutral. */
  advisory?: boolean
  /** Where its output says the failures are (a failed hook only). */
  locations?: FailureLocation[]
}

export interface PushRecord {
  ok: boolean
  remote: string | null
  branch: string | null
  sha: string | null
  /** Why the checkpoints stayed local, when they did. */
  reason: string | null
  bundle: string | null
}

export interface AgentExit {
  exit_code: number | null
  signal: string | null
}

/** Model usage in figures: what a session, a model, a round or a batch used. */
export interface UsageFigures {
  /** Model requests (for usage a CLI printed: the turns it counted). */
  requests: number
  /** Every token counted (input + output + tokens the source did not split). */
  tokens: number
  /** Prompt tokens, those read from the cache included. */
  input_tokens: number
  output_tokens: number
  cached_input_tokens: number
  /** USD, an estimate (docs/configuration.md#pricing); null when a model's price is unknown. */
  cost_usd: number | null
}

/** What the session's agent used of the model APIs (additive to schema 1: absent when none is known). */
export interface UsageReport extends UsageFigures {
  /** Always true: the cost comes from a price table or the CLI's own estimate, never from a bill. */
  estimated: true
  /** Where the figures come from: the metering proxy or, without it, the agent CLI's own output. */
  source: 'proxy' | 'cli'
  by_model: (UsageFigures & { api: string; model: string })[]
  by_round: (UsageFigures & { round: number })[]
}

export interface SessionReport {
  schema: typeof REPORT_SCHEMA_VERSION
  session_id: string
  status: SessionStatus
  verdict: Verdict
  /** proctor's exit code (README.md, "Exit codes"); the agent's own is in `agent`. */
  exit_code: number
  signal: string | null
  /** How the agent itself last exited: its exit code, or the signal that ended it; null if it never ran. */
  agent?: AgentExit | null
  /** Human-readable cause of the status (timeout reason, signal, error message). */
  reason: string | null
  /**
   * `reason` without the blocking stop hooks' reasons it ends with (those are in `stop_hooks`, the policy's
   * in `violations`), so the comment shows each once. Additive to schema 1: absent, renderers use `reason`.
   */
  cause?: string
  started_at: string
  ended_at: string
  duration_ms: number
  command: string[]
  cwd: string
  mode: 'pty' | 'pipe'
  events: SessionEvent[]
  checkpoints: CheckpointRecord[]
  /** The session's baseline (additive to schema 1: absent when no checkpoint store opened). */
  baseline?: BaselineRecord
  violations: Violation[]
  stop_hooks: StopHookResult[]
  rounds: number
  pushed: PushRecord | null
  transcript: { path: string; bytes: number; capped: boolean }
  /** The last rendered lines of the agent's output (plain text, not yet sanitized: sinks sanitize). */
  output_tail: string
  /**
   * The agent CLI's own session id, as its Stop hook last gave it (Claude Code, Codex, Gemini CLI), so a
   * later round can resume that conversation (docs/agents.md#resuming-the-agents-own-session). Additive
   * to schema 1: absent when the agent never named one.
   */
  agent_session_id?: string
  /** CI context when present (run id, attempt, job, repository, sha, pr). */
  ci?: Record<string, string | number | null>
  /**
   * Set by `mode: verify` (docs/action.md#two-job-layout): the verdict, stop hooks, policy and push are
   * the verify job's own; events, transcript and output_tail are only what the agent job reported.
   */
  agent_job?: AgentJobClaim
  /** Model usage and its estimated cost (additive to schema 1: absent when no usage is known). */
  usage?: UsageReport
}

/** What the agent job said about its own session: shown as reported, never used as a verdict. */
export interface AgentJobClaim {
  session_id: string
  status: SessionStatus | string
  verdict: Verdict | string
  reason: string | null
  /** The agent job's stop-hook results as it reported them. */
  stop_hooks: StopHookResult[]
}

export interface BatchChild {
  task_index: number
  name: string
  role: string | null
  status: SessionStatus
  duration_ms: number
  summary: string
  checkpoint_ref: string | null
  violation_count: number
  report_path: string | null
  /** The session's usage totals, when its report had any. */
  usage?: UsageFigures
}

export interface BatchReport {
  schema: typeof REPORT_SCHEMA_VERSION
  batch_id: string
  started_at: string
  ended_at: string
  total_duration_ms: number
  child_count: number
  completed_count: number
  failed_count: number
  errored_count: number
  interrupted_count: number
  timeout_count: number
  verdict: Verdict
  children: BatchChild[]
  /** Inputs that could not be read (aggregate mode): path and why. */
  problems: { source: string; message: string }[]
  /**
   * The sessions' usage summed (absent when none reported any); cost_usd null when any session's cost is
   * unknown. `sessions`: how many of the children reported usage.
   */
  usage?: UsageFigures & { estimated: true; sessions: number }
}
