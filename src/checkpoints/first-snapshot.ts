// The first checkpoint of a session records every changed or untracked, unignored file. In a repository
// whose .gitignore misses node_modules/ (or a build directory) that is thousands of files, hashed and
// committed silently for many seconds. Before it starts, say so, which directories hold the bulk, and
// the fix; when it ends, say how long it took.
import { formatDuration } from '../util/units.js'

/** Above this many files the first checkpoint is worth a warning. */
export const LARGE_FIRST_SNAPSHOT = 2000

export type SnapshotNotice = (level: 'warning' | 'info', message: string) => void

export class FirstSnapshotWatch {
  private checked = false
  private started: number | null = null
  private count = 0

  constructor(
    private readonly notice: SnapshotNotice | undefined,
    private readonly threshold = LARGE_FIRST_SNAPSHOT,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called with the paths about to be staged; acts on the session's first snapshot only. */
  begin(paths: readonly string[], seq: number): void {
    if (this.checked || !this.notice) return
    this.checked = true
    if (seq !== 0 || paths.length <= this.threshold) return
    this.count = paths.length
    this.started = this.now()
    this.notice('warning', largeSnapshotMessage(paths))
  }

  /** Called once staging is over (or failed). */
  end(): void {
    if (this.started === null || !this.notice) return
    const took = this.now() - this.started
    this.started = null
    this.notice(
      'info',
      `first checkpoint: ${this.count.toLocaleString('en-US')} files read in ${formatDuration(took)}`,
    )
  }
}

/** The warning: how many files, the top-level directories holding most of them, and the fix. */
export function largeSnapshotMessage(paths: readonly string[]): string {
  const byTop = new Map<string, number>()
  for (const p of paths) {
    const slash = p.indexOf('/')
    const top = slash === -1 ? p : `${p.slice(0, slash)}/`
    byTop.set(top, (byTop.get(top) ?? 0) + 1)
  }
  const biggest = [...byTop]
    .filter(([top]) => top.endsWith('/'))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
  const where = biggest.length
    ? ` (${biggest.map(([top, n]) => `${top} ${n.toLocaleString('en-US')}`).join(', ')})`
    : ''
  const example = biggest[0]?.[0] ?? 'node_modules/'
  return (
    `the first checkpoint records ${paths.length.toLocaleString('en-US')} changed or untracked files that ` +
    `no .gitignore covers${where}; this can take a while. If they are not the agent's work, add them to ` +
    `.gitignore (e.g. \`echo ${example} >> .gitignore\`) or, for this clone only, to .git/info/exclude`
  )
}
