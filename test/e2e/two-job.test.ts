// The two-job layout end to end (examples/workflows/two-job.yml, docs/action.md#two-job-layout): the BUILT
// action runs as the agent job (`handoff: true`, a read-only token) and then as the verify job
// (`mode: verify`, the write token) against the local GitHub API server, the local artifact service and a
// git smart-HTTP server that demands the write token for every request. The scripted agent looks for
// tokens everywhere a process of the same user can: its environment, its parent's /proc/<ppid>/environ,
// and every /proc/<pid>/environ and cmdline on the machine. It also forges a pass (it rewrites the test
// script the stop hook runs), which the verify job must see through.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHubApiServer, type GitHubApiServer } from '../servers/github-api.js'
import { startArtifactService, type ArtifactService } from '../servers/artifact-service.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { isolatedGitEnv, makeTempRepo } from '../helpers/git-repo.js'
import { DIST, distProblem, pullRequestPayload, runStep, type ActionResult } from './action-harness.js'

const PR = 7
const RUN = 4242

// The agent: records what it can see of tokens, then does work that fails the tests — and rewrites the
// test script so that the stop hook in ITS job passes (a forged green report).
const AGENT = `import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
const read = (path) => { try { return readFileSync(path, 'latin1') } catch { return null } }
const processes = {}
for (const pid of readdirSync('/proc').filter((name) => /^\\d+$/.test(name))) {
  if (Number(pid) === process.pid) continue
  const environ = read('/proc/' + pid + '/environ')
  const cmdline = read('/proc/' + pid + '/cmdline')
  if (environ !== null || cmdline !== null) processes[pid] = { environ, cmdline }
}
writeFileSync(process.env.E2E_AGENT_DUMP, JSON.stringify({
  env: process.env,
  ppid: process.ppid,
  parent: { environ: read('/proc/' + process.ppid + '/environ'), cmdline: read('/proc/' + process.ppid + '/cmdline') },
  processes,
  gitConfig: read('.git/config'),
}))
mkdirSync('src', { recursive: true })
const fine = process.argv[2] === 'fine'
writeFileSync('src/feature.js', fine ? 'export const feature = 1\\n' : 'export const feature = "broken"\\n')
if (process.argv[2] === 'forge') writeFileSync('check.mjs', 'process.exit(0)\\n')
console.log('agent: done, all tests pass (trust me)')
`
// The stop hook: fails on broken work; records its own environment and its parent's when asked.
const CHECK = `import { existsSync, readFileSync, writeFileSync } from 'node:fs'
if (process.env.E2E_HOOK_DUMP) {
  const read = (path) => { try { return readFileSync(path, 'latin1') } catch { return null } }
  writeFileSync(process.env.E2E_HOOK_DUMP, JSON.stringify({ env: process.env, parent: read('/proc/' + process.ppid + '/environ') }))
}
const text = existsSync('src/feature.js') ? readFileSync('src/feature.js', 'utf8') : ''
if (text.includes('broken')) { process.stderr.write('tests: src/feature.js is broken\\n'); process.exit(2) }
`
const CONFIG = `checkpoints:
  interval: 10m
  min_interval: 0s
stop_hooks:
  - { name: tests, command: [node, check.mjs] }
`

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
  gitRoot = mkdtempSync(join(tmpdir(), 'proctor-e2e-git-'))
  // Every request, fetch or push, needs the write token (as GitHub's x-access-token basic auth).
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

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

let repoCount = 0
/** The repository at the PR head, served by the git server; `checkout()` is a fresh runner's clone of it. */
function repository() {
  const seed = makeTempRepo({
    files: { 'README.md': '# widgets\n', 'proctor.yml': CONFIG, 'agent.mjs': AGENT, 'check.mjs': CHECK },
  })
  cleanups.push(() => seed.cleanup())
  const name = `widgets-${++repoCount}.git`
  const bare = git.createRepo(name)
  seed.git(['push', '-q', bare, 'HEAD:refs/heads/main'])
  const head = seed.git(['rev-parse', 'HEAD']).trim()
  return {
    head,
    /** actions/checkout with persist-credentials: false: origin without any credential. */
    checkout(): string {
      const dir = tempDir('proctor-e2e-job-')
      execFileSync('git', ['clone', '-q', bare, dir], { env: isolatedGitEnv() })
      execFileSync('git', ['-C', dir, 'remote', 'set-url', 'origin', git.repoUrl(name)], {
        env: isolatedGitEnv(),
      })
      return dir
    },
    remoteSha(ref: string): string | null {
      try {
        return execFileSync('git', ['--git-dir', bare, 'rev-parse', '--verify', '-q', ref], {
          encoding: 'utf8',
        }).trim()
      } catch {
        return null
      }
    },
    tree(sha: string): string[] {
      return execFileSync('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', sha], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
    },
  }
}

