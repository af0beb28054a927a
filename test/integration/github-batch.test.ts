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
