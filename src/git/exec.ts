// Starts one git process and returns its raw result: stdout as bytes, stderr as text, the real exit code.
// Deciding what a result means (which exit codes are answers) stays here too, so the runner only builds
// argv and environment. Plain node:child_process with an argv array (no shell), like the long-lived
// processes in stream.ts: no git library sits underneath (docs/architecture.md, "Running git", says why).
import { spawn, spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'

import type { GitDeadline } from './deadline.js'
import { GitError, type GitErrorDetails } from './errors.js'

export interface GitInvocation {
  /** The git executable. */
  binary: string
  cwd: string
  /** The complete environment git runs with; nothing is added from process.env. */
  env: Record<string, string>
  /** `-c key=value` settings, placed before everything else. */
  config: readonly string[]
  /** What follows the `-c` settings: global options, the subcommand and its arguments. */
  argv: readonly string[]
  /** The command as errors name it (the caller's arguments, without our settings). */
  args: readonly string[]
  /** Written to stdin; stdin is always closed, so git never waits for more. */
  input?: string | Buffer
  /** Exit codes that are answers, not failures. */
  okExitCodes?: readonly number[]
  /** Kill git after this long; no limit when absent. */
  timeoutMs?: number
  /** Kill git at this deadline too (deadline.ts), following it when it moves while git runs. */
  deadline?: GitDeadline
  /** Sees each stdout chunk as it arrives (progress), besides the whole output in the result. */
  onStdout?: (chunk: Buffer) => void
}

export interface GitBufferResult {
  stdout: Buffer
  stderr: string
  exitCode: number
}

/** How long a timed-out git has to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000

/**
 * Process groups of gits with a deadline still running. They are not in proctor's group, so a Ctrl-C in the
 * terminal does not reach them: when proctor exits, whatever is left of them goes with it.
 */
const liveGroups = new Set<number>()
let exitHook = false
function trackGroup(pid: number): void {
  liveGroups.add(pid)
  if (exitHook) return
  exitHook = true
  process.once('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  })
}

export function runGit(call: GitInvocation): Promise<GitBufferResult> {
  const { cwd } = call
  // spawn() reports a missing cwd as a missing binary (ENOENT either way): tell them apart first.
  if (!isDirectory(cwd)) return Promise.reject(refused(call, 'the directory does not exist'))
  return new Promise((resolve, reject) => {
    const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv]
    // A call with a deadline leads its own process group: git hands the connection to children
    // (git-remote-https, ssh, pack-objects) that hold our pipes open, so killing git alone would leave them
    // running and 'close' would never come. At the deadline the whole group is signalled.
    const startedAt = Date.now()
    const killAt = () =>
      Math.min(
        call.timeoutMs ? startedAt + call.timeoutMs : Infinity,
        call.deadline ? call.deadline.killAt(startedAt) : Infinity,
      )
    const group = killAt() !== Infinity && process.platform !== 'win32'
    const child = spawn(call.binary, argv, {
      cwd,
      env: call.env,
      stdio: 'pipe',
      windowsHide: true,
      detached: group,
    })
    if (group && child.pid) trackGroup(child.pid)
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    /** The limit git was killed at (ms after its start), once it was. */
    let timedOut: number | null = null
    let settled = false
    const signal = (sig: NodeJS.Signals) => {
      try {
        if (group && child.pid) process.kill(-child.pid, sig)
        else child.kill(sig)
      } catch {
        // Already gone.
      }
    }
    // SIGTERM first: git removes its lock files on the way out (a killed one would leave index.lock behind).
    let timer: NodeJS.Timeout | undefined
    const arm = () => {
      clearTimeout(timer)
      if (timedOut !== null) return
      const at = killAt()
      if (at === Infinity) return
      timer = setTimeout(
        () => {
          timedOut = at - startedAt
          signal('SIGTERM')
          setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS).unref()
        },
        Math.max(0, at - Date.now()),
      )
    }
    arm()
    const unwatch = call.deadline?.watch(arm)
    const done = () => {
      clearTimeout(timer)
      unwatch?.()
    }
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk)
      try {
        call.onStdout?.(chunk)
      } catch {
        // Progress is a courtesy: it never breaks the git call.
      }
    })
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error: NodeJS.ErrnoException) => {
      done()
      if (settled) return
      settled = true
      reject(couldNotStart(call, error))
    })
    // 'close', not 'exit': every byte of stdout/stderr has arrived by then.
    child.on('close', (code, signal) => {
      done()
      if (child.pid) liveGroups.delete(child.pid)
      if (settled) return
      settled = true
      const outcome = outcomeOf(call, Buffer.concat(stdout), Buffer.concat(stderr), code, signal, timedOut)
      if (outcome instanceof GitError) reject(outcome)
      else resolve(outcome)
    })
    // A command that fails before reading its stdin closes the pipe (EPIPE): its exit code tells the story.
    child.stdin.on('error', () => undefined)
    child.stdin.end(call.input ?? '')
  })
}

