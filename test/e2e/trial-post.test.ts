// Findings of the h-trial session against the action's post step, as an agent: the BUILT action (`npm run
// build` first) on a pull request, with an agent that SIGKILLs the main step (its ancestor running index.js),
// so the post step finishes the session, after it rewrote proctor.yml in the working tree.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { makeTempRepo } from '../helpers/git-repo.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import { startGitHubApiServer } from '../servers/github-api.js'
import { distProblem, pullRequestPayload, runStep } from './action-harness.js'

const CONFIG = `policy:
  forbidden_areas: ['secrets/**']
  violation_severity: error
checkpoints:
  interval: 10m
  min_interval: 0s
`

let git: GitHttpServer
let gitRoot: string
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
  gitRoot = mkdtempSync(join(tmpdir(), 'proctor-e2e-trial-post-'))
  git = await startGitHttpServer({ projectRoot: gitRoot })
})
afterAll(async () => {
  await git?.close()
  rmSync(gitRoot, { recursive: true, force: true })
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('the post step judges by the proctor.yml main read, not the one the agent left', () => {
  // Found by the trial: the post step loaded proctor.yml from the working tree after main was killed, so
  // an agent that deleted `forbidden_areas` from it got its forbidden file pushed. Every step now reads the
  // event commit's proctor.yml (action/config.ts loadTrustedConfig).
  it('an agent that drops forbidden_areas from proctor.yml and SIGKILLs main does not get secrets/ pushed', async () => {
    const repo = makeTempRepo({ files: { 'README.md': '# widgets\n', 'proctor.yml': CONFIG } })
    cleanups.push(repo.cleanup)
    const bare = git.createRepo('widgets.git')
    repo.git(['remote', 'add', 'origin', git.repoUrl('widgets.git')])
    const files = mkdtempSync(join(tmpdir(), 'proctor-e2e-trial-post-files-'))
    cleanups.push(() => rmSync(files, { recursive: true, force: true }))
    const agent = join(files, 'agent.mjs')
    writeFileSync(
      agent,
      `import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
mkdirSync('secrets', { recursive: true })
writeFileSync('secrets/key.txt', 'AKIAIOSFODNN7EXAMPLE\\n')
writeFileSync('proctor.yml', readFileSync('proctor.yml', 'utf8').replace("forbidden_areas: ['secrets/**']", 'forbidden_areas: []'))
let pid = process.ppid
while (pid > 1) {
  if (readFileSync('/proc/' + pid + '/cmdline', 'latin1').includes('index.js')) { process.kill(pid, 'SIGKILL'); break }
  pid = Number(readFileSync('/proc/' + pid + '/stat', 'latin1').split(') ')[1].split(' ')[1])
}
setInterval(() => {}, 1000)
`,
    )
    const api = await startGitHubApiServer()
    cleanups.push(() => api.close())
    const head = repo.git(['rev-parse', 'HEAD']).trim()
    const step = {
      cwd: repo.dir,
      apiUrl: api.url,
      event: {
        name: 'pull_request',
        payload: pullRequestPayload({ number: 7, headSha: head, baseSha: head }),
      },
      inputs: { command: `node ${agent}` },
      // The event's commit is the one checked out, as on a runner.
      env: { GITHUB_SHA: head },
    }
    const main = await runStep({ entry: 'index', ...step })
    expect(main.signal, main.stdout + main.stderr).toBe('SIGKILL')
    const post = await runStep({ entry: 'post', ...step, state: main.state })
    const pushed = execFileSync('git', ['--git-dir', bare, 'for-each-ref', '--format=%(refname)'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
    for (const ref of pushed)
      expect(
        execFileSync('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', ref], { encoding: 'utf8' }),
        `${ref}\n${post.stdout}`,
      ).not.toContain('secrets/key.txt')
    expect(
      api.state.checkRunsNamed('proctor / policy').map((c) => c.conclusion),
      post.stdout,
    ).toEqual(['failure'])
  })
})
