// The GitHub Action's `mode: run`: inputs → a supervised session → GitHub sinks (sticky comment, check
// runs, job summary, outputs; in the two-job layout's agent job, the handoff artifact instead).
// GitHub is a sink: if it is down or the token is read-only, the verdict and exit code stay the same.
import * as core from '@actions/core'
import type { Config } from '../config/schema.js'
import { runSession } from '../session/session.js'
import { makeSessionId } from '../session/session-id.js'
import { actionClient } from './client.js'
import { canWrite, expandKey, linksFor, readEventPayload } from '../github/context.js'
import { baseBranchOf } from '../github/ci-status.js'
import { acknowledge } from '../github/reactions.js'
import { commandWithTask, taskEnv } from './task.js'
import { refuseTask } from './refuse-task.js'
import { resolveTrigger } from './reply.js'
import { continuationOf, recordRound, type Continuation } from './continuation.js'
import { ConversationComment } from '../github/conversation.js'
import { GitHubReporter } from '../github/reporter.js'
import { appendJobSummary, writeOutputs } from '../github/summary.js'
import { usageOutputs } from '../usage/summary.js'
import { createSanitizer } from '../util/sanitize.js'
import { ActionLog } from './log.js'
import { withDeadline } from '../util/deadline.js'
import { formatDuration } from '../util/units.js'
import { failsPolicyCheck } from '../policy/index.js'
import type { SessionReport } from '../report/model.js'
import { agentCommand, type ActionInputs } from './inputs.js'
import { ciOf, loadActionConfig } from './config.js'
import { uploadSessionArtifact } from './artifact.js'
import { uploadSanitizer } from './redact.js'
import { STATE } from './state.js'
import { uploadHandoff } from './handoff.js'
import { pushCredentialFor, warnPersistedCredentials } from './hygiene.js'
import { withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import { Git } from '../git/runner.js'

/**
 * After a cancellation the runner sends SIGTERM 7.5 s and SIGKILL 10 s after SIGINT; reporting gets at
 * most this long, and never past SIGKILL (less a margin) counted from the first signal. What does not
 * fit is left to the post step.
 */
const FINISH_BUDGET_AFTER_SIGNAL_MS = 3_000
const SIGKILL_AFTER_MS = 10_000
const EXIT_MARGIN_MS = 700
/**
 * Everything after the session that talks to GitHub (comment, check runs, artifact) shares this one
 * deadline (docs/github.md: nothing waits longer than 2 minutes); what does not fit is left to the post
 * step. `PROCTOR_REPORT_DEADLINE_MS` shortens it for the end-to-end tests.
 */
export const REPORT_DEADLINE_MS = 120_000

/**
 * `mode: run` (modes.ts): a comment's or a label's task, or the workflow's command, as one supervised
 * session, reported to GitHub.
 */
export async function runMode(
  inputs: ActionInputs,
  env: Record<string, string | undefined>,
  secrets: WithheldSecrets,
): Promise<number> {
  const loaded = await loadActionConfig(inputs, env)
  if (!loaded) return 2
  const { config, ctx } = loaded
  // A comment or label not meant for proctor: one line, exit 0, nothing written anywhere.
  const payload = readEventPayload(env.GITHUB_EVENT_PATH)
  const sanitizer = createSanitizer({ secrets: [inputs.githubToken].filter(Boolean) })
  const octokit = actionClient(inputs.githubToken, ctx.apiUrl, env)
  const trigger = await resolveTrigger(ctx.eventName, payload, {
    octokit,
    ctx,
    token: inputs.githubToken,
    sanitizer,
    config,
  })
  if (trigger.kind === 'ignore') {
    // A label's name is anyone's text too: no workflow command gets through.
    core.info(`proctor: nothing to do: ${sanitizer.forLog(trigger.reason)}`)
    return 0
  }
  const task = trigger.kind === 'task' ? trigger.task : null
  // The agent job of the two-job layout publishes and pushes nothing; the publish job does.
  if (inputs.handoff) config.checkpoints.push = 'never'
  const command = safe(() => {
    const spec = agentCommand(inputs, config)
    return spec && commandWithTask(spec, task)
  })
  if (!command || command instanceof Error) {
    const message =
      command instanceof Error
        ? command.message
        : 'no agent command: set the command (or shell) input, or agent.command in proctor.yml'
    core.error(`proctor: ${message}`)
    return 2
  }

  const readOnly = !canWrite(ctx) || inputs.handoff
  const persisted = await warnPersistedCredentials(process.cwd())
  const pushSecretConfig = persisted
    ? undefined
    : await pushCredentialFor(
        new Git({ cwd: process.cwd() }),
        config.checkpoints.remote,
        inputs.githubToken,
        env,
        ctx,
      )

  // A comment or a label can start an agent: only people who may write to the repository get to do that.
  if (task) {
    const refusal = await refuseTask(task, trigger.kind === 'task' ? trigger.via : '', {
      octokit,
      ctx,
      oneJob: !inputs.handoff,
    })
    if (refusal) {
      const message = `proctor: ${sanitizer.forLog(refusal.message)}; the agent was not started`
      if (refusal.exitCode === 0) core.notice(message)
      else core.error(message)
      appendJobSummary(`### proctor\n\n${sanitizer.forMarkdown(message, 1000)}\n`)
      return refusal.exitCode
    }
    core.info(
      `proctor: task from ${sanitizer.forLog(task.author)} (${trigger.kind === 'task' ? trigger.via : ''})`,
    )
    // The first answer, before the slow part; the two-job agent job has no token to answer with.
    if (task.reactTo && !inputs.handoff && inputs.githubToken)
      await acknowledge(octokit, ctx.owner, ctx.repo, task.reactTo).catch((error: unknown) =>
        core.warning(`proctor: could not react to the comment: ${(error as Error).message}`),
      )
  }
  // A follow-up of a conversation (docs/github.md#the-conversation): the write commands were answered by
  // the acknowledge job; a continue or retry is the next round of the same session, from its commit.
  let continuation: Continuation | null = null
  const conversation =
    task?.issueNumber != null
      ? new ConversationComment({
          octokit,
          ctx,
          issueNumber: task.issueNumber,
          token: inputs.githubToken,
          sanitizer,
        })
      : null
  const followUp = trigger.kind === 'task' ? (trigger.command ?? null) : null
  if (task && conversation && followUp) {
    if (followUp.verb !== 'continue' && followUp.verb !== 'retry') {
      core.info(
        `proctor: /proctor ${followUp.verb} is answered by the acknowledge job (mode: acknowledge); no agent runs`,
      )
      return 0
    }
    const state = await conversation.read().catch((error: unknown) => error as Error)
    const found =
      state instanceof Error
        ? `could not read the conversation comment: ${state.message} (the agent job needs issues: read and pull-requests: read)`
        : continuationOf(state, followUp, task, ctx.runId)
    if (typeof found === 'string') {
      core.error(`proctor: ${sanitizer.forLog(found)}; the agent was not started`)
      return 1
    }
    const head = await new Git({ cwd: process.cwd() }).revParse('HEAD^{commit}')
    if (head !== found.base) {
      core.error(
        `proctor: round ${found.round} starts from ${found.base}, but the checkout is ${head ?? 'no commit'}: ` +
          "check out the acknowledge job's output ref (proctor init --trigger mention writes it); the agent was not started",
      )
      return 2
    }
    continuation = found
    core.info(
      `proctor: round ${found.round} (${followUp.verb}) of session ${found.sessionId}, from ${found.base}`,
    )
  }
  const agentTask = continuation?.task ?? task
  const sessionCommand = continuation ? commandWithTask(agentCommand(inputs, config)!, agentTask) : command

  if (inputs.handoff)
    core.notice(
      'proctor: handoff: this job publishes and pushes nothing; the verify job re-runs the gates on the handed-off checkpoints',
    )
  else if (readOnly)
    core.notice(
      'proctor: pull request from a fork (read-only token): reporting to the job summary and an artifact only',
    )

  const sessionId = makeSessionId(continuation ? { ...env, PROCTOR_SESSION_ID: continuation.sessionId } : env)
  const reporter = new GitHubReporter({
    octokit,
    token: inputs.githubToken,
    context: ctx,
    key: expandKey(config.github.key, ctx),
    sessionId,
    comment: config.github.comment,
    checks: config.github.checks,
    publish: config.github.publish,
    sanitizer,
    links: linksFor(ctx),
    readOnly,
    task,
    issueNumber: task?.issueNumber ?? null,
    onError: (error) =>
      core.warning(
        `proctor: GitHub ${error.operation} failed (${error.status ?? 'network'}): ${error.message}`,
      ),
    onNote: (message) => core.info(`proctor: ${sanitizer.forLog(message)}`),
  })

  if (config.github.publish === 'aggregate' && !readOnly)
    core.info(
      'proctor: github.publish is aggregate: this session writes no comment or check run; the mode: aggregate job publishes for every session of the run',
    )
  core.saveState(STATE.sessionId, sessionId)
  core.saveState(STATE.cwd, process.cwd())
  core.saveState(STATE.key, expandKey(config.github.key, ctx))

  // Kept until exit (not `once`): the runner's SIGTERM after SIGINT must not kill reporting midway.
  let signalAt: number | null = null
  const onSignal = () => void (signalAt ??= Date.now())
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  // The agent's output goes to the job log line by line, redacted (tokens the runner does not know about).
  const log = new ActionLog({ sanitizer })
  const outcome = await runSession({
    config,
    command: sessionCommand,
    cwd: process.cwd(),
    sessionId,
    output: log.agentOutput,
    input: null,
    installSignalHandlers: true,
    env: { ...env, ...taskEnv(agentTask), ...continuation?.env },
    ...(pushSecretConfig ? { pushSecretConfig } : {}),
    // `uses: ci-checks` pushes and reads checks: only where this job may push (not a fork, not a handoff).
    ...(readOnly || !inputs.githubToken
      ? {}
      : {
          github: { octokit, owner: ctx.owner, repo: ctx.repo, branch: baseBranchOf(env.GITHUB_EVENT_PATH) },
        }),
    ci: ciOf(ctx),
    listener: {
      started: (report) => void reporter.start(report),
      progress: (report) => void reporter.progress(report),
      hookStarted: (name, round) => {
        log.hookStarted(name, round)
        void reporter.hookStarted(name)
      },
      hookFinished: (result) => {
        log.hookFinished(result)
        void reporter.hookFinished(result)
      },
      hookOutput: (name, chunk) => log.hookOutput(name, chunk),
      event: (event) => log.event(event),
      checkpointProgress: (progress) => log.checkpointProgress(progress),
    },
  })
  const report = outcome.report
  const exitCode = exitCodeFor(report, outcome.exitCode, config.github.fail_on)
  core.saveState(STATE.reportPath, outcome.reportPath)
  // Token-shaped strings found so far: mask them in whatever this job prints from now on (each once).
  const masked = new Set<string>()
  const maskDiscovered = () => {
    for (const secret of sanitizer.discovered()) {
      if (masked.has(secret)) continue
      masked.add(secret)
      core.setSecret(secret)
    }
  }
  maskDiscovered()

  // Outputs first: whatever GitHub's API does next, later steps get the verdict.
  const last = report.checkpoints[report.checkpoints.length - 1]
  const commentUrl = reporter.commentUrl
  const outputsWritten = writeOutputs({
    verdict: report.verdict,
    status: report.status,
    'session-id': report.session_id,
    'checkpoint-ref': last?.ref ?? '',
    'checkpoint-sha': last?.sha ?? '',
    'checkpoint-count': report.checkpoints.length,
    violations: report.violations.length,
    'report-path': outcome.reportPath,
    'comment-url': commentUrl ?? '',
    ...usageOutputs(report.usage),
  })
  log.verdict(report, exitCode)

  const deadline =
    signalAt === null
      ? reportDeadline(env)
      : Math.min(FINISH_BUDGET_AFTER_SIGNAL_MS, signalAt + SIGKILL_AFTER_MS - EXIT_MARGIN_MS - Date.now())
  // What leaves the machine is redacted like the log, with every secret the runner gave this step.
  const uploads = uploadSanitizer(inputs.githubToken, secrets)
  const reporting = (async () => {
    const result = await reporter.finish(report)
    // The round's result in the conversation comment (the publish job does it in the two-job layout).
    if (conversation && !inputs.handoff && !readOnly)
      await recordRound(conversation, report, ctx.runId).catch((error: unknown) =>
        core.warning(`proctor: could not update the conversation comment: ${(error as Error).message}`),
      )
    if (inputs.handoff) {
      const problem = await uploadHandoff({
        cwd: process.cwd(),
        report,
        reportPath: outcome.reportPath,
        secrets,
        sanitizer: uploads,
      })
      if (problem) core.error(`proctor: ${problem}`)
    } else if (readOnly) {
      await withSecretsInEnv(secrets, ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'], () =>
        uploadSessionArtifact(report, outcome.reportPath, uploads),
      )
    }
    return result
  })()
  const finished = await withDeadline(reporting, deadline, () => null)
  if (!finished)
    core.warning(
      `proctor: reporting to GitHub did not finish within ${formatDuration(deadline)}; the post step completes what it can`,
    )
  maskDiscovered()
  // The comment may have been created only now; a later value of an output replaces the earlier one.
  if (finished?.commentUrl && finished.commentUrl !== commentUrl)
    writeOutputs({ 'comment-url': finished.commentUrl })
  // The post step has nothing left to do once main reported (unless reporting was cut short).
  if (finished) core.saveState(STATE.finished, 'true')
  // Outputs lost on the way (the file went away during the session) must not pass silently.
  if (!outputsWritten && env.GITHUB_OUTPUT && exitCode === 0) return 2
  return exitCode
}

function reportDeadline(env: Record<string, string | undefined>): number {
  const ms = Number(env.PROCTOR_REPORT_DEADLINE_MS)
  return Number.isFinite(ms) && ms > 0 ? ms : REPORT_DEADLINE_MS
}

/** fail-on: `block` follows the session's exit code; `violation-error` also fails on error/critical violations. */
export function exitCodeFor(
  report: SessionReport,
  sessionExit: number,
  failOn: Config['github']['fail_on'],
): number {
  if (report.status === 'interrupted') return sessionExit
  if (failOn === 'never') return 0
  if (failOn === 'violation-error' && sessionExit === 0 && failsPolicyCheck(report.violations)) return 1
  return sessionExit
}

function safe<T>(fn: () => T): T | Error {
  try {
    return fn()
  } catch (error) {
    return error as Error
  }
}
