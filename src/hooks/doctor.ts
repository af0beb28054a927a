// `proctor hooks doctor`: finds hook problems before a session does — missing or non-executable commands,
// async hooks on events that need an answer, duplicate names. Looks only; runs nothing.
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, resolve } from 'node:path'
import type { Config, LifecycleEvent } from '../config/schema.js'
import { EVENTS_NEEDING_AN_ANSWER, MAX_POOL_SIZE, MIN_POOL_SIZE } from './lifecycle.js'

export interface DoctorFinding {
  level: 'error' | 'warning'
  /** Where in proctor.yml: `stop_hooks[1]`, `hooks.checkpoint[0]`. */
  where: string
  message: string
}

export function doctorHooks(config: Config, cwd: string, pathEnv = process.env.PATH ?? ''): DoctorFinding[] {
  const findings: DoctorFinding[] = []
  const stopNames = new Map<string, number>()
  config.stop_hooks.forEach((hook, index) => {
    const where = `stop_hooks[${index}]`
    const first = stopNames.get(hook.name)
    if (first !== undefined) {
      findings.push({
        level: 'error',
        where,
        message: `duplicate stop hook name "${hook.name}" (also stop_hooks[${first}]); names must be unique because each is a check run`,
      })
    } else stopNames.set(hook.name, index)
    // A built-in (uses:) has no command to look up.
    if (hook.command !== undefined) findings.push(...checkCommand(hook.command, where, cwd, pathEnv))
  })
  for (const [event, entries] of Object.entries(config.hooks) as [
    LifecycleEvent,
    Config['hooks'][LifecycleEvent],
  ][]) {
    const seen = new Map<string, number>()
    entries?.forEach((entry, index) => {
      const where = `hooks.${event}[${index}]`
      if (entry.async && EVENTS_NEEDING_AN_ANSWER.includes(event)) {
        findings.push({
          level: 'error',
          where,
          message: `async: true on ${event}: this event needs an answer, so it cannot run async; remove async or move the hook to session_end`,
        })
      }
      const key = entry.name ?? JSON.stringify(entry.command)
      const first = seen.get(key)
      if (first !== undefined) {
        const what = entry.name ? `name "${entry.name}"` : 'command'
        findings.push({
          level: 'warning',
          where,
          message: `duplicate ${what} (also hooks.${event}[${first}]); it would run twice per ${event}`,
        })
      } else seen.set(key, index)
      findings.push(...checkCommand(entry.command, where, cwd, pathEnv))
    })
  }
  const pool = config.hooks_async_pool_size
  if (pool < MIN_POOL_SIZE || pool > MAX_POOL_SIZE) {
    findings.push({
      level: 'warning',
      where: 'hooks_async_pool_size',
      message: `${pool} is outside ${MIN_POOL_SIZE}–${MAX_POOL_SIZE}; it will be clamped`,
    })
  }
  return findings
}

/** The program a command starts: argv[0], or the first word of a simple shell string. */
export function programOf(command: string | readonly string[]): string | null {
  if (typeof command !== 'string') return command[0] ?? null
  const match = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*([^\s;&|<>()$`'"\\]+)(?=\s|$)/.exec(command)
  return match ? match[1]! : null
}

const SHELL_WORDS = new Set([
  'exec',
  'env',
  'command',
  'true',
  'false',
  'test',
  '[',
  'echo',
  'printf',
  'cd',
  'set',
  'exit',
  'if',
  'for',
  'while',
  '.',
  ':',
  'export',
])

function checkCommand(
  command: string | readonly string[],
  where: string,
  cwd: string,
  pathEnv: string,
): DoctorFinding[] {
  const program = programOf(command)
  if (program === null || (typeof command === 'string' && SHELL_WORDS.has(program))) return []
  const problem = findProgram(program, cwd, pathEnv)
  return problem ? [{ level: 'error', where, message: problem }] : []
}

/** Null when the program resolves to an executable file; otherwise what is wrong and how to fix it. */
export function findProgram(program: string, cwd: string, pathEnv: string): string | null {
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program)
    if (!isFile(path)) return `command not found: ${program} (looked at ${path})`
    if (!isExecutable(path)) return `not executable: ${program} — run chmod +x ${program}`
    return null
  }
  const dirs = pathEnv.split(delimiter).filter(Boolean)
  for (const dir of dirs) {
    const path = join(dir, program)
    if (isFile(path) && isExecutable(path)) return null
  }
  return `command not found: ${program} (searched PATH) — install it or use a path`
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
