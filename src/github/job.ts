// The web page of the job this step runs in (`/actions/runs/<run>/job/<job>`: its log), for the
// reviewer's "job" link. The environment names the run but not the job's id, so the run attempt's jobs
// are listed (`actions: read`, optional) and this one is picked: the job in progress on this runner
// (RUNNER_NAME; a runner runs one job at a time), else the only job in progress with this job's name.
// Anything less certain, or a token without `actions: read`, leaves the run's page: never a wrong job.
import type { GitHubOctokit } from './client.js'
import { describeError } from './client.js'
import type { ActionsContext } from './context.js'

export interface JobLookup {
  /** The job's page, or null: use the run's page. */
  url: string | null
  /** Why the job's page is not known (for the log), or null. */
  why: string | null
}

/** Matrix runs can list many jobs; more pages than this are not read. */
const MAX_PAGES = 3

export async function findJobUrl(
  octokit: GitHubOctokit,
  ctx: ActionsContext,
  onCall?: (operation: string) => void,
): Promise<JobLookup> {
  if (!ctx.runId || !/^\d+$/.test(ctx.runId)) return { url: null, why: 'GITHUB_RUN_ID is not set' }
  const jobs: { id: number; name: string; status: string; runner_name: string | null }[] = []
  try {
    for (let page = 1; page <= MAX_PAGES; page++) {
      onCall?.('actions.listJobsForWorkflowRunAttempt')
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
  } catch (error) {
    const { status, message } = describeError(error)
    const hint = status === 403 || status === 404 ? ' (listing them needs `actions: read`)' : ''
    return { url: null, why: `could not list the run's jobs${hint}: ${status ?? 'network'} ${message}` }
  }
  const running = jobs.filter((job) => job.status === 'in_progress')
  const onRunner = ctx.runnerName ? running.filter((job) => job.runner_name === ctx.runnerName) : []
  const named = ctx.job ? running.filter((job) => job.name === ctx.job) : []
  const job = onRunner.length === 1 ? onRunner[0] : named.length === 1 ? named[0] : undefined
  if (!job) return { url: null, why: `no single job of run ${ctx.runId} in progress matches this runner` }
  const repo = `${ctx.serverUrl}/${encodeURIComponent(ctx.owner)}/${encodeURIComponent(ctx.repo)}`
  return { url: `${repo}/actions/runs/${ctx.runId}/job/${job.id}`, why: null }
}
