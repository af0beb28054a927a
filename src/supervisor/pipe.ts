// Pipe backend: child_process.spawn with `detached: true`, which on POSIX calls setsid() so the
// child leads its own session and process group (pgid === pid). stdout and stderr stay separate.
import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import type { AdapterOptions, ChildAdapter, LeaderExit } from './adapter.js'
import { readIntoReusedBuffer } from './reuse-read.js'
import type { WriteResult } from './types.js'

/**
 * A write is delivered once the kernel took it. A child that never reads fills the pipe (64 KiB on
 * Linux) and the write waits; after this long the answer counts as not delivered.
 */
const WRITE_DEADLINE_MS = 2_000

export function spawnPipe(opts: AdapterOptions): ChildAdapter {
  const child = spawn(opts.file, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  })
  const pid = child.pid
  if (pid === undefined) {
    // The executable was checked before spawn, so this is a race (deleted meanwhile) or a limit
    // (EAGAIN: too many processes). The async 'error' event carries the details; the caller gets
    // a synchronous failure here so nothing half-started is left behind.
    child.on('error', () => undefined)
    throw new Error(`failed to start ${opts.file}: the system refused to create the process`)
  }

  const stdin = child.stdin
  // A child that exits without reading its input must not crash us with EPIPE.
  stdin.on('error', () => undefined)
  if (opts.stdin !== undefined) stdin.end(opts.stdin)
  else if (!opts.keepStdinOpen) stdin.end()

  /** What is read: the stream itself, or the socket its handle moved to (opts.reuseBuffer). */
  const readers: Readable[] = []
  const streamEnded = (stream: Readable, name: 'stdout' | 'stderr'): Promise<void> =>
    new Promise((resolve) => {
      const reused = opts.reuseBuffer
        ? readIntoReusedBuffer(stream, { onData: (chunk) => opts.onOutput(chunk, name), shareHandle: false })
        : null
      if (reused) {
        // The old socket has no handle left: closed now, it can never touch the pipe again.
        stream.destroy()
      } else {
        stream.on('data', (chunk: Buffer) => opts.onOutput(chunk, name))
      }
      const reader = reused ?? stream
      readers.push(reader)
      reader.on('error', () => resolve())
      reader.on('close', () => resolve())
    })
  const outputEnd = Promise.all([
    streamEnded(child.stdout, 'stdout'),
    streamEnded(child.stderr, 'stderr'),
  ]).then(() => undefined)

  const leaderExit = new Promise<LeaderExit>((resolve) => {
    child.on('error', () => resolve({ exitCode: null, signal: null }))
    child.on('exit', (code, signal) => resolve({ exitCode: signal ? null : code, signal }))
  })

  return {
    pid,
    leaderExit,
    outputEnd,
    abandonOutput() {
      for (const reader of readers) reader.destroy()
    },
    write(data) {
      if (!stdin.writable || stdin.writableEnded || stdin.destroyed) {
        return Promise.resolve<WriteResult>({ delivered: false, reason: "the agent's stdin is closed" })
      }
      return new Promise<WriteResult>((resolve) => {
        const timer = setTimeout(
          () =>
            resolve({ delivered: false, reason: 'the agent is not reading its stdin (the pipe is full)' }),
          WRITE_DEADLINE_MS,
        )
        stdin.write(enterAsNewline(data), (error) => {
          clearTimeout(timer)
          resolve(
            error
              ? { delivered: false, reason: `the agent's stdin is closed (${errorCode(error)})` }
              : { delivered: true },
          )
        })
      })
    },
    resize: () => undefined,
  }
}

/**
 * "\r" (Enter, as `send: "y\r"` and the default `deny_text` type it) as "\n": in a PTY the terminal's line
 * discipline does that (ICRNL), so a line-reading agent sees the line end; over a pipe nothing would, and
 * the agent would wait for the rest of its line until the timeout. "\r\n" becomes one "\n".
 */
export function enterAsNewline(data: string | Buffer): string | Buffer {
  if (typeof data === 'string') return data.replace(/\r\n?/g, '\n')
  if (!data.includes(0x0d)) return data
  return Buffer.from(data.toString('latin1').replace(/\r\n?/g, '\n'), 'latin1')
}

function errorCode(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  return code ?? error.message
}
