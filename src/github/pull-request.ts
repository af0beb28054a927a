// Which pull request an aggregate reports to. The event payload is trusted; a report's `ci.pr` is not (a
// fork wrote it), so a number taken from reports is used only once GitHub confirms that the PR's head is
// the commit the triggering run built — a fork cannot steer the comment onto someone else's PR.
import type { GitHubOctokit } from './client.js'
import type { ActionsContext } from './context.js'

export interface TargetPullRequest {
  number: number
  /** The commit check runs attach to. */
  headSha: string | null
  /** Where the number came from. */
  source: 'event' | 'report'
}

export interface ResolveOptions {
  octokit: GitHubOctokit
  context: ActionsContext
  /** PR numbers claimed by the reports (untrusted). */
  claimed: number[]
  onCall?: (operation: string) => void
  log?: (message: string) => void
}

export async function resolvePullRequest(options: ResolveOptions): Promise<TargetPullRequest | null> {
  const { context: ctx } = options
  if (ctx.pr) return { number: ctx.pr.number, headSha: ctx.pr.headSha, source: 'event' }
  const run = ctx.workflowRun
  const candidates = [...new Set(options.claimed.filter((n) => Number.isInteger(n) && n > 0))]
  if (!run?.headSha || candidates.length === 0) return null
  if (candidates.length > 1) {
    options.log?.(`reports name several pull requests (${candidates.join(', ')}); posting to none of them`)
    return null
  }
  const number = candidates[0]!
  try {
    options.onCall?.('pulls.get')
    const { data } = await options.octokit.rest.pulls.get({
      owner: ctx.owner,
      repo: ctx.repo,
      pull_number: number,
    })
    if (data.head.sha !== run.headSha) {
      options.log?.(
        `reports name pull request #${number}, but its head (${data.head.sha.slice(0, 12)}) is not the commit ` +
          `the triggering run built (${run.headSha.slice(0, 12)}); not commenting`,
      )
      return null
    }
    return { number, headSha: run.headSha, source: 'report' }
  } catch (error) {
    options.log?.(`could not confirm pull request #${number}: ${(error as Error).message}`)
    return null
  }
}
