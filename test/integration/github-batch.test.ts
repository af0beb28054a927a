// The GitHub sides of the action's post step and aggregate mode against the local GitHub API server:
// adopting this session's open check runs (not a matrix sibling's), the batch comment and check, the PR
// a report claims (believed only when GitHub confirms it), and the outage breaker.
import { describe, it, expect, afterEach, vi } from 'vitest'
import {
  startGitHubApiServer,
  type GitHubApiServer,
  type GitHubApiServerOptions,
} from '../servers/github-api.js'
import { createGitHubClient } from '../../src/github/client.js'
import { GitHubReporter } from '../../src/github/reporter.js'
import { BatchReporter } from '../../src/github/batch-reporter.js'
import { sessionChecks } from '../../src/action/aggregate.js'
import { defaultConfig } from '../../src/config/defaults.js'
import { resolvePullRequest } from '../../src/github/pull-request.js'
import type { ActionsContext } from '../../src/github/context.js'
import { aggregateReports } from '../../src/report/aggregate.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { links, sessionReport } from '../unit/github-fixtures.js'

const TOKEN = 'ghs_' + 'B4tchT0k'.repeat(5)
const HEAD = 'abababababababababababababababababababab'
let server: GitHubApiServer | null = null

afterEach(async () => {
  await server?.close()
  server = null
})

async function setup(options: GitHubApiServerOptions = {}, client: { stopAfterOutage?: boolean } = {}) {
  server = await startGitHubApiServer(options)
  const logs: string[] = []
  const octokit = createGitHubClient({
    token: TOKEN,
    baseUrl: server.url,
    retryAfterBaseMs: 5,
    log: (m) => logs.push(m),
    ...client,
  })
  return { server, octokit, logs }
}

function context(over: Partial<ActionsContext> = {}): ActionsContext {
  return {
    owner: 'acme',
    repo: 'widgets',
    serverUrl: 'https://github.com',
    apiUrl: server!.url,
    eventName: 'pull_request',
    sha: HEAD,
    runId: '9',
    runAttempt: 1,
    job: 'agent',
    workflow: 'proctor',
    actor: 'alice',
    pr: { number: 5, headSha: HEAD, baseSha: null, headRef: 'feature', fork: false },
    commentAuthor: null,
    ...over,
  }
}

const sanitizer = createSanitizer({ secrets: [TOKEN] })

describe('post step: adopting open check runs', () => {
  it("completes this session's in_progress checks as cancelled, and leaves a matrix sibling's alone", async () => {
    const t = await setup()
    const reporter = (sessionId: string) =>
      new GitHubReporter({
        octokit: t.octokit,
        token: TOKEN,
        context: context(),
        key: 'proctor/agent',
        sessionId,
        comment: 'off',
        checks: true,
        sanitizer,
        summaryPath: null,
        emit: () => {},
        hookInProgressAfterMs: 0,
      })
    await reporter('leg-a').hookStarted('tests')
    await reporter('leg-b').hookStarted('tests')
    // Both hooks run past the in_progress point (0 ms here), so each check run is created running.
    await vi.waitFor(() => expect(t.server.state.checkRunsNamed('proctor / tests')).toHaveLength(2), {
      timeout: 10_000,
    })
    expect(t.server.state.checkRunsNamed('proctor / tests').map((r) => r.status)).toEqual([
      'in_progress',
      'in_progress',
    ])

    const post = reporter('leg-a')
    expect(await post.adoptOpenChecks()).toEqual(['tests'])
    await post.finish(
      sessionReport({ status: 'interrupted', reason: 'the main step was killed', stop_hooks: [] }),
    )
    const [mine, sibling] = t.server.state.checkRunsNamed('proctor / tests')
    expect(mine).toMatchObject({ external_id: 'leg-a', status: 'completed', conclusion: 'cancelled' })
    expect(mine!.output.title).toBe('the main step was killed')
    expect(sibling).toMatchObject({ external_id: 'leg-b', status: 'in_progress', conclusion: null })
    expect(t.server.count('checks/list-for-ref')).toBe(1)
    expect(t.server.validationFailures).toEqual([])
  })
})

