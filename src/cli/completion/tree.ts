// What shell completion offers, read from commander's command tree (the same one --help prints), so a
// new command, option or choice completes without a second list to keep in step. The renderers (bash.ts,
// zsh.ts, fish.ts) only turn this into each shell's language.
import type { Command, Help } from 'commander'

export interface CompletionOption {
  /** Every spelling: `-c`, `--config`. */
  names: string[]
  /** It reads the next word as its value (`--agent <agent>`); an optional value is never completed. */
  takesValue: boolean
  /** The values commander accepts (`.choices()`); empty: anything (a file, a duration…). */
  choices: string[]
  description: string
}

export interface CompletionNode {
  name: string
  /** The subcommand names from the root: [] for proctor itself, ['checkpoints', 'create']. */
  path: string[]
  description: string
  commands: CompletionNode[]
  options: CompletionOption[]
  /** Values for its positional arguments: their choices, or for `help` the commands beside it. */
  values: string[]
}

/** The first line of a description, short enough for a completion menu. */
function summary(text: string): string {
  const line = text.split('\n')[0]!.trim()
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

function nodeOf(command: Command, path: string[], help: Help, siblings: string[]): CompletionNode {
  const commands = help.visibleCommands(command)
  const names = commands.map((sub) => sub.name())
  const argumentChoices = command.registeredArguments.flatMap((argument) => argument.argChoices ?? [])
  return {
    name: command.name(),
    path,
    description: summary(command.description()),
    commands: commands.map((sub) => nodeOf(sub, [...path, sub.name()], help, names)),
    options: help.visibleOptions(command).map((option) => ({
      names: [option.short, option.long].filter((name): name is string => name !== undefined),
      takesValue: option.required,
      choices: option.argChoices ?? [],
      description: summary(option.description),
    })),
    // Commander's own `help [command]` takes the name of a command beside it.
    values:
      command.name() === 'help' && argumentChoices.length === 0
        ? siblings.filter((n) => n !== 'help')
        : argumentChoices,
  }
}

/** The whole tree under `program` (commander adds its implicit `help` commands and options here). */
export function completionTree(program: Command): CompletionNode {
  return nodeOf(program, [], program.createHelp(), [])
}

/** Every node, the root first, depth first. */
export function allNodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.commands.flatMap(allNodes)]
}

/** A node's path as the generated scripts key it: the names joined by spaces ('' for the root). */
export function pathKey(node: CompletionNode): string {
  return node.path.join(' ')
}

/** The shells `proctor completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const
export type CompletionShell = (typeof COMPLETION_SHELLS)[number]
