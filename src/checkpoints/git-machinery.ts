// The repository's own machinery: what git itself runs or trusts. An agent that plants
// `.git/hooks/post-checkout`, sets `core.fsmonitor` or adds a `filter.*.clean` gets a program run by the
// user's next git command (or by proctor's own plumbing), outside every checkpoint and every diff. This
// records that machinery when the session starts and tells what changed since, and can put it back.
//
// Recorded: the repository's config files (`config`, and `config.worktree` of a linked worktree),
// everything under `hooks/`, `info/attributes` and `info/exclude` (bytes and mode), and the effective
// values of the keys that make git run a program or fetch credentials, from every scope (a change in
// the global config is reported; it cannot be undone from here).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { Git } from '../git/runner.js'
import { globalConfigFiles, readGitDirs } from '../git/on-disk.js'
import { readRegularFile } from '../util/safe-file.js'

/**
 * Keys whose value makes git run a program, read other config, hand out credentials or send a fetch or
 * push somewhere else (url.*.insteadOf), watched in every scope.
 */
const SENSITIVE_KEYS_SOURCE =
  '^(core\\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy|attributesfile|excludesfile|alternaterefscommand)|include\\..*|includeif\\..*|filter\\..*|diff\\.external|diff\\..*\\.(textconv|command)|merge\\..*\\.driver|credential\\..*|url\\..*\\.(insteadof|pushinsteadof)|pager\\..*|protocol\\.(.*\\.)?allow|remote\\..*\\.(uploadpack|receivepack|vcs)|gpg\\.(.*\\.)?program|sequence\\.editor|uploadpack\\.packobjectshook)$'
const SENSITIVE_KEYS = new RegExp(SENSITIVE_KEYS_SOURCE)

/**
 * Keys of the repository's config files that git writes in ordinary work and that run nothing: the
 * upstream of a branch (`git push -u`, `git branch --set-upstream-to`, `git checkout --track`). A change
 * to only these is accepted (it becomes the recorded state); any other key changed with them is tamper.
 */
const BENIGN_KEY = /^branch\..+\.(remote|merge)$/

/** The hooks directory is small (git's samples are ~25 KiB); a runaway one is not copied in full. */
const MAX_RECORDED_BYTES = 8 * 1024 * 1024

interface RecordedFile {
  /** File content, or the link target of a symlink. */
  data: Buffer
  mode: number
  symlink: boolean
}

export interface MachineryChange {
  /** What changed, as the report names it: `.git/hooks/post-checkout`, `.git/config`, `git config core.pager`. */
  file: string
  /** One sentence: what changed. */
  what: string
  /** What to do about it. */
  suggestion: string
  /** proctor can restore the recorded state (false: it lives outside the repository). */
  undoable: boolean
}

export class GitMachinery {
  private constructor(
    private readonly git: Git,
    private readonly root: string,
    /** Absolute path → recorded state (absent paths are not in the map). */
    private readonly files: Map<string, RecordedFile>,
    /** Directories walked for files (hooks/): a file there that was not recorded is new. */
    private readonly dirs: string[],
    /** Single files watched (config, info/*): absent at the start is recorded as absent. */
    private readonly singles: string[],
    private readonly configs: Map<string, Map<string, string[]>>,
    private effective: Map<string, string[]>,
    /** The files the effective values came from, with their stat (see configSources). */
    private sources: string,
  ) {}

