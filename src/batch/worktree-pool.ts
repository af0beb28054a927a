// The batch's worktrees, recycled: a finished task's worktree is reset to the base for the next task
// instead of being deleted and checked out again. A fresh checkout writes every file of the repository
// (and deleting one deletes them all again); a reset rewrites only what the task touched, so a child's
// worktree costs two small git calls instead of three calls and two passes over every file. At most
// `size` (the concurrency) worktrees are made for the first wave, plus one spare made while that wave runs
// when more tasks follow, so the next task never waits for a reset. A worktree that cannot be made clean
// (see recycleWorktree) is removed and the next task gets a fresh one. With `recycle: false`
// (keep_worktrees) every task gets its own fresh worktree, left in place.
// A worktree waiting for its next task (or being checked out for it) also has the git reads that task's
// session makes before its agent starts begun for it (`prepare`), so they are done when the task takes it.
import type { CheckpointReads } from '../session/checkpointing.js'
import {
  checkoutWorktree,
  recycleWorktree,
  registerWorktree,
  removeWorktree,
  worktreeGitDir,
  type BatchRepo,
} from './worktrees.js'

export interface Lease {
  dir: string
  /** The worktree's own administrative directory (`.git/worktrees/<name>`), to tell it is still ours. */
  gitDir: string
  /** Reads begun for the task expected to take this worktree next (`prepare`), if any. */
  reads?: CheckpointReads | null
}

export interface WorktreePoolOptions {
  repo: BatchRepo
  /** How many worktrees may exist at once (the batch's concurrency). */
  size: number
  /** How many tasks will ask for one: once the last has one, a released worktree is removed, not reset. */
  tasks: number
  recycle: boolean
  /** Where a fresh worktree for task `index` goes; a recycled one keeps the name it was made under. */
  dirFor: (index: number) => string
  /** Once aborted, released worktrees are removed and waiting tasks get none. */
  signal: AbortSignal
  warn: (message: string) => void
  /**
   * Begins, for the task `index` that will take the worktree at `dir` next, the reads its session makes
   * before its agent starts; called when a worktree becomes idle. Null: nothing to begin.
   */
  prepare?: (dir: string, index: number) => CheckpointReads | null
}

export class WorktreePool {
  private readonly idle: Lease[] = []
  private readonly waiting: (() => void)[] = []
  /** Worktrees that exist or are being made, reset or handed out (not those being removed). */
  private alive = 0
  private handedOut = 0
  private spareMade = false
  private readonly background: Promise<void>[] = []

  constructor(private readonly o: WorktreePoolOptions) {
    // An abort wakes waiting tasks, which then find the signal aborted and give up.
    o.signal.addEventListener('abort', () => this.wake(Infinity), { once: true })
  }

