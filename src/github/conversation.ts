// The state of a conversation with proctor on an issue or pull request (docs/github.md#the-conversation):
// one session across rounds (the task, then each `/proctor continue`), its checkpoint branch, and the
// commands answered. It lives in proctor's own sticky comment "proctor:conversation", as a hidden
// block: found by marker AND author like every sticky comment (src/github/comment.ts), so nobody else's
// comment can pose as it. It is read as untrusted JSON all the same: every field is checked.
import type { SessionReport } from '../report/model.js'
import { renderConversation } from '../report/conversation.js'
import type { Sanitizer } from '../util/sanitize.js'
import type { GitHubOctokit } from './client.js'
import { StickyComment } from './comment.js'
import type { ActionsContext } from './context.js'

/** The sticky comment's key: one conversation per issue or pull request. */
export const CONVERSATION_KEY = 'conversation'
const STATE_OPEN = '<!-- proctor:state '
const STATE_CLOSE = ' -->'
/** A round's text kept in the state (the agent of the next round gets it summarized). */
const TEXT_MAX = 2000
/** Rounds and answered commands kept (the oldest go first). */
const KEEP = 30

export type RoundKind = 'task' | 'continue' | 'retry'

export interface ConversationRound {
  round: number
  kind: RoundKind
  /** The task or the feedback (cleaned text, capped). */
  text: string
  author: string
  url: string | null
  /** The workflow run of the round (what `/proctor stop` cancels while it runs). */
  run: string | null
  /** The commit the round started from. */
  base: string | null
  /** Null while it runs. */
  status: string | null
  verdict: string | null
  /** The round's last checkpoint. */
  head: string | null
  /** The agent CLI's own session id, when the report carries one (a continue resumes it). */
  agentSession: string | null
}

export interface Conversation {
  v: 1
  /** Set once the first round reported. */
  session: string | null
  /** The pushed checkpoint branch (no `refs/heads/`). */
  branch: string | null
  /** Where proctor last put that branch (a round's push, a restore): what a continue starts from. */
  tip: string | null
  /** Whether the last round's gates passed and its commit was pushed: what `promote` needs. */
  promotable: boolean
  /** The branch a promoted pull request targets (the PR's head branch, or the default branch). */
  target: string | null
  /** Every checkpoint of the session, all rounds, in order: `/proctor restore <n>` picks number n (1-based). */
  checkpoints: string[]
  rounds: ConversationRound[]
  /** Commands answered, newest last: who asked what, and what proctor did. */
  log: Array<{ author: string; said: string; answer: string }>
}

export function emptyConversation(): Conversation {
  return {
    v: 1,
    session: null,
    branch: null,
    tip: null,
    promotable: false,
    target: null,
    checkpoints: [],
    rounds: [],
    log: [],
  }
}

/** The hidden block that carries the state (base64 JSON: no `-->` can end it early). */
export function stateBlock(state: Conversation): string {
  return `${STATE_OPEN}${Buffer.from(JSON.stringify(state), 'utf8').toString('base64')}${STATE_CLOSE}`
}

