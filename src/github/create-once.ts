// A create that GitHub may have applied although its answer was lost (a timeout, a reset connection, a 5xx
// from a proxy in front of it) must not be sent again blindly: the retry plugin would make a second check
// run or a second comment. So a create goes out without the plugin's retries, and after a failure that may
// have landed, the object is looked for by its identity (a check run's name and external_id, a comment's
// marker and author) before the create is sent again.
import type { GitHubOctokit } from './client.js'
import { describeError, retryBaseMs } from './client.js'

/** Passed as the request's `request` option: the retry plugin leaves this call alone. */
export const NO_PLUGIN_RETRY = { retries: 0 } as const

export interface CreateOnceOptions<T> {
  octokit: GitHubOctokit
  /** Sends the create once; must pass NO_PLUGIN_RETRY as its `request` option. */
  send: () => Promise<T>
  /** The object a lost create made, if it did; null when none is found (or it cannot be told apart). */
  find: () => Promise<T | null>
  /** Sends at most this many times (default 4: the retry plugin's own 1 + 3). */
  attempts?: number
}

/** Whether a failed request may still have been applied: no answer, or a server error after receipt. */
export function mayHaveLanded(error: unknown): boolean {
  const { status } = describeError(error)
  return status === null || status >= 500
}

export async function createOnce<T>(options: CreateOnceOptions<T>): Promise<T> {
  const attempts = options.attempts ?? 4
  for (let attempt = 1; ; attempt++) {
    try {
      return await options.send()
    } catch (error) {
      if (!mayHaveLanded(error) || attempt >= attempts) throw error
      // The plugin's own back-off (1, 4, 9... units), so GitHub sees the same pace as any other retry.
      await new Promise((resolve) => setTimeout(resolve, attempt * attempt * retryBaseMs(options.octokit)))
      const found = await options.find()
      if (found !== null) return found
    }
  }
}
