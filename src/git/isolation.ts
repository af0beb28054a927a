// proctor's own git reads no configuration the agent could have written. The agent runs as the same user:
// it can write ~/.gitconfig, $XDG_CONFIG_HOME/git/config and the repository's .git/config at any moment, and
// a `filter.<x>.clean`, `core.fsmonitor`, `url.<x>.pushInsteadOf` or `core.sshCommand` there would make
// proctor's checkpoint or push run the agent's program (with a push token in its environment). Watching for
// such a change (checkpoints/git-machinery.ts) comes too late: the planted command runs before the check.
//
// So the config git reads is proctor's, race-free:
// - every call: GIT_CONFIG_NOSYSTEM=1 and GIT_CONFIG_GLOBAL=<proctor's file>, which holds only keys that
//   never name a program (identity, line endings, safe.directory...), copied once from the user's config at
//   the runner's first call — in a session, before the agent starts.
// - the user's global ignore and attributes files (core.excludesFile and core.attributesFile, or git's
//   defaults $XDG_CONFIG_HOME/git/ignore and .../attributes when unset) are files git reads live, outside
//   the repository: an agent writing `secrets/` there would hide its files from every checkpoint and the
//   policy. They are copied into the private directory at the same moment, and proctor's config names the
//   copies (/dev/null when there was none), so what is ignored stays what it was when the session started.
// - commands that read the worktree (add, status, ls-files, check-ignore, hash-object...) or talk to a remote
//   (push, fetch, ls-remote) run with GIT_DIR = a "shadow" git dir proctor made in a private temporary
//   directory: its `config` holds the repository format only, it has no hooks, its refs and packed-refs are
//   links to the repository's, its info/exclude and info/attributes links to the repository's (what is
//   ignored stays what it was), HEAD a copy refreshed per call; objects come from GIT_OBJECT_DIRECTORY, the
//   worktree from GIT_WORK_TREE, the user's index from GIT_INDEX_FILE. A driver named in .gitattributes but
//   defined in no config git reads does nothing, and a push names a URL, so no remote.*, url.* or credential.*
//   of the repository is consulted.
// - ref and object commands (update-ref, rev-parse, cat-file, rev-list, log, bundle...) keep the real GIT_DIR:
//   they need its refs and reflogs, and none of them starts a program from config once BASE_CONFIG's `-c`
//   settings (no hooks, no fsmonitor, no signature checks) take precedence over the repository's config.
// - `git config` and `git remote` read the user's real config: they are how proctor reports what the
//   repository is set to (the tamper check, a persisted credential), and they run nothing.
// The agent could still find and rewrite the private directory (same user); it is created with a random
// name, mode 0700, outside the repository, and removed when proctor exits. Before every call proctor checks
// that what git will read there is still what proctor wrote (the config files and copies byte for byte, the
// links' targets, no `commondir` redirecting the shadow), and refuses to run git when it is not: a planted
// filter or an emptied ignore copy ends the session as an error instead of running or hiding anything.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { FileError, readRegularFile } from '../util/safe-file.js'
import { pidExists } from '../supervisor/proc-info.js'
import { readGitDirs } from './on-disk.js'

/**
 * Subcommands that read the worktree or a remote: run against the shadow git dir. Every command that writes
 * an index is among them: writing one re-hashes "racily clean" entries from the worktree, through the
 * clean filter (write-tree and read-tree do that too).
 */
const SHADOW_COMMANDS = new Set([
  'add',
  'read-tree',
  'write-tree',
  'rm',
  'update-index',
  'status',
  'diff',
  'diff-files',
  'diff-index',
  'ls-files',
  'check-ignore',
  'check-attr',
  'checkout-index',
  'hash-object',
  'commit-tree',
  'var',
  'push',
  'fetch',
  'ls-remote',
])

/** Subcommands that show the user's own configuration (and run nothing): never isolated. */
const USER_VIEW_COMMANDS = new Set(['config', 'remote'])

export type IsolationMode = 'shadow' | 'real' | 'user'