/** The state in a comment body, or null when there is none or it does not hold together. */
export function parseConversation(body: string): Conversation | null {
  const start = body.indexOf(STATE_OPEN)
  if (start < 0) return null
  const end = body.indexOf(STATE_CLOSE, start + STATE_OPEN.length)
  if (end < 0) return null
  let raw: unknown
  try {
    raw = JSON.parse(Buffer.from(body.slice(start + STATE_OPEN.length, end), 'base64').toString('utf8'))
  } catch {
    return null
  }
  return checked(raw)
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/
const s = (v: unknown, max = 300): string | null => (typeof v === 'string' ? v.slice(0, max) : null)
const sha = (v: unknown): string | null => (typeof v === 'string' && SHA.test(v) ? v : null)
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function checked(raw: unknown): Conversation | null {
  if (!raw || typeof raw !== 'object') return null
  const o = raw as Record<string, unknown>
  if (o.v !== 1) return null
  const rounds = arr(o.rounds).flatMap((r, i): ConversationRound[] => {
    if (!r || typeof r !== 'object') return []
    const x = r as Record<string, unknown>
    const kind = x.kind === 'continue' || x.kind === 'retry' ? x.kind : 'task'
    return [
      {
        round: i + 1,
        kind,
        text: s(x.text, TEXT_MAX) ?? '',
        author: s(x.author, 100) ?? 'unknown',
        url: s(x.url),
        run: s(x.run, 30),
        base: sha(x.base),
        status: s(x.status, 30),
        verdict: s(x.verdict, 30),
        head: sha(x.head),
        agentSession: s(x.agentSession, 200),
      },
    ]
  })
  return {
    v: 1,
    session: s(o.session, 200),
    branch: s(o.branch, 250),
    tip: sha(o.tip),
    promotable: o.promotable === true,
    target: s(o.target, 250),
    checkpoints: arr(o.checkpoints).flatMap((c) => sha(c) ?? []),
    rounds,
    log: arr(o.log).flatMap((l) => {
      const x = (l ?? {}) as Record<string, unknown>
      const answer = s(x.answer, 500)
      return answer === null
        ? []
        : [{ author: s(x.author, 100) ?? 'unknown', said: s(x.said, 200) ?? '', answer }]
    }),
  }
}

/** A round asked for (running from now on). */
export function withRound(
  state: Conversation,
  round: Omit<ConversationRound, 'round' | 'status' | 'verdict' | 'head' | 'agentSession'>,
): Conversation {
  const rounds = [
    ...state.rounds,
    {
      ...round,
      text: round.text.slice(0, TEXT_MAX),
      round: state.rounds.length + 1,
      status: null,
      verdict: null,
      head: null,
      agentSession: null,
    },
  ]
  return { ...state, rounds: rounds.slice(-KEEP), promotable: false }
}

/** A command answered: kept in the comment's log. */
export function withAnswer(state: Conversation, entry: Conversation['log'][number]): Conversation {
  return { ...state, log: [...state.log, { ...entry, said: entry.said.slice(0, 200) }].slice(-KEEP) }
}

/**
 * The last round's result from its report: status, verdict, its checkpoints added to the session's list,
 * the branch it was pushed to. `promotable` only when the gates allowed AND the commit was pushed.
 */
export function withReport(state: Conversation, report: SessionReport): Conversation {
  const rounds = [...state.rounds]
  const last = rounds[rounds.length - 1]
  const head = report.checkpoints[report.checkpoints.length - 1]?.sha ?? null
  // The seam for the agent CLI's own resume: a report field the presets may fill (absent today).
  const agentSession = s((report as { agent_session_id?: unknown }).agent_session_id, 200)
  if (last)
    rounds[rounds.length - 1] = {
      ...last,
      status: report.status,
      verdict: report.verdict,
      head: sha(head),
      agentSession,
      base: last.base ?? sha(report.baseline?.commit ?? null),
    }
  const known = new Set(state.checkpoints)
  const added = report.checkpoints.flatMap((c) => (sha(c.sha) && !known.has(c.sha) ? [c.sha] : []))
  const pushed = report.pushed?.ok === true && report.pushed.sha === head ? report.pushed.branch : null
  return {
    ...state,
    session: report.session_id,
    branch: pushed ?? state.branch,
    tip: pushed !== null ? sha(head) : state.tip,
    promotable: report.verdict === 'allow' && report.status === 'completed' && pushed !== null,
    checkpoints: [...state.checkpoints, ...added],
    rounds,
  }
}

/** What the next round's agent reads about the earlier ones (a fresh agent has no memory of them). */
export function summaryForAgent(state: Conversation): string {
  const lines = state.rounds.map(
    (r) =>
      `- round ${r.round} (${r.kind}, @${r.author}): ${r.status ?? 'running'}${r.verdict ? `, ${r.verdict}` : ''}` +
      `${r.head ? `, ended at ${r.head.slice(0, 12)}` : ''}: ${oneLine(r.text, 300)}`,
  )
  return lines.join('\n')
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** The conversation's sticky comment on an issue or pull request, and the state it holds. */
export class ConversationComment {
  private readonly comment: StickyComment
  constructor(
    private readonly options: {
      octokit: GitHubOctokit
      ctx: ActionsContext
      issueNumber: number
      token: string
      sanitizer: Sanitizer
    },
  ) {
    this.comment = new StickyComment({
      octokit: options.octokit,
      owner: options.ctx.owner,
      repo: options.ctx.repo,
      issueNumber: options.issueNumber,
      key: CONVERSATION_KEY,
      mode: 'sticky',
      token: options.token,
      minEditIntervalMs: 0,
    })
  }

  /** The state proctor last wrote here; null when this conversation has none yet. */
  async read(): Promise<Conversation | null> {
    const found = await this.comment.find()
    return found?.body ? parseConversation(found.body) : null
  }

  /** Writes the state and its rendering (creates the comment the first time). */
  async write(state: Conversation): Promise<string | null> {
    await this.comment.publish(
      () =>
        renderConversation(state, {
          marker: this.comment.marker,
          sanitizer: this.options.sanitizer,
          block: stateBlock(state),
        }),
      { final: true },
    )
    return this.comment.url
  }
}
