// The conversation on a pull request, end to end through the BUILT action (dist/): `mode: acknowledge`
// answers each comment (the job of `proctor init --trigger mention` that runs no agent code), `mode: run`
// runs each round's agent and pushes to a loopback git remote, and the local GitHub API server (every
// request and response validated against GitHub's OpenAPI description) moves that remote's refs for
// `/proctor restore`. Event payloads are @octokit/webhooks-examples' own, re-pointed at acme/widgets.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHubApiServer, type GitHubApiServer } from '../servers/github-api.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { isolatedGitEnv, makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { distProblem, examplePayload, runStep } from './action-harness.js'
import { stateBlock, type Conversation } from '../../src/github/conversation.js'

const PR = 7
const SESSION = '4242-1-agent'
const BRANCH = `proctor/${SESSION}`
const CONVERSATION = '<!-- proctor:conversation -->'
const BOT = { login: 'github-actions[bot]', type: 'Bot' as const }

// Records what it was given, then adds one line to notes.md (each round leaves a checkpoint).
const AGENT = `import { appendFileSync, writeFileSync } from 'node:fs'
const keys = ['PROCTOR_TASK', 'PROCTOR_FEEDBACK', 'PROCTOR_CONVERSATION_ROUND', 'PROCTOR_RESUME_SESSION']
const env = Object.fromEntries(keys.filter((k) => k in process.env).map((k) => [k, process.env[k]]))
writeFileSync(process.env.E2E_RECORD, JSON.stringify({ argv: process.argv.slice(2), env }))
appendFileSync('notes.md', 'a note\\n')
`
const CONFIG = `agent:
  command: [node, agent.mjs, "{task}"]
checkpoints:
  interval: 10m
  min_interval: 0s
stop_hooks:
  - { name: tests, command: [node, -e, "process.exit(0)"] }
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

let count = 0
interface Workspace {
  repo: TempRepo
  head: string
  bare: string
  url: string
  files: string
  remoteSha(ref: string): string | null
  /** A fresh clone of the remote at `ref`, as the next CI job checks it out. */
  checkout(ref: string): string
}

function workspace(): Workspace {
  const repo = makeTempRepo({
    files: { 'README.md': '# widgets\n', 'proctor.yml': CONFIG, 'agent.mjs': AGENT },
  })
  const name = `conversation-${++count}.git`
  const bare = git.createRepo(name)
  const url = git.repoUrl(name)
  repo.git(['remote', 'add', 'origin', url])
  // Straight into the bare repository: the HTTP server runs in this process, a synchronous git over it
  // would wait for itself.
  repo.git(['push', '-q', bare, 'HEAD:refs/heads/main'])
  const files = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-e2e-files-')))
  cleanups.push(
    () => repo.cleanup(),
    () => rmSync(files, { recursive: true, force: true }),
  )
  const run = (args: string[], cwd?: string) =>
    execFileSync('git', args, {
      cwd,
      env: isolatedGitEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  return {
    repo,
    head: repo.git(['rev-parse', 'HEAD']).trim(),
    bare,
    url,
    files,
    remoteSha(ref) {
      try {
        return run(['--git-dir', bare, 'rev-parse', '--verify', '-q', ref]).trim()
      } catch {
        return null
      }
    },
    checkout(ref) {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-e2e-clone-')))
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
      run(['clone', '-q', bare, dir])
      run(['remote', 'set-url', 'origin', url], dir)
      run(['checkout', '-q', '--detach', ref], dir)
      return dir
    },
  }
}

/** An issue_comment (created) on pull request PR, by `user`. */
function comment(body: string, user: { login: string; type?: string } = { login: 'alice' }) {
  const payload = examplePayload('issue_comment', 'created') as {
    issue: Record<string, unknown> & { number: number }
    comment: { id: number; body: string; html_url: string; user: { login: string; type: string } }
    repository: { default_branch: string }
  }
  payload.issue.number = PR
  payload.issue.pull_request = { url: `https://api.github.com/repos/acme/widgets/pulls/${PR}` }
  payload.comment.body = body
  payload.comment.user = { ...payload.comment.user, type: 'User', ...user }
  payload.comment.html_url = `https://github.com/acme/widgets/pull/${PR}#issuecomment-${payload.comment.id}`
  payload.repository.default_branch = 'main'
  return { name: 'issue_comment', payload }
}

