// One agent attempt: one process of the agent, from its spawn to its exit. It is spawned (PTY or pipe, with
// the session's timeouts), its output goes to the terminal, the transcript and the detectors, detections are
// answered (responses.ts), a stop on screen is decided while it runs (live-stop.ts), the user's keys reach an
// interactive agent; its exit is recorded and what it decided comes back for the rounds (rounds.ts).
import { join, resolve } from 'node:path'
import { AgentRun, type AgentExit } from '../supervisor/agent-run.js'
import { OutputPipeline } from '../supervisor/output.js'
import { loadRenderer } from '../supervisor/screen.js'
import type { CommandSpec } from '../supervisor/types.js'
import { findRepoRoot } from '../state/layout.js'
import type { ReportBuilder } from '../report/builder.js'
import { formatDuration } from '../util/units.js'
import { OutputTail } from '../usage/tail.js'
import { usageFromCliOutput } from '../usage/cli-output.js'
import { commandArgv, type SessionContext } from './context.js'
import type { AttemptOutcome } from './endings.js'
import { LiveStop } from './live-stop.js'
import type { NativeStops } from './native-stop.js'
import { Responses } from './responses.js'

/**
 * The longest the checkpoint machinery waits for the agent's first flood of output to end: changes made
 * meanwhile are in the next checkpoint all the same (git decides what changed), the watcher only counts.
 */
const LAUNCH_AFTER_FLOOD_MAX_MS = 5_000

export interface AttemptPlan {
  command: CommandSpec
  /** The agent's own Stop hook runs the stop hooks (agent.adapter): a completion on screen only ends it. */
  native: NativeStops | null
  /** The metering proxy counts the model calls: what the agent prints about its usage is not read. */
  metered: boolean
}

export interface AttemptResult extends AttemptOutcome {
  /** The round the attempt ended in (a block typed into a live agent counts one on). */
  round: number
  outputTail: string
  transcript: { bytes: number; capped: boolean }
}

/** Runs the agent once (one process), answering detections, until it exits or is stopped. */
export async function superviseAgent(ctx: SessionContext, plan: AttemptPlan): Promise<AttemptResult> {
  const { report, mode } = ctx
  const { pipeline, run, usageTail } = openAgentRun(ctx, plan.command)
  // The screen as it was when the session was decided: what the agent draws while being ended (Claude
  // Code redraws its API-key dialog on SIGTERM) is not what it ended on.
  let tailAtDecision: string | null = null
  run.once('decided', () => (tailAtDecision = pipeline.tailText(40)))
  recordRunEvents(ctx, run, pipeline)
  const live = new LiveStop(ctx, run, pipeline, plan.native)
  const responses = new Responses(ctx, run, pipeline, live)
  const offSettle = live.watchNative()
  pipeline.on('event', responses.onDetection)
  const stopForwarding = forwardKeys(ctx, run)
  try {
    ctx.halts.run = run
    run.start()
    if (mode === 'pty')
      loadRenderer().catch((error: unknown) =>
        report.event(
          'warning',
          `the terminal renderer did not load (${(error as Error).message}): detection sees no output; the transcript keeps it`,
        ),
      )
    report.event('spawn', `agent started (pid ${run.pid}, ${mode})`, {
      data: { pid: run.pid, round: ctx.round },
    })
    // The checkpoint store, the watcher and the stale-index sweep start git processes; each forks proctor,
    // which stalls its reading. An agent that starts by flooding its output (a build log, a large file)
    // would wait on those stalls, so they start once the flood is over (docs/architecture.md).
    const calm = pipeline.calm(LAUNCH_AFTER_FLOOD_MAX_MS)
    ctx.checkpoints.agentRunning(true, calm)
    // The stop round's code loads while the agent works, not in the wait after its exit.
    void calm.then(() => {
      void ctx.housekeeping()
      ctx.stopRound().catch(() => undefined)
    })
    const exit = await run.finished
    // The exit is recorded as it happened, before the checkpoints react to it (which may fork git).
    recordExit(report, exit)
    ctx.checkpoints.agentRunning(false)
    // A completion evaluation may still be running (the agent exited meanwhile): let it settle.
    await live.settled()
    const summary = await pipeline.close()
    if (!plan.metered) readCliUsage(usageTail, report, ctx.round, commandArgv(plan.command))
    await responses.delivered()
    return {
      exit,
      round: live.round,
      outputTail: tailAtDecision ?? pipeline.tailText(40),
      transcript: { bytes: summary.bytes, capped: summary.capped },
      decided: live.decided,
      stopReason: responses.stopReason,
      agentError: responses.agentError,
    }
  } finally {
    offSettle()
    stopForwarding()
  }
}

