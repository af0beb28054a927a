// The action's Octokit: retries and throttling as in production, plus the outage breaker so a GitHub
// outage costs one request's retries, not every request's.
import * as core from '@actions/core'
import { createGitHubClient, type GitHubOctokit } from '../github/client.js'

/**
 * `PROCTOR_GITHUB_RETRY_BASE_MS` scales retry back-off and `retry-after` waits (default 1000 ms per
 * unit); `PROCTOR_GITHUB_TIMEOUT_MS` is the per-request timeout (default 30 s). The end-to-end tests
 * set them low; nobody needs them in a workflow.
 */
export function actionClient(
  token: string,
  apiUrl: string,
  env: Record<string, string | undefined>,
): GitHubOctokit {
  const base = Number(env.PROCTOR_GITHUB_RETRY_BASE_MS)
  const timeout = Number(env.PROCTOR_GITHUB_TIMEOUT_MS)
  return createGitHubClient({
    token: token || 'none',
    baseUrl: apiUrl,
    log: (message) => core.info(`proctor: ${message}`),
    stopAfterOutage: true,
    ...(Number.isFinite(base) && base > 0 ? { retryAfterBaseMs: base } : {}),
    ...(Number.isFinite(timeout) && timeout > 0 ? { requestTimeoutMs: timeout } : {}),
  })
}