/**
 * A review comment (created) by `user` on pull request `number`, whose head is `head` in `headRepo`, and
 * whose description is `description` (what `/proctor promote` wrote, for the session's own PR).
 */
function reviewComment(
  body: string,
  pr: { number: number; head: string; description: string; headRepo?: string },
  user: { login: string; type?: string } = { login: 'alice' },
) {
  const payload = examplePayload('pull_request_review_comment', 'created') as {
    comment: { id: number; body: string; html_url: string; user: { login: string; type: string } }
    pull_request: {
      number: number
      body: string | null
      head: { ref: string; repo: { full_name: string; owner: { login: string } } }
      base: { repo: { full_name: string; name: string; owner: { login: string } } }
    }
    repository: { full_name: string; name: string; owner: { login: string }; default_branch: string }
  }
  const pull = payload.pull_request
  pull.number = pr.number
  pull.body = pr.description
  pull.head.ref = pr.head
  for (const repo of [pull.base.repo, payload.repository]) {
    repo.full_name = 'acme/widgets'
    repo.name = 'widgets'
    repo.owner.login = 'acme'
  }
  pull.head.repo.full_name = pr.headRepo ?? 'acme/widgets'
  pull.head.repo.owner.login = (pr.headRepo ?? 'acme/widgets').split('/')[0]!
  payload.repository.default_branch = 'main'
  payload.comment.body = body
  payload.comment.user = { ...payload.comment.user, type: 'User', ...user }
  payload.comment.html_url = `https://github.com/acme/widgets/pull/${pr.number}#discussion_r${payload.comment.id}`
  return { name: 'pull_request_review_comment', payload }
}

async function startApi(ws: Workspace, runningRuns: number[] = []): Promise<GitHubApiServer> {
  api = await startGitHubApiServer({
    collaborators: { alice: 'write', mallory: 'read' },
    pulls: { [PR]: { headSha: ws.head } },
    gitDir: ws.bare,
    runningRuns,
  })
  return api
}

const writes = (server: GitHubApiServer) => server.calls.filter((c) => c.method !== 'GET')
const conversationOf = (server: GitHubApiServer) =>
  server.state.commentsOn(PR).find((c) => c.body.startsWith(CONVERSATION))

function acknowledge(
  server: GitHubApiServer,
  ws: Workspace,
  body: string,
  runId: number,
  user?: { login: string; type?: string },
) {
  return runStep({
    entry: 'index',
    cwd: ws.repo.dir,
    apiUrl: server.url,
    event: comment(body, user),
    inputs: { mode: 'acknowledge' },
    env: { GITHUB_RUN_ID: String(runId) },
  })
}

