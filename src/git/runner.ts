// THE one git runner: every git process proctor starts goes through `Git.exec` (one-shot calls) or
// `Git.stream` (the two long-lived processes a checkpointing session talks to, stream.ts). Argv arrays only (no
// shell), a sanitized environment, our `-c` settings, `GIT_INDEX_FILE` only per call for a private index,
// NUL-separated output, and errors that carry the argv, exit code and stderr tail.
//
// The process itself is started by exec.ts (node:child_process, argv array, stdin always closed, the
// result read on 'close' so every byte has arrived); the runner's limiter (p-limit) bounds how many run.
import path from 'node:path'
import pLimit, { type LimitFunction } from 'p-limit'

import { configEnv } from './credentials.js'
import { GitDeadline } from './deadline.js'
import { BASE_CONFIG, FALLBACK_IDENTITY, PRIVATE_INDEX_CONFIG, sanitizedGitEnv } from './env.js'
import { GitError, RefMovedError, tail } from './errors.js'
import { runGit, runGitSync, type GitBufferResult, type GitInvocation } from './exec.js'
import { GitStream } from './stream.js'
import { isolatedEnv, isolationMode, makeIsolation, type Isolation, type IsolationMode } from './isolation.js'
import {
  parseCheckAttrZ,
  parseLsFilesStageZ,
  parseLsTreeLongZ,
  parsePushPorcelain,
  parseRawNumstatZ,
  parseStatusZ,
  splitNul,
  type LsFilesStageEntry,
  type LsTreeEntry,
  type NumstatEntry,
  type PushRefResult,
  type RawDiffEntry,
  type StatusEntry,
} from './nul.js'

export interface GitCallOptions {
  /** Run against this private index (sets GIT_INDEX_FILE for this call only). */
  indexFile?: string
  /** Written to stdin, then stdin is closed. */
  input?: string | Buffer
  /** Exit codes that are answers, not failures (e.g. 1 for `rev-parse --verify -q`). */
  okExitCodes?: readonly number[]
  /** Extra environment for this call (added after sanitizing). */
  env?: Record<string, string>
  /** Extra `-c key=value` settings for this call. */
  config?: readonly string[]
  /**
   * Settings that hold a secret (a credential header): passed as GIT_CONFIG_* environment entries of this
   * one process, never as argv (readable by every process) nor written to .git/config.
   */
  secretConfig?: readonly [string, string][]
  /** Options placed before the subcommand (e.g. `--no-optional-locks`). */
  globalArgs?: readonly string[]
  cwd?: string
  /** Kill git after this long (network commands); no limit by default. */
  timeoutMs?: number
  /**
   * Sees stdout as it arrives (a long `update-index --verbose` reports each path it has hashed), before
   * the whole output is returned as usual.
   */
  onStdout?: (chunk: Buffer) => void
}

export interface GitResult {
  stdout: string
  stderr: string
  exitCode: number
}

export interface GitRunnerOptions {
  /** Directory git runs in (normally the repository root). */
  cwd: string
  /** Upper bound on concurrent git processes started by this runner. */
  maxConcurrent?: number
  /** Base environment to sanitize; defaults to process.env. */
  env?: NodeJS.ProcessEnv
  /** The git executable; defaults to `git` on PATH. */
  binary?: string
  /**
   * Run each git to completion before returning (runGitSync), for a process with nothing else to do
   * meanwhile: a one-shot `proctor checkpoints create`. Never in a session (it would stall the agent's
   * output). Its callers start no long-lived git (stream) with it: the checkpoint store reads
   * `synchronous` and makes plain calls instead.
   */
  synchronous?: boolean
}

export interface PushOptions {
  timeoutMs?: number
  /** Secret settings (a credential) for this push only; see GitCallOptions.secretConfig. */
  secretConfig?: readonly [string, string][]
  /** Extra arguments such as `--atomic`; never `--force` (proctor only fast-forwards). */
  extraArgs?: readonly string[]
}

export interface PushOutcome {
  ok: boolean
  exitCode: number
  refs: PushRefResult[]
  stderr: string
}

export interface CommitIdent {
  /** `Name <email>` */
  name: string
  /** `<seconds> <+hhmm>` when GIT_*_DATE pins it; null: the time of each commit. */
  date: string | null
}