async function startServers() {
  artifacts = await startArtifactService()
  api = await startGitHubApiServer({ artifacts: artifacts.store })
  return { service: artifacts, server: api }
}

function prEvent(head: string, fork = false) {
  return {
    name: 'pull_request',
    payload: pullRequestPayload({ number: PR, headSha: head, baseSha: head, fork }),
  }
}

/** What the runner gives a JavaScript action of job `job`: runtime token and service URLs, an OIDC request. */
function runnerEnv(service: ArtifactService, job: string, runId = RUN) {
  return {
    GITHUB_JOB: job,
    GITHUB_RUN_ID: String(runId),
    // Pushes carry proctor's token only to the git server it belongs to: here, the local one.
    PROCTOR_GIT_SERVER_URL: git.url,
    ACTIONS_RUNTIME_TOKEN: service.runtimeToken(runId, job),
    ACTIONS_RESULTS_URL: `${service.url}/`,
    ACTIONS_RUNTIME_URL: `${service.url}/runtime/`,
    ACTIONS_CACHE_URL: `${service.url}/cache/`,
    ACTIONS_ID_TOKEN_REQUEST_URL: `${service.url}/oidc?audience=x`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: token('Oidc'),
  }
}

interface AgentJob {
  run: ActionResult
  dir: string
  runner: Record<string, string>
  readToken: string
  dump: {
    env: Record<string, string>
    ppid: number
    parent: { environ: string | null; cmdline: string | null }
    processes: Record<string, { environ: string | null; cmdline: string | null }>
    gitConfig: string | null
  }
}

async function agentJob(
  service: ArtifactService,
  server: GitHubApiServer,
  repo: ReturnType<typeof repository>,
  options: { agent?: string; leg?: string; fork?: boolean } = {},
): Promise<AgentJob> {
  const dir = repo.checkout()
  const files = tempDir('proctor-e2e-dump-')
  const readToken = token('Read')
  const runner = runnerEnv(service, 'agent')
  const run = await runStep({
    entry: 'index',
    cwd: dir,
    apiUrl: server.url,
    event: prEvent(repo.head, options.fork),
    token: readToken,
    inputs: { command: `node agent.mjs ${options.agent ?? 'forge'}`, handoff: 'true' },
    env: {
      ...runner,
      E2E_AGENT_DUMP: join(files, 'agent.json'),
      ...(options.leg ? { PROCTOR_MATRIX_KEY: options.leg } : {}),
    },
  })
  const dump = JSON.parse(readFileSync(join(files, 'agent.json'), 'utf8')) as AgentJob['dump']
  return { run, dir, runner, readToken, dump }
}

async function verifyJob(
  service: ArtifactService,
  server: GitHubApiServer,
  repo: ReturnType<typeof repository>,
  options: { fork?: boolean; runId?: number; hookDump?: string } = {},
): Promise<ActionResult & { dir: string }> {
  const dir = repo.checkout()
  const run = await runStep({
    entry: 'index',
    cwd: dir,
    apiUrl: server.url,
    event: prEvent(repo.head, options.fork),
    // A fork's pull_request run only ever gets a read-only token, in every job.
    token: options.fork ? token('ForkRead') : writeToken,
    inputs: { mode: 'verify' },
    env: {
      ...runnerEnv(service, 'verify', options.runId),
      ...(options.hookDump ? { E2E_HOOK_DUMP: options.hookDump } : {}),
    },
  })
  return { ...run, dir }
}

const writes = (server: GitHubApiServer) => server.calls.filter((c) => c.method !== 'GET')
const pushes = () => git.requests.filter((r) => r.url.includes('git-receive-pack'))

