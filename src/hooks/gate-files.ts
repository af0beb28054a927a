// The gate: what the stop hooks execute as judge, taken from the BASE commit (the checkout the agent
// started from), never from the agent's tip. A change the agent made to any of it is one `critical`
// `gate_file` violation. Two uses, one judgement (docs/action.md#gate-files):
// - judgeGate: from two commits only (base, tip), no worktree, nothing executed;
// - enforceGate: the same judgement on a worktree where the tip is checked out, then the gate is put
//   back to the base version (files checked out or removed, package.json script entries rewritten) so
//   the hooks that run next run the user's judge.
import { lstatSync, realpathSync } from 'node:fs'
import { dirname, join, posix, sep } from 'node:path'
import picomatch from 'picomatch'
import { parse as parseYaml } from 'yaml'
import type { Git } from '../git/runner.js'
import { diffTrees, SYMLINK_MODE, type ChangedFile } from '../checkpoints/diff.js'
import { compileAreas, type AreaMatcher } from '../policy/areas.js'
import type { StopHookConfig } from '../config/schema.js'
import type { Violation } from '../report/model.js'
import { readRegularFile, writeFileAtomic } from '../util/safe-file.js'
import { commandRefs, inRepo, scriptRefs, type CommandRefs, type ScriptRef } from './gate-commands.js'

/**
 * What the common test runners and package managers read as configuration when a hook runs them: a
 * change to one changes the judge as surely as a change to the test script. `files` are globs relative to
 * each directory the hooks judge in (the repository root, the hooks' directory, every package whose
 * script a hook runs); `anywhere` globs are matched at any depth; `packageKeys` are keys of package.json
 * in those directories. Matched against the base AND the tip: a runner config the agent adds is a change.
 */
export const JUDGE_CONFIG: readonly {
  tool: string
  /**
   * The row applies when a hook's command or a script it runs names the tool (matched on the words of the
   * command texts); rows without it always apply. A Makefile is not the judge of a repository whose hooks
   * never run make, and an agent changing it there is doing its work, not forging a check.
   */
  when?: RegExp
  /** How a violation names it (default: "<tool> configuration"). */
  why?: string
  files?: string[]
  anywhere?: string[]
  packageKeys?: string[]
}[] = [
  { tool: 'npm', when: /\b(npm|npx)\b/, files: ['.npmrc'] },
  {
    tool: 'yarn',
    when: /\byarn\b/,
    files: ['.yarnrc', '.yarnrc.yml', '.yarn/releases/**', '.yarn/plugins/**', '.pnp.cjs', '.pnp.loader.mjs'],
  },
  { tool: 'pnpm', when: /\bpnpm\b/, files: ['.pnpmfile.cjs', 'pnpm-workspace.yaml'] },
  { tool: 'bun', when: /\bbunx?\b/, files: ['bunfig.toml'] },
  {
    tool: 'vitest / vite',
    when: /\bvite(st)?\b/,
    files: ['vitest.config.*', 'vitest.workspace.*', 'vitest.setup.*', 'vite.config.*'],
  },
  {
    tool: 'jest',
    when: /\bjest\b|\breact-scripts\b/,
    files: ['jest.config.*', 'jest.setup.*', 'src/setupTests.*'],
    packageKeys: ['jest'],
  },
  {
    tool: 'babel (jest transforms tests with it)',
    when: /\bjest\b|\breact-scripts\b|\bbabel\b/,
    files: ['babel.config.*', '.babelrc', '.babelrc.*'],
  },
  { tool: 'mocha', when: /\bmocha\b/, files: ['.mocharc.*'], packageKeys: ['mocha'] },
  { tool: 'ava', when: /\bava\b/, files: ['ava.config.*'], packageKeys: ['ava'] },
  { tool: 'playwright', when: /\bplaywright\b/, files: ['playwright.config.*', 'playwright-ct.config.*'] },
  {
    tool: 'cypress',
    when: /\bcypress\b/,
    files: ['cypress.config.*', 'cypress.json', 'cypress/support/**', 'cypress/plugins/**'],
  },
  { tool: 'karma', when: /\bkarma\b|\bng\s+test\b/, files: ['karma.conf.*'] },
  {
    tool: 'pytest / tox',
    when: /\b(py\.?test|tox)\b/,
    files: ['pytest.ini', '.pytest.ini', 'tox.ini'],
    anywhere: ['**/conftest.py'],
  },
  { tool: 'make', when: /\bg?make\b/, files: ['Makefile', 'makefile', 'GNUmakefile'] },
  // What a runner loads instead of source: installed packages (verify installed them from the checkout)
  // and Python bytecode (an unchecked hash-based .pyc is run without looking at its .py).
  {
    tool: 'installed dependencies',
    why: 'installed dependencies the hooks load',
    anywhere: ['**/node_modules/**', '.venv/**'],
  },
  {
    tool: 'Python bytecode',
    why: 'Python bytecode a test run loads',
    anywhere: ['**/__pycache__/**', '**/*.pyc'],
  },
]

