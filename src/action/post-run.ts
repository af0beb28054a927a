// The action's post step (`post-if: always()`). When the main step was killed before it finished
// (cancellation past the grace, an OOM kill), this reaps the agent it left, pushes the checkpoints that
// were not pushed yet, and finishes the comment and check runs as cancelled. Otherwise it does nothing.
// The work main left is judged by the same policy as in a session: the final checkpoint's diff and the
// session's cumulative diff, so a forbidden file written just before the kill still fails the policy check.
import * as core from '@actions/core'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureStateDir } from '../session/state-dir.js'
import { reconcileOrphans } from '../supervisor/registry.js'
import { loadConfig } from '../config/load.js'
import { configSchema, type Config } from '../config/schema.js'
import { checkpointRef } from '../checkpoints/refs.js'
import { Git } from '../git/runner.js'
import { PushQueue } from '../checkpoints/push.js'
import { diffTrees } from '../checkpoints/diff.js'
import { CheckpointStore } from '../checkpoints/store.js'
import { listCheckpoints } from '../checkpoints/history.js'
import { parseSessionReport } from '../report/aggregate.js'
import {
  REPORT_SCHEMA_VERSION,
  type PushRecord,
  type SessionReport,
  type Violation,
} from '../report/model.js'
import { evaluateCheckpoint, evaluatePolicy, forbiddenAreaOf } from '../policy/index.js'
import { actionClient } from './client.js'
import { readActionsContext, linksFor } from '../github/context.js'
import { GitHubReporter } from '../github/reporter.js'
import { createSanitizer } from '../util/sanitize.js'
import { readInputs, applyInputs } from './inputs.js'
import { STATE } from './state.js'
import { gitServerUrl, pushCredential, warnPersistedCredentials } from './hygiene.js'

export async function post(env: Record<string, string | undefined> = process.env): Promise<number> {
  if (core.getState(STATE.finished) === 'true') return 0
  const sessionId = core.getState(STATE.sessionId)
  const cwd = core.getState(STATE.cwd)
  if (!sessionId || !cwd || !existsSync(cwd)) return 0
  process.chdir(cwd)
  core.info(`proctor: the main step did not finish session ${sessionId}; cleaning up`)

  const dirs = ensureStateDir(cwd)
  for (const orphan of await reconcileOrphans(dirs.state, { graceMs: 1_000 })) {
    core.info(`proctor: stopped ${orphan.label} (pid ${orphan.pid}) left by the main step: ${orphan.action}`)
  }

  const inputs = readInputs(env)
  // A config that broke since main read it must not stop the cleanup: fall back to the defaults.
  const loaded = await loadConfig({ cwd, file: inputs.configGiven ? inputs.config : undefined }).catch(
    () => null,
  )
  const config = applyInputs(loaded?.config ?? configSchema.parse({}), inputs)
  // The agent job of the two-job layout never pushes or publishes, not even from the post step.
  if (inputs.handoff) config.checkpoints.push = 'never'
  const sessionDir = join(dirs.sessions, sessionId)
  const reportExists = existsSync(join(sessionDir, 'report.json'))
  // Without report.json main died before its final checkpoint: save the agent's last work first.
  const violations =
    !reportExists && config.checkpoints.enabled ? await finalCheckpoint(cwd, sessionId, config) : []
  const pushed = await pushLeftovers(
    cwd,
    sessionId,
    sessionDir,
    config,
    await postPushCredential(cwd, config, inputs.githubToken, env),
  )
  const report = await reportOf(cwd, sessionId, sessionDir, pushed, violations)

  try {
    const ctx = readActionsContext(env)
    const token = inputs.githubToken
    if (token) core.setSecret(token)
    const reporter = new GitHubReporter({
      octokit: actionClient(token, ctx.apiUrl, env),
      token,
      context: ctx,
      key: core.getState(STATE.key) || sessionId,
      sessionId,
      comment: config.github.comment,
      checks: config.github.checks,
      sanitizer: createSanitizer({ secrets: [token].filter(Boolean) }),
      links: linksFor(ctx),
      ...(inputs.handoff ? { readOnly: true } : {}),
      onError: (error) => core.warning(`proctor: GitHub ${error.operation} failed: ${error.message}`),
      onNote: (message) => core.info(`proctor: ${message}`),
    })
    const adopted = await reporter.adoptOpenChecks()
    if (adopted.length) core.info(`proctor: completing check runs left open: ${adopted.join(', ')}`)
    await reporter.finish(report)
  } catch (error) {
    core.warning(`proctor: could not finish the GitHub report: ${(error as Error).message}`)
  }
  return 0
}

