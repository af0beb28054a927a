// When proctor's own git calls must be over. A git that reads the worktree can block forever in open():
// the agent can put a FIFO where git reads (`mkfifo .gitignore`), and git opens it without O_NONBLOCK. So
// every such call has a deadline (exec.ts kills git's process group at it): a cap per call, generous
// for a large repository on a slow disk, and the moment the session is due to be over (its total timeout
// plus grace, moved closer by SIGTERM), which a call started after it still gets a short floor past.
// Calls already running follow a moved end at once.

/**
 * Per call. The longest call is a first snapshot's `update-index`: under a second at 10,000 files here
 * (docs/benchmarks.md), so tens of seconds for 100,000 on a cold, slow disk; five minutes leaves room.
 */
export const GIT_CALL_LIMIT_MS = 5 * 60_000
/** What a call started at or after the session's end still gets: the final checkpoint's few quick calls. */
export const GIT_FLOOR_MS = 2_000

export class GitDeadline {
  private end: number | null = null
  private readonly watchers = new Set<() => void>()

  constructor(
    readonly callMs = GIT_CALL_LIMIT_MS,
    readonly floorMs = GIT_FLOOR_MS,
  ) {}

  /** The epoch ms at which a call started at `startedAt` is killed. */
  killAt(startedAt: number): number {
    const capped = startedAt + this.callMs
    return this.end === null ? capped : Math.min(capped, Math.max(this.end, startedAt + this.floorMs))
  }

  /** The session must be over by `at` (epoch ms); null: no end, only the per-call cap. */
  endBy(at: number | null): void {
    this.end = at
    for (const watcher of this.watchers) watcher()
  }

  /** Moves the end closer (SIGTERM), never further. */
  shorten(at: number): void {
    if (this.end === null || at < this.end) this.endBy(at)
  }

  /** Calls `changed` whenever the end moves; returns the unsubscribe. */
  watch(changed: () => void): () => void {
    this.watchers.add(changed)
    return () => this.watchers.delete(changed)
  }
}
