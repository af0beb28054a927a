// What a checkpoint needs to know about a repository that git keeps in plain files, read without starting
// git: each git process forks proctor (tens of MB of page tables copied per fork), and a one-shot
// `proctor checkpoints create` or a batch child would otherwise start several just to ask where the git
// dir is or whether the user's index hides entries. Anything unusual returns null and the caller asks git.
// Every file here is one the agent can write (or replace with a FIFO): each is read with readRegularFile,
// which never blocks and refuses anything but a regular file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { readRegularFile, type FileError } from '../util/safe-file.js'

/** More than any .git file, HEAD, config or packed-refs proctor reads this way should hold. */
const SMALL_FILE_BYTES = 16 * 1024 * 1024
/** An index of a very large repository still fits; beyond it, git answers instead. */
const INDEX_BYTES = 1024 * 1024 * 1024

function readSmall(file: string): string {
  return readRegularFile(file, SMALL_FILE_BYTES).toString('latin1')
}

export interface GitDirs {
  /** The worktree's own git dir (`.git`, or `.git/worktrees/<name>` of a linked worktree). */
  gitDir: string
  /** Where shared files live (objects, refs, info/, config): the main repository's `.git`. */
  commonDir: string
}

/**
 * The git dirs of the worktree whose top level is `root`, as `git rev-parse --git-dir --git-common-dir`
 * gives them; null when `.git` is neither a directory nor a `gitdir:` link, or the config moves the
 * worktree (core.worktree) or makes the repository bare: then only git can say.
 */
