// PTY backend on @lydell/node-pty, loaded lazily so pipe-only users never load the native module.
//
// Tail loss (node-pty issues #72 and #726): on Node 20/22, libuv treats POLLHUP
// after a short read as EOF, so the master's stream 'end's while the kernel still holds the last
// few KB; node-pty then closes the fd. On Linux a pty master stays readable after the slave closes
// until its buffer is empty and only then fails with EIO. So whenever the stream is about to stop
// reading (premature 'end', or node-pty's 200 ms destroy after exit) we first read the master
// ourselves, synchronously, until EIO (nothing more will ever come) or EAGAIN (slave still open).
import { createRequire } from 'node:module'
import { readSync } from 'node:fs'
import type { Readable } from 'node:stream'
import type * as NodePty from '@lydell/node-pty'
import type { AdapterOptions, ChildAdapter, LeaderExit } from './adapter.js'
import { signalName } from './proc-info.js'
import { readIntoReusedBuffer } from './reuse-read.js'
import type { WriteResult } from './types.js'

const notDelivered: WriteResult = { delivered: false, reason: 'the terminal has closed (the agent exited)' }

type NodePtyModule = typeof NodePty

let nodePty: NodePtyModule | undefined

/** Loads the native module on first use; throws an Error explaining how to fall back to pipes. */
export function loadNodePty(): NodePtyModule {
  if (nodePty) return nodePty
  try {
    nodePty = createRequire(import.meta.url)('@lydell/node-pty') as NodePtyModule
    return nodePty
  } catch (error) {
    throw new Error(
      `PTY mode is unavailable on this machine (${(error as Error).message.split('\n')[0]}); ` +
        'run without a terminal with --no-pty or agent.pty: false in proctor.yml',
      { cause: error },
    )
  }
}

/** node-pty internals we rely on for the tail fix; absent on Windows (then we simply skip it). */
interface UnixTerminalInternals {
  _fd?: number
  _socket?: NodeJS.ReadableStream & {
    destroy(error?: Error): unknown
    on(event: 'end', cb: () => void): unknown
    _handle?: unknown
  }
}

const DRAIN_CHUNK = 64 * 1024

export function spawnPty(opts: AdapterOptions): ChildAdapter {
  const pty = loadNodePty()
  const env = { ...opts.env }
  const term = pty.spawn(opts.file, opts.args, {
    name: env.TERM ?? 'xterm-256color',
    cols: opts.cols,
    rows: opts.rows,
    cwd: opts.cwd,
    env,
    // null: raw Buffers, so multi-byte characters split across reads are never mangled.
    encoding: null,
  })
  const internals = term as unknown as UnixTerminalInternals
  let masterDone = false

  const deliver = (chunk: Buffer): void => {
    if (chunk.length > 0) opts.onOutput(chunk, 'pty')
  }

  const drainMaster = (): void => {
    const fd = internals._fd
    if (masterDone || typeof fd !== 'number' || process.platform === 'win32') return
    const buffer = Buffer.allocUnsafe(DRAIN_CHUNK)
    for (;;) {
      let n: number
      try {
        n = readSync(fd, buffer, 0, DRAIN_CHUNK, null)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        // EAGAIN: the slave is still open elsewhere, nothing buffered right now; the stream keeps reading.
        if (code !== 'EAGAIN') masterDone = true
        return
      }
      if (n === 0) {
        masterDone = true
        return
      }
      deliver(Buffer.from(buffer.subarray(0, n)))
    }
  }

  const socket = internals._socket
  // node-pty's socket keeps the handle (input is written through it) and its 'error'/'close' handlers,
  // which end the terminal; the reads move to a socket of our own that forwards its end to it.
  // (POSIX only: the master is one fd there; Windows' conpty sockets are left as node-pty reads them.)
  const reader =
    opts.reuseBuffer && socket && process.platform !== 'win32'
      ? readIntoReusedBuffer(socket as unknown as Readable, { onData: deliver, shareHandle: true })
      : null
  if (!reader) {
    term.onData((data: string | Buffer) => deliver(typeof data === 'string' ? Buffer.from(data) : data))
  }
  if (socket) {
    ;(reader ?? socket).on('end', drainMaster)
    const destroy = socket.destroy.bind(socket)
    socket.destroy = (error?: Error) => {
      drainMaster()
      if (reader) {
        // node-pty gave up waiting for the end (200 ms after the exit): the reads stop too, and its
        // socket lets go of the handle the reader closed, or it would wait for that close forever.
        reader.destroy()
        socket._handle = null
      }
      return destroy(error)
    }
  }
  if (reader && socket) {
    const destroyReader = reader.destroy.bind(reader)
    reader.destroy = (error?: Error) => {
      drainMaster()
      // Destroying closes the master: from now on its fd number may belong to another file.
      masterDone = true
      return destroyReader(error)
    }
    // EIO (the terminal's last process closed it) or an end: node-pty's socket closes as it would have
    // when reading itself, without an error (its handler throws anything but EIO), and the exit follows.
    reader.on('error', () => undefined)
    reader.on('close', () => socket.destroy())
  }

  const leaderExit = new Promise<LeaderExit>((resolve) => {
    // node-pty fires onExit after its socket closed (or 200 ms after the exit), i.e. after output.
    term.onExit(({ exitCode, signal }) => {
      drainMaster()
      masterDone = true
      const name = signal ? signalName(signal) : null
      resolve(name ? { exitCode: null, signal: name } : { exitCode, signal: null })
    })
  })

  return {
    pid: term.pid,
    leaderExit,
    outputEnd: leaderExit.then(() => undefined),
    abandonOutput: () => undefined,
    write(data) {
      if (masterDone) return Promise.resolve(notDelivered)
      try {
        // The unix socket takes Buffers as they are (the typings say string); Windows needs text.
        const bytes = typeof data !== 'string' && process.platform === 'win32' ? data.toString('utf8') : data
        ;(term.write as (input: string | Buffer) => void).call(term, bytes)
        return Promise.resolve({ delivered: true })
      } catch {
        // The terminal closed between the check and the write; writes after exit are no-ops.
        return Promise.resolve(notDelivered)
      }
    },
    resize(cols, rows) {
      if (masterDone) return
      try {
        term.resize(cols, rows)
      } catch {
        // Resizing a terminal whose child just exited throws EBADF; nothing to resize any more.
      }
    },
  }
}
