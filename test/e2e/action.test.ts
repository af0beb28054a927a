// The built GitHub Action end to end: dist/index.js and dist/post.js run as the runner runs them,
// against the local GitHub API server (every request validated against GitHub's OpenAPI description)
// and a real git smart-HTTP server for the checkpoint pushes. Octokit spaces writes 1 s apart as in
// production, so each session takes a few seconds.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest'
import { execFileSync } from 'node:child_process'
import {
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  existsSync,
  mkdirSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  startGitHubApiServer,
  type GitHubApiServer,
  type GitHubApiServerOptions,
} from '../servers/github-api.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { sessionReport } from '../unit/github-fixtures.js'
import {
  alive,
  closedPort,
  distProblem,
  examplePayload,
  pullRequestPayload,
  runStep,
  until,
  TOKEN,
  type ActionResult,
} from './action-harness.js'

const PR = 7
const SESSION = '4242-1-agent'
const BRANCH = `refs/heads/proctor/${SESSION}`
const MARKER = '<!-- proctor:proctor/agent -->'

const AGENT = `import { mkdirSync, writeFileSync } from 'node:fs'
mkdirSync('src', { recursive: true })
writeFileSync('src/feature.js', 'export const feature = 1\\n')
mkdirSync('secrets', { recursive: true })
writeFileSync('secrets/key.txt', 'not a key\\n')
console.log('agent: wrote src/feature.js and secrets/key.txt')
if (process.argv[2] === 'sleep') {
  // Like many CLIs it survives its terminal closing (SIGHUP when proctor dies), so only a reaper stops it.
  process.on('SIGHUP', () => {})
  writeFileSync(process.env.E2E_AGENT_PID, String(process.pid))
  console.log('agent: thinking for a long time')
  setInterval(() => {}, 1000)
}
`
// A stop hook that blocks with a reason, and one that hangs (for the SIGKILL case), recording its pid.
const LINT = `process.stderr.write('lint: src/feature.js is missing a test\\n'); process.exit(2)\n`
const HANG = `import { writeFileSync } from 'node:fs'
writeFileSync(process.env.E2E_HOOK_PID, String(process.pid))
setInterval(() => {}, 1000)
`
const CONFIG = `policy:
  forbidden_areas: ['secrets/**']
  violation_severity: error
checkpoints:
  interval: 10m
  min_interval: 0s
max_stop_rounds: 1
stop_hooks:
  - { name: tests, command: [node, -e, "process.exit(0)"] }
  - { name: lint, command: [node, lint.mjs] }
`

let git: GitHttpServer
let gitRoot: string
let api: GitHubApiServer | null = null
const cleanups: Array<() => void> = []

beforeAll(async () => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
  gitRoot = mkdtempSync(join(tmpdir(), 'proctor-e2e-git-'))
  git = await startGitHttpServer({ projectRoot: gitRoot })
})

afterAll(async () => {
  await git?.close()
  rmSync(gitRoot, { recursive: true, force: true })
})

afterEach(async () => {
  await api?.close()
  api = null
  for (const cleanup of cleanups.splice(0)) cleanup()
})

let repoCount = 0
interface Workspace {
  repo: TempRepo
  head: string
  bare: string
  remoteSha(ref: string): string | null
  files: string
}

function workspace(config = CONFIG, extra: Record<string, string> = {}): Workspace {
  const repo = makeTempRepo({
    files: {
      'README.md': '# widgets\n',
      'proctor.yml': config,
      'agent.mjs': AGENT,
      'lint.mjs': LINT,
      'hang.mjs': HANG,
      ...extra,
    },
  })
  const name = `widgets-${++repoCount}.git`
  const bare = git.createRepo(name)
  repo.git(['remote', 'add', 'origin', git.repoUrl(name)])
  const files = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-e2e-files-')))
  cleanups.push(
    () => repo.cleanup(),
    () => rmSync(files, { recursive: true, force: true }),
  )
  return {
    repo,
    head: repo.git(['rev-parse', 'HEAD']).trim(),
    bare,
    files,
    remoteSha(ref) {
      try {
        return execFileSync('git', ['--git-dir', bare, 'rev-parse', '--verify', '-q', ref], {
          encoding: 'utf8',
        }).trim()
      } catch {
        return null
      }
    },
  }
}

async function startApi(options: GitHubApiServerOptions = {}): Promise<GitHubApiServer> {
  api = await startGitHubApiServer(options)
  return api
}

function prEvent(ws: Workspace, fork = false) {
  return {
    name: 'pull_request',
    payload: pullRequestPayload({ number: PR, headSha: ws.head, baseSha: ws.head, fork }),
  }
}

/**
 * Main with an agent that runs `script` and then SIGKILLs the action's main process (its ancestor running
 * index.js), as an OOM kill or a hostile agent would; then the post step. Returns the post step's run.
 */
async function killMainThenPost(server: GitHubApiServer, ws: Workspace, name: string, script: string) {
  const file = join(ws.files, `${name}.mjs`)
  writeFileSync(
    file,
    `import { readFileSync as readProc } from 'node:fs'
${script}let pid = process.ppid
while (pid > 1) {
  const cmd = readProc('/proc/' + pid + '/cmdline', 'latin1')
  if (cmd.includes('index.js')) { process.kill(pid, 'SIGKILL'); break }
  pid = Number(readProc('/proc/' + pid + '/stat', 'latin1').split(') ')[1].split(' ')[1])
}
setInterval(() => {}, 1000)
`,
  )
  const step = {
    cwd: ws.repo.dir,
    apiUrl: server.url,
    event: prEvent(ws),
    inputs: { command: `node ${file}` },
  }
  const main = await runStep({ entry: 'index', ...step })
  expect(main.signal, main.stdout + main.stderr).toBe('SIGKILL')
  const started = Date.now()
  const post = await runStep({ entry: 'post', ...step, state: main.state })
  return { post, started }
}

function writes(server: GitHubApiServer) {
  return server.calls.filter((c) => c.method !== 'GET')
}

function expectSessionOutputs(run: ActionResult, ws: Workspace) {
  expect(run.outputs).toMatchObject({
    verdict: 'block',
    status: 'completed',
    'session-id': SESSION,
    'checkpoint-ref': `refs/proctor/${SESSION}`,
    violations: '1',
    'report-path': join(ws.repo.dir, '.proctor/sessions', SESSION, 'report.json'),
  })
  expect(Number(run.outputs['checkpoint-count'])).toBeGreaterThanOrEqual(1)
  expect(run.outputs['checkpoint-sha']).toMatch(/^[0-9a-f]{40}$/)
}

