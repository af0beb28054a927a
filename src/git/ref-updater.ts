// Compare-and-swap ref updates for one session through one long-lived `git update-ref -z --stdin`: each
// update is its own transaction (start, update, prepare, commit), so a session's checkpoints move their
// ref without a git process each. git older than 2.27 (no transaction commands), or a stream that died
// for any reason other than a lost compare-and-swap, falls back to one `git update-ref` per update.
import { GitError, RefMovedError } from './errors.js'
import type { Git } from './runner.js'
import type { GitStream } from './stream.js'

export class RefUpdater {
  /** undefined: not started yet; null: given up on, one-shot calls from now on. */
  private stream: GitStream | null | undefined

  constructor(
    private readonly git: Git,
    /** The reflog message of every update (git takes one per process). */
    private readonly reason: string,
  ) {}

  /** Start git ahead of the first update, so its start-up overlaps other work. */
  prepare(): void {
    if (this.stream === null) return
    this.start()
  }

  private start(): GitStream | null {
    if (this.stream === undefined)
      this.stream = this.git.stream(['update-ref', '-m', this.reason, '-z', '--stdin'])
    return this.stream
  }

  /**
   * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
   * Throws RefMovedError when someone else moved it.
   */
  async updateCas(ref: string, newSha: string, oldSha: string | null): Promise<void> {
    if (this.stream === null) return this.git.updateRefCas(ref, newSha, oldSha, this.reason)
    const stream = this.start()!
    const command = `start\0update ${ref}\0${newSha}\0${oldSha ?? '0'.repeat(newSha.length)}\0prepare\0commit\0`
    try {
      const answers = await stream.request(command, 3)
      if (answers.join('\n') === 'start: ok\nprepare: ok\ncommit: ok') return
      throw new Error(`unexpected answer from git update-ref --stdin: ${answers.join(' / ')}`)
    } catch (error) {
      // The stream is gone either way: a failed transaction ends the process.
      this.stream = undefined
      const current = await this.git.revParse(ref)
      if (current === newSha) return // committed before the answer was lost
      if (current !== oldSha) {
        const details = error instanceof GitError ? error : null
        throw new RefMovedError(ref, oldSha, {
          args: ['update-ref', '--stdin', ref],
          cwd: this.git.cwd,
          exitCode: details?.exitCode ?? null,
          signal: details?.signal ?? null,
          stderr: details?.stderr ?? '',
        })
      }
      // Not a lost race (old git, the process was killed): one-shot calls from now on.
      this.stream = null
      return this.git.updateRefCas(ref, newSha, oldSha, this.reason)
    }
  }

  /** Let git exit; later updates start a new process. */
  async close(): Promise<void> {
    const stream = this.stream
    if (stream) {
      this.stream = undefined
      await stream.close()
    }
  }
}