/** The agent's process (not started yet) and where its output goes. */
function openAgentRun(ctx: SessionContext, command: CommandSpec) {
  const { config, opts, mode, report } = ctx
  const transcriptPath = join(
    ctx.dir,
    ctx.round === 1 ? 'transcript.log' : `transcript.round-${ctx.round}.log`,
  )
  // A pipe session never loads the terminal renderer (memory; see screen.ts). A PTY session's screen
  // loads it after the spawn (the constructor only starts the import) and renders the output that
  // came meanwhile then: the agent does not wait for xterm.
  const pipeline = new OutputPipeline({
    mode,
    cols: config.agent.cols,
    rows: config.agent.rows,
    transcriptPath,
    transcriptMax: config.output.transcript_max,
    rules: config.detect,
    presets: config.detect_presets,
  })
  // The CLI's own usage summary, printed last (usage/cli-output.ts), read when the process has ended.
  const usageTail = new OutputTail()
  const run = new AgentRun({
    spawn: {
      command,
      // agent.cwd is relative to the repository root (docs/configuration.md), wherever proctor was started.
      cwd: config.agent.cwd ? resolve(findRepoRoot(opts.cwd) ?? opts.cwd, config.agent.cwd) : opts.cwd,
      env: {
        ...ctx.env,
        ...config.agent.env,
        PROCTOR_SESSION_ID: ctx.sessionId,
        PROCTOR_ROUND: String(ctx.round),
      },
      mode,
      // Without a PTY the agent's stdin stays an open pipe when a detector may answer (respond: send or
      // deny), so the answer reaches it. Otherwise it is closed at spawn: CLIs such as `codex exec` and
      // `claude -p` read a piped stdin to its end before they start, and would wait forever.
      keepStdinOpen: pipeline.detector.rules.some(
        (rule) => rule.response.type === 'send' || rule.response.type === 'deny',
      ),
      cols: config.agent.cols,
      rows: config.agent.rows,
      graceMs: config.timeouts.grace,
      registry: { dir: ctx.registryDir, role: 'agent', session: ctx.sessionId },
      label: 'agent',
    },
    // The session's length, not each run's: a re-run gets what is left, so rounds sent back cannot add up
    // to max_stop_rounds × timeouts.total.
    totalTimeoutMs: Math.max(1, config.timeouts.total - report.elapsed()),
    idleTimeoutMs: config.timeouts.idle,
    output: {
      write: (chunk) => {
        pipeline.write(chunk)
        usageTail.write(chunk)
      },
      flush: () => pipeline.flush(),
    },
  })
  return { pipeline, run, usageTail }
}

/** The echo, and the report's entries for the transcript cap, slow detect rules and the timeouts. */
function recordRunEvents(ctx: SessionContext, run: AgentRun, pipeline: OutputPipeline): void {
  const { report, config } = ctx
  // Only with an echo: the run copies each chunk for its 'output' listeners.
  const echo = ctx.opts.output
  if (echo) run.on('output', (chunk) => echo.write(chunk))
  pipeline.on('capped', (max) => report.event('output_capped', `transcript capped at ${max} bytes`))
  pipeline.on('slow_rule', (rule, ms) =>
    report.event(
      'detector',
      `warning: detect rule "${rule}" took ${Math.round(ms)} ms on one line; disabled`,
      {
        name: rule,
      },
    ),
  )
  run.on('timeout', () =>
    report.event('timeout', `total timeout of ${formatDuration(config.timeouts.total)} reached`),
  )
  run.on('idle_timeout', ({ limitMs }) =>
    report.event('idle_timeout', `no output for ${formatDuration(limitMs)}`),
  )
}

/** Forwards the user's keystrokes to an interactive PTY agent; returns the undo. */
function forwardKeys(ctx: SessionContext, run: AgentRun): () => void {
  const input = ctx.mode === 'pty' ? ctx.opts.input : null
  if (!input) return () => undefined
  // A keystroke's delivery is not awaited: write() answers undelivered instead of rejecting.
  const forward = (data: Buffer): void => void run.write(data)
  const rawWasOn = input.isRaw
  input.setRawMode?.(true)
  input.on('data', forward)
  input.resume()
  return () => {
    input.off('data', forward)
    input.setRawMode?.(rawWasOn)
    input.pause()
  }
}

function recordExit(report: ReportBuilder, exit: AgentExit): void {
  report.event(
    'exit',
    exit.cause
      ? `agent stopped (${exit.cause})${exit.killed ? ' with SIGKILL after the grace period' : ''}`
      : exit.signal
        ? `agent killed by ${exit.signal}`
        : `agent exited with code ${exit.exitCode}`,
    { data: { exit_code: exit.exitCode, signal: exit.signal, cause: exit.cause, killed: exit.killed } },
  )
}

/**
 * The usage the agent CLI printed about itself, for a session without the metering proxy (with it, the proxy's
 * count is the only one: a summary the agent prints is its own word, even before its first proxied call).
 */
function readCliUsage(tail: OutputTail, report: ReportBuilder, round: number, argv: string[]): void {
  if (report.usage.samples().some((s) => s.source === 'proxy')) return
  for (const sample of usageFromCliOutput(tail.text(), { round, at: report.elapsed(), argv }))
    report.usage.add(sample)
}
