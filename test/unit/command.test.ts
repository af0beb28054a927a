import { describe, it, expect } from 'vitest'
import { commandOf, helpText } from '../../src/github/command.js'
import { triggerOf } from '../../src/github/trigger.js'

const settings = { phrase: ['@proctor', '/proctor'], label: 'proctor' }
const comment = (body: string) => ({
  action: 'created',
  comment: { id: 1, body, user: { login: 'alice' } },
  issue: { number: 7 },
})

describe('follow-up commands', () => {
  it('a known verb is a command, with its argument; a task of several words stays a task', () => {
    expect(commandOf('continue add a test for the parser\nand docs')).toEqual({
      verb: 'continue',
      feedback: 'add a test for the parser\nand docs',
    })
    expect(commandOf('Retry')).toEqual({ verb: 'retry' })
    expect(commandOf('stop')).toEqual({ verb: 'stop' })
    expect(commandOf('promote')).toEqual({ verb: 'promote' })
    expect(commandOf('restore 3')).toEqual({ verb: 'restore', checkpoint: 3 })
    expect(commandOf('restore #2')).toEqual({ verb: 'restore', checkpoint: 2 })
    expect(commandOf('fix the typo in README')).toBeNull()
  })

  it('a one-word text that is no verb, or a verb used wrongly, is answered with the help text, never run as a task', () => {
    expect(commandOf('rety')).toEqual({ verb: 'help', problem: 'unknown command `rety`' })
    expect(commandOf('restore latest')).toMatchObject({ verb: 'help' })
    expect(commandOf('stop now please')).toEqual({ verb: 'help', problem: '`stop` takes no argument' })
    expect(commandOf('help')).toEqual({ verb: 'help', problem: null })
    expect(helpText('/proctor', null)).toContain('`/proctor restore <n>`')
  })

  it('the trigger carries the command; text after the verb is data ($(…), backticks stay text)', () => {
    const trigger = triggerOf('issue_comment', comment('/proctor continue run `rm -rf /` $(id)'), settings)
    expect(trigger).toMatchObject({
      kind: 'task',
      command: { verb: 'continue', feedback: 'run `rm -rf /` $(id)' },
    })
    expect(triggerOf('issue_comment', comment('@proctor fix the bug'), settings)).toMatchObject({
      kind: 'task',
      command: null,
    })
  })
})
