// The arguments of a command main.ts runs without commander (`run`, `checkpoints create`), read as commander
// would read them when they are the plain ones; null for anything else, which commander then parses and
// reports as for every other command.

export interface PlainSpec<K extends string> {
  /** Options that take a value, by how they are written (`-c`, `--config`): the key each sets. */
  values: ReadonlyMap<string, K>
  /** Switches, by how they are written: the key each sets, and to what. */
  switches: ReadonlyMap<string, readonly [K, boolean]>
  /** `--` ends the options and the rest is the command's argv; without it, `--` is commander's to read. */
  argv: boolean
}

/**
 * `args` read by `spec`: each option at most once (a value option by its key, so `-c` and `--config` are one),
 * written `-x`, `--name`, `--name value` or `--name=value`; a separate value may not look like an option
 * ("-" alone is a value). Anything else — help, a typo, a short option with its value attached, an operand
 * where options are expected — is null.
 */
export function readPlainArgs<K extends string>(
  args: readonly string[],
  spec: PlainSpec<K>,
): { options: Partial<Record<K, string | boolean>>; argv: string[] } | null {
  const options: Partial<Record<K, string | boolean>> = {}
  const given = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') return spec.argv ? { options, argv: args.slice(i + 1) } : null
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
  return { options, argv: [] }
}