/** How a call with these arguments (subcommand first, global options skipped) is run. */
export function isolationMode(args: readonly string[]): IsolationMode {
  const sub = args.find((arg) => !arg.startsWith('-'))
  if (sub === undefined) return 'real'
  if (USER_VIEW_COMMANDS.has(sub)) return 'user'
  // `checkout <tree> -- <paths>` writes files (through smudge filters) and the index but never HEAD, so it
  // runs in the shadow; a checkout that moves HEAD would move only the shadow's copy, so proctor moves HEAD
  // with update-ref and writes the files with read-tree instead (action/verify.ts, batch/worktrees.ts).
  if (sub === 'checkout') return args.includes('--') ? 'shadow' : 'real'
  return SHADOW_COMMANDS.has(sub) ? 'shadow' : 'real'
}

/**
 * Keys copied from the user's config into proctor's: each changes how files are read, hashed or ignored, or
 * who a commit is by, and none names a program, a URL rewrite, a credential or a proxy.
 */
const TRUSTED_KEY =
  /^(user\.(name|email|useconfigonly)|(author|committer)\.(name|email)|core\.(autocrlf|eol|safecrlf|filemode|symlinks|ignorecase|precomposeunicode|protectntfs|protecthfs|checkstat|trustctime|excludesfile|attributesfile|bigfilethreshold|compression|loosecompression|longpaths|checkroundtripencoding)|i18n\.commitencoding|safe\.directory|http\.(sslcainfo|sslcapath|postbuffer|version)|protocol\.version)$/

/** Repository-format keys of the repository's own config (local or worktree scope) the shadow must share. */
const FORMAT_KEY = /^(core\.repositoryformatversion|extensions\..+)$/

export interface Isolation {
  /** The shadow git dir (see the file comment). */
  shadowDir: string
  /** proctor's global config file. */
  globalFile: string
  /** The worktree's top level. */
  workTree: string
  /** The worktree's own git dir (HEAD, index). */
  gitDir: string
  /** The repository's objects. */
  objectDir: string
  /** Push URL of each remote as configured when the isolation was made (pushurl, then url, rewritten). */
  pushUrls: Map<string, string>
  /** `git config --show-scope --show-origin -z --list` as it was read. */
  listing: string
  /** What proctor wrote into its private directory, checked before every call (assertUntouched). */
  written: { files: Map<string, Buffer>; links: Map<string, string> }
}

/** Names that would make git read another directory's config in place of the shadow's. */
const REDIRECTS = ['commondir', 'config.worktree', 'gitdir']

/** proctor's private directory no longer holds what proctor wrote: git is not run with it. */
export class IsolationTamperedError extends Error {
  override name = 'IsolationTamperedError'
}

interface ConfigEntry {
  scope: string
  key: string
  value: string
}

const cleanups: string[] = []

/** Runs one git with the user's own config (the isolation's reads): the runner's runGit or runGitSync. */
export type RawRun = (args: string[], okExitCodes?: number[]) => Promise<string>

/** A variable of the environment git runs with (HOME, XDG_CONFIG_HOME). */
export type EnvLookup = (key: string) => string | undefined

/** The global files copied at the start: the config key naming each, and git's default under XDG. */
const SNAPSHOT_FILES = [
  { key: 'core.excludesfile', name: 'ignore' },
  { key: 'core.attributesfile', name: 'attributes' },
] as const

/** The most of a global ignore or attributes file proctor copies (they are lists of patterns). */
const SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024

/**
 * The isolation of the repository whose worktree holds `cwd`, read now (in a session: the runner's first
 * call, before the agent starts); null for a bare repository or outside one (no worktree to hash). It fails
 * closed: when it cannot be made (the config cannot be read, no private directory), it rejects, and so does
 * every call that needed it, rather than run with the repository's config.
 */