describe('the action on a pull request', () => {
  it('reports one sticky comment, check runs with annotations, the summary and outputs; a re-run edits the same comment', async () => {
    const server = await startApi()
    const ws = workspace()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
    })

    // lint blocked (max_stop_rounds 1): the step fails, by the verdict.
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expectSessionOutputs(run, ws)
    expect(ws.remoteSha(BRANCH)).toBe(run.outputs['checkpoint-sha'])

    const comments = server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body.split('\n')[0]).toBe(MARKER)
    expect(comments[0]!.body).toMatch(/block/)
    expect(comments[0]!.body).toContain('secrets/key.txt')
    expect(run.outputs['comment-url']).toBe(
      `https://github.com/acme/widgets/pull/${PR}#issuecomment-${comments[0]!.id}`,
    )

    const [tests] = server.state.checkRunsNamed('proctor / tests')
    const [lint] = server.state.checkRunsNamed('proctor / lint')
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(tests).toMatchObject({
      head_sha: ws.head,
      status: 'completed',
      conclusion: 'success',
      external_id: SESSION,
    })
    expect(lint).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(lint!.output.text).toContain('src/feature.js is missing a test')
    expect(policy).toMatchObject({ conclusion: 'failure' })
    expect(policy!.annotations).toEqual([
      expect.objectContaining({ path: 'secrets/key.txt', annotation_level: 'failure' }),
    ])
    expect(server.state.checkRuns.size).toBe(3)

    expect(run.summary).toContain('proctor')
    expect(run.summary).toContain('secrets/key.txt')
    expect(run.summary).toContain('lint')
    expect(run.state['proctor-finished']).toBe('true')
    // The token shows up only in the command that asks the runner to mask it.
    expect(run.stdout.split('\n').filter((line) => line.includes('ghs_E2e'))).toEqual([
      `::add-mask::${TOKEN}`,
    ])

    // The API budget (docs/github.md#api-cost): a short one-job session with 2 hooks makes 4 writes — each
    // hook check created completed, the policy check, the comment created once with the final summary.
    expect(
      server.calls
        .filter((c) => c.method !== 'GET')
        .map((c) => c.operationId)
        .sort(),
    ).toEqual(['checks/create', 'checks/create', 'checks/create', 'issues/create-comment'])
    expect(server.count('issues/list-comments')).toBeLessThanOrEqual(1)
    expect(server.validationFailures).toEqual([])

    // The post step has nothing to do after a finished main step.
    const before = server.calls.length
    const post = await runStep({
      entry: 'post',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      state: run.state,
    })
    expect(post.code).toBe(0)
    expect(server.calls.length).toBe(before)

    // Re-run of the job: the same comment is edited, never a second one.
    const rerun = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
      attempt: 2,
    })
    expect(rerun.code).toBe(1)
    expect(rerun.outputs['session-id']).toBe('4242-2-agent')
    expect(server.state.commentsOn(PR)).toHaveLength(1)
    expect(server.count('issues/create-comment')).toBe(1)
    expect(server.state.commentsOn(PR)[0]!.body).toContain('4242-2-agent')
    expect(rerun.outputs['comment-url']).toBe(run.outputs['comment-url'])
    expect(server.validationFailures).toEqual([])
  })

  it('GitHub down (connection refused, or 500s): same verdict and exit code, the summary is still written', async () => {
    const ws = workspace()
    const refused = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: `http://127.0.0.1:${await closedPort()}`,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
    })
    expect(refused.code, refused.stdout + refused.stderr).toBe(1)
    expectSessionOutputs(refused, ws)
    expect(refused.outputs['comment-url']).toBe('')
    expect(refused.summary).toContain('secrets/key.txt')
    expect(refused.stdout).toMatch(/::warning::proctor: GitHub/)
    // The outage breaker: one request's retries, then no more waiting on GitHub.
    expect(refused.stdout).toContain('skipping further API calls')

    const ws2 = workspace()
    const server = await startApi({ faults: [{ kind: 'status', status: 500, times: 10_000 }] })
    const failing = await runStep({
      entry: 'index',
      cwd: ws2.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws2),
      inputs: { command: 'node agent.mjs' },
    })
    expect(failing.code).toBe(1)
    expectSessionOutputs(failing, ws2)
    expect(failing.summary).toContain('secrets/key.txt')
    expect(ws2.remoteSha(BRANCH)).toBe(failing.outputs['checkpoint-sha'])
    expect(server.state.comments.size).toBe(0)
  })

  it('a fork pull request makes zero writes to GitHub: summary, workflow annotations, exit by the verdict', async () => {
    const server = await startApi()
    const ws = workspace()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws, true),
      inputs: { command: 'node agent.mjs', 'push-checkpoints': 'never' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.outputs.verdict).toBe('block')
    expect(writes(server)).toEqual([])
    expect(run.summary).toContain('secrets/key.txt')
    expect(run.stdout).toContain('::error title=proctor / lint::')
    expect(run.stdout).toContain('file=secrets/key.txt')
    expect(run.stdout).toContain('read-only token')
  })
})

// The agent of the task tests: records the argv and PROCTOR_TASK* it got, changes one file.
const TASK_AGENT = `import { writeFileSync } from 'node:fs'
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('PROCTOR_TASK')))
writeFileSync(process.env.E2E_RECORD, JSON.stringify({ argv: process.argv.slice(2), env }))
writeFileSync('README.md', '# widgets, fixed\\n')
console.log('agent: task received')
`
const TASK_CONFIG = `agent:
  command: [node, task-agent.mjs, "{task}"]
checkpoints:
  interval: 10m
  min_interval: 0s
stop_hooks:
  - { name: tests, command: [node, -e, "process.exit(0)"] }
`

interface CommentPayload {
  action: string
  issue: Record<string, unknown> & { number: number }
  comment: { id: number; body: string; html_url: string; user: { login: string; type: string } }
}

/** An issue_comment (created) on pull request PR, from @octokit/webhooks-examples, by `user`. */
function commentEvent(body: string, user: { login: string; type?: string } = { login: 'alice' }) {
  const payload = examplePayload('issue_comment', 'created') as unknown as CommentPayload
  payload.issue.number = PR
  payload.issue.pull_request = { url: `https://api.github.com/repos/acme/widgets/pulls/${PR}` }
  payload.comment.body = body
  payload.comment.user = { ...payload.comment.user, type: 'User', ...user }
  payload.comment.html_url = `https://github.com/acme/widgets/pull/${PR}#issuecomment-${payload.comment.id}`
  return { name: 'issue_comment', payload }
}

