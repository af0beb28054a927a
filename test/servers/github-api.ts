// A local GitHub REST API on 127.0.0.1 for tests: a real HTTP server that validates every request
// against GitHub's OpenAPI description (trimmed copy in ./openapi), keeps state (issue comments, check
// runs with accumulating annotations, collaborators) and injects faults (5xx, secondary rate limit,
// 422 body too long, connection reset, a request accepted and never answered). Its own responses are validated against the documented
// response schemas too, so they cannot drift from real shapes. Anything invalid is recorded in
// `validationFailures`, which tests assert to be empty.
import { execFileSync } from 'node:child_process'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { OpenApiValidator, loadTrimmedSpec, type Operation } from './openapi/validator.js'
import type { ArtifactStore, StoredArtifact } from './artifact-service.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

/** Which requests a fault hits: an operation, and/or paths containing `pathIncludes`. */
interface FaultTarget {
  times?: number
  operationId?: string
  pathIncludes?: string
}
export type Fault =
  | ({ kind: 'status'; status: 500 | 502 | 503 } & FaultTarget)
  | ({ kind: 'secondary-rate-limit'; retryAfter: number } & FaultTarget)
  /** The primary limit: 403 with x-ratelimit-remaining 0 and the window's reset `resetIn` seconds away. */
  | ({ kind: 'rate-limit'; resetIn: number } & FaultTarget)
  | ({ kind: 'body-too-long' } & FaultTarget)
  | ({ kind: 'reset' } & FaultTarget)
  /** Reads the request and never answers (the connection stays open until the server closes). */
  | ({ kind: 'hang' } & FaultTarget)
  /** Applies the request, then resets the connection: the write landed but its answer is lost. */
  | ({ kind: 'lost-answer' } & FaultTarget)

export interface Identity {
  login: string
  id: number
  type: 'Bot' | 'User'
  /** Scopes this token may write; others answer 403 "Resource not accessible by integration". */
  write: { checks: boolean; issues: boolean; contents?: boolean; pulls?: boolean }
  /** `actions: read` (list a run's jobs); false answers 403 as a token without it does. Default true. */
  actionsRead?: boolean
  /** `checks: read` (a commit's check runs); false answers 403 as a token without it does. Default true. */
  checksRead?: boolean
  /** `actions: write` (cancel a run); false answers 403. Default true. */
  actionsWrite?: boolean
}

/** A job of a workflow run, for `actions/list-jobs-for-workflow-run-attempt`. */
export interface StoredJob {
  id: number
  runId: number
  /** Default 1. */
  attempt?: number
  /** The display name (`build (ubuntu-latest, 20)` for a matrix leg). */
  name: string
  runnerName: string | null
  /** Default in_progress. */
  status?: 'queued' | 'in_progress' | 'completed'
  /** For a completed job; default success. */
  conclusion?: 'success' | 'failure' | 'cancelled' | 'skipped' | 'neutral' | 'timed_out'
  /** Default 2026-01-01T00:00:00Z. */
  startedAt?: string
}

export interface StoredComment {
  id: number
  issue_number: number
  body: string
  user: Identity
  created_at: string
  updated_at: string
}

export interface StoredCheckRun {
  id: number
  name: string
  head_sha: string
  status: string
  conclusion: string | null
  started_at: string | null
  completed_at: string | null
  details_url: string | null
  external_id: string
  output: { title: string | null; summary: string | null; text: string | null }
  annotations: JsonObject[]
  /** Every PATCH body received, in order. */
  updates: JsonObject[]
}

export interface RecordedCall {
  method: string
  path: string
  operationId: string | null
  status: number
  body: unknown
  /** When the request arrived (ms since the epoch): the spacing of writes is read from these. */
  at: number
}

export interface ValidationFailure {
  method: string
  path: string
  message: string
}

export interface GitHubApiServerOptions {
  owner?: string
  repo?: string
  faults?: Fault[]
  /** token → identity. Unlisted tokens: `ghs_…` is github-actions[bot], anything else the user "octocat". */
  tokens?: Record<string, Partial<Identity> & { login: string }>
  /** username → permission (admin, maintain, write, triage, read). */
  collaborators?: Record<string, string>
  /** Pull requests `pulls/get` knows: number → head commit and the repository it comes from. */
  pulls?: Record<number, { headSha: string; headRepo?: string }>
  /**
   * The artifact service's store (test/servers/artifact-service.ts): the Actions artifact endpoints
   * (list a run's artifacts, download one as a 302 to its zip) serve from it. Without it they answer 404.
   */
  artifacts?: ArtifactStore
  /** Jobs of workflow runs (`actions/list-jobs-for-workflow-run-attempt`); the array may grow while running. */
  jobs?: StoredJob[]
  /** Git refs at the start (`refs/heads/x` → sha). */
  refs?: Record<string, string>
  /**
   * A bare repository (the loopback git remote's, test/servers/git-http.ts) whose refs the git refs
   * endpoints read and move, with git's own checks: an unknown object, a non-fast-forward without force.
   */
  gitDir?: string
  /** Workflow runs that are in progress (`actions/cancel-workflow-run` answers 409 for any other). */
  runningRuns?: number[]
  /**
   * Branches `repos/get-branch` knows (others answer 404): the status checks their classic protection
   * requires (undefined: not protected).
   */
  branches?: Record<string, { requiredChecks?: string[] }>
  /** Required status checks from rulesets, per branch (`repos/get-branch-rules`). */
  rulesets?: Record<string, string[]>
  /**
   * The repository's CI, asked before a commit's check runs or statuses are read: it may add them
   * (state.addCheckRun, state.setStatus) for the commit, as workflows that ran on its push would have.
   */
  ci?: (sha: string) => void
  /**
   * Rate-limit headers on every answer: this many requests left in a window that resets `resetIn` seconds
   * after the server started (what GitHub sends; without it, no such headers).
   */
  rateLimit?: { remaining: number; resetIn: number }
}