export async function makeIsolation(
  cwd: string,
  run: RawRun,
  env: EnvLookup = (key) => process.env[key],
): Promise<Isolation | null> {
  try {
    return await isolate(cwd, run, env, readGitDirs(cwd))
  } catch (error) {
    throw new Error(`could not set up proctor's own git config: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

/** `<tmp>/proctor-git-<pid>-XXXXXX`: the private directory of the process with that pid. */
const DIR_PREFIX = 'proctor-git-'

/**
 * The private directories of proctor processes that died without their exit handler (SIGKILL, OOM): each
 * holds the shared part of that process's split private indexes (as big as the repository's index). Only
 * this user's real directories are removed, and only when no process has the pid in their name. In the
 * background: a temporary directory can hold thousands of entries, and this runs before a session's agent
 * is spawned.
 */
async function sweepDeadDirs(): Promise<void> {
  const tmp = os.tmpdir()
  const uid = process.getuid?.()
  for (const name of await fs.promises.readdir(tmp)) {
    const pid = Number(/^proctor-git-(\d+)-/.exec(name)?.[1])
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || pidExists(pid)) continue
    const dir = path.join(tmp, name)
    const stat = await fs.promises.lstat(dir).catch(() => null)
    if (!stat?.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue
    await fs.promises.rm(dir, { recursive: true, force: true })
  }
}

async function isolate(
  cwd: string,
  run: RawRun,
  env: EnvLookup,
  known: { gitDir: string; commonDir: string } | null,
): Promise<Isolation | null> {
  // One listing of the user's config, from every scope with includes, before the agent can change it.
  // The same listing (with origins) is what the tamper check records (Git.startupConfig): one process for both.
  const listing = run(['config', '--show-scope', '--show-origin', '-z', '--list'], [1])
  listing.catch(() => undefined)
  let dirs = known ? { workTree: cwd, ...known } : null
  if (!dirs) {
    // Exit 128: not a repository, or a bare one (no top level): nothing to isolate.
    const out = await run(['rev-parse', '--show-toplevel', '--git-dir', '--git-common-dir'], [128])
    const [top, gitDir, commonDir] = out.split('\n')
    if (!top || !gitDir || !commonDir) return null
    dirs = { workTree: top, gitDir: path.resolve(cwd, gitDir), commonDir: path.resolve(cwd, commonDir) }
  }
  const listed = await listing
  const entries = parseListing(listed)
  if (cleanups.length === 0) sweepDeadDirs().catch(() => undefined)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${DIR_PREFIX}${process.pid}-`))
  if (cleanups.length === 0)
    process.once('exit', () => cleanups.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))
  cleanups.push(dir)
  const shadowDir = path.join(dir, 'git')
  fs.mkdirSync(path.join(shadowDir, 'info'), { recursive: true })
  const written = { files: new Map<string, Buffer>(), links: new Map<string, string>() }
  const write = (file: string, content: string | Buffer, mode?: number) => {
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content)
    fs.writeFileSync(file, bytes, mode === undefined ? {} : { mode })
    written.files.set(file, bytes)
  }
  const format = entries.filter(
    (e) => FORMAT_KEY.test(e.key) && (e.scope === 'local' || e.scope === 'worktree'),
  )
  write(
    path.join(shadowDir, 'config'),
    configText([...format, { scope: 'local', key: 'core.bare', value: 'false' }]),
  )
  for (const [name, target] of [
    ['refs', path.join(dirs.commonDir, 'refs')],
    ['packed-refs', path.join(dirs.commonDir, 'packed-refs')],
    ['reftable', path.join(dirs.commonDir, 'reftable')],
    // A shallow clone's boundary; a depth-limited fetch replaces the link with the shadow's own file.
    ['shallow', path.join(dirs.commonDir, 'shallow')],
    ['info/exclude', path.join(dirs.commonDir, 'info', 'exclude')],
    ['info/attributes', path.join(dirs.commonDir, 'info', 'attributes')],
  ] as const) {
    fs.symlinkSync(target, path.join(shadowDir, name))
    // A depth-limited fetch may replace the shallow link with the shadow's own file: git's doing, not checked.
    if (name !== 'shallow') written.links.set(path.join(shadowDir, name), target)
  }
  const globalFile = path.join(dir, 'global')
  const trusted = entries.filter((e) => TRUSTED_KEY.test(e.key) && e.scope !== 'command')
  for (const { key, name } of SNAPSHOT_FILES) {
    const source = await snapshotSource(entries, key, name, dirs.workTree, env, run)
    const content = source === null ? null : readSnapshot(source)
    let copy: string = os.devNull
    if (content !== null) {
      copy = path.join(dir, name)
      write(copy, content, 0o600)
    }
    trusted.push({ scope: 'global', key, value: copy })
  }
  write(globalFile, configText(trusted))
  const isolation: Isolation = {
    shadowDir,
    globalFile,
    workTree: dirs.workTree,
    gitDir: dirs.gitDir,
    objectDir: path.join(dirs.commonDir, 'objects'),
    pushUrls: pushUrlsOf(entries),
    listing: listed,
    written,
  }
  syncHead(isolation)
  return isolation
}