describe('a task from a comment', () => {
  const taskWorkspace = () => workspace(TASK_CONFIG, { 'task-agent.mjs': TASK_AGENT })
  const record = (ws: Workspace) => join(ws.files, 'record.json')
  const recorded = (ws: Workspace) =>
    JSON.parse(readFileSync(record(ws), 'utf8')) as { argv: string[]; env: Record<string, string> }
  const taskApi = (headRepo = 'acme/widgets', ws?: Workspace) =>
    startApi({
      collaborators: { alice: 'write', mallory: 'read' },
      pulls: { [PR]: { headSha: ws?.head ?? '0'.repeat(40), headRepo } },
    })

  it('"@proctor fix the typo in README": the agent gets the task as {task} and PROCTOR_TASK, the comment an eyes reaction, the sticky comment quotes it', async () => {
    const ws = taskWorkspace()
    const server = await taskApi('acme/widgets', ws)
    const event = commentEvent('Looks off. @proctor fix the typo in README')
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event,
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(recorded(ws)).toEqual({
      argv: ['fix the typo in README'],
      env: {
        PROCTOR_TASK: 'fix the typo in README',
        PROCTOR_TASK_AUTHOR: 'alice',
        PROCTOR_TASK_URL: event.payload.comment.html_url,
      },
    })
    expect(server.state.reactions).toEqual([
      { on: 'issue', commentId: event.payload.comment.id, content: 'eyes', user: 'github-actions[bot]' },
    ])
    // The reaction comes first: before the permission-checked session reports anything.
    const ops = server.calls.map((c) => c.operationId)
    expect(ops.indexOf('reactions/create-for-issue-comment')).toBeLessThan(
      ops.indexOf('issues/create-comment'),
    )
    const [comment] = server.state.commentsOn(PR)
    expect(comment!.body).toContain(
      '**Task** from @&#8203;alice in [this comment](<' + event.payload.comment.html_url + '>):',
    )
    expect(comment!.body).toContain('> fix the typo in README')
    expect(comment!.body).toContain('/actions/runs/4242')
    expect(run.stdout).toContain('proctor: task from alice (issue_comment)')
    expect(server.validationFailures).toEqual([])
  })

  it('shell metacharacters, $(...), backticks, newlines and @mentions arrive byte-exact as one argument; the comment neutralizes them', async () => {
    const task = [
      'fix it; rm -rf / && echo $(id) `whoami` $HOME "dq" \'sq\' | tee x > y < z &',
      'second line {task} $& \\ * ?',
      'cc @bob @acme/team #12 <img src=x onerror=alert(1)>',
    ].join('\n')
    const ws = taskWorkspace()
    const server = await taskApi('acme/widgets', ws)
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: commentEvent(`/proctor ${task}`),
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(recorded(ws).argv).toEqual([task])
    expect(recorded(ws).env.PROCTOR_TASK).toBe(task)
    expect(ws.repo.exists('x')).toBe(false)
    const body = server.state.commentsOn(PR)[0]!.body
    expect(body).not.toMatch(/@(bob|acme)/)
    expect(body).toContain('@&#8203;bob')
    expect(body).not.toContain('<img')
    expect(body).not.toMatch(/(^|[^&])#12/)
    expect(server.validationFailures).toEqual([])
  })

  it('a comment on an issue (no pull request): the sticky comment goes on the issue; a review comment gets its eyes on the review-comment endpoint', async () => {
    const ws = taskWorkspace()
    const server = await taskApi('acme/widgets', ws)
    const event = commentEvent('/proctor write the changelog')
    delete event.payload.issue.pull_request
    event.payload.issue.number = 12
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event,
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(recorded(ws).argv).toEqual(['write the changelog'])
    expect(server.state.commentsOn(12)[0]!.body).toContain('> write the changelog')
    // No pull request: nothing asked GitHub about a fork.
    expect(server.count('pulls/get')).toBe(0)

    const review = examplePayload('pull_request_review_comment', 'created') as {
      comment: { id: number; body: string; user: { login: string; type: string } }
      pull_request: { number: number; head: { sha: string } }
    }
    review.comment.body = '@proctor rename this variable'
    review.comment.user = { ...review.comment.user, login: 'alice', type: 'User' }
    const second = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: { name: 'pull_request_review_comment', payload: review },
      env: { E2E_RECORD: record(ws) },
      attempt: 2,
    })
    expect(second.code, second.stdout + second.stderr).toBe(0)
    expect(recorded(ws).env.PROCTOR_TASK).toBe('rename this variable')
    expect(server.state.reactions.at(-1)).toEqual({
      on: 'review',
      commentId: review.comment.id,
      content: 'eyes',
      user: 'github-actions[bot]',
    })
    expect(server.state.commentsOn(review.pull_request.number)[0]!.body).toContain('> rename this variable')
    expect(server.validationFailures).toEqual([])
  })

  it('the label: the issue title and body are the task; another label (even one shaped like a workflow command) starts nothing', async () => {
    const ws = taskWorkspace()
    const server = await taskApi()
    const payload = examplePayload('issues', 'labeled') as {
      label: { name: string }
      issue: { number: number; title: string; body: string | null }
      sender: { login: string; type: string }
    }
    payload.sender = { ...payload.sender, login: 'alice', type: 'User' }
    payload.issue.title = 'Typo in README'
    payload.issue.body = 'It says "teh".'
    payload.label.name = '::warning::forged'
    const other = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: { name: 'issues', payload },
      env: { E2E_RECORD: record(ws) },
    })
    expect(other.code, other.stdout + other.stderr).toBe(0)
    expect(other.stdout).toContain('proctor: nothing to do: the label')
    expect(other.stdout.split('\n').some((line) => line.startsWith('::warning::forged'))).toBe(false)
    expect(server.calls).toEqual([])

    payload.label.name = 'proctor'
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: { name: 'issues', payload },
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(recorded(ws).argv).toEqual(['Typo in README\n\nIt says "teh".'])
    expect(recorded(ws).env.PROCTOR_TASK_AUTHOR).toBe('alice')
    expect(server.state.commentsOn(payload.issue.number)[0]!.body).toContain('Typo in README')
    expect(server.state.reactions).toEqual([])
    expect(server.validationFailures).toEqual([])
  })

  it('a comment without the phrase: exit 0, one log line, no agent, not a single GitHub call', async () => {
    const ws = taskWorkspace()
    const server = await taskApi()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: commentEvent('LGTM, thanks proctor'),
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(
      'proctor: nothing to do: the comment does not mention "@proctor" or "/proctor"',
    )
    expect(existsSync(record(ws))).toBe(false)
    expect(server.calls).toEqual([])
    expect(run.summary).toBe('')
  })

  it('a bot starts nothing: exit 0, no agent, no GitHub write', async () => {
    const ws = taskWorkspace()
    const server = await taskApi()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: commentEvent('@proctor bump everything', { login: 'renovate[bot]', type: 'Bot' }),
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('renovate[bot] is a bot; bots do not start sessions')
    expect(existsSync(record(ws))).toBe(false)
    expect(writes(server)).toEqual([])
    expect(server.state.reactions).toEqual([])
  })

  it('a commenter without write access: exit 1, the agent never starts, nothing written to GitHub', async () => {
    const ws = taskWorkspace()
    const server = await taskApi()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: commentEvent('@proctor delete the tests', { login: 'mallory' }),
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('mallory does not have write access')
    expect(existsSync(record(ws))).toBe(false)
    expect(server.count('repos/get-collaborator-permission-level')).toBe(1)
    expect(writes(server)).toEqual([])
  })

  it('mode acknowledge (the first job of proctor init --trigger mention): the reaction and output task=true for a writer; task=false and exit 1 for a reader; no agent either way', async () => {
    const ws = taskWorkspace()
    const server = await taskApi()
    const event = commentEvent('@proctor fix the typo in README')
    const ok = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event,
      inputs: { mode: 'acknowledge' },
      env: { E2E_RECORD: record(ws) },
    })
    expect(ok.code, ok.stdout + ok.stderr).toBe(0)
    expect(ok.outputs.task).toBe('true')
    expect(server.state.reactions).toMatchObject([
      { on: 'issue', commentId: event.payload.comment.id, content: 'eyes' },
    ])
    const refused = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: commentEvent('@proctor fix the typo in README', { login: 'mallory' }),
      inputs: { mode: 'acknowledge' },
      env: { E2E_RECORD: record(ws) },
    })
    expect(refused.code).toBe(1)
    expect(refused.outputs.task).toBe('false')
    expect(refused.stdout).toContain('mallory does not have write access')
    expect(server.state.reactions).toHaveLength(1)
    expect(existsSync(record(ws))).toBe(false)
    // The writer's task: the reaction, then round 1 in the conversation comment (what `/proctor stop` cancels).
    expect(writes(server).map((c) => c.operationId)).toEqual([
      'reactions/create-for-issue-comment',
      'issues/create-comment',
    ])
    expect(server.state.commentsOn(PR)[0]!.body).toMatch(
      /^<!-- proctor:conversation -->\n### 💬 proctor · round 1 running/,
    )
    expect(server.validationFailures).toEqual([])
  })

  it("a task on a fork's pull request in the one-job layout: exit 1, nothing started, the fix named", async () => {
    const ws = taskWorkspace()
    const server = await taskApi('mallory/widgets', ws)
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: commentEvent('@proctor run the fork code'),
      env: { E2E_RECORD: record(ws) },
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      `pull request #${PR} comes from a fork; a task on it needs the two-job layout`,
    )
    expect(existsSync(record(ws))).toBe(false)
    expect(writes(server)).toEqual([])
  })
})

