// The publish job's one trusted fact about the verify job: GitHub's record of its conclusion, read with the
// jobs API from the local GitHub API server (responses validated against GitHub's OpenAPI description).
import { afterEach, describe, expect, it } from 'vitest'
import { startGitHubApiServer, type GitHubApiServer, type StoredJob } from '../servers/github-api.js'
import { createGitHubClient } from '../../src/github/client.js'
import type { ActionsContext } from '../../src/github/context.js'
import { readVerifyJob } from '../../src/action/verify-job.js'

const TOKEN = 'ghs_' + 'VerifyJob0'.repeat(4)
let server: GitHubApiServer | null = null

afterEach(async () => {
  await server?.close()
  server = null
})

function context(over: Partial<ActionsContext> = {}): ActionsContext {
  return {
    owner: 'acme',
    repo: 'widgets',
    serverUrl: 'https://github.com',
    apiUrl: server!.url,
    eventName: 'pull_request',
    sha: 'merge000merge000merge000merge000merge000',
    runId: '42',
    runAttempt: 1,
    job: 'publish',
    workflow: 'proctor',
    actor: 'alice',
    pr: null,
    commentAuthor: null,
    ...over,
  }
}

const job = (over: Partial<StoredJob> & { name: string }): StoredJob => ({
  id: 100 + Math.floor(Math.random() * 1e6),
  runId: 42,
  runnerName: null,
  status: 'completed',
  conclusion: 'success',
  ...over,
})

async function read(
  jobs: StoredJob[],
  name = 'verify',
  opts: { actionsRead?: boolean; tries?: number } = {},
) {
  server = await startGitHubApiServer({
    jobs,
    ...(opts.actionsRead === false
      ? { tokens: { [TOKEN]: { login: 'github-actions[bot]', actionsRead: false } } }
      : {}),
  })
  const octokit = createGitHubClient({ token: TOKEN, baseUrl: server.url, retryAfterBaseMs: 5, retries: 0 })
  return readVerifyJob({ octokit, ctx: context(), name, tries: opts.tries ?? 3, delayMs: 1 })
}

describe("the verify job's conclusion as GitHub recorded it", () => {
  it('success only when every leg of the named job completed with success; other jobs do not count', async () => {
    const ok = await read([
      job({ name: 'verify (a)' }),
      job({ name: 'verify (b)' }),
      job({ name: 'verifyother', conclusion: 'failure' }),
      job({ name: 'publish', status: 'in_progress' }),
    ])
    expect(ok).toMatchObject({ success: true, said: 'verify (a): success, verify (b): success' })
    expect(server!.validationFailures).toEqual([])
    await server!.close()
    const one = await read([job({ name: 'verify (a)' }), job({ name: 'verify (b)', conclusion: 'failure' })])
    expect(one).toMatchObject({ success: false, said: 'verify (a): success, verify (b): failure' })
  })

  it('fails closed: a job still running after the retries, no such job, another attempt, no actions: read', async () => {
    const running = await read([job({ name: 'verify', status: 'in_progress' })])
    expect(running).toMatchObject({ success: false, said: 'verify: in_progress' })
    // Asked again before giving up (the job may be recorded a moment late).
    expect(server!.count('actions/list-jobs-for-workflow-run-attempt')).toBe(3)
    await server!.close()
    const renamed = await read([job({ name: 'tests' })])
    expect(renamed.success).toBe(false)
    expect(renamed.said).toContain('no job named "verify" in run 42 attempt 1 (input verify-job)')
    await server!.close()
    const earlier = await read([job({ name: 'verify', attempt: 2 })])
    expect(earlier.success).toBe(false)
    await server!.close()
    const denied = await read([job({ name: 'verify' })], 'verify', { actionsRead: false })
    expect(denied.success).toBe(false)
    expect(denied.said).toContain('the publish job needs `actions: read`')
  })

  it('cancelled, skipped and timed-out verify jobs are not a success', async () => {
    for (const conclusion of ['cancelled', 'skipped', 'timed_out', 'neutral'] as const) {
      const record = await read([job({ name: 'verify', conclusion })])
      expect(record.success, conclusion).toBe(false)
      await server!.close()
      server = null
    }
  })
})
