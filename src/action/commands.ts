// The follow-ups of a conversation (docs/github.md#the-conversation), answered by `mode: acknowledge`:
// a job that runs no agent code, so it is where the write commands (stop, restore, promote) run. A
// continue or retry starts the next round of the same session: this job records it in the conversation's
// sticky comment and tells the agent job where to start (outputs `ref`, `session-id`, `round`).
import type { Command } from '../github/command.js'
import { helpText } from '../github/command.js'
import type { GitHubOctokit } from '../github/client.js'
import type { ActionsContext } from '../github/context.js'
import { get, str } from '../github/context.js'
import {
  ConversationComment,
  emptyConversation,
  withAnswer,
  withRound,
  type Conversation,
} from '../github/conversation.js'
import { cancelRun, moveBranch, promote } from '../github/scratch-branch.js'
import { remoteBranchFor } from '../checkpoints/refs.js'
import { describeError } from '../github/client.js'
import type { Task } from '../github/trigger.js'
import type { Sanitizer } from '../util/sanitize.js'

export interface CommandOutcome {
  /** One line for the log. */
  log: string
  /** Step outputs: `task` ('true' only when an agent round starts), `ref`, `session-id`, `round`, `command`. */
  outputs: Record<string, string>
  exitCode: number
}

interface Options {
  octokit: GitHubOctokit
  ctx: ActionsContext
  token: string
  sanitizer: Sanitizer
  payload: unknown
  phrase: string
  /** `checkpoints.branch`: the only branch a follow-up may move or promote is the session's own. */
  branchTemplate: string
}

/** A new task from the conversation: round 1 of a new session, recorded at once (what `stop` cancels). */
export async function beginTask(task: Task, options: Options): Promise<string | null> {
  if (task.issueNumber === null) return null
  const conversation = commentOf(task.issueNumber, options)
  // Begun already by this run's acknowledge job (a one-job workflow has none; it begins the round itself).
  const before = await conversation.read()
  const last = before?.rounds[before.rounds.length - 1]
  if (last && last.status === null && last.run === options.ctx.runId) return null
  const state = withRound(
    { ...emptyConversation(), target: targetOf(options) },
    { kind: 'task', text: task.text, author: task.author, url: task.url, run: options.ctx.runId, base: null },
  )
  return conversation.write(state)
}