/** Scripts followed into scripts they run (`npm run other` inside a script) at most this deep. */
const MAX_SCRIPT_DEPTH = 4

export type GateHook = Pick<StopHookConfig, 'name' | 'command'> & {
  gate_files?: readonly string[] | undefined
}

export interface GateSpec {
  /** The config file, repository-relative (null: none). */
  configFile: string | null
  hooks: readonly GateHook[]
  /** Where the hooks run, repository-relative ('' = the root). */
  hookDir?: string
}

/** The base tree, read: its paths, a file's text, a JSON object file (null when absent or unreadable). */
interface BaseReader {
  paths(): Iterable<string>
  text(path: string): Promise<string | null>
  json(path: string): Promise<Record<string, unknown> | null>
}

/** A package.json entry the judge runs: `scripts.test`, or a runner's own key (`jest`). */
interface Entry {
  key: string[]
  /** Why it is in the gate ("run by stop hook tests", "jest configuration"), for the message. */
  why: string
}

export interface Gate {
  /** Why a path (in the base or the tip) is part of the gate; null when it is not. */
  why(path: string): string | null
  /** package.json files → the entries in them that the judge runs. */
  entries: Map<string, Entry[]>
  /**
   * Workspaces chosen by name (`npm test -w pkg`): a package.json the agent adds in a workspace
   * directory under a selected name would run instead, so it is a gate change.
   */
  selections: WorkspaceSelection[]
}

interface WorkspaceSelection {
  isMember(dir: string): boolean
  matches(name: string): boolean
  why: string
}

export type GateChange =
  | { kind: 'file'; path: string; oldPath?: string; why: string }
  | { kind: 'entry'; file: string; key: string[]; why: string }

/** The gate the hooks of `spec` define in the tree of `base`. */
export async function gateOf(git: Git, base: string, spec: GateSpec): Promise<Gate> {
  const tree = new Map((await git.lsTree(base)).map((e) => [e.path, e]))
  const exact = new Map<string, string>()
  const patterns: { test: (path: string) => boolean; why: string }[] = []
  const userGlobs: { matcher: AreaMatcher; hook: string }[] = []
  const entries = new Map<string, Entry[]>()
  const selections: WorkspaceSelection[] = []
  const judged = new Set<string>(['', spec.hookDir ?? ''])
  const addEntry = (file: string, key: string[], why: string) => {
    const list = entries.get(file) ?? []
    if (!list.some((e) => e.key.join('\0') === key.join('\0'))) list.push({ key, why })
    entries.set(file, list)
  }
  if (spec.configFile) exact.set(spec.configFile, 'the proctor config')

  const read: BaseReader = {
    paths: () => tree.keys(),
    async text(path) {
      const entry = tree.get(path)
      if (!entry || entry.type !== 'blob' || entry.mode === SYMLINK_MODE) return null
      return (await git.catFileBlob(entry.sha)).toString('utf8')
    },
    async json(path) {
      const text = await read.text(path)
      return text === null ? null : parseObject(text)
    },
  }

  // Every command text the hooks run, their own and the scripts followed: what decides which tools judge.
  const texts: string[] = []
  const follow = async (refs: CommandRefs, hook: GateHook, depth: number): Promise<void> => {
    for (const file of refs.files) if (!exact.has(file)) exact.set(file, `run by stop hook ${hook.name}`)
    for (const dir of refs.dirs) judged.add(dir)
    for (const script of refs.scripts) {
      const why = `run by stop hook ${hook.name}`
      const dirs = await packageDirs(
        script,
        read,
        (file, key) => addEntry(file, key, why),
        (selection) => selections.push({ ...selection, why }),
      )
      for (const dir of dirs) {
        judged.add(dir)
        const file = posix.join(dir, 'package.json')
        const scripts = (await read.json(file))?.scripts
        for (const name of script.names) {
          addEntry(file, ['scripts', name], why)
          const text = isObject(scripts) ? scripts[name] : undefined
          if (typeof text === 'string') texts.push(text)
          if (typeof text === 'string' && depth < MAX_SCRIPT_DEPTH)
            await follow(scriptRefs(text, dir), hook, depth + 1)
        }
      }
    }
  }

  for (const [index, hook] of spec.hooks.entries()) {
    // A built-in hook (uses: ci-checks) executes nothing of the repository's.
    if (hook.command !== undefined) {
      texts.push(Array.isArray(hook.command) ? hook.command.join(' ') : String(hook.command))
      await follow(commandRefs(hook.command, spec.hookDir ?? ''), hook, 0)
    }
    if (hook.gate_files?.length)
      userGlobs.push({
        matcher: compileAreas('gate_files', hook.gate_files, `stop_hooks[${index}]`),
        hook: hook.name,
      })
  }
  for (const row of JUDGE_CONFIG) {
    if (row.when && !texts.some((text) => row.when!.test(text))) continue
    const why = row.why ?? `${row.tool} configuration`
    for (const dir of judged) {
      for (const glob of row.files ?? [])
        patterns.push({ test: picomatch(posix.join(escapeGlob(dir), glob), { dot: true }), why })
      for (const key of row.packageKeys ?? []) addEntry(posix.join(dir, 'package.json'), [key], why)
    }
    for (const glob of row.anywhere ?? []) patterns.push({ test: picomatch(glob, { dot: true }), why })
  }
  return {
    entries,
    selections,
    why(path) {
      const named = exact.get(path)
      if (named) return named
      const user = userGlobs.find((g) => g.matcher.match(path))
      if (user) return `in gate_files of stop hook ${user.hook}`
      return patterns.find((p) => p.test(path))?.why ?? null
    },
  }
}

