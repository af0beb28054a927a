// mode: verify — the middle job of the two-job layout (docs/action.md#two-job-layout). The agent never ran
// here, but its code does: the stop hooks (`npm test`) import what it wrote. So this job holds NO write
// token: it writes nothing to GitHub and pushes nothing. For each handoff of the run's agent jobs (a
// matrix gives several) it applies the checkpoint bundle on its own checkout, resets the gate files,
// judges the diff by the policy and RUNS THE STOP HOOKS; its verdict and exit code (the job's conclusion,
// which GitHub records and nothing in the job can rewrite afterwards) include the policy. Its per-hook
// results go, redacted, to the artifact `proctor-verify-<run>-<attempt>` for the publish job, which can
// only make a check fail with them.
//
// The gate is defined by this checkout, not by the agent: proctor.yml is read before the bundle is applied,
// and what the stop hooks execute as judge (src/hooks/gate-files.ts: the files their commands name, the
// package scripts they run, the runners' configuration, `gate_files`) is put back to this checkout's
// version before they run (an agent that rewrote its test script to pass gets a critical violation and
// the original script).
import * as core from '@actions/core'
import type { GateSpec } from '../hooks/gate-files.js'
import type { Config } from '../config/schema.js'
import { Git } from '../git/runner.js'
import { checkpointRef } from '../checkpoints/refs.js'
import { failsPolicyCheck } from '../policy/index.js'
import { runStopHooks } from '../hooks/stop-hooks.js'
import type { SessionReport, StopHookResult } from '../report/model.js'
import { ensureStateDir } from '../state/layout.js'
import { agentEnvironment, type WithheldSecrets } from '../supervisor/agent-env.js'
import { expandKey, linksFor, readEventPayload, type ActionsContext } from '../github/context.js'
import { GitHubReporter } from '../github/reporter.js'
import { actionClient } from './client.js'
import { loadActionConfig } from './config.js'
import { refuseEventTrigger } from './refuse-task.js'
import { type ActionInputs } from './inputs.js'
import type { AcceptedHandoff } from './handoff.js'
import { warnPersistedCredentials } from './hygiene.js'
import {
  claimedSeq,
  collectHandoffs,
  gateSpec,
  judgeDiff,
  rejected,
  sessionReport,
  writeJudgedOutputs,
} from './judge.js'
import { uploadSanitizer } from './redact.js'
import { uploadVerifyResults, verifyArtifactName, type VerifiedSession } from './verify-results.js'

type Env = Record<string, string | undefined>

/** One agent job's session as this job judged it. */
interface Verified {
  report: SessionReport
  /** The commit the hooks ran on; null for a rejected handoff. */
  tested: string | null
  /** The handoff was unusable (missing, malformed, tampered). */
  rejected: boolean
}

