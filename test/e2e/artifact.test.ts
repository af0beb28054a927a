// The artifact path of fan-out, end to end: the BUILT action (dist/index.js) with the real
// @actions/artifact client inside it, against the local artifact service (results service over Twirp +
// blob storage, test/servers/artifact-service.ts) and the local GitHub API server (which serves the
// public artifact endpoints from the same store; every request validated against GitHub's OpenAPI).
// A fork PR's session uploads `proctor-report-<session>`; an aggregate job downloads the artifacts of the
// run, either through the public REST API (workflow_run) or the results service (same run).
import { describe, it, expect, beforeAll, afterEach } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  startGitHubApiServer,
  type GitHubApiServer,
  type GitHubApiServerOptions,
} from '../servers/github-api.js'
import { startArtifactService, type ArtifactService } from '../servers/artifact-service.js'
import { makeTempRepo } from '../helpers/git-repo.js'
import { sessionReport } from '../unit/github-fixtures.js'
import {
  closedPort,
  distProblem,
  examplePayload,
  pullRequestPayload,
  runStep,
  type ActionResult,
} from './action-harness.js'

const PR = 7
const RUN = 4242
const HEAD = 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0'

// The agent writes a file; `fail` makes it exit 1 (a failed session).
const AGENT = `import { mkdirSync, writeFileSync } from 'node:fs'
mkdirSync('src', { recursive: true })
writeFileSync('src/feature.js', 'export const feature = 1\\n')
console.log('agent: wrote src/feature.js')
process.exit(process.argv[2] === 'fail' ? 1 : 0)
`
const CONFIG = `checkpoints:
  interval: 10m
  min_interval: 0s
stop_hooks:
  - { name: tests, command: [node, -e, "process.exit(0)"] }
`

let artifacts: ArtifactService | null = null
let api: GitHubApiServer | null = null
const cleanups: Array<() => void> = []

beforeAll(() => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
})

