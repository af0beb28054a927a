// proctor's first answer to a comment that starts a session: an `eyes` reaction, before anything slow.
// Needs `issues: write` (an issue's comments) or `pull-requests: write` (a pull request's comments and
// review comments); without it GitHub answers 403 and the session runs all the same.
import type { GitHubOctokit } from './client.js'
import type { Task } from './trigger.js'

export async function acknowledge(
  octokit: GitHubOctokit,
  owner: string,
  repo: string,
  target: NonNullable<Task['reactTo']>,
): Promise<void> {
  const request = { owner, repo, comment_id: target.commentId, content: 'eyes' as const }
  if (target.on === 'issue') await octokit.rest.reactions.createForIssueComment(request)
  else await octokit.rest.reactions.createForPullRequestReviewComment(request)
}