  /**
   * A worktree at the base for task `index`: an idle recycled one, a fresh one while fewer than `size`
   * exist, or else the next one a finished task frees. Null when the batch was interrupted first; rejects
   * with git's reason when a fresh one could not be made (nothing is left behind then).
   */
  async acquire(index: number): Promise<Lease | null> {
    for (;;) {
      if (this.o.signal.aborted) return null
      // The one idle longest first, so the worktrees take turns.
      const ready = this.idle.shift()
      if (ready) return this.handOut(ready)
      if (!this.o.recycle || this.alive < this.o.size) {
        return this.handOut(await this.fresh(index, index), index)
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    }
  }

  /**
   * The task is done with its worktree (its session directory already moved out). Reset in the
   * background for the next task, or removed when no task will need it; `keep` leaves it in place.
   */
  release(lease: Lease, opts: { keep: boolean }): void {
    if (opts.keep) return
    const more = this.handedOut < this.o.tasks && !this.o.signal.aborted
    if (!this.o.recycle || !more) {
      this.alive--
      this.track(this.remove(lease))
      this.wake(1)
      return
    }
    this.track(
      recycleWorktree(this.o.repo, lease).then(
        () => {
          if (this.o.signal.aborted) return this.drop(lease)
          this.park(lease)
        },
        (error: Error) => {
          this.o.warn(
            `worktree ${lease.dir} could not be reset for the next task (${error.message}); using a fresh one`,
          )
          return this.drop(lease)
        },
      ),
    )
  }

  /** Waits for every reset and removal under way, then removes the idle worktrees. */
  async close(): Promise<void> {
    while (this.background.length > 0) await Promise.all(this.background.splice(0))
    await Promise.all(this.idle.splice(0).map((lease) => this.remove(lease)))
  }

  private handOut(lease: Lease, freshFor?: number): Lease {
    this.handedOut++
    if (freshFor !== undefined) this.maybeSpare()
    return lease
  }

  /**
   * An idle worktree joins the queue; the reads of the task that will take it are begun. Tasks take
   * worktrees in their order and idle ones first come first served, so that task is the one after every
   * task handed a worktree so far and every one queued ahead of this one. Should another take it (an
   * interruption), the reads are for another session and that session makes its own.
   */
  private park(lease: Lease): void {
    const next = this.handedOut + this.idle.length
    lease.reads = next < this.o.tasks ? (this.o.prepare?.(lease.dir, next) ?? null) : null
    this.idle.push(lease)
    this.wake(1)
  }

  /**
   * Once the first wave has its worktrees, one more is made while those tasks run, if more tasks will
   * follow: a task that ends then hands the next one this spare at once, instead of making it wait for
   * its own worktree's reset, which becomes the next spare.
   */
  private maybeSpare(): void {
    const spareFor = this.handedOut
    if (this.spareMade || this.handedOut < this.o.size || spareFor >= this.o.tasks) return
    this.spareMade = true
    this.track(
      this.fresh(spareFor).then(
        (lease) => {
          if (this.o.signal.aborted) return this.drop(lease)
          this.park(lease)
        },
        () => undefined, // only a head start: the next task makes its own if this one failed
      ),
    )
  }

  /** A new worktree for task `index`; with `readsFor`, that task's reads begin beside the checkout. */
  private async fresh(index: number, readsFor?: number): Promise<Lease> {
    const dir = this.o.dirFor(index)
    this.alive++
    let registered = false
    let reads: CheckpointReads | null = null
    try {
      await registerWorktree(this.o.repo, dir)
      registered = true
      // HEAD is set once git has registered the worktree, and the reads look at no file of its checkout:
      // they run beside it (started after it, which is what the task waits for).
      const checkout = checkoutWorktree(this.o.repo, dir)
      checkout.catch(() => undefined)
      if (readsFor !== undefined) reads = this.o.prepare?.(dir, readsFor) ?? null
      await checkout
      return { dir, gitDir: worktreeGitDir(dir), reads }
    } catch (error) {
      // Once git has registered it, it must go even though its checkout failed.
      if (registered) await this.remove({ dir, reads })
      this.alive--
      this.wake(1)
      throw error
    }
  }

  private async drop(lease: Lease): Promise<void> {
    this.alive--
    this.wake(1)
    await this.remove(lease)
  }

  /** Removes a worktree once the reads begun in it, if any, have ended (their git runs there). */
  private async remove(lease: Pick<Lease, 'dir' | 'reads'>): Promise<void> {
    const { dir, reads } = lease
    lease.reads = null
    if (reads) await Promise.allSettled([reads.objects, reads.machinery])
    try {
      const problem = await removeWorktree(this.o.repo, dir)
      if (problem) this.o.warn(`worktree ${dir} was deleted by hand: ${problem}`)
    } catch (error) {
      this.o.warn(`could not remove worktree ${dir}: ${(error as Error).message}`)
    }
  }

  private track(work: Promise<void>): void {
    this.background.push(work.catch(() => undefined))
  }

  private wake(count: number): void {
    for (let i = 0; i < count && this.waiting.length > 0; i++) this.waiting.shift()!()
  }
}
