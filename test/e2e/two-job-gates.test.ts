// The gate of the two-job layout end to end (docs/action.md#gate-files), through the BUILT action: the
// agent job runs the `npm test` hook `proctor init` writes on an agent that breaks the code and forges its
// own pass — by rewriting `scripts.test` in package.json, or a helper the test imports — then the verify
// job runs the hooks on a fresh clone and the publish job publishes. What a user sees: `proctor / tests`
// fails with the real test's output and `proctor / policy` fails with a `gate_file` annotation on the file
// the agent forged.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHubApiServer, type GitHubApiServer, type StoredJob } from '../servers/github-api.js'
import { startArtifactService, type ArtifactService } from '../servers/artifact-service.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { isolatedGitEnv, makeTempRepo } from '../helpers/git-repo.js'
import { distProblem, pullRequestPayload, runStep } from './action-harness.js'

const PR = 8
const RUN = 5151

// Breaks add() and forges the judge: `script` rewrites scripts.test (and adds a dependency, which is
// allowed), `helper` empties the assertion helper the test imports.
const AGENT = `import { readFileSync, writeFileSync } from 'node:fs'
writeFileSync('src/add.js', 'export const add = (a, b) => a - b\\n')
if (process.argv[2] === 'script') {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  pkg.scripts.test = 'echo tests pass'
  pkg.dependencies = { 'left-pad': '1.3.0' }
  writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\\n')
} else {
  writeFileSync('test/helpers/assert.mjs', 'export function equal() {}\\n')
}
console.log('agent: done, all tests pass')
`
// tests_weakened would already block the rewritten test script in the agent job; as a warning it lets the
// agent job pass, so what is tested here is the gate verify judges on its own.
const FILES = {
  'proctor.yml': `checkpoints:
  interval: 10m
  min_interval: 0s
policy:
  severities: { tests_weakened: warning }
stop_hooks:
  - { name: tests, command: npm test, gate_files: [test/helpers/**] }
`,
  'package.json': `${JSON.stringify({ name: 'adder', private: true, type: 'module', scripts: { test: 'node test.mjs' } }, null, 2)}\n`,
  'src/add.js': 'export const add = (a, b) => a + b\n',
  'test/helpers/assert.mjs':
    'export function equal(a, b) { if (a !== b) { console.error(`expected ${b}, got ${a}`); process.exit(1) } }\n',
  'test.mjs':
    "import { add } from './src/add.js'\nimport { equal } from './test/helpers/assert.mjs'\nequal(add(1, 2), 3)\n",
  'agent.mjs': AGENT,
}

const token = (what: string) => `ghs_${what}${randomBytes(12).toString('hex')}`

let git: GitHttpServer
let gitRoot: string
let writeToken: string
let artifacts: ArtifactService | null = null
let api: GitHubApiServer | null = null
const cleanups: Array<() => void> = []

beforeAll(async () => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
  writeToken = token('Write')
  gitRoot = mkdtempSync(join(tmpdir(), 'proctor-e2e-gates-'))
  git = await startGitHttpServer({
    projectRoot: gitRoot,
    auth: { user: 'x-access-token', password: writeToken },
  })
})

afterAll(async () => {
  await git?.close()
  rmSync(gitRoot, { recursive: true, force: true })
})

afterEach(async () => {
  await api?.close()
  await artifacts?.close()
  api = artifacts = null
  for (const cleanup of cleanups.splice(0)) cleanup()
})

let repoCount = 0
/** The PR head on the git server; each job clones it (actions/checkout, persist-credentials: false). */
function repository() {
  const seed = makeTempRepo({ files: FILES })
  cleanups.push(() => seed.cleanup())
  const name = `adder-${++repoCount}.git`
  const bare = git.createRepo(name)
  seed.git(['push', '-q', bare, 'HEAD:refs/heads/main'])
  const head = seed.git(['rev-parse', 'HEAD']).trim()
  return {
    head,
    checkout(): string {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-e2e-gates-job-')))
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
      rmSync(dir, { recursive: true })
      execFileSync('git', ['clone', '-q', bare, dir], { env: isolatedGitEnv() })
      execFileSync('git', ['-C', dir, 'remote', 'set-url', 'origin', git.repoUrl(name)], {
        env: isolatedGitEnv(),
      })
      return dir
    },
    show(ref: string, path: string): string {
      return execFileSync('git', ['--git-dir', bare, 'show', `${ref}:${path}`], { encoding: 'utf8' })
    },
  }
}