/**
 * runGit for a process with nothing else to do meanwhile (a one-shot `proctor checkpoints create`): git runs
 * to completion before this returns, with no pipes or streams on Node's side. A cold process pays several ms
 * of CPU to set up its first asynchronous child (sockets, stream machinery); a synchronous one costs a
 * fraction of that, and each later call about 1 ms less. Same results and errors as runGit; `onStdout`
 * sees the whole output at once.
 */
export function runGitSync(call: GitInvocation): Promise<GitBufferResult> {
  const { cwd } = call
  if (!isDirectory(cwd)) return Promise.reject(refused(call, 'the directory does not exist'))
  const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv]
  const startedAt = Date.now()
  const killAt = Math.min(
    call.timeoutMs ? startedAt + call.timeoutMs : Infinity,
    call.deadline ? call.deadline.killAt(startedAt) : Infinity,
  )
  const result = spawnSync(call.binary, argv, {
    cwd,
    env: call.env,
    input: call.input ?? '',
    maxBuffer: Infinity,
    windowsHide: true,
    ...(killAt !== Infinity
      ? { timeout: Math.max(1, killAt - startedAt), killSignal: 'SIGTERM' as const }
      : {}),
  })
  if (result.error && result.pid === 0) {
    return Promise.reject(couldNotStart(call, result.error as NodeJS.ErrnoException))
  }
  const stdout = result.stdout ?? Buffer.alloc(0)
  if (stdout.length > 0) {
    try {
      call.onStdout?.(stdout)
    } catch {
      // Progress is a courtesy: it never breaks the git call.
    }
  }
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT'
  const outcome = outcomeOf(
    call,
    stdout,
    result.stderr ?? Buffer.alloc(0),
    result.status,
    result.signal,
    timedOut ? killAt - startedAt : null,
  )
  return outcome instanceof GitError ? Promise.reject(outcome) : Promise.resolve(outcome)
}

/** What an exited git's status means, for both runGit and runGitSync: its result, or the error to raise. */
function outcomeOf(
  call: GitInvocation,
  stdout: Buffer,
  stderr: Buffer,
  code: number | null,
  signal: NodeJS.Signals | null,
  /** The limit (ms after its start) a git killed at its deadline had; null when it was not killed. */
  timedOutAfterMs: number | null,
): GitBufferResult | GitError {
  const { args, cwd } = call
  const err = stderr.toString('utf8')
  const details: GitErrorDetails = { args, cwd, exitCode: code, signal, stderr: err }
  // Before the exit code: a git that caught SIGTERM may exit with an allowed code (128) as if it had an answer.
  if (timedOutAfterMs !== null)
    return new GitError(
      { ...details, timedOut: true },
      `git ${args.join(' ')} timed out after ${timedOutAfterMs} ms and was killed`,
    )
  if (code === 0 || (code !== null && call.okExitCodes?.includes(code))) {
    return { stdout, stderr: err, exitCode: code }
  }
  if (code === null)
    return new GitError(details, `git ${args.join(' ')} was killed by ${signal ?? 'a signal'} in ${cwd}`)
  return new GitError(details)
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** git was not started (its working directory is missing). */
function refused(call: GitInvocation, why: string): GitError {
  return new GitError(
    { args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '' },
    `could not run git ${call.args.join(' ')} in ${call.cwd}: ${why}`,
  )
}

/** The process never started (a missing or non-executable binary). */
function couldNotStart(call: GitInvocation, cause: NodeJS.ErrnoException): GitError {
  const hint = cause.code === 'ENOENT' ? ` (is git installed and on PATH? looked for "${call.binary}")` : ''
  return new GitError(
    { args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause },
    `could not run git ${call.args.join(' ')}: ${cause.message}${hint}`,
  )
}
