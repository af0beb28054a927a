// The GitHub sinks against the local GitHub API server (real HTTP, every request validated against
// GitHub's OpenAPI description). Writes are spaced a few ms apart here; one test proves the real 1 s
// spacing production keeps.
import { describe, it, expect, afterEach } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  startGitHubApiServer,
  type GitHubApiServer,
  type GitHubApiServerOptions,
} from '../servers/github-api.js'
import { createGitHubClient } from '../../src/github/client.js'
import { GitHubReporter, type GitHubReporterOptions, type ReporterError } from '../../src/github/reporter.js'
import { actorPermission, canTrigger } from '../../src/github/permissions.js'
import { linksFor, type ActionsContext } from '../../src/github/context.js'
import { renderSessionComment } from '../../src/report/markdown.js'
import { StickyComment } from '../../src/github/comment.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { sessionReport, violation } from '../unit/github-fixtures.js'

const TOKEN = 'ghs_' + 'R3p0rt3r'.repeat(5)
const HEAD = 'cafebabecafebabecafebabecafebabecafebabe'
const PR = 17

let server: GitHubApiServer | null = null
const dirs: string[] = []

afterEach(async () => {
  await server?.close()
  server = null
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function context(over: Partial<ActionsContext> = {}): ActionsContext {
  return {
    owner: 'acme',
    repo: 'widgets',
    serverUrl: 'https://github.com',
    apiUrl: server!.url,
    eventName: 'pull_request',
    sha: 'merge000merge000merge000merge000merge000',
    runId: '42',
    runAttempt: 1,
    job: 'build',
    workflow: 'ci',
    actor: 'alice',
    pr: { number: PR, headSha: HEAD, baseSha: null, headRef: 'feature', fork: false },
    commentAuthor: null,
    ...over,
  }
}

async function setup(
  opts: GitHubApiServerOptions = {},
  over: {
    token?: string
    editIntervalMs?: number
    retries?: number
    writeSpacingMs?: number
    requestTimeoutMs?: number
    hookInProgressAfterMs?: number
  } = {},
) {
  server = await startGitHubApiServer(opts)
  const logs: string[] = []
  const lines: string[] = []
  const errors: ReporterError[] = []
  const notes: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'proctor-gh-'))
  dirs.push(dir)
  const token = over.token ?? TOKEN
  const octokit = createGitHubClient({
    token,
    baseUrl: server.url,
    retryAfterBaseMs: 5,
    retries: over.retries ?? 3,
    writeSpacingMs: over.writeSpacingMs ?? 5,
    ...(over.requestTimeoutMs ? { requestTimeoutMs: over.requestTimeoutMs } : {}),
    log: (m) => logs.push(m),
  })
  const make = (
    key = 'ci/build',
    ctx: Partial<ActionsContext> = {},
    extra: Partial<GitHubReporterOptions> = {},
  ) =>
    new GitHubReporter({
      ...extra,
      octokit,
      token,
      context: context(ctx),
      key,
      comment: 'sticky',
      checks: true,
      sanitizer: createSanitizer({ secrets: [token] }),
      editIntervalMs: over.editIntervalMs ?? 60_000,
      ...(over.hookInProgressAfterMs !== undefined
        ? { hookInProgressAfterMs: over.hookInProgressAfterMs }
        : {}),
      summaryPath: join(dir, 'summary.md'),
      emit: (line) => lines.push(line),
      onError: (e) => errors.push(e),
      onNote: (m) => notes.push(m),
    })
  return { server, octokit, logs, lines, errors, notes, make, summaryPath: join(dir, 'summary.md') }
}