/**
 * The environment for a call in `mode` (see isolationMode); `base` is the runner's environment with the
 * call's own additions. The shadow's HEAD follows the repository's (the agent may commit or switch
 * branches); it is only a name to resolve through the linked refs.
 */
export function isolatedEnv(
  isolation: Isolation | null,
  mode: IsolationMode,
  base: Record<string, string>,
): Record<string, string> {
  if (mode === 'user') return base
  if (isolation) assertUntouched(isolation)
  const env: Record<string, string> = {
    ...base,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: isolation?.globalFile ?? os.devNull,
  }
  if (mode === 'shadow' && isolation) {
    syncHead(isolation)
    env.GIT_DIR = isolation.shadowDir
    env.GIT_WORK_TREE = isolation.workTree
    env.GIT_OBJECT_DIRECTORY = isolation.objectDir
    env.GIT_INDEX_FILE ??= path.join(isolation.gitDir, 'index')
  }
  return env
}

/**
 * Throws IsolationTamperedError unless every file proctor wrote into its private directory holds its bytes,
 * every link points where proctor pointed it, and nothing redirects the shadow to another git dir. Read
 * without blocking (a FIFO planted there cannot stall proctor); a few small reads per git call.
 */
export function assertUntouched(isolation: Isolation): void {
  const tampered = (what: string) =>
    new IsolationTamperedError(
      `proctor's private git directory was changed by another process (${what}): refusing to run git with it`,
    )
  for (const [file, bytes] of isolation.written.files) {
    let now: Buffer
    try {
      now = readRegularFile(file, bytes.length + 1)
    } catch {
      throw tampered(`${path.basename(file)} changed`)
    }
    if (!now.equals(bytes)) throw tampered(`${path.basename(file)} rewritten`)
  }
  for (const [link, target] of isolation.written.links) {
    let now: string | null = null
    try {
      now = fs.readlinkSync(link)
    } catch {
      // replaced by a file or removed
    }
    if (now !== target) throw tampered(`${path.relative(path.dirname(isolation.shadowDir), link)} relinked`)
  }
  for (const name of REDIRECTS) {
    if (fs.existsSync(path.join(isolation.shadowDir, name))) throw tampered(`${name} added`)
  }
}

/**
 * The file git would read for `key` (core.excludesFile or core.attributesFile) with the config as listed:
 * the last value from any scope git reads (as git takes it), `~/` and `~user/` expanded as git does and a
 * relative path taken from the worktree's top level (where git runs); unset, git's default
 * $XDG_CONFIG_HOME/git/<name> (or ~/.config/git/<name>). Null when there is none to read (no HOME).
 */
async function snapshotSource(
  entries: readonly ConfigEntry[],
  key: string,
  name: string,
  workTree: string,
  env: EnvLookup,
  run: RawRun,
): Promise<string | null> {
  const set = entries.filter((e) => e.key === key && e.scope !== 'command').at(-1)
  const home = env('HOME')
  if (!set) {
    const xdg = env('XDG_CONFIG_HOME')
    if (xdg) return path.join(xdg, 'git', name)
    return home ? path.join(home, '.config', 'git', name) : null
  }
  let value = set.value
  if (value === '') return null
  if (value === '~' || value.startsWith('~/')) {
    if (!home) return null
    value = path.join(home, value.slice(1))
  } else if (value.startsWith('~') || value.startsWith('%(prefix)/')) {
    // Another user's home, or git's install prefix: only git knows them. One call, at the start.
    value = (await run(['config', '--type=path', '--get', key], [1])).replace(/\n$/, '')
    if (value === '') return null
  }
  return path.resolve(workTree, value)
}

