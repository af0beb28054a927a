// The publish job's one trusted fact about the verify job: GitHub's own record of its conclusion (the
// jobs API; needs `actions: read`). Code in the verify job ran the agent's code and could write any file,
// artifact or output, but it cannot rewrite the conclusion GitHub recorded when the job ended.
import type { GitHubOctokit } from '../github/client.js'
import { describeError } from '../github/client.js'
import type { ActionsContext } from '../github/context.js'

export interface VerifyJobRecord {
  /** True only when every job named `name` (or `name (<matrix values>)`) completed with `success`. */
  success: boolean
  /** What GitHub says, for the check texts and the log. */
  said: string
  /** When the earliest of those jobs started (ISO), if GitHub says. */
  startedAt: string | null
}

interface Job {
  name: string
  status: string
  conclusion: string | null
  started_at: string
}

const MAX_PAGES = 5

/**
 * Reads the verify job's conclusion in this run attempt. A job still running is asked again (`tries`
 * times, `delayMs` apart: with `needs: verify` it has finished, but GitHub may record it a moment late).
 * Not found, unreadable or never completed: not a success (fail closed).
 */
export async function readVerifyJob(o: {
  octokit: GitHubOctokit
  ctx: ActionsContext
  name: string
  tries?: number
  delayMs?: number
}): Promise<VerifyJobRecord> {
  const tries = o.tries ?? 6
  const fail = (said: string): VerifyJobRecord => ({ success: false, said, startedAt: null })
  if (!o.ctx.runId || !/^\d+$/.test(o.ctx.runId))
    return fail('GITHUB_RUN_ID is not set: the verify job is unknown')
  for (let attempt = 1; ; attempt++) {
    let jobs: Job[]
    try {
      jobs = await listJobs(o.octokit, o.ctx)
    } catch (error) {
      const { status, message } = describeError(error)
      const hint = status === 403 || status === 404 ? ' (the publish job needs `actions: read`)' : ''
      return fail(`could not read the run's jobs${hint}: ${status ?? 'network'} ${message}`)
    }
    const matching = jobs.filter((j) => j.name === o.name || j.name.startsWith(`${o.name} (`))
    if (matching.length === 0)
      return fail(
        `no job named "${o.name}" in run ${o.ctx.runId} attempt ${o.ctx.runAttempt} (input verify-job)`,
      )
    const pending = matching.filter((j) => j.status !== 'completed')
    if (pending.length > 0 && attempt < tries) {
      await new Promise((r) => setTimeout(r, o.delayMs ?? 5_000))
      continue
    }
    const startedAt = matching.map((j) => j.started_at).sort()[0] ?? null
    const said = matching
      .map((j) => `${j.name}: ${j.status === 'completed' ? (j.conclusion ?? 'no conclusion') : j.status}`)
      .join(', ')
    const success = matching.every((j) => j.status === 'completed' && j.conclusion === 'success')
    return { success, said, startedAt }
  }
}

async function listJobs(octokit: GitHubOctokit, ctx: ActionsContext): Promise<Job[]> {
  const jobs: Job[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data } = await octokit.rest.actions.listJobsForWorkflowRunAttempt({
      owner: ctx.owner,
      repo: ctx.repo,
      run_id: Number(ctx.runId),
      attempt_number: ctx.runAttempt,
      per_page: 100,
      page,
    })
    jobs.push(...data.jobs)
    if (jobs.length >= data.total_count || data.jobs.length === 0) break
  }
  return jobs
}
