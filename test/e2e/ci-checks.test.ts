// The `ci-checks` stop hook through the BUILT action (dist/index.js) on a pull request: the checkpoint is
// pushed over smart HTTP to a loopback git server, and the repository's "CI" reports on the pushed commit
// through the local GitHub API server (every request validated against GitHub's OpenAPI description).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo } from '../helpers/git-repo.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { startGitHubApiServer } from '../servers/github-api.js'
import { distProblem, pullRequestPayload, runStep } from './action-harness.js'

const SESSION = '4242-1-agent'

// Round 1 writes a bug; sent back, it records what it was told and fixes it.
const AGENT = `import { writeFileSync } from 'node:fs'
writeFileSync('app.txt', 'bug\\n')
`
const FIX = `import { appendFileSync, writeFileSync } from 'node:fs'
appendFileSync(process.env.E2E_REASONS, process.argv[2] + '\\n---\\n')
writeFileSync('app.txt', 'fixed\\n')
`
const CONFIG = `agent:
  continue: [node, fix.mjs, "{reason}"]
checkpoints: { interval: 10m, min_interval: 0s }
max_stop_rounds: 2
stop_hooks:
  - name: ci
    uses: ci-checks
    timeout: 60s
    with: { poll_interval: 1s }
`

let git: GitHttpServer
let gitRoot: string
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
  gitRoot = mkdtempSync(join(tmpdir(), 'proctor-e2e-ci-'))
  git = await startGitHttpServer({ projectRoot: gitRoot })
})
afterAll(async () => {
  await git?.close()
  rmSync(gitRoot, { recursive: true, force: true })
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('the ci-checks stop hook in the action', () => {
  it('sends the failing required check back to the agent and passes once CI is green', async () => {
    const repo = makeTempRepo({
      files: { 'app.txt': 'start\n', 'proctor.yml': CONFIG, 'agent.mjs': AGENT, 'fix.mjs': FIX },
    })
    cleanups.push(repo.cleanup)
    const bare = git.createRepo('widgets.git')
    repo.git(['remote', 'add', 'origin', git.repoUrl('widgets.git')])
    const files = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-e2e-ci-files-')))
    cleanups.push(() => rmSync(files, { recursive: true, force: true }))
    const reasons = join(files, 'reasons.txt')

    // The repository's CI: `build` fails while app.txt says bug, with an annotation and a job log.
    const asked: string[] = []
    const api = await startGitHubApiServer({
      // The PR targets `release`, whose protection requires `build` (main requires nothing).
      branches: { main: {}, release: { requiredChecks: ['build'] } },
      ci: (sha) => {
        if (asked.includes(sha)) return
        let app: string
        try {
          app = execFileSync('git', ['--git-dir', bare, 'show', `${sha}:app.txt`], { encoding: 'utf8' })
        } catch {
          return
        }
        asked.push(sha)
        const broken = app.includes('bug')
        api.state.addCheckRun({
          name: 'build',
          head_sha: sha,
          conclusion: broken ? 'failure' : 'success',
          annotations: broken
            ? [
                {
                  path: 'app.txt',
                  start_line: 1,
                  end_line: 1,
                  annotation_level: 'failure',
                  message: 'app.txt must not say bug',
                },
              ]
            : [],
          job: {
            id: 500 + asked.length,
            log: '2026-01-01T00:00:00.0000000Z npm test\n2026-01-01T00:00:01.0000000Z 1 failing\n',
          },
        })
      },
    })
    cleanups.push(() => api.close())

    const head = repo.git(['rev-parse', 'HEAD']).trim()
    const payload = pullRequestPayload({ number: 7, headSha: head, baseSha: head })
    payload.pull_request.base.ref = 'release'
    const run = await runStep({
      entry: 'index',
      cwd: repo.dir,
      apiUrl: api.url,
      event: { name: 'pull_request', payload },
      inputs: { command: 'node agent.mjs' },
      env: { E2E_REASONS: reasons },
    })

    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.outputs.verdict).toBe('allow')
    const report = JSON.parse(
      readFileSync(join(repo.dir, '.proctor/sessions', SESSION, 'report.json'), 'utf8'),
    ) as SessionReport
    expect(report.stop_hooks.map((h) => [h.name, h.round, h.verdict])).toEqual([
      ['ci', 1, 'block'],
      ['ci', 2, 'allow'],
    ])
    // The agent heard which check failed, its annotation and the end of its job's log.
    const told = readFileSync(reasons, 'utf8')
    expect(told).toContain('build (check run, failure)')
    expect(told).toContain('app.txt:1: failure: app.txt must not say bug')
    expect(told).toContain('1 failing')
    expect(told).toContain('checks: required by branch protection of release')
    // CI ran on the commits proctor pushed, the last being the branch tip proctor reports.
    expect(asked).toHaveLength(2)
    const tip = execFileSync('git', ['--git-dir', bare, 'rev-parse', `refs/heads/proctor/${SESSION}`], {
      encoding: 'utf8',
    }).trim()
    expect(asked[1]).toBe(tip)
    expect(run.outputs['checkpoint-sha']).toBe(tip)
    // The hook is a check run of its own, and the PR comment shows the block and the pass.
    expect(api.state.checkRunsNamed('proctor / ci').map((r) => r.conclusion)).toContain('success')
    expect(api.state.commentsOn(7)[0]!.body).toContain('build')
    expect(api.validationFailures).toEqual([])
  })

  it('fails closed on a fork pull request (read-only token): an error naming where it can run, no CI read', async () => {
    const repo = makeTempRepo({
      files: { 'app.txt': 'start\n', 'proctor.yml': CONFIG, 'agent.mjs': AGENT, 'fix.mjs': FIX },
    })
    cleanups.push(repo.cleanup)
    git.createRepo('fork.git')
    repo.git(['remote', 'add', 'origin', git.repoUrl('fork.git')])
    const api = await startGitHubApiServer({ branches: { main: { requiredChecks: ['build'] } } })
    cleanups.push(() => api.close())
    const head = repo.git(['rev-parse', 'HEAD']).trim()
    const run = await runStep({
      entry: 'index',
      cwd: repo.dir,
      apiUrl: api.url,
      event: {
        name: 'pull_request',
        payload: pullRequestPayload({ number: 7, headSha: head, baseSha: head, fork: true }),
      },
      inputs: { command: 'node agent.mjs' },
      env: { E2E_REASONS: join(repo.dir, '..', 'never.txt') },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.outputs.verdict).toBe('block')
    const report = JSON.parse(
      readFileSync(join(repo.dir, '.proctor/sessions', SESSION, 'report.json'), 'utf8'),
    ) as SessionReport
    expect(report.stop_hooks).toHaveLength(1)
    expect(report.stop_hooks[0]).toMatchObject({ name: 'ci', verdict: 'error' })
    expect(report.stop_hooks[0]!.reason).toMatch(/^ci-checks cannot run here: .*one-job layout/)
    expect(api.count('checks/list-for-ref')).toBe(0)
    expect(api.validationFailures).toEqual([])
  })
})