/**
 * Checkpoints what main left and returns the policy's verdict on the session's work: this checkpoint's
 * diff and the cumulative one, or (nothing new since main's last checkpoint) the cumulative diff alone.
 */
async function finalCheckpoint(cwd: string, sessionId: string, config: Config): Promise<Violation[]> {
  const git = new Git({ cwd })
  const store = new CheckpointStore({
    git,
    session: sessionId,
    maxFileSize: config.checkpoints.max_file_size,
    validate: (ctx) => evaluateCheckpoint({ ...ctx, worktree: cwd, policy: config.policy }),
    withhold: forbiddenAreaOf(config.policy),
  })
  try {
    await store.open()
    const result = await store.createDetailed('final')
    if (result) {
      const { record } = result
      core.info(`proctor: final checkpoint ${record.seq} (${record.sha.slice(0, 12)}) of the work main left`)
      return result.violations
    }
    const latest = store.latest
    if (!latest) return []
    const files = await diffTrees(git, store.base, latest)
    return evaluatePolicy({
      files,
      checkpoint: store.latestSeq,
      worktree: cwd,
      policy: config.policy,
      scope: 'cumulative',
    })
  } catch (error) {
    core.warning(`proctor: could not take the final checkpoint: ${(error as Error).message}`)
    return []
  } finally {
    await store.close().catch(() => {})
  }
}

/** The token for the leftover push only, as main passes it (never when .git/config already holds one). */
async function postPushCredential(
  cwd: string,
  config: Config,
  token: string,
  env: Record<string, string | undefined>,
): Promise<[string, string][] | undefined> {
  if (!token || (await warnPersistedCredentials(cwd))) return undefined
  const remote = await new Git({ cwd }).remoteUrl(config.checkpoints.remote).catch(() => null)
  let serverUrl = 'https://github.com'
  try {
    serverUrl = readActionsContext(env).serverUrl
  } catch {
    // No Actions context: the default server.
  }
  return pushCredential(remote, token, gitServerUrl(env, serverUrl))
}

async function pushLeftovers(
  cwd: string,
  sessionId: string,
  sessionDir: string,
  config: Config,
  secretConfig?: [string, string][],
): Promise<PushRecord | null> {
  const git = new Git({ cwd })
  const checkpoints = await listCheckpoints(git, sessionId).catch(() => [])
  if (checkpoints.length === 0) return null
  const queue = new PushQueue({
    git,
    session: sessionId,
    remote: config.checkpoints.remote,
    branchTemplate: config.checkpoints.branch,
    // The post step only runs in Actions, where `auto` means push.
    mode: config.checkpoints.push,
    sessionDir,
    base: checkpoints[0]?.base ?? null,
    ...(secretConfig ? { secretConfig } : {}),
  })
  queue.schedule()
  const record = await queue.flush()
  core.info(
    record.ok
      ? `proctor: pushed checkpoints to ${record.branch}`
      : `proctor: checkpoints not pushed: ${record.reason}`,
  )
  return record
}

/** The report main wrote, else one rebuilt from the checkpoint ref: the session was interrupted. */
async function reportOf(
  cwd: string,
  sessionId: string,
  sessionDir: string,
  pushed: PushRecord | null,
  violations: Violation[],
): Promise<SessionReport> {
  const path = join(sessionDir, 'report.json')
  if (existsSync(path)) {
    const parsed = parseSessionReport(readFileSync(path, 'utf8'))
    if (typeof parsed !== 'string') return { ...parsed, pushed: pushed ?? parsed.pushed }
  }
  const checkpoints = await listCheckpoints(new Git({ cwd }), sessionId).catch(() => [])
  const now = new Date().toISOString()
  return {
    schema: REPORT_SCHEMA_VERSION,
    session_id: sessionId,
    status: 'interrupted',
    verdict: 'block',
    exit_code: 143,
    signal: 'SIGKILL',
    reason: 'the main step was cancelled or killed before it could report; the post step finished the report',
    started_at: checkpoints[0]?.createdAt ?? now,
    ended_at: now,
    duration_ms: 0,
    command: [],
    cwd,
    mode: 'pty',
    events: [],
    checkpoints: checkpoints.map((c) => ({
      seq: c.seq,
      sha: c.sha,
      ref: checkpointRef(sessionId),
      trigger: c.trigger,
      files_changed: [],
      violations: c.violations,
      skipped: c.skipped,
      created_at: c.createdAt,
    })),
    violations,
    stop_hooks: [],
    rounds: 0,
    pushed,
    transcript: { path: join(sessionDir, 'transcript.log'), bytes: 0, capped: false },
    output_tail: '',
  }
}