// A test suite run the way users write it (`npm test`, no `|| exit 2`): exit 1 and the failure on stdout.
const TEST_SUITE = `const { greet } = await import('./greeting.mjs')
console.log('running 1 test')
const got = greet('ci')
if (got !== 'hello, ci') {
  console.log('FAIL greet: expected "hello, ci", got ' + JSON.stringify(got))
  console.error('1 test failed')
  process.exit(1)
}
console.log('1 test passed')
`
// A scripted agent with a bug; re-run with --continue "<reason>" it keeps the reason and fixes the bug.
const FIXING_AGENT = `import { writeFileSync } from 'node:fs'
const at = process.argv.indexOf('--continue')
if (at < 0) {
  writeFileSync('greeting.mjs', "export const greet = (name) => 'helo, ' + name\\n")
  console.log('agent: wrote greeting.mjs')
} else {
  writeFileSync('reason.txt', process.argv[at + 1])
  writeFileSync('greeting.mjs', "export const greet = (name) => 'hello, ' + name\\n")
  console.log('agent: fixed greeting.mjs')
}
`
const GATE_CONFIG = (hooks: string) => `agent:
  continue: [node, fixing-agent.mjs, --continue, "{reason}"]
checkpoints:
  interval: 10m
  min_interval: 0s
max_stop_rounds: 3
stop_hooks:
${hooks}`

describe('stop hooks as required checks', () => {
  it('a failing test suite (exit 1) fails its check and goes back to the agent; the fix turns the check green', async () => {
    const server = await startApi()
    const ws = workspace(
      GATE_CONFIG(`  - { name: tests, command: "node test.mjs" }
  - { name: coverage, command: "echo 'coverage 71% < 80%'; exit 1", advisory: true }
`),
      { 'test.mjs': TEST_SUITE, 'fixing-agent.mjs': FIXING_AGENT },
    )
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node fixing-agent.mjs' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.outputs).toMatchObject({ verdict: 'allow', status: 'completed' })
    // The agent was sent back with the suite's own output, and fixed the bug.
    const reason = ws.repo.read('reason.txt')
    expect(reason).toContain('tests (node test.mjs) exited 1:')
    expect(reason).toContain('FAIL greet: expected "hello, ci", got "helo, ci"')
    expect(reason).toContain('1 test failed')
    expect(reason).not.toContain('coverage')
    // One check run per round: failure, then success; the advisory hook stays neutral.
    const conclusions = (name: string) =>
      server.state.checkRunsNamed(`proctor / ${name}`).map((check) => check.conclusion)
    expect(conclusions('tests')).toEqual(['failure', 'success'])
    expect(conclusions('coverage')).toEqual(['neutral', 'neutral'])
    expect(server.state.checkRunsNamed('proctor / tests')[0]!.output.text).toContain('FAIL greet')
    expect(server.validationFailures).toEqual([])
  })

  it('a hook that cannot run fails its check and blocks, without sending the agent back', async () => {
    const server = await startApi()
    const ws = workspace(GATE_CONFIG(`  - { name: tests, command: "npm-tset" }\n`), {
      'fixing-agent.mjs': FIXING_AGENT,
    })
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node fixing-agent.mjs' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.outputs).toMatchObject({ verdict: 'block', status: 'completed' })
    expect(ws.repo.exists('reason.txt')).toBe(false)
    const [tests, ...more] = server.state.checkRunsNamed('proctor / tests')
    expect(more).toEqual([])
    expect(tests).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(tests!.output.text).toContain('command not found')
    expect(server.validationFailures).toEqual([])
  })
})

