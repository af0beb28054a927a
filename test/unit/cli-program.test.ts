// The command tree users see: every command of the CLI contract (README, "The CLI") is there, and the
// version printed is the package's.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { PROCTOR_VERSION } from '../../src/util/version.js'
import { chooseCommand } from '../../src/cli/commands/run.js'
import { configSchema } from '../../src/config/schema.js'
import { CliExit } from '../../src/cli/exit.js'

describe('proctor CLI', () => {
  it('has every command of the contract', async () => {
    const names = (await buildProgram()).commands.map((c) => c.name())
    for (const name of ['run', 'check', 'checkpoints', 'batch', 'hooks', 'init', 'config', 'report']) {
      expect(names).toContain(name)
    }
  })

  it('loads only the command it runs, and all of them for help or an unknown name', async () => {
    const only = (await buildProgram(['node', 'proctor', 'config', 'validate'])).commands.map((c) => c.name())
    expect(only).toEqual(['config'])
    const flagsFirst = (await buildProgram(['node', 'proctor', '--no-color', 'run'])).commands
    expect(flagsFirst.map((c) => c.name())).toEqual(['run'])
    expect((await buildProgram(['node', 'proctor', '--help'])).commands.length).toBeGreaterThanOrEqual(9)
    expect((await buildProgram(['node', 'proctor', 'rnu'])).commands.length).toBeGreaterThanOrEqual(9)
    expect((await buildProgram(['node', 'proctor', '--version'])).commands).toEqual([])
  })

  it('prints the version from package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(PROCTOR_VERSION).toBe(pkg.version)
  })

  it('takes the agent command from the command line before proctor.yml, never joined', () => {
    const config = configSchema.parse({ agent: { command: ['claude', '-p', 'from config'] } })
    expect(chooseCommand(['aider', '--message', 'a b'], undefined, config)).toEqual({
      file: 'aider',
      args: ['--message', 'a b'],
    })
    expect(chooseCommand([], 'make test | tee log', config)).toEqual({ shell: 'make test | tee log' })
    expect(chooseCommand([], undefined, config)).toEqual({ file: 'claude', args: ['-p', 'from config'] })
    expect(() => chooseCommand(['x'], 'y', config)).toThrow(CliExit)
    expect(() => chooseCommand([], undefined, configSchema.parse({}))).toThrow(/no agent command/)
  })
})
