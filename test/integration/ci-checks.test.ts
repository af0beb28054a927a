// The built-in `ci-checks` stop hook through a real session: the agent's checkpoint is pushed over smart
// HTTP (git http-backend on loopback) by the session's push queue, and the repository's "CI" — the local
// GitHub API server, validated against GitHub's OpenAPI description — reports on the pushed commit.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { createGitHubClient } from '../../src/github/client.js'
import { runStopHooks } from '../../src/hooks/stop-hooks.js'
import { runSession } from '../../src/session/session.js'
import { cloneRepo, makeTempRepo, tempDir } from '../helpers/git-repo.js'
import { startGitHttpServer } from '../servers/git-http.js'
import { startGitHubApiServer, type GitHubApiServerOptions } from '../servers/github-api.js'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TOKEN = 'ghs_' + 'CiChecksT0ken'.repeat(3)

/** A served bare repo seeded with one commit, a clone whose origin is its HTTP URL, and the GitHub API. */
async function setup(api: Omit<GitHubApiServerOptions, 'ci'>, ci: (app: string, sha: string) => void) {
  const projectRoot = tempDir('proctor-ci-')
  cleanups.push(() => fs.rmSync(projectRoot, { recursive: true, force: true }))
  const git = await startGitHttpServer({ projectRoot })
  cleanups.push(() => git.close())
  const bare = git.createRepo('origin.git')
  const seed = makeTempRepo({ files: { 'app.txt': 'start\n' } })
  cleanups.push(seed.cleanup)
  seed.git(['push', '-q', bare, 'main'])
  const work = cloneRepo(`file://${bare}`)
  cleanups.push(work.cleanup)
  work.git(['remote', 'set-url', 'origin', git.repoUrl('origin.git')])
  // The repository's CI: runs once per commit it is asked about, on what the push delivered to the remote.
  const ran = new Set<string>()
  const server = await startGitHubApiServer({
    ...api,
    ci: (sha) => {
      if (ran.has(sha)) return
      let app: string
      try {
        app = execFileSync('git', ['show', `${sha}:app.txt`], { cwd: bare, encoding: 'utf8' })
      } catch {
        return // not pushed (yet): GitHub has no CI for a commit it does not have
      }
      ran.add(sha)
      ci(app, sha)
    },
  })
  cleanups.push(() => server.close())
  const octokit = createGitHubClient({ token: TOKEN, baseUrl: server.url, retryAfterBaseMs: 1, retries: 2 })
  const branchTip = () =>
    execFileSync('git', ['rev-parse', '--verify', '-q', 'refs/heads/proctor/ci-1'], {
      cwd: bare,
      encoding: 'utf8',
    }).trim()
  return { work, server, octokit, branchTip, ran }
}

/** A session whose agent writes `first` to app.txt and, sent back, writes `fixed` and keeps the reason. */
function session(
  s: Awaited<ReturnType<typeof setup>>,
  o: {
    first: string
    timeout?: string
    with?: Record<string, unknown>
    signal?: AbortSignal
    /** More the agent does in its first run, and what it does when sent back (default: writes `fixed`). */
    alsoFirst?: string
    fix?: string
  },
) {
  const reasons = path.join(tempDir('proctor-ci-reason-'), 'reasons.txt')
  cleanups.push(() => fs.rmSync(path.dirname(reasons), { recursive: true, force: true }))
  const config = configSchema.parse({
    agent: {
      pty: false,
      continue: [
        '/bin/sh',
        '-c',
        `printf "%s\\n---\\n" "$1" >> "$2"; ${o.fix ?? 'printf "fixed\\n" > app.txt'}`,
        'sh',
        '{reason}',
        reasons,
      ],
    },
    checkpoints: { enabled: true, push: 'always', branch: 'proctor/{session}' },
    stop_hooks: [
      {
        name: 'ci',
        uses: 'ci-checks',
        timeout: o.timeout ?? '20s',
        with: { poll_interval: '1s', ...o.with },
      },
    ],
    max_stop_rounds: 2,
  })
  return {
    reasons: () => (fs.existsSync(reasons) ? fs.readFileSync(reasons, 'utf8') : ''),
    run: () =>
      runSession({
        config,
        command: { shell: `printf '%s\\n' '${o.first}' > app.txt${o.alsoFirst ? `; ${o.alsoFirst}` : ''}` },
        cwd: s.work.dir,
        sessionId: 'ci-1',
        output: null,
        input: null,
        installSignalHandlers: false,
        env: { ...process.env, ...s.work.env, CI: 'true' },
        github: { octokit: s.octokit, owner: 'acme', repo: 'widgets', branch: null },
        ...(o.signal ? { signal: o.signal } : {}),
      }),
  }
}

