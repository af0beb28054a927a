// Who may give proctor a task (docs/github.md#who-can-start-a-session): not a bot (a loop of sessions),
// only someone with write access, and in the one-job layout never on a fork's pull request (the job
// holds a write token beside the fork's code). The first reason that applies, or null.
import type { GitHubOctokit } from '../github/client.js'
import type { ActionsContext } from '../github/context.js'
import { actorPermission, canTrigger } from '../github/permissions.js'
import { replyOf, triggerOf, type Task, type TriggerSettings } from '../github/trigger.js'

export interface Refusal {
  message: string
  /** 0: nothing went wrong, nothing was asked of proctor (a bot); 1: someone was turned away. */
  exitCode: 0 | 1
}

export async function refuseTask(
  task: Task,
  via: string,
  options: { octokit: GitHubOctokit; ctx: ActionsContext; oneJob: boolean },
): Promise<Refusal | null> {
  const { octokit, ctx } = options
  if (task.authorIsBot)
    return { message: `${task.author} is a bot; bots do not start sessions (${via})`, exitCode: 0 }
  const level = await actorPermission(octokit, ctx.owner, ctx.repo, task.author).catch(
    (error: unknown) => new Error(`could not check ${task.author}'s permission: ${(error as Error).message}`),
  )
  if (level instanceof Error) return { message: level.message, exitCode: 1 }
  if (!canTrigger(level))
    return { message: `${task.author} does not have write access to ${ctx.owner}/${ctx.repo}`, exitCode: 1 }
  if (options.oneJob && ctx.pr) {
    const fork = ctx.pr.headSha !== null ? ctx.pr.fork : await isFork(octokit, ctx, ctx.pr.number)
    if (fork !== false)
      return {
        message:
          fork === true
            ? `pull request #${ctx.pr.number} comes from a fork; a task on it needs the two-job layout (proctor init --trigger mention)`
            : `could not tell whether pull request #${ctx.pr.number} comes from a fork: ${fork}`,
        exitCode: 1,
      }
  }
  return null
}

/** A comment's payload does not say where the PR's head lives: GitHub does. A string: why it could not tell. */
async function isFork(
  octokit: GitHubOctokit,
  ctx: ActionsContext,
  number: number,
): Promise<boolean | string> {
  try {
    const { data } = await octokit.rest.pulls.get({ owner: ctx.owner, repo: ctx.repo, pull_number: number })
    const head = data.head.repo?.full_name
    return !head || head.toLowerCase() !== `${ctx.owner}/${ctx.repo}`.toLowerCase()
  } catch (error) {
    return (error as Error).message
  }
}

/**
 * The one permission check for the later jobs of a conversation (verify, publish): whatever the event
 * kind (a comment, a review comment, a review, a label), the person who asked must pass refuseTask
 * again with this job's token. Null: go on (no task in the event, or its author may give one).
 */
export async function refuseEventTrigger(options: {
  eventName: string | null
  payload: unknown
  settings: TriggerSettings
  octokit: GitHubOctokit
  ctx: ActionsContext
}): Promise<Refusal | null> {
  const trigger = triggerOf(options.eventName, options.payload, options.settings)
  // A reply without the phrase may be a session's continue (src/action/reply.ts): its author is held to
  // the same rule without reading the conversation first (this job may have no token to read it with).
  const reply = trigger.kind === 'task' ? null : replyOf(options.eventName, options.payload, options.settings)
  const asked =
    trigger.kind === 'task'
      ? { task: trigger.task, via: trigger.via }
      : reply && { task: reply.task, via: `a reply on pull request #${reply.pr}` }
  if (!asked) return null
  return refuseTask(asked.task, asked.via, { octokit: options.octokit, ctx: options.ctx, oneJob: false })
}
