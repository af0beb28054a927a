// mode: aggregate — one BatchReport out of many session reports (matrix jobs, or a fork PR's artifact
// in a trusted workflow_run), then one PR comment and one check run. Report files are untrusted data:
// they are parsed defensively (a malformed or missing one becomes an errored child with a problem, never
// a crash) and the PR they name is believed only once GitHub confirms it (resolvePullRequest).
import * as core from '@actions/core'
import * as fs from 'node:fs'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { loadConfig } from '../config/load.js'
import { ConfigError } from '../config/errors.js'
import type { Config } from '../config/schema.js'
import { defaultConfig } from '../config/defaults.js'
import { aggregateReports, parseSessionReport, type ChildInput } from '../report/aggregate.js'
import type { BatchReport, SessionStatus } from '../report/model.js'
import { LifecycleHooks } from '../hooks/lifecycle.js'
import { agentEnvironment } from '../supervisor/agent-env.js'
import { batchCompletePayload } from '../batch/batch.js'
import { makeBatchId } from '../batch/tasks.js'
import { actionClient } from './client.js'
import { canWrite, expandKey, linksFor, readActionsContext, type ActionsContext } from '../github/context.js'
import { BatchReporter, type SessionChecks } from '../github/batch-reporter.js'
import { resolvePullRequest } from '../github/pull-request.js'
import { writeOutputs } from '../github/summary.js'
import { usageOutputs } from '../usage/summary.js'
import { createSanitizer } from '../util/sanitize.js'
import { applyInputs, InputError, type ActionInputs } from './inputs.js'
import { downloadReportArtifacts } from './artifact.js'

type Env = Record<string, string | undefined>

export async function runAggregate(inputs: ActionInputs, env: Env): Promise<number> {
  let config: Config
  let ctx: ActionsContext
  try {
    if (!inputs.reports && !inputs.artifactPattern) {
      throw new InputError(
        'mode aggregate needs the reports input (globs of report.json files on disk) or artifact-pattern (artifacts to download)',
      )
    }
    const file = inputs.configGiven || fs.existsSync(resolve(inputs.config)) ? inputs.config : undefined
    const loaded = file ? await loadConfig({ file, cwd: process.cwd() }) : null
    for (const warning of loaded?.warnings ?? []) core.warning(`proctor.yml: ${warning}`)
    config = applyInputs(loaded?.config ?? defaultConfig(), inputs)
    ctx = readActionsContext(env)
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof InputError
    core.error(`proctor: ${known ? error.message : String(error)}`)
    return 2
  }
  const token = inputs.githubToken
  const sanitizer = createSanitizer({ secrets: [token].filter(Boolean) })

  const children: ChildInput[] = []
  if (inputs.reports) children.push(...readReportGlobs(inputs.reports, process.cwd()))
  if (inputs.artifactPattern) {
    const dest = join(env.RUNNER_TEMP || tmpdir(), `proctor-artifacts-${process.pid}`)
    const downloaded = await downloadReportArtifacts({
      pattern: inputs.artifactPattern,
      dest,
      token,
      context: ctx,
    })
    children.push(...downloaded.problems.map((problem) => ({ source: inputs.artifactPattern, problem })))
    children.push(...downloaded.files.map(readReport))
  }
  const batch = aggregateReports(makeBatchId(env), children.length ? children : [noReports(inputs)])
  const batchPath = writeBatch(batch, env)
  core.info(
    `proctor: aggregated ${batch.child_count} report(s): ${batch.completed_count} completed, ${batch.failed_count} failed, ` +
      `${batch.errored_count} errored, ${batch.interrupted_count} interrupted, ${batch.timeout_count} timeout → ${batch.verdict}`,
  )
  for (const problem of batch.problems)
    core.warning(`proctor: ${sanitizer.forLog(`${problem.source}: ${problem.message}`)}`)

  await fireBatchComplete(config, batch, env)

  const octokit = actionClient(token, ctx.apiUrl, env)
  const readOnly = !canWrite(ctx) || !token
  const target = readOnly
    ? null
    : await resolvePullRequest({
        octokit,
        context: ctx,
        claimed: children.flatMap((c) => (typeof c.report?.ci?.pr === 'number' ? [c.report.ci.pr] : [])),
        log: (m) => core.info(`proctor: ${sanitizer.forLog(m)}`),
      })
  const reporter = new BatchReporter({
    sessionChecks: sessionChecks(config, ctx, children, batch),
    octokit,
    token,
    owner: ctx.owner,
    repo: ctx.repo,
    prNumber: target?.number ?? null,
    headSha: target?.headSha ?? ctx.workflowRun?.headSha ?? ctx.sha,
    key: `${expandKey(config.github.key, ctx)}/batch`,
    comment: config.github.comment,
    checks: config.github.checks,
    sanitizer,
    links: linksFor(ctx),
    readOnly,
    onError: (e) =>
      core.warning(`proctor: GitHub ${e.operation} failed (${e.status ?? 'network'}): ${e.message}`),
  })
  const published = await reporter.publish(batch)

  writeOutputs({
    verdict: batch.verdict,
    status: batchStatus(batch),
    'session-id': batch.batch_id,
    'child-count': batch.child_count,
    'completed-count': batch.completed_count,
    'failed-count': batch.failed_count,
    'errored-count': batch.errored_count,
    'interrupted-count': batch.interrupted_count,
    'timeout-count': batch.timeout_count,
    violations: batch.children.reduce((sum, c) => sum + c.violation_count, 0),
    'report-path': batchPath ?? '',
    'comment-url': published.commentUrl ?? '',
    ...usageOutputs(batch.usage),
  })
  if (config.github.fail_on === 'never') return 0
  return batch.verdict === 'allow' ? 0 : 1
}

