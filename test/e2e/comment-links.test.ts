// The reviewer's five seconds (issue 33): the PR comment of a real blocked session of the built action —
// a failing test and a file in a forbidden area — says each fact once, and every link in it names
// something that exists: a commit or branch on the loopback git remote the checkpoints were pushed to, a
// file at that commit, a check run or job on the local GitHub API server, the workflow run the step ran as.
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHubApiServer, type GitHubApiServer } from '../servers/github-api.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { makeTempRepo } from '../helpers/git-repo.js'
import { distProblem, pullRequestPayload, runStep } from './action-harness.js'

const PR = 9
const RUN_ID = '4242'
const JOB_ID = 991
const WEB = 'https://github.com/acme/widgets'

const AGENT = `import { mkdirSync, writeFileSync } from 'node:fs'
writeFileSync('src/cart.js', 'export const price = (x) => (x > 100 ? x * 0.9 : x)\\n')
mkdirSync('secrets', { recursive: true })
writeFileSync('secrets/prod.env', 'TOKEN=not-a-real-one\\n')
console.log('agent: changed src/cart.js, wrote secrets/prod.env')
`
const TEST = `import test from 'node:test'
import assert from 'node:assert'
import { price } from '../src/cart.js'
test('no discount under $100', () => assert.strictEqual(price(40), 36))
`
const CONFIG = `policy:
  forbidden_areas: ['secrets/**']
  violation_severity: error
checkpoints:
  interval: 10m
  min_interval: 0s
max_stop_rounds: 1
stop_hooks:
  - { name: tests, command: npm test }
`

let git: GitHttpServer
let gitRoot: string
let api: GitHubApiServer

beforeAll(async () => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
  gitRoot = mkdtempSync(join(tmpdir(), 'proctor-e2e-links-'))
  git = await startGitHttpServer({ projectRoot: gitRoot })
  api = await startGitHubApiServer({
    jobs: [{ id: JOB_ID, runId: Number(RUN_ID), name: 'agent', runnerName: 'GitHub Actions 7' }],
  })
})

afterAll(async () => {
  await api?.close()
  await git?.close()
  rmSync(gitRoot, { recursive: true, force: true })
})

/** The destinations of a markdown body's links: `[text](<url>)` and `[text](url)`. */
function linksIn(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(<([^>]+)>\)|\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => (m[1] ?? m[2])!)
}

describe('the comment of a real blocked run', () => {
  it('names the failure once and links only what exists', { timeout: 120_000 }, async () => {
    const repo = makeTempRepo({
      files: {
        'README.md': '# widgets\n',
        'proctor.yml': CONFIG,
        'agent.mjs': AGENT,
        'package.json':
          '{ "name": "shop", "version": "1.0.0", "type": "module", "scripts": { "test": "node --test" } }\n',
        'src/cart.js': 'export const price = (x) => x\n',
        'test/cart.test.js': TEST,
      },
    })
    try {
      const bare = git.createRepo('widgets.git')
      repo.git(['remote', 'add', 'origin', git.repoUrl('widgets.git')])
      const head = repo.git(['rev-parse', 'HEAD']).trim()
      const payload = pullRequestPayload({ number: PR, headSha: head, baseSha: head })
      // The PR's head branch exists on the remote, as it does on GitHub for an open PR.
      const headRef = (payload.pull_request as { head: { ref: string } }).head.ref
      // (Fetched into the bare repository directly: a push over HTTP would block the server's own loop.)
      execFileSync('git', ['--git-dir', bare, 'fetch', '-q', repo.dir, `HEAD:refs/heads/${headRef}`], {
        env: repo.env,
        stdio: 'ignore',
      })

      const run = await runStep({
        entry: 'index',
        cwd: repo.dir,
        apiUrl: api.url,
        event: { name: 'pull_request', payload },
        inputs: { command: 'node agent.mjs' },
        // The runner's checkout is at GITHUB_SHA: the session's base, and the compare link's.
        env: { RUNNER_NAME: 'GitHub Actions 7', GITHUB_SHA: head },
      })
      expect(run.code, run.stdout + run.stderr).toBe(1)
      const [comment] = api.state.commentsOn(PR)
      const body = comment!.body

      // Each fact once: the failing test in its hook's row (not npm's banner, not the heading), the
      // forbidden file's violation in the violations table (not again in the policy gate's row).
      const count = (text: string) => body.split(text).length - 1
      expect(count('no discount under $100'), body).toBe(1)
      expect(count('was added, but it is in a forbidden area'), body).toBe(1)
      expect(body).toMatch(/^> stop hooks still blocked after 1 round\(s\) \(max\\_stop\\_rounds: 1\)$/m)
      expect(body).toMatch(/^\*\*What next:\*\* re-run the job once the cause is fixed · /m)

      const inBare = (...args: string[]) => {
        try {
          execFileSync('git', ['--git-dir', bare, ...args], { stdio: 'ignore' })
          return true
        } catch {
          return false
        }
      }
      const isRef = (name: string) =>
        /^[0-9a-f]{40}$/.test(name)
          ? inBare('cat-file', '-e', `${name}^{commit}`)
          : inBare('rev-parse', '--verify', '-q', `refs/heads/${name}`)
      const exists = (url: string): boolean => {
        const path = url.startsWith(`${WEB}/`) ? url.slice(WEB.length + 1).replace(/\?expand=1$/, '') : null
        if (path === null) return false
        let m: RegExpExecArray | null
        if ((m = /^commit\/([0-9a-f]{40})$/.exec(path))) return isRef(m[1]!)
        if ((m = /^blob\/([0-9a-f]{40})\/(.+)$/.exec(path)))
          return inBare('cat-file', '-e', `${m[1]}:${decodeURIComponent(m[2]!)}`)
        if ((m = /^compare\/(.+)\.\.\.(.+)$/.exec(path)))
          return isRef(decodeURIComponent(m[1]!)) && isRef(decodeURIComponent(m[2]!))
        if ((m = /^tree\/(.+)$/.exec(path))) return isRef(decodeURIComponent(m[1]!))
        if ((m = /^runs\/(\d+)$/.exec(path))) return api.state.checkRuns.has(Number(m[1]))
        if ((m = /^actions\/runs\/(\d+)\/job\/(\d+)$/.exec(path)))
          return m[1] === RUN_ID && m[2] === String(JOB_ID)
        if ((m = /^actions\/runs\/(\d+)$/.exec(path))) return m[1] === RUN_ID
        return false
      }
      const links = linksIn(body)
      // The commit, the branch with its compare and Create PR pages, the job, the check runs, the file.
      expect(links.length, body).toBeGreaterThanOrEqual(7)
      expect(
        links.filter((url) => !exists(url)),
        body,
      ).toEqual([])
      // The withheld file is named, never linked: no commit holds it.
      expect(body).toContain('secrets/prod.env')
      expect(links.some((url) => url.includes('secrets/prod.env'))).toBe(false)
    } finally {
      repo.cleanup()
    }
  })
})