/** A commit status (`repos/get-combined-status-for-ref`). */
export interface StoredStatus {
  context: string
  state: 'error' | 'failure' | 'pending' | 'success'
  description: string | null
}

/** A reaction proctor put on a comment (`issue`: an issue or PR comment; `review`: a PR review comment). */
export interface StoredReaction {
  on: 'issue' | 'review'
  commentId: number
  content: string
  user: string
}

/** A pull request proctor opened (`/proctor promote`). */
export interface StoredPull {
  number: number
  head: string
  base: string
  title: string
  body: string
  state: 'open' | 'closed'
}

export interface GitHubApiState {
  /** Git refs (`refs/heads/x` → sha) the git refs endpoints read and move. */
  refs: Map<string, string>
  pulls: StoredPull[]
  /** Workflow runs cancelled through the API. */
  cancelled: number[]
  comments: Map<number, StoredComment>
  reactions: StoredReaction[]
  checkRuns: Map<number, StoredCheckRun>
  collaborators: Map<string, string>
  /** Adds a comment as someone else (a user quoting proctor's marker, another bot...). */
  addComment(issueNumber: number, body: string, author: Partial<Identity> & { login: string }): StoredComment
  commentsOn(issueNumber: number): StoredComment[]
  checkRunsNamed(name: string): StoredCheckRun[]
  /**
   * A check run made by CI (any app, unlike `checks/create`); `job` makes it a GitHub Actions job with
   * that log (`actions/download-job-logs-for-workflow-run`).
   */
  addCheckRun(run: {
    name: string
    head_sha: string
    status?: string
    conclusion?: string | null
    title?: string
    annotations?: JsonObject[]
    job?: { id: number; log: string }
  }): StoredCheckRun
  /** Statuses by commit, latest per context. */
  statuses: Map<string, StoredStatus[]>
  setStatus(sha: string, status: StoredStatus): void
}

export interface GitHubApiServer {
  url: string
  state: GitHubApiState
  calls: RecordedCall[]
  validationFailures: ValidationFailure[]
  inject(fault: Fault): void
  /** Calls other than faults injected by the test, grouped by operationId. */
  count(operationId?: string): number
  close(): Promise<void>
}

const GITHUB_ACTIONS_BOT: Identity = {
  login: 'github-actions[bot]',
  id: 41898282,
  type: 'Bot',
  write: { checks: true, issues: true },
}
const OCTOCAT: Identity = {
  login: 'octocat',
  id: 583231,
  type: 'User',
  write: { checks: false, issues: true },
}

