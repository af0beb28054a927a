// proctor.yml writes a hook command as an argv array (run directly) or a string (run by /bin/sh -c).
import type { CommandSpec } from '../supervisor/types.js'

export function toCommandSpec(command: string | readonly string[]): CommandSpec {
  if (typeof command === 'string') return { shell: command }
  const [file, ...args] = command
  if (file === undefined) throw new Error('a hook command must not be an empty list')
  return { file, args }
}

/** A short, readable form for lines like "tests (npm test)"; never used to run anything. */
export function describeCommand(command: string | readonly string[]): string {
  if (typeof command === 'string') return command
  return command.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ')
}
