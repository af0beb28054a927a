// The one Octokit: @actions/github's (proxy-aware fetch, GITHUB_API_URL) plus retry, throttling and a
// timeout on every request. Tests inject `fetch` or point `baseUrl` at the local API server; production
// passes neither.
import { getOctokit } from '@actions/github'
import { defaults as actionsDefaults } from '@actions/github/lib/utils'
import Bottleneck from 'bottleneck/light.js'
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
  /**
   * Longest wait for one HTTP attempt, response body included (default 30 s). A server that accepts the
   * connection and never answers costs this much per attempt, never more.
   */
  requestTimeoutMs?: number
  /**
   * Spacing of mutating requests (default 1000 ms, and 3000 ms for ones that notify people such as
   * issue comments: GitHub's guidance against secondary rate limits, as Octokit's throttling plugin
   * does). Tests pass a few ms; one test keeps the real spacing.
   */
  writeSpacingMs?: number
}

/** Default for `requestTimeoutMs`. */
export const REQUEST_TIMEOUT_MS = 30_000

/** A fetch that gives up after `ms`: the abort reaches the response body too, so a stalled body ends. */
export function fetchWithTimeout(fetch: typeof globalThis.fetch, ms: number): typeof globalThis.fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(ms)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    return fetch(input, { ...init, signal }).catch((error: unknown) => {
      if (timeout.aborted) throw new Error(`no answer from GitHub within ${ms} ms`, { cause: error })
      throw error
    })
  }
}

let queueCount = 0

/** Each client's retry unit, for the retries proctor paces itself (github/create-once.ts). */
const retryBases = new WeakMap<object, number>()

/** Milliseconds per unit of back-off for this client (1000 unless a test shortened it). */
export function retryBaseMs(octokit: GitHubOctokit): number {
  return retryBases.get(octokit) ?? 1000
}

/**
 * The throttling plugin's two queues for mutations: every write, and writes that notify people (issue
 * comments), which it spaces three times as far apart (3 s by default).
 */
function writeQueues(spacingMs: number): { write: Bottleneck.Group; notifications: Bottleneck.Group } {
  const id = ++queueCount
  return {
    write: new Bottleneck.Group({ id: `proctor-write-${id}`, maxConcurrent: 1, minTime: spacingMs }),
    notifications: new Bottleneck.Group({
      id: `proctor-notifications-${id}`,
      maxConcurrent: 1,
      minTime: spacingMs * 3,
    }),
  }
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
      // A `request` object replaces @actions/github's defaults wholesale, so its proxy-aware fetch is
      // taken from them and wrapped. Retries belong in `retry`; `request.retries` would make every error
      // retryable.
      request: {
        fetch: fetchWithTimeout(
          options.fetch ?? actionsDefaults.request?.fetch ?? globalThis.fetch,
          options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
        ),
      },
      retry: { retries: options.retries ?? 3, retryAfterBaseValue: base },
      throttle: {
        retryAfterBaseValue: base,
        // Injected spacing gets its own queues (Octokit's default ones are shared by every client).
        ...(options.writeSpacingMs !== undefined ? writeQueues(options.writeSpacingMs) : {}),
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
  retryBases.set(octokit, base)
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