describe('the job log and the limits', () => {
  it('reads like a CI tool: a group per stop hook with its output, a line per checkpoint and push, the verdict with its reason, setFailed', async () => {
    const server = await startApi()
    const ws = workspace()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    const log = run.stdout
    // Each hook in its own group, its output inside, then its result.
    const lint = /::group::stop hook lint \(round 1\)\n([\s\S]*?)::endgroup::/.exec(log)?.[1]
    expect(lint).toContain('lint: src/feature.js is missing a test')
    expect(lint).toMatch(
      /proctor: stop hook lint: blocked after \S+, exit 2: lint: src\/feature\.js is missing a test/,
    )
    expect(log).toMatch(/::group::stop hook tests \(round 1\)\n[\s\S]*?proctor: stop hook tests: passed in /)
    expect(log).toMatch(/^proctor: checkpoint 1 \(.*\): \d+ file\(s\) → [0-9a-f]{12}$/m)
    expect(log).toMatch(/^proctor: pushed to origin proctor\/4242-1-agent$/m)
    expect(log).toMatch(
      /^proctor: verdict block — session completed in \S+: stop hooks still blocked after 1 round\(s\) \(max_stop_rounds: 1\) — lint: lint: src\/feature\.js is missing a test; policy: error forbidden_area: secrets\/key\.txt .*$/m,
    )
    // core.setFailed: an error annotation with the reason.
    expect(log).toMatch(
      /^::error::proctor: stop hooks still blocked .* — lint: lint: src\/feature\.js is missing a test; policy: .*secrets\/key\.txt.*$/m,
    )
    // The agent's output sits inside the runner's stop-commands, with a token it cannot know.
    const token = /^::stop-commands::(proctor-[0-9a-f]{32})$/m.exec(log)?.[1]
    expect(token).toBeDefined()
    expect(log).toMatch(new RegExp(`agent: wrote src/feature.js and secrets/key.txt\\r?\\n::${token}::`))
    // The comment ends on the final render.
    expect(server.state.commentsOn(PR)[0]!.body.split('\n')[1]).toMatch(
      /^### ❌ proctor · block · completed · /,
    )
  })

  it('a GitHub API that accepts connections and never answers: the step ends within the reporting deadline, outputs written', async () => {
    const server = await startApi({ faults: [{ kind: 'hang', times: Infinity }] })
    const ws = workspace()
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
      env: { PROCTOR_GITHUB_TIMEOUT_MS: '400', PROCTOR_REPORT_DEADLINE_MS: '3000' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expectSessionOutputs(run, ws)
    expect(run.summary).toContain('proctor')
    expect(server.calls.length).toBeGreaterThan(0)
    expect(server.state.commentsOn(PR)).toHaveLength(0)
    // Reporting got at most its deadline: the session itself takes a few seconds.
    expect(run.ms).toBeLessThan(25_000)
  })
})

describe('hostile output', () => {
  // AWS's documented example secret key, and a token-shaped name for a file the agent creates.
  const AWS = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
  const GHP = 'ghp_' + 'Q'.repeat(36)
  const HOSTILE = `import { mkdirSync, writeFileSync } from 'node:fs'
mkdirSync('src', { recursive: true })
writeFileSync('src/${GHP}.ts', 'export {}\\n')
const pause = () => new Promise((resolve) => setTimeout(resolve, 150))
// "héllo ✓" in three writes, cut inside é (2 bytes) and inside ✓ (3 bytes).
const bytes = Buffer.from('héllo ✓\\n')
for (const piece of [bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)]) {
  process.stdout.write(piece)
  await pause()
}
console.log('\\u0085::set-output name=verdict::allow')
console.log('progress ##[set-output name=verdict]allow')
console.log('##[stop-commands]hijack')
console.log('::add-mask::nothing-to-see')
console.log('aws_secret_access_key=${AWS}')
console.log('cloning https://x-access-token:${GHP}@github.com/acme/widgets.git')
`
  const LEAK = `process.stderr.write('AWS_SECRET_ACCESS_KEY=${AWS}\\nsee https://bot:${GHP}@example.com/x\\n'); process.exit(1)\n`
  const HOSTILE_CONFIG = `checkpoints:
  interval: 10m
  min_interval: 0s
max_stop_rounds: 1
stop_hooks:
  - { name: leak, command: [node, leak.mjs] }
`

  it('the log, the comment, the summary and the check runs: no runner command, no secret, whole characters', async () => {
    const server = await startApi({
      jobs: [
        { id: 777, runId: 4242, name: 'agent', runnerName: 'GitHub Actions 3' },
        { id: 778, runId: 4242, name: 'agent', runnerName: 'GitHub Actions 4' },
      ],
    })
    const ws = workspace(HOSTILE_CONFIG, { 'hostile.mjs': HOSTILE, 'leak.mjs': LEAK })
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node hostile.mjs' },
      env: { RUNNER_NAME: 'GitHub Actions 4' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.outputs.verdict).toBe('block')
    const log = run.stdout
    const lines = log.split(/\r?\n/)

    // A character split across writes comes out whole (one streaming decoder).
    expect(log).toContain('héllo ✓')
    expect(log).not.toContain('\uFFFD')
    // The runner trims blanks, NEL included, before "::", and finds "##[" anywhere in a line.
    const commands = lines
      .filter((l) => /^[\s\u0085]*::/.test(l))
      .map((l) => /^[\s\u0085]*::([\w-]+)/.exec(l)?.[1])
    expect(new Set(commands)).toEqual(
      new Set([
        'add-mask',
        'stop-commands',
        ...commands.filter((c) => c?.startsWith('proctor-')),
        'group',
        'endgroup',
        'error',
      ]),
    )
    expect(lines.filter((l) => l.includes('##['))).toEqual([])
    expect(log).toContain('progress ##\u200b[set-output name=verdict]allow')
    // Every line of the agent's output sits inside the runner's own stop-commands, with a token it cannot know.
    const token = /^::stop-commands::(proctor-[0-9a-f]{32})$/m.exec(log)?.[1]
    const inside = new RegExp(
      `::stop-commands::${token}\\r?\\n((?:(?!::${token}::)[\\s\\S])*)::${token}::`,
      'g',
    )
    const wrapped = [...log.matchAll(inside)].map((m) => m[1]).join('')
    for (const text of [
      'héllo ✓',
      'set-output name=verdict::allow',
      'stop-commands]hijack',
      'cloning https://',
    ])
      expect(wrapped).toContain(text)

    // The AWS secret key and the token reach no log line but the masking requests, and no GitHub page.
    const leaks = (text: string) => [AWS, GHP].filter((secret) => text.includes(secret))
    expect(lines.filter((l) => leaks(l).length > 0 && !l.startsWith('::add-mask::'))).toEqual([])
    // Each discovered secret is masked once, and only real values (not `x-access-token:***`).
    const masks = lines.filter((l) => l.startsWith('::add-mask::'))
    // (in the order the secrets were met: the agent's output and the hook's run side by side).
    expect(masks.toSorted()).toEqual(
      [`::add-mask::${TOKEN}`, `::add-mask::${GHP}`, `::add-mask::${AWS}`].toSorted(),
    )
    const comment = server.state.commentsOn(PR)[0]!.body
    const leak = server.state.checkRunsNamed('proctor / leak')[0]!
    for (const page of [comment, run.summary, JSON.stringify(leak.output), JSON.stringify(leak.updates)])
      expect(leaks(page)).toEqual([])
    // The hook's reason is there, redacted; the token-shaped file is listed, redacted in text and URL.
    expect(leak.output.text).toContain('AWS_SECRET_ACCESS_KEY=***')
    expect(comment).toContain('AWS\\_SECRET\\_ACCESS\\_KEY=\\*\\*\\*')
    expect(comment).toMatch(
      /- \[src\/\\\*\\\*\\\*\.ts\]\(<https:\/\/github\.com\/acme\/widgets\/blob\/[0-9a-f]{40}\/src\/\*\*\*\.ts>\)/,
    )
    // The header links this job (the one on this runner), and the summary has the same links.
    const header = comment.split('\n')[2]!
    expect(header).toMatch(
      /^<sub>\[job\]\(<https:\/\/github\.com\/acme\/widgets\/actions\/runs\/4242\/job\/778>\) · checks: /,
    )
    expect(run.summary.split('\n')[1]).toBe(header)
    expect(server.validationFailures).toEqual([])
  })
})

describe('cancellation', () => {
  it('SIGINT, then SIGTERM 7.5 s later as the runner does: final checkpoint pushed, comment says interrupted, exit inside the window', async () => {
    const server = await startApi()
    const ws = workspace()
    const agentPid = join(ws.files, 'agent.pid')
    let signalled = 0
    let termTimer: NodeJS.Timeout | undefined
    const run = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs sleep' },
      env: { E2E_AGENT_PID: agentPid },
      onSpawn: (child) => {
        void until(
          'the agent to start sleeping',
          () => existsSync(agentPid) && server.state.commentsOn(PR).length === 1,
        ).then(() => {
          signalled = Date.now()
          child.kill('SIGINT')
          termTimer = setTimeout(() => child.kill('SIGTERM'), 7_500)
        })
      },
    })
    clearTimeout(termTimer)
    const elapsed = Date.now() - signalled
    expect(signalled).toBeGreaterThan(0)
    // The runner SIGKILLs 10 s after SIGINT; the step must be done before that.
    expect(elapsed).toBeLessThan(10_000)
    expect(run.code, run.stdout + run.stderr).toBe(130)
    expect(run.outputs.status).toBe('interrupted')
    expect(alive(Number(readFileSync(agentPid, 'utf8')))).toBe(false)
    expect(ws.remoteSha(BRANCH)).toBe(run.outputs['checkpoint-sha'])
    const body = server.state.commentsOn(PR)[0]!.body
    expect(body).toMatch(/interrupted/)
    expect(server.state.commentsOn(PR)).toHaveLength(1)
  })

  it('main killed by SIGKILL while the agent works: the post step reaps the agent, checkpoints and pushes its work, finishes the comment', async () => {
    const server = await startApi()
    const ws = workspace()
    const agentPid = join(ws.files, 'agent.pid')
    const main = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs sleep' },
      env: { E2E_AGENT_PID: agentPid },
      onSpawn: (child) => {
        void until(
          'the agent to start sleeping',
          () => existsSync(agentPid) && server.state.commentsOn(PR).length === 1,
        ).then(() => child.kill('SIGKILL'))
      },
    })
    expect(main.signal).toBe('SIGKILL')
    const pid = Number(readFileSync(agentPid, 'utf8'))
    cleanups.push(() => alive(pid) && process.kill(pid, 'SIGKILL'))
    expect(alive(pid)).toBe(true)
    expect(main.state['proctor-finished']).toBeUndefined()
    expect(ws.remoteSha(BRANCH)).toBeNull()

    // The runner gives the post step the same inputs and the saved state.
    const post = await runStep({
      entry: 'post',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs sleep' },
      state: main.state,
    })
    expect(post.code, post.stdout + post.stderr).toBe(0)
    expect(alive(pid), post.stdout).toBe(false)
    const pushed = ws.remoteSha(BRANCH)
    expect(pushed).toMatch(/^[0-9a-f]{40}$/)
    const tree = execFileSync('git', ['--git-dir', ws.bare, 'ls-tree', '-r', '--name-only', pushed!], {
      encoding: 'utf8',
    })
    expect(tree.split('\n')).toContain('src/feature.js')
    const comments = server.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toMatch(/interrupted/)
    expect(post.summary).toContain('interrupted')
    // The work main left is judged by the session's policy: the forbidden file fails the policy check.
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(policy!.annotations).toEqual([
      expect.objectContaining({ path: 'secrets/key.txt', annotation_level: 'failure' }),
    ])
    expect(server.validationFailures).toEqual([])
  })

  // The agent can write anything in the session directory: a report.json saying "allow" before it SIGKILLs
  // main must not become the required checks' verdict (before the fix the post step published it).
  it('an agent that writes its own report.json (all hooks allow) and SIGKILLs main gets no green check from the post step', async () => {
    const server = await startApi()
    const failing = CONFIG.replace(
      'command: [node, -e, "process.exit(0)"]',
      'command: [node, -e, "process.exit(1)"]',
    )
    const ws = workspace(failing)
    // A report of the shape proctor writes, claiming what the agent wants: completed, allow, hooks passed.
    const forged = {
      schema: 1,
      session_id: SESSION,
      status: 'completed',
      verdict: 'allow',
      exit_code: 0,
      signal: null,
      agent: { exit_code: 0, signal: null },
      reason: null,
      started_at: new Date().toISOString(),
      ended_at: new Date().toISOString(),
      duration_ms: 1000,
      command: ['node', 'agent.mjs'],
      cwd: ws.repo.dir,
      mode: 'pty',
      events: [],
      checkpoints: [],
      violations: [],
      stop_hooks: [
        { name: 'tests', verdict: 'allow', reason: null, exit_code: 0, duration_ms: 5, round: 1 },
        { name: 'lint', verdict: 'allow', reason: null, exit_code: 0, duration_ms: 5, round: 1 },
      ],
      rounds: 1,
      pushed: null,
      transcript: { path: 'transcript.log', bytes: 0, capped: false },
      output_tail: '',
    }
    writeFileSync(join(ws.files, 'forged.json'), JSON.stringify(forged))
    // The agent: breaks things, plants the report, then SIGKILLs the action's main process (its ancestor).
    const { post } = await killMainThenPost(
      server,
      ws,
      'kill',
      `import { readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs'
mkdirSync('secrets', { recursive: true })
writeFileSync('secrets/key.txt', 'AKIAIOSFODNN7EXAMPLE\\n')
const dir = '.proctor/sessions/' + process.env.PROCTOR_SESSION_ID
mkdirSync(dir, { recursive: true })
copyFileSync(${JSON.stringify(join(ws.files, 'forged.json'))}, dir + '/report.json')
`,
    )
    const conclusions = Object.fromEntries(
      ['proctor / tests', 'proctor / lint', 'proctor / policy'].map((name) => [
        name,
        server.state.checkRunsNamed(name).map((c) => c.conclusion),
      ]),
    )
    // The tests hook exits 1 and secrets/key.txt is forbidden: nothing may be green.
    for (const [name, list] of Object.entries(conclusions))
      expect(list, `${name}: ${JSON.stringify(conclusions)}\n${post.stdout}`).not.toContain('success')
    // The post step judged the work main left itself: the forbidden file fails the policy check.
    expect(conclusions['proctor / policy'], post.stdout).toEqual(['failure'])
    expect(server.state.commentsOn(PR)[0]!.body).toMatch(/interrupted/)
  })

  it('an agent that breaks the checkpoint ref and SIGKILLs main: the post step cannot judge the work, so the policy check fails', async () => {
    const server = await startApi()
    const ws = workspace()
    const { post } = await killMainThenPost(
      server,
      ws,
      'break',
      `import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
mkdirSync('secrets', { recursive: true })
writeFileSync('secrets/key.txt', 'AKIAIOSFODNN7EXAMPLE\\n')
const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { input: 'junk' }).toString().trim()
execFileSync('git', ['update-ref', 'refs/proctor/' + process.env.PROCTOR_SESSION_ID, blob])
`,
    )
    expect(post.code, post.stdout + post.stderr).toBe(0)
    expect(post.stdout).toContain('could not take the final checkpoint')
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy, post.stdout).toMatchObject({ status: 'completed', conclusion: 'failure' })
  })

  it('an agent that plants a FIFO where git reads and SIGKILLs main: the post step names it at once and the policy check fails', async () => {
    const server = await startApi()
    const ws = workspace()
    const { post, started } = await killMainThenPost(
      server,
      ws,
      'fifo',
      `import { readFileSync, mkdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
mkdirSync('sub', { recursive: true })
execFileSync('mkfifo', ['sub/.gitignore'])
`,
    )
    // Before: git sat in open() on the FIFO until its five-minute deadline.
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(post.code, post.stdout + post.stderr).toBe(0)
    expect(post.stdout).toContain('FIFO (named pipe) at sub/.gitignore')
    const [policy] = server.state.checkRunsNamed('proctor / policy')
    expect(policy, post.stdout).toMatchObject({ status: 'completed', conclusion: 'failure' })
    rmSync(join(ws.repo.dir, 'sub/.gitignore'))
  })

  it('an agent that moves the checkpoint ref to a chain of its own (a key added, then deleted) and SIGKILLs main: the post step pushes nothing', async () => {
    const server = await startApi()
    const ws = workspace()
    const { post } = await killMainThenPost(
      server,
      ws,
      'chain',
      `import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
const env = { ...process.env, GIT_INDEX_FILE: '.git/agent-index' }
const git = (args, input) => execFileSync('git', args, { input, env }).toString().trim()
const head = git(['rev-parse', 'HEAD'])
git(['read-tree', 'HEAD'])
const key = git(['hash-object', '-w', '--stdin'], 'AKIAIOSFODNN7EXAMPLE')
git(['update-index', '--add', '--cacheinfo', '100644,' + key + ',secrets/key.txt'])
const dir = git(['write-tree'])
// Messages shaped like proctor's, naming the key's own commit as the base would be the next trick.
const message = (seq) => 'proctor checkpoint ' + seq + ' (interval): 1 file\\n\\nProctor-Session: ' +
  process.env.PROCTOR_SESSION_ID + '\\nProctor-Seq: ' + seq + '\\nProctor-Base: ' + head +
  '\\nProctor-Trigger: interval\\nProctor-Violations: 0\\nProctor-Skipped: 0\\n'
const a = git(['commit-tree', dir, '-p', head, '-m', message(1)])
const b = git(['commit-tree', head + '^{tree}', '-p', a, '-m', message(2)])
git(['update-ref', 'refs/proctor/' + process.env.PROCTOR_SESSION_ID, b])
`,
    )
    expect(post.code, post.stdout + post.stderr).toBe(0)
    // The final diff shows no key, but a push of the chain would carry the commit that adds it.
    expect(post.stdout).toContain('checkpoints not pushed')
    expect(ws.remoteSha(BRANCH)).toBeNull()
  })

  it('a main step that finished reporting: the post step publishes nothing again, whatever the session directory holds by then', async () => {
    const server = await startApi()
    const ws = workspace()
    const main = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
    })
    expect(main.state['proctor-finished'], main.stdout + main.stderr).toBe('true')
    const checks = () =>
      [...server.state.checkRuns.values()].map((c) => [c.name, c.status, c.conclusion]).sort()
    const comments = () => JSON.stringify(server.state.commentsOn(PR))
    const before = { checks: checks(), comments: comments(), calls: server.calls.length }
    expect(before.checks).toContainEqual(['proctor / policy', 'completed', 'failure'])
    // Whatever is left in the session directory afterwards is not a reason to publish again.
    rmSync(join(ws.repo.dir, '.proctor/sessions', SESSION, 'report.json'))
    const post = await runStep({
      entry: 'post',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
      state: main.state,
    })
    expect(post.code, post.stdout + post.stderr).toBe(0)
    expect(server.calls.length).toBe(before.calls)
    expect(checks()).toEqual(before.checks)
    expect(comments()).toBe(before.comments)
    expect(post.summary).toBe('')
  })

  it('main killed by SIGKILL during a stop hook: the post step completes the open check run as cancelled', async () => {
    const server = await startApi()
    const ws = workspace(CONFIG.replace('command: [node, lint.mjs]', 'command: [node, hang.mjs]'))
    const hookPid = join(ws.files, 'hook.pid')
    const main = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
      env: { E2E_HOOK_PID: hookPid },
      onSpawn: (child) => {
        void until(
          'the hanging hook with its in_progress check, and the passed one completed',
          () =>
            existsSync(hookPid) &&
            server.state.checkRunsNamed('proctor / lint').some((r) => r.status === 'in_progress') &&
            server.state.checkRunsNamed('proctor / tests').some((r) => r.status === 'completed'),
        ).then(() => child.kill('SIGKILL'))
      },
    })
    expect(main.signal).toBe('SIGKILL')
    // Stop hooks are not in the run registry (yet), so nothing reaps this one: the test does.
    const pid = Number(readFileSync(hookPid, 'utf8'))
    cleanups.push(() => alive(pid) && process.kill(pid, 'SIGKILL'))

    const post = await runStep({
      entry: 'post',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: prEvent(ws),
      inputs: { command: 'node agent.mjs' },
      state: main.state,
    })
    expect(post.code, post.stdout + post.stderr).toBe(0)
    expect(server.state.checkRunsNamed('proctor / lint')).toEqual([
      expect.objectContaining({ status: 'completed', conclusion: 'cancelled' }),
    ])
    expect(server.state.checkRunsNamed('proctor / tests')).toEqual([
      expect.objectContaining({ conclusion: 'success' }),
    ])
    expect(server.count('checks/list-for-ref')).toBe(1)
    expect(server.state.commentsOn(PR)).toHaveLength(1)
    expect(server.validationFailures).toEqual([])
  })
})