describe('ci-checks stop hook', () => {
  it('sends a failing required check back with its name, annotation and log tail; passes once it is green', async () => {
    const s = await setup(
      // `proctor / tests` is required too, but it is proctor's own check: never waited for.
      { branches: { main: { requiredChecks: ['build', 'lint', 'proctor / tests'] } } },
      (app, sha) => {
        const broken = app.includes('bug')
        s.server.state.addCheckRun({
          name: 'build',
          head_sha: sha,
          conclusion: broken ? 'failure' : 'success',
          title: broken ? '1 test failed' : 'all tests passed',
          annotations: broken
            ? [
                {
                  path: 'app.txt',
                  start_line: 1,
                  end_line: 1,
                  annotation_level: 'failure',
                  message: 'expected fixed, got bug',
                },
              ]
            : [],
          job: {
            id: 9000 + s.ran.size,
            log: `2026-01-01T00:00:00.0000000Z setup\n2026-01-01T00:00:01.0000000Z \u001b[31mFAIL app.test.js\u001b[0m ${broken ? 'app is bug' : 'ok'}\n`,
          },
        })
        s.server.state.setStatus(sha, { context: 'lint', state: 'success', description: 'clean' })
      },
    )
    const agent = session(s, { first: 'bug' })
    const { report } = await agent.run()
    const ci = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci.map((r) => [r.round, r.verdict])).toEqual([
      [1, 'block'],
      [2, 'allow'],
    ])
    expect(report.verdict).toBe('allow')
    // What the agent was told: the check's name, its annotation, the end of its job's log (no time stamps,
    // no escape sequences), on the commit that was pushed.
    const told = agent.reasons()
    expect(told).toContain('build (check run, failure): 1 test failed')
    expect(told).toContain('app.txt:1: failure: expected fixed, got bug')
    expect(told).toContain('FAIL app.test.js app is bug')
    expect(told).not.toMatch(/2026-01-01T|\u001b/)
    expect(told).toContain('required by branch protection of main')
    expect(told).not.toContain('lint')
    // CI was asked about exactly the commits proctor pushed; round 2's is the branch tip.
    expect(s.ran.size).toBe(2)
    expect(s.ran.has(s.branchTip())).toBe(true)
    expect(s.server.validationFailures).toEqual([])
  })

  it('does not trust CI the agent rewrote: blocks before waiting, and the undo it names makes CI count again', async () => {
    const s = await setup({ branches: { main: { requiredChecks: ['build'] } } }, (_app, sha) => {
      s.server.state.addCheckRun({ name: 'build', head_sha: sha, conclusion: 'success' })
    })
    // The user's CI, committed before the session: a workflow and the local action it uses.
    fs.mkdirSync(path.join(s.work.dir, '.github/workflows'), { recursive: true })
    fs.mkdirSync(path.join(s.work.dir, 'tools/setup'), { recursive: true })
    fs.writeFileSync(
      path.join(s.work.dir, '.github/workflows/ci.yml'),
      'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./tools/setup\n      - run: npm test\n',
    )
    fs.writeFileSync(
      path.join(s.work.dir, 'tools/setup/action.yml'),
      'runs: { using: composite, steps: [] }\n',
    )
    s.work.git(['add', '-A'])
    s.work.git(['commit', '-qm', 'ci'])
    const agent = session(s, {
      first: 'bug',
      // The agent makes the required job pass whatever the code does, through the action it uses, and adds
      // a workflow of its own.
      alsoFirst:
        "printf 'runs: { using: composite, steps: [{ run: exit 0, shell: sh }] }\\n' > tools/setup/action.yml; printf 'on: push\\n' > .github/workflows/green.yml",
      // Sent back, it runs the undo the reason names, and fixes the code.
      fix: `eval "$(printf '%s' "$1" | sed -n 's/.*undo those changes (\\(.*\\)), so CI.*/\\1/p')"; printf "fixed\\n" > app.txt`,
    })
    const { report } = await agent.run()
    const ci = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci.map((r) => [r.round, r.verdict])).toEqual([
      [1, 'block'],
      [2, 'allow'],
    ])
    expect(ci[0]!.reason).toContain(
      "CI's definition was changed since the session started: .github/workflows/green.yml, tools/setup/action.yml.",
    )
    expect(agent.reasons()).toMatch(
      /git checkout [0-9a-f]{12} -- tools\/setup\/action.yml; rm -r -- .github\/workflows\/green.yml/,
    )
    // CI was asked only about round 2's commit, where the workflows are the user's again.
    expect(s.ran.size).toBe(1)
    expect(s.ran.has(s.branchTip())).toBe(true)
    expect(fs.existsSync(path.join(s.work.dir, '.github/workflows/green.yml'))).toBe(false)
    expect(report.verdict).toBe('allow')
  })

  it('fails closed at its deadline: a required check that never finishes is an error and the agent is not sent back', async () => {
    const s = await setup({ rulesets: { main: ['build'] } }, (_app, sha) => {
      s.server.state.addCheckRun({ name: 'build', head_sha: sha, status: 'in_progress' })
    })
    const agent = session(s, { first: 'slow', timeout: '3s' })
    const started = Date.now()
    const { report } = await agent.run()
    expect(Date.now() - started).toBeLessThan(15_000)
    const [ci] = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci).toMatchObject({ verdict: 'error', timed_out: true })
    expect(ci!.reason).toMatch(
      /CI did not finish on [0-9a-f]{12} within 3(?:\.0)?s .*still pending: build \(in_progress\)/,
    )
    expect(report.verdict).toBe('block')
    expect(agent.reasons()).toBe('')
    expect(report.stop_hooks.filter((r) => r.name === 'ci')).toHaveLength(1)
    // Polite: one read of the checks per poll_interval (1s) over 3s, no busy loop.
    expect(s.server.count('checks/list-for-ref')).toBeGreaterThanOrEqual(2)
    expect(s.server.count('checks/list-for-ref')).toBeLessThanOrEqual(5)
    expect(s.server.validationFailures).toEqual([])
  })

  it('reads less often while the rate limit runs low: it waits for the window to reset', async () => {
    // 10 requests left, the window resets in 60s: past the hook's 3s deadline.
    const s = await setup(
      { rulesets: { main: ['build'] }, rateLimit: { remaining: 10, resetIn: 60 } },
      (_app, sha) => {
        s.server.state.addCheckRun({ name: 'build', head_sha: sha, status: 'in_progress' })
      },
    )
    const agent = session(s, { first: 'slow', timeout: '3s' })
    const { report } = await agent.run()
    const [ci] = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci).toMatchObject({ verdict: 'error', timed_out: true })
    // The first read, then one at the deadline: not one per poll_interval (1s).
    expect(s.server.count('checks/list-for-ref')).toBe(2)
  })

  it('ends at its deadline even while GitHub holds a request open without answering', async () => {
    const s = await setup({ rulesets: { main: ['build'] } }, () => {})
    s.server.inject({ kind: 'hang', operationId: 'checks/list-for-ref', times: 100 })
    const agent = session(s, { first: 'slow', timeout: '3s' })
    const started = Date.now()
    const { report } = await agent.run()
    expect(Date.now() - started).toBeLessThan(25_000) // not the client's 30 s per attempt, retried
    const [ci] = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci).toMatchObject({ verdict: 'error', timed_out: true })
    expect(ci!.reason).toMatch(/CI did not finish .*last GitHub error/)
    expect(agent.reasons()).toBe('')
  })

  it('stops waiting at once when the session is interrupted (no wait outlasts a cancel)', async () => {
    const interrupt = new AbortController()
    const s = await setup({ branches: { main: { requiredChecks: ['build'] } } }, (_app, sha) => {
      s.server.state.addCheckRun({ name: 'build', head_sha: sha, status: 'queued' })
      // CI has picked the commit up; the user cancels the run while proctor waits for it.
      setImmediate(() => interrupt.abort('SIGINT'))
    })
    const agent = session(s, {
      first: 'slow',
      timeout: '10m',
      with: { poll_interval: '5m' },
      signal: interrupt.signal,
    })
    const started = Date.now()
    const { report } = await agent.run()
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(report.status).toBe('interrupted')
    const [ci] = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci).toMatchObject({
      verdict: 'error',
      reason: 'stopped while waiting for CI (proctor is shutting down)',
    })
    expect(agent.reasons()).toBe('')
  })

  it('waits out GitHub errors and rate limits on the way, and still sees the checks go green', async () => {
    const s = await setup({}, (_app, sha) => {
      s.server.state.addCheckRun({ name: 'build', head_sha: sha, conclusion: 'success' })
      s.server.state.setStatus(sha, { context: 'deploy-preview', state: 'success', description: null })
    })
    s.server.inject({ kind: 'status', status: 502, operationId: 'checks/list-for-ref', times: 4 })
    s.server.inject({
      kind: 'secondary-rate-limit',
      retryAfter: 1,
      operationId: 'repos/get-combined-status-for-ref',
    })
    s.server.inject({ kind: 'rate-limit', resetIn: 1, operationId: 'checks/list-for-ref', times: 3 })
    const agent = session(s, { first: 'fine', with: { checks: ['build', 'deploy-preview'] } })
    const { report } = await agent.run()
    const ci = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci.map((r) => r.verdict)).toEqual(['allow'])
    expect(report.verdict).toBe('allow')
    // Every fault was met (and answered by waiting, not by giving up).
    expect(
      s.server.calls.filter((c) => c.operationId === 'checks/list-for-ref' && c.status === 502),
    ).toHaveLength(4)
    expect(
      s.server.calls.filter((c) => c.operationId === 'checks/list-for-ref' && c.status === 403),
    ).toHaveLength(3)
    expect(s.server.validationFailures).toEqual([])
  })

  it('names the missing permission when the token may not read check runs (an error, not sent back)', async () => {
    const s = await setup(
      { tokens: { [TOKEN]: { login: 'ci-bot', type: 'Bot', checksRead: false } } },
      () => {},
    )
    const agent = session(s, { first: 'fine' })
    const { report } = await agent.run()
    const [ci] = report.stop_hooks.filter((r) => r.name === 'ci')
    expect(ci!.verdict).toBe('error')
    expect(ci!.reason).toMatch(/cannot read the CI checks \(403 .*permissions: checks: read, statuses: read/)
    expect(agent.reasons()).toBe('')
  })

  it('is an error, never a pass, where nothing may push or read GitHub (verify job, proctor check)', async () => {
    const outcome = await runStopHooks({
      hooks: configSchema.parse({ stop_hooks: [{ name: 'ci', uses: 'ci-checks' }] }).stop_hooks,
      context: {
        session_id: 's',
        cwd: process.cwd(),
        stop_reason: 'verify',
        final_text: '',
        rounds: 1,
        stop_hook_active: false,
        checkpoint: { ref: 'refs/proctor/s', sha: 'a'.repeat(40), files_changed: [] },
        violations: [],
      },
      cwd: process.cwd(),
      env: {},
      graceMs: 100,
      round: 1,
    })
    expect(outcome.verdict).toBe('block')
    expect(outcome.reasons).toEqual([])
    expect(outcome.errors[0]).toMatch(/^ci: ci-checks cannot run here: .*one-job layout/)
  })
})