/**
 * The content of the user's global ignore or attributes file as it is now; null when there is none. A file
 * that is not a regular one (/dev/null, which users set to mean "none") is read as none too: read without
 * blocking, so a FIFO there cannot hold proctor.
 */
function readSnapshot(file: string): Buffer | null {
  try {
    return readRegularFile(file, SNAPSHOT_MAX_BYTES)
  } catch (error) {
    if (!(error instanceof FileError)) throw error
    if (error.code === undefined && /not a regular file/.test(error.message)) return null
    // Missing, or unreadable: git warns and reads no patterns from it.
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EACCES') return null
    throw error
  }
}

const HEAD_FORMAT = /^(ref: refs\/[^\s]+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/

function syncHead(isolation: Isolation): void {
  let head: string
  try {
    // The agent can make .git/HEAD a FIFO: a blocking read here would stall proctor before any deadline.
    head = readRegularFile(path.join(isolation.gitDir, 'HEAD'), 4096).toString('utf8')
  } catch {
    head = ''
  }
  if (!HEAD_FORMAT.test(head)) head = 'ref: refs/heads/proctor-unreadable-head\n'
  const file = path.join(isolation.shadowDir, 'HEAD')
  let current = ''
  try {
    current = fs.readFileSync(file, 'utf8')
  } catch {
    // first call
  }
  if (current !== head) fs.writeFileSync(file, head)
}

function parseListing(out: string): ConfigEntry[] {
  const fields = out.split('\0')
  const entries: ConfigEntry[] = []
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const scope = fields[i]!
    const record = fields[i + 2]!
    const newline = record.indexOf('\n')
    entries.push({
      scope,
      key: (newline < 0 ? record : record.slice(0, newline)).toLowerCase(),
      value: newline < 0 ? 'true' : record.slice(newline + 1),
    })
  }
  return entries
}

/** A config file holding `entries` (dotted keys; the last dot splits section and key). */
function configText(entries: readonly ConfigEntry[]): string {
  return entries
    .map(({ key, value }) => {
      const dot = key.lastIndexOf('.')
      const first = key.indexOf('.')
      const section =
        first === dot
          ? `[${key.slice(0, dot)}]`
          : `[${key.slice(0, first)} "${escape(key.slice(first + 1, dot))}"]`
      return `${section}\n\t${key.slice(dot + 1)} = "${escape(value)}"\n`
    })
    .join('')
}

function escape(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')
}

/**
 * Where `git push <remote>` would have gone with the config as it was read: the first pushurl, else the
 * first url; a url (not a pushurl) rewritten by the longest matching url.<base>.pushInsteadOf, and either by
 * the longest url.<base>.insteadOf otherwise, as git does.
 */
function pushUrlsOf(entries: readonly ConfigEntry[]): Map<string, string> {
  const urls = new Map<string, { url?: string; pushurl?: string }>()
  const insteadOf: [string, string][] = []
  const pushInsteadOf: [string, string][] = []
  for (const { key, value } of entries) {
    const remote = /^remote\.(.+)\.(url|pushurl)$/.exec(key)
    if (remote) {
      const item = urls.get(remote[1]!) ?? {}
      item[remote[2] as 'url' | 'pushurl'] ??= value
      urls.set(remote[1]!, item)
      continue
    }
    const rewrite = /^url\.(.+)\.(insteadof|pushinsteadof)$/.exec(key)
    if (rewrite) (rewrite[2] === 'insteadof' ? insteadOf : pushInsteadOf).push([value, rewrite[1]!])
  }
  const rewritten = (url: string, rules: [string, string][]): string | null => {
    let best: [string, string] | null = null
    for (const rule of rules)
      if (url.startsWith(rule[0]) && (!best || rule[0].length > best[0].length)) best = rule
    return best ? best[1] + url.slice(best[0].length) : null
  }
  const result = new Map<string, string>()
  for (const [name, { url, pushurl }] of urls) {
    const chosen = pushurl
      ? (rewritten(pushurl, insteadOf) ?? pushurl)
      : url
        ? (rewritten(url, pushInsteadOf) ?? rewritten(url, insteadOf) ?? url)
        : null
    if (chosen) result.set(name, chosen)
  }
  return result
}