afterEach(async () => {
  await api?.close()
  await artifacts?.close()
  api = artifacts = null
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function startServers(options: GitHubApiServerOptions = {}) {
  artifacts = await startArtifactService()
  api = await startGitHubApiServer({ ...options, artifacts: artifacts.store })
  return { service: artifacts, server: api }
}

/** A job's checkout: no remote, so the checkpoints stay local and the session writes a bundle. */
function checkout() {
  const repo = makeTempRepo({
    files: { 'README.md': '# widgets\n', 'proctor.yml': CONFIG, 'agent.mjs': AGENT },
  })
  cleanups.push(() => repo.cleanup())
  return { dir: repo.dir, head: repo.git(['rev-parse', 'HEAD']).trim() }
}

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The env a job of `runId` gets from the runner for the artifact service. */
function runnerEnv(service: ArtifactService, runId: number, job: string, resultsUrl = `${service.url}/`) {
  return { ACTIONS_RUNTIME_TOKEN: service.runtimeToken(runId, job), ACTIONS_RESULTS_URL: resultsUrl }
}

/** One matrix leg of the `proctor` workflow on a fork's pull request. */
async function forkLeg(
  service: ArtifactService,
  server: GitHubApiServer,
  leg: string,
  options: { agentArgs?: string; resultsUrl?: string; bundle?: boolean } = {},
): Promise<ActionResult & { dir: string }> {
  const ws = checkout()
  const run = await runStep({
    entry: 'index',
    cwd: ws.dir,
    apiUrl: server.url,
    event: {
      name: 'pull_request',
      payload: pullRequestPayload({ number: PR, headSha: ws.head, baseSha: ws.head, fork: true }),
    },
    inputs: {
      command: `node agent.mjs ${options.agentArgs ?? ''}`.trim(),
      // With pushing on, checkpoints that cannot reach a remote are saved as a bundle.
      ...(options.bundle ? {} : { 'push-checkpoints': 'never' }),
    },
    env: { PROCTOR_MATRIX_KEY: leg, ...runnerEnv(service, RUN, 'agent', options.resultsUrl) },
  })
  return { ...run, dir: ws.dir }
}

function writes(server: GitHubApiServer) {
  return server.calls.filter((c) => c.method !== 'GET')
}

describe('a fork pull request uploads its report as an artifact', () => {
  it('proctor-report-<session> holds report.json and the checkpoint bundle; no GitHub writes; a 500 on finalize is retried', async () => {
    const { service, server } = await startServers()
    service.inject({ kind: 'status', status: 500, operation: 'FinalizeArtifact', times: 1 })
    const run = await forkLeg(service, server, 'a', { bundle: true })

    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.outputs).toMatchObject({
      verdict: 'allow',
      status: 'completed',
      'session-id': `${RUN}-1-agent-a`,
    })
    expect(writes(server)).toEqual([])
    expect(run.stdout).toContain(`uploaded 2 file(s) as artifact proctor-report-${RUN}-1-agent-a`)

    const [artifact, ...others] = service.store.listForRun(RUN)
    expect(others).toEqual([])
    expect(artifact!.name).toBe(`proctor-report-${RUN}-1-agent-a`)
    const files = service.store.filesOf(artifact!)
    expect([...files.keys()].sort()).toEqual(['checkpoints.bundle', 'report.json'])
    const sessionDir = join(run.dir, '.proctor/sessions', `${RUN}-1-agent-a`)
    // The session's report.json, redacted like the log (nothing here to redact: the same content).
    expect(JSON.parse(files.get('report.json')!.toString('utf8'))).toEqual(
      JSON.parse(readFileSync(join(sessionDir, 'report.json'), 'utf8')),
    )
    // The bundle carries the checkpoint ref at the checkpoint the report names.
    const report = JSON.parse(files.get('report.json')!.toString('utf8')) as {
      checkpoints: Array<{ sha: string }>
    }
    const bundle = join(tempDir('proctor-e2e-bundle-'), 'checkpoints.bundle')
    writeFileSync(bundle, files.get('checkpoints.bundle')!)
    const heads = execFileSync('git', ['bundle', 'list-heads', bundle], { encoding: 'utf8' })
    expect(heads.trim()).toBe(`${report.checkpoints.at(-1)!.sha} refs/proctor/${RUN}-1-agent-a`)

    // The client retried the failed finalize; the upload itself went through block + block list.
    expect(service.count('FinalizeArtifact')).toBe(2)
    expect(service.count('PutBlockList')).toBe(1)
    expect(artifact!.digest).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(service.validationFailures).toEqual([])
    expect(server.validationFailures).toEqual([])
  })

  it('an upload that fails (name taken, or the results service down) is a warning: same verdict, same exit code', async () => {
    const { service, server } = await startServers()
    // A leftover of an earlier attempt holds the name: the service answers 409 already_exists.
    service.store.seed(RUN, `proctor-report-${RUN}-1-agent-a`, { files: { 'report.json': '{}' } })
    const taken = await forkLeg(service, server, 'a')
    expect(taken.code, taken.stdout + taken.stderr).toBe(0)
    expect(taken.outputs).toMatchObject({ verdict: 'allow', status: 'completed' })
    expect(taken.stdout).toMatch(/::warning::proctor: could not upload the report artifact: .*already exists/)
    expect(service.count('CreateArtifact')).toBe(1)

    const down = await forkLeg(service, server, 'b', {
      resultsUrl: `http://127.0.0.1:${await closedPort()}/`,
    })
    expect(down.code, down.stdout + down.stderr).toBe(0)
    expect(down.outputs).toMatchObject({ verdict: 'allow', status: 'completed' })
    expect(down.stdout).toMatch(/::warning::proctor: could not upload the report artifact: .*ECONNREFUSED/)
    expect(down.summary).toContain(`${RUN}-1-agent-b`)
    expect(service.store.listForRun(RUN).map((a) => a.name)).toEqual([`proctor-report-${RUN}-1-agent-a`])
    expect(writes(server)).toEqual([])
    expect(service.validationFailures).toEqual([])
  })
})

/** The `workflow_run` payload of the `proctor` run `RUN` that built the fork's HEAD. */
function workflowRunEvent() {
  const payload = examplePayload('workflow_run', 'completed') as {
    workflow_run: Record<string, unknown> & { head_repository: { full_name: string } }
    repository: { full_name: string; name: string; owner: { login: string } }
  }
  Object.assign(payload.workflow_run, { id: RUN, head_sha: HEAD, pull_requests: [] })
  payload.workflow_run.head_repository.full_name = 'mallory/widgets'
  Object.assign(payload.repository, { full_name: 'acme/widgets', name: 'widgets' })
  return { name: 'workflow_run', payload }
}

/** The aggregate job's directory: proctor.yml records each subagent_batch_complete payload. */
function aggregateDir(): string {
  const dir = tempDir('proctor-e2e-agg-')
  writeFileSync(join(dir, 'capture.mjs'), 'process.stdin.pipe(process.stdout)\n')
  writeFileSync(
    join(dir, 'proctor.yml'),
    `hooks:\n  subagent_batch_complete:\n    - { command: "node capture.mjs >> batch-hook.jsonl" }\n`,
  )
  return dir
}

function batchHookPayloads(dir: string): Array<{ extra: Record<string, number> }> {
  return readFileSync(join(dir, 'batch-hook.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { extra: Record<string, number> })
}

describe('mode: aggregate downloads the artifacts', () => {
  it("on workflow_run: the triggering run's artifacts through the REST API, one comment and one check for all legs, faults reported", async () => {
    const { service, server } = await startServers({
      pulls: { [PR]: { headSha: HEAD, headRepo: 'mallory/widgets' } },
    })
    // Two legs of the fork's run upload for real; a third leg's artifact holds no report.json, a
    // fourth's download fails, and an unrelated artifact does not match the pattern.
    const a = await forkLeg(service, server, 'a')
    const b = await forkLeg(service, server, 'b', { agentArgs: 'fail' })
    expect([a.code, b.code], a.stdout + b.stdout).toEqual([0, 1])
    service.store.seed(RUN, `proctor-report-${RUN}-1-agent-c`, {
      files: { 'transcript.log': 'no report here\n' },
    })
    const d = service.store.seed(RUN, `proctor-report-${RUN}-1-agent-d`, {
      files: { 'report.json': JSON.stringify(sessionReport({ session_id: 'leg-d', ci: { pr: PR } })) },
    })
    service.store.seed(RUN, 'coverage', { files: { 'report.json': '{}' } })
    server.inject({
      kind: 'status',
      status: 502,
      operationId: 'actions/download-artifact',
      pathIncludes: `/artifacts/${d.id}/`,
    })

    const dir = aggregateDir()
    const run = await runStep({
      entry: 'index',
      cwd: dir,
      apiUrl: server.url,
      event: workflowRunEvent(),
      inputs: { mode: 'aggregate', 'artifact-pattern': 'proctor-report-*' },
      // The aggregate is a job of another run: its runtime token cannot see the fork run's artifacts.
      env: { GITHUB_RUN_ID: '5151', GITHUB_JOB: 'report', ...runnerEnv(service, 5151, 'report') },
    })

    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.outputs).toMatchObject({
      verdict: 'block',
      'child-count': '4',
      'completed-count': '1',
      'failed-count': '1',
      'errored-count': '2',
    })
    const comments = server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    const body = comments[0]!.body
    // The key names the aggregate's own workflow and job.
    expect(body.split('\n')[0]).toBe('<!-- proctor:proctor/report/batch -->')
    expect(body).toContain(`${RUN}-1-agent-a`)
    expect(body).toContain(`${RUN}-1-agent-b`)
    expect(body).toContain(`proctor-report-${RUN}-1-agent-c holds no report.json`)
    expect(body).toMatch(new RegExp(`proctor-report-${RUN}-1-agent-d could not be downloaded`))
    expect(body).not.toContain('coverage')
    const checks = [...server.state.checkRuns.values()]
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ name: 'proctor / batch', head_sha: HEAD, conclusion: 'failure' })

    const fired = batchHookPayloads(dir)
    expect(fired).toHaveLength(1)
    const extra = fired[0]!.extra
    expect(extra.child_count).toBe(4)
    expect(
      extra.completed_count +
        extra.failed_count +
        extra.errored_count +
        extra.interrupted_count +
        extra.timeout_count,
    ).toBe(4)

    // Everything came through the public API; the results service saw only the legs' uploads.
    expect(server.count('actions/list-workflow-run-artifacts')).toBe(1)
    expect(server.count('actions/download-artifact')).toBe(4)
    expect(service.count('ListArtifacts') + service.count('GetSignedArtifactURL')).toBe(0)
    expect(service.count('GetBlob')).toBe(3)
    expect(server.validationFailures).toEqual([])
    expect(service.validationFailures).toEqual([])
  })

  it('in the same run: through the results service, the latest attempt of each session; with the service down, one errored child says why', async () => {
    const { service, server } = await startServers()
    const report = (id: string, over = {}) =>
      JSON.stringify(sessionReport({ session_id: id, ci: { pr: PR }, ...over }))
    const seed = (name: string, files: Record<string, string>) =>
      service.store.seed(RUN, `proctor-report-${RUN}-${name}`, { files })
    // Leg x failed in attempt 1 and passed when the failed jobs were re-run: only attempt 2 counts.
    seed('1-agent-x', { 'report.json': report('leg-x-1', { status: 'failed', verdict: 'block' }) })
    seed('1-agent-y', { 'report.json': report('leg-y'), 'checkpoints.bundle': 'not read by the aggregate' })
    seed('2-agent-x', { 'report.json': report('leg-x-2') })
    seed('1-agent-z', { 'nested/report.json': report('leg-z') })
    const event = {
      name: 'pull_request',
      payload: pullRequestPayload({ number: PR, headSha: HEAD, baseSha: HEAD }),
    }

    const dir = aggregateDir()
    const run = await runStep({
      entry: 'index',
      cwd: dir,
      apiUrl: server.url,
      event,
      inputs: { mode: 'aggregate', 'artifact-pattern': 'proctor-report-*' },
      env: { GITHUB_JOB: 'aggregate', ...runnerEnv(service, RUN, 'aggregate') },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.outputs).toMatchObject({ verdict: 'allow', 'child-count': '3', 'completed-count': '3' })
    const body = server.state.commentsOn(PR)[0]!.body
    for (const leg of ['leg-x-2', 'leg-y', 'leg-z']) expect(body).toContain(leg)
    expect(body).not.toContain('leg-x-1')
    expect(run.stdout).toContain(`skipping artifact proctor-report-${RUN}-1-agent-x`)
    expect([...server.state.checkRuns.values()]).toEqual([
      expect.objectContaining({ name: 'proctor / batch', conclusion: 'success' }),
    ])
    expect(batchHookPayloads(dir)).toHaveLength(1)
    // One listing, then per artifact a lookup by id and a signed URL; nothing via the REST endpoints.
    expect(service.count('ListArtifacts')).toBe(1 + 3)
    expect(service.count('GetSignedArtifactURL')).toBe(3)
    expect(
      server.count('actions/list-workflow-run-artifacts') + server.count('actions/download-artifact'),
    ).toBe(0)
    expect(service.validationFailures).toEqual([])

    // The results service down: the aggregate still reports, with the problem as an errored child.
    const downDir = aggregateDir()
    const down = await runStep({
      entry: 'index',
      cwd: downDir,
      apiUrl: server.url,
      event,
      inputs: { mode: 'aggregate', 'artifact-pattern': 'proctor-report-*' },
      env: {
        GITHUB_JOB: 'aggregate',
        ...runnerEnv(service, RUN, 'aggregate', `http://127.0.0.1:${await closedPort()}/`),
      },
    })
    expect(down.code, down.stdout + down.stderr).toBe(1)
    expect(down.outputs).toMatchObject({ verdict: 'block', 'child-count': '1', 'errored-count': '1' })
    expect(down.summary).toMatch(/could not list artifacts: .*ECONNREFUSED/)
    expect(server.state.commentsOn(PR)).toHaveLength(1)
    expect(server.state.commentsOn(PR)[0]!.body).toMatch(/could not list artifacts/)
    expect(batchHookPayloads(downDir)[0]!.extra.errored_count).toBe(1)
    expect(server.validationFailures).toEqual([])
  })
})

describe('the local artifact service', () => {
  it('answers malformed or unauthorized requests as the real services would, and records them', async () => {
    const { service, server } = await startServers()
    const token = service.runtimeToken(RUN, 'agent')
    const [, payload] = token.split('.')
    const scope = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { scp: string }
    const [, runId, jobId] = /Actions\.Results:(\S+):(\S+)/.exec(scope.scp)!
    const rpc = (method: string, body: unknown, auth = token) =>
      fetch(`${service.url}/twirp/github.actions.results.api.v1.ArtifactService/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, json: (await res.json()) as Record<string, string> }))
    const ids = { workflow_run_backend_id: runId, workflow_job_run_backend_id: jobId }

    const forged = `${token.slice(0, token.lastIndexOf('.'))}.c2lnbmF0dXJl`
    expect((await rpc('ListArtifacts', ids, forged)).status).toBe(401)
    expect(await rpc('ListArtifacts', { ...ids, name_filtr: 'x' })).toMatchObject({
      status: 400,
      json: { code: 'malformed' },
    })
    const otherRun = { ...ids, workflow_run_backend_id: service.store.runBackendId(9) }
    expect((await rpc('ListArtifacts', otherRun)).status).toBe(403)
    expect((await rpc('CreateArtifact', { ...ids, name: 'a/b', version: 7 })).json.code).toBe(
      'invalid_argument',
    )

    const created = await rpc('CreateArtifact', { ...ids, name: 'report', version: 7 })
    const upload = new URL(created.json.signed_upload_url!)
    const put = (url: URL | string, body: string, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'PUT', headers: { 'x-ms-version': '2025-05-05', ...headers }, body })
    const tampered = new URL(upload)
    tampered.searchParams.set('sp', 'rcw')
    expect((await put(tampered, 'zip', { 'x-ms-blob-type': 'BlockBlob' })).status).toBe(403)
    expect((await put(upload, 'zip', { 'x-ms-blob-type': 'BlockBlob' })).status).toBe(201)
    expect((await rpc('FinalizeArtifact', { ...ids, name: 'report', size: '99' })).json.code).toBe(
      'invalid_argument',
    )
    const finalized = await rpc('FinalizeArtifact', { ...ids, name: 'report', size: '3' })
    expect(finalized).toMatchObject({ status: 200, json: { ok: true } })

    // The public REST side: the artifact is listed for the run, and its download is a 302 to the zip.
    const rest = (path: string) =>
      fetch(`${server.url}/repos/acme/widgets${path}`, {
        headers: { authorization: 'token ghs_test' },
        redirect: 'manual',
      })
    const listed = (await (await rest(`/actions/runs/${RUN}/artifacts?per_page=100`)).json()) as {
      artifacts: Array<{ id: number; name: string }>
    }
    expect(listed.artifacts.map((a) => a.name)).toEqual(['report'])
    const download = await rest(`/actions/artifacts/${listed.artifacts[0]!.id}/zip`)
    expect(download.status).toBe(302)
    const blob = await fetch(download.headers.get('location')!)
    expect(await blob.text()).toBe('zip')
    // Read-only: the download URL cannot overwrite the blob.
    expect(
      (await put(download.headers.get('location')!, 'evil', { 'x-ms-blob-type': 'BlockBlob' })).status,
    ).toBe(403)

    expect(service.validationFailures.map((f) => f.message)).toEqual([
      expect.stringContaining('not one this service issued'),
      expect.stringContaining('unknown field "name_filtr"'),
      expect.stringContaining('not scoped'),
      expect.stringContaining('"a/b" is not valid'),
      expect.stringContaining('AuthenticationFailed'),
      expect.stringContaining('size 99 does not match'),
      expect.stringContaining('AuthorizationPermissionMismatch'),
    ])
    expect(server.validationFailures).toEqual([])
  })
})
