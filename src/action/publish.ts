// mode: publish — the last job of the two-job layout (docs/action.md#two-job-layout), the only one with
// write permissions. It runs NO code of the agent's: no stop hook, no lifecycle hook, nothing checked out
// of the agent's work. It takes the same handoffs the verify job took, checks each bundle the same way,
// computes the final checkpoint itself (its own fetch of the bundle into its own repository) and judges
// the policy on that diff from git objects (forbidden areas, gate files, max_file_size from blob sizes).
// The verify job's word is read from GitHub's record of its conclusion (jobs API) and from its results
// artifact; the artifact can make a check fail, never pass:
//   proctor / <hook>  success only if the verify job succeeded AND its results say the hook allowed in
//                     every session AND on the very commit computed here; else failure, saying why.
//   proctor / policy  this job's own evaluation.
//   the push          exactly the computed commit, only if the verify job succeeded and no error/critical
//                     violation concerns forbidden content or size (such content is never pushed).
import * as core from '@actions/core'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import { Git } from '../git/runner.js'
import { checkpointRef } from '../checkpoints/refs.js'
import { failsPolicyCheck } from '../policy/index.js'
import type { PushRecord, SessionReport, StopHookResult, Violation } from '../report/model.js'
import { ensureStateDir } from '../state/layout.js'
import { verifiedPolicySummary } from '../report/check-run.js'
import { Workspace } from '../state/workspace.js'
import { withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import { canWrite, expandKey, linksFor, readEventPayload, type ActionsContext } from '../github/context.js'
import { GitHubReporter } from '../github/reporter.js'
import { findJobUrl } from '../github/job.js'
import type { CheckRunLink } from '../report/markdown.js'
import { CheckRuns, mergeHookResults } from '../github/checks.js'
import type { Sanitizer } from '../util/sanitize.js'
import { actionClient } from './client.js'
import { loadActionConfig } from './config.js'
import { refuseEventTrigger } from './refuse-task.js'
import { recordRound } from './continuation.js'
import { resolveTrigger } from './reply.js'
import { ConversationComment } from '../github/conversation.js'
import type { ActionInputs } from './inputs.js'
import { uploadSessionArtifact } from './artifact.js'
import { ARTIFACT_ENV } from './handoff.js'
import { pushCredentialFor, warnPersistedCredentials } from './hygiene.js'
import {
  claimedSeq,
  collectHandoffs,
  gateSpec,
  judgeDiff,
  notPushed,
  unpushable,
  rejected,
  sessionReport,
  writeJudgedOutputs,
} from './judge.js'
import { uploadSanitizer } from './redact.js'
import { downloadVerifyResults, type VerifiedSession } from './verify-results.js'
import { readVerifyJob, type VerifyJobRecord } from './verify-job.js'

type Env = Record<string, string | undefined>

interface Published {
  report: SessionReport
  /** The commit publish computed from the handoff; null when rejected or nothing changed. */
  sha: string | null
  rejected: boolean
}

export async function runPublish(inputs: ActionInputs, env: Env, secrets: WithheldSecrets): Promise<number> {
  const loaded = await loadActionConfig(inputs, env)
  if (!loaded) return 2
  const { config, ctx, configPath } = loaded
  const token = inputs.githubToken
  const sanitizer = uploadSanitizer(token, secrets)
  const readOnly = !canWrite(ctx) || !token
  const octokit = actionClient(token, ctx.apiUrl, env)
  const cwd = process.cwd()
  const dirs = ensureStateDir(cwd)
  const git = new Git({ cwd: dirs.root })
  const head = await git.revParse('HEAD^{commit}')
  if (!head) {
    core.error('proctor: mode publish needs a checkout of the commit the agent started from (no HEAD here)')
    return 2
  }
  // The one check of refuse-task.ts, for every kind of trigger (comment, review comment, review, label).
  const payload = readEventPayload(env.GITHUB_EVENT_PATH)
  const refusal = await refuseEventTrigger({
    eventName: ctx.eventName,
    payload,
    settings: config.github.trigger,
    octokit: octokit,
    ctx,
  })
  if (refusal) {
    const message = `proctor: ${sanitizer.forLog(refusal.message)}; nothing was published`
    if (refusal.exitCode === 0) core.notice(message)
    else core.error(message)
    return refusal.exitCode
  }
  const persisted = await warnPersistedCredentials(cwd)
  if (readOnly)
    core.notice(
      'proctor: read-only token (fork pull request): publishing into the job summary and an artifact only',
    )

  const verifyJob = await readVerifyJob({ octokit, ctx, name: inputs.verifyJob })
  core.info(`proctor: the verify job as GitHub recorded it: ${sanitizer.forLog(verifyJob.said)}`)
  const results = await downloadVerifyResults({
    ctx,
    token,
    dest: join(env.RUNNER_TEMP || tmpdir(), `proctor-verify-${process.pid}`),
    secrets,
  })
  for (const problem of results.problems)
    core.warning(`proctor: verify results: ${sanitizer.forLog(problem)}`)

  const handoffs = await collectHandoffs(inputs, env, ctx, token, git, head, secrets, verifyJob.startedAt)
  const gate = gateSpec(dirs.root, configPath, config)
  const credential = persisted
    ? undefined
    : await pushCredentialFor(git, config.checkpoints.remote, token, env, ctx)

  const published: Published[] = []
  for (const result of handoffs) {
    const started = Date.now()
    if (!result.ok) {
      published.push({
        report: rejected(result, config, ctx, started, sanitizer.forLog),
        sha: null,
        rejected: true,
      })
      continue
    }
    const handoff = result.handoff
    const sha = handoff.tip ?? head
    const { violations } = await judgeDiff({
      git,
      head,
      tip: sha,
      gate,
      config,
      worktree: dirs.root,
      checkpoint: claimedSeq(handoff),
    })
    const hooks = config.stop_hooks.map((hook) =>
      hookResult(hook.name, sha, verifyJob, results.sessions.get(handoff.sessionId), results.problems),
    )
    const reasons = [
      ...hooks.filter((h) => h.verdict !== 'allow').map((h) => `${h.name}: ${h.reason ?? 'failed'}`),
      ...(failsPolicyCheck(violations)
        ? ['error or critical policy violations (judged by the publish job)']
        : []),
    ]
    const report = sessionReport({
      handoff,
      verdict: reasons.length ? 'block' : 'allow',
      reason: reasons.length ? reasons.join('; ') : null,
      violations,
      stopHooks: hooks,
      ctx,
      started,
    })
    if (!readOnly && handoff.tip) {
      const why = pushRefusal(verifyJob, violations, hooks)
      report.pushed = why
        ? notPushed(config, handoff.sessionId, why)
        : await pushExactly(git, handoff.sessionId, handoff.tip, config, head, credential)
      core.info(
        report.pushed.ok
          ? `proctor: pushed ${report.pushed.sha ?? handoff.tip} (the handed-off ${handoff.tip}) to ${report.pushed.branch}`
          : `proctor: checkpoints not pushed: ${report.pushed.reason}`,
      )
    }
    published.push({ report, sha, rejected: false })
  }

  const checkRunLinks = config.github.checks
    ? await publishChecks(published, config, ctx, octokit, sanitizer, readOnly)
    : []
  let commentUrl = ''
  const links = linksFor(ctx)
  if (config.github.comment !== 'off' && ctx.pr && !readOnly) {
    const job = await findJobUrl(octokit, ctx)
    if (job.url) links.job = job.url
  }
  // The task the agent job got, from the same event: the comment quotes it (on the issue, without a PR).
  const trigger = await resolveTrigger(ctx.eventName, payload, {
    octokit,
    ctx,
    token,
    sanitizer,
    config,
  })
  const task = trigger.kind === 'task' ? trigger.task : null
  const baseKey = expandKey(config.github.key, ctx)
  for (const { report } of published) {
    const reporter = new GitHubReporter({
      octokit,
      token,
      context: ctx,
      key: published.length > 1 ? `${baseKey}/${report.session_id}` : baseKey,
      sessionId: report.session_id,
      comment: config.github.comment,
      checks: false,
      checkRunLinks,
      sanitizer,
      links,
      findJob: false,
      readOnly,
      task,
      issueNumber: task?.issueNumber ?? null,
      emit: (line) => process.stdout.write(line.endsWith('\n') ? line : line + '\n'),
      onError: (e) =>
        core.warning(`proctor: GitHub ${e.operation} failed (${e.status ?? 'network'}): ${e.message}`),
    })
    const finished = await reporter.finish(report)
    commentUrl ||= finished.commentUrl ?? ''
    // The round's result in the conversation comment (docs/github.md#the-conversation): status, verdict,
    // the commit pushed here (only a pushed, passing round can be promoted or continued).
    if (task?.issueNumber != null && !readOnly && published.length === 1)
      await recordRound(
        new ConversationComment({ octokit, ctx, issueNumber: task.issueNumber, token, sanitizer }),
        report,
        ctx.runId,
      ).catch((error: unknown) =>
        core.warning(`proctor: could not update the conversation comment: ${(error as Error).message}`),
      )
    if (readOnly) {
      // A fork PR: the published report (never the agent's) travels on to a trusted workflow_run.
      await withSecretsInEnv(secrets, ARTIFACT_ENV, () =>
        uploadSessionArtifact(report, writeReport(report, dirs.sessions), sanitizer),
      )
    }
  }
  for (const secret of sanitizer.discovered()) core.setSecret(secret)

  const { blocked } = writeJudgedOutputs(published, commentUrl)
  if (config.github.fail_on === 'never') return 0
  return blocked ? 1 : 0
}

/**
 * One hook in one session as published: allowed only when GitHub recorded the verify job's success and
 * every verify leg that judged this session says the hook allowed on `sha`.
 */
function hookResult(
  name: string,
  sha: string,
  verifyJob: VerifyJobRecord,
  sessions: VerifiedSession[] | undefined,
  problems: string[],
): StopHookResult {
  const base = { name, exit_code: null, duration_ms: 0, round: 1 }
  const said = (sessions ?? []).map((s) => s.stop_hooks.find((h) => h.name === name)?.reason).filter(Boolean)
  const reported = said.length ? ` The verify job reported: ${said.join('; ')}` : ''
  if (!verifyJob.success)
    return {
      ...base,
      verdict: 'block',
      reason:
        `the verify job did not succeed (GitHub recorded ${verifyJob.said}); its per-hook results come from a ` +
        `job that ran the agent's code and cannot say which hook passed.${reported}`,
    }
  if (!sessions?.length)
    return {
      ...base,
      verdict: 'block',
      reason: `no results of the verify job for this session${problems.length ? ` (${problems.join('; ')})` : ''}`,
    }
  for (const session of sessions) {
    if (session.tested_sha !== sha)
      return {
        ...base,
        verdict: 'block',
        reason: `the verify job tested ${session.tested_sha ?? 'no commit'}, not the handed-off checkpoint ${sha}`,
      }
    const hook = session.stop_hooks.find((h) => h.name === name)
    if (!hook || hook.verdict !== 'allow')
      return {
        ...base,
        verdict: 'block',
        reason: hook
          ? (hook.reason ?? `the hook's verdict was ${hook.verdict}`)
          : 'the hook did not run in the verify job',
      }
  }
  return { ...base, verdict: 'allow', reason: null }
}

/** Why the checkpoints must not be pushed, or null. */
function pushRefusal(
  verifyJob: VerifyJobRecord,
  violations: Violation[],
  hooks: StopHookResult[],
): string | null {
  if (!verifyJob.success) return `the verify job did not succeed (GitHub recorded ${verifyJob.said})`
  const held = unpushable(violations)
  if (held.length)
    return `the checkpoints hold content the policy forbids (${held.map((v) => `${v.file}: ${v.constraint}`).join(', ')}); it is never pushed`
  // Only a commit the verify job tested (and passed) is pushed: a handoff the verify job never saw (one
  // uploaded from inside it under another session's name) has no results here.
  const failed = hooks.filter((h) => h.verdict !== 'allow')
  if (failed.length)
    return `not every stop hook passed on this commit in the verify job (${failed.map((h) => h.name).join(', ')})`
  return null
}

/** Pushes refs/proctor/<session>, which this job fetched from the bundle itself, and checks it was `tip`. */
async function pushExactly(
  git: Git,
  sessionId: string,
  tip: string,
  config: Config,
  head: string,
  credential: [string, string][] | undefined,
): Promise<PushRecord> {
  const local = await git.revParse(`${checkpointRef(sessionId)}^{commit}`)
  if (local !== tip)
    return notPushed(config, sessionId, `refs/proctor/${sessionId} is not the handed-off ${tip}; not pushed`)
  const workspace = Workspace.find(git.cwd)
  if (!workspace) throw new Error(`${git.cwd} is not inside a git repository`)
  workspace.sessionDir(sessionId)
  const queue = await workspace.pushQueue(sessionId, config, {
    base: head,
    // CI's definition as this job checked it out: the handed-off chain's trailers are the agent job's.
    baseline: head,
    // Exactly the tip that was judged, whatever the ref holds by the time the push runs.
    written: tip,
    mode: config.checkpoints.push === 'never' ? 'never' : 'always',
    ...(credential ? { secretConfig: credential } : {}),
  })
  return queue.flush()
}

/**
 * One `proctor / <hook>` per configured hook over every session (failed in any session: failure; the
 * text names each session), and one `proctor / policy` over all their violations.
 */
async function publishChecks(
  published: Published[],
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
    ...(published.length === 1 ? { externalId: published[0]!.report.session_id } : {}),
    emit: (line) => process.stdout.write(`${line}\n`),
    onError: (error) => core.warning(`proctor: GitHub checks failed: ${(error as Error).message}`),
  })
  for (const hook of config.stop_hooks) {
    const per = published.map(({ report }) => ({
      session: report.session_id,
      result: report.stop_hooks.find((r) => r.name === hook.name) ?? null,
    }))
    await checks.hookFinished(
      mergeHookResults(hook.name, per, published.length > 1, 'the hook did not run in the verify job'),
    )
  }
  const violations = published.flatMap(({ report }) => report.violations)
  await checks.policy(violations, verifiedPolicySummary(violations, published.length))
  return checks.links()
}

function writeReport(report: SessionReport, sessionsDir: string): string {
  const dir = join(sessionsDir, report.session_id)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'report.json')
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`)
  return path
}
