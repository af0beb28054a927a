// What a stop hook's command executes as judge, read from its words alone (no file, no git): the files
// its words name, the package-manager scripts it runs (`npm test` → scripts.test, also pnpm/yarn/bun), and
// the directories those run in. src/hooks/gate-files.ts turns this into the gate, reading the base commit.
//
// This is a reader of simple commands, not a shell: it splits on `&&`, `||`, `;`, `|`, `&` and newlines,
// honours quotes and backslashes, follows `cd <dir>`, `sh -c '<command>'`, leading `VAR=value`s and the
// wrappers below, and reads nothing else ($(...), variables and globs stay literal words). What it does
// not understand names no script; the docs say what is followed (docs/action.md#gate-files).
import { posix } from 'node:path'

/** A package-manager script a command runs. */
export interface ScriptRef {
  /** The package directory, repository-relative ('' = the root). */
  dir: string
  /** The script names, in the order they run (pre<x>, <x>, post<x> included). */
  names: string[]
  /** A workspace selection: a name, a name glob or a path (`-w pkg`, `--filter pkg`), or '*' for all. */
  workspace?: string
}

export interface CommandRefs {
  /** Repository-relative paths the command's words name (each may or may not exist). */
  files: string[]
  scripts: ScriptRef[]
  /** Directories a package manager or make ran in (their configuration there is part of the judge). */
  dirs: string[]
}

const WRAPPERS = new Set(['env', 'exec', 'time', 'command', 'nohup'])
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh'])
const FILE_WORD = /^[\w./@+-]+$/

/** Scripts an install runs in the package it installs (npm, pnpm, yarn classic, bun). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare']

// Options that take a value as the next word, per manager (so the value is not read as the command).
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  npm: new Set(['--prefix', '-w', '--workspace', '--loglevel', '--userconfig', '--registry', '--cache']),
  pnpm: new Set(['-C', '--dir', '-F', '--filter', '--reporter', '--loglevel', '--workspace-concurrency']),
  yarn: new Set(['--cwd', '--mutex', '--modules-folder', '--cache-folder']),
  bun: new Set(['--cwd', '-F', '--filter', '--config', '-c']),
}

// Commands of each manager that are not scripts: `pnpm <x>`, `yarn <x>` and `bun <x>` run the script <x>
// unless <x> is one of the manager's own commands.
const BUILTINS: Record<string, ReadonlySet<string>> = {
  pnpm: new Set(
    'add audit bin config create deploy dlx doctor env exec fetch i import init install install-test it licenses link list ln ls outdated pack patch patch-commit prune publish rb rebuild recursive remove rm root server setup store un uninstall unlink up update why x'.split(
      ' ',
    ),
  ),
  yarn: new Set(
    'add audit autoclean bin cache check config constraints create dlx exec explain generate-lock-entry global import info init install licenses link list login logout node npm outdated owner pack plugin policies publish rebuild remove set tag team unlink unplug up upgrade upgrade-interactive version versions why'.split(
      ' ',
    ),
  ),
  bun: new Set(
    'a add audit build c create exec i info init install link outdated patch pm publish remove repl rm test update upgrade why x'.split(
      ' ',
    ),
  ),
}

/** A hook's command (argv array or /bin/sh -c string) run in `dir` (repository-relative). */
export function commandRefs(command: string | readonly string[], dir = ''): CommandRefs {
  const refs: CommandRefs = { files: [], scripts: [], dirs: [] }
  if (typeof command === 'string') readShell(command, dir, refs, 0)
  else readSimple([...command], dir, refs, 0)
  refs.files = [...new Set(refs.files)]
  refs.dirs = [...new Set(refs.dirs)]
  return refs
}

/** A script's text (run by the manager's shell in its package directory): read like a hook command. */
export const scriptRefs = (text: string, dir: string): CommandRefs => commandRefs(text, dir)

/** Names npm runs for `npm run <name>`: pre<name>, <name>, post<name> (kept for every manager, see docs). */
export function withPrePost(name: string): string[] {
  return name.startsWith('pre') || name.startsWith('post') ? [name] : [`pre${name}`, name, `post${name}`]
}

/** A repository-relative path for `word` read in `dir`; null when it leaves the repository or is absolute. */
export function inRepo(dir: string, word: string): string | null {
  if (word.startsWith('/') || word.startsWith('~')) return null
  const joined = posix.normalize(posix.join(dir || '.', word))
  if (joined === '..' || joined.startsWith('../')) return null
  return joined === '.' ? '' : joined.replace(/\/$/, '')
}

function readShell(text: string, dir: string, refs: CommandRefs, depth: number): void {
  if (depth > 4) return
  let current = dir
  for (const words of splitShell(text)) current = readSimple(words, current, refs, depth) ?? current
}

/** One simple command; returns the directory later commands of the same line run in (after `cd`). */
function readSimple(input: string[], dir: string, refs: CommandRefs, depth: number): string | undefined {
  let words = input
  while (words.length && (/^[A-Za-z_]\w*=/.test(words[0]!) || WRAPPERS.has(words[0]!))) {
    words = words.slice(1)
    while (words[0]?.startsWith('-')) words = words.slice(1) // env -i, time -p
  }
  const [head, ...args] = words
  if (head === undefined) return undefined
  const name = posix.basename(head)
  if (name === 'cd') {
    const target = args.find((a) => !a.startsWith('-'))
    return target === undefined ? '' : (inRepo(dir, target) ?? dir)
  }
  if (SHELLS.has(name)) {
    const c = args.findIndex((a) => /^-\w*c\w*$/.test(a))
    if (c >= 0 && args[c + 1] !== undefined) {
      readShell(args[c + 1]!, dir, refs, depth + 1)
      return undefined
    }
  }
  for (const word of words) {
    const value = word.startsWith('-') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : word
    if (!value || value.startsWith('-') || !FILE_WORD.test(value)) continue
    const path = inRepo(dir, value)
    if (path) refs.files.push(path)
  }
  if (name in VALUE_OPTIONS) managerScripts(name, args, dir, refs)
  if (name === 'make' || name === 'gmake') {
    const c = optionValue(args, ['-C', '--directory'])
    refs.dirs.push(c === undefined ? dir : (inRepo(dir, c) ?? dir))
  }
  return undefined
}

