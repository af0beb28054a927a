// `proctor checkpoints create` runs without commander when its options are the plain ones; anything else
// must go to commander, which parses and reports it as for every other command.
import { describe, expect, it } from 'vitest'

import { plainCreateOptions } from '../../src/cli/commands/checkpoints-create.js'

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
})
