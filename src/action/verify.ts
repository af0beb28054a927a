// mode: verify — the second job of the two-job layout (docs/action.md#two-job-layout). The agent never ran
// here. For each handoff of the run's agent jobs (a matrix gives several) this job applies the checkpoint
// bundle on its own checkout, re-evaluates the policy on the diff, RUNS THE STOP HOOKS ITSELF, and only
// then publishes: one `proctor / <hook>` and one `proctor / policy` check run from its own results (a hook
// that blocks in any leg fails its check), the sticky comment per session, the checkpoint branch. What it
// only read from the agent job (events, transcript) is shown as reported by the agent job, never as a
// verdict; a missing or tampered handoff is a failing check that says why.
//
// The gate is defined by this checkout, not by the agent: proctor.yml is read before the bundle is applied,
// and the files the stop hooks' commands name are reset to this checkout's version before they run (an
// agent that rewrote its test script to pass gets a policy violation and the original script).
import * as core from '@actions/core'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import type { Config } from '../config/schema.js'
import { Git } from '../git/runner.js'
import { diffTrees } from '../checkpoints/diff.js'
import { checkpointRef } from '../checkpoints/refs.js'
import { evaluatePolicy, failsPolicyCheck } from '../policy/index.js'
import { runStopHooks } from '../hooks/stop-hooks.js'
import { enforceGate, type GateSpec } from '../hooks/gate-files.js'
import {
  REPORT_SCHEMA_VERSION,
  type PushRecord,
  type SessionEvent,
  type SessionReport,
  type StopHookResult,
  type Violation,
} from '../report/model.js'
import { ensureStateDir } from '../state/layout.js'
import { verifiedPolicySummary } from '../report/check-run.js'
import { Workspace } from '../state/workspace.js'
import { agentEnvironment, withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import { canWrite, expandKey, linksFor, type ActionsContext } from '../github/context.js'
import { GitHubReporter } from '../github/reporter.js'
import { findJobUrl } from '../github/job.js'
import type { CheckRunLink } from '../report/markdown.js'
import { CheckRuns } from '../github/checks.js'
import { actorPermission, canTrigger } from '../github/permissions.js'
import { writeOutputs } from '../github/summary.js'
import { createSanitizer, type Sanitizer } from '../util/sanitize.js'
import { actionClient } from './client.js'
import { ciOf, loadActionConfig } from './config.js'
import { type ActionInputs } from './inputs.js'
import { downloadArtifacts, uploadSessionArtifact } from './artifact.js'
import { acceptHandoff, ARTIFACT_ENV, HANDOFF_PREFIX, type HandoffResult } from './handoff.js'
import { gitServerUrl, pushCredential, warnPersistedCredentials } from './hygiene.js'

type Env = Record<string, string | undefined>

export const DEFAULT_HANDOFF_PATTERN = `${HANDOFF_PREFIX}*`

/** One agent job's session as this job judged it. */
interface Verified {
  report: SessionReport
  /** The handoff was unusable (missing, malformed, tampered). */
  rejected: boolean
}

export async function runVerify(inputs: ActionInputs, env: Env, secrets: WithheldSecrets): Promise<number> {
  // Read from this checkout BEFORE anything of the agent's is applied: the gate is not the agent's to edit.
  const loaded = await loadActionConfig(inputs, env)
  if (!loaded) return 2
  const { config, ctx, configPath } = loaded
  const token = inputs.githubToken
  const sanitizer = createSanitizer({ secrets: [token].filter(Boolean) })
  const readOnly = !canWrite(ctx) || !token
  const octokit = actionClient(token, ctx.apiUrl, env)
  const cwd = process.cwd()
  const dirs = ensureStateDir(cwd)
  const git = new Git({ cwd: dirs.root })
  const head = await git.revParse('HEAD^{commit}')
  if (!head) {
    core.error('proctor: mode verify needs a checkout of the commit the agent started from (no HEAD here)')
    return 2
  }
  if (ctx.commentAuthor && !(await commenterMayTrigger(octokit, ctx))) {
    core.error(
      `proctor: ${ctx.commentAuthor} does not have write access to ${ctx.owner}/${ctx.repo}; nothing was verified`,
    )
    return 1
  }
  const persisted = await warnPersistedCredentials(cwd)
  if (readOnly)
    core.notice(
      'proctor: read-only token (fork pull request): verifying into the job summary and an artifact only',
    )

  const handoffs = await collectHandoffs(inputs, env, ctx, token, git, head, secrets)
  const baseKey = expandKey(config.github.key, ctx)
  const gate = gateSpec(dirs.root, configPath, config)
  const remoteUrl = await remoteUrlOf(git, config.checkpoints.remote)
  const credential = persisted
    ? undefined
    : pushCredential(remoteUrl, token, gitServerUrl(env, ctx.serverUrl))

  const verified: Verified[] = []
  for (const result of handoffs) {
    const started = Date.now()
    if (!result.ok) {
      core.error(`proctor: handoff ${result.sessionId} rejected: ${sanitizer.forLog(result.problem)}`)
      verified.push({
        report: rejectedReport(result.sessionId, result.problem, config, ctx, started),
        rejected: true,
      })
      continue
    }
    const report = await verifyOne({
      handoff: result.handoff,
      git,
      root: dirs.root,
      stateDir: dirs.state,
      head,
      gate,
      config,
      ctx,
      started,
    })
    if (!readOnly) {
      report.pushed = await pushCheckpoints(git, report.session_id, config, head, credential)
      core.info(
        report.pushed.ok
          ? `proctor: pushed the verified checkpoints to ${report.pushed.branch}`
          : `proctor: checkpoints not pushed: ${report.pushed.reason}`,
      )
    }
    verified.push({ report, rejected: false })
  }
  await restoreCheckout(git, head)

  // Publishing: one check run per hook (and policy) over every session, then a comment per session whose
  // header links those check runs.
  const checkRunLinks = config.github.checks
    ? await publishChecks(verified, config, ctx, octokit, sanitizer, readOnly)
    : []
  let commentUrl = ''
  // The job's page, looked up once for every session's comment (needs actions: read; else the run's).
  const links = linksFor(ctx)
  if (config.github.comment !== 'off' && ctx.pr && !readOnly) {
    const job = await findJobUrl(octokit, ctx)
    if (job.url) links.job = job.url
    else if (job.why)
      core.info(`proctor: the comment links the workflow run, not the job: ${sanitizer.forLog(job.why)}`)
  }
  for (const { report } of verified) {
    const reporter = new GitHubReporter({
      octokit,
      token,
      context: ctx,
      key: verified.length > 1 ? `${baseKey}/${report.session_id}` : baseKey,
      sessionId: report.session_id,
      comment: config.github.comment,
      checks: false,
      checkRunLinks,
      sanitizer,
      links,
      findJob: false,
      readOnly,
      emit: (line) => process.stdout.write(line.endsWith('\n') ? line : line + '\n'),
      onError: (e) =>
        core.warning(`proctor: GitHub ${e.operation} failed (${e.status ?? 'network'}): ${e.message}`),
    })
    const finished = await reporter.finish(report)
    commentUrl ||= finished.commentUrl ?? ''
    if (readOnly) {
      // A fork PR: the verified report (never the agent's) travels on to a trusted workflow_run.
      await withSecretsInEnv(secrets, ARTIFACT_ENV, () =>
        uploadSessionArtifact(report, writeVerifiedReport(report, dirs.sessions)),
      )
    }
  }
  for (const secret of sanitizer.discovered()) core.setSecret(secret)

  const blocked = verified.some(({ report }) => report.verdict === 'block')
  const violations = verified.flatMap(({ report }) => report.violations)
  const first = verified[0]!.report
  writeOutputs({
    verdict: blocked ? 'block' : 'allow',
    status: verified.some((v) => v.rejected) ? 'errored' : 'completed',
    'session-id': verified.map(({ report }) => report.session_id).join(','),
    'checkpoint-ref': first.pushed?.ok || first.checkpoints.length ? checkpointRef(first.session_id) : '',
    'checkpoint-sha': first.checkpoints.at(-1)?.sha ?? '',
    'checkpoint-count': first.checkpoints.length,
    violations: violations.length,
    'report-path': '',
    'comment-url': commentUrl,
  })
  if (config.github.fail_on === 'never') return 0
  if (blocked) return 1
  return config.github.fail_on === 'violation-error' && failsPolicyCheck(violations) ? 1 : 0
}

/** The handoffs on disk (`reports`: directories) or downloaded (`artifact-pattern`), each accepted or not. */
async function collectHandoffs(
  inputs: ActionInputs,
  env: Env,
  ctx: ActionsContext,
  token: string,
  git: Git,
  head: string,
  secrets: WithheldSecrets,
): Promise<HandoffResult[]> {
  const found: { name: string; dir: string }[] = []
  const problems: string[] = []
  if (inputs.reports) {
    for (const dir of inputs.reports
      .split(/[\n,]/)
      .map((p) => p.trim())
      .filter(Boolean)) {
      found.push({ name: dir, dir: resolve(dir) })
    }
  } else {
    const pattern = inputs.artifactPattern || DEFAULT_HANDOFF_PATTERN
    const dest = join(env.RUNNER_TEMP || tmpdir(), `proctor-handoffs-${process.pid}`)
    const downloaded = await withSecretsInEnv(secrets, ARTIFACT_ENV, () =>
      downloadArtifacts({ pattern, dest, token, context: ctx }),
    )
    found.push(...downloaded.artifacts)
    problems.push(...downloaded.problems)
  }
  const results: HandoffResult[] = problems.map((problem) => ({
    ok: false as const,
    sessionId: 'handoff',
    problem: `no usable handoff from the agent job: ${problem}`,
  }))
  for (const { name, dir } of found)
    results.push(await acceptHandoff(git, dir, name.replace(/^.*\//, ''), head))
  if (results.length === 0)
    results.push({ ok: false, sessionId: 'handoff', problem: 'no handoff from the agent job was found' })
  return results
}

interface VerifyOne {
  handoff: Extract<HandoffResult, { ok: true }>['handoff']
  git: Git
  root: string
  stateDir: string
  head: string
  gate: GateSpec
  config: Config
  ctx: ActionsContext
  started: number
}

/** Applies one session's checkpoints, judges the diff, runs the stop hooks here. */
async function verifyOne(o: VerifyOne): Promise<SessionReport> {
  const { git, handoff, config } = o
  const tip = handoff.tip ?? o.head
  await git.raw(['checkout', '--quiet', '--force', '--detach', tip])
  await git.raw(['clean', '-fdq'])
  const files = await diffTrees(git, o.head, tip)
  const seq = handoff.claimed.checkpoints.at(-1)?.seq ?? null
  const gate = await enforceGate(git, o.root, o.head, tip, o.gate, { checkpoint: seq, files })
  const violations: Violation[] = [
    ...gate.violations,
    ...evaluatePolicy({
      files,
      checkpoint: seq,
      worktree: o.root,
      policy: config.policy,
      scope: 'cumulative',
    }),
  ]
  const results: StopHookResult[] = []
  const outcome =
    config.stop_hooks.length === 0
      ? { verdict: 'allow' as const, results: [], reasons: [] }
      : await runStopHooks({
          hooks: config.stop_hooks,
          context: {
            session_id: handoff.sessionId,
            cwd: process.cwd(),
            stop_reason: 'verify',
            final_text: '',
            rounds: 1,
            stop_hook_active: false,
            checkpoint: handoff.tip
              ? {
                  ref: checkpointRef(handoff.sessionId),
                  sha: handoff.tip,
                  files_changed: files.map((f) => f.path),
                }
              : null,
            violations,
          },
          cwd: process.cwd(),
          // process.env no longer holds the runner's tokens (withheld at start); the hooks run the agent's code.
          env: agentEnvironment(process.env, config.agent.env_passthrough),
          graceMs: Math.min(config.timeouts.grace, 2_500),
          round: 1,
          registry: { dir: o.stateDir, session: handoff.sessionId },
          onResult: (result) => {
            results.push(result)
            core.info(
              `proctor: stop hook ${result.name} (verify job): ${result.verdict}${result.reason ? ` — ${result.reason}` : ''}`,
            )
          },
        })
  const claimed = handoff.claimed
  const ended = Date.now()
  return {
    schema: REPORT_SCHEMA_VERSION,
    session_id: handoff.sessionId,
    status: 'completed',
    verdict: outcome.verdict,
    exit_code: outcome.verdict === 'allow' ? 0 : 1,
    signal: null,
    reason:
      outcome.verdict === 'block'
        ? `stop hooks blocked in the verify job: ${outcome.reasons.join('; ')}`
        : null,
    started_at: new Date(o.started).toISOString(),
    ended_at: new Date(ended).toISOString(),
    duration_ms: ended - o.started,
    command: stringList(claimed.command),
    cwd: process.cwd(),
    mode: claimed.mode === 'pty' ? 'pty' : 'pipe',
    events: reportedEvents(claimed.events),
    checkpoints: claimed.checkpoints,
    violations,
    stop_hooks: results.length ? results : outcome.results,
    rounds: 1,
    pushed: null,
    transcript: {
      path: '',
      bytes: typeof claimed.transcript?.bytes === 'number' ? claimed.transcript.bytes : 0,
      capped: claimed.transcript?.capped === true,
    },
    output_tail: typeof claimed.output_tail === 'string' ? claimed.output_tail : '',
    ci: ciOf(o.ctx),
    agent_job: {
      session_id: handoff.sessionId,
      status: String(claimed.status),
      verdict: String(claimed.verdict),
      reason: typeof claimed.reason === 'string' ? claimed.reason : null,
      stop_hooks: Array.isArray(claimed.stop_hooks) ? claimed.stop_hooks : [],
    },
  }
}

/** A handoff that could not be used: every hook and the policy fail, saying why. */
function rejectedReport(
  sessionId: string,
  problem: string,
  config: Config,
  ctx: ActionsContext,
  started: number,
): SessionReport {
  const now = new Date().toISOString()
  const reason = `not run: ${problem}`
  return {
    schema: REPORT_SCHEMA_VERSION,
    session_id: sessionId,
    status: 'errored',
    verdict: 'block',
    exit_code: 1,
    signal: null,
    reason: `the agent job's handoff was rejected: ${problem}`,
    started_at: new Date(started).toISOString(),
    ended_at: now,
    duration_ms: Date.now() - started,
    command: [],
    cwd: process.cwd(),
    mode: 'pipe',
    events: [],
    checkpoints: [],
    violations: [
      {
        checkpoint: null,
        file: 'proctor-handoff',
        constraint: 'handoff',
        severity: 'critical',
        message: `the agent job's handoff was rejected: ${problem}`,
        suggestion: 'Re-run the workflow; a handoff that does not match its own report is never trusted',
      },
    ],
    stop_hooks: config.stop_hooks.map((hook) => ({
      name: hook.name,
      verdict: 'block' as const,
      reason,
      exit_code: null,
      duration_ms: 0,
      round: 1,
    })),
    rounds: 0,
    pushed: null,
    transcript: { path: '', bytes: 0, capped: false },
    output_tail: '',
    ci: ciOf(ctx),
    agent_job: {
      session_id: sessionId,
      status: 'unknown',
      verdict: 'unknown',
      reason: problem,
      stop_hooks: [],
    },
  }
}

/**
 * One `proctor / <hook>` per configured hook over every session (blocked in any session: failure; the
 * text names each session), and one `proctor / policy` over all their violations.
 */
async function publishChecks(
  verified: Verified[],
  config: Config,
  ctx: ActionsContext,
  octokit: ReturnType<typeof actionClient>,
  sanitizer: Sanitizer,
  readOnly: boolean,
): Promise<CheckRunLink[]> {
  const sha = ctx.pr?.headSha ?? ctx.sha
  if (!sha) return []
  const checks = new CheckRuns({
    octokit,
    owner: ctx.owner,
    repo: ctx.repo,
    headSha: sha,
    sanitizer,
    detailsUrl: linksFor(ctx).jobSummary,
    readOnly,
    ...(verified.length === 1 ? { externalId: verified[0]!.report.session_id } : {}),
    emit: (line) => process.stdout.write(`${line}\n`),
    onError: (error) => core.warning(`proctor: GitHub checks failed: ${(error as Error).message}`),
  })
  for (const hook of config.stop_hooks) {
    const per = verified.map(({ report }) => ({
      session: report.session_id,
      result: report.stop_hooks.find((r) => r.name === hook.name) ?? null,
    }))
    await checks.hookFinished(mergeResults(hook.name, per, verified.length > 1))
  }
  const violations = verified.flatMap(({ report }) => report.violations)
  const sessions = verified.length
  await checks.policy(violations, verifiedPolicySummary(violations, sessions))
  return checks.links()
}

function mergeResults(
  name: string,
  per: { session: string; result: StopHookResult | null }[],
  named: boolean,
): StopHookResult {
  const verdictOf = (r: StopHookResult | null) => r?.verdict ?? 'block'
  const verdict = per.some((p) => verdictOf(p.result) === 'block')
    ? 'block'
    : per.some((p) => verdictOf(p.result) === 'error')
      ? 'error'
      : 'allow'
  const reasons = per
    .filter((p) => verdictOf(p.result) !== 'allow')
    .map(
      (p) =>
        `${named ? `${p.session}: ` : ''}${p.result?.reason ?? 'the hook did not run in the verify job'}`,
    )
  const merged: StopHookResult = {
    name,
    verdict,
    reason: reasons.length ? reasons.join('\n') : null,
    exit_code: per.length === 1 ? (per[0]!.result?.exit_code ?? null) : null,
    duration_ms: Math.max(0, ...per.map((p) => p.result?.duration_ms ?? 0)),
    round: 1,
  }
  if (per.some((p) => p.result?.timed_out)) merged.timed_out = true
  return merged
}

/** What defines the gate (src/hooks/gate-files.ts): this checkout's config file and stop hooks. */
function gateSpec(root: string, configPath: string | null, config: Config): GateSpec {
  const hookDir = relative(root, process.cwd()).split(sep).join('/')
  return {
    configFile: configPath ? relative(root, configPath).split(sep).join('/') : null,
    hooks: config.stop_hooks,
    hookDir: hookDir.startsWith('..') ? '' : hookDir,
  }
}

async function pushCheckpoints(
  git: Git,
  sessionId: string,
  config: Config,
  head: string,
  credential: [string, string][] | undefined,
): Promise<PushRecord> {
  const workspace = Workspace.find(git.cwd)
  if (!workspace) throw new Error(`${git.cwd} is not inside a git repository`)
  workspace.sessionDir(sessionId)
  const queue = await workspace.pushQueue(sessionId, config, {
    base: head,
    mode: config.checkpoints.push === 'never' ? 'never' : 'always',
    ...(credential ? { secretConfig: credential } : {}),
  })
  return queue.flush()
}

async function restoreCheckout(git: Git, head: string): Promise<void> {
  try {
    await git.raw(['checkout', '--quiet', '--force', '--detach', head])
    await git.raw(['clean', '-fdq'])
  } catch (error) {
    core.warning(`proctor: could not restore the checkout: ${(error as Error).message}`)
  }
}

async function remoteUrlOf(git: Git, remote: string): Promise<string | null> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) return remote
  return git.remoteUrl(remote).catch(() => null)
}

async function commenterMayTrigger(
  octokit: ReturnType<typeof actionClient>,
  ctx: ActionsContext,
): Promise<boolean> {
  return actorPermission(octokit, ctx.owner, ctx.repo, ctx.commentAuthor!)
    .then(canTrigger)
    .catch(() => false)
}

function writeVerifiedReport(report: SessionReport, sessionsDir: string): string {
  const dir = join(sessionsDir, report.session_id)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'report.json')
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`)
  return path
}

function reportedEvents(events: unknown): SessionEvent[] {
  if (!Array.isArray(events)) return []
  return events.flatMap((e: unknown) => {
    const x = e as Partial<SessionEvent> | null
    return x &&
      typeof x === 'object' &&
      typeof x.kind === 'string' &&
      typeof x.message === 'string' &&
      typeof x.at === 'number'
      ? [
          {
            at: x.at,
            kind: x.kind,
            message: x.message,
            ...(typeof x.name === 'string' ? { name: x.name } : {}),
          },
        ]
      : []
  })
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}