/**
 * `github.publish: aggregate`: the sessions of this run wrote no check runs, so this job writes them
 * once for all. Not on `workflow_run`: those reports come from another run (a fork's, whose code wrote
 * them) and must never pass a required check; only `proctor / batch` is written then, as before.
 */
export function sessionChecks(
  config: Config,
  ctx: ActionsContext,
  children: ChildInput[],
  batch: BatchReport,
): SessionChecks | null {
  if (config.github.publish !== 'aggregate') return null
  if (ctx.eventName === 'workflow_run') {
    core.warning(
      'proctor: github.publish is aggregate, but on workflow_run the reports come from another run: ' +
        'no proctor / <hook> or proctor / policy check is written from them, only proctor / batch',
    )
    return null
  }
  const reports = children.flatMap((c) => (c.report ? [c.report] : []))
  const hooks = [
    ...new Set([
      ...config.stop_hooks.map((h) => h.name),
      ...reports.flatMap((r) => r.stop_hooks.map((h) => h.name)),
    ]),
  ]
  const lost = batch.children.filter((_, i) => !children[i]?.report).map((c) => c.name)
  return { hooks, reports, lost }
}

/** The batch's one-word status: completed when every child completed, else the most telling other one. */
export function batchStatus(batch: BatchReport): SessionStatus {
  if (batch.interrupted_count) return 'interrupted'
  if (batch.timeout_count) return 'timeout'
  if (batch.errored_count) return 'errored'
  if (batch.failed_count) return 'failed'
  return batch.child_count > 0 ? 'completed' : 'errored'
}

/**
 * `reports`: globs or paths separated by newlines or commas, relative to the working directory. A pattern
 * that matches nothing becomes an errored child, so a matrix leg whose artifact went missing is seen.
 */
export function readReportGlobs(patterns: string, cwd: string): ChildInput[] {
  const list = patterns
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean)
  const seen = new Set<string>()
  const children: ChildInput[] = []
  for (const pattern of list) {
    let files: string[]
    try {
      files = expand(pattern, cwd)
    } catch (error) {
      children.push({ source: pattern, problem: (error as Error).message })
      continue
    }
    if (files.length === 0) {
      children.push({ source: pattern, problem: `no report file matches "${pattern}" (in ${cwd})` })
      continue
    }
    for (const file of files) {
      if (seen.has(file)) continue
      seen.add(file)
      children.push(readReport(file))
    }
  }
  return children
}

function expand(pattern: string, cwd: string): string[] {
  if (!/[*?[\]{}]/.test(pattern)) {
    const path = resolve(cwd, pattern)
    return [fs.existsSync(path) && fs.statSync(path).isDirectory() ? join(path, 'report.json') : path]
  }
  // fs.globSync is Node 22+; the action runs on node24. A CLI on Node 20 gets a clear message instead.
  if (typeof fs.globSync !== 'function') {
    throw new InputError(`the reports input uses a glob ("${pattern}"), which needs Node 22 or later`)
  }
  return fs
    .globSync(pattern, { cwd })
    .map((p) => resolve(cwd, p))
    .sort()
}

export function readReport(path: string): ChildInput {
  const name = basename(dirname(path))
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return {
      source: path,
      name,
      problem: code === 'ENOENT' ? 'report file is missing' : `cannot read it: ${code ?? String(error)}`,
    }
  }
  const parsed = parseSessionReport(text)
  return typeof parsed === 'string'
    ? { source: path, name, problem: `malformed report: ${parsed}` }
    : { source: path, name: parsed.session_id, report: parsed }
}

function noReports(inputs: ActionInputs): ChildInput {
  const where = [
    inputs.reports && `reports "${inputs.reports}"`,
    inputs.artifactPattern && `artifacts "${inputs.artifactPattern}"`,
  ]
  return { source: 'aggregate', problem: `no session reports found (${where.filter(Boolean).join(', ')})` }
}

function writeBatch(batch: BatchReport, env: Env): string | null {
  try {
    const dir = join(env.RUNNER_TEMP || tmpdir(), 'proctor', batch.batch_id)
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'batch.json')
    writeFileSync(path, `${JSON.stringify(batch, null, 2)}\n`)
    return path
  } catch (error) {
    core.warning(`proctor: could not write the batch report: ${(error as Error).message}`)
    return null
  }
}

/** `subagent_batch_complete` fires once, when proctor.yml configures it; its failure never changes the verdict. */
async function fireBatchComplete(config: Config, batch: BatchReport, env: Env): Promise<void> {
  if (!config.hooks.subagent_batch_complete?.length) return
  const hooks = new LifecycleHooks({
    hooks: config.hooks,
    poolSize: config.hooks_async_pool_size,
    shutdownGraceMs: config.hooks_async_shutdown_grace,
    sessionId: batch.batch_id,
    cwd: process.cwd(),
    // As every hook proctor starts: no runner tokens, no step files (docs/action.md#what-the-agent-can-see).
    env: agentEnvironment(env, config.agent.env_passthrough),
    onWarning: (message) => core.warning(`proctor: ${message}`),
  })
  try {
    for (const result of await hooks.fire('subagent_batch_complete', batchCompletePayload(batch))) {
      if (result.status !== 'ok' && result.status !== 'scheduled') {
        core.warning(
          `proctor: subagent_batch_complete hook ${result.name}: ${result.status}${result.message ? ` (${result.message})` : ''}`,
        )
      }
    }
  } catch (error) {
    core.warning(`proctor: subagent_batch_complete hooks failed: ${(error as Error).message}`)
  } finally {
    await hooks.drain(config.hooks_async_drain_timeout)
  }
}
