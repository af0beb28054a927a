// `proctor checkpoints create` runs without commander when its options are the plain ones; anything else
// must go to commander, which parses and reports it as for every other command.
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'

import {
  CREATE_OPTIONS,
  plainCreateOptions,
  type CreateOptions,
} from '../../src/cli/commands/checkpoints-create.js'
import { registerCheckpointsCommand, type CheckpointsIO } from '../../src/cli/commands/checkpoints.js'

/** What commander hands the create action for `proctor checkpoints create <args>`. */
async function viaCommander(args: string[]): Promise<CreateOptions> {
  let seen: CreateOptions | null = null
  const program = new Command().exitOverride()
  const io: CheckpointsIO = { cwd: () => process.cwd(), stdout: () => undefined, stderr: () => undefined }
  registerCheckpointsCommand(program, io)
  const create = program.commands[0]!.commands.find((c) => c.name() === 'create')!
  create.exitOverride().action((opts: CreateOptions) => {
    seen = { ...opts }
  })
  await program.parseAsync(['node', 'proctor', 'checkpoints', 'create', ...args])
  if (!seen) throw new Error('the action did not run')
  return seen
}

describe('plainCreateOptions', () => {
  it('reads the documented options in the shapes commander accepts', () => {
    expect(plainCreateOptions([])).toEqual({})
    expect(plainCreateOptions(['--session', 'ci-1', '--json'])).toEqual({ session: 'ci-1', json: true })
    expect(plainCreateOptions(['--session=ci-1', '-c', 'p.yml'])).toEqual({
      session: 'ci-1',
      config: 'p.yml',
    })
    expect(plainCreateOptions(['--config=conf/p.yml'])).toEqual({ config: 'conf/p.yml' })
    expect(plainCreateOptions(['--config', 'a=b.yml'])).toEqual({ config: 'a=b.yml' })
    // As node's strict parseArgs read them: "-" alone is a value, an inline value may look like an option.
    expect(plainCreateOptions(['--session', '-'])).toEqual({ session: '-' })
    expect(plainCreateOptions(['--session=-x', '--json'])).toEqual({ session: '-x', json: true })
    expect(plainCreateOptions(['--session='])).toEqual({ session: '' })
  })

  it('leaves everything else to commander', () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ['--sesion', 'x'],
      ['extra'],
      ['--session'],
      ['--session', '--json'],
      ['-c'],
      ['-cp.yml'],
      ['--json', '--json'],
      ['--session', 'a', '--session', 'b'],
      ['--', '--json'],
      ['--json=yes'],
      ['-c=p.yml'],
      ['-j'],
      ['-'],
      ['--'],
      ['--config', '-x'],
      ['-c', 'a.yml', '--config', 'b.yml'],
      ['--=x'],
      ['---session', 'x'],
    ])
      expect(plainCreateOptions(args), args.join(' ')).toBeNull()
  })

  it('reads every option of the one table as commander does, in each way it can be written', async () => {
    for (const row of CREATE_OPTIONS) {
      const names = [`--${row.long}`, ...('short' in row ? [`-${row.short}`] : [])]
      const forms = names.flatMap((name) =>
        'value' in row ? [[name, 'v 1'], ...(name.startsWith('--') ? [[`${name}=v=1`]] : [])] : [[name]],
      )
      for (const args of forms) {
        const plain = plainCreateOptions(args)
        expect(plain, args.join(' ')).not.toBeNull()
        expect(plain, args.join(' ')).toEqual(await viaCommander(args))
      }
    }
  })
})