function job(service: ArtifactService, server: GitHubApiServer, name: string) {
  return {
    apiUrl: server.url,
    env: {
      GITHUB_JOB: name,
      GITHUB_RUN_ID: String(RUN),
      PROCTOR_GIT_SERVER_URL: git.url,
      ACTIONS_RUNTIME_TOKEN: service.runtimeToken(RUN, name),
      ACTIONS_RESULTS_URL: `${service.url}/`,
      ACTIONS_RUNTIME_URL: `${service.url}/runtime/`,
      npm_config_update_notifier: 'false',
    },
  }
}

describe('the two-job layout’s gate', { timeout: 180_000 }, () => {
  it.each([
    ['script', 'package.json', /scripts\.test in package\.json/],
    ['helper', 'test/helpers/assert.mjs', /test\/helpers\/assert\.mjs.*gate_files of stop hook tests/],
  ])(
    'an agent that forges its pass through the %s: the agent job says allow, verify runs the real judge and publish fails proctor / tests',
    async (forge, forged, message) => {
      artifacts = await startArtifactService()
      const jobs: StoredJob[] = []
      api = await startGitHubApiServer({ artifacts: artifacts.store, jobs })
      const repo = repository()
      const event = {
        name: 'pull_request',
        payload: pullRequestPayload({ number: PR, headSha: repo.head, baseSha: repo.head }),
      }

      const agent = await runStep({
        entry: 'index',
        cwd: repo.checkout(),
        event,
        token: token('Read'),
        inputs: { command: `node agent.mjs ${forge}`, handoff: 'true' },
        ...job(artifacts, api, 'agent'),
      })
      expect(agent.code, agent.stdout + agent.stderr).toBe(0)
      // The forged judge passed the broken work in the agent's own job.
      expect(agent.outputs.verdict).toBe('allow')

      const verifyStarted = new Date().toISOString()
      const verify = await runStep({
        entry: 'index',
        cwd: repo.checkout(),
        event,
        token: token('Read'),
        inputs: { mode: 'verify' },
        ...job(artifacts, api, 'verify'),
      })
      expect(verify.code, verify.stdout + verify.stderr).toBe(1)
      expect(verify.outputs).toMatchObject({ verdict: 'block' })
      // The verify job ran the checked-out judge on the agent's code: the real test failed.
      expect(verify.stdout).toContain('expected 3, got -1')
      jobs.push({
        id: 9001,
        runId: RUN,
        name: 'verify',
        runnerName: null,
        status: 'completed',
        conclusion: 'failure',
        startedAt: verifyStarted,
      })

      const publish = await runStep({
        entry: 'index',
        cwd: repo.checkout(),
        event,
        token: writeToken,
        inputs: { mode: 'publish' },
        ...job(artifacts, api, 'publish'),
      })
      expect(publish.code, publish.stdout + publish.stderr).toBe(1)
      const [tests] = api.state.checkRunsNamed('proctor / tests')
      expect(tests).toMatchObject({ head_sha: repo.head, conclusion: 'failure' })
      expect(tests!.output.text).toContain('expected 3, got -1')
      const [policy] = api.state.checkRunsNamed('proctor / policy')
      expect(policy).toMatchObject({ conclusion: 'failure' })
      // The gate's failure, and (for the script) the tests_weakened warning this test lowered it to.
      expect(policy!.annotations.filter((a) => a.annotation_level === 'failure')).toEqual([
        expect.objectContaining({ path: forged, message: expect.stringMatching(message) }),
      ])
      // Work whose gate failed is not pushed; the handoff artifact still holds it.
      expect(git.requests.filter((r) => r.url.includes('git-receive-pack'))).toEqual([])
      expect(api.validationFailures).toEqual([])
    },
  )
})
