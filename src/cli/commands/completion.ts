// proctor completion bash|zsh|fish: prints a completion script for the shell, generated from the command
// tree every other command registers (src/cli/program.ts), so it cannot fall out of step with it.
import { Argument, type Command } from 'commander'
import { bashScript } from '../completion/bash.js'
import { fishScript } from '../completion/fish.js'
import { COMPLETION_SHELLS, completionTree, type CompletionShell } from '../completion/tree.js'
import { zshScript } from '../completion/zsh.js'

const RENDER = { bash: bashScript, zsh: zshScript, fish: fishScript } as const

export function registerCompletionCommand(program: Command): Command {
  return program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for proctor')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices([...COMPLETION_SHELLS]))
    .addHelpText(
      'after',
      '\nLoad it:\n' +
        '  bash  source <(proctor completion bash)\n' +
        '  zsh   source <(proctor completion zsh)      (after compinit)\n' +
        '  fish  proctor completion fish | source\n',
    )
    .action(async (shell: CompletionShell) => {
      // The program this command was registered on holds only this command: build the whole tree.
      const { buildProgram } = await import('../program.js')
      const full = await buildProgram()
      process.stdout.write(RENDER[shell](completionTree(full)))
    })
}