  /** Records the machinery of the repository `git` runs in. */
  static async record(git: Git): Promise<GitMachinery> {
    // The effective values need no paths: read side by side with the rest (this runs before the agent
    // starts, so its git processes are waited for by the agent's spawn).
    // The listing the runner's isolation read (the same command, made at its first call): no process more.
    const pendingListing = git
      .startupConfig()
      .then((listed) => (listed === null ? listConfig(git) : listConfig(git, listed)))
    pendingListing.catch(() => undefined)
    // The dirs from `.git` itself when `git` runs at a worktree's top level (a session's runner does).
    const onDisk = readGitDirs(git.cwd)
    const out = onDisk
      ? [git.cwd, onDisk.commonDir, onDisk.gitDir]
      : (await git.raw(['rev-parse', '--show-toplevel', '--git-common-dir', '--git-dir'])).stdout.split('\n')
    const root = out[0]!
    const common = path.resolve(git.cwd, out[1]!)
    const own = path.resolve(git.cwd, out[2]!)
    const configFiles = [path.join(common, 'config')]
    if (own !== common) configFiles.push(path.join(own, 'config.worktree'))
    const singles = [...configFiles, path.join(common, 'info/attributes'), path.join(common, 'info/exclude')]
    const dirs = [path.join(common, 'hooks')]
    const files = new Map<string, RecordedFile>()
    let budget = MAX_RECORDED_BYTES
    for (const file of [...singles, ...dirs.flatMap((d) => walk(d))]) {
      const state = readState(file)
      if (!state) continue
      budget -= state.data.length
      if (budget < 0) break
      files.set(file, state)
    }
    // The repository's config file is read from the same listing as the effective values (one process);
    // a config.worktree, which that listing may not include, on its own.
    const listing = await pendingListing
    const configs = new Map<string, Map<string, string[]>>()
    for (const file of configFiles) {
      const listed = file === configFiles[0] ? listing.files.get(realpath(file)) : undefined
      configs.set(
        file,
        listed && (listed.size > 0 || !nonEmpty(file)) ? listed : await configEntries(git, file),
      )
    }
    return new GitMachinery(git, root, files, dirs, singles, configs, listing.effective, listing.sources)
  }

  /**
   * The value git uses for `key` (lower-case, e.g. `core.attributesfile`) from every scope but the command
   * line, as recorded at the start: the last one, as `git config --get` answers; null when unset. Only
   * for the keys this recording watches (SENSITIVE_KEYS).
   */
  recordedValue(key: string): string | null {
    const values = this.effective.get(key)
    return values && values.length > 0 ? values[values.length - 1]! : null
  }

  /**
   * What differs from the recording, in a stable order. Between checkpoints (`full` false) the effective
   * values are read again only when a file they came from, a global or system config file, or an include
   * target changed (stat); `full` (the session's end) always reads them.
   */
  async changes(options: { full?: boolean } = {}): Promise<MachineryChange[]> {
    const changes: MachineryChange[] = []
    const current = new Set([...this.singles, ...this.dirs.flatMap((d) => walk(d))])
    for (const file of [...new Set([...this.files.keys(), ...current])].sort()) {
      const before = this.files.get(file) ?? null
      const now = current.has(file) ? readState(file) : null
      if (sameState(before, now)) continue
      if (now && (await this.acceptBenign(file, now))) continue
      changes.push(await this.describe(file, before, now))
    }
    // Effective values changed with no change to a recorded file: another scope (global, an include).
    const configChanged = changes.some((c) => this.configs.has(this.absolute(c.file)))
    if (!configChanged && (options.full || configSources(this.sourceFiles()) !== this.sources)) {
      const listing = await listConfig(this.git)
      const effective = listing.effective
      for (const line of diffEntries(this.effective, effective)) {
        const key = line.key
        changes.push({
          file: `git config ${key}`,
          what: `git config ${key} ${line.text} outside the repository's .git/config (global or system config)`,
          suggestion: `Remove ${key} from the config file that sets it (git config --show-origin --get-all ${key}).`,
          undoable: false,
        })
      }
    }
    return changes
  }

  /** The files named in the recorded sources signature. */
  private sourceFiles(): string[] {
    return this.sources === ALWAYS
      ? []
      : this.sources.split('\n').map((line) => line.slice(0, line.lastIndexOf('\t')))
  }

  /** Puts every recorded file back (and removes files that were added); returns what was restored. */
  undo(changes: readonly MachineryChange[]): string[] {
    const done: string[] = []
    for (const change of changes) {
      if (!change.undoable) continue
      const file = this.absolute(change.file)
      const before = this.files.get(file) ?? null
      fs.rmSync(file, { recursive: true, force: true })
      if (before) {
        fs.mkdirSync(path.dirname(file), { recursive: true })
        if (before.symlink) fs.symlinkSync(before.data.toString('utf8'), file)
        else {
          // Written next to it and renamed: a git command reading the config never sees half a file.
          const temp = `${file}.proctor-restore`
          fs.writeFileSync(temp, before.data, { mode: before.mode & 0o7777 })
          fs.chmodSync(temp, before.mode & 0o7777)
          fs.renameSync(temp, file)
        }
      }
      done.push(change.file)
    }
    return done
  }

