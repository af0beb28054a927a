// The follow-up commands of a conversation with proctor (docs/github.md#the-conversation): what follows the
// trigger phrase, read as a verb and its argument. The text is someone's words: it picks one of a fixed
// set of verbs and is never run, split for a shell or interpolated into a command line.

export const VERBS = ['continue', 'retry', 'stop', 'restore', 'promote', 'help'] as const
export type Verb = (typeof VERBS)[number]

export type Command =
  | { verb: 'continue'; feedback: string }
  | { verb: 'retry' }
  | { verb: 'stop' }
  | { verb: 'restore'; checkpoint: number }
  | { verb: 'promote' }
  /** `help`, an unknown one-word verb, or a verb used wrongly: answered with the help text. */
  | { verb: 'help'; problem: string | null }

/**
 * The command in a task text (what follows the phrase), or null when the text is a task. A first word
 * that is one of the verbs (any case) makes a command; so does a text of one word only (`/proctor rety`):
 * no task is one word long, and a typo must not start a paid session.
 */
export function commandOf(text: string): Command | null {
  const trimmed = text.trim()
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed)
  if (!match) return null
  const word = match[1]!.toLowerCase().replace(/[.:!,]+$/, '')
  const rest = (match[2] ?? '').trim()
  switch (word) {
    case 'continue':
      return { verb: 'continue', feedback: rest }
    case 'retry':
    case 'stop':
    case 'promote': {
      const verb: 'retry' | 'stop' | 'promote' = word
      return rest === '' ? { verb } : { verb: 'help', problem: `\`${word}\` takes no argument` }
    }
    case 'restore': {
      const n = /^#?(\d{1,6})$/.exec(rest)?.[1]
      return n === undefined
        ? { verb: 'help', problem: '`restore` needs the number of a checkpoint, e.g. `/proctor restore 2`' }
        : { verb: 'restore', checkpoint: Number(n) }
    }
    case 'help':
      return { verb: 'help', problem: null }
    default:
      return rest === '' ? { verb: 'help', problem: `unknown command \`${word.slice(0, 40)}\`` } : null
  }
}

/** The short reply to `help` and to anything proctor could not read as a command. */
export function helpText(phrase: string, problem: string | null): string {
  return [
    problem ? `proctor: ${problem}.` : 'proctor: the commands of a conversation:',
    '',
    '| command | what it does |',
    '| --- | --- |',
    `| \`${phrase} <task>\` | starts a session on the task (at least two words) |`,
    `| \`${phrase} continue <feedback>\` | the next round of the session, from its checkpoint branch, with your feedback |`,
    `| \`${phrase} retry\` | runs the last round's task again from the same base |`,
    `| \`${phrase} stop\` | cancels the running round's workflow run |`,
    `| \`${phrase} restore <n>\` | moves the checkpoint branch back to checkpoint n (the later ones stay under a kept branch) |`,
    `| \`${phrase} promote\` | opens or updates a pull request from the checkpoint branch once its gates passed |`,
    '',
    'docs/github.md#the-conversation',
  ].join('\n')
}