// Two or three action steps per test, each a few seconds (Octokit spaces writes 1 s apart): more than the default.
describe('the two-job layout', { timeout: 180_000 }, () => {
  it('the agent job holds no token anywhere; its forged pass fails in the verify job, which alone pushes and publishes', async () => {
    const { service, server } = await startServers()
    const repo = repository()
    const pushesBefore = pushes().length

    // ---- the agent job
    const agent = await agentJob(service, server, repo)
    expect(agent.run.code, agent.run.stdout + agent.run.stderr).toBe(0)
    const session = agent.run.outputs['session-id']!
    expect(session).toBe(`${RUN}-1-agent`)
    // Its own stop hook ran the rewritten script: the agent job reports a pass.
    expect(agent.run.outputs.verdict).toBe('allow')

    // No token, nor the services it unlocks, in the agent's environment...
    const secrets = [
      agent.readToken,
      agent.runner.ACTIONS_RUNTIME_TOKEN!,
      agent.runner.ACTIONS_ID_TOKEN_REQUEST_TOKEN!,
    ]
    const names = Object.keys(agent.dump.env)
    expect(
      names.filter((n) =>
        /^INPUT_|^ACTIONS_(RUNTIME|ID_TOKEN|RESULTS|CACHE)|^GITHUB_(TOKEN|ENV|OUTPUT|STATE|PATH)$/.test(n),
      ),
    ).toEqual([])
    // ...nor in proctor's own /proc/<pid>/environ (the agent's parent is the action's node process)...
    expect(agent.dump.parent.cmdline).toContain(join(DIST, 'index.js'))
    expect(agent.dump.parent.environ).toContain('GITHUB_REPOSITORY=acme/widgets')
    for (const secret of secrets) expect(agent.dump.parent.environ).not.toContain(secret)
    expect(agent.dump.parent.environ).not.toMatch(
      /(^|\0)(INPUT_GITHUB-TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN)=/,
    )
    // ...nor in any process on this machine the agent can read (git processes, hooks, anything)...
    const everywhere = JSON.stringify(agent.dump.processes)
    for (const secret of [...secrets, writeToken]) expect(everywhere).not.toContain(secret)
    // ...nor in .git/config.
    expect(agent.dump.gitConfig).not.toMatch(/extraheader/i)

    // The agent job pushed nothing and wrote nothing to GitHub; it handed off bundle + report.
    expect(pushes().length).toBe(pushesBefore)
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBeNull()
    expect(writes(server)).toEqual([])
    const [handoff, ...others] = service.store.listForRun(RUN)
    expect(others).toEqual([])
    expect(handoff!.name).toBe(`proctor-handoff-${session}`)
    const files = service.store.filesOf(handoff!)
    expect([...files.keys()].sort()).toEqual(['checkpoints.bundle', 'report.json'])
    const claimed = JSON.parse(files.get('report.json')!.toString('utf8')) as {
      verdict: string
      stop_hooks: Array<{ verdict: string }>
    }
    expect(claimed.verdict).toBe('allow')
    expect(claimed.stop_hooks.map((h) => h.verdict)).toEqual(['allow'])

    // ---- the verify job, on a fresh clone
    const hookDump = join(tempDir('proctor-e2e-hook-'), 'hook.json')
    const verify = await verifyJob(service, server, repo, { hookDump })
    expect(verify.code, verify.stdout + verify.stderr).toBe(1)
    expect(verify.outputs).toMatchObject({ verdict: 'block', status: 'completed', 'session-id': session })

    // Its own hook run, with the checked-out check.mjs, fails: the forged pass is worth nothing.
    const [tests, ...moreTests] = server.state.checkRunsNamed('proctor / tests')
    expect(moreTests).toEqual([])
    expect(tests).toMatchObject({ head_sha: repo.head, status: 'completed', conclusion: 'failure' })
    expect(tests!.output.text).toContain('src/feature.js is broken')
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy).toMatchObject({ conclusion: 'failure' })
    expect(policy!.annotations).toEqual([
      expect.objectContaining({ path: 'check.mjs', annotation_level: 'failure' }),
    ])
    expect(server.state.checkRuns.size).toBe(2)

    // The comment is the verify job's, and says what it only read from the agent job.
    const comments = server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain('Verified in a separate job')
    expect(comments[0]!.body).toMatch(/The agent job reported: completed, verdict allow/)
    expect(comments[0]!.body).toContain('as reported by the agent job')
    // Its header links the verify job's own check runs (written before the comment).
    expect(comments[0]!.body.split('\n')[2]).toContain(
      `checks: [\`proctor / tests\`](<https://github.com/acme/widgets/runs/${tests!.id}>), ` +
        `[\`proctor / policy\`](<https://github.com/acme/widgets/runs/${policy!.id}>)`,
    )

    // The checkpoint branch: pushed by the verify job only, with its token passed per command.
    expect(pushes().length).toBeGreaterThan(pushesBefore)
    const pushed = repo.remoteSha(`refs/heads/proctor/${session}`)
    expect(pushed).toMatch(/^[0-9a-f]{40}$/)
    expect(repo.tree(pushed!)).toContain('src/feature.js')
    expect(readFileSync(join(verify.dir, '.git/config'), 'utf8')).not.toMatch(/extraheader|x-access-token/i)
    expect(verify.stdout.split('\n').filter((line) => line.includes(writeToken))).toEqual([
      `::add-mask::${writeToken}`,
    ])

    // The hooks of the verify job run the agent's code: they do not see the write token either.
    const hook = JSON.parse(readFileSync(hookDump, 'utf8')) as { env: Record<string, string>; parent: string }
    expect(JSON.stringify(hook.env)).not.toContain(writeToken)
    expect(hook.parent).toContain('GITHUB_REPOSITORY=acme/widgets')
    expect(hook.parent).not.toContain(writeToken)
    expect(server.validationFailures).toEqual([])
    expect(service.validationFailures).toEqual([])
  })

  it('a missing or tampered handoff is a failing check that says why, never a green one', async () => {
    const { service, server } = await startServers()
    const repo = repository()

    // No agent job uploaded anything: every hook check and the policy check fail.
    const missing = await verifyJob(service, server, repo)
    expect(missing.code, missing.stdout + missing.stderr).toBe(1)
    expect(missing.outputs).toMatchObject({ verdict: 'block', status: 'errored' })
    const [tests] = server.state.checkRunsNamed('proctor / tests')
    expect(tests).toMatchObject({ conclusion: 'failure' })
    expect(tests!.output.text).toMatch(/no artifact matches "proctor-handoff-\*"/)
    expect(server.state.checkRunsNamed('proctor / policy')[0]).toMatchObject({ conclusion: 'failure' })
    expect(repo.remoteSha('refs/heads/proctor/handoff')).toBeNull()

    // An honest agent's handoff, re-uploaded with report.json claiming another checkpoint.
    const honest = await agentJob(service, server, repo, { agent: 'honest' })
    expect(honest.run.code).toBe(1)
    const files = service.store.filesOf(service.store.listForRun(RUN)[0]!)
    const report = JSON.parse(files.get('report.json')!.toString('utf8')) as {
      verdict: string
      status: string
      stop_hooks: unknown[]
      checkpoints: Array<{ sha: string }>
    }
    Object.assign(report, { verdict: 'allow', stop_hooks: [] })
    report.checkpoints.at(-1)!.sha = repo.head
    const session = honest.run.outputs['session-id']!
    service.store.seed(RUN + 1, `proctor-handoff-${session}`, {
      files: {
        'report.json': JSON.stringify(report),
        'checkpoints.bundle': files.get('checkpoints.bundle')!,
      },
    })
    const tampered = await verifyJob(service, server, repo, { runId: RUN + 1 })
    expect(tampered.code, tampered.stdout + tampered.stderr).toBe(1)
    const latest = server.state.checkRunsNamed('proctor / tests').at(-1)!
    expect(latest).toMatchObject({ conclusion: 'failure' })
    expect(latest.output.text).toMatch(/report\.json and checkpoints\.bundle disagree/)
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBeNull()
    expect(server.validationFailures).toEqual([])
  })

  it('a matrix of agent jobs: one check per hook over every leg, failing when any leg fails; one comment per leg', async () => {
    const { service, server } = await startServers()
    const repo = repository()
    // Leg a does good work; leg b breaks the feature and forges its pass.
    const a = await agentJob(service, server, repo, { agent: 'fine', leg: 'a' })
    const b = await agentJob(service, server, repo, { agent: 'forge', leg: 'b' })
    expect([a.run.code, b.run.code]).toEqual([0, 0])
    const verify = await verifyJob(service, server, repo)
    expect(verify.code, verify.stdout + verify.stderr).toBe(1)
    const checks = server.state.checkRunsNamed('proctor / tests')
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ conclusion: 'failure' })
    expect(checks[0]!.output.text).toContain(`${RUN}-1-agent-b: tests: src/feature.js is broken`)
    expect(checks[0]!.output.text).not.toContain(`${RUN}-1-agent-a:`)
    expect(server.state.commentsOn(PR)).toHaveLength(2)
    expect(repo.remoteSha(`refs/heads/proctor/${RUN}-1-agent-b`)).toMatch(/^[0-9a-f]{40}$/)
    expect(server.validationFailures).toEqual([])
  })

  it('a fork pull request never gets a write token anywhere: no push, no GitHub write; the verified report goes on as an artifact', async () => {
    const { service, server } = await startServers()
    const repo = repository()
    const pushesBefore = pushes().length
    const agent = await agentJob(service, server, repo, { fork: true })
    expect(agent.run.code).toBe(0)
    const verify = await verifyJob(service, server, repo, { fork: true })
    expect(verify.code, verify.stdout + verify.stderr).toBe(1)
    expect(writes(server)).toEqual([])
    expect(pushes().length).toBe(pushesBefore)
    expect(verify.stdout).toContain('::error title=proctor / tests::')
    const names = service.store.listForRun(RUN).map((x) => x.name)
    expect(names.sort()).toEqual([`proctor-handoff-${RUN}-1-agent`, `proctor-report-${RUN}-1-agent`])
    const verified = service.store.listForRun(RUN).find((x) => x.name.startsWith('proctor-report-'))!
    const report = JSON.parse(service.store.filesOf(verified).get('report.json')!.toString('utf8')) as {
      verdict: string
      agent_job: { verdict: string }
    }
    expect(report).toMatchObject({ verdict: 'block', agent_job: { verdict: 'allow' } })
    expect(service.validationFailures).toEqual([])
  })
})