  /** A config file whose only changes are BENIGN_KEY entries: record it as it is now and report nothing. */
  private async acceptBenign(file: string, now: RecordedFile): Promise<boolean> {
    const recorded = this.configs.get(file)
    if (!recorded || now.symlink) return false
    const entries = await configEntries(this.git, file)
    if (!diffEntries(recorded, entries).every((d) => BENIGN_KEY.test(d.key))) return false
    this.files.set(file, now)
    this.configs.set(file, entries)
    return true
  }

  private async describe(
    file: string,
    before: RecordedFile | null,
    now: RecordedFile | null,
  ): Promise<MachineryChange> {
    const name = this.display(file)
    const base = { file: name, undoable: true }
    const recorded = this.configs.get(file)
    if (recorded) {
      const entries = now ? await configEntries(this.git, file) : new Map<string, string[]>()
      const lines = diffEntries(recorded, entries).map((d) => `${d.key} ${d.text}`)
      const what = lines.length
        ? `${name} was changed: ${lines.slice(0, 8).join('; ')}${lines.length > 8 ? `; and ${lines.length - 8} more` : ''}`
        : `${name} was ${now ? (before ? 'rewritten' : 'created') : 'deleted'}`
      return {
        ...base,
        what,
        suggestion: `Leave the repository's git config alone; proctor restores ${name} as it was when the session started.`,
      }
    }
    const inHooks = this.dirs.some((d) => file.startsWith(`${d}${path.sep}`))
    const state = now ? (before ? 'modified' : 'added') : 'deleted'
    const what = inHooks
      ? `${name} was ${state} in the repository's hooks directory${now ? ': git runs it on the user’s next matching git command' : ''}`
      : `${name} was ${state}`
    return {
      ...base,
      what,
      suggestion: inHooks
        ? `Do not install git hooks; ${now && !before ? `delete ${name}` : `restore ${name}`}.`
        : `Leave ${name} as it was; proctor restores it.`,
    }
  }

  /** `.git/hooks/x` for files in the repository's own git dir; the absolute path otherwise. */
  private display(file: string): string {
    const rel = path.relative(this.root, file)
    return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/')
  }

  private absolute(name: string): string {
    return path.isAbsolute(name) ? name : path.join(this.root, name)
  }
}

/** More than any config file or hook holds; a larger one reads as changed. */
const MACHINERY_MAX_BYTES = 16 * 1024 * 1024

function readState(file: string): RecordedFile | null {
  let stat: fs.Stats
  try {
    stat = fs.lstatSync(file)
  } catch {
    return null
  }
  if (stat.isSymbolicLink())
    return { data: Buffer.from(fs.readlinkSync(file), 'utf8'), mode: 0, symlink: true }
  if (!stat.isFile()) return null
  try {
    // Non-blocking: swapped for a FIFO since the lstat, it reads as changed instead of holding proctor.
    return { data: readRegularFile(file, MACHINERY_MAX_BYTES), mode: stat.mode, symlink: false }
  } catch {
    return { data: Buffer.alloc(0), mode: stat.mode, symlink: false }
  }
}

function sameState(a: RecordedFile | null, b: RecordedFile | null): boolean {
  if (a === null || b === null) return a === b
  return a.symlink === b.symlink && (a.mode & 0o777) === (b.mode & 0o777) && a.data.equals(b.data)
}

/** Files and links below `dir` (not directories), depth-limited. */
function walk(dir: string, depth = 0): string[] {
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (depth < 4) out.push(...walk(full, depth + 1))
    } else out.push(full)
  }
  return out
}