export async function runVerify(inputs: ActionInputs, env: Env, secrets: WithheldSecrets): Promise<number> {
  // Read from this checkout BEFORE anything of the agent's is applied: the gate is not the agent's to edit.
  const loaded = await loadActionConfig(inputs, env)
  if (!loaded) return 2
  const { config, ctx, configPath } = loaded
  // The token is only read with here (the commenter's permission, artifacts of a workflow_run); whatever
  // permissions it has, nothing in this job writes with it.
  const token = inputs.githubToken
  const sanitizer = uploadSanitizer(token, secrets)
  const cwd = process.cwd()
  const dirs = ensureStateDir(cwd)
  const git = new Git({ cwd: dirs.root })
  const head = await git.revParse('HEAD^{commit}')
  if (!head) {
    core.error('proctor: mode verify needs a checkout of the commit the agent started from (no HEAD here)')
    return 2
  }
  // The one check of refuse-task.ts, for every kind of trigger (comment, review comment, review, label).
  const refusal = await refuseEventTrigger({
    eventName: ctx.eventName,
    payload: readEventPayload(env.GITHUB_EVENT_PATH),
    settings: config.github.trigger,
    octokit: actionClient(token, ctx.apiUrl, env),
    ctx,
  })
  if (refusal) {
    const message = `proctor: ${sanitizer.forLog(refusal.message)}; nothing was verified`
    if (refusal.exitCode === 0) core.notice(message)
    else core.error(message)
    return refusal.exitCode
  }
  await warnPersistedCredentials(cwd)
  core.notice(
    "proctor: mode verify runs the stop hooks on the agent's code and writes nothing to GitHub: no check runs, " +
      "no comment, no push, whatever this job's permissions. A job with `mode: publish` (needs: verify; " +
      'contents/pull-requests/checks: write, actions: read) publishes; give this job `contents: read` only ' +
      '(examples/workflows/two-job.yml).',
  )

  const handoffs = await collectHandoffs(inputs, env, ctx, token, git, head, secrets)
  const gate = gateSpec(dirs.root, configPath, config)

  const verified: Verified[] = []
  for (const result of handoffs) {
    const started = Date.now()
    if (!result.ok) {
      verified.push({
        report: rejected(result, config, ctx, started, sanitizer.forLog),
        tested: null,
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
    verified.push({ report, tested: result.handoff.tip ?? head, rejected: false })
  }
  await restoreCheckout(git, head)

  // The job summary and annotations only (readOnly): this job holds no token that may write.
  const baseKey = expandKey(config.github.key, ctx)
  for (const { report } of verified) {
    const reporter = new GitHubReporter({
      octokit: actionClient('', ctx.apiUrl, env),
      token: '',
      context: ctx,
      key: verified.length > 1 ? `${baseKey}/${report.session_id}` : baseKey,
      sessionId: report.session_id,
      comment: 'off',
      checks: config.github.checks,
      sanitizer,
      links: linksFor(ctx),
      findJob: false,
      readOnly: true,
      emit: (line) => process.stdout.write(line.endsWith('\n') ? line : line + '\n'),
      onError: (e) => core.warning(`proctor: ${e.operation} failed: ${e.message}`),
    })
    await reporter.finish(report)
  }
  const problem = await uploadVerifyResults({
    results: { schema: 1, sessions: verified.map(resultOf) },
    name: verifyArtifactName(ctx, env.PROCTOR_MATRIX_KEY),
    dir: dirs.state,
    sanitizer,
    secrets,
  })
  if (problem) core.error(`proctor: ${problem}`)
  for (const secret of sanitizer.discovered()) core.setSecret(secret)

  const { blocked } = writeJudgedOutputs(
    verified.map((v) => ({ report: v.report, sha: v.tested, rejected: v.rejected })),
    '',
  )
  // `fail-on` does not apply here: this exit code becomes the job's conclusion, the one fact about this
  // job the publish job trusts (with `never`, code in this job could forge "all passed" in the results
  // artifact of a job that always succeeds). The verdict already holds the policy (error/critical
  // blocks); without results the publish job has nothing to pass either, so a failed upload fails too.
  if (config.github.fail_on === 'never' && blocked)
    core.notice(
      'proctor: fail-on never does not apply to mode verify: its exit code is the gate the publish job reads',
    )
  return blocked || problem ? 1 : 0
}

function resultOf(v: Verified): VerifiedSession {
  return {
    session_id: v.report.session_id,
    tested_sha: v.tested,
    rejected: v.rejected,
    verdict: v.report.verdict === 'allow' ? 'allow' : 'block',
    stop_hooks: v.report.stop_hooks.map((h) => ({ name: h.name, verdict: h.verdict, reason: h.reason })),
    violations: v.report.violations,
  }
}

interface VerifyOne {
  handoff: AcceptedHandoff
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
  await checkoutDetached(git, tip)
  const { files, violations } = await judgeDiff({
    git,
    head: o.head,
    tip,
    gate: o.gate,
    config,
    worktree: o.root,
    checkpoint: claimedSeq(handoff),
    enforce: true,
  })
  const results: StopHookResult[] = []
  const outcome = await runStopHooks({
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
    graceMs: config.timeouts.grace,
    round: 1,
    registry: { dir: o.stateDir, session: handoff.sessionId },
    onResult: (result) => {
      results.push(result)
      core.info(
        `proctor: stop hook ${result.name} (verify job): ${result.verdict}${result.reason ? ` — ${result.reason}` : ''}`,
      )
    },
  })
  // Like the agent job's verdict: a hook that blocks, or an error/critical violation, blocks.
  const policyBlocks = failsPolicyCheck(violations)
  const reasons = [
    ...(outcome.verdict === 'block'
      ? [`stop hooks blocked in the verify job: ${outcome.reasons.join('; ')}`]
      : []),
    ...(policyBlocks ? ['error or critical policy violations'] : []),
  ]
  return sessionReport({
    handoff,
    verdict: reasons.length ? 'block' : 'allow',
    reason: reasons.length ? reasons.join('; ') : null,
    violations,
    stopHooks: results.length ? results : outcome.results,
    ctx: o.ctx,
    started: o.started,
  })
}

/**
 * `checkout --force --detach <commit>` + `clean`, without porcelain checkout: the stop hooks run the agent's
 * code here and may have planted a smudge filter in .git/config; read-tree writes the files from proctor's
 * own git dir (src/git/isolation.ts), where no such filter is defined.
 */
async function checkoutDetached(git: Git, commit: string): Promise<void> {
  await git.raw(['update-ref', '--no-deref', '-m', 'proctor: verify', 'HEAD', commit])
  await git.raw(['read-tree', '-u', '--reset', commit])
  await git.raw(['clean', '-fdq'])
}

async function restoreCheckout(git: Git, head: string): Promise<void> {
  try {
    await checkoutDetached(git, head)
  } catch (error) {
    core.warning(`proctor: could not restore the checkout: ${(error as Error).message}`)
  }
}
