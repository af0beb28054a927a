// Shared by the supervisor tests: fixture paths, waiting on conditions with a deadline, and
// checking that a process is really gone.
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { isRunning } from '../../src/supervisor/proc-info.js'

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const fixture = (name: string): string => join(repoRoot, 'test', 'fixtures', 'agents', name)

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | null | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/**
 * A killed process stays a zombie until its (re)parent reaps it, which init may do seconds later,
 * so "gone" means: kill(pid, 0) fails with ESRCH, or the process is a zombie (dead, only unreaped).
 */
export async function waitGone(pid: number, what: string, timeoutMs = 20_000): Promise<void> {
  await waitFor(() => !isRunning(pid), `${what} (pid ${pid}) to be gone`, timeoutMs)
}

/** Collects output and lets a test await a pattern in it. */
export class OutputLog {
  text = ''
  private waiters: Array<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void }> = []

  readonly onOutput = (chunk: Buffer): void => {
    this.text += chunk.toString('utf8')
    this.waiters = this.waiters.filter((waiter) => {
      const match = this.text.match(waiter.pattern)
      if (match) waiter.resolve(match)
      return !match
    })
  }

  /** Resolves with the first match of `pattern` (now or when it appears); rejects after `timeoutMs`. */
  next(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern)
    if (match) return Promise.resolve(match)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no output matching ${pattern} within ${timeoutMs} ms; got: ${this.text.slice(-500)}`),
          ),
        timeoutMs,
      )
      this.waiters.push({
        pattern,
        resolve: (m) => {
          clearTimeout(timer)
          resolve(m)
        },
      })
    })
  }
}

export function processEnv(): Record<string, string | undefined> {
  return { ...process.env }
}