/**
 * The package directories a script reference runs in: its own, or the workspaces it selects (by path, by
 * name or name glob, or all). Selecting workspaces makes the list of workspaces part of the judge too.
 */
async function packageDirs(
  script: ScriptRef,
  read: BaseReader,
  addEntry: (file: string, key: string[]) => void,
  select: (selection: Omit<WorkspaceSelection, 'why'>) => void,
): Promise<string[]> {
  const selector = script.workspace?.replace(/^\{|\}$/g, '').replace(/^\.\.\.|\.\.\.$/g, '')
  if (selector === undefined) {
    // Package managers look up from the directory for the nearest package.json: that one runs, and one
    // the agent adds in between would take its place (so the directory itself is judged too).
    const dirs = [script.dir]
    for (let dir = script.dir; dir !== '';) {
      if ((await read.text(posix.join(dir, 'package.json'))) !== null) break
      dir = posix.dirname(dir) === '.' ? '' : posix.dirname(dir)
      dirs.push(dir)
    }
    return dirs
  }
  addEntry(posix.join(script.dir, 'package.json'), ['workspaces'])
  if (
    selector !== '*' &&
    (selector.startsWith('.') || (selector.includes('/') && !selector.startsWith('@')))
  ) {
    const dir = inRepo(script.dir, selector)
    return dir === null ? [] : [dir]
  }
  const globs = await workspaceGlobs(script.dir, read)
  const dirs: string[] = []
  const isMember = globs.length
    ? picomatch(globs.map((g) => posix.join(escapeGlob(script.dir), g.replace(/\/+$/, ''))))
    : () => false
  if (globs.length) {
    for (const path of read.paths()) {
      if (posix.basename(path) !== 'package.json') continue
      const dir = posix.dirname(path)
      if (dir !== '.' && isMember(dir)) dirs.push(dir)
    }
  }
  if (selector === '*') return [script.dir, ...dirs]
  const named: string[] = []
  const matches = picomatch(selector)
  select({ isMember, matches })
  for (const dir of dirs) {
    const name = (await read.json(posix.join(dir, 'package.json')))?.name
    if (typeof name === 'string' && matches(name)) named.push(dir)
  }
  return named
}

/** The workspace globs of the package at `dir`: package.json `workspaces` and pnpm-workspace.yaml. */
async function workspaceGlobs(dir: string, read: BaseReader): Promise<string[]> {
  const declared = (await read.json(posix.join(dir, 'package.json')))?.workspaces
  const list: unknown[] = Array.isArray(declared)
    ? declared
    : isObject(declared) && Array.isArray(declared.packages)
      ? declared.packages
      : []
  const pnpm = await read.text(posix.join(dir, 'pnpm-workspace.yaml'))
  if (pnpm !== null) {
    try {
      const doc: unknown = parseYaml(pnpm)
      if (isObject(doc) && Array.isArray(doc.packages)) list.push(...doc.packages)
    } catch {
      // An unreadable workspace file selects nothing more; pnpm-workspace.yaml is itself a gate file.
    }
  }
  return list.filter((g): g is string => typeof g === 'string' && !g.startsWith('!'))
}