/** The scripts `npm|pnpm|yarn|bun <args>` runs. */
function managerScripts(manager: string, args: string[], dir: string, refs: CommandRefs): void {
  const takesValue = VALUE_OPTIONS[manager]!
  const positional: string[] = []
  let workspace: string | undefined
  let where = dir
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') break // what follows goes to the script
    if (!arg.startsWith('-')) {
      positional.push(arg)
      continue
    }
    const [option, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined]
    const value = inline ?? (takesValue.has(option) ? args[++i] : undefined)
    if (value === undefined) {
      if (option === '--workspaces' || option === '-ws' || option === '-r' || option === '--recursive')
        workspace = '*'
      continue
    }
    if (option === '--prefix' || option === '-C' || option === '--dir' || option === '--cwd')
      where = inRepo(dir, value) ?? where
    else if (option === '-w' || option === '--workspace' || option === '-F' || option === '--filter')
      workspace = value
  }
  refs.dirs.push(where)
  const names = scriptNames(manager, positional)
  if (names === 'workspace') {
    // yarn workspace <name> <command...>: the command runs in that workspace.
    const [, name, ...rest] = positional
    const inner = scriptNames(manager, rest)
    if (name && Array.isArray(inner) && inner.length)
      refs.scripts.push({ dir: where, names: inner, workspace: name })
    return
  }
  if (names === 'all-workspaces') {
    const run = positional.indexOf('run')
    const script = run >= 0 ? positional[run + 1] : undefined
    if (script) refs.scripts.push({ dir: where, names: withPrePost(script), workspace: '*' })
    return
  }
  if (names.length === 0) return
  refs.scripts.push({ dir: where, names, ...(workspace !== undefined ? { workspace } : {}) })
}

/** Script names a manager's positional words run; a marker for yarn's workspace forms. */
function scriptNames(manager: string, positional: string[]): string[] | 'workspace' | 'all-workspaces' {
  const [command, next] = positional
  if (command === undefined) return manager === 'yarn' ? INSTALL_SCRIPTS : []
  if (command === 'run' || command === 'run-script' || command === 'rum' || command === 'urn') {
    if (next === undefined) return []
    // `bun run ./x.ts` runs a file (read as a word above), not a script.
    if (manager === 'bun' && (next.includes('/') || /\.[cm]?[jt]sx?$/.test(next))) return []
    return withPrePost(next)
  }
  if (manager === 'bun' && command === 'test') return [] // bun's own test runner, not a script
  if (command === 'test' || command === 't' || command === 'tst') return withPrePost('test')
  if (command === 'start' || command === 'stop') return withPrePost(command)
  if (command === 'restart')
    return [...withPrePost('restart'), ...withPrePost('stop'), ...withPrePost('start')]
  if (['install', 'i', 'ci', 'add', 'install-test', 'it'].includes(command))
    return command === 'install-test' || command === 'it'
      ? [...INSTALL_SCRIPTS, ...withPrePost('test')]
      : INSTALL_SCRIPTS
  if (manager === 'yarn' && command === 'workspace') return 'workspace'
  if (manager === 'yarn' && command === 'workspaces') return 'all-workspaces'
  if (manager === 'npm') return [] // npm runs no script for any other command
  if (BUILTINS[manager]!.has(command)) return []
  if (manager === 'bun' && (command.includes('/') || /\.[cm]?[jt]sx?$/.test(command))) return []
  return withPrePost(command)
}

function optionValue(args: string[], options: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    for (const option of options) {
      if (arg === option) return args[i + 1]
      if (arg.startsWith(`${option}=`)) return arg.slice(option.length + 1)
    }
  }
  return undefined
}

/** Simple commands of a shell text, each as its words (quotes removed). */
export function splitShell(text: string): string[][] {
  const commands: string[][] = []
  let words: string[] = []
  let word = ''
  let inWord = false
  const endWord = () => {
    if (inWord) words.push(word)
    word = ''
    inWord = false
  }
  const endCommand = () => {
    endWord()
    if (words.length) commands.push(words)
    words = []
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === "'") {
      const end = text.indexOf("'", i + 1)
      word += text.slice(i + 1, end < 0 ? text.length : end)
      inWord = true
      i = end < 0 ? text.length : end
    } else if (ch === '"') {
      inWord = true
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) i++
        word += text[i]
      }
    } else if (ch === '\\') {
      if (text[i + 1] === '\n') i++
      else if (i + 1 < text.length) {
        word += text[++i]
        inWord = true
      }
    } else if (ch === '#' && !inWord) {
      while (i < text.length && text[i] !== '\n') i++
      endCommand()
    } else if (';&|\n()'.includes(ch)) {
      endCommand()
    } else if (ch === ' ' || ch === '\t') {
      endWord()
    } else {
      word += ch
      inWord = true
    }
  }
  endCommand()
  return commands
}
