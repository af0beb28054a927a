// Starts one git process through simple-git (the engineering standard's git library) and returns its raw
// result: stdout as bytes, stderr as text, the real exit code. Deciding what a result means (which exit
// codes are answers) stays here too, so the runner only builds argv and environment.
//
// One simple-git instance per call: stdin (`input`), the result hook (`errors`) and the deadline (`abort`)
// are instance options, and an instance costs well under a millisecond next to the git process itself.
import util from 'node:util'

import createDebug from 'debug'
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git'

import { GitError, type GitErrorDetails } from './errors.js'
import { guardOptions } from './guard.js'

// simple-git's debug log prints its spawn options — the whole environment, tokens included. A DEBUG=* set to
// diagnose something else in CI must not publish them: its namespaces are always switched off.
if (createDebug.enabled('simple-git') || createDebug.enabled('simple-git:task')) {
  createDebug.enable(`${process.env.DEBUG ?? ''},-simple-git,-simple-git:*`)
}

export interface GitInvocation {
  /** The git executable (simple-git's `binary`). */
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
  /** Sees each stdout chunk as it arrives (progress), besides the whole output in the result. */
  onStdout?: (chunk: Buffer) => void
}

export interface GitBufferResult {
  stdout: Buffer
  stderr: string
  exitCode: number
}

/** What simple-git hands its `errors` hook; exitCode is null when a signal ended git. */
interface Outcome {
  exitCode: number | null
  stdOut: Buffer[]
  stdErr: Buffer[]
}

const EMPTY = Buffer.alloc(0)

/**
 * simple-git's completion plugin waits a fixed 50 ms after a process that wrote nothing to stdout or
 * stderr, whatever `completion` says (read-tree, add, update-ref are all silent: +50 ms each). It only
 * skips the wait once it has seen a `data` event, so an empty chunk is announced when stdout ends; by
 * then every byte has been delivered, and git's exit ('close') always comes after.
 */
function announceEndOfOutput(_command: string, stdout: NodeJS.ReadableStream): void {
  stdout.once('end', () => stdout.emit('data', EMPTY))
}

/** The same, plus a listener that sees stdout as it comes (a listener that throws is ignored). */
function outputHandler(onStdout: ((chunk: Buffer) => void) | undefined) {
  if (!onStdout) return announceEndOfOutput
  return (command: string, stdout: NodeJS.ReadableStream): void => {
    stdout.on('data', (chunk: Buffer) => {
      if (chunk.length === 0) return
      try {
        onStdout(chunk)
      } catch {
        // Progress is a courtesy: it never breaks the git call.
      }
    })
    announceEndOfOutput(command, stdout)
  }
}

export async function runGit(call: GitInvocation): Promise<GitBufferResult> {
  const { args, cwd } = call
  const input = typeof call.input === 'string' ? Buffer.from(call.input) : (call.input ?? EMPTY)
  let outcome: Outcome | undefined
  const deadline = call.timeoutMs ? new AbortController() : undefined
  let timedOut = false
  const options: Partial<SimpleGitOptions> = {
    baseDir: cwd,
    binary: call.binary,
    // The runner's own semaphore bounds concurrency; each instance runs exactly one process.
    maxConcurrentProcesses: 1,
    // 'close' means every byte of stdout/stderr has arrived; 'exit' can come before the pipes drain.
    completion: { onClose: true, onExit: false },
    config: [...call.config],
    // Always a Buffer, even an empty one: simple-git leaves stdin open when the input is falsy.
    input: () => input,
    // Every outcome (exit code, bytes) lands here; returning undefined keeps simple-git from turning a
    // non-zero exit into its own error, so an allowed code (1 from `rev-parse --verify`) is an answer.
    errors: (_error, result) => {
      outcome = result
      return undefined
    },
    ...guardOptions(call.env),
  }
  if (deadline) options.abort = deadline.signal
  const timer = deadline
    ? setTimeout(() => {
        timedOut = true
        deadline.abort()
      }, call.timeoutMs)
    : undefined

  try {
    let git: SimpleGit
    try {
      git = simpleGit(options)
    } catch (error) {
      throw refused(call, error)
    }
    await git
      .env(call.env)
      .outputHandler(outputHandler(call.onStdout))
      .raw([...call.argv])
      .catch((error: unknown) => {
        // With `errors` never failing a call, a rejection means simple-git refused before starting git.
        throw refused(call, error)
      })
  } finally {
    clearTimeout(timer)
  }
  if (!outcome) throw refused(call, new Error('simple-git finished without a result'))

  const { exitCode } = outcome
  const stderr = Buffer.concat(outcome.stdErr).toString('utf8')
  if (exitCode !== null && exitCode < 0) throw couldNotStart(call, exitCode, stderr)
  if (exitCode === 0 || (exitCode !== null && call.okExitCodes?.includes(exitCode))) {
    return { stdout: Buffer.concat(outcome.stdOut), stderr, exitCode }
  }
  // simple-git ends a timed-out process with SIGINT; which signal ended any other process is not reported.
  const signal = exitCode === null && timedOut ? 'SIGINT' : null
  const details: GitErrorDetails = { args, cwd, exitCode, signal, stderr }
  if (timedOut) {
    throw new GitError(details, `git ${args.join(' ')} timed out after ${call.timeoutMs} ms and was killed`)
  }
  if (exitCode === null) throw new GitError(details, `git ${args.join(' ')} was killed by a signal in ${cwd}`)
  throw new GitError(details)
}

/** simple-git would not run the command (a guard, a bad binary or a missing directory): git never started. */
function refused(call: GitInvocation, error: unknown): GitError {
  const message = error instanceof Error ? error.message : String(error)
  return new GitError(
    { args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause: error },
    `could not run git ${call.args.join(' ')} in ${call.cwd}: ${message.trim()}`,
  )
}

/**
 * The process never started (Node reports a negative errno as the exit code and simple-git puts the
 * spawn error's stack on stderr).
 */
function couldNotStart(call: GitInvocation, errno: number, stderr: string): GitError {
  const code = util.getSystemErrorName(errno)
  const message = (stderr.split('\n')[0] ?? '').replace(/^Error: /, '') || `spawn ${call.binary} ${code}`
  const cause = Object.assign(new Error(message), { code, errno })
  const hint = code === 'ENOENT' ? ` (is git installed and on PATH? looked for "${call.binary}")` : ''
  return new GitError(
    { args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause },
    `could not run git ${call.args.join(' ')}: ${message}${hint}`,
  )
}
