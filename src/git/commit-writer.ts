// Commit objects for one session through one long-lived `git hash-object -w -t commit --stdin-paths`
// (the way git-svn writes objects): the commit text is written to a scratch file, its path goes to git,
// the id comes back. The text is exactly what `git commit-tree` writes for an unsigned commit: tree,
// parents, author and committer as git itself resolves them (`git var`, config or GIT_AUTHOR_*, proctor's
// fallback identity when there is none), the current time in the local time zone unless GIT_*_DATE pins
// it, a blank line and the message. Any failure falls back to `git commit-tree` for the rest of the session.
import fs from 'node:fs'

import type { Git } from './runner.js'
import type { GitStream } from './stream.js'

export class CommitWriter {
  /** undefined: not started yet; null: given up on, `commit-tree` from now on. */
  private stream: GitStream | null | undefined

  constructor(
    private readonly git: Git,
    /** Where each commit's text is written for git to read (inside the git dir, owned by the session). */
    private readonly scratchFile: string,
    /** Injected clock (tests); default Date.now. */
    private readonly now: () => number = Date.now,
  ) {
    // --stdin-paths reads one path per line.
    if (scratchFile.includes('\n')) this.stream = null
  }

  /** Start git (and resolve the identity) ahead of the first commit, so its start-up overlaps other work. */
  prepare(): void {
    if (this.stream === null) return
    this.git.commitIdents().catch(() => undefined)
    this.start()
  }

  private start(): GitStream | null {
    if (this.stream === undefined) {
      this.stream = this.git.stream(['hash-object', '-w', '-t', 'commit', '--no-filters', '--stdin-paths'])
    }
    return this.stream
  }

  async commit(tree: string, parents: readonly string[], message: string): Promise<string> {
    if (this.stream === null) return this.git.commitTree(tree, parents, message)
    try {
      const idents = await this.git.commitIdents()
      const when = this.now()
      const lines = [`tree ${tree}`, ...parents.map((parent) => `parent ${parent}`)]
      lines.push(`author ${idents.author.name} ${idents.author.date ?? gitDate(when)}`)
      lines.push(`committer ${idents.committer.name} ${idents.committer.date ?? gitDate(when)}`)
      fs.writeFileSync(this.scratchFile, `${lines.join('\n')}\n\n${message}`)
      const stream = this.start()!
      const [sha] = await stream.request(`${this.scratchFile}\n`, 1)
      if (sha && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) return sha
      throw new Error(`unexpected answer from git hash-object: ${sha ?? ''}`)
    } catch {
      const stream = this.stream
      this.stream = null
      void stream?.close()
      return this.git.commitTree(tree, parents, message)
    }
  }

  async close(): Promise<void> {
    const stream = this.stream
    if (stream) {
      this.stream = undefined
      await stream.close()
    }
    fs.rmSync(this.scratchFile, { force: true })
  }
}

/** `<seconds> <+hhmm>` in the local time zone, as git writes dates in commit objects. */
export function gitDate(ms: number): string {
  const offset = -new Date(ms).getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
  return `${Math.floor(ms / 1000)} ${sign}${hhmm}`
}
