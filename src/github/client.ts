// The one Octokit: @actions/github's (proxy-aware fetch, GITHUB_API_URL) plus retry and throttling.
// Tests inject `fetch` or point `baseUrl` at the local API server; production passes neither.
import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'

export type GitHubOctokit = ReturnType<typeof getOctokit>

export interface ClientOptions {
  token: string
  /** API root (default GITHUB_API_URL or https://api.github.com). */
  baseUrl?: string
  /** Replaces the HTTP layer (tests); production keeps @actions/github's proxy-aware fetch. */
  fetch?: typeof globalThis.fetch
  /** Retries for 5xx and network errors (default 3). */
  retries?: number
  /** Rate-limit behaviour; the defaults follow GitHub's guidance (honour retry-after, give up after a few). */
  throttle?: {
    /** Retries after a primary or secondary rate limit (default 2). */
    maxRetries?: number
    /** Longest wait we accept before giving up, in seconds (default 120: a CI step must not hang). */
    maxWaitSeconds?: number
  }
  /**
   * Milliseconds per unit of `retry-after` and of the retry back-off (default 1000). Tests pass a few ms
   * so waits of "1 second" take a few ms.
   */
  retryAfterBaseMs?: number
  /** Where retries and rate-limit waits are reported. */
  log?: (message: string) => void
  /**
   * After a request still fails with a 5xx or a network error once its retries are spent, fail every
   * later request at once (status 503) instead of retrying each for ~14 s: when GitHub is down a CI step
   * must not spend minutes on a sink. Default false.
   */
  stopAfterOutage?: boolean
  userAgent?: string
}

export function createGitHubClient(options: ClientOptions): GitHubOctokit {
  if (!options.token) {
    throw new Error(
      'No GitHub token: pass the `github-token` input (default ${{ github.token }}) or set GITHUB_TOKEN',
    )
  }
  const log = options.log ?? (() => {})
  const maxRetries = options.throttle?.maxRetries ?? 2
  const maxWait = options.throttle?.maxWaitSeconds ?? 120
  const base = options.retryAfterBaseMs ?? 1000
  const decide =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method: string; url: string },
      _octokit: unknown,
      retryCount: number,
    ): boolean => {
      const what = `${request.method} ${request.url}`
      if (retryCount >= maxRetries || retryAfter > maxWait) {
        log(`${kind} on ${what}: giving up (retry-after ${retryAfter}s, ${retryCount} retries so far)`)
        return false
      }
      log(`${kind} on ${what}: retrying after ${retryAfter}s (retry ${retryCount + 1} of ${maxRetries})`)
      return true
    }
  const octokit = getOctokit(
    options.token,
    {
      ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      // Only when injected: a `request` object replaces @actions/github's defaults (its proxy-aware fetch)
      // wholesale. Retries belong in `retry`; `request.retries` would make every error retryable.
      ...(options.fetch ? { request: { fetch: options.fetch } } : {}),
      retry: { retries: options.retries ?? 3, retryAfterBaseValue: base },
      throttle: {
        retryAfterBaseValue: base,
        onRateLimit: decide('rate limit'),
        // Octokit passes the retry count for secondary limits too (as the 4th argument).
        onSecondaryRateLimit: (retryAfter, request, octokit, retryCount) =>
          decide('secondary rate limit')(retryAfter, request, octokit, retryCount ?? 0),
      },
    },
    retry,
    throttling,
  )
  if (options.stopAfterOutage) installOutageBreaker(octokit, log)
  return octokit
}

/** The error every request gets once the breaker is open. */
export class GitHubUnavailableError extends Error {
  override name = 'GitHubUnavailableError'
  readonly status = 503
}

function installOutageBreaker(octokit: GitHubOctokit, log: (message: string) => void): void {
  let outage: string | null = null
  // Registered after the plugins, so this wrap is the outermost: it sees errors after their retries.
  octokit.hook.wrap('request', async (request, options) => {
    if (outage) throw new GitHubUnavailableError(`skipped: GitHub was unreachable earlier (${outage})`)
    try {
      return await request(options)
    } catch (error) {
      const { status, message } = describeError(error)
      if (status === null || status >= 500) {
        outage = `${status ?? 'network error'}: ${message}`
        log(`GitHub looks unavailable (${outage}); skipping further API calls in this step`)
      }
      throw error
    }
  })
}

/** Status and message of an Octokit error, or of anything else thrown. */
export function describeError(error: unknown): { status: number | null; message: string } {
  if (error && typeof error === 'object') {
    const status = 'status' in error && typeof error.status === 'number' ? error.status : null
    const message = 'message' in error && typeof error.message === 'string' ? error.message : String(error)
    return { status, message }
  }
  return { status: null, message: String(error) }
}
