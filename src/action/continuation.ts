// The agent job's side of a conversation round (docs/github.md#the-conversation): which session and
// round this run continues, from which commit, and what the agent is told. The agent of a new CI job has
// no memory of the earlier rounds: it gets them summarized with the feedback, and the previous round's
// own agent session id (PROCTOR_RESUME_SESSION) for a CLI that can resume it.
import type { Command } from '../github/command.js'
import {
  ConversationComment,
  summaryForAgent,
  withReport,
  type Conversation,
} from '../github/conversation.js'
import type { Task } from '../github/trigger.js'
import type { SessionReport } from '../report/model.js'

export interface Continuation {
  sessionId: string
  round: number
  /** The commit the round must start from: the checkout has to be this. */
  base: string
  /** The task the agent gets ({task}, PROCTOR_TASK): the feedback (or retried task) and the earlier rounds. */
  task: Task
  env: Record<string, string>
}

/**
 * The round this run is, from the conversation's state (the acknowledge job wrote it as running, with
 * this run's id). A string: why this run cannot continue anything.
 */
export function continuationOf(
  state: Conversation | null,
  command: Extract<Command, { verb: 'continue' | 'retry' }>,
  task: Task,
  runId: string | null,
): Continuation | string {
  const last = state?.rounds[state.rounds.length - 1]
  if (!state || !last || last.status !== null || last.run !== runId || last.kind !== command.verb)
    return (
      `no ${command.verb} round of this run in the conversation comment: \`/proctor ${command.verb}\` is ` +
      'answered by the acknowledge job (mode: acknowledge, proctor init --trigger mention), which records the round first'
    )
  if (!state.session || !last.base) return 'the conversation names no session or start commit to continue'
  const earlier = { ...state, rounds: state.rounds.slice(0, -1) }
  const previous = earlier.rounds[earlier.rounds.length - 1]
  const what =
    command.verb === 'continue' ? last.text || 'Continue where the previous round stopped.' : last.text
  const text = [
    what,
    '',
    `---`,
    `proctor: this is round ${last.round} (${command.verb}) of session ${state.session}. The worktree is where ` +
      `${command.verb === 'continue' ? 'the previous round left it' : 'the retried round started'}. Earlier rounds:`,
    summaryForAgent(earlier),
  ].join('\n')
  return {
    sessionId: state.session,
    round: last.round,
    base: last.base,
    task: { ...task, text },
    env: {
      PROCTOR_FEEDBACK: command.verb === 'continue' ? last.text : '',
      PROCTOR_CONVERSATION_ROUND: String(last.round),
      ...(previous?.agentSession ? { PROCTOR_RESUME_SESSION: previous.agentSession } : {}),
    },
  }
}

/** The round's result into the conversation comment (status, verdict, checkpoints, the pushed branch). */
export async function recordRound(
  conversation: ConversationComment,
  report: SessionReport,
  runId: string | null,
): Promise<boolean> {
  const state = await conversation.read()
  const last = state?.rounds[state.rounds.length - 1]
  // Only the running round this run was asked for: a report never rewrites another run's round.
  if (!state || !last || last.status !== null || last.run !== runId) return false
  if (state.session && state.session !== report.session_id) return false
  await conversation.write(withReport(state, report))
  return true
}
