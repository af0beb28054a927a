// Where does a symlink in the worktree point? The target string comes from git (what the checkpoint
// stores). Components are resolved the way the kernel does: left to right, and when the worktree
// holds a further link on the way, it is followed before a later ".." applies, so a chain
// (`a -> d/../x` with `d -> /etc`) cannot hide an escape behind a lexically harmless target.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { posix } from 'node:path'

export interface SymlinkEscape {
  /** Where the link leads: an absolute path, a path starting with "../" (relative to the repo root), or ".git/...". */
  resolved: string
  /** The in-worktree link through which a chain escapes, when it is not the link itself. */
  via?: string
  reason: 'outside' | 'git_dir'
}

/** Links followed before giving up, like the kernel's ELOOP limit; a loop never reaches outside. */
const MAX_HOPS = 40

/**
 * Returns how the link at repo-relative `linkPath` with `target` escapes `worktree`, or null when it
 * stays inside (dangling links inside the worktree are harmless). With `followChains: false` the
 * verdict is purely lexical and the disk is not read.
 */
export function findSymlinkEscape(
  linkPath: string,
  target: string,
  worktree: string,
  options: { followChains?: boolean } = {},
): SymlinkEscape | null {
  const roots = worktreeRoots(worktree)
  let onDisk = options.followChains !== false
  let via: string | undefined
  let hops = 0

  const start = startOf(posix.dirname(linkPath), target, roots)
  if ('escape' in start) return start.escape
  let { stack, queue } = start

  while (queue.length > 0) {
    const part = queue.shift()!
    if (part === '..') {
      if (stack.length === 0) {
        return {
          resolved: posix.normalize(['..', ...queue].join('/')),
          reason: 'outside',
          ...(via ? { via } : {}),
        }
      }
      stack.pop()
      continue
    }
    const candidate = [...stack, part].join('/')
    const link = onDisk ? readLinkAt(posix.join(worktree, candidate)) : null
    if (link === undefined) onDisk = false // missing: the rest cannot be links, finish lexically
    if (typeof link !== 'string') {
      stack.push(part)
      continue
    }
    if (++hops > MAX_HOPS) return null
    via = candidate
    const next = startOf(stack.join('/'), link, roots)
    if ('escape' in next) return { ...next.escape, via }
    stack = next.stack
    queue = [...next.queue, ...queue]
  }

  if (stack[0] === '.git') return { resolved: stack.join('/'), reason: 'git_dir', ...(via ? { via } : {}) }
  return null
}

type Start = { escape: SymlinkEscape } | { stack: string[]; queue: string[] }

/**
 * Where resolution of `target` begins: the link's own directory, or the root for absolute targets
 * that name a path inside the worktree (their remaining components still go through the walk).
 */
function startOf(linkDir: string, target: string, roots: string[]): Start {
  if (/^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\\\')) {
    return { escape: { resolved: target, reason: 'outside' } }
  }
  if (!target.startsWith('/')) return { stack: split(linkDir), queue: split(target) }
  const prefixed = roots.find((r) => target === r || target.startsWith(`${r}/`))
  if (prefixed !== undefined) return { stack: [], queue: split(target.slice(prefixed.length)) }
  const absolute = posix.normalize(target)
  const root = roots.find((r) => absolute === r || absolute.startsWith(`${r}/`))
  if (root === undefined) return { escape: { resolved: absolute, reason: 'outside' } }
  return { stack: [], queue: split(absolute.slice(root.length)) }
}

function split(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.')
}

/** The link's target, null when the path is not a link, undefined when it does not exist. */
function readLinkAt(path: string): string | null | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return null
    return readlinkSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The worktree as given and as the OS spells it (e.g. /var vs /private/var on macOS). */
function worktreeRoots(worktree: string): string[] {
  const given = posix.normalize(worktree).replace(/\/+$/, '')
  try {
    const real = realpathSync(worktree).replace(/\/+$/, '')
    return real === given ? [given] : [given, real]
  } catch {
    return [given]
  }
}
