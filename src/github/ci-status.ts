// What GitHub says about a commit's CI, for the `ci-checks` stop hook (src/hooks/ci-checks.ts): the checks
// a branch requires (branch protection and rulesets), the check runs and commit statuses on a sha, a failed
// check run's annotations and its Actions job's log. Reads only; every request goes through the one
// Octokit (retry + throttling), and each response's rate-limit headers are kept so the poller can slow down.
import type { GitHubOctokit } from './client.js'
import { describeError } from './client.js'
import { readEventPayload } from './context.js'

export interface CiGitHub {
  octokit: GitHubOctokit
  owner: string
  repo: string
  /** The branch whose required checks count (a pull request's base); null: the repository's default. */
  branch: string | null
}

/** The branch a pull request (or a comment on one) targets, from the event payload; else null. */
export function baseBranchOf(eventPath: string | undefined): string | null {
  let payload: Record<string, unknown> | null
  try {
    payload = readEventPayload(eventPath) as Record<string, unknown> | null
  } catch {
    return null
  }
  const pr = (payload?.pull_request ?? null) as { base?: { ref?: unknown } } | null
  return typeof pr?.base?.ref === 'string' && pr.base.ref ? pr.base.ref : null
}

export interface CiCheckRun {
  id: number
  name: string
  status: string
  conclusion: string | null
  detailsUrl: string | null
  title: string | null
  summary: string | null
}

export interface CiStatus {
  context: string
  state: string
  description: string | null
}

export interface CiAnnotation {
  path: string
  line: number
  level: string | null
  title: string | null
  message: string
}

/** Where the required checks came from, for the reason and the log. */
export interface RequiredChecks {
  names: string[]
  /** `branch protection of main`, `rulesets of main`, or both. */
  source: string
}

/** How a failed request should be taken: wait (rate limit), try again next poll, or give up. */
export type RequestTrouble =
  | { kind: 'rate-limit'; waitMs: number; message: string }
  | { kind: 'transient'; message: string }
  | { kind: 'permanent'; status: number; message: string }

type Headers = Record<string, string | number | undefined>

export class CiReader {
  /** The latest rate-limit window seen: requests left, and when it resets (epoch ms). */
  rate: { remaining: number; resetAt: number } | null = null
  /** Ends the requests under way (the deadline, a shutdown): a stalled request must not outlast either. */
  signal: AbortSignal | undefined

  constructor(private readonly gh: CiGitHub) {}

  private get base() {
    return {
      owner: this.gh.owner,
      repo: this.gh.repo,
      ...(this.signal ? { request: { signal: this.signal } } : {}),
    }
  }

  /** The branch whose requirements count: the configured or pull request's, else the default branch. */
  async targetBranch(configured: string | undefined): Promise<string> {
    if (configured) return configured
    if (this.gh.branch) return this.gh.branch
    const repo = await this.call(() => this.gh.octokit.rest.repos.get(this.base))
    return repo.default_branch
  }

  /**
   * The status checks `branch` requires, from its classic protection (in the branch itself, readable with
   * `contents: read`) and its rulesets; null when neither could be read. proctor's own checks are left out:
   * this session decides them, so waiting for them could never end.
   */
  async requiredChecks(branch: string): Promise<RequiredChecks | null> {
    const names = new Set<string>()
    const sources: string[] = []
    const protection = await this.call(() =>
      this.gh.octokit.rest.repos.getBranch({ ...this.base, branch }),
    ).catch(unreadable)
    if (protection) {
      const required = protection.protection?.required_status_checks
      for (const context of required?.contexts ?? []) names.add(context)
      for (const check of required?.checks ?? []) names.add(check.context)
      if (required) sources.push('branch protection')
    }
    const rules = await this.call(() =>
      this.gh.octokit.rest.repos.getBranchRules({ ...this.base, branch, per_page: 100 }),
    ).catch(unreadable)
    if (rules) {
      for (const rule of rules) {
        if (rule.type !== 'required_status_checks') continue
        const parameters = (rule as { parameters?: { required_status_checks?: { context: string }[] } })
          .parameters
        for (const check of parameters?.required_status_checks ?? []) names.add(check.context)
        sources.push('rulesets')
      }
    }
    if (!protection && !rules) return null
    return {
      names: [...names].filter((name) => !isProctorCheck(name)),
      source: `${[...new Set(sources)].join(' and ') || 'no required checks'} of ${branch}`,
    }
  }

  /** Every check run on `sha` (newest first, at most 1000) and the latest status of each context. */
  async commitChecks(sha: string): Promise<{ runs: CiCheckRun[]; statuses: CiStatus[] }> {
    const runs: CiCheckRun[] = []
    for (let page = 1; page <= 10; page++) {
      const data = await this.call(() =>
        this.gh.octokit.rest.checks.listForRef({ ...this.base, ref: sha, per_page: 100, page }),
      )
      for (const run of data.check_runs)
        runs.push({
          id: run.id,
          name: run.name,
          status: run.status,
          conclusion: run.conclusion ?? null,
          detailsUrl: run.details_url ?? null,
          title: run.output?.title ?? null,
          summary: run.output?.summary ?? null,
        })
      if (data.check_runs.length < 100 || runs.length >= data.total_count) break
    }
    const combined = await this.call(() =>
      this.gh.octokit.rest.repos.getCombinedStatusForRef({ ...this.base, ref: sha, per_page: 100 }),
    )
    const statuses = combined.statuses.map((s) => ({
      context: s.context,
      state: s.state,
      description: s.description ?? null,
    }))
    return { runs, statuses }
  }