export async function answerCommand(task: Task, command: Command, options: Options): Promise<CommandOutcome> {
  const none = (log: string, exitCode = 0): CommandOutcome => ({
    log,
    outputs: { task: 'false', command: command.verb },
    exitCode,
  })
  const { octokit, ctx } = options
  const where = { owner: ctx.owner, repo: ctx.repo }
  if (task.issueNumber === null) return none('the command names no issue or pull request to act on')
  const issue = task.issueNumber
  const reply = async (text: string) => {
    await octokit.rest.issues.createComment({ ...where, issue_number: issue, body: text })
  }
  if (command.verb === 'help') {
    await reply(
      helpText(options.phrase, command.problem && options.sanitizer.forMarkdown(command.problem, 200)),
    )
    return none(`answered with the help text${command.problem ? ` (${command.problem})` : ''}`)
  }
  const conversation = commentOf(issue, options)
  const read = await conversation.read()
  // The state names the branch restore force-moves: only the session's own checkpoint branch counts
  // (never `main`, whatever the comment's hidden block says).
  const state = read && { ...read, branch: ownBranch(read, options.branchTemplate) }
  const last = state?.rounds[state.rounds.length - 1]
  if (!state || !last) {
    await reply(
      `proctor: there is no session on this conversation yet; start one with \`${options.phrase} <task>\`.`,
    )
    return none(`/proctor ${command.verb}: no session on #${issue}`)
  }
  const said = task.text.split('\n', 1)[0]!
  const answer = async (text: string, next: Conversation = state): Promise<void> => {
    await conversation.write(withAnswer(next, { author: task.author, said, answer: text }))
  }
  const running = last.status === null
  switch (command.verb) {
    case 'stop': {
      const run = Number(last.run)
      if (!running || !Number.isSafeInteger(run) || run <= 0) {
        await answer(`nothing to stop: round ${last.round} is not running`)
        return none(`/proctor stop: round ${last.round} is not running`)
      }
      const failed = await cancelRun(octokit, where, run).then(
        () => null,
        (error: unknown) => describeError(error),
      )
      if (failed) {
        await answer(
          `could not cancel run ${run}: ${failed.message} (the acknowledge job needs actions: write)`,
        )
        return none(`/proctor stop: could not cancel run ${run}: ${failed.message}`, 1)
      }
      const rounds = state.rounds.map((r) =>
        r === last ? { ...r, status: 'interrupted', verdict: 'block' } : r,
      )
      await answer(`cancelled round ${last.round} (workflow run ${run})`, { ...state, rounds })
      return none(`/proctor stop: cancelled workflow run ${run} (round ${last.round})`)
    }
    case 'restore': {
      const n = command.checkpoint
      const sha = state.checkpoints[n - 1]
      if (running || !state.branch || !state.session || !sha) {
        const why = running
          ? `round ${last.round} is still running (\`${options.phrase} stop\` first)`
          : !state.branch || !state.session
            ? 'the session has no pushed checkpoint branch'
            : `there is no checkpoint ${n} (the session has ${state.checkpoints.length})`
        await answer(`not restored: ${why}`)
        return none(`/proctor restore ${n}: ${why}`, 1)
      }
      const moved = await moveBranch(octokit, where, {
        branch: state.branch,
        to: sha,
        session: state.session,
      }).catch((error: unknown) => describeError(error))
      if ('message' in moved) {
        await answer(`not restored: ${moved.message} (the acknowledge job needs contents: write)`)
        return none(`/proctor restore ${n}: ${moved.message}`, 1)
      }
      const text = moved.kept
        ? `moved ${state.branch} back to checkpoint ${n} (${sha.slice(0, 12)}); the later checkpoints stay on ${moved.kept}`
        : `${state.branch} already is at checkpoint ${n}`
      // Gates were judged on the old tip: a promote needs a round that passes on this one.
      await answer(text, { ...state, tip: sha, promotable: state.promotable && !moved.kept })
      return none(`/proctor restore ${n}: ${text}`)
    }
    case 'promote': {
      if (running || !state.promotable || !state.branch) {
        const why = running
          ? `round ${last.round} is still running`
          : `round ${last.round} ${last.status ?? 'running'} with the verdict ${last.verdict ?? '—'}` +
            `${state.branch ? '' : ' and pushed no checkpoint branch'}: promote needs a round whose gates passed and whose commit was pushed`
        await answer(`not promoted: ${why}`)
        return none(`/proctor promote: ${why}`, 1)
      }
      const base = state.target ?? targetOf(options)
      if (!base) {
        await answer('not promoted: no branch to open the pull request against')
        return none('/proctor promote: no target branch', 1)
      }
      const first = state.rounds[0]!
      const pr = await promote(octokit, where, {
        head: state.branch,
        base,
        title: `proctor: ${first.text.replace(/\s+/g, ' ').slice(0, 70)}`,
        body:
          `Promoted from ${state.session ? `session \`${state.session}\`` : 'a proctor session'} on #${issue} ` +
          `(${state.rounds.length} round${state.rounds.length === 1 ? '' : 's'}; the gates passed on the last).`,
      }).catch((error: unknown) => describeError(error))
      if ('message' in pr) {
        await answer(`not promoted: ${pr.message} (the acknowledge job needs pull-requests: write)`)
        return none(`/proctor promote: ${pr.message}`, 1)
      }
      const text = `${pr.created ? 'opened' : 'updated'} pull request #${pr.number} from ${state.branch} into ${base}`
      await answer(text)
      return {
        ...none(`/proctor promote: ${text}`),
        outputs: { task: 'false', command: 'promote', 'pull-request': String(pr.number) },
      }
    }
    case 'continue':
    case 'retry': {
      const base = command.verb === 'continue' ? state.tip : last.base
      const why = running
        ? `round ${last.round} is still running (\`${options.phrase} stop\` first)`
        : !state.session
          ? 'the last round left no session to continue'
          : command.verb === 'continue' && (!state.branch || !state.tip)
            ? `round ${last.round} pushed no checkpoint branch to continue from (its gates failed?): \`${options.phrase} retry\`, or a new task`
            : !base
              ? `round ${last.round} recorded no commit it started from`
              : null
      if (why || !base) {
        await answer(`not started: ${why}`)
        return none(`/proctor ${command.verb}: ${why}`, 1)
      }
      const text = command.verb === 'continue' ? command.feedback : last.text
      const next = withRound(state, {
        kind: command.verb,
        text,
        author: task.author,
        url: task.url,
        run: ctx.runId,
        base,
      })
      const round = next.rounds.length
      await answer(`round ${round} (${command.verb}) starts from ${base.slice(0, 12)}`, next)
      return {
        log: `/proctor ${command.verb}: round ${round} of session ${state.session} starts from ${base}`,
        outputs: {
          task: 'true',
          command: command.verb,
          ref: base,
          'session-id': state.session!,
          round: String(round),
        },
        exitCode: 0,
      }
    }
  }
}

/** The branch the state names, if it is the session's own under `checkpoints.branch` (never `main`). */
export function ownBranch(state: Conversation, template: string): string | null {
  if (!state.branch || !state.session) return null
  try {
    return remoteBranchFor(template, state.session) === state.branch ? state.branch : null
  } catch {
    return null
  }
}

function commentOf(issueNumber: number, options: Options): ConversationComment {
  return new ConversationComment({
    octokit: options.octokit,
    ctx: options.ctx,
    issueNumber,
    token: options.token,
    sanitizer: options.sanitizer,
  })
}

/** Where a promoted pull request goes: the PR's own head branch, else the repository's default branch. */
function targetOf(options: Options): string | null {
  return (
    options.ctx.pr?.headRef ??
    str(get(options.payload, 'pull_request', 'head', 'ref')) ??
    str(get(options.payload, 'repository', 'default_branch'))
  )
}
