// The `proctor` command tree. Kept apart from main.ts so tests can build the program without exiting.
import { Command } from 'commander'
import { registerRunCommand } from './commands/run.js'
import { registerConfigCommand } from './commands/config.js'
import { registerCheckCommand } from './commands/check.js'
import { registerHookCommand } from './commands/hook.js'
import { registerHooksCommand } from './commands/hooks.js'
import { registerInitCommand } from './commands/init.js'
import { registerCheckpointsCommand } from './commands/checkpoints.js'
import { registerReportCommand } from './commands/report.js'
import { registerBatchCommand } from './commands/batch.js'
import { PROCTOR_VERSION } from '../util/version.js'
import { pushCheckpointsAlong } from '../session/push-on-pre-push.js'

export function buildProgram(): Command {
  const program = new Command()
    .name('proctor')
    .description('Supervise an AI coding-agent session: lifecycle, checkpoints, stop hooks, reports.')
    .version(PROCTOR_VERSION)
    .showHelpAfterError('(run proctor --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  registerRunCommand(program)
  registerCheckCommand(program, { pushCheckpoints: pushCheckpointsAlong })
  registerCheckpointsCommand(program)
  registerBatchCommand(program)
  registerHooksCommand(program)
  registerHookCommand(program)
  registerInitCommand(program)
  registerConfigCommand(program)
  registerReportCommand(program)
  // Subcommands inherit exitOverride so usage errors come back as exceptions with exit code 2.
  for (const sub of program.commands) sub.exitOverride()
  return program
}
