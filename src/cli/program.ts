// The `proctor` command tree. Kept apart from main.ts so tests can build the program without exiting.
// Each command's module (and what it imports: the supervisor, git, octokit…) is loaded only when that
// command runs; `--help` and unknown commands load them all to list them.
import { Command } from 'commander'
import { PROCTOR_VERSION } from '../util/version.js'

type Register = (program: Command) => void

const COMMANDS: Record<string, () => Promise<Register>> = {
  run: async () => {
    const [{ registerRunCommand }, { agentPresetChoices }] = await Promise.all([
      import('./commands/run.js'),
      import('../agents/presets/index.js'),
    ])
    return (program) => registerRunCommand(program, agentPresetChoices())
  },
  check: async () => {
    const [{ registerCheckCommand }, { pushCheckpointsAlong }] = await Promise.all([
      import('./commands/check.js'),
      import('../session/push-on-pre-push.js'),
    ])
    return (program) => registerCheckCommand(program, { pushCheckpoints: pushCheckpointsAlong })
  },
  checkpoints: async () => (await import('./commands/checkpoints.js')).registerCheckpointsCommand,
  batch: async () => (await import('./commands/batch.js')).registerBatchCommand,
  hooks: async () => (await import('./commands/hooks.js')).registerHooksCommand,
  hook: async () => (await import('./commands/hook.js')).registerHookCommand,
  init: async () => (await import('./commands/init.js')).registerInitCommand,
  config: async () => (await import('./commands/config.js')).registerConfigCommand,
  report: async () => (await import('./commands/report.js')).registerReportCommand,
  completion: async () => (await import('./commands/completion.js')).registerCompletionCommand,
}

/** The names of every command, in `--help` order. */
export const COMMAND_NAMES = Object.keys(COMMANDS)

/**
 * Builds the program for `argv` (process.argv shape): only the command it names is loaded; without one
 * (or with an unknown one, so commander can suggest the right name) every command is.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command()
    .name('proctor')
    .description('Supervise an AI coding-agent session: lifecycle, checkpoints, stop hooks, reports.')
    .version(PROCTOR_VERSION)
    .showHelpAfterError('(run proctor --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  const args = argv.slice(2)
  const named = args.find((arg) => !arg.startsWith('-'))
  const versionOnly = args.length > 0 && args.every((arg) => arg === '-V' || arg === '--version')
  const wanted = versionOnly ? [] : named && named in COMMANDS ? [named] : COMMAND_NAMES
  const registrars = await Promise.all(wanted.map((name) => COMMANDS[name]!()))
  for (const register of registrars) register(program)
  // Subcommands inherit exitOverride so usage errors come back as exceptions with exit code 2.
  for (const sub of program.commands) sub.exitOverride()
  return program
}