export interface CommitIdents {
  author: CommitIdent
  committer: CommitIdent
}

export interface CommitObject {
  oid: string
  tree: string
  /** The message as stored (what `git log --format=%B` prints). */
  message: string
}

export interface CatFileInfo {
  type: string
  size: number
}

const ZERO_OID_SHA1 = '0000000000000000000000000000000000000000'
const ARG_CHUNK = 2000
/**
 * Commands that talk to a remote: they have their own timeouts (checkpoints.push_timeout) and may
 * rightly take long on a slow network; the deadline (deadline.ts) is for calls that read the worktree.
 */
const NETWORK_COMMANDS = new Set(['push', 'fetch', 'ls-remote', 'clone'])

export class Git {
  readonly cwd: string
  private readonly binary: string
  private readonly env: Record<string, string>
  private readonly maxConcurrent: number
  /** Bounds how many gits run at once; made at the first asynchronous call (see exec). */
  private limiter: LimitFunction | undefined
  /** See GitRunnerOptions.synchronous. */
  readonly synchronous: boolean
  private identity: Promise<{ env: Record<string, string>; idents: CommitIdents }> | undefined
  private emptyTreeSha: Promise<string> | undefined
  /** proctor's own config and shadow git dir (isolation.ts), made at the first call. */
  private isolation: Promise<Isolation | null> | undefined
  private isolated: Isolation | null = null
  /** Isolations by directory, shared with the runners at() makes: one per worktree, not one per call. */
  private isolations = new Map<string, Promise<Isolation | null>>()
  /**
   * When every call but a network one is killed (deadline.ts): nothing the agent plants where git reads
   * may block proctor. Shared with the runners at() makes; a session moves its end.
   */
  deadline = new GitDeadline()

