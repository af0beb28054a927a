// Files in places the agent can write (.proctor/, the repository's proctor.yml): opened so that nothing
// there can block proctor or redirect its writes. A FIFO blocks a plain open() until somebody opens the
// other end (forever, if the agent never does), a symlink sends a write wherever the agent likes, and
// /dev/zero never ends a read. So: every open is non-blocking and followed by fstat (a regular file or
// an error naming the path), writes go to a fresh exclusive temp file renamed over the target (rename
// replaces a FIFO or a symlink itself, never what it points to), and reads are capped.
import fs from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { randomHex } from './random.js'

const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY } = fs.constants

/** A file proctor could not read or write, with the path and what to do in the message. */
export class FileError extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly code?: string,
  ) {
    super(message)
    this.name = 'FileError'
  }
}

/** What a path is, in words, for messages ("a FIFO", "a directory"). */
export function describeKind(stats: fs.Stats): string {
  if (stats.isFile()) return 'a regular file'
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO (named pipe)'
  if (stats.isSymbolicLink()) return 'a symbolic link'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  return 'not a regular file'
}

/** The one-line reason for an fs error: "no space left on device (ENOSPC)" rather than a stack. */
export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException
  const words: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOENT: 'no such file or directory',
    ELOOP: 'too many levels of symbolic links (a symlink loop, or a symlink where none is allowed)',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent is not a directory',
    ENXIO: 'a FIFO with no reader',
    EIO: 'input/output error',
  }
  if (e?.code && words[e.code]) return `${words[e.code]} (${e.code})`
  return (e?.message ?? String(error)).split('\n')[0]!
}

/**
 * Reads `path` (symlinks followed: a proctor.yml may be a link) without blocking on a FIFO or device and
 * without reading more than `maxBytes`. Throws FileError when it is missing, not a regular file, too
 * large or unreadable.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  let fd: number
  try {
    fd = fs.openSync(path, O_RDONLY | O_NONBLOCK)
  } catch (error) {
    throw new FileError(
      path,
      `cannot open ${path}: ${describeFsError(error)}`,
      (error as NodeJS.ErrnoException).code,
    )
  }
  try {
    const stats = fs.fstatSync(fd)
    if (!stats.isFile()) throw new FileError(path, `${path} is ${describeKind(stats)}, not a regular file`)
    if (stats.size > maxBytes)
      throw new FileError(path, `${path} is ${stats.size} bytes, more than the ${maxBytes} proctor reads`)
    // Read up to one byte past the cap: a file that grows while it is read is still refused. The buffer
    // starts at the file's size (a cap may be large: an index), growing only if the file does.
    let buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1)
    let length = 0
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1))
        buffer.copy(larger, 0, 0, length)
        buffer = larger
      }
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null)
      if (n === 0) break
      length += n
      if (length > maxBytes)
        throw new FileError(path, `${path} is more than the ${maxBytes} bytes proctor reads`)
    }
    return buffer.subarray(0, length)
  } catch (error) {
    if (error instanceof FileError) throw error
    throw new FileError(
      path,
      `cannot read ${path}: ${describeFsError(error)}`,
      (error as NodeJS.ErrnoException).code,
    )
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Replaces `path` with `data` atomically: a fresh temp file beside it (O_EXCL, random name: nothing the
 * agent planted is opened), then rename over the target, which replaces a FIFO or a symlink there instead
 * of opening it. A reader sees the old file or the whole new one, never a torn or empty one. On failure
 * (a full disk) the temp file is removed and a FileError names the path and the reason.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomHex(6)}.tmp`)
  let fd: number | null = null
  try {
    fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, mode)
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    let offset = 0
    while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset)
    fs.closeSync(fd)
    fd = null
    fs.renameSync(temp, path)
  } catch (error) {
    if (fd !== null) fs.closeSync(fd)
    fs.rmSync(temp, { force: true })
    throw new FileError(
      path,
      `cannot write ${path}: ${describeFsError(error)}`,
      (error as NodeJS.ErrnoException).code,
    )
  }
}

/**
 * Opens `path` for appending (created if missing; emptied first with `truncate`) without following a
 * symlink and without blocking on a FIFO; anything there that is not a regular file is replaced by an
 * empty one first. Returns the fd.
 */
export function openAppendRegular(path: string, opts: { truncate?: boolean } = {}): number {
  const flags = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | (opts.truncate ? O_TRUNC : 0)
  let stats: fs.Stats | null = null
  try {
    stats = fs.lstatSync(path)
  } catch {
    // Nothing there yet.
  }
  if (stats && !stats.isFile()) writeFileAtomic(path, '')
  let fd: number
  try {
    fd = fs.openSync(path, flags, 0o644)
  } catch (error) {
    throw new FileError(
      path,
      `cannot open ${path}: ${describeFsError(error)}`,
      (error as NodeJS.ErrnoException).code,
    )
  }
  // Swapped between the lstat and the open: refuse rather than write into whatever it is.
  const opened = fs.fstatSync(fd)
  if (!opened.isFile()) {
    fs.closeSync(fd)
    throw new FileError(path, `${path} is ${describeKind(opened)}, not a regular file`)
  }
  return fd
}