async function until(what: string, condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('sticky comment', () => {
  it('is created once the session has run an interval, edited in place, and ends with the final summary', async () => {
    const t = await setup({}, { editIntervalMs: 150 })
    const reporter = t.make()
    await reporter.start(sessionReport({ checkpoints: [], violations: [] }))
    expect(t.server.state.commentsOn(PR)).toEqual([])
    await until('the first progress comment', () => t.server!.count('issues/create-comment') === 1)
    const [comment] = t.server.state.commentsOn(PR)
    expect(comment!.body).toMatch(/^<!-- proctor:ci\/build -->\n### 🔄 proctor · running/)
    expect(comment!.body).toContain('- [ ] No checkpoint yet')
    await reporter.progress(sessionReport()) // inside the interval: deferred
    const result = await reporter.finish(sessionReport({ violations: [] }))
    const comments = t.server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toMatch(/^<!-- proctor:ci\/build -->\n### ✅ proctor · allow · completed/)
    expect(comments[0]!.body).not.toContain('**Progress**')
    expect(result.commentUrl).toBe(
      `https://github.com/acme/widgets/pull/${PR}#issuecomment-${comments[0]!.id}`,
    )
    expect(t.server.count('issues/create-comment')).toBe(1)
    expect(t.server.count('issues/update-comment')).toBe(1)
    expect(t.server.validationFailures).toEqual([])
    expect(t.errors).toEqual([])
  })

  it('a re-run finds the same comment (not a user quoting the marker) and never posts a second one', async () => {
    const t = await setup()
    t.server.state.addComment(PR, '<!-- proctor:ci/build -->\nfake from a user', { login: 'mallory' })
    await t.make().finish(sessionReport({ status: 'failed', verdict: 'block' }))
    const ours = t.server.state.commentsOn(PR).filter((c) => c.user.login === 'github-actions[bot]')
    expect(ours).toHaveLength(1)
    // Re-run of the job: a fresh reporter with the same key.
    await t.make().finish(sessionReport())
    const after = t.server.state.commentsOn(PR)
    expect(after).toHaveLength(2)
    expect(after[0]!.body).toBe('<!-- proctor:ci/build -->\nfake from a user')
    expect(after[1]!.body).toContain('proctor · allow · completed')
    expect(t.server.count('issues/create-comment')).toBe(1)
    // A different key is a different comment.
    await t.make('ci/other').finish(sessionReport())
    expect(t.server.state.commentsOn(PR)).toHaveLength(3)
    expect(t.server.validationFailures).toEqual([])
  })

  it('with a user token, matches comments by the login from GET /user', async () => {
    const t = await setup({}, { token: 'ghp_' + 'u'.repeat(36) })
    t.server.state.addComment(PR, '<!-- proctor:ci/build -->\nold run', { login: 'octocat' })
    t.server.state.addComment(PR, '<!-- proctor:ci/build -->\nsome bot', { login: 'other[bot]', type: 'Bot' })
    await t.make().finish(sessionReport({ checkpoints: [], violations: [] }))
    const comments = t.server.state.commentsOn(PR)
    expect(comments).toHaveLength(2)
    expect(comments[0]!.body).toContain('proctor · allow')
    expect(comments[1]!.body).toBe('<!-- proctor:ci/build -->\nsome bot')
    expect(t.server.count('users/get-authenticated')).toBe(1)
  })

  it('finds its comment on a later page of a long conversation', async () => {
    const t = await setup()
    for (let i = 0; i < 150; i++) t.server.state.addComment(PR, `chatter ${i}`, { login: 'someone' })
    t.server.state.addComment(PR, '<!-- proctor:ci/build -->\nprevious run', {
      login: 'github-actions[bot]',
      type: 'Bot',
    })
    await t.make().finish(sessionReport())
    expect(t.server.state.commentsOn(PR)).toHaveLength(151)
    expect(t.server.count('issues/list-comments')).toBe(2)
    expect(t.server.count('issues/create-comment')).toBe(0)
  })

  it('throttles progress edits: many updates inside the interval become one deferred edit with the latest body', async () => {
    const t = await setup({}, { editIntervalMs: 1500 })
    const reporter = t.make()
    await reporter.start(sessionReport({ checkpoints: [] }))
    for (let i = 1; i <= 20; i++) {
      await reporter.progress(sessionReport({ events: [], duration_ms: i * 1000 }))
    }
    expect(t.server.count('issues/create-comment')).toBe(0)
    await until('the deferred edit', () => t.server!.count('issues/create-comment') === 1)
    expect(t.server.state.commentsOn(PR)[0]!.body).toContain('proctor · running · 20s')
    await reporter.finish(sessionReport())
    expect(t.server.count('issues/update-comment')).toBe(1)
    expect(t.server.count('issues/create-comment')).toBe(1)
  })

  it('retries with a shorter body when GitHub answers 422 "Body is too long"', async () => {
    const t = await setup({ faults: [{ kind: 'body-too-long', operationId: 'issues/create-comment' }] })
    await t.make().finish(sessionReport({ output_tail: 'log line\n'.repeat(20_000) }))
    const calls = t.server.calls.filter((c) => c.operationId === 'issues/create-comment')
    expect(calls.map((c) => c.status)).toEqual([422, 201])
    const [first, second] = calls.map((c) => (c.body as { body: string }).body.length)
    expect(second!).toBeLessThan(first! / 1.5)
    expect(t.server.state.commentsOn(PR)).toHaveLength(1)
    expect(t.errors).toEqual([])
  })

  it('posts a fresh comment when its old one was deleted between runs', async () => {
    const t = await setup()
    const sticky = new StickyComment({
      octokit: t.octokit,
      owner: 'acme',
      repo: 'widgets',
      issueNumber: PR,
      key: 'k',
      mode: 'sticky',
      token: TOKEN,
    })
    await sticky.publish(() => '<!-- proctor:k -->\none', { final: true })
    t.server.state.comments.clear()
    await sticky.publish(() => '<!-- proctor:k -->\ntwo', { final: true })
    expect(t.server.state.commentsOn(PR).map((c) => c.body)).toEqual(['<!-- proctor:k -->\ntwo'])
  })
})

describe('check runs', () => {
  it('creates proctor / <hook> in progress once it runs a while, completes it with the verdict, and annotates 120 violations in 3 requests', async () => {
    const t = await setup({}, { hookInProgressAfterMs: 50 })
    const reporter = t.make()
    await reporter.start(sessionReport())
    await reporter.hookStarted('tests')
    expect(t.server.state.checkRunsNamed('proctor / tests')).toEqual([])
    await until('the running check', () => t.server!.state.checkRunsNamed('proctor / tests').length === 1)
    const [run] = t.server.state.checkRunsNamed('proctor / tests')
    expect(run).toMatchObject({ status: 'in_progress', head_sha: HEAD, conclusion: null })
    await reporter.hookFinished({
      name: 'tests',
      verdict: 'block',
      reason: `2 tests failed\n@octocat ${TOKEN}`,
      exit_code: 2,
      duration_ms: 5000,
      round: 1,
    })
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(run!.output.title).toBe('blocked: 2 tests failed')
    expect(run!.output.text).toContain('2 tests failed')
    expect(run!.output.text).not.toContain(TOKEN)

    const violations = Array.from({ length: 120 }, (_, i) =>
      violation(i, { severity: (['info', 'warning', 'error', 'critical'] as const)[i % 4] }),
    )
    await reporter.finish(sessionReport({ violations }))
    const [policy] = t.server.state.checkRunsNamed('proctor / policy')
    expect(policy).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(policy!.annotations).toHaveLength(120)
    expect(policy!.annotations.slice(0, 4).map((a) => a.annotation_level)).toEqual([
      'notice',
      'warning',
      'failure',
      'failure',
    ])
    expect(policy!.updates).toHaveLength(2)
    expect(t.server.count('checks/create')).toBe(2)
    expect(t.server.count('checks/update')).toBe(3)
    expect(t.server.validationFailures).toEqual([])
  })

  it('fails the checks of hook errors and timeouts, keeps advisory hooks neutral, cancels interrupted ones', async () => {
    const t = await setup()
    const reporter = t.make()
    await reporter.hookStarted('lint')
    await reporter.hookStarted('types')
    await reporter.hookStarted('e2e')
    await reporter.hookStarted('coverage')
    await reporter.hookFinished({
      name: 'lint',
      verdict: 'error',
      reason: 'crashed',
      exit_code: 1,
      duration_ms: 10,
      round: 1,
    })
    await reporter.hookFinished({
      name: 'types',
      verdict: 'error',
      reason: null,
      exit_code: null,
      duration_ms: 10,
      round: 1,
      timed_out: true,
    })
    await reporter.hookFinished({
      name: 'coverage',
      verdict: 'error',
      reason: 'coverage (npm run cov) exited 1: 71% < 80%',
      exit_code: 1,
      duration_ms: 10,
      round: 1,
      advisory: true,
    })
    await reporter.finish(
      sessionReport({ status: 'interrupted', verdict: 'block', reason: 'SIGINT', violations: [] }),
    )
    const conclusion = (name: string) => t.server!.state.checkRunsNamed(`proctor / ${name}`)[0]?.conclusion
    expect([
      conclusion('lint'),
      conclusion('types'),
      conclusion('coverage'),
      conclusion('e2e'),
      conclusion('policy'),
    ]).toEqual(['failure', 'failure', 'neutral', 'cancelled', 'success'])
  })

  it('a hook that ends before its in_progress point is one completed create; one still running when the session is interrupted is cancelled, never doubled', async () => {
    const t = await setup({}, { hookInProgressAfterMs: 100 })
    const reporter = t.make()
    await reporter.hookStarted('lint')
    await reporter.hookStarted('e2e')
    await reporter.hookFinished({
      name: 'lint',
      verdict: 'allow',
      reason: null,
      exit_code: 0,
      duration_ms: 5,
      round: 1,
    })
    await until('e2e running', () => t.server!.state.checkRunsNamed('proctor / e2e').length === 1)
    await reporter.finish(
      sessionReport({ status: 'interrupted', verdict: 'block', reason: 'SIGINT', violations: [] }),
    )
    const runs = (name: string) =>
      t.server!.state.checkRunsNamed(`proctor / ${name}`).map((r) => [r.status, r.conclusion])
    expect(runs('lint')).toEqual([['completed', 'success']])
    expect(runs('e2e')).toEqual([['completed', 'cancelled']])
    // lint: 1 create; e2e: create in_progress + update; policy: 1 create.
    expect([t.server.count('checks/create'), t.server.count('checks/update')]).toEqual([3, 1])
    expect(t.server.validationFailures).toEqual([])
  })

  it('annotates at most 500 violations, the most severe, in 10 requests; the summary says how many more', async () => {
    const t = await setup()
    const violations = Array.from({ length: 1_200 }, (_, i) =>
      violation(i, { severity: i === 1_199 ? 'critical' : 'info' }),
    )
    await t.make().finish(sessionReport({ violations }))
    const [policy] = t.server.state.checkRunsNamed('proctor / policy')
    expect(policy!.annotations).toHaveLength(500)
    expect(policy!.annotations[0]).toMatchObject({
      path: 'src/generated/file-1199.ts',
      annotation_level: 'failure',
    })
    expect(policy!.output.summary).toContain(
      '700 more violations are not annotated here (the 500 most severe are)',
    )
    expect([t.server.count('checks/create'), t.server.count('checks/update')]).toEqual([1, 9])
    expect(t.server.validationFailures).toEqual([])
  })

  it('falls back to escaped workflow annotations when the token cannot write check runs (403)', async () => {
    const t = await setup({}, { token: 'ghp_' + 'r'.repeat(36) })
    const reporter = t.make()
    await reporter.hookStarted('tests')
    await reporter.hookFinished({
      name: 'tests',
      verdict: 'block',
      reason: 'fail: a,b\n::set-output name=x::y',
      exit_code: 2,
      duration_ms: 1,
      round: 1,
    })
    const result = await reporter.finish(
      sessionReport({
        violations: [
          violation(3, { file: 'src/a,b:c.ts' }),
          violation(3, { file: 'test/a.test.ts', constraint: 'tests_weakened', line: 7 }),
        ],
      }),
    )
    expect(result.checksFallback).toMatch(/HTTP 403: Resource not accessible by integration/)
    expect(t.server.count('checks/create')).toBe(1) // tried once, then stopped trying
    expect(t.lines[0]).toMatch(
      /^::warning title=proctor%3A check runs unavailable::proctor cannot write check runs \(HTTP 403/,
    )
    expect(t.lines).toContain(
      '::error title=proctor / tests::blocked: fail: a,b%0A:\u200b:set-output name=x::y',
    )
    expect(
      t.lines.some((l) =>
        l.startsWith(
          '::error title=proctor / policy%3A forbidden_area (error) · checkpoint 1,file=src/a%2Cb%3Ac.ts,line=1::',
        ),
      ),
    ).toBe(true)
    // A violation about one line (a skip tests_weakened found) is annotated on that line.
    expect(
      t.lines.some((l) =>
        l.startsWith(
          '::error title=proctor / policy%3A tests_weakened (error) · checkpoint 1,file=test/a.test.ts,line=7::',
        ),
      ),
    ).toBe(true)
    expect(result.errors).toEqual([])
  })
})

describe('resilience', () => {
  it('retries 500/502, a reset connection and a secondary rate limit (honouring retry-after)', async () => {
    const t = await setup({
      faults: [
        { kind: 'status', status: 500, operationId: 'issues/list-comments' },
        { kind: 'reset', operationId: 'issues/create-comment' },
        { kind: 'status', status: 502, operationId: 'issues/create-comment' },
        { kind: 'secondary-rate-limit', retryAfter: 2, operationId: 'checks/create' },
      ],
    })
    const result = await t.make().finish(sessionReport())
    expect(result.errors).toEqual([])
    expect(t.server.state.commentsOn(PR)).toHaveLength(1)
    expect(t.server.state.checkRunsNamed('proctor / policy')).toHaveLength(1)
    const statuses = (op: string) => t.server!.calls.filter((c) => c.operationId === op).map((c) => c.status)
    // After each failed create, proctor looks for the comment before sending again (it was not there).
    expect(statuses('issues/list-comments')).toEqual([500, 200, 200, 200])
    expect(statuses('issues/create-comment')).toEqual([0, 502, 201])
    expect(statuses('checks/create')).toEqual([403, 201])
    expect(t.logs.join('\n')).toMatch(/secondary rate limit on POST .*check-runs: retrying after 2s/)
  })

  it('a create GitHub applied but whose answer was lost is found, not sent again: one check run, one comment', async () => {
    const t = await setup({
      faults: [
        { kind: 'lost-answer', operationId: 'issues/create-comment' },
        { kind: 'lost-answer', operationId: 'checks/create', times: 2 },
      ],
    })
    const reporter = t.make('ci/build', {}, { sessionId: 'session-lost' })
    const round = (r: number, verdict: 'allow' | 'block') => ({
      name: 'tests',
      verdict,
      reason: verdict === 'block' ? 'red' : null,
      exit_code: verdict === 'block' ? 1 : 0,
      duration_ms: 5,
      round: r,
    })
    await reporter.start(sessionReport())
    await reporter.hookStarted('tests')
    await reporter.hookFinished(round(1, 'block'))
    // Round 2's lost create must adopt round 2's run, not round 1's (same name, same session).
    await reporter.hookStarted('tests')
    await reporter.hookFinished(round(2, 'allow'))
    const result = await reporter.finish(
      sessionReport({ stop_hooks: [round(1, 'block'), round(2, 'allow')] }),
    )
    expect(result.errors).toEqual([])
    expect(t.server.state.commentsOn(PR)).toHaveLength(1)
    const tests = t.server.state.checkRunsNamed('proctor / tests')
    expect(tests.map((r) => [r.status, r.conclusion])).toEqual([
      ['completed', 'failure'],
      ['completed', 'success'],
    ])
    expect(t.server.state.checkRunsNamed('proctor / policy')).toHaveLength(1)
    const statuses = (op: string) => t.server!.calls.filter((c) => c.operationId === op).map((c) => c.status)
    expect(statuses('issues/create-comment')).toEqual([0])
    expect(statuses('checks/create')).toEqual([0, 0, 201])
  })

  it('GitHub down: errors reach onError, nothing throws, the job summary is still written', async () => {
    const t = await setup({ faults: [{ kind: 'status', status: 503, times: Infinity }] }, { retries: 1 })
    const reporter = t.make()
    await reporter.start(sessionReport())
    await reporter.hookStarted('tests')
    await reporter.hookFinished({
      name: 'tests',
      verdict: 'allow',
      reason: null,
      exit_code: 0,
      duration_ms: 1,
      round: 1,
    })
    const result = await reporter.finish(sessionReport({ violations: [] }))
    expect(result.commentUrl).toBeNull()
    expect(result.errors.length).toBeGreaterThanOrEqual(3)
    expect(t.errors).toEqual(result.errors)
    expect(result.errors.every((e) => e.status === 503)).toBe(true)
    expect(readFileSync(t.summaryPath, 'utf8')).toMatch(/^### ✅ proctor · allow · completed/)
    expect(result.summary?.written).toBe(true)
  })

  it('a whole session stays within the API call budget (docs/github.md)', async () => {
    const t = await setup({}, { editIntervalMs: 60_000 })
    const reporter = t.make()
    await reporter.start(sessionReport({ checkpoints: [] }))
    for (let i = 0; i < 10; i++) await reporter.progress(sessionReport())
    for (const hook of ['tests', 'lint']) {
      await reporter.hookStarted(hook)
      await reporter.hookFinished({
        name: hook,
        verdict: 'allow',
        reason: null,
        exit_code: 0,
        duration_ms: 1,
        round: 1,
      })
    }
    const violations = Array.from({ length: 120 }, (_, i) => violation(i))
    const result = await reporter.finish(sessionReport({ violations }))
    // Comment: 1 lookup page + 1 create, final (no progress render waited out the 60 s interval).
    expect(t.server.count('issues/create-comment')).toBe(1)
    expect(t.server.count('issues/update-comment')).toBe(0)
    // Check runs: 1 per hook that ended before its in_progress point, and 1 + 1 per further 50
    // annotations for the policy check.
    expect(t.server.count('checks/create') + t.server.count('checks/update')).toBe(2 + 1 + 2)
    expect(result.calls).toBe(t.server.count())
    expect(reporter.calls).toEqual({
      // The job's page for the header (this run's job list is unknown to the server: the run's page).
      'actions.listJobsForWorkflowRunAttempt': 1,
      'issues.listComments': 1,
      'issues.createComment': 1,
      'checks.create': 3,
      'checks.update': 2,
    })
  })

  it('a short one-job session with 2 hooks makes 4 writes, each at least 1 s after the last', async () => {
    server = await startGitHubApiServer()
    // Production's client: writes 1 s apart (comments 3 s), the default progress and in_progress points.
    const octokit = createGitHubClient({ token: TOKEN, baseUrl: server.url, retryAfterBaseMs: 5 })
    const reporter = new GitHubReporter({
      octokit,
      token: TOKEN,
      context: context(),
      key: 'ci/build',
      sessionId: 'gh-42-1-build',
      comment: 'sticky',
      checks: true,
      sanitizer: createSanitizer({ secrets: [TOKEN] }),
      summaryPath: null,
    })
    const started = Date.now()
    // What src/action/run.ts hears from a session whose agent and hooks end within a second.
    void reporter.start(sessionReport({ checkpoints: [] }))
    void reporter.progress(sessionReport())
    for (const hook of ['tests', 'lint']) void reporter.hookStarted(hook)
    for (const hook of ['tests', 'lint'])
      void reporter.hookFinished({
        name: hook,
        verdict: 'allow',
        reason: null,
        exit_code: 0,
        duration_ms: 40,
        round: 1,
      })
    void reporter.progress(sessionReport())
    await reporter.finish(sessionReport({ violations: [] }))
    const elapsed = Date.now() - started
    const writes = server.calls.filter((c) => c.method !== 'GET')
    // Two hook checks created completed, the policy check, the comment created once with the final render.
    expect(writes.map((c) => c.operationId)).toEqual([
      'checks/create',
      'checks/create',
      'checks/create',
      'issues/create-comment',
    ])
    expect(server.state.commentsOn(PR)[0]!.body.split('\n')[1]).toMatch(/^### ✅ proctor · allow/)
    expect([...server.state.checkRuns.values()].map((r) => [r.name, r.status, r.conclusion])).toEqual([
      ['proctor / tests', 'completed', 'success'],
      ['proctor / lint', 'completed', 'success'],
      ['proctor / policy', 'completed', 'success'],
    ])
    // GitHub's spacing between writes is kept, so fewer writes is how the step ends sooner. Sent 1 s
    // apart; arrival times jitter by the time a request takes to reach the server (up to ~100 ms on a
    // busy machine), so each gap is read with 200 ms of slack and the whole span with 150.
    for (let i = 1; i < writes.length; i++)
      expect(writes[i]!.at - writes[i - 1]!.at).toBeGreaterThanOrEqual(800)
    expect(writes.at(-1)!.at - writes[0]!.at).toBeGreaterThanOrEqual((writes.length - 1) * 1000 - 150)
    expect(elapsed).toBeLessThan(writes.length * 1000 + 1500)
    expect(server.validationFailures).toEqual([])
  })
})

describe('permissions and modes', () => {
  it('tells writers from readers before a comment-triggered run starts', async () => {
    const t = await setup({
      collaborators: { alice: 'admin', bob: 'maintain', carol: 'triage', dave: 'read' },
    })
    const levels = await Promise.all(
      ['alice', 'bob', 'carol', 'dave', 'eve'].map((u) => actorPermission(t.octokit, 'acme', 'widgets', u)),
    )
    expect(levels).toEqual(['admin', 'maintain', 'triage', 'read', 'none'])
    expect(levels.map(canTrigger)).toEqual([true, true, false, false, false])
    expect(t.server.validationFailures).toEqual([])
  })

  it('comment mode "new" posts a fresh comment per run; "off" and fork PRs make no comment calls', async () => {
    const t = await setup()
    const make = (over: Partial<GitHubReporterOptions>) =>
      new GitHubReporter({
        octokit: t.octokit,
        token: TOKEN,
        context: context(),
        key: 'k',
        comment: 'new',
        checks: false,
        sanitizer: createSanitizer({ secrets: [TOKEN] }),
        summaryPath: null,
        ...over,
      })
    await make({}).finish(sessionReport())
    await make({}).finish(sessionReport())
    expect(t.server.state.commentsOn(PR)).toHaveLength(2)
    expect(t.server.count('issues/list-comments')).toBe(0)
    const before = t.server.count()
    await make({ comment: 'off' }).finish(sessionReport())
    const lines: string[] = []
    const fork = make({
      comment: 'sticky',
      checks: true,
      context: context({ pr: { number: PR, headSha: HEAD, baseSha: null, headRef: 'f', fork: true } }),
      emit: (l) => lines.push(l),
    })
    await fork.hookFinished({
      name: 'tests',
      verdict: 'block',
      reason: 'nope',
      exit_code: 2,
      duration_ms: 1,
      round: 1,
    })
    const result = await fork.finish(sessionReport())
    expect(t.server.count()).toBe(before)
    expect(result.checksFallback).toMatch(/fork pull request/)
    expect(lines).toContain('::error title=proctor / tests::blocked: nope')
  })
})

describe('ordered, final-wins publishing', () => {
  const blocked = (round: number) => ({
    name: 'tests',
    verdict: 'block' as const,
    reason: '2 tests failed',
    exit_code: 1,
    duration_ms: 900,
    round,
  })
  const finalReport = () =>
    sessionReport({
      status: 'completed',
      verdict: 'block',
      reason: 'tests: 2 tests failed',
      stop_hooks: [blocked(1), blocked(2)],
      rounds: 2,
    })

  /** A session sent back once, whose last hook events are still in flight when the session ends. */
  async function raceToTheEnd(reporter: GitHubReporter) {
    await reporter.start(sessionReport({ checkpoints: [] }))
    await reporter.hookStarted('tests')
    await reporter.hookFinished(blocked(1))
    const late = [
      reporter.hookStarted('tests'),
      reporter.progress(sessionReport({ duration_ms: 200_000 })),
      reporter.hookFinished(blocked(2)),
      reporter.progress(sessionReport({ duration_ms: 201_000 })),
    ]
    const finished = reporter.finish(finalReport())
    await Promise.all([...late, finished])
    return finished
  }

  it('the comment ends with the final render although progress edits race with it', async () => {
    const t = await setup({}, { editIntervalMs: 0 })
    await raceToTheEnd(t.make())
    const [comment] = t.server.state.commentsOn(PR)
    // Byte for byte the final render: the final report, its links and each check's latest run on GitHub.
    const latest = new Map([...t.server.state.checkRuns.values()].map((r) => [r.name, r.id]))
    const checkRuns = [...latest].map(([name, id]) => ({
      name,
      url: `https://github.com/acme/widgets/runs/${id}`,
    }))
    expect(comment!.body).toBe(
      renderSessionComment(finalReport(), {
        key: 'ci/build',
        links: linksFor(context()),
        sanitizer: createSanitizer({ secrets: [TOKEN] }),
        checkRuns,
      }),
    )
    expect(comment!.body.split('\n')[1]).toBe('### ❌ proctor · block · completed · 3m12s')
    expect(comment!.body).not.toContain('🔄')
    // Nothing written after the final render.
    const edits = t.server.calls.filter((c) => c.operationId === 'issues/update-comment')
    expect((edits.at(-1)!.body as { body: string }).body).toBe(comment!.body)
    // The hook that started late was completed, and no check run is left open.
    expect([...t.server.state.checkRuns.values()].filter((r) => r.status !== 'completed')).toEqual([])
    expect(t.server.validationFailures).toEqual([])
  })

  it('a deferred progress edit never fires after the final render', async () => {
    const t = await setup({}, { editIntervalMs: 150 })
    const reporter = t.make()
    await reporter.start(sessionReport({ checkpoints: [] }))
    await reporter.progress(sessionReport({ duration_ms: 5_000 })) // deferred by the throttle
    await reporter.finish(finalReport())
    await reporter.progress(sessionReport({ duration_ms: 6_000 })) // a straggler after the end
    const before = t.server.count('issues/update-comment')
    // Outlive the throttle interval: a timer left behind would fire here.
    await new Promise((r) => setTimeout(r, 400))
    expect(t.server.count('issues/update-comment')).toBe(before)
    expect(t.server.state.commentsOn(PR)[0]!.body.split('\n')[1]).toMatch(/^### ❌ proctor · block/)
  })

  it('on a re-run, the new final state wins over the old comment and over its own progress', async () => {
    const t = await setup({}, { editIntervalMs: 0 })
    await t.make().finish(sessionReport())
    await raceToTheEnd(t.make())
    const comments = t.server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body.split('\n')[1]).toBe('### ❌ proctor · block · completed · 3m12s')
  })
})

describe('write spacing', () => {
  it('production keeps mutations 1 s apart (Octokit throttling defaults)', async () => {
    server = await startGitHubApiServer()
    const octokit = createGitHubClient({ token: TOKEN, baseUrl: server.url })
    const started = Date.now()
    for (let i = 0; i < 2; i++)
      await octokit.rest.checks.create({ owner: 'acme', repo: 'widgets', name: `c${i}`, head_sha: HEAD })
    // The second write may start no sooner than 1 s after the first one started.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
  })
})

describe('nothing waits without a limit', () => {
  it('a server that accepts the request and never answers costs one timeout per attempt', async () => {
    const t = await setup(
      { faults: [{ kind: 'hang', operationId: 'issues/list-comments', times: Infinity }] },
      { retries: 1, requestTimeoutMs: 300 },
    )
    const started = Date.now()
    const result = await t.make().finish(sessionReport())
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(result.errors.find((e) => e.operation === 'comment')?.message).toMatch(
      /no answer from GitHub within 300 ms/,
    )
    expect(t.server.calls.filter((c) => c.operationId === 'issues/list-comments')).toHaveLength(2)
    // The rest of reporting still happened.
    expect(t.server.state.checkRunsNamed('proctor / policy')).toHaveLength(1)
    expect(readFileSync(t.summaryPath, 'utf8')).toMatch(/^### /)
  })
})

describe("the reviewer's comment", () => {
  /** This run's jobs: ours on runner 7; a matrix sibling of the same name on runner 8; a finished one on 7. */
  const jobs = [
    { id: 9001, runId: 42, name: 'build', runnerName: 'GitHub Actions 7', status: 'completed' as const },
    { id: 9002, runId: 42, name: 'build', runnerName: 'GitHub Actions 8' },
    { id: 9003, runId: 42, name: 'build', runnerName: 'GitHub Actions 7' },
    { id: 9004, runId: 42, attempt: 2, name: 'build', runnerName: 'GitHub Actions 7' },
  ]

  async function session(reporter: GitHubReporter) {
    await reporter.start(sessionReport({ checkpoints: [] }))
    await reporter.hookStarted('tests')
    await reporter.hookFinished({
      name: 'tests',
      verdict: 'allow',
      reason: null,
      exit_code: 0,
      duration_ms: 1,
      round: 1,
    })
    return reporter.finish(sessionReport())
  }

  it('links the job, every check run GitHub created, and the checkpoint branch', async () => {
    const t = await setup({ jobs })
    const result = await session(t.make('ci/build', { runnerName: 'GitHub Actions 7' }))
    const body = t.server.state.commentsOn(PR)[0]!.body
    const run = (name: string) => t.server!.state.checkRunsNamed(name)[0]!.id
    const header = body.split('\n')[2]!
    // The job in progress on this runner, in this attempt: its own page (the log), not the run's.
    expect(header).toMatch(
      /^<sub>\[job\]\(<https:\/\/github\.com\/acme\/widgets\/actions\/runs\/42\/job\/9003>\) · /,
    )
    expect(header).toContain(
      `checks: [\`proctor / tests\`](<https://github.com/acme/widgets/runs/${run('proctor / tests')}>), ` +
        `[\`proctor / policy\`](<https://github.com/acme/widgets/runs/${run('proctor / policy')}>)`,
    )
    // The PR's head branch is the base a reviewer compares the checkpoint branch with.
    expect(header).toContain(
      'branch [`proctor/gh-42-1-build`](<https://github.com/acme/widgets/tree/proctor/gh-42-1-build>) (' +
        '[compare](<https://github.com/acme/widgets/compare/feature...proctor/gh-42-1-build>) · ' +
        '[Create PR](<https://github.com/acme/widgets/compare/feature...proctor/gh-42-1-build?expand=1>))',
    )
    // The job summary carries the same links (the policy check exists only after the first write).
    const summary = readFileSync(t.summaryPath, 'utf8')
    expect(summary.split('\n')[1]).toBe(header.replace(/<br>$/, '') + '<br>')
    expect(summary.match(/^### /gm)).toHaveLength(1)
    expect(t.server.count('actions/list-jobs-for-workflow-run-attempt')).toBe(1)
    expect(result.errors).toEqual([])
    expect(t.server.validationFailures).toEqual([])
  })

  it('links the workflow run, without failing, when the token may not list the jobs (no actions: read)', async () => {
    const token = 'ghs_' + 'N0Act10ns'.repeat(5)
    const t = await setup(
      { jobs, tokens: { [token]: { login: 'github-actions[bot]', type: 'Bot', actionsRead: false } } },
      { token },
    )
    const result = await session(t.make('ci/build', { runnerName: 'GitHub Actions 7' }))
    const header = t.server.state.commentsOn(PR)[0]!.body.split('\n')[2]!
    expect(header).toMatch(
      /^<sub>\[workflow run\]\(<https:\/\/github\.com\/acme\/widgets\/actions\/runs\/42>\) · checks: /,
    )
    expect(
      t.server.calls.find((c) => c.operationId === 'actions/list-jobs-for-workflow-run-attempt')?.status,
    ).toBe(403)
    expect(result.errors).toEqual([])
    expect(t.errors).toEqual([])
    expect(t.notes).toEqual([expect.stringMatching(/workflow run, not the job: .*needs `actions: read`/)])
    expect(t.server.validationFailures).toEqual([])
  })

  it('never links a job it is not sure of: two jobs in progress on no known runner', async () => {
    const t = await setup({ jobs })
    await session(t.make('ci/build', { runnerName: null }))
    const header = t.server.state.commentsOn(PR)[0]!.body.split('\n')[2]!
    expect(header).toMatch(
      /^<sub>\[workflow run\]\(<https:\/\/github\.com\/acme\/widgets\/actions\/runs\/42>\)/,
    )
    expect(t.notes).toEqual([
      expect.stringMatching(/no single job of run 42 in progress matches this runner/),
    ])
  })
})