describe('aggregate: the batch comment and check', () => {
  const batch = (ok: boolean) =>
    aggregateReports('batch-1', [
      { source: 'a/report.json', report: sessionReport({ session_id: 'leg-a' }) },
      ok
        ? { source: 'b/report.json', report: sessionReport({ session_id: 'leg-b' }) }
        : { source: 'b/report.json', problem: 'malformed report: not JSON' },
    ])

  it('posts one sticky comment and one proctor / batch check; a second aggregate edits the same comment', async () => {
    const t = await setup()
    const publish = (ok: boolean) =>
      new BatchReporter({
        octokit: t.octokit,
        token: TOKEN,
        owner: 'acme',
        repo: 'widgets',
        prNumber: 5,
        headSha: HEAD,
        key: 'proctor/agent/batch',
        comment: 'sticky',
        checks: true,
        sanitizer,
        links,
        summaryPath: null,
      }).publish(batch(ok))
    const first = await publish(false)
    expect(first.checkConclusion).toBe('failure')
    expect(first.errors).toEqual([])
    const second = await publish(true)
    expect(second.checkConclusion).toBe('success')
    const comments = t.server.state.commentsOn(5)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body.split('\n')[0]).toBe('<!-- proctor:proctor/agent/batch -->')
    expect(second.commentUrl).toBe(first.commentUrl)
    expect(t.server.state.checkRunsNamed('proctor / batch').map((r) => r.conclusion)).toEqual([
      'failure',
      'success',
    ])
    expect(t.server.state.checkRunsNamed('proctor / batch')[0]!.output.title).toMatch(
      /^block: 2 sessions \(1 completed, 1 errored\)/,
    )
    expect(t.server.count('issues/create-comment')).toBe(1)
    expect(t.server.validationFailures).toEqual([])
  })
})

