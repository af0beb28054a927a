// Finds the executable before anything is spawned: node-pty never throws on a bad path (the child
// just prints "execvp(3) failed" and exits 1), so a typo must be caught here with a clear message.
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path'
import { SpawnError, type CommandSpec } from './types.js'

export interface ResolvedCommand {
  /** Absolute path of the executable. */
  file: string
  args: string[]
  /** For messages and records only; never executed. */
  display: string
}

const SHELL = '/bin/sh'

/** A readable rendering of an argv for humans (quoted where needed); never passed to a shell. */
export function displayCommand(command: CommandSpec): string {
  if ('shell' in command) return command.shell
  return [command.file, ...command.args].map(quoteForDisplay).join(' ')
}

function quoteForDisplay(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

function isExecutableFile(path: string): 'ok' | 'missing' | 'directory' | 'not-executable' {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 'missing'
  }
  if (stat.isDirectory()) return 'directory'
  try {
    accessSync(path, constants.X_OK)
    return 'ok'
  } catch {
    return 'not-executable'
  }
}

/**
 * Resolves `command` to an absolute executable and argv. `{file}` with a slash is taken relative to
 * `cwd`; a bare name is searched in the child's PATH. `{shell}` runs `/bin/sh -c <string>`.
 * Throws SpawnError (ENOENT / EACCES / EINVAL) naming what is wrong and where to fix it.
 */
export function resolveCommand(
  command: CommandSpec,
  cwd: string,
  env: Record<string, string | undefined>,
  label = 'command',
): ResolvedCommand {
  const hint = label === 'agent' ? ' — check agent.command in proctor.yml' : ''
  if (!isCommandSpec(command)) {
    throw new SpawnError(
      `${label} command must be { file, args[] } or { shell }, got ${JSON.stringify(command)}${hint}`,
      command,
      'EINVAL',
    )
  }
  if (isExecutableFile(cwd) !== 'directory') {
    throw new SpawnError(`${label} working directory does not exist: ${cwd}`, command, 'ENOENT')
  }
  if ('shell' in command) {
    if (command.shell.trim() === '') {
      throw new SpawnError(`${label} shell command is empty${hint}`, command, 'EINVAL')
    }
    return { file: SHELL, args: ['-c', command.shell], display: command.shell }
  }
  if (command.file === '') throw new SpawnError(`${label} command is empty${hint}`, command, 'EINVAL')
  if (command.file.includes('\0') || command.args.some((arg) => arg.includes('\0'))) {
    throw new SpawnError(`${label} command contains a NUL byte${hint}`, command, 'EINVAL')
  }
  const display = displayCommand(command)
  if (command.file.includes('/')) {
    const path = isAbsolute(command.file) ? command.file : resolvePath(cwd, command.file)
    return { file: checkCandidate(path, command, label, hint), args: [...command.args], display }
  }
  const searchPath = env.PATH ?? process.env.PATH ?? ''
  const dirs = searchPath.split(delimiter).filter((dir) => dir !== '')
  let notExecutable: string | undefined
  for (const dir of dirs) {
    const candidate = resolvePath(cwd, join(dir, command.file))
    const state = isExecutableFile(candidate)
    if (state === 'ok') return { file: candidate, args: [...command.args], display }
    if (state === 'not-executable') notExecutable ??= candidate
  }
  if (notExecutable !== undefined) {
    throw new SpawnError(
      `${label} command is not executable: ${notExecutable} (chmod +x it, or run it through an interpreter)${hint}`,
      command,
      'EACCES',
    )
  }
  throw new SpawnError(
    `${label} command not found: ${command.file} (searched PATH: ${dirs.join(delimiter) || '(empty)'})${hint}`,
    command,
    'ENOENT',
  )
}

function checkCandidate(path: string, command: CommandSpec, label: string, hint: string): string {
  switch (isExecutableFile(path)) {
    case 'ok':
      return path
    case 'missing':
      throw new SpawnError(`${label} command not found: ${path}${hint}`, command, 'ENOENT')
    case 'directory':
      throw new SpawnError(
        `${label} command is a directory, not a program: ${path}${hint}`,
        command,
        'EACCES',
      )
    case 'not-executable':
      throw new SpawnError(
        `${label} command is not executable: ${path} (chmod +x it, or run it through an interpreter)${hint}`,
        command,
        'EACCES',
      )
  }
}

function isCommandSpec(value: unknown): value is CommandSpec {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  if ('shell' in record) return typeof record.shell === 'string'
  return (
    typeof record.file === 'string' &&
    Array.isArray(record.args) &&
    record.args.every((arg): arg is string => typeof arg === 'string')
  )
}
