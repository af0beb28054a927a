// GitHub calls per layout (issue 35), against the local GitHub API server with production's client: writes
// 1 s apart (comments 3 s), so every write counted here is also a second of the step. Each layout is the
// GitHub side of a session whose agent and two stop hooks end within a second, as src/action/run.ts and
// src/action/aggregate.ts drive the reporters. Run alone: node --import tsx bench/github.ts
import { pathToFileURL } from 'node:url'
import { startGitHubApiServer, type RecordedCall } from '../test/servers/github-api.js'
import { sessionReport } from '../test/unit/github-fixtures.js'
import { createGitHubClient } from '../src/github/client.js'
import { GitHubReporter } from '../src/github/reporter.js'
import { BatchReporter } from '../src/github/batch-reporter.js'
import { sessionChecks } from '../src/action/aggregate.js'
import { aggregateReports } from '../src/report/aggregate.js'
import { defaultConfig } from '../src/config/defaults.js'
import { linksFor, type ActionsContext } from '../src/github/context.js'
import { createSanitizer } from '../src/util/sanitize.js'
import type { StopHookResult } from '../src/report/model.js'

const TOKEN = 'ghs_' + 'B3nchT0k'.repeat(5)
const HEAD = 'cafebabecafebabecafebabecafebabecafebabe'
const HOOKS = ['tests', 'lint']
/** GitHub's guidance: about 80 content-creating requests per minute. */
const PER_MINUTE = 80

export async function runGitHubBench(): Promise<Record<string, unknown>> {
  const oneJob = await layout(async (octokit, ctx) => {
    const reporter = new GitHubReporter({
      octokit,
      token: TOKEN,
      context: ctx,
      key: 'ci/agent',
      sessionId: 'bench-1',
      comment: 'sticky',
      checks: true,
      sanitizer: createSanitizer({ secrets: [TOKEN] }),
      summaryPath: null,
    })
    await session(reporter, 'bench-1')
  })
  const matrix = await layout(async (octokit, ctx) => {
    const config = defaultConfig()
    config.github.publish = 'aggregate'
    const reports = Array.from({ length: 10 }, (_, i) => report(`leg-${i}`))
    await Promise.all(
      reports.map((r) =>
        session(
          new GitHubReporter({
            octokit,
            token: TOKEN,
            context: ctx,
            key: 'ci/agent',
            sessionId: r.session_id,
            comment: config.github.comment,
            checks: config.github.checks,
            publish: config.github.publish,
            sanitizer: createSanitizer({ secrets: [TOKEN] }),
            summaryPath: null,
          }),
          r.session_id,
        ),
      ),
    )
    const children = reports.map((r) => ({ source: `${r.session_id}/report.json`, report: r }))
    const batch = aggregateReports('bench-batch', children)
    await new BatchReporter({
      octokit,
      token: TOKEN,
      owner: ctx.owner,
      repo: ctx.repo,
      prNumber: 17,
      headSha: HEAD,
      key: 'ci/agent/batch',
      comment: 'sticky',
      checks: true,
      sanitizer: createSanitizer({ secrets: [TOKEN] }),
      links: linksFor(ctx),
      summaryPath: null,
      sessionChecks: sessionChecks(config, ctx, children, batch),
    }).publish(batch)
  })
  return {
    one_job_2_hooks: { ...oneJob, target_writes: 5, ok: oneJob.writes <= 5 && oneJob.spacing_kept },
    matrix_10_aggregate: {
      ...matrix,
      // Two runs of the matrix within one minute, each at its busiest minute.
      two_runs_per_minute: 2 * matrix.busiest_minute_writes,
      target_per_minute: `< ${PER_MINUTE}`,
      ok: 2 * matrix.busiest_minute_writes < PER_MINUTE && matrix.spacing_kept,
    },
  }
}

/** One layout on a fresh server: its calls, its writes and their spacing, its wall time. */
async function layout(
  drive: (octokit: ReturnType<typeof createGitHubClient>, ctx: ActionsContext) => Promise<void>,
) {
  const server = await startGitHubApiServer()
  try {
    // Production's spacing (1 s, comments 3 s) in queues of this layout's own: a job's step is one
    // process with one client, and Octokit's default queues would carry one layout's last write into
    // the next.
    const octokit = createGitHubClient({
      token: TOKEN,
      baseUrl: server.url,
      retryAfterBaseMs: 5,
      writeSpacingMs: 1000,
    })
    const started = performance.now()
    await drive(octokit, context(server.url))
    const wallMs = performance.now() - started
    const writes = server.calls.filter((c) => c.method !== 'GET')
    const gaps = writes.slice(1).map((c, i) => c.at - writes[i]!.at)
    return {
      calls: server.calls.length,
      reads: server.calls.length - writes.length,
      writes: writes.length,
      by_operation: byOperation(writes),
      busiest_minute_writes: busiestMinute(writes),
      min_gap_ms: gaps.length ? Math.min(...gaps) : null,
      // Sent 1 s apart; arrival times jitter by the time a request takes to reach the server (up to
      // ~100 ms on a busy machine), so each gap is read with 200 ms of slack and the whole span with 150.
      spacing_kept:
        gaps.every((gap) => gap >= 800) &&
        (writes.length < 2 || writes.at(-1)!.at - writes[0]!.at >= (writes.length - 1) * 1000 - 150),
      wall_ms: Math.round(wallMs),
      ideal_ms: Math.max(0, writes.length - 1) * 1000,
      validation_failures: server.validationFailures.length,
    }
  } finally {
    await server.close()
  }
}

async function session(reporter: GitHubReporter, id: string): Promise<void> {
  const done = report(id)
  void reporter.start(sessionReport({ session_id: id, checkpoints: [] }))
  for (const hook of HOOKS) void reporter.hookStarted(hook)
  for (const result of done.stop_hooks) void reporter.hookFinished(result)
  await reporter.finish(done)
}

function report(id: string) {
  const hooks: StopHookResult[] = HOOKS.map((name) => ({
    name,
    verdict: 'allow',
    reason: null,
    exit_code: 0,
    duration_ms: 40,
    round: 1,
  }))
  return sessionReport({ session_id: id, violations: [], stop_hooks: hooks })
}

function byOperation(calls: RecordedCall[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const call of calls)
    counts[call.operationId ?? call.path] = (counts[call.operationId ?? call.path] ?? 0) + 1
  return counts
}

function busiestMinute(calls: RecordedCall[]): number {
  let most = 0
  for (const call of calls)
    most = Math.max(most, calls.filter((c) => c.at >= call.at && c.at < call.at + 60_000).length)
  return most
}

function context(apiUrl: string): ActionsContext {
  return {
    owner: 'acme',
    repo: 'widgets',
    serverUrl: 'https://github.com',
    apiUrl,
    eventName: 'pull_request',
    sha: HEAD,
    runId: '42',
    runAttempt: 1,
    job: 'agent',
    workflow: 'ci',
    actor: 'alice',
    pr: { number: 17, headSha: HEAD, baseSha: null, headRef: 'feature', fork: false },
    commentAuthor: null,
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(await runGitHubBench(), null, 2) + '\n')
}
