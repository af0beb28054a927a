// One PR comment per session key: found again by its hidden marker and its author, created once,
// edited in place. This object is the comment's only writer: every edit is numbered and goes through one
// queue, so edits land in the order they were asked for. Progress edits wait an interval and are
// throttled (at most one per interval; the latest body wins and is flushed when the interval ends). Once the final render has been
// asked for, the comment is closed: no progress edit — throttled, queued or arriving late — is written
// after it, so what stays on the PR is the final render.
import type { GitHubOctokit } from './client.js'
import { describeError } from './client.js'
import { NO_PLUGIN_RETRY, createOnce } from './create-once.js'
import { commentMarker } from '../report/markdown.js'

export type CommentMode = 'sticky' | 'new' | 'off'

/** Renders the body within a character budget (the 422 fallback asks for a smaller one). */
export type BodyRenderer = (maxChars: number) => string

export interface StickyCommentOptions {
  octokit: GitHubOctokit
  owner: string
  repo: string
  issueNumber: number
  key: string
  mode: CommentMode
  /** The token, only to tell an installation token (`ghs_`, e.g. GITHUB_TOKEN) from a user token. */
  token: string
  /** The login that owns proctor's comments, when known (skips identity discovery). */
  author?: string
  /** Minimum spacing of progress edits (default 10 s). */
  minEditIntervalMs?: number
  /** Called for every API call made (for the API call budget). */
  onCall?: (operation: string) => void
  /** Errors of the deferred (timer-driven) progress flush, which has no caller to throw to. */
  onError?: (error: unknown) => void
}

interface IssueComment {
  id: number
  html_url: string
  body?: string
  user: { login: string; type: string } | null
}

type Identity = { kind: 'login'; login: string } | { kind: 'bot' }

export type PublishOutcome = 'created' | 'updated' | 'deferred' | 'superseded' | 'off'

export const DEFAULT_EDIT_INTERVAL_MS = 10_000
const BODY_TOO_LONG = /body is too long/i

export class StickyComment {
  readonly marker: string
  private id: number | null = null
  private htmlUrl: string | null = null
  private lastWrite = -Infinity
  private pending: { seq: number; render: BodyRenderer } | null = null
  private timer: NodeJS.Timeout | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private identity: Identity | null = null
  /** Number of the latest edit asked for; every edit carries one. */
  private seq = 0
  /** Number of the final edit once it has been asked for: older edits that have not started are dropped. */
  private finalSeq: number | null = null

  constructor(private readonly options: StickyCommentOptions) {
    this.marker = commentMarker(options.key)
  }

  get url(): string | null {
    return this.htmlUrl
  }

  get commentId(): number | null {
    return this.id
  }

  /**
   * Creates or updates the comment unless the mode is off. `final: true` is the session's last render: it
   * is written at once and closes the comment to progress (later progress calls resolve 'superseded').
   * A progress render waits: it is written one interval after it was asked for (a newer render replaces
   * it meanwhile) and never within an interval of the previous write. So a session that ends within the
   * interval writes its comment once, final, and a render the final one follows closely is never sent.
   * Resolves to what happened.
   */
  publish(render: BodyRenderer, opts: { final: boolean }): Promise<PublishOutcome> {
    if (this.options.mode === 'off') return Promise.resolve('off')
    const seq = ++this.seq
    if (opts.final) {
      this.finalSeq = seq
      this.cancelPending()
      return this.serial(seq, render)
    }
    if (this.finalSeq !== null) return Promise.resolve('superseded')
    this.pending = { seq, render }
    if (!this.timer) {
      const interval = this.interval()
      const wait = Math.max(interval, this.lastWrite + interval - Date.now())
      this.timer = setTimeout(() => this.flushPending(), wait)
      this.timer.unref()
    }
    return Promise.resolve('deferred')
  }

  /** Whether the final render has been asked for (no progress edit will be written any more). */
  get closed(): boolean {
    return this.finalSeq !== null
  }

  /** Stops a deferred progress edit (the final edit supersedes it). */
  cancelPending(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.pending = null
  }

  /** Waits for every queued write to settle. */
  async idle(): Promise<void> {
    await this.queue.catch(() => {})
  }

  private interval(): number {
    return this.options.minEditIntervalMs ?? DEFAULT_EDIT_INTERVAL_MS
  }

  private flushPending(): void {
    this.timer = null
    const pending = this.pending
    this.pending = null
    if (!pending) return
    this.serial(pending.seq, pending.render).catch((error: unknown) => this.options.onError?.(error))
  }