describe('the conversation on a pull request', () => {
  it('a comment starts a session whose agent gets the task; `/proctor continue` resumes from the branch tip as round 2 of the same session; the sticky comment shows both rounds', async () => {
    const ws = workspace()
    const server = await startApi(ws)
    const record = join(ws.files, 'record.json')
    const recorded = () =>
      JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string> }

    const ack1 = await acknowledge(server, ws, '@proctor write the release notes', 4242)
    expect(ack1.code, ack1.stdout + ack1.stderr).toBe(0)
    expect(ack1.outputs.task).toBe('true')
    expect(conversationOf(server)!.body).toContain('round 1 running')

    const round1 = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: comment('@proctor write the release notes'),
      env: { E2E_RECORD: record },
    })
    expect(round1.code, round1.stdout + round1.stderr).toBe(0)
    expect(recorded().argv).toEqual(['write the release notes'])
    const tip1 = ws.remoteSha(`refs/heads/${BRANCH}`)
    expect(tip1).toBe(round1.outputs['checkpoint-sha'])
    expect(conversationOf(server)!.body).toMatch(
      /\| 1 \| write the release notes \| .*alice.* \| completed \| allow \|/,
    )

    // The follow-up, in a later workflow run: acknowledged, recorded as round 2, the start commit handed on.
    const ack2 = await acknowledge(server, ws, '/proctor continue also thank the contributors', 4300)
    expect(ack2.code, ack2.stdout + ack2.stderr).toBe(0)
    expect(ack2.outputs).toMatchObject({
      task: 'true',
      command: 'continue',
      ref: tip1,
      'session-id': SESSION,
      round: '2',
    })
    expect(conversationOf(server)!.body).toContain('round 2 running')

    // The agent job checks out that ref in a fresh clone, as `init --trigger mention` writes it.
    const dir = ws.checkout(ack2.outputs.ref!)
    const round2 = await runStep({
      entry: 'index',
      cwd: dir,
      apiUrl: server.url,
      event: comment('/proctor continue also thank the contributors'),
      env: { E2E_RECORD: record, GITHUB_RUN_ID: '4300' },
    })
    expect(round2.code, round2.stdout + round2.stderr).toBe(0)
    expect(round2.outputs['session-id']).toBe(SESSION)
    const got = recorded()
    expect(got.argv).toHaveLength(1)
    expect(got.argv[0]).toMatch(/^also thank the contributors\n/)
    expect(got.argv[0]).toContain(`round 2 (continue) of session ${SESSION}`)
    expect(got.argv[0]).toContain('round 1 (task, @alice): completed, allow')
    expect(got.env).toMatchObject({
      PROCTOR_TASK: got.argv[0],
      PROCTOR_FEEDBACK: 'also thank the contributors',
      PROCTOR_CONVERSATION_ROUND: '2',
    })
    // The worktree was round 1's: its note is there, and round 2 added one on top.
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('a note\na note\n')
    const tip2 = ws.remoteSha(`refs/heads/${BRANCH}`)
    expect(tip2).toBe(round2.outputs['checkpoint-sha'])
    expect(tip2).not.toBe(tip1)
    execFileSync('git', ['--git-dir', ws.bare, 'merge-base', '--is-ancestor', tip1!, tip2!])

    const body = conversationOf(server)!.body
    expect(body).toContain('round 2 completed · allow')
    expect(body).toMatch(/\| 1 \| write the release notes \| .* \| completed \| allow \|/)
    expect(body).toMatch(/\| 2 \| continue: also thank the contributors \| .* \| completed \| allow \|/)
    expect(server.state.commentsOn(PR).filter((c) => c.body.startsWith(CONVERSATION))).toHaveLength(1)
    expect(server.validationFailures).toEqual([])
  })

  it("a review comment without the phrase on the session's promoted pull request is its continue (round 2 of the same session); on an unrelated or a fork's pull request, or from a reader, it starts nothing", async () => {
    const ws = workspace()
    const server = await startApi(ws)
    const record = join(ws.files, 'record.json')
    await acknowledge(server, ws, '@proctor write the release notes', 4242)
    const round1 = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: comment('@proctor write the release notes'),
      env: { E2E_RECORD: record },
    })
    expect(round1.code, round1.stdout + round1.stderr).toBe(0)
    const tip1 = ws.remoteSha(`refs/heads/${BRANCH}`)
    const promoted = await acknowledge(server, ws, '/proctor promote', 4250)
    expect(promoted.outputs['pull-request']).toBe('100')
    const pull = server.state.pulls[0]!
    expect(pull.head).toBe(BRANCH)
    const own = { number: pull.number, head: BRANCH, description: pull.body }
    const feedback = 'also thank the contributors'
    const ackOf = (event: ReturnType<typeof reviewComment>, runId: number) =>
      runStep({
        entry: 'index',
        cwd: ws.repo.dir,
        apiUrl: server.url,
        event,
        inputs: { mode: 'acknowledge' },
        env: { GITHUB_RUN_ID: String(runId) },
      })

    // Nothing of these starts a round or writes anything: a PR whose branch is no session's (even one whose
    // description names the conversation), a fork's branch of the same name, a reader's reply.
    const before = writes(server).length
    const unrelated = await ackOf(reviewComment(feedback, { ...own, number: 8, head: 'feature-x' }), 4260)
    expect(unrelated.code, unrelated.stdout + unrelated.stderr).toBe(0)
    expect(unrelated.outputs.task).toBe('false')
    expect(unrelated.stdout).toContain('records no session on the branch feature-x')
    const fork = await ackOf(
      reviewComment(feedback, { ...own, number: 9, headRepo: 'mallory/widgets' }),
      4261,
    )
    expect(fork.code).toBe(0)
    expect(fork.outputs.task).toBe('false')
    const reader = await ackOf(reviewComment(feedback, own, { login: 'mallory' }), 4262)
    expect(reader.code).toBe(1)
    expect(reader.stdout).toContain(
      'mallory does not have write access to acme/widgets; the agent was not started',
    )
    // The gate jobs hold a reader's reply to the same rule, without a token to read the conversation.
    const verified = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: reviewComment(feedback, own, { login: 'mallory' }),
      inputs: { mode: 'verify', reports: ws.files },
    })
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain(
      'mallory does not have write access to acme/widgets; nothing was verified',
    )
    const bot = await ackOf(reviewComment(feedback, own, { login: 'renovate[bot]', type: 'Bot' }), 4263)
    expect(bot.code).toBe(0)
    expect(bot.outputs.task).toBe('false')
    expect(writes(server)).toHaveLength(before)
    expect(conversationOf(server)!.body).toContain('round 1 completed')

    // The writer's reply on the session's own pull request: round 2 of the same session, from the branch tip.
    const reply = reviewComment(feedback, own)
    const ack = await ackOf(reply, 4300)
    expect(ack.code, ack.stdout + ack.stderr).toBe(0)
    expect(ack.outputs).toMatchObject({
      task: 'true',
      command: 'continue',
      ref: tip1,
      'session-id': SESSION,
      round: '2',
    })
    const round2 = await runStep({
      entry: 'index',
      cwd: ws.checkout(ack.outputs.ref!),
      apiUrl: server.url,
      event: reply,
      env: { E2E_RECORD: record, GITHUB_RUN_ID: '4300' },
    })
    expect(round2.code, round2.stdout + round2.stderr).toBe(0)
    expect(round2.outputs['session-id']).toBe(SESSION)
    const got = JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string> }
    expect(got.argv[0]).toMatch(/^also thank the contributors\n/)
    expect(got.env.PROCTOR_FEEDBACK).toBe(feedback)
    const tip2 = ws.remoteSha(`refs/heads/${BRANCH}`)
    expect(tip2).toBe(round2.outputs['checkpoint-sha'])
    execFileSync('git', ['--git-dir', ws.bare, 'merge-base', '--is-ancestor', tip1!, tip2!])

    // The conversation comment stays on the pull request where it began, one comment with both rounds.
    const body = conversationOf(server)!.body
    expect(body).toContain('round 2 completed · allow')
    expect(body).toMatch(
      /\| 2 \| continue: also thank the contributors \| .*alice.* \| completed \| allow \|/,
    )
    expect(server.state.commentsOn(PR).filter((c) => c.body.startsWith(CONVERSATION))).toHaveLength(1)
    expect(server.validationFailures).toEqual([])
    // The picture in docs/github.md#the-conversation (scripts/render-report-previews.ts) is this comment.
    if (process.env.PROCTOR_PREVIEW_DIR)
      writeFileSync(join(process.env.PROCTOR_PREVIEW_DIR, 'conversation.md'), body)
  })

  it("a continue run whose checkout is not the round's start commit starts no agent", async () => {
    const ws = workspace()
    const server = await startApi(ws)
    const record = join(ws.files, 'record.json')
    await acknowledge(server, ws, '@proctor write the release notes', 4242)
    await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: comment('@proctor write the release notes'),
      env: { E2E_RECORD: record },
    })
    rmSync(record)
    const ack = await acknowledge(server, ws, '/proctor continue more', 4300)
    expect(ack.outputs.task).toBe('true')
    const run = await runStep({
      entry: 'index',
      cwd: ws.checkout('main'),
      apiUrl: server.url,
      event: comment('/proctor continue more'),
      env: { E2E_RECORD: record, GITHUB_RUN_ID: '4300' },
    })
    expect(run.code).toBe(2)
    expect(run.stdout).toContain(`round 2 starts from ${ack.outputs.ref}`)
    expect(() => readFileSync(record)).toThrow()
  })

  describe('the write commands, answered by the acknowledge job', () => {
    /** Three checkpoints on the remote's branch, and the conversation proctor wrote about them. */
    function seeded(ws: Workspace, server: GitHubApiServer, branch = BRANCH) {
      const shas = [1, 2, 3].map((n) => {
        ws.repo.write('notes.md', 'a note\n'.repeat(n))
        return ws.repo.commitAll(`checkpoint ${n}`)
      })
      ws.repo.git(['push', '-q', ws.bare, `${shas[2]}:refs/heads/${BRANCH}`])
      const state: Conversation = {
        v: 1,
        session: SESSION,
        branch,
        tip: shas[2]!,
        promotable: true,
        target: 'feature',
        checkpoints: shas,
        rounds: [
          {
            round: 1,
            kind: 'task',
            text: 'write the release notes',
            author: 'alice',
            url: null,
            run: '4242',
            base: ws.head,
            status: 'completed',
            verdict: 'allow',
            head: shas[2]!,
            agentSession: null,
          },
        ],
        log: [],
      }
      server.state.addComment(PR, `${CONVERSATION}\nrendered\n${stateBlock(state)}`, BOT)
      return shas
    }

    it('promote opens a pull request, then updates it; restore moves the branch back keeping the later checkpoints; promote is then refused', async () => {
      const ws = workspace()
      const server = await startApi(ws)
      const shas = seeded(ws, server)

      const open = await acknowledge(server, ws, '/proctor promote', 4500)
      expect(open.code, open.stdout + open.stderr).toBe(0)
      expect(open.outputs).toMatchObject({ task: 'false', command: 'promote', 'pull-request': '100' })
      expect(server.state.pulls).toMatchObject([
        {
          number: 100,
          head: BRANCH,
          base: 'feature',
          state: 'open',
          title: 'proctor: write the release notes',
        },
      ])
      const again = await acknowledge(server, ws, '/proctor promote', 4501)
      expect(again.code).toBe(0)
      expect(server.state.pulls).toHaveLength(1)
      expect(server.count('pulls/update')).toBe(1)
      expect(conversationOf(server)!.body).toContain(
        `updated pull request #&#8203;100 from ${BRANCH} into feature`,
      )

      const restore = await acknowledge(server, ws, '/proctor restore 1', 4502)
      expect(restore.code, restore.stdout + restore.stderr).toBe(0)
      expect(ws.remoteSha(`refs/heads/${BRANCH}`)).toBe(shas[0])
      const kept = `refs/heads/proctor-kept/${SESSION}/${shas[2]!.slice(0, 12)}`
      expect(ws.remoteSha(kept)).toBe(shas[2])
      expect(conversationOf(server)!.body).toContain(
        `the later checkpoints stay on proctor-kept/${SESSION}/${shas[2]!.slice(0, 12)}`,
      )

      const refused = await acknowledge(server, ws, '/proctor promote', 4503)
      expect(refused.code).toBe(1)
      expect(refused.stdout).toContain('promote needs a round whose gates passed and whose commit was pushed')
      expect(server.count('pulls/create')).toBe(1)
      expect(server.validationFailures).toEqual([])
    })

    it("continue after a restore starts from the restored checkpoint; stop cancels that round's run; retry runs its task again from the same base", async () => {
      const ws = workspace()
      const server = await startApi(ws, [4600])
      const shas = seeded(ws, server)
      await acknowledge(server, ws, '/proctor restore 2', 4599)
      const nothing = await acknowledge(server, ws, '/proctor stop', 4598)
      expect(nothing.code).toBe(0)
      expect(server.state.cancelled).toEqual([])

      const next = await acknowledge(server, ws, '/proctor continue shorter please', 4600)
      expect(next.outputs).toMatchObject({ task: 'true', ref: shas[1], round: '2', 'session-id': SESSION })
      const stop = await acknowledge(server, ws, '/proctor stop', 4601)
      expect(stop.code, stop.stdout + stop.stderr).toBe(0)
      expect(server.state.cancelled).toEqual([4600])
      expect(conversationOf(server)!.body).toMatch(
        /\| 2 \| continue: shorter please \| .* \| interrupted \| block \|/,
      )

      const retry = await acknowledge(server, ws, '/proctor retry', 4602)
      expect(retry.outputs).toMatchObject({ task: 'true', command: 'retry', ref: shas[1], round: '3' })
      expect(conversationOf(server)!.body).toMatch(/\| 3 \| retry: shorter please \| .* \| 🔄 running \|/)
      expect(server.validationFailures).toEqual([])
    })

    it("a conversation state naming another branch (`main`) moves nothing: restore only ever moves the session's own branch", async () => {
      const ws = workspace()
      const server = await startApi(ws)
      seeded(ws, server, 'main')
      const restore = await acknowledge(server, ws, '/proctor restore 1', 4800)
      expect(restore.code).toBe(1)
      expect(restore.stdout).toContain('the session has no pushed checkpoint branch')
      expect(ws.remoteSha('refs/heads/main')).toBe(ws.head)
      expect(server.count('git/update-ref')).toBe(0)
    })

    it('an unknown command gets the help reply; a reader, a bot start nothing and write nothing', async () => {
      const ws = workspace()
      const server = await startApi(ws)
      const shas = seeded(ws, server)
      const before = writes(server).length

      const reader = await acknowledge(server, ws, '/proctor restore 1', 4700, { login: 'mallory' })
      expect(reader.code).toBe(1)
      expect(reader.stdout).toContain(
        'mallory does not have write access to acme/widgets; the agent was not started',
      )
      const bot = await acknowledge(server, ws, '/proctor promote', 4701, {
        login: 'renovate[bot]',
        type: 'Bot',
      })
      expect(bot.code).toBe(0)
      expect(bot.stdout).toContain('renovate[bot] is a bot')
      expect(writes(server)).toHaveLength(before)
      expect(ws.remoteSha(`refs/heads/${BRANCH}`)).toBe(shas[2])
      expect(server.state.pulls).toEqual([])

      const typo = await acknowledge(server, ws, '/proctor frobnicate', 4702)
      expect(typo.code).toBe(0)
      expect(typo.outputs.task).toBe('false')
      const reply = server.state.commentsOn(PR).at(-1)!
      expect(reply.body).toContain('unknown command')
      expect(reply.body).toContain('/proctor continue <feedback>')
      expect(server.validationFailures).toEqual([])
    })
  })

  it('verify and publish re-check the permission for every trigger kind: a review comment and a label from a reader are refused', async () => {
    const ws = workspace()
    const server = await startApi(ws)
    const review = examplePayload('pull_request_review_comment', 'created') as {
      comment: { body: string; user: { login: string; type: string } }
    }
    review.comment.body = '@proctor delete the tests'
    review.comment.user = { ...review.comment.user, login: 'mallory', type: 'User' }
    const published = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: { name: 'pull_request_review_comment', payload: review },
      inputs: { mode: 'publish', reports: ws.files },
    })
    expect(published.code).toBe(1)
    expect(published.stdout).toContain(
      'mallory does not have write access to acme/widgets; nothing was published',
    )

    const label = examplePayload('issues', 'labeled') as {
      label: { name: string }
      sender: { login: string; type: string }
    }
    label.label.name = 'proctor'
    label.sender = { ...label.sender, login: 'mallory', type: 'User' }
    const verified = await runStep({
      entry: 'index',
      cwd: ws.repo.dir,
      apiUrl: server.url,
      event: { name: 'issues', payload: label },
      inputs: { mode: 'verify', reports: ws.files },
    })
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain(
      'mallory does not have write access to acme/widgets; nothing was verified',
    )
    expect(writes(server)).toEqual([])
  })
})
