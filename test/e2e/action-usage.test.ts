// The built action with a real agent CLI that reports its own usage (`codex exec --json` against the scripted
// Responses API, no metering proxy): the step outputs `tokens` and `cost-usd`, the job summary, the sticky
// comment and the policy check run all carry the same one usage line.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startGitHubApiServer, type GitHubApiServer } from '../servers/github-api.js'
import * as openai from '../servers/openai-api.js'
import { distProblem, pullRequestPayload, runStep } from './action-harness.js'
import { codexSetup, repo, type Cleanups } from './agents-harness.js'

const PR = 7
const LINE = '1.0k tokens in (400 cached) · 50 out · ≈ $0.0013 (estimate)'

const cleanups: Cleanups = []
let api: GitHubApiServer | null = null
beforeAll(() => {
  const problem = distProblem()
  if (problem) throw new Error(problem)
})
afterEach(async () => {
  await api?.close()
  api = null
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('the action reports what the agent used', () => {
  it('outputs tokens and cost-usd; the summary, the sticky comment and the policy check say it in one line', async () => {
    const codex = await codexSetup(cleanups, {
      script: [[openai.message('All done.')]],
      usage: () => ({ input_tokens: 1000, cached_tokens: 400, output_tokens: 50 }),
    })
    const r = repo(cleanups, { 'proctor.yml': 'checkpoints:\n  push: never\n' })
    r.commitAll('proctor.yml')
    const head = r.git(['rev-parse', 'HEAD']).trim()
    api = await startGitHubApiServer()
    const env = codex.env(r)
    const run = await runStep({
      entry: 'index',
      cwd: r.dir,
      apiUrl: api.url,
      event: {
        name: 'pull_request',
        payload: pullRequestPayload({ number: PR, headSha: head, baseSha: head }),
      },
      inputs: { command: 'codex exec --json -m gpt-5.1-codex "say hi"' },
      env: Object.fromEntries(
        ['HOME', 'CODEX_HOME', 'OPENAI_API_KEY', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'no_proxy'].map(
          (k) => [k, env[k]!],
        ),
      ),
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.outputs).toMatchObject({ tokens: '1050', 'cost-usd': '0.0013' })
    expect(run.summary).toContain(`<sub>model usage: ${LINE}</sub>`)
    const comments = api.state.commentsOn(PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain(`<sub>model usage: ${LINE}</sub>`)
    const [policy] = api.state.checkRunsNamed('proctor / policy')
    expect(policy!.output.summary).toContain(`Model usage: ${LINE}.`)
  }, 120_000)
})