/**
 * Every change the tip makes to the gate of `base`, from the two commits only. `files` is the diff from
 * base to tip when the caller has it already.
 */
export async function gateChanges(
  git: Git,
  gate: Gate,
  base: string,
  tip: string,
  files?: readonly ChangedFile[],
): Promise<GateChange[]> {
  const diff = files ?? (await diffTrees(git, base, tip))
  const changes: GateChange[] = []
  const wholeFiles = new Set<string>()
  for (const f of diff) {
    const why = gate.why(f.path) ?? (f.oldPath !== undefined ? gate.why(f.oldPath) : null)
    if (why === null) continue
    changes.push({
      kind: 'file',
      path: f.path,
      ...(f.oldPath !== undefined ? { oldPath: f.oldPath } : {}),
      why,
    })
    wholeFiles.add(f.path).add(f.oldPath ?? f.path)
  }
  if (gate.selections.length) {
    for (const f of diff) {
      if (f.status === 'D' || posix.basename(f.path) !== 'package.json' || wholeFiles.has(f.path)) continue
      const dir = posix.dirname(f.path)
      const selection = gate.selections.find((s) => s.isMember(dir))
      if (!selection || (await jsonAt(git, base, f.path)) !== 'absent') continue
      const after = await jsonAt(git, tip, f.path)
      const name = typeof after === 'object' ? after.name : undefined
      if (typeof name === 'string' && !selection.matches(name)) continue
      changes.push({
        kind: 'file',
        path: f.path,
        why: `a new workspace a stop hook selects, ${selection.why}`,
      })
      wholeFiles.add(f.path)
    }
  }
  const touched = new Set(diff.flatMap((f) => [f.path, f.oldPath ?? f.path]))
  for (const [file, entries] of gate.entries) {
    if (!touched.has(file) || wholeFiles.has(file)) continue
    const [before, after] = await Promise.all([jsonAt(git, base, file), jsonAt(git, tip, file)])
    const b = typeof before === 'object' ? before : {}
    const a = typeof after === 'object' ? after : {}
    const differs = entries.filter((e) => canonical(valueAt(b, e.key)) !== canonical(valueAt(a, e.key)))
    // A package.json the agent added where none was runs instead of the one the hooks reached: all of it goes.
    const added = before === 'absent' && differs.length > 0
    if (after === 'unreadable' || (after === 'absent' && before !== 'absent') || added) {
      // The scripts can no longer be told apart from the rest: the file is the judge now.
      changes.push({
        kind: 'file',
        path: file,
        why: `the package.json a stop hook's scripts come from`,
      })
      continue
    }
    for (const entry of differs) changes.push({ kind: 'entry', file, key: entry.key, why: entry.why })
  }
  return changes
}

/** One `critical` `gate_file` violation per change. */
export function gateViolations(changes: readonly GateChange[], checkpoint: number | null): Violation[] {
  return changes.map((c) => ({
    checkpoint,
    file: c.kind === 'file' ? c.path : c.file,
    constraint: 'gate_file',
    severity: 'critical' as const,
    message:
      c.kind === 'file'
        ? `the agent changed ${c.oldPath !== undefined ? `${c.oldPath} (now ${c.path})` : c.path}, which is part of the gate (${c.why}); the verify job ran the hooks with the checked-out version`
        : `the agent changed ${c.key.join('.')} in ${c.file}, which is part of the gate (${c.why}); the verify job ran the hooks with the checked-out version`,
    suggestion: 'Change the gate in a commit of your own, not in the agent session',
  }))
}

/** The publish side: the gate's violations from two commits, touching no worktree and running nothing. */
export async function judgeGate(
  git: Git,
  base: string,
  tip: string,
  spec: GateSpec,
  checkpoint: number | null,
  /** The diff base → tip when the caller has it already (one `diff-tree` less). */
  files?: readonly ChangedFile[],
): Promise<{ changes: GateChange[]; violations: Violation[] }> {
  const changes = await gateChanges(git, await gateOf(git, base, spec), base, tip, files)
  return { changes, violations: gateViolations(changes, checkpoint) }
}

/**
 * The verify side: the same judgement, then the gate in the worktree at `root` (where `tip` is checked
 * out) is put back to `base`: changed gate files are checked out from base (or removed when base has
 * none), changed entries are rewritten to their base values, keeping the agent's other changes.
 */
