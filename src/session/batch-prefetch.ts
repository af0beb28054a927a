// Worktrees made ahead of their tasks. Creating one (register under the lock, then check out every file)
// is most of a child's overhead; done when the child's slot frees up, it delays every task behind it.
// So while one wave of children runs, the next wave's worktrees are made, and a freed slot starts its
// next task on a worktree that is already there. Nothing is made ahead once the batch is interrupted, and
// worktrees made ahead for tasks that never ran are removed at the end, so none is left behind.
import { checkoutWorktree, registerWorktree, type BatchRepo } from './batch-worktrees.js'

export interface PreparedWorktree {
  dir: string
  /** Resolves once the worktree is checked out; rejects with git's reason if it could not be made. */
  ready: Promise<void>
  /** True once git has registered it: from then on it must be removed, even if the checkout failed. */
  registered: boolean
}

export interface PrefetchOptions {
  repo: BatchRepo
  count: number
  /** How many tasks past the one being taken get their worktree made ahead (the next wave). */
  lookahead: number
  dirFor: (index: number) => string
  signal: AbortSignal
}

export class WorktreePrefetcher {
  private readonly made = new Map<number, PreparedWorktree>()
  private readonly taken = new Set<number>()
  private closed = false

  constructor(private readonly o: PrefetchOptions) {}

  /**
   * The worktree for task `index` (made now unless made ahead). Once it is ready, the following ones are
   * started ahead: not before, so the next wave's checkouts never compete with the one a task waits for.
   */
  take(index: number): PreparedWorktree {
    const prepared = this.start(index)
    this.taken.add(index)
    const ahead = () => {
      const last = Math.min(this.o.count - 1, index + this.o.lookahead)
      for (let next = index + 1; next <= last && !this.o.signal.aborted && !this.closed; next++)
        this.start(next)
    }
    prepared.ready.then(ahead, ahead)
    return prepared
  }

  /** Waits for every worktree made ahead and hands those no task took to `remove`. */
  async discardUntaken(remove: (dir: string) => Promise<unknown>): Promise<void> {
    this.closed = true
    const untaken = [...this.made].filter(([index]) => !this.taken.has(index)).map(([, p]) => p)
    await Promise.all(
      untaken.map(async (p) => {
        await p.ready.catch(() => undefined)
        if (p.registered) await remove(p.dir)
      }),
    )
  }

  private start(index: number): PreparedWorktree {
    const existing = this.made.get(index)
    if (existing) return existing
    const prepared: PreparedWorktree = {
      dir: this.o.dirFor(index),
      ready: Promise.resolve(),
      registered: false,
    }
    prepared.ready = (async () => {
      await registerWorktree(this.o.repo, prepared.dir)
      prepared.registered = true
      await checkoutWorktree(this.o.repo, prepared.dir)
    })()
    // A failure is the taking child's to report; one made ahead and never taken must not crash the batch.
    prepared.ready.catch(() => undefined)
    this.made.set(index, prepared)
    return prepared
  }
}