export function readGitDirs(root: string): GitDirs | null {
  try {
    const dotGit = path.join(root, '.git')
    const stat = fs.lstatSync(dotGit)
    let gitDir: string
    if (stat.isDirectory()) gitDir = dotGit
    else if (stat.isFile()) {
      const match = /^gitdir: (.+)$/m.exec(readRegularFile(dotGit, SMALL_FILE_BYTES).toString('utf8'))
      if (!match) return null
      gitDir = path.resolve(root, match[1]!.trim())
    } else return null
    if (!fs.statSync(path.join(gitDir, 'HEAD')).isFile()) return null
    let commonDir = gitDir
    try {
      commonDir = path.resolve(
        gitDir,
        readRegularFile(path.join(gitDir, 'commondir'), SMALL_FILE_BYTES).toString('utf8').trim(),
      )
    } catch {
      // No commondir: not a linked worktree.
    }
    for (const config of [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')]) {
      let text = ''
      try {
        text = readRegularFile(config, SMALL_FILE_BYTES).toString('utf8')
      } catch (error) {
        // Absent: nothing moves the worktree. Anything else (a FIFO, unreadable): only git can say.
        if ((error as FileError).code === 'ENOENT') continue
        return null
      }
      if (/^\s*worktree\s*=|^\s*bare\s*=\s*(true|yes|on|1)\s*$/im.test(text)) return null
    }
    return { gitDir, commonDir }
  } catch {
    return null
  }
}

export interface IndexSummary {
  /** Assume-unchanged or skip-worktree entries: their stat data cannot be trusted. */
  hidden: boolean
  /**
   * The root tree id of a valid cache-tree (the TREE extension): the index holds exactly this tree.
   * Null when there is none, it is invalid, or anything in the file (unmerged or intent-to-add entries,
   * a split or sparse index, untracked cache, fsmonitor data) means it cannot be relied on.
   */
  tree: string | null
  /**
   * The root tree id of a valid cache-tree whatever else the file holds (untracked cache, fsmonitor data,
   * intent-to-add entries, which the cache-tree leaves out): the tree of the index's content, for a caller
   * that does not use the file as it is (git status says whether that content is HEAD's).
   */
  cacheTree: string | null
}

/** Extensions that change nothing about what the entries say (cache-tree, resolve-undo, offset tables). */
const PLAIN_EXTENSIONS = new Set(['TREE', 'REUC', 'EOIE', 'IEOT'])

/**
 * Reads the flags of every entry of an index file (versions 2 to 4) and its cache-tree root. `hashBytes`
 * is 20 for SHA-1 repositories, 32 for SHA-256. Null when the file is missing or not understood.
 */
export function readIndexSummary(file: string, hashBytes: number): IndexSummary | null {
  let buf: Buffer
  try {
    buf = readRegularFile(file, INDEX_BYTES)
  } catch {
    return null
  }
  if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC') return null
  const version = buf.readUInt32BE(4)
  if (version < 2 || version > 4) return null
  const count = buf.readUInt32BE(8)
  const end = buf.length - hashBytes
  const flagsAt = 40 + hashBytes
  let offset = 12
  let hidden = false
  let plain = true
  for (let i = 0; i < count; i++) {
    if (offset + flagsAt + 2 > end) return null
    const flags = buf.readUInt16BE(offset + flagsAt)
    let nameAt = offset + flagsAt + 2
    if (flags & 0x8000) hidden = true
    if (flags & 0x3000) plain = false // a conflict stage
    if (flags & 0x4000) {
      if (version < 3) return null
      const extended = buf.readUInt16BE(nameAt)
      if (extended & 0x4000) hidden = true // skip-worktree
      if (extended & 0x2000) plain = false // intent-to-add
      nameAt += 2
    }
    if (version === 4) {
      while (nameAt < end && buf[nameAt]! & 0x80) nameAt++
      nameAt++
    }
    const nul = buf.indexOf(0, nameAt)
    if (nul < 0 || nul >= end) return null
    offset = version === 4 ? nul + 1 : offset + ((nameAt - offset + (nul - nameAt) + 8) & ~7)
  }
  let tree: string | null = null
  while (offset + 8 <= end) {
    const signature = buf.toString('latin1', offset, offset + 4)
    const size = buf.readUInt32BE(offset + 4)
    const data = offset + 8
    if (data + size > end) return null
    if (!PLAIN_EXTENSIONS.has(signature)) plain = false
    if (signature === 'TREE' && buf[data] === 0) {
      const newline = buf.indexOf(10, data + 1)
      const counts = newline > 0 ? buf.toString('latin1', data + 1, newline).split(' ') : []
      const entries = Number(counts[0])
      if (entries === count && newline + 1 + hashBytes <= data + size) {
        tree = buf.toString('hex', newline + 1, newline + 1 + hashBytes)
      }
    }
    offset = data + size
  }
  if (offset !== end) return null
  return { hidden, tree: plain ? tree : null, cacheTree: tree }
}

/**
 * Where git looks for global and system config, whether or not the files exist yet: `GIT_CONFIG_GLOBAL`
 * or ~/.gitconfig and $XDG_CONFIG_HOME/git/config; `GIT_CONFIG_SYSTEM` or the places distributions and
 * source builds (prefix /usr/local, Homebrew) compile the system file in, unless `GIT_CONFIG_NOSYSTEM`.
 * `env` is the environment git runs with.
 */
export function globalConfigFiles(env: (key: string) => string | undefined): string[] {
  const home = env('HOME') || os.homedir()
  const files: string[] = []
  const global = env('GIT_CONFIG_GLOBAL')
  if (global !== undefined) files.push(global)
  else
    files.push(
      path.join(home, '.gitconfig'),
      path.join(env('XDG_CONFIG_HOME') || path.join(home, '.config'), 'git', 'config'),
    )
  const noSystem = env('GIT_CONFIG_NOSYSTEM')
  if (!noSystem || /^(0|false|no|off)$/i.test(noSystem)) {
    const system = env('GIT_CONFIG_SYSTEM')
    files.push(
      ...(system !== undefined
        ? [system]
        : ['/etc/gitconfig', '/usr/local/etc/gitconfig', '/opt/homebrew/etc/gitconfig']),
    )
  }
  return files
}

/**
 * Whether `ref` (a full name such as `refs/proctor/x`) may exist in the repository whose common dir is
 * `commonDir`: false only when the files backend certainly has it neither as a loose file nor in
 * packed-refs. A reftable repository, or anything unreadable, says it may (the caller then asks git).
 */
export function refMayExist(commonDir: string, ref: string): boolean {
  const missing = (error: unknown): boolean => {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
  }
  try {
    fs.lstatSync(path.join(commonDir, 'reftable'))
    return true
  } catch (error) {
    if (!missing(error)) return true
  }
  try {
    fs.lstatSync(path.join(commonDir, ref))
    return true
  } catch (error) {
    if (!missing(error)) return true
  }
  let packed: string
  try {
    packed = readSmall(path.join(commonDir, 'packed-refs'))
  } catch (error) {
    return !missing(error)
  }
  // "<oid> <ref>\n" lines; a ref name holds no space or newline.
  return packed.includes(` ${ref}\n`) || packed.endsWith(` ${ref}`)
}

/**
 * The commit a detached HEAD names (`<oid>` alone in `<gitDir>/HEAD`); null for a symbolic HEAD
 * (`ref: …`), a missing or unreadable file: then only git can say what HEAD is.
 */
export function readDetachedHead(gitDir: string): string | null {
  let text: string
  try {
    text = readSmall(path.join(gitDir, 'HEAD')).trim()
  } catch {
    return null
  }
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text) ? text : null
}
