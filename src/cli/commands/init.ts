// proctor init [--force]: proctor.yml, .husky/pre-push and an example workflow; never overwrites without --force.
import type { Command } from 'commander'
import { processHookIO, type HookCommandIO } from '../../hooks/cli-io.js'
import { writeInitFiles } from '../../hooks/init.js'

export function registerInitCommand(program: Command, io: HookCommandIO = processHookIO): Command {
  return program
    .command('init')
    .description('write a starter proctor.yml, the husky pre-push hook and an example workflow')
    .option('--force', 'overwrite files that already exist')
    .action(async (opts: { force?: boolean }) => {
      const result = await writeInitFiles(io.cwd(), opts.force === true)
      for (const path of result.written) io.stdout(`wrote ${path}\n`)
      for (const path of result.kept) io.stdout(`kept  ${path} (it exists; use --force to overwrite)\n`)
      for (const hint of result.hints) io.stdout(`note: ${hint}\n`)
    })
}