  constructor(options: GitRunnerOptions) {
    this.cwd = path.resolve(options.cwd)
    this.binary = options.binary ?? 'git'
    this.env = sanitizedGitEnv(options.env ?? process.env)
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 6)
    this.synchronous = options.synchronous === true
  }

  /** A runner for another directory (a worktree, a bare remote) with the same settings. */
  at(cwd: string): Git {
    const other = new Git({
      cwd,
      binary: this.binary,
      maxConcurrent: this.maxConcurrent,
      env: {},
      synchronous: this.synchronous,
    })
    Object.assign(other.env, this.env)
    other.isolations = this.isolations
    other.deadline = this.deadline
    return other
  }

  /** A variable of the environment git runs with (after sanitizing), e.g. GIT_CONFIG_GLOBAL. */
  envValue(key: string): string | undefined {
    return this.env[key]
  }

  /** The escape hatch: any git command, text output. Throws GitError unless the exit code is 0 or allowed. */
  async raw(args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> {
    const result = await this.exec(args, options)
    return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, exitCode: result.exitCode }
  }

  /** Like raw, with stdout as bytes (blob contents). */
  async exec(args: readonly string[], options: GitCallOptions = {}): Promise<GitBufferResult> {
    // A synchronous runner's gits run one at a time by construction, each to completion inside this call:
    // the limiter would add nothing but its promise hops, and its cold first call was ~0.7 ms of a one-shot
    // `checkpoints create` before its first git.
    if (this.synchronous) return this.spawnGit(args, options)
    this.limiter ??= pLimit(this.maxConcurrent)
    return this.limiter(() => this.spawnGit(args, options))
  }

  // ---- repository facts -------------------------------------------------------------------------

  /** The commit/object a revision names, or null when it does not resolve. */
  async revParse(rev: string): Promise<string | null> {
    const result = await this.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], {
      okExitCodes: [1],
    })
    return result.exitCode === 0 ? result.stdout.trim() : null
  }

  /** HEAD's commit, or null on an unborn branch. */
  headCommit(): Promise<string | null> {
    return this.revParse('HEAD^{commit}')
  }

  async topLevel(): Promise<string> {
    return (await this.raw(['rev-parse', '--show-toplevel'])).stdout.replace(/\n$/, '')
  }

  /** Absolute path of a file inside this worktree's git dir (`--git-path`, so linked worktrees work). */
  async gitPath(name: string): Promise<string> {
    const out = (await this.raw(['rev-parse', '--git-path', name])).stdout.replace(/\n$/, '')
    return path.resolve(this.cwd, out)
  }

  /** Absolute per-worktree git dir. */
  async gitDir(): Promise<string> {
    const out = (await this.raw(['rev-parse', '--git-dir'])).stdout.replace(/\n$/, '')
    return path.resolve(this.cwd, out)
  }

  async isShallow(): Promise<boolean> {
    return (await this.raw(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true'
  }

  /** The all-zero object id of this repository's hash algorithm (sha1 or sha256). */
  async zeroOid(): Promise<string> {
    return '0'.repeat((await this.emptyTree()).length) || ZERO_OID_SHA1
  }

  /** The id of the empty tree in this repository's hash algorithm. */
  emptyTree(): Promise<string> {
    this.emptyTreeSha ??= this.raw(['hash-object', '-t', 'tree', '--stdin'], { input: '' }).then((r) =>
      r.stdout.trim(),
    )
    return this.emptyTreeSha
  }

  async remotes(): Promise<string[]> {
    return (await this.raw(['remote'])).stdout.split('\n').filter((line) => line !== '')
  }

  async configGet(key: string): Promise<string | null> {
    const result = await this.raw(['config', '--get', '--', key], { okExitCodes: [1] })
    return result.exitCode === 0 ? result.stdout.replace(/\n$/, '') : null
  }

  // ---- index and tree plumbing (always on a private index) --------------------------------------

  /** Load a tree into the private index: `--reset` keeps stat data of matching entries; null = empty. */
  async readTree(
    indexFile: string,
    treeish: string | null,
    options: { reset?: boolean } = {},
  ): Promise<void> {
    const args = ['read-tree']
    if (treeish === null) args.push('--empty')
    else {
      if (options.reset) args.push('--reset')
      args.push(treeish)
    }
    await this.raw(args, { indexFile })
  }

  /**
   * `add -A` of the whole worktree into the private index, honouring .gitignore. Excluded paths are
   * passed as literal exclude pathspecs through stdin, so no path is ever parsed as an option or glob.
   */
  async addAll(indexFile: string, options: { exclude?: readonly string[] } = {}): Promise<void> {
    const specs = [':(top)', ...(options.exclude ?? []).map((p) => `:(top,literal,exclude)${p}`)]
    await this.raw(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      indexFile,
      input: specs.join('\0') + '\0',
    })
  }

  /** Remove paths from the private index only (the files stay). */
  async removeCached(indexFile: string, paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return
    await this.raw(
      ['rm', '--cached', '-r', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
      {
        indexFile,
        input: paths.map((p) => `:(top,literal)${p}`).join('\0') + '\0',
      },
    )
  }

  async writeTree(indexFile: string): Promise<string> {
    return (await this.raw(['write-tree'], { indexFile })).stdout.trim()
  }

  /** Create a commit object; identity falls back to proctor's only when the user has none. */
  async commitTree(tree: string, parents: readonly string[], message: string): Promise<string> {
    const args = ['commit-tree', '--no-gpg-sign']
    for (const parent of parents) args.push('-p', parent)
    args.push('-F', '-', tree)
    if (!this.identity) {
      // Most users have an identity: try theirs first (git refuses to guess one under useConfigOnly, as
      // the probe does), and probe only when that fails, instead of two `git var` before every first commit.
      const first = await this.raw(args, {
        input: message,
        config: ['user.useConfigOnly=true'],
        okExitCodes: [128],
      })
      if (first.exitCode === 0) return first.stdout.trim()
    }
    const result = await this.raw(args, { input: message, env: await this.identityEnv() })
    return result.stdout.trim()
  }

  /**
   * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
   * Throws RefMovedError when someone else moved it.
   */
  async updateRefCas(ref: string, newSha: string, oldSha: string | null, reason = 'proctor'): Promise<void> {
    // The all-zero id is as long as the new one (sha1 or sha256): no process to learn the hash algorithm.
    const expected = oldSha ?? '0'.repeat(newSha.length)
    const args = ['update-ref', '-m', reason, '--end-of-options', ref, newSha, expected]
    const result = await this.exec(args, { okExitCodes: [1, 128] })
    if (result.exitCode !== 0) {
      const details = { args, cwd: this.cwd, exitCode: result.exitCode, signal: null, stderr: result.stderr }
      const current = await this.revParse(ref)
      if (current !== oldSha) throw new RefMovedError(ref, oldSha, details)
      throw new GitError(details)
    }
  }

  async deleteRef(ref: string, oldSha?: string): Promise<void> {
    const args = ['update-ref', '-d', '--end-of-options', ref]
    if (oldSha) args.push(oldSha)
    await this.raw(args)
  }

  /** Refs under a prefix with the objects they point at. */
  async forEachRef(prefix: string): Promise<{ ref: string; sha: string }[]> {
    const out = (await this.raw(['for-each-ref', '--format=%(objectname) %(refname)', '--', prefix])).stdout
    return out
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => ({ sha: line.slice(0, line.indexOf(' ')), ref: line.slice(line.indexOf(' ') + 1) }))
  }

  /** `ls-files -z` of the user's index (or a private one): tracked paths, or untracked with `others`. */
  async lsFiles(
    options: { indexFile?: string; others?: boolean; excludeStandard?: boolean; ignored?: boolean } = {},
  ): Promise<string[]> {
    const args = ['ls-files', '-z', '--full-name']
    if (options.others) args.push('--others')
    if (options.ignored) args.push('--ignored')
    if (options.excludeStandard) args.push('--exclude-standard')
    const call: GitCallOptions = {}
    if (options.indexFile) call.indexFile = options.indexFile
    return splitNul((await this.raw(args, call)).stdout)
  }

  async lsFilesStage(indexFile?: string): Promise<LsFilesStageEntry[]> {
    const call: GitCallOptions = {}
    if (indexFile) call.indexFile = indexFile
    return parseLsFilesStageZ((await this.raw(['ls-files', '-s', '-z', '--full-name'], call)).stdout)
  }

  /** Whether the index has assume-unchanged or skip-worktree entries (their stat data cannot be trusted). */
  async hasHiddenIndexEntries(indexFile?: string): Promise<boolean> {
    const call: GitCallOptions = {}
    if (indexFile) call.indexFile = indexFile
    const fields = splitNul((await this.raw(['ls-files', '-v', '-z'], call)).stdout)
    return fields.some((field) => /^[a-zS] /.test(field))
  }

  /**
   * The entries of `treeish`, or of the given paths (literal, from the top) in it, with mode, id and size:
   * every file below them, or with `recursive: false` git's listing without `-r` (a directory at the top is one
   * entry).
   */
  async lsTree(
    treeish: string,
    paths: readonly string[] = [],
    options: { recursive?: boolean } = {},
  ): Promise<LsTreeEntry[]> {
    const args = ['ls-tree', ...(options.recursive === false ? [] : ['-r'])]
    args.push('-z', '--long', '--full-tree', '--end-of-options', treeish)
    if (paths.length === 0) return parseLsTreeLongZ((await this.raw(args)).stdout)
    const entries: LsTreeEntry[] = []
    for (let i = 0; i < paths.length; i += ARG_CHUNK) {
      const chunk = paths.slice(i, i + ARG_CHUNK).map((p) => `:(top,literal)${p}`)
      entries.push(...parseLsTreeLongZ((await this.raw([...args, '--', ...chunk])).stdout))
    }
    return entries
  }

  /** Working-tree status without refreshing (or rewriting) the user's index. */
  async statusZ(options: { untracked?: 'all' | 'normal' | 'no' } = {}): Promise<StatusEntry[]> {
    const args = ['status', '--porcelain=v1', '-z', `--untracked-files=${options.untracked ?? 'all'}`]
    const result = await this.raw(args, { globalArgs: ['--no-optional-locks'] })
    return parseStatusZ(result.stdout)
  }

  /** Raw + numstat diff between two trees (or commits), renames detected. */
  async diffTreeZ(
    from: string,
    to: string,
    options: { renames?: boolean } = {},
  ): Promise<{ raw: RawDiffEntry[]; numstat: NumstatEntry[] }> {
    const args = [...diffTreeArgs(options), '--end-of-options', from, to]
    return parseRawNumstatZ((await this.raw(args)).stdout)
  }

  /**
   * diffTreeZ for several pairs of trees named by full object ids, in one process (`diff-tree --stdin`):
   * a checkpoint's diff since the previous one and since the baseline cost one git start, not two.
   */
  async diffTreesZ(
    pairs: readonly (readonly [string, string])[],
  ): Promise<{ raw: RawDiffEntry[]; numstat: NumstatEntry[] }[]> {
    if (pairs.some((pair) => pair.some((id) => !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(id)))) {
      throw new Error(`diffTreesZ takes full object ids: ${pairs.flat().join(' ')}`)
    }
    const headers = pairs.map(([from, to]) => `${from} ${to}\n`)
    const { stdout } = await this.raw([...diffTreeArgs(), '--stdin'], { input: headers.join('') })
    // Each pair's output follows its line, echoed as given; a pair's -z output ends with a NUL. A path
    // cannot hold the next line: that would be a tree id naming a tree that holds the path itself.
    const sections: { raw: RawDiffEntry[]; numstat: NumstatEntry[] }[] = []
    let at = 0
    headers.forEach((header, i) => {
      if (!stdout.startsWith(header, at)) throw new Error(`git diff-tree --stdin: unexpected output at ${at}`)
      at += header.length
      const next = headers[i + 1]
      let end = stdout.length
      if (next !== undefined) {
        end = stdout.startsWith(next, at) ? at : stdout.indexOf(`\0${next}`, at) + 1
        if (end === 0) throw new Error('git diff-tree --stdin: a pair is missing from its output')
      }
      sections.push(parseRawNumstatZ(stdout.slice(at, end)))
      at = end
    })
    return sections
  }

  /** Type and size of many objects in one process; null for objects that do not exist. */
  async catFileInfo(objects: readonly string[]): Promise<Map<string, CatFileInfo | null>> {
    const info = new Map<string, CatFileInfo | null>()
    if (objects.length === 0) return info
    const unique = [...new Set(objects)]
    const result = await this.raw(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
      input: unique.join('\n') + '\n',
    })
    const lines = result.stdout.split('\n')
    unique.forEach((object, i) => {
      const parts = (lines[i] ?? '').split(' ')
      info.set(
        object,
        parts[1] === 'missing' || parts.length < 3 ? null : { type: parts[1]!, size: Number(parts[2]) },
      )
    })
    return info
  }

  /**
   * Commits named by revisions (e.g. `HEAD^{commit}`), read in one `cat-file --batch`: id, tree and
   * message of each; null for a revision that does not name a commit.
   */
  async readCommits(revs: readonly string[]): Promise<(CommitObject | null)[]> {
    const result = await this.exec(['cat-file', '--batch'], { input: revs.join('\n') + '\n' })
    return parseBatchCommits(result.stdout, revs.length)
  }

  /**
   * The content of many blobs (object ids, or `<commit>:<path>` without a newline) in one `cat-file
   * --batch`; null for a name that is not a blob.
   */
  async readBlobs(revs: readonly string[]): Promise<(Buffer | null)[]> {
    if (revs.length === 0) return []
    const result = await this.exec(['cat-file', '--batch'], { input: revs.join('\n') + '\n' })
    return parseBatch(result.stdout, revs.length).map((o) => (o?.type === 'blob' ? o.content : null))
  }

  async catFileSize(object: string): Promise<number | null> {
    return (await this.catFileInfo([object])).get(object)?.size ?? null
  }

  async catFileBlob(object: string): Promise<Buffer> {
    return (await this.exec(['cat-file', 'blob', object])).stdout
  }

  /** The subset of `paths` that .gitignore (and info/exclude, core.excludesFile) ignores. */
  async checkIgnore(paths: readonly string[]): Promise<Set<string>> {
    const ignored = new Set<string>()
    for (let i = 0; i < paths.length; i += ARG_CHUNK) {
      const chunk = paths.slice(i, i + ARG_CHUNK)
      const result = await this.raw(['check-ignore', '-z', '--no-index', '--stdin'], {
        input: chunk.join('\0') + '\0',
        okExitCodes: [1],
      })
      for (const p of splitNul(result.stdout)) ignored.add(p)
    }
    return ignored
  }

  /** The value of one attribute for each path ("unspecified", "set", "unset" or the value). */
  async checkAttr(attr: string, paths: readonly string[], indexFile?: string): Promise<Map<string, string>> {
    const values = new Map<string, string>()
    for (let i = 0; i < paths.length; i += ARG_CHUNK) {
      const chunk = paths.slice(i, i + ARG_CHUNK)
      const call: GitCallOptions = { input: chunk.join('\0') + '\0' }
      if (indexFile) call.indexFile = indexFile
      const result = await this.raw(['check-attr', '-z', '--stdin', attr], call)
      for (const [p, value] of parseCheckAttrZ(result.stdout)) values.set(p, value)
    }
    return values
  }

  /**
   * Write index entries to the worktree (all, or the given paths) without touching the user's index.
   * `asStored`: the blobs' bytes as they are, without core.autocrlf/core.eol conversion.
   */
  async checkoutIndex(
    indexFile: string,
    paths: readonly string[] | 'all',
    options: { asStored?: boolean } = {},
  ): Promise<void> {
    const config = options.asStored ? ['core.autocrlf=false', 'core.eol=lf'] : []
    if (paths === 'all') {
      await this.raw(['checkout-index', '-a', '-f'], { indexFile, config })
      return
    }
    if (paths.length === 0) return
    await this.raw(['checkout-index', '-f', '-z', '--stdin'], {
      indexFile,
      config,
      input: paths.join('\0') + '\0',
    })
  }

  // ---- network and sharing -----------------------------------------------------------------------

  /** Push refspecs; never forces. A rejection is an outcome (ok=false), not a throw. */
  async push(remote: string, refspecs: readonly string[], options: PushOptions = {}): Promise<PushOutcome> {
    for (const spec of refspecs) {
      if (spec.startsWith('+')) throw new Error(`refusing to force-push ${spec}: proctor only fast-forwards`)
    }
    const args = [
      'push',
      '--porcelain',
      '--no-verify',
      ...(options.extraArgs ?? []),
      '--',
      remote,
      ...refspecs,
    ]
    const call: GitCallOptions = { okExitCodes: [1, 128] }
    if (options.timeoutMs) call.timeoutMs = options.timeoutMs
    if (options.secretConfig) call.secretConfig = options.secretConfig
    const result = await this.raw(args, call)
    const refs = parsePushPorcelain(result.stdout)
    const ok = result.exitCode === 0 && refs.every((r) => r.status !== 'rejected')
    return { ok, exitCode: result.exitCode, refs, stderr: result.stderr }
  }

  /** Fetch refspecs; with `depth` only that much history comes down (never unshallows). */
  async fetch(
    remote: string,
    refspecs: readonly string[],
    options: { depth?: number; timeoutMs?: number; secretConfig?: readonly [string, string][] } = {},
  ): Promise<GitResult> {
    const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules']
    if (options.depth) args.push(`--depth=${options.depth}`)
    args.push('--', remote, ...refspecs)
    const call: GitCallOptions = {}
    if (options.timeoutMs) call.timeoutMs = options.timeoutMs
    if (options.secretConfig) call.secretConfig = options.secretConfig
    return this.raw(args, call)
  }

  /** `git ls-remote` of one ref: its object id, or null when the remote lacks it. */
  async lsRemote(remote: string, ref: string, options: { timeoutMs?: number } = {}): Promise<string | null> {
    const call: GitCallOptions = {}
    if (options.timeoutMs) call.timeoutMs = options.timeoutMs
    const out = (await this.raw(['ls-remote', '--', remote, ref], call)).stdout
    const line = out.split('\n').find((l) => l.endsWith(`\t${ref}`))
    return line ? line.slice(0, line.indexOf('\t')) : null
  }

  async bundleCreate(file: string, revs: readonly string[]): Promise<void> {
    await this.raw(['bundle', 'create', '--quiet', file, ...revs])
  }

  async worktreeAdd(dir: string, commitish: string, options: { detach?: boolean } = {}): Promise<void> {
    const args = ['worktree', 'add', '--quiet']
    if (options.detach ?? true) args.push('--detach')
    args.push('--', dir, commitish)
    await this.raw(args)
  }

  async worktreeRemove(dir: string, options: { force?: boolean } = {}): Promise<void> {
    const args = ['worktree', 'remove']
    if (options.force) args.push('--force')
    args.push('--', dir)
    await this.raw(args)
  }

  // ---- internals ---------------------------------------------------------------------------------

  /**
   * Author/committer environment for our commits: the user's own identity when git has one (config or
   * GIT_AUTHOR_* / GIT_COMMITTER_*), else `proctor <proctor@localhost>`; a CI runner without
   * user.name must not make checkpoints fail.
   */
  async identityEnv(): Promise<Record<string, string>> {
    return (await this.identityProbe()).env
  }

  /**
   * Who our commits are by, as `git commit-tree` would write it: `Name <email>` per role, and the date
   * only when GIT_AUTHOR_DATE / GIT_COMMITTER_DATE pins it (otherwise each commit takes the time it is made).
   */
  async commitIdents(): Promise<CommitIdents> {
    return (await this.identityProbe()).idents
  }

  private identityProbe(): Promise<{ env: Record<string, string>; idents: CommitIdents }> {
    this.identity ??= (async () => {
      const env: Record<string, string> = {}
      const probe = (role: 'AUTHOR' | 'COMMITTER', config: string[], extra: Record<string, string> = {}) =>
        this.raw(['var', `GIT_${role}_IDENT`], { config, env: extra, okExitCodes: [128, 1] })
      const idents = await Promise.all(
        (['AUTHOR', 'COMMITTER'] as const).map(async (role) => {
          let result = await probe(role, ['user.useConfigOnly=true'])
          if (result.exitCode !== 0) {
            env[`GIT_${role}_NAME`] = FALLBACK_IDENTITY.name
            env[`GIT_${role}_EMAIL`] = FALLBACK_IDENTITY.email
            result = await probe(role, [], {
              [`GIT_${role}_NAME`]: FALLBACK_IDENTITY.name,
              [`GIT_${role}_EMAIL`]: FALLBACK_IDENTITY.email,
            })
          }
          const line = result.stdout.trim()
          const match = /^(.* <[^<>]*>) (\d+ [+-]\d{4})$/.exec(line)
          if (result.exitCode !== 0 || !match) {
            throw new GitError(
              {
                args: ['var', `GIT_${role}_IDENT`],
                cwd: this.cwd,
                exitCode: result.exitCode,
                signal: null,
                stderr: result.stderr,
              },
              `git var GIT_${role}_IDENT gave no usable identity ("${line}")`,
            )
          }
          return { name: match[1]!, date: this.env[`GIT_${role}_DATE`] ? match[2]! : null }
        }),
      )
      return { env, idents: { author: idents[0], committer: idents[1] } }
    })()
    return this.identity
  }

  /**
   * A long-lived git process for a request/answer conversation (`update-ref --stdin`,
   * `hash-object --stdin-paths`), with the same environment and settings as every other call.
   */
  stream(
    args: readonly string[],
    options: Omit<GitCallOptions, 'input' | 'okExitCodes' | 'timeoutMs'> = {},
  ): GitStream {
    return new GitStream(this.invocation(args, options))
  }

  /**
   * Makes (once) the config and shadow git dir every later call runs with (isolation.ts), reading the
   * user's config now: a session calls this before its agent starts, so nothing the agent writes later is
   * ever read by proctor's git. Null for a bare repository or outside one.
   */
  isolate(): Promise<Isolation | null> {
    if (!this.isolation) {
      let shared = this.isolations.get(this.cwd)
      if (!shared) {
        shared = makeIsolation(
          this.cwd,
          async (args, okExitCodes) => {
            const call = this.invocation(args, { okExitCodes: okExitCodes ?? [] }, 'user')
            const result = await (this.synchronous ? runGitSync(call) : runGit(call))
            return result.stdout.toString('utf8')
          },
          (key) => this.env[key],
        )
        this.isolations.set(this.cwd, shared)
      }
      this.isolation = shared.then((isolation) => (this.isolated = isolation))
    }
    return this.isolation
  }

  /**
   * `git config --show-scope --show-origin -z --list` as isolate() read it (the user's config before the
   * agent started, in a session); null without an isolation.
   */
  async startupConfig(): Promise<string | null> {
    return (await this.isolate())?.listing ?? null
  }

  /**
   * Where `git push <remote>` went with the config as it was when isolate() read it; `remote` itself when
   * it is a URL or a path; null when there was no such remote.
   */
  async trustedPushUrl(remote: string): Promise<string | null> {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || path.isAbsolute(remote)) return remote
    const isolation = await this.isolate()
    return isolation?.pushUrls.get(remote) ?? null
  }

  private async spawnGit(args: readonly string[], options: GitCallOptions): Promise<GitBufferResult> {
    const mode = isolationMode(args)
    if (mode !== 'user') await this.isolate()
    const call = this.invocation(args, options, mode)
    return this.synchronous ? runGitSync(call) : runGit(call)
  }

  private invocation(
    args: readonly string[],
    options: GitCallOptions,
    mode: IsolationMode = isolationMode(args),
  ): GitInvocation {
    let env = { ...this.env, ...options.env }
    if (options.indexFile) env.GIT_INDEX_FILE = options.indexFile
    if (options.secretConfig) Object.assign(env, configEnv(env, options.secretConfig))
    // A stream is started synchronously: it has the isolation if a call has made it (a session's calls
    // before the agent do), else only the empty global config; its two commands run no program either way.
    env = isolatedEnv(this.isolated, mode, env)
    const call: GitInvocation = {
      binary: this.binary,
      cwd: options.cwd ?? this.cwd,
      env,
      config: [
        ...BASE_CONFIG,
        ...(options.indexFile ? [...PRIVATE_INDEX_CONFIG, splitIndexSetting(mode, this.isolated)] : []),
        ...(options.config ?? []),
      ],
      argv: [...(options.globalArgs ?? []), ...args],
      args,
    }
    if (options.input !== undefined) call.input = options.input
    if (options.okExitCodes) call.okExitCodes = options.okExitCodes
    if (options.onStdout) call.onStdout = options.onStdout
    if (options.timeoutMs) call.timeoutMs = options.timeoutMs
    if (!NETWORK_COMMANDS.has(args[0] ?? '')) call.deadline = this.deadline
    return call
  }
}

