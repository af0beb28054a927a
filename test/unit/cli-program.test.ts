// The command tree users see: every command of the CLI contract (design.md §8) is there, and the
// version printed is the package's.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { PROCTOR_VERSION } from '../../src/util/version.js'
import { chooseCommand } from '../../src/cli/commands/run.js'
import { configSchema } from '../../src/config/schema.js'
import { CliExit } from '../../src/cli/exit.js'

describe('proctor CLI', () => {
  it('has every command of the contract', () => {
    const names = buildProgram().commands.map((c) => c.name())
    for (const name of ['run', 'check', 'checkpoints', 'batch', 'hooks', 'init', 'config', 'report']) {
      expect(names).toContain(name)
    }
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