/** Every entry of one config file, key → values in order (empty when it does not exist). */
async function configEntries(git: Git, file: string): Promise<Map<string, string[]>> {
  if (!fs.existsSync(file)) return new Map()
  const result = await git.raw(['config', '--file', file, '--no-includes', '-z', '--list'], {
    okExitCodes: [1, 3],
  })
  return parseEntries(result.stdout.split('\0'))
}

/**
 * Every config entry git sees, in one process: the effective values of the sensitive keys from every
 * scope but the command line (proctor's own `-c core.hooksPath=/dev/null`, `-c core.fsmonitor=false` would
 * hide the user's), the entries of each file by its real path, and the signature of the files they came
 * from (configSources).
 */
async function listConfig(
  git: Git,
  listed?: string,
): Promise<{
  effective: Map<string, string[]>
  files: Map<string, Map<string, string[]>>
  sources: string
}> {
  const stdout =
    listed ??
    (await git.raw(['config', '--show-scope', '--show-origin', '-z', '--list'], { okExitCodes: [1] })).stdout
  const fields = stdout.split('\0')
  const kept: string[] = []
  const byFile = new Map<string, string[]>()
  const origins = new Set<string>()
  let conditional = false
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope, origin, record] = [fields[i]!, fields[i + 1]!, fields[i + 2]!]
    if (scope === 'command') continue
    const newline = record.indexOf('\n')
    const key = newline < 0 ? record : record.slice(0, newline)
    if (SENSITIVE_KEYS.test(key)) kept.push(record)
    if (!origin.startsWith('file:')) {
      conditional = true // a blob or stdin origin: nothing to stat
      continue
    }
    const file = realpath(path.resolve(git.cwd, origin.slice('file:'.length)))
    origins.add(file)
    byFile.set(file, [...(byFile.get(file) ?? []), record])
    if (/^include(if\..*)?\.path$/i.test(key) && newline >= 0) {
      if (/^includeif\.onbranch:/i.test(key)) conditional = true // follows HEAD, not a file
      const target = record.slice(newline + 1).replace(/^~(?=\/)/, os.homedir())
      origins.add(path.resolve(path.dirname(file), target))
    }
  }
  const files = new Map([...byFile].map(([file, records]) => [file, parseEntries(records)]))
  const sources = conditional
    ? ALWAYS
    : configSources([...origins, ...globalConfigFiles((key) => git.envValue(key))])
  return { effective: parseEntries(kept), files, sources }
}

/** A sources signature that never matches: the effective values are read at every check. */
const ALWAYS = '\0always'

/** Path, size, times and inode of each file (or absent), one per line: equal only if none changed. */
function configSources(files: readonly string[]): string {
  return [...new Set(files)]
    .sort()
    .map((file) => {
      try {
        const st = fs.statSync(file)
        return `${file}\t${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`
      } catch {
        return `${file}\tabsent`
      }
    })
    .join('\n')
}

function realpath(file: string): string {
  try {
    return fs.realpathSync(file)
  } catch {
    return file
  }
}

function nonEmpty(file: string): boolean {
  try {
    return fs.statSync(file).size > 0
  } catch {
    return false
  }
}

/** `key\nvalue` records (git config -z) → key → values. */
function parseEntries(records: readonly string[]): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const record of records) {
    if (record === '') continue
    const newline = record.indexOf('\n')
    const key = newline < 0 ? record : record.slice(0, newline)
    const value = newline < 0 ? '(no value)' : record.slice(newline + 1)
    map.set(key, [...(map.get(key) ?? []), value])
  }
  return map
}

function diffEntries(
  before: Map<string, string[]>,
  after: Map<string, string[]>,
): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = []
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(key) ?? []
    const b = after.get(key) ?? []
    if (a.length === b.length && a.every((v, i) => v === b[i])) continue
    const show = (values: string[]) => values.map((v) => JSON.stringify(v.slice(0, 200))).join(', ')
    const text =
      a.length === 0
        ? `set to ${show(b)}`
        : b.length === 0
          ? `removed (was ${show(a)})`
          : `changed from ${show(a)} to ${show(b)}`
    out.push({ key, text })
  }
  return out
}
