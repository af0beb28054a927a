// A reply without the phrase is a continue (docs/github.md#the-conversation): a review comment or a
// review's body on the pull request of a session's checkpoint branch reads as `/proctor continue <its
// text>`. Only proctor's own conversation comment (found by marker and author) decides which branch is a
// session's: the pull request's description merely says where to look, and the branch must be the one
// that comment records and the session's own under `checkpoints.branch`.
import type { GitHubOctokit } from '../github/client.js'
import type { ActionsContext } from '../github/context.js'
import { ConversationComment } from '../github/conversation.js'
import { replyOf, triggerOf, type Trigger, type TriggerSettings } from '../github/trigger.js'
import type { Sanitizer } from '../util/sanitize.js'
import { ownBranch } from './commands.js'

export interface ReplyOptions {
  octokit: GitHubOctokit
  ctx: ActionsContext
  token: string
  sanitizer: Sanitizer
  /** github.trigger (the phrase, labels, who may) and checkpoints.branch (which branch is a session's). */
  config: { github: { trigger: TriggerSettings }; checkpoints: { branch: string } }
}

/**
 * The trigger of an event, with a phrase-less reply on a session's pull request read as its continue.
 * Every job that acts on a conversation's round (acknowledge, the agent job, publish) asks this, so they
 * all agree on which session a reply continues.
 */
export async function resolveTrigger(
  eventName: string | null,
  payload: unknown,
  options: ReplyOptions,
): Promise<Trigger> {
  const trigger = triggerOf(eventName, payload, options.config.github.trigger)
  if (trigger.kind !== 'ignore') return trigger
  const reply = replyOf(eventName, payload, options.config.github.trigger)
  if (!reply) return trigger
  const not = (why: string): Trigger => ({
    kind: 'ignore',
    reason: `${trigger.reason}, and ${why}: a reply without it continues only the session whose checkpoint branch the pull request is`,
  })
  if (reply.conversationOn === null)
    return not(
      `pull request #${reply.pr} was not opened by \`/proctor promote\` (its description names no conversation)`,
    )
  const state = await new ConversationComment({
    octokit: options.octokit,
    ctx: options.ctx,
    issueNumber: reply.conversationOn,
    token: options.token,
    sanitizer: options.sanitizer,
  })
    .read()
    .catch((error: unknown) => error as Error)
  if (state instanceof Error)
    return not(`the conversation comment on #${reply.conversationOn} could not be read (${state.message})`)
  const branch = state && ownBranch(state, options.config.checkpoints.branch)
  if (!state?.session || !branch || branch !== reply.branch)
    return not(
      `the conversation on #${reply.conversationOn} records no session on the branch ${reply.branch}`,
    )
  return {
    kind: 'task',
    via: `a reply on pull request #${reply.pr}, the checkpoint branch of session ${state.session}`,
    command: { verb: 'continue', feedback: reply.task.text },
    task: { ...reply.task, issueNumber: reply.conversationOn },
  }
}