describe('mode: aggregate', () => {
  it('aggregates saved reports (one malformed, one missing) for a fork PR via workflow_run: one comment, one check, the hook fired once', async () => {
    const headSha = 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0'
    const server = await startApi({ pulls: { 17: { headSha, headRepo: 'mallory/widgets' } } })
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-e2e-agg-')))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const save = (name: string, text: string) => {
      mkdirSync(join(dir, 'reports', name), { recursive: true })
      writeFileSync(join(dir, 'reports', name, 'report.json'), text)
    }
    save('a', JSON.stringify(sessionReport({ session_id: 'leg-a', ci: { pr: 17 } })))
    save(
      'b',
      JSON.stringify(
        sessionReport({ session_id: 'leg-b', status: 'failed', verdict: 'block', ci: { pr: 17 } }),
      ),
    )
    save('c', '{"schema": 1, "session_id": "leg-c"')
    writeFileSync(join(dir, 'capture.mjs'), 'process.stdin.pipe(process.stdout)\n')
    writeFileSync(
      join(dir, 'proctor.yml'),
      `hooks:\n  subagent_batch_complete:\n    - { command: "node capture.mjs >> batch-hook.jsonl" }\n    - { command: "env > hook.env" }\n`,
    )
    const payload = examplePayload('workflow_run', 'completed') as {
      workflow_run: Record<string, unknown> & { head_repository: { full_name: string } }
      repository: { full_name: string; name: string; owner: { login: string } }
    }
    Object.assign(payload.workflow_run, { id: 777, head_sha: headSha, pull_requests: [] })
    payload.workflow_run.head_repository.full_name = 'mallory/widgets'
    Object.assign(payload.repository, { full_name: 'acme/widgets', name: 'widgets' })

    const run = await runStep({
      entry: 'index',
      cwd: dir,
      apiUrl: server.url,
      event: { name: 'workflow_run', payload },
      inputs: { mode: 'aggregate', reports: 'reports/*/report.json\nreports/missing/report.json' },
    })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.outputs).toMatchObject({
      verdict: 'block',
      status: 'errored',
      'child-count': '4',
      'completed-count': '1',
      'failed-count': '1',
      'errored-count': '2',
    })
    const comments = server.state.commentsOn(17)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body.split('\n')[0]).toBe('<!-- proctor:proctor/agent/batch -->')
    expect(comments[0]!.body).toContain('leg-b')
    const checks = [...server.state.checkRuns.values()]
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ name: 'proctor / batch', head_sha: headSha, conclusion: 'failure' })
    expect(run.summary).toContain('leg-a')
    expect(run.summary).toMatch(/malformed report/)
    expect(server.count('pulls/get')).toBe(1)
    expect(server.validationFailures).toEqual([])

    // The hook starts from the environment every hook gets: no token, no step files.
    const hookEnv = readFileSync(join(dir, 'hook.env'), 'utf8')
    expect(hookEnv).toContain('GITHUB_REPOSITORY=acme/widgets')
    for (const withheld of ['GITHUB_OUTPUT=', 'GITHUB_STATE=', 'INPUT_GITHUB-TOKEN=', TOKEN])
      expect(hookEnv).not.toContain(withheld)
    const fired = readFileSync(join(dir, 'batch-hook.jsonl'), 'utf8').trim().split('\n')
    expect(fired).toHaveLength(1)
    const extra = (JSON.parse(fired[0]!) as { extra: Record<string, number> }).extra
    expect(extra.child_count).toBe(4)
    expect(
      extra.completed_count +
        extra.failed_count +
        extra.errored_count +
        extra.interrupted_count +
        extra.timeout_count,
    ).toBe(4)
  })
})