export async function startGitHubApiServer(options: GitHubApiServerOptions = {}): Promise<GitHubApiServer> {
  const owner = options.owner ?? 'acme'
  const repo = options.repo ?? 'widgets'
  const spec = loadTrimmedSpec()
  const validator = new OpenApiValidator(spec)
  const schemas = (spec.components as JsonObject).schemas as JsonObject
  const faults: Array<Fault & { left: number }> = (options.faults ?? []).map((f) => ({
    ...f,
    left: f.times ?? 1,
  }))
  const calls: RecordedCall[] = []
  const validationFailures: ValidationFailure[] = []
  let nextId = 1000
  let base = ''

  const tokens = new Map<string, Identity>(
    Object.entries(options.tokens ?? {}).map(([token, id]) => [
      token,
      { id: 90_000 + token.length, type: 'User', write: { checks: true, issues: true }, ...id } as Identity,
    ]),
  )
  const identityOf = (req: IncomingMessage): Identity | null => {
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (!match) return null
    const token = match[1]!
    return tokens.get(token) ?? (token.startsWith('ghs_') ? GITHUB_ACTIONS_BOT : OCTOCAT)
  }

  const state: GitHubApiState = {
    refs: new Map(Object.entries(options.refs ?? {})),
    pulls: [],
    cancelled: [],
    comments: new Map(),
    reactions: [],
    checkRuns: new Map(),
    collaborators: new Map(Object.entries(options.collaborators ?? {})),
    addComment(issueNumber, body, author) {
      const now = new Date().toISOString()
      const comment: StoredComment = {
        id: nextId++,
        issue_number: issueNumber,
        body,
        user: { id: 7_000 + nextId, type: 'User', write: { checks: false, issues: true }, ...author },
        created_at: now,
        updated_at: now,
      }
      state.comments.set(comment.id, comment)
      return comment
    },
    commentsOn: (n) =>
      [...state.comments.values()].filter((c) => c.issue_number === n).sort((a, b) => a.id - b.id),
    checkRunsNamed: (name) => [...state.checkRuns.values()].filter((r) => r.name === name),
    addCheckRun(run) {
      const now = new Date().toISOString()
      const conclusion = run.conclusion ?? null
      const stored: StoredCheckRun = {
        id: nextId++,
        name: run.name,
        head_sha: run.head_sha,
        status: run.status ?? (conclusion ? 'completed' : 'queued'),
        conclusion,
        started_at: now,
        completed_at: conclusion ? now : null,
        details_url: run.job ? `${web}/actions/runs/77/job/${run.job.id}` : null,
        external_id: '',
        output: { title: run.title ?? null, summary: null, text: null },
        annotations: run.annotations ?? [],
        updates: [],
      }
      if (run.job) jobLogs.set(run.job.id, run.job.log)
      state.checkRuns.set(stored.id, stored)
      return stored
    },
    statuses: new Map(),
    setStatus(sha, status) {
      const list = (state.statuses.get(sha) ?? []).filter((s) => s.context !== status.context)
      state.statuses.set(sha, [...list, status])
    },
  }
  const jobLogs = new Map<number, string>()
  const rateWindow = options.rateLimit
    ? {
        remaining: options.rateLimit.remaining,
        reset: Math.ceil(Date.now() / 1000) + options.rateLimit.resetIn,
      }
    : null

  // ----- response shapes: synthesized from the schema (required fields), overlaid with real values -----
  const repoUrl = () => `${base}/repos/${owner}/${repo}`
  const web = `https://github.com/${owner}/${repo}`
  const user = (who: Identity): JsonObject =>
    synthesize(schemas['simple-user'], schemas, {
      login: who.login,
      id: who.id,
      node_id: `U_${who.id}`,
      type: who.type,
      url: `${base}/users/${encodeURIComponent(who.login)}`,
      html_url: `https://github.com/${encodeURIComponent(who.login)}`,
    }) as JsonObject
  const commentJson = (c: StoredComment): JsonObject =>
    synthesize(schemas['issue-comment'], schemas, {
      id: c.id,
      node_id: `IC_${c.id}`,
      url: `${repoUrl()}/issues/comments/${c.id}`,
      html_url: `${web}/pull/${c.issue_number}#issuecomment-${c.id}`,
      issue_url: `${repoUrl()}/issues/${c.issue_number}`,
      body: c.body,
      user: user(c.user),
      created_at: c.created_at,
      updated_at: c.updated_at,
      author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER',
      performed_via_github_app: null,
    }) as JsonObject
  const checkRunJson = (r: StoredCheckRun): JsonObject =>
    synthesize(schemas['check-run'], schemas, {
      id: r.id,
      node_id: `CR_${r.id}`,
      head_sha: r.head_sha,
      name: r.name,
      url: `${repoUrl()}/check-runs/${r.id}`,
      html_url: `${web}/runs/${r.id}`,
      details_url: r.details_url,
      status: r.status,
      conclusion: r.conclusion,
      started_at: r.started_at,
      completed_at: r.completed_at,
      external_id: r.external_id,
      output: {
        title: r.output.title,
        summary: r.output.summary,
        text: r.output.text,
        annotations_count: r.annotations.length,
        annotations_url: `${repoUrl()}/check-runs/${r.id}/annotations`,
      },
      check_suite: { id: 1 },
      app: null,
      pull_requests: [],
    }) as JsonObject

  const artifactJson = (a: StoredArtifact): JsonObject =>
    synthesize(schemas['artifact'], schemas, {
      id: a.id,
      node_id: `MDg6QXJ0aWZhY3Q${a.id}`,
      name: a.name,
      size_in_bytes: a.size,
      url: `${repoUrl()}/actions/artifacts/${a.id}`,
      archive_download_url: `${repoUrl()}/actions/artifacts/${a.id}/zip`,
      expired: a.expiresAt !== null && Date.parse(a.expiresAt) < Date.now(),
      created_at: a.createdAt,
      expires_at: a.expiresAt,
      updated_at: a.createdAt,
      digest: a.digest,
      workflow_run: {
        id: a.runId,
        repository_id: 1,
        head_repository_id: 1,
        head_branch: 'main',
        head_sha: '0'.repeat(40),
      },
    }) as JsonObject

  // Refs live in options.gitDir when given (moved with git itself), else in state.refs.
  const git = (args: string[]): string | null => {
    try {
      return execFileSync('git', ['--git-dir', options.gitDir!, ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim()
    } catch {
      return null
    }
  }
  const readRef = (ref: string): string | null =>
    options.gitDir ? git(['rev-parse', '--verify', '-q', `${ref}^{commit}`]) : (state.refs.get(ref) ?? null)
  /** False: an unknown object, or (without force) not a fast-forward. */
  const writeRef = (ref: string, sha: string, force: boolean): boolean => {
    if (!options.gitDir) {
      if (!force && state.refs.has(ref)) return false
      state.refs.set(ref, sha)
      return true
    }
    if (git(['cat-file', '-e', `${sha}^{commit}`]) === null) return false
    const old = readRef(ref)
    if (!force && old && git(['merge-base', '--is-ancestor', old, sha]) === null) return false
    return git(['update-ref', ref, sha]) !== null
  }
  const refJson = (ref: string, sha: string): JsonObject =>
    synthesize(schemas['git-ref'], schemas, {
      ref,
      node_id: `REF_${ref}`,
      url: `${repoUrl()}/git/${ref}`,
      object: { type: 'commit', sha, url: `${repoUrl()}/git/commits/${sha}` },
    }) as JsonObject
  const pullJson = (p: StoredPull, schema: 'pull-request' | 'pull-request-simple'): JsonObject => {
    const side = (ref: string): JsonObject => ({
      label: `${owner}:${ref}`,
      ref,
      sha: readRef(`refs/heads/${ref}`) ?? '0'.repeat(40),
      repo: synthesize(schemas['repository'], schemas, {
        name: repo,
        full_name: `${owner}/${repo}`,
        owner: user({ ...OCTOCAT, login: owner }),
        fork: false,
        html_url: web,
      }),
      user: user({ ...OCTOCAT, login: owner }),
    })
    return synthesize(schemas[schema], schemas, {
      number: p.number,
      id: 60_000 + p.number,
      state: p.state,
      title: p.title,
      body: p.body,
      html_url: `${web}/pull/${p.number}`,
      url: `${repoUrl()}/pulls/${p.number}`,
      head: side(p.head),
      base: side(p.base),
      user: user(GITHUB_ACTIONS_BOT),
    }) as JsonObject
  }

  // ----- handlers -----
  type Result = { status: number; body?: Json; headers?: Record<string, string> }
  const error = (status: number, message: string): Result => ({
    status,
    body: { message, documentation_url: 'https://docs.github.com/rest' },
  })
  // A reaction needs issues: write (issue comments) or pull-requests: write; the same one twice answers 200.
  const react = (on: 'issue' | 'review', op: Operation, body: JsonObject, who: Identity): Result => {
    if (!who.write.issues) return error(403, 'Resource not accessible by integration')
    const commentId = Number(op.pathParams.comment_id)
    const content = String(body.content)
    const again = state.reactions.findIndex(
      (r) => r.on === on && r.commentId === commentId && r.content === content && r.user === who.login,
    )
    if (again < 0) state.reactions.push({ on, commentId, content, user: who.login })
    return {
      status: again < 0 ? 201 : 200,
      body: synthesize(schemas['reaction'], schemas, {
        id: 30_000 + state.reactions.length,
        content,
        user: user(who),
        created_at: new Date().toISOString(),
      }),
    }
  }
  const handlers: Record<string, (op: Operation, body: JsonObject, who: Identity, url: URL) => Result> = {
    'repos/get': () => ({
      status: 200,
      body: synthesize(schemas['full-repository'], schemas, {
        name: repo,
        full_name: `${owner}/${repo}`,
        owner: user({ ...OCTOCAT, login: owner }),
        private: false,
        fork: false,
        default_branch: 'main',
        html_url: web,
        url: repoUrl(),
      }),
    }),
    'pulls/get': (op) => {
      const number = Number(op.pathParams.pull_number)
      const pr = options.pulls?.[number]
      if (!pr) return error(404, 'Not Found')
      const [headOwner, headName] = (pr.headRepo ?? `${owner}/${repo}`).split('/') as [string, string]
      const side = (ref: string, sha: string, repoOwner: string, name: string): JsonObject => ({
        label: `${repoOwner}:${ref}`,
        ref,
        sha,
        repo: synthesize(schemas['repository'], schemas, {
          name,
          full_name: `${repoOwner}/${name}`,
          owner: user({ ...OCTOCAT, login: repoOwner }),
          fork: repoOwner !== owner,
          html_url: `https://github.com/${repoOwner}/${name}`,
        }),
        user: user({ ...OCTOCAT, login: repoOwner }),
      })
      return {
        status: 200,
        body: synthesize(schemas['pull-request'], schemas, {
          number,
          id: 50_000 + number,
          state: 'open',
          title: `PR ${number}`,
          html_url: `${web}/pull/${number}`,
          url: `${repoUrl()}/pulls/${number}`,
          head: side('feature', pr.headSha, headOwner, headName),
          base: side('main', '0'.repeat(40), owner, repo),
          user: user(OCTOCAT),
        }),
      }
    },
    'users/get-authenticated': (_op, _b, who) =>
      who.type === 'Bot'
        ? error(403, 'Resource not accessible by integration')
        : {
            status: 200,
            body: synthesize(schemas['public-user'], schemas, { ...user(who), user_view_type: 'public' }),
          },
    'repos/get-collaborator-permission-level': (op) => {
      const name = String(op.pathParams.username)
      const permission = state.collaborators.get(name)
      if (!permission) return error(404, `${name} is not a user`)
      const legacy = permission === 'maintain' ? 'write' : permission === 'triage' ? 'read' : permission
      return {
        status: 200,
        body: synthesize(schemas['repository-collaborator-permission'], schemas, {
          permission: legacy,
          role_name: permission,
          user: synthesize(schemas['nullable-collaborator'], schemas, {
            ...user({ ...OCTOCAT, login: name }),
            role_name: permission,
          }),
        }),
      }
    },
    'issues/list-comments': (op, _b, _who, url) => {
      const all = state.commentsOn(Number(op.pathParams.issue_number))
      const perPage = Number(op.query.per_page ?? 30)
      const page = Number(op.query.page ?? 1)
      const slice = all.slice((page - 1) * perPage, page * perPage)
      const last = Math.max(1, Math.ceil(all.length / perPage))
      const headers: Record<string, string> = {}
      if (page < last) {
        const link = (p: number) => {
          const next = new URL(url.href)
          next.searchParams.set('page', String(p))
          return next.href
        }
        headers.link = `<${link(page + 1)}>; rel="next", <${link(last)}>; rel="last"`
      }
      return { status: 200, body: slice.map(commentJson), headers }
    },
    'reactions/create-for-issue-comment': (op, body, who) => react('issue', op, body, who),
    'reactions/create-for-pull-request-review-comment': (op, body, who) => react('review', op, body, who),
    'issues/create-comment': (op, body, who) => {
      if (!who.write.issues) return error(403, 'Resource not accessible by integration')
      const text = String(body.body)
      if (text.length > 65_536) return bodyTooLong()
      const now = new Date().toISOString()
      const comment: StoredComment = {
        id: nextId++,
        issue_number: Number(op.pathParams.issue_number),
        body: text,
        user: who,
        created_at: now,
        updated_at: now,
      }
      state.comments.set(comment.id, comment)
      return {
        status: 201,
        body: commentJson(comment),
        headers: { location: `${repoUrl()}/issues/comments/${comment.id}` },
      }
    },
    'issues/update-comment': (op, body, who) => {
      const comment = state.comments.get(Number(op.pathParams.comment_id))
      if (!comment) return error(404, 'Not Found')
      if (!who.write.issues || comment.user.login !== who.login)
        return error(403, 'Resource not accessible by integration')
      const text = String(body.body)
      if (text.length > 65_536) return bodyTooLong()
      comment.body = text
      comment.updated_at = new Date().toISOString()
      return { status: 200, body: commentJson(comment) }
    },
    'checks/create': (_op, body, who) => {
      if (who.type !== 'Bot' || !who.write.checks) return error(403, 'Resource not accessible by integration')
      const conclusion = (body.conclusion as string | undefined) ?? null
      const output = (body.output as JsonObject | undefined) ?? {}
      const run: StoredCheckRun = {
        id: nextId++,
        name: String(body.name),
        head_sha: String(body.head_sha),
        status: conclusion ? 'completed' : String(body.status ?? 'queued'),
        conclusion,
        started_at: (body.started_at as string | undefined) ?? new Date().toISOString(),
        completed_at:
          (body.completed_at as string | undefined) ?? (conclusion ? new Date().toISOString() : null),
        details_url: (body.details_url as string | undefined) ?? null,
        external_id: (body.external_id as string | undefined) ?? '',
        output: {
          title: (output.title as string | undefined) ?? null,
          summary: (output.summary as string | undefined) ?? null,
          text: (output.text as string | undefined) ?? null,
        },
        annotations: [...((output.annotations as JsonObject[] | undefined) ?? [])],
        updates: [],
      }
      if (run.status === 'completed' && !run.conclusion)
        return error(422, 'Conclusion is required when status is completed')
      state.checkRuns.set(run.id, run)
      return { status: 201, body: checkRunJson(run) }
    },
    'checks/update': (op, body, who) => {
      const run = state.checkRuns.get(Number(op.pathParams.check_run_id))
      if (!run) return error(404, 'Not Found')
      if (who.type !== 'Bot' || !who.write.checks) return error(403, 'Resource not accessible by integration')
      run.updates.push(body)
      if (body.status) run.status = String(body.status)
      if (body.conclusion) {
        run.conclusion = String(body.conclusion)
        run.status = 'completed'
        run.completed_at ??= new Date().toISOString()
      }
      if (body.completed_at) run.completed_at = String(body.completed_at)
      const output = body.output as JsonObject | undefined
      if (output) {
        run.output.title = (output.title as string | undefined) ?? run.output.title
        run.output.summary = (output.summary as string | undefined) ?? run.output.summary
        run.output.text = (output.text as string | undefined) ?? run.output.text
        run.annotations.push(...((output.annotations as JsonObject[] | undefined) ?? []))
      }
      return { status: 200, body: checkRunJson(run) }
    },
    'checks/list-for-ref': (op, _b, who) => {
      if (who.checksRead === false) return error(403, 'Resource not accessible by integration')
      const ref = String(op.pathParams.ref)
      options.ci?.(ref)
      const name = op.query.check_name as string | undefined
      const status = op.query.status as string | undefined
      const runs = [...state.checkRuns.values()]
        .filter((r) => r.head_sha === ref && (!name || r.name === name) && (!status || r.status === status))
        .sort((a, b) => b.id - a.id)
      const perPage = Number(op.query.per_page ?? 30)
      const page = Number(op.query.page ?? 1)
      return {
        status: 200,
        body: {
          total_count: runs.length,
          check_runs: runs.slice((page - 1) * perPage, page * perPage).map(checkRunJson),
        },
      }
    },
    'actions/list-workflow-run-artifacts': (op) => {
      const name = op.query.name as string | undefined
      const all = (options.artifacts?.listForRun(Number(op.pathParams.run_id)) ?? [])
        .filter((a) => !name || a.name === name)
        .sort((a, b) => (op.query.direction === 'asc' ? a.id - b.id : b.id - a.id))
      const perPage = Number(op.query.per_page ?? 30)
      const page = Number(op.query.page ?? 1)
      return {
        status: 200,
        body: {
          total_count: all.length,
          artifacts: all.slice((page - 1) * perPage, page * perPage).map(artifactJson),
        },
      }
    },
    'actions/download-artifact': (op) => {
      const artifact = options.artifacts?.get(Number(op.pathParams.artifact_id))
      if (!artifact || !artifact.finalized || op.pathParams.archive_format !== 'zip')
        return error(404, 'Not Found')
      if (artifact.expiresAt && Date.parse(artifact.expiresAt) < Date.now())
        return error(410, 'Artifact has expired')
      return { status: 302, headers: { location: options.artifacts!.signedDownloadUrl(artifact) } }
    },
    'actions/list-jobs-for-workflow-run-attempt': (op, _b, who) => {
      if (who.actionsRead === false) return error(403, 'Resource not accessible by integration')
      const runId = Number(op.pathParams.run_id)
      const attempt = Number(op.pathParams.attempt_number)
      const all = (options.jobs ?? []).filter((j) => j.runId === runId && (j.attempt ?? 1) === attempt)
      if (all.length === 0) return error(404, 'Not Found')
      const perPage = Number(op.query.per_page ?? 30)
      const page = Number(op.query.page ?? 1)
      const jobJson = (j: StoredJob): JsonObject => {
        const status = j.status ?? 'in_progress'
        return synthesize(schemas['job'], schemas, {
          id: j.id,
          node_id: `CR_${j.id}`,
          run_id: j.runId,
          run_attempt: j.attempt ?? 1,
          run_url: `${repoUrl()}/actions/runs/${j.runId}`,
          url: `${repoUrl()}/actions/jobs/${j.id}`,
          html_url: `${web}/actions/runs/${j.runId}/job/${j.id}`,
          check_run_url: `${repoUrl()}/check-runs/${j.id}`,
          head_sha: '0'.repeat(40),
          name: j.name,
          status,
          conclusion: status === 'completed' ? (j.conclusion ?? 'success') : null,
          started_at: j.startedAt ?? '2026-01-01T00:00:00Z',
          completed_at: status === 'completed' ? '2026-01-01T00:01:00Z' : null,
          runner_name: j.runnerName,
          runner_id: j.runnerName ? j.id : null,
          workflow_name: 'CI',
          head_branch: 'feature',
          labels: ['ubuntu-latest'],
        }) as JsonObject
      }
      return {
        status: 200,
        body: { total_count: all.length, jobs: all.slice((page - 1) * perPage, page * perPage).map(jobJson) },
      }
    },
    'repos/get-branch': (op) => {
      const name = String(op.pathParams.branch)
      const branch = options.branches?.[name]
      if (!branch) return error(404, 'Branch not found')
      const required = branch.requiredChecks
      return {
        status: 200,
        body: synthesize(schemas['branch-with-protection'], schemas, {
          name,
          protected: required !== undefined,
          protection_url: `${repoUrl()}/branches/${name}/protection`,
          protection: {
            enabled: required !== undefined,
            ...(required
              ? {
                  required_status_checks: {
                    enforcement_level: 'non_admins',
                    contexts: required,
                    checks: required.map((context) => ({ context, app_id: null })),
                  },
                }
              : {}),
          },
        }),
      }
    },
    'repos/get-branch-rules': (op) => {
      const required = options.rulesets?.[String(op.pathParams.branch)] ?? []
      return {
        status: 200,
        body: required.length
          ? [
              {
                type: 'required_status_checks',
                parameters: {
                  strict_required_status_checks_policy: false,
                  required_status_checks: required.map((context) => ({ context })),
                },
                ruleset_source_type: 'Repository',
                ruleset_source: `${owner}/${repo}`,
                ruleset_id: 1,
              },
            ]
          : [],
      }
    },
    'repos/get-combined-status-for-ref': (op) => {
      const ref = String(op.pathParams.ref)
      options.ci?.(ref)
      const list = state.statuses.get(ref) ?? []
      const combined = list.some((s) => s.state === 'failure' || s.state === 'error')
        ? 'failure'
        : list.some((s) => s.state === 'pending') || list.length === 0
          ? 'pending'
          : 'success'
      return {
        status: 200,
        body: synthesize(schemas['combined-commit-status'], schemas, {
          state: combined,
          sha: ref,
          total_count: list.length,
          statuses: list.map((s, i) =>
            synthesize(schemas['simple-commit-status'], schemas, {
              id: 60_000 + i,
              node_id: `SC_${i}`,
              context: s.context,
              state: s.state,
              description: s.description,
              target_url: null,
              avatar_url: null,
              url: `${repoUrl()}/statuses/${ref}`,
              created_at: '2026-01-01T00:00:00Z',
              updated_at: '2026-01-01T00:00:00Z',
            }),
          ),
          repository: synthesize(schemas['minimal-repository'], schemas, {
            name: repo,
            full_name: `${owner}/${repo}`,
            owner: user({ ...OCTOCAT, login: owner }),
            html_url: web,
            url: repoUrl(),
          }),
          commit_url: `${repoUrl()}/commits/${ref}`,
          url: `${repoUrl()}/commits/${ref}/status`,
        }),
      }
    },
    'actions/download-job-logs-for-workflow-run': (op, _b, who) => {
      if (who.actionsRead === false) return error(403, 'Resource not accessible by integration')
      const id = Number(op.pathParams.job_id)
      if (!jobLogs.has(id)) return error(404, 'Not Found')
      return { status: 302, headers: { location: `${base}/_job-logs/${id}` } }
    },
    'actions/cancel-workflow-run': (op, _b, who) => {
      if (who.actionsWrite === false) return error(403, 'Resource not accessible by integration')
      const run = Number(op.pathParams.run_id)
      if (!(options.runningRuns ?? []).includes(run) || state.cancelled.includes(run))
        return error(409, 'Cannot cancel a workflow run that is completed.')
      state.cancelled.push(run)
      return { status: 202, body: {} }
    },
    'git/get-ref': (op) => {
      const ref = `refs/${String(op.pathParams.ref)}`
      const sha = readRef(ref)
      return sha ? { status: 200, body: refJson(ref, sha) } : error(404, 'Not Found')
    },
    'git/create-ref': (_op, body, who) => {
      if (who.write.contents === false) return error(403, 'Resource not accessible by integration')
      const ref = String(body.ref)
      if (!/^refs\/[^/]+\/.+/.test(ref))
        return error(422, 'Reference name must start with refs/ and have at least two slashes')
      if (readRef(ref)) return error(422, 'Reference already exists')
      if (!writeRef(ref, String(body.sha), true)) return error(422, 'Object does not exist')
      return { status: 201, body: refJson(ref, String(body.sha)) }
    },
    'git/update-ref': (op, body, who) => {
      if (who.write.contents === false) return error(403, 'Resource not accessible by integration')
      const ref = `refs/${String(op.pathParams.ref)}`
      if (!readRef(ref)) return error(422, 'Reference does not exist')
      if (!writeRef(ref, String(body.sha), body.force === true))
        return error(422, 'Update is not a fast forward')
      return { status: 200, body: refJson(ref, String(body.sha)) }
    },
    'pulls/list': (op) => {
      const head = op.query.head as string | undefined
      const wanted = (op.query.state as string | undefined) ?? 'open'
      const all = state.pulls.filter(
        (p) => (wanted === 'all' || p.state === wanted) && (!head || `${owner}:${p.head}` === head),
      )
      return { status: 200, body: all.map((p) => pullJson(p, 'pull-request-simple')) }
    },
    'pulls/create': (_op, body, who) => {
      if (who.write.pulls === false) return error(403, 'Resource not accessible by integration')
      const head = String(body.head)
      if (!readRef(`refs/heads/${head}`)) return error(422, 'Validation Failed: head does not exist')
      if (state.pulls.some((p) => p.head === head && p.state === 'open'))
        return error(422, `A pull request already exists for ${owner}:${head}.`)
      const pull: StoredPull = {
        number: 100 + state.pulls.length,
        head,
        base: String(body.base),
        title: String(body.title ?? ''),
        body: String(body.body ?? ''),
        state: 'open',
      }
      state.pulls.push(pull)
      return { status: 201, body: pullJson(pull, 'pull-request') }
    },
    'pulls/update': (op, body, who) => {
      if (who.write.pulls === false) return error(403, 'Resource not accessible by integration')
      const pull = state.pulls.find((p) => p.number === Number(op.pathParams.pull_number))
      if (!pull) return error(404, 'Not Found')
      if (typeof body.title === 'string') pull.title = body.title
      if (typeof body.body === 'string') pull.body = body.body
      return { status: 200, body: pullJson(pull, 'pull-request') }
    },
    'checks/get': (op) => {
      const run = state.checkRuns.get(Number(op.pathParams.check_run_id))
      return run ? { status: 200, body: checkRunJson(run) } : error(404, 'Not Found')
    },
    'checks/list-annotations': (op) => {
      const run = state.checkRuns.get(Number(op.pathParams.check_run_id))
      if (!run) return error(404, 'Not Found')
      const perPage = Number(op.query.per_page ?? 30)
      const page = Number(op.query.page ?? 1)
      return {
        status: 200,
        body: run.annotations.slice((page - 1) * perPage, page * perPage).map((a) =>
          synthesize(schemas['check-annotation'], schemas, {
            path: a.path ?? '',
            start_line: a.start_line ?? 1,
            end_line: a.end_line ?? 1,
            start_column: a.start_column ?? null,
            end_column: a.end_column ?? null,
            annotation_level: a.annotation_level ?? null,
            title: a.title ?? null,
            message: a.message ?? null,
            raw_details: a.raw_details ?? null,
            blob_href: `${web}/blob/${run.head_sha}/${String(a.path)}`,
          }),
        ),
      }
    },
  }

  function bodyTooLong(): Result {
    return {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [
          {
            resource: 'IssueComment',
            code: 'custom',
            field: 'body',
            message: 'Body is too long (maximum is 65536 characters)',
          },
        ],
        documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
        status: '422',
      },
    }
  }

  function takeFault(operationId: string, path: string): (Fault & { left: number }) | null {
    const fault = faults.find(
      (f) =>
        f.left > 0 &&
        (!f.operationId || f.operationId === operationId) &&
        (!f.pathIncludes || path.includes(f.pathIncludes)),
    )
    if (!fault) return null
    fault.left--
    return fault
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now()
    const url = new URL(req.url ?? '/', base)
    const method = req.method ?? 'GET'
    const raw = await readBody(req)
    // Where a job log download redirects (blob storage on GitHub): plain text, no API, no token.
    const logJob = /^\/_job-logs\/(\d+)$/.exec(url.pathname)?.[1]
    if (logJob !== undefined && method === 'GET') {
      const log = jobLogs.get(Number(logJob))
      calls.push({
        method,
        path: url.pathname,
        operationId: null,
        status: log === undefined ? 404 : 200,
        body: undefined,
        at,
      })
      res.writeHead(log === undefined ? 404 : 200, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(log ?? '')
      return
    }
    const record = (status: number, operationId: string | null, body: unknown) =>
      calls.push({ method, path: url.pathname + url.search, operationId, status, body, at })
    const send = (result: Result, operationId: string | null, requestBody: unknown) => {
      record(result.status, operationId, requestBody)
      const payload = result.body === undefined ? '' : JSON.stringify(result.body)
      res.writeHead(result.status, {
        'content-type': 'application/json; charset=utf-8',
        'x-github-request-id': `PROCTOR:${calls.length}`,
        ...(rateWindow
          ? {
              'x-ratelimit-limit': '5000',
              'x-ratelimit-remaining': String(rateWindow.remaining),
              'x-ratelimit-reset': String(rateWindow.reset),
            }
          : {}),
        ...(result.headers ?? {}),
      })
      res.end(payload)
    }
    const fail = (status: number, message: string, body: unknown) => {
      validationFailures.push({ method, path: url.pathname + url.search, message })
      send(error(status === 405 ? 404 : status === 422 ? 400 : status, message), null, body)
    }

    let body: unknown
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw) as unknown
      } catch {
        return fail(400, `request body is not JSON: ${raw.slice(0, 80)}`, raw)
      }
    }
    const check = validator.checkRequest(method, url, body)
    if (!check.ok) return fail(check.status, check.message, body)
    const op = check.operation
    if (op.pathParams.owner !== owner || op.pathParams.repo !== repo) {
      if (op.template.startsWith('/repos/')) return send(error(404, 'Not Found'), op.operationId, body)
    }
    const who = identityOf(req)
    if (!who) return send(error(401, 'Requires authentication'), op.operationId, body)

    const fault = takeFault(op.operationId, url.pathname)
    if (fault?.kind === 'reset') {
      record(0, op.operationId, body)
      req.socket.destroy()
      return
    }
    if (fault?.kind === 'hang') {
      record(0, op.operationId, body)
      return
    }
    if (fault?.kind === 'status')
      return send(
        error(fault.status, fault.status === 502 ? 'Bad Gateway' : 'Server Error'),
        op.operationId,
        body,
      )
    if (fault?.kind === 'secondary-rate-limit') {
      return send(
        {
          ...error(
            403,
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          ),
          headers: { 'retry-after': String(fault.retryAfter) },
        },
        op.operationId,
        body,
      )
    }
    if (fault?.kind === 'body-too-long') return send(bodyTooLong(), op.operationId, body)
    if (fault?.kind === 'rate-limit') {
      return send(
        {
          ...error(403, `API rate limit exceeded for installation ID 1.`),
          headers: {
            'x-ratelimit-limit': '5000',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-used': '5000',
            'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + fault.resetIn),
          },
        },
        op.operationId,
        body,
      )
    }

    const result = handlers[op.operationId]!(op, (body ?? {}) as JsonObject, who, url)
    if (fault?.kind === 'lost-answer') {
      record(0, op.operationId, body)
      req.socket.destroy()
      return
    }
    const problems = validator.checkResponse(op.operationId, result.status, result.body)
    for (const message of problems)
      validationFailures.push({ method, path: url.pathname, message: `server response: ${message}` })
    send(result, op.operationId, body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      validationFailures.push({
        method: req.method ?? '?',
        path: req.url ?? '?',
        message: `server error: ${String(err)}`,
      })
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: base,
    state,
    calls,
    validationFailures,
    inject: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    count: (operationId) =>
      calls.filter((c) => c.status !== 0 && (!operationId || c.operationId === operationId)).length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/**
 * A value of the schema with every required property present (placeholders by type and format), then
 * overlaid with `real`. Keeps the fake's responses complete without hand-writing 80-field objects.
 */
export function synthesize(schema: Json | undefined, schemas: JsonObject, real: Json = null): Json {
  const s = resolve(schema, schemas)
  if (!s) return real
  if (Array.isArray(s.allOf)) {
    return s.allOf.reduce<Json>(
      (acc, part) => merge(acc, synthesize(part, schemas)),
      real === null ? {} : real,
    )
  }
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const first = ((s.oneOf ?? s.anyOf) as Json[])[0]
    return real !== null && typeof real !== 'object' ? real : synthesize(first, schemas, real)
  }
  if (s.type === 'object' || s.properties) {
    const props = (s.properties as JsonObject | undefined) ?? {}
    const out: JsonObject = {}
    for (const name of (s.required as string[] | undefined) ?? []) {
      const prop = resolve(props[name], schemas)
      const given = real && typeof real === 'object' && !Array.isArray(real) ? real[name] : undefined
      out[name] =
        given !== undefined ? synthesize(prop ?? undefined, schemas, given) : placeholder(prop, schemas)
    }
    if (real && typeof real === 'object' && !Array.isArray(real)) {
      for (const [name, value] of Object.entries(real)) {
        if (!(name in out))
          out[name] =
            value === null ? null : synthesize(resolve(props[name], schemas) ?? undefined, schemas, value)
      }
    }
    return out
  }
  return real
}

function placeholder(schema: JsonObject | null, schemas: JsonObject): Json {
  if (!schema) return null
  if (schema.nullable) return null
  if (Array.isArray(schema.enum)) return schema.enum[0]!
  if (
    Array.isArray(schema.oneOf) ||
    Array.isArray(schema.anyOf) ||
    Array.isArray(schema.allOf) ||
    schema.type === 'object'
  ) {
    return synthesize(schema, schemas)
  }
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z'
      if (schema.format === 'uri') return 'https://example.invalid/'
      if (schema.format === 'email') return 'nobody@example.invalid'
      return ''
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return false
    case 'array':
      return []
    default:
      return null
  }
}

function resolve(schema: Json | undefined, schemas: JsonObject): JsonObject | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return null
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '')
    return resolve(schemas[name], schemas)
  }
  return schema
}

function merge(a: Json, b: Json): Json {
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: JsonObject = { ...b }
    for (const [k, v] of Object.entries(a)) out[k] = k in b ? merge(v, b[k]!) : v
    return out
  }
  return a ?? b
}
