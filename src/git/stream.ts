// A long-lived git process spoken to through stdin/stdout: `update-ref --stdin` (one transaction per
// checkpoint) and `hash-object --stdin-paths` (one commit object per checkpoint). A session takes a
// checkpoint every few seconds, and each one-shot git call costs a fork of proctor itself — Node's spawn
// blocks the event loop for ~1 ms per 50 MB of proctor's memory, before git has even started — so the two
// calls that are the same every time are answered by one process each for the whole session.
//
// exec.ts runs every other git call and closes stdin once the input is written; a conversation needs the
// pipe kept open, so this module keeps its process, started from the invocation the runner built (same
// sanitized environment, same `-c` settings).
//
// The process is unref'd while idle, so a forgotten stream never keeps proctor alive; if proctor dies,
// git reads end-of-file and exits on its own.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Socket } from 'node:net'

import { GitError } from './errors.js'
import type { GitInvocation } from './exec.js'

/** How long `close()` waits for git to exit after end-of-file before killing it. */
const CLOSE_GRACE_MS = 2000
/**
 * An answer that takes longer than this means git is stuck (these commands answer in milliseconds; a
 * ref lock is given up after 100 ms): git is killed and the caller falls back to one-shot calls.
 */
const ANSWER_TIMEOUT_MS = 30_000

export class GitStream {
  private readonly child: ChildProcessWithoutNullStreams
  private readonly call: GitInvocation
  private stdout = ''
  private stderr = ''
  private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null
  private readonly exit: Promise<void>
  private pending: { lines: number; resolve: (lines: string[]) => void; reject: (e: Error) => void } | null =
    null
  private queue: Promise<unknown> = Promise.resolve()

  constructor(call: GitInvocation) {
    this.call = call
    const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv]
    this.child = spawn(call.binary, argv, { cwd: call.cwd, env: call.env, stdio: 'pipe' })
    this.child.stdout.setEncoding('utf8')
    this.child.stderr.setEncoding('utf8')
    this.child.stdout.on('data', (chunk: string) => {
      this.stdout += chunk
      this.deliver()
    })
    this.child.stderr.on('data', (chunk: string) => {
      // Only the tail is kept for error messages.
      this.stderr = (this.stderr + chunk).slice(-8192)
    })
    // A write after git died is reported by the 'close' below, not as an unhandled EPIPE.
    this.child.stdin.on('error', () => undefined)
    this.exit = new Promise((resolve) => {
      const settle = (code: number | null, signal: NodeJS.Signals | null, what: string) => {
        if (this.exited) return
        this.exited = { code, signal }
        this.fail(this.failure(what))
        resolve()
      }
      // A git that cannot be started (ENOENT) may report only 'error'.
      this.child.on('error', (error) => {
        this.stderr += `${error.message}\n`
        if (this.child.pid === undefined) settle(null, null, 'could not start')
      })
      this.child.on('close', (code, signal) => settle(code, signal, 'exited'))
    })
    this.idle()
  }

  /** Whether the process is still there to take requests. */
  get alive(): boolean {
    return this.exited === null && !this.child.stdin.writableEnded
  }

  /**
   * Write `input` and resolve with the next `lines` lines of output. Requests are answered in order; if
   * git exits first, rejects with a GitError carrying its exit code and stderr.
   */
  request(input: string, lines: number): Promise<string[]> {
    const run = this.queue.then(() => this.exchange(input, lines))
    this.queue = run.catch(() => undefined)
    return run
  }

  /** End stdin and wait for git to exit (killed after a grace period if it does not). */
  async close(): Promise<void> {
    await this.queue
    if (this.exited) return
    // Every handle must keep the loop alive until 'close': git may exit before its pipes reach end-of-file.
    this.busy()
    this.child.stdin.end()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS)
    timer.unref()
    await this.exit
    clearTimeout(timer)
  }

  private exchange(input: string, lines: number): Promise<string[]> {
    if (!this.alive) return Promise.reject(this.failure('is not running'))
    this.busy()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), ANSWER_TIMEOUT_MS)
    return new Promise<string[]>((resolve, reject) => {
      this.pending = { lines, resolve, reject }
      this.child.stdin.write(input)
      this.deliver()
    }).finally(() => {
      clearTimeout(timer)
      this.idle()
    })
  }

  private deliver(): void {
    const pending = this.pending
    if (!pending) return
    const all = this.stdout.split('\n')
    if (all.length - 1 < pending.lines) return
    this.pending = null
    this.stdout = all.slice(pending.lines).join('\n')
    pending.resolve(all.slice(0, pending.lines))
  }

  private fail(error: GitError): void {
    const pending = this.pending
    this.pending = null
    pending?.reject(error)
  }

  private failure(what: string): GitError {
    const exited = this.exited ?? { code: null, signal: null }
    return new GitError(
      {
        args: this.call.args,
        cwd: this.call.cwd,
        exitCode: exited.code,
        signal: exited.signal,
        stderr: this.stderr,
      },
      `git ${this.call.args.join(' ')} ${what}` +
        (exited.code !== null ? ` (exit code ${exited.code})` : exited.signal ? ` (${exited.signal})` : '') +
        ` in ${this.call.cwd}`,
    )
  }

  // While a request waits for its answer the process keeps proctor alive; while idle it does not.
  private busy(): void {
    this.child.ref()
    socket(this.child.stdout).ref()
    socket(this.child.stderr).ref()
  }

  private idle(): void {
    this.child.unref()
    for (const pipe of [this.child.stdin, this.child.stdout, this.child.stderr]) socket(pipe).unref()
  }
}

/** A child's stdio pipes are sockets (typed as plain streams), which can be unref'd. */
function socket(pipe: NodeJS.ReadableStream | NodeJS.WritableStream): Socket {
  return pipe as unknown as Socket
}