  /**
   * Queues an edit behind every earlier one. When its turn comes, an edit older than the final one is
   * dropped: a progress body must never land after (and so overwrite) the final render.
   */
  private serial(seq: number, render: BodyRenderer): Promise<PublishOutcome> {
    const task = () =>
      this.finalSeq !== null && seq < this.finalSeq
        ? Promise.resolve<PublishOutcome>('superseded')
        : this.write(render)
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => {})
    return run
  }

  private async write(render: BodyRenderer): Promise<'created' | 'updated'> {
    // Counted from the attempt, not the success: when GitHub is down, progress must not hammer it.
    this.lastWrite = Date.now()
    if (this.id === null && this.options.mode === 'sticky') {
      const existing = await this.find()
      if (existing) this.adopt(existing)
    }
    let maxChars = 65_536
    for (let attempt = 0; ; attempt++) {
      const body = render(maxChars)
      try {
        return this.id === null ? await this.create(body) : await this.update(this.id, body)
      } catch (error) {
        const { status, message } = describeError(error)
        // GitHub's limit is in characters but its counting can differ from ours: shrink and try again.
        if (status === 422 && BODY_TOO_LONG.test(message) && attempt < 3) {
          maxChars = Math.floor(Math.min(maxChars, body.length) / 2)
          continue
        }
        // The comment was deleted (404) or is not ours to edit (403): post a fresh one instead.
        if ((status === 404 || status === 403) && this.id !== null && attempt < 3) {
          this.id = null
          this.htmlUrl = null
          continue
        }
        throw error
      }
    }
  }

  private adopt(comment: IssueComment): void {
    this.id = comment.id
    this.htmlUrl = comment.html_url
  }

  private async create(body: string): Promise<'created'> {
    const { octokit, owner, repo, issueNumber } = this.options
    const created = await createOnce({
      octokit,
      send: async () => {
        this.options.onCall?.('issues.createComment')
        const { data } = await octokit.rest.issues.createComment({
          owner,
          repo,
          issue_number: issueNumber,
          body,
          request: NO_PLUGIN_RETRY,
        })
        return data
      },
      // A sticky comment is found by its marker; a `new` one (the marker is shared with earlier sessions'
      // comments) only by the very body that was sent.
      find: () =>
        this.find(
          this.options.mode === 'sticky' ? () => true : (found) => found.body?.trim() === body.trim(),
        ),
    })
    this.adopt(created)
    return 'created'
  }

  private async update(id: number, body: string): Promise<'updated'> {
    const { octokit, owner, repo } = this.options
    this.options.onCall?.('issues.updateComment')
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body })
    this.adopt(data)
    return 'updated'
  }

  /**
   * The comment this key already has on the PR, if any. It must start with our marker AND be written by
   * us: by the login we know, or — for installation tokens like GITHUB_TOKEN, where GET /user fails — by
   * a bot account (users cannot post as bots, so a user's copy of the marker cannot hijack the comment).
   */
  async find(also: (comment: IssueComment) => boolean = () => true): Promise<IssueComment | null> {
    const { octokit, owner, repo, issueNumber } = this.options
    const identity = await this.resolveIdentity()
    const iterator = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 100,
    })
    for await (const page of iterator) {
      this.options.onCall?.('issues.listComments')
      for (const comment of page.data) {
        if (isOurs(comment, this.marker, identity) && also(comment)) return comment
      }
    }
    return null
  }

  private async resolveIdentity(): Promise<Identity> {
    if (this.identity) return this.identity
    if (this.options.author) return (this.identity = { kind: 'login', login: this.options.author })
    // Installation tokens (GITHUB_TOKEN, GitHub Apps) cannot call GET /user; don't spend a call on it.
    if (this.options.token.startsWith('ghs_')) return (this.identity = { kind: 'bot' })
    try {
      this.options.onCall?.('users.getAuthenticated')
      const { data } = await this.options.octokit.rest.users.getAuthenticated()
      this.identity = { kind: 'login', login: data.login }
    } catch {
      this.identity = { kind: 'bot' }
    }
    return this.identity
  }
}

function isOurs(comment: IssueComment, marker: string, identity: Identity): boolean {
  if (!comment.body || !comment.user) return false
  if (comment.body.split('\n', 1)[0]!.trim() !== marker) return false
  return identity.kind === 'login' ? comment.user.login === identity.login : comment.user.type === 'Bot'
}