  /** The first `max` annotations of a check run; none when they cannot be read. */
  async annotations(checkRunId: number, max: number): Promise<CiAnnotation[]> {
    const data = await this.call(() =>
      this.gh.octokit.rest.checks.listAnnotations({ ...this.base, check_run_id: checkRunId, per_page: max }),
    ).catch(() => [])
    return data.slice(0, max).map((a) => ({
      path: a.path,
      line: a.start_line,
      level: a.annotation_level ?? null,
      title: a.title ?? null,
      message: a.message ?? '',
    }))
  }

  /**
   * An Actions job's log (plain text; `actions: read`), or why it cannot be had. The job is named by the
   * check run's details URL (`…/actions/runs/<run>/job/<job>`): a check run of another app has none (null).
   */
  async jobLog(detailsUrl: string | null): Promise<{ text: string } | { unavailable: string } | null> {
    const job = /\/actions\/runs\/\d+\/job\/(\d+)/.exec(detailsUrl ?? '')?.[1]
    if (!job) return null
    try {
      // Streamed, keeping only the end: a job's log can be any size (a test run printing gigabytes).
      const response = await this.gh.octokit.rest.actions.downloadJobLogsForWorkflowRun({
        ...this.base,
        job_id: Number(job),
        request: { ...(this.signal ? { signal: this.signal } : {}), parseSuccessResponseBody: false },
      })
      this.note(response.headers as Headers)
      const body = response.data as unknown as ReadableStream<Uint8Array> | null
      if (!body) return { text: '' }
      return { text: await streamTail(body, LOG_TAIL_BYTES) }
    } catch (error) {
      const { status } = describeError(error)
      return {
        unavailable:
          status === 403 || status === 404
            ? 'log not readable (the workflow needs `permissions: actions: read`)'
            : `log not readable (${status ?? 'network error'})`,
      }
    }
  }

  /** One request: its data, with the rate-limit headers noted (on errors too). */
  private async call<T>(request: () => Promise<{ data: T; headers: Headers }>): Promise<T> {
    try {
      const response = await request()
      this.note(response.headers)
      return response.data
    } catch (error) {
      const headers = (error as { response?: { headers?: Headers } }).response?.headers
      if (headers) this.note(headers)
      throw error
    }
  }

  private note(headers: Headers): void {
    const remaining = Number(headers['x-ratelimit-remaining'])
    const reset = Number(headers['x-ratelimit-reset'])
    if (Number.isFinite(remaining) && Number.isFinite(reset)) this.rate = { remaining, resetAt: reset * 1000 }
  }
}

/** How much of the end of a job's log is kept: far more than a reason quotes, bounded whatever the log. */
export const LOG_TAIL_BYTES = 64 * 1024

/** The last `bytes` bytes of a stream, read to its end with no more than twice that held at once. */
export async function streamTail(stream: ReadableStream<Uint8Array>, bytes: number): Promise<string> {
  let kept = Buffer.alloc(0)
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    kept = Buffer.concat([kept, chunk])
    if (kept.length > 2 * bytes) kept = kept.subarray(kept.length - bytes)
  }
  const tail = kept.length > bytes ? kept.subarray(kept.length - bytes) : kept
  // A cut through a multi-byte character leaves replacement characters at the start: drop them.
  return tail.toString('utf8').replace(/^\uFFFD+/, '')
}

/** Not readable with this token (403) or not there (404): null; anything else is tried again later. */
function unreadable(error: unknown): null {
  const { status } = describeError(error)
  if (status === 403 || status === 404) {
    if (classifyTrouble(error).kind === 'rate-limit') throw error
    return null
  }
  throw error
}

/** proctor's own check runs (`proctor / tests`): decided by the session itself, never CI it waits for. */
export function isProctorCheck(name: string): boolean {
  return /^proctor \/ /.test(name)
}

/**
 * A failed request, classified: a rate limit that outlasted the client's own waits (the poller sleeps
 * until the window resets), a passing trouble (5xx, network, a commit GitHub does not know yet), or one
 * no amount of waiting fixes (no permission, no such repository).
 */
export function classifyTrouble(error: unknown, now = Date.now()): RequestTrouble {
  const { status, message } = describeError(error)
  const headers = (error as { response?: { headers?: Headers } }).response?.headers ?? {}
  if (status === 403 || status === 429) {
    const retryAfter = Number(headers['retry-after'])
    if (Number.isFinite(retryAfter) && retryAfter > 0)
      return { kind: 'rate-limit', waitMs: retryAfter * 1000, message }
    if (String(headers['x-ratelimit-remaining']) === '0') {
      const reset = Number(headers['x-ratelimit-reset']) * 1000
      return {
        kind: 'rate-limit',
        waitMs: Number.isFinite(reset) ? Math.max(0, reset - now) : 60_000,
        message,
      }
    }
    if (/rate limit/i.test(message)) return { kind: 'rate-limit', waitMs: 60_000, message }
  }
  if (status === 401 || status === 403 || status === 404) return { kind: 'permanent', status, message }
  return { kind: 'transient', message: `${status ?? 'network error'}: ${message}` }
}