/**
 * A private index is split (`core.splitIndex`): its 100k entries live in a shared index git writes once, and
 * each write of the index (a listing's refreshed stat data, a staging, write-tree's cache-tree) writes only
 * what changed since. At 100k files that made each write ~30 ms cheaper (three per checkpoint). git puts the
 * shared index in the git dir it runs with, so only where that is proctor's private directory (isolation.ts:
 * one per process, removed at its end, never the user's .git); a private index is never read by another
 * process (the store drops one a crashed proctor left).
 */
function splitIndexSetting(mode: IsolationMode, isolation: Isolation | null): string {
  return `core.splitIndex=${mode === 'shadow' && isolation !== null}`
}

/**
 * `cat-file --batch` output for `count` revisions: "<oid> <type> <size>\n<content>\n" for each object, or
 * "<rev> missing" / "<rev> ambiguous" (null). Sizes are in bytes, so the content is cut from the bytes.
 */
function parseBatch(out: Buffer, count: number): ({ oid: string; type: string; content: Buffer } | null)[] {
  const objects: ({ oid: string; type: string; content: Buffer } | null)[] = []
  let at = 0
  for (let i = 0; i < count; i++) {
    const eol = out.indexOf(10, at)
    if (eol < 0) {
      objects.push(null)
      continue
    }
    const [oid, type, sizeText] = out.toString('latin1', at, eol).split(' ')
    at = eol + 1
    if (!oid || !type || !/^[0-9a-f]{40,64}$/.test(oid) || sizeText === undefined) {
      objects.push(null)
      continue
    }
    const content = out.subarray(at, at + Number(sizeText))
    at += content.length + 1
    objects.push({ oid, type, content })
  }
  return objects
}

function parseBatchCommits(out: Buffer, count: number): (CommitObject | null)[] {
  return parseBatch(out, count).map((object) => {
    if (object?.type !== 'commit') return null
    const text = object.content.toString('utf8')
    const tree = /^tree ([0-9a-f]{40,64})\n/.exec(text)?.[1]
    const body = text.indexOf('\n\n')
    return tree ? { oid: object.oid, tree, message: body < 0 ? '' : text.slice(body + 2) } : null
  })
}

export { GitError, RefMovedError, tail }
export type { GitBufferResult, GitInvocation }
export type { LsFilesStageEntry, LsTreeEntry, NumstatEntry, PushRefResult, RawDiffEntry, StatusEntry }

/** The diff-tree options every tree diff is read with (parseRawNumstatZ reads their output). */
function diffTreeArgs(options: { renames?: boolean } = {}): string[] {
  return [
    'diff-tree',
    '-r',
    '-z',
    '--raw',
    '--numstat',
    '--no-abbrev',
    '--no-ext-diff',
    '--no-textconv',
    options.renames === false ? '--no-renames' : '-M',
  ]
}