describe('aggregate: which pull request', () => {
  const workflowRun = (headSha: string): Partial<ActionsContext> => ({
    eventName: 'workflow_run',
    pr: null,
    workflowRun: { id: 77, headSha, headRepository: 'mallory/widgets', pullRequests: [] },
  })

  it('believes a report-claimed PR only when its head is the commit the triggering run built', async () => {
    const t = await setup({
      pulls: { 17: { headSha: HEAD, headRepo: 'mallory/widgets' }, 18: { headSha: 'c'.repeat(40) } },
    })
    const logs: string[] = []
    const resolve = (claimed: number[]) =>
      resolvePullRequest({
        octokit: t.octokit,
        context: context(workflowRun(HEAD)),
        claimed,
        log: (m) => logs.push(m),
      })
    expect(await resolve([17, 17])).toEqual({ number: 17, headSha: HEAD, source: 'report' })
    expect(await resolve([18])).toBeNull()
    expect(logs.at(-1)).toMatch(/#18, but its head .* is not the commit/)
    expect(await resolve([17, 18])).toBeNull()
    expect(await resolve([99])).toBeNull()
    expect(await resolve([])).toBeNull()
    // The event's own PR is trusted without a call.
    const before = t.server.calls.length
    expect(await resolvePullRequest({ octokit: t.octokit, context: context(), claimed: [18] })).toMatchObject(
      { number: 5, source: 'event' },
    )
    expect(t.server.calls.length).toBe(before)
    expect(t.server.validationFailures).toEqual([])
  })
})

describe('outage breaker', () => {
  it('after one request fails past its retries, later requests fail at once without reaching GitHub', async () => {
    const t = await setup(
      { faults: [{ kind: 'status', status: 502, times: 100 }] },
      { stopAfterOutage: true },
    )
    const get = () => t.octokit.rest.repos.get({ owner: 'acme', repo: 'widgets' })
    await expect(get()).rejects.toMatchObject({ status: 502 })
    const reached = t.server.calls.length
    expect(reached).toBe(4) // the request and its 3 retries
    await expect(get()).rejects.toMatchObject({ status: 503, name: 'GitHubUnavailableError' })
    expect(t.server.calls.length).toBe(reached)
    expect(t.logs.join('\n')).toContain('skipping further API calls')
  })

  it('is off unless asked for: a failure does not stop later requests', async () => {
    const t = await setup({ faults: [{ kind: 'status', status: 502, times: 4 }] })
    await expect(t.octokit.rest.repos.get({ owner: 'acme', repo: 'widgets' })).rejects.toMatchObject({
      status: 502,
    })
    await expect(t.octokit.rest.repos.get({ owner: 'acme', repo: 'widgets' })).resolves.toMatchObject({
      status: 200,
    })
  })
})

describe('a matrix of 10 legs + aggregate (github.publish: aggregate)', () => {
  const hooks = ['tests', 'lint']
  const result = (name: string, ok: boolean) => ({
    name,
    verdict: ok ? ('allow' as const) : ('block' as const),
    reason: ok ? null : `${name} failed`,
    exit_code: ok ? 0 : 1,
    duration_ms: 30,
    round: 1,
  })
  const legReport = (i: number) =>
    sessionReport({
      session_id: `leg-${i}`,
      ...(i === 7 ? { status: 'failed' as const, verdict: 'block' as const } : {}),
      // Leg 7's lint blocked: the one proctor / lint check must fail and name it.
      stop_hooks: hooks.map((h) => result(h, !(i === 7 && h === 'lint'))),
    })

  it('publishes once per run from the aggregate: the legs write nothing, the aggregate 5 writes', async () => {
    const t = await setup()
    const config = defaultConfig()
    config.github.publish = 'aggregate'
    // Ten legs ending together, each a whole session as src/action/run.ts reports it.
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const leg = new GitHubReporter({
          octokit: t.octokit,
          token: TOKEN,
          context: context(),
          key: `proctor/agent`,
          sessionId: `leg-${i}`,
          comment: config.github.comment,
          checks: config.github.checks,
          publish: config.github.publish,
          sanitizer,
          summaryPath: null,
          emit: () => {},
        })
        await leg.start(sessionReport({ checkpoints: [] }))
        for (const hook of hooks) await leg.hookStarted(hook)
        for (const hook of hooks)
          await leg.hookFinished(legReport(i).stop_hooks.find((r) => r.name === hook)!)
        await leg.finish(legReport(i))
      }),
    )
    expect(t.server.calls.filter((c) => c.method !== 'GET')).toEqual([])

    const children = Array.from({ length: 10 }, (_, i) => ({
      source: `leg-${i}/report.json`,
      report: legReport(i),
    }))
    const batch = aggregateReports('batch-1', children)
    const ctx = context()
    await new BatchReporter({
      octokit: t.octokit,
      token: TOKEN,
      owner: 'acme',
      repo: 'widgets',
      prNumber: 5,
      headSha: HEAD,
      key: 'proctor/agent/batch',
      comment: 'sticky',
      checks: true,
      sanitizer,
      links,
      summaryPath: null,
      sessionChecks: sessionChecks(config, ctx, children, batch),
    }).publish(batch)
    const writes = t.server.calls.filter((c) => c.method !== 'GET')
    // One comment, proctor / tests, proctor / lint, proctor / policy (10 violations: one request) and
    // proctor / batch: far under GitHub's 80 content-creating requests per minute, run after run.
    expect(writes.map((c) => c.operationId).sort()).toEqual([
      'checks/create',
      'checks/create',
      'checks/create',
      'checks/create',
      'issues/create-comment',
    ])
    const check = (name: string) => t.server!.state.checkRunsNamed(`proctor / ${name}`)
    expect(check('tests').map((r) => r.conclusion)).toEqual(['success'])
    expect(check('lint').map((r) => [r.conclusion, r.output.title])).toEqual([
      ['failure', expect.stringContaining('leg-7: lint failed')],
    ])
    expect(check('policy')[0]!.annotations).toHaveLength(10)
    expect(check('batch').map((r) => r.conclusion)).toEqual(['failure'])
    expect(t.server.validationFailures).toEqual([])
  })

  it('a leg whose report is lost fails every hook check; a workflow_run aggregate writes none from reports', async () => {
    await setup()
    const config = defaultConfig()
    config.github.publish = 'aggregate'
    const children = [
      { source: 'leg-0/report.json', report: legReport(0) },
      { source: 'leg-1/report.json', name: 'leg-1', problem: 'report file is missing' },
    ]
    const batch = aggregateReports('batch-1', children)
    expect(sessionChecks(config, context({ eventName: 'pull_request' }), children, batch)).toMatchObject({
      hooks: ['tests', 'lint'],
      lost: ['leg-1'],
    })
    expect(sessionChecks(config, context({ eventName: 'workflow_run' }), children, batch)).toBeNull()
    config.github.publish = 'each'
    expect(sessionChecks(config, context(), children, batch)).toBeNull()
  })
})