export async function enforceGate(
  git: Git,
  root: string,
  base: string,
  tip: string,
  spec: GateSpec,
  options: { checkpoint: number | null; files?: readonly ChangedFile[] },
): Promise<{ changes: GateChange[]; violations: Violation[] }> {
  const gate = await gateOf(git, base, spec)
  const changes = await gateChanges(git, gate, base, tip, options.files)
  const inBase = new Set((await git.lsTree(base, [...new Set(changes.flatMap(pathsOf))])).map((e) => e.path))
  const checkout = new Set<string>()
  const remove = new Set<string>()
  for (const change of changes) {
    if (change.kind === 'entry') continue
    for (const path of pathsOf(change))
      if (gate.why(path) !== null || path === change.path) (inBase.has(path) ? checkout : remove).add(path)
  }
  const byFile = new Map<string, Extract<GateChange, { kind: 'entry' }>[]>()
  for (const change of changes)
    if (change.kind === 'entry') byFile.set(change.file, [...(byFile.get(change.file) ?? []), change])
  for (const [file, list] of byFile) {
    const before = await jsonAt(git, base, file)
    if (
      !rewriteEntries(
        root,
        file,
        typeof before === 'object' ? before : {},
        list.map((c) => c.key),
      )
    )
      (inBase.has(file) ? checkout : remove).add(file)
  }
  const literal = (paths: Iterable<string>) => [...paths].map((p) => `:(top,literal)${p}`)
  if (remove.size) await git.raw(['rm', '-q', '-r', '-f', '--ignore-unmatch', '--', ...literal(remove)])
  if (checkout.size) await git.raw(['checkout', '--quiet', base, '--', ...literal(checkout)])
  return { changes, violations: gateViolations(changes, options.checkpoint) }
}

/** A directory name as a literal in a glob (a package dir may hold `[`, `*`, `{`...). */
function escapeGlob(dir: string): string {
  return dir.replace(/[\\*?[\]{}()!+@|]/g, '\\$&')
}

function pathsOf(change: GateChange): string[] {
  return change.kind === 'entry'
    ? [change.file]
    : [change.path, ...(change.oldPath !== undefined ? [change.oldPath] : [])]
}

/**
 * Sets `keys` of the JSON file at root/file to their values in `before` (absent there: removed), keeping
 * the rest and the file's indentation and line endings. False when the file cannot be rewritten in place
 * safely (not a regular file, under a symlinked directory, not a JSON object): then the caller restores
 * the whole file.
 */
function rewriteEntries(
  root: string,
  file: string,
  before: Record<string, unknown>,
  keys: string[][],
): boolean {
  const full = join(root, file)
  try {
    const realRoot = realpathSync(root)
    const parent = realpathSync(dirname(full))
    if (parent !== realRoot && !parent.startsWith(realRoot + sep)) return false
    if (!lstatSync(full).isFile()) return false
    // The hooks run the agent's code, which may swap the file for a FIFO or a link between the checks and
    // the write: read without blocking, write by rename (never through a link).
    const text = readRegularFile(full, 16 * 1024 * 1024).toString('utf8')
    const data = parseObject(text)
    if (!data) return false
    for (const key of keys) setValueAt(data, key, valueAt(before, key))
    const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  '
    const eol = text.includes('\r\n') ? '\r\n' : '\n'
    const body = JSON.stringify(data, null, indent).replace(/\n/g, eol)
    const bom = text.startsWith('\uFEFF') ? '\uFEFF' : ''
    writeFileAtomic(full, bom + (/\r?\n$/.test(text) ? body + eol : body))
    return true
  } catch {
    return false
  }
}

async function jsonAt(
  git: Git,
  commit: string,
  file: string,
): Promise<Record<string, unknown> | 'absent' | 'unreadable'> {
  const [entry] = await git.lsTree(commit, [file])
  if (!entry || entry.path !== file) return 'absent'
  if (entry.type !== 'blob' || entry.mode === SYMLINK_MODE) return 'unreadable'
  return parseObject((await git.catFileBlob(entry.sha)).toString('utf8')) ?? 'unreadable'
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''))
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function valueAt(data: Record<string, unknown>, key: readonly string[]): unknown {
  let value: unknown = data
  for (const part of key) {
    if (!isObject(value) || !Object.hasOwn(value, part)) return undefined
    value = value[part]
  }
  return value
}

function setValueAt(data: Record<string, unknown>, key: readonly string[], value: unknown): void {
  let at = data
  for (const part of key.slice(0, -1)) {
    if (!isObject(at[part])) {
      if (value === undefined) return
      at[part] = {}
    }
    at = at[part] as Record<string, unknown>
  }
  const last = key.at(-1)!
  if (value === undefined) delete at[last]
  else at[last] = value
}

/** JSON with sorted keys, so that reordering an object is not a change. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, v[k]]),
          )
        : v,
    ) ?? 'undefined'
  )
}
