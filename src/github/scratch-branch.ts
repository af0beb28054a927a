// The GitHub calls behind the conversation's write commands (docs/github.md#the-conversation). Each runs
// in a job that runs no agent code (the acknowledge job), with the least permission it needs:
//   stop    → POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel      (actions: write)
//   restore → POST …/git/refs (the kept branch), PATCH …/git/refs/heads/{branch} (contents: write)
//   promote → GET/POST/PATCH …/pulls                                       (pull-requests: write)
import type { GitHubOctokit } from './client.js'

interface Repo {
  owner: string
  repo: string
}

export async function cancelRun(octokit: GitHubOctokit, where: Repo, runId: number): Promise<void> {
  await octokit.rest.actions.cancelWorkflowRun({ ...where, run_id: runId })
}

/** The kept branch for a tip a restore moves away from: later checkpoints stay reachable there. */
export function keptBranch(session: string, tip: string): string {
  return `proctor-kept/${session}/${tip.slice(0, 12)}`
}

/**
 * Moves `branch` to `to`, first keeping its current tip under keptBranch(). Returns the old tip and the
 * kept branch (null when the branch already was at `to`). A kept branch that exists already (the same tip
 * kept before) is fine.
 */
export async function moveBranch(
  octokit: GitHubOctokit,
  where: Repo,
  options: { branch: string; to: string; session: string },
): Promise<{ from: string; kept: string | null }> {
  const { data } = await octokit.rest.git.getRef({ ...where, ref: `heads/${options.branch}` })
  const from = data.object.sha
  if (from === options.to) return { from, kept: null }
  const kept = keptBranch(options.session, from)
  try {
    await octokit.rest.git.createRef({ ...where, ref: `refs/heads/${kept}`, sha: from })
  } catch (error) {
    // 422 "Reference already exists": kept by an earlier restore from this very tip.
    if (!(error && typeof error === 'object' && 'status' in error && error.status === 422)) throw error
  }
  await octokit.rest.git.updateRef({ ...where, ref: `heads/${options.branch}`, sha: options.to, force: true })
  return { from, kept }
}

/** Opens a pull request from `head` into `base`, or updates the open one; its number and whether it is new. */
export async function promote(
  octokit: GitHubOctokit,
  where: Repo,
  options: { head: string; base: string; title: string; body: string },
): Promise<{ number: number; url: string; created: boolean }> {
  const { data: open } = await octokit.rest.pulls.list({
    ...where,
    head: `${where.owner}:${options.head}`,
    state: 'open',
    per_page: 1,
  })
  const existing = open[0]
  if (existing) {
    const { data } = await octokit.rest.pulls.update({
      ...where,
      pull_number: existing.number,
      title: options.title,
      body: options.body,
    })
    return { number: data.number, url: data.html_url, created: false }
  }
  const { data } = await octokit.rest.pulls.create({
    ...where,
    head: options.head,
    base: options.base,
    title: options.title,
    body: options.body,
  })
  return { number: data.number, url: data.html_url, created: true }
}
