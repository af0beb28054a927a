// Adding proctor's flags to an agent's command without repeating the user's: a CLI such as Codex 0.169.0
// refuses a flag given twice ("--dangerously-bypass-hook-trust cannot be used multiple times", exit 2), and
// users were told to pass that flag themselves before proctor did. A flag the command already has — alone,
// or with the same value — is left out; everything else is appended in order.

/** One flag as proctor adds it: `--flag`, or `--flag value` / `-c value`. */
interface Flag {
  name: string
  value?: string
}

/** `args` read as flags: an argument that does not start with "-" is the value of the flag before it. */
function flagsOf(args: readonly string[]): Flag[] {
  const flags: Flag[] = []
  for (const arg of args) {
    const last = flags.at(-1)
    if (!arg.startsWith('-') && last && last.value === undefined) last.value = arg
    else flags.push({ name: arg })
  }
  return flags
}

/** Whether the user's argv already holds `flag` (with the same value when it has one; `--x=v` counts). */
function given(argv: readonly string[], flag: Flag): boolean {
  return argv.some((arg, i) =>
    flag.value === undefined
      ? arg === flag.name || arg.startsWith(`${flag.name}=`)
      : (arg === flag.name && argv[i + 1] === flag.value) || arg === `${flag.name}=${flag.value}`,
  )
}

export interface MergedFlags {
  /** The arguments to append to the user's command. */
  added: string[]
  /** The flags proctor wanted that the command already had (by name, e.g. "--dangerously-bypass-hook-trust"). */
  present: string[]
}

/** The part of `wanted` the user's `argv` does not already have. */
export function mergeFlags(argv: readonly string[], wanted: readonly string[]): MergedFlags {
  const added: string[] = []
  const present: string[] = []
  for (const flag of flagsOf(wanted)) {
    if (given(argv, flag)) present.push(flag.name)
    else added.push(flag.name, ...(flag.value === undefined ? [] : [flag.value]))
  }
  return { added, present }
}

/** The added flags in one short line: long values (a hook's TOML or JSON) are cut after their key. */
export function describeFlags(args: readonly string[]): string {
  return flagsOf(args)
    .map(({ name, value }) => {
      if (value === undefined) return name
      if (value.length <= 40) return `${name} ${value}`
      const key = /^[\w.-]+=/.exec(value)?.[0]
      return `${name} ${key ? `${key}…` : '…'}`
    })
    .join(' ')
}
