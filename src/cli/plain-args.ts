// The options of a command main.ts runs without commander (`run`, `checkpoints create`), declared once as
// a table of rows that feeds both commander's `.option()`s (commanderOptions) and the plain reader
// (readPlainArgs), and types the options the command's action gets (OptionsOf). The plain reader reads the
// arguments as commander would when they are the plain ones; anything else is null, which commander then
// parses and reports as for every other command. This module imports nothing at run time: the plain path
// loads it before the command's own code.
import type { Command } from 'commander'

/** One option, as written on the command line and in `--help`. */
export interface OptionRow {
  /**
   * The long name without its dashes: `config`, `idle-timeout` (key idleTimeout, as commander names it), or
   * `no-pty`, a negation (key pty: true unless it is given).
   */
  readonly long: string
  /** A one-letter alias: `c` for `-c`. */
  readonly short?: string
  /** The value's name in `--help` (`file` for `--config <file>`): the option takes a value; else a switch. */
  readonly value?: string
  /** Its line in `--help`; `{name}` is filled from commanderOptions' `fill`. */
  readonly help: string
}

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S
type Negated<R extends OptionRow> = R['long'] extends `no-${string}` ? R : never
type KeyOf<R extends OptionRow> = R['long'] extends `no-${infer Name}` ? Camel<Name> : Camel<R['long']>

/** What the action gets for `rows` (declared `as const`): a negation always, any other option when given. */
export type OptionsOf<Rows extends readonly OptionRow[]> = Flat<
  {
    [R in Rows[number] as R extends Negated<R> ? KeyOf<R> : never]: boolean
  } & {
    [R in Rows[number] as R extends Negated<R> ? never : KeyOf<R>]?: R extends { value: string }
      ? string
      : true
  }
>
type Flat<T> = { [K in keyof T]: T[K] }

/** The key commander gives a row's option. */
function keyOf(row: OptionRow): string {
  const name = row.long.startsWith('no-') ? row.long.slice(3) : row.long
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
}

/** Adds `rows` to `command` in their order, each `{name}` in a help line filled from `fill`. */
export function commanderOptions(
  command: Command,
  rows: readonly OptionRow[],
  fill: Readonly<Record<string, string>> = {},
): Command {
  for (const row of rows) {
    const flags = `${row.short ? `-${row.short}, ` : ''}--${row.long}${row.value ? ` <${row.value}>` : ''}`
    command.option(
      flags,
      row.help.replace(/\{(\w+)\}/g, (text, name: string) => fill[name] ?? text),
    )
  }
  return command
}

/**
 * What the action gets before any option is read: each negation's key true (commander's default for a
 * `--no-x` option).
 */
function optionDefaults(rows: readonly OptionRow[]): Record<string, string | boolean> {
  const defaults: Record<string, string | boolean> = {}
  for (const row of rows) if (row.long.startsWith('no-')) defaults[keyOf(row)] = true
  return defaults
}

/** How the plain reader reads a table: options by how they are written, the key each sets. */
interface PlainSpec {
  /** Options that take a value, by how they are written (`-c`, `--config`): the key each sets. */
  values: ReadonlyMap<string, string>
  /** Switches, by how they are written: the key each sets, and to what. */
  switches: ReadonlyMap<string, readonly [string, boolean]>
}

function plainSpec(rows: readonly OptionRow[]): PlainSpec {
  const values = new Map<string, string>()
  const switches = new Map<string, readonly [string, boolean]>()
  for (const row of rows) {
    const names = [`--${row.long}`, ...(row.short ? [`-${row.short}`] : [])]
    for (const name of names)
      if (row.value) values.set(name, keyOf(row))
      else switches.set(name, [keyOf(row), !row.long.startsWith('no-')])
  }
  return { values, switches }
}

/**
 * `args` read by the table `rows`: each option at most once (a value option by its key, so `-c` and
 * `--config` are one), written `-x`, `--name`, `--name value` or `--name=value`; a separate value may not
 * look like an option ("-" alone is a value). With `argv`, `--` ends the options and the rest is the
 * command's argv; without it, `--` is commander's to read. Anything else — help, a typo, a short option with
 * its value attached, an operand where options are expected — is null. The options come over
 * optionDefaults, as commander hands them to the action.
 */
export function readPlainArgs<Rows extends readonly OptionRow[]>(
  args: readonly string[],
  rows: Rows,
  argv: boolean,
): { options: OptionsOf<Rows>; argv: string[] } | null {
  const spec = plainSpec(rows)
  const options = optionDefaults(rows)
  const done = (rest: string[]) => ({ options: options as OptionsOf<Rows>, argv: rest })
  const given = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') return argv ? done(args.slice(i + 1)) : null
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const name = eq < 0 ? arg : arg.slice(0, eq)
    const switched = spec.switches.get(name)
    if (switched) {
      if (eq >= 0 || given.has(name)) return null
      given.add(name)
      options[switched[0]] = switched[1]
      continue
    }
    const key = spec.values.get(name)
    if (key === undefined || given.has(key)) return null
    given.add(key)
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i]
    if (value === undefined || (eq < 0 && value.length > 1 && value.startsWith('-'))) return null
    options[key] = value
  }
  return done([])
}
