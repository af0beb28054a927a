// Reading a child's output into one reused buffer. A socket that child_process or node-pty creates
// allocates a fresh Buffer for every read and passes it through the Readable machinery: in a 25 MB flood
// that is thousands of 64 KiB allocations that stay in the process until V8 collects them (tens of MB of
// peak RSS) and more CPU than proctor's own work on the bytes. Node's `onread` option reads into a
// buffer the caller owns instead, but only for a socket it constructs: so the handle of the socket
// child_process or node-pty made moves to a new socket built with it.
import net from 'node:net'
import type { Readable } from 'node:stream'

/** The reads' buffer: the most a pipe holds (64 KiB on Linux); a PTY read returns far less. */
export const READ_BUFFER_BYTES = 64 * 1024

/** The private part of a net.Socket used here: its libuv stream handle. */
interface SocketInternals {
  _handle?: { useUserBuffer?: unknown; readStart?: unknown; reading?: boolean } | null
}

export interface ReuseOptions {
  /**
   * Each read, as a view of the one buffer: valid only during the call (the next read overwrites it),
   * so a consumer that keeps bytes copies them.
   */
  onData: (chunk: Buffer) => void
  /**
   * Whether `stream` keeps its handle (a PTY writes the agent's input through it) or hands it over
   * (a pipe that is only read): an old socket without a handle cannot touch it again.
   */
  shareHandle: boolean
}

/**
 * Moves the reading of `stream` to a new socket that reads into one buffer of READ_BUFFER_BYTES, and
 * returns it (it emits 'end', 'error' and 'close' as the old one would have; it never emits 'data').
 * Returns null — nothing changed, read `stream` as usual — when this Node's sockets do not expose what
 * this needs. Call synchronously after the spawn, before any read was delivered.
 */
export function readIntoReusedBuffer(stream: Readable, opts: ReuseOptions): net.Socket | null {
  const internals = stream as unknown as SocketInternals
  const handle = internals._handle
  if (!handle || typeof handle.useUserBuffer !== 'function' || typeof handle.readStart !== 'function') {
    return null
  }
  const buffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES)
  if (!opts.shareHandle) internals._handle = null
  // The handle's reads now go to this socket (its onread and owner are replaced); if the old socket
  // already started reading, this one carries on, otherwise it starts.
  const options: net.SocketConstructorOpts = {
    // A pipe or TTY handle, not the BoundSocket the typings name: the constructor takes any stream handle.
    handle: handle as net.SocketConstructorOpts['handle'],
    readable: true,
    writable: false,
    onread: {
      buffer,
      callback: (bytes: number) => {
        opts.onData(buffer.subarray(0, bytes))
        // Keep reading: the consumer copies what it keeps, so the buffer is free again.
        return true
      },
    },
  }
  return new net.Socket(options)
}
