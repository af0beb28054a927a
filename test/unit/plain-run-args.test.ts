// `proctor run` runs without commander when its arguments are the plain ones (plain-run.ts): what it reads
// must be exactly what commander hands the run action, and anything else must go to commander.
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'

import { plainRunArgs, RUN_OPTIONS } from '../../src/cli/plain-run.js'
import { registerRunCommand, type RunFlags } from '../../src/cli/commands/run.js'

/** What commander hands the run action for `proctor run <args>`. */
async function viaCommander(args: string[]): Promise<{ argv: string[]; flags: RunFlags }> {
  let seen: { argv: string[]; flags: RunFlags } | null = null
  const program = new Command().exitOverride()
  registerRunCommand(program, [], async (argv, flags) => {
    seen = { argv, flags: { ...flags } }
  })
  for (const sub of program.commands) sub.exitOverride()
  await program.parseAsync(['node', 'proctor', 'run', ...args])
  if (!seen) throw new Error('the action did not run')
  return seen
}

describe('plainRunArgs', () => {
  it('reads the plain forms exactly as commander does', async () => {
    for (const args of [
      [],
      ['--'],
      ['--', 'sh', '-c', 'exit 0'],
      ['--quiet', '--', 'claude', '-p', 'fix the test', '--', '--json'],
      ['-q', '--no-pty', '--json', '--', 'x'],
      ['--no-checkpoints', '--no-push', '--', 'x', '-q'],
      ['-c', 'conf/p.yml', '--agent', 'claude', '--', 'claude'],
      ['--config=conf/p.yml', '--timeout=30m', '--idle-timeout', '5m', '--', 'x'],
      ['--shell', 'make test | tee log'],
      ['--shell=a --b', '--session', 'ci-1'],
      ['--session=', '--', 'x'],
      ['--session=-x', '--', 'x'],
      ['--config', 'a=b.yml', '--', 'x'],
      ['-q', '--quiet', '--', 'x'],
      ['--', '--help'],
      ['--', '-V'],
    ]) {
      expect(plainRunArgs(args), args.join(' ')).toEqual(await viaCommander(args))
    }
  })

  it('leaves everything else to commander', () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ['-V'],
      ['--version'],
      ['--quite', '--', 'x'],
      ['claude'],
      ['claude', '-p', 'x'],
      ['-qc', 'p.yml', '--', 'x'],
      ['-cp.yml', '--', 'x'],
      ['-c=p.yml', '--', 'x'],
      ['--config'],
      ['--config', '--', 'x'],
      ['--session', '-x', '--', 'x'],
      ['-c', 'a.yml', '--config', 'b.yml', '--', 'x'],
      ['--timeout', '1m', '--timeout', '2m'],
      ['--quiet=yes', '--', 'x'],
      ['--no-pty', '--no-pty', '--', 'x'],
      ['--pty', '--', 'x'],
      ['-', '--', 'x'],
      ['---quiet', '--', 'x'],
      ['--constructor', 'x', '--', 'x'],
      ['--__proto__', 'x', '--', 'x'],
    ])
      expect(plainRunArgs(args), args.join(' ')).toBeNull()
  })

  it('reads every option of the one table as commander does, in each way it can be written', async () => {
    for (const row of RUN_OPTIONS) {
      const names = [`--${row.long}`, ...('short' in row ? [`-${row.short}`] : [])]
      const forms = names.flatMap((name) =>
        'value' in row ? [[name, 'v 1'], ...(name.startsWith('--') ? [[`${name}=v=1`]] : [])] : [[name]],
      )
      for (const form of forms) {
        const args = [...form, '--', 'agent', '-x']
        const plain = plainRunArgs(args)
        expect(plain, args.join(' ')).not.toBeNull()
        expect(plain, args.join(' ')).toEqual(await viaCommander(args))
      }
    }
  })
})
