// YAML anchors and aliases (`&name`, `*name`) hand the validator one input object in several places. Each
// place gets a value of its own, as it always had: zod's cycle support, which schema.ts turns off, would
// answer the second visit with the first one's output object. (A file of its own: the schema is fresh, its
// lazily built parts not yet built by other tests' parses.)
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfigText } from '../../src/config/index.js'

describe('YAML anchors and aliases', () => {
  it('give each place an alias is used a value of its own, parse after parse', () => {
    const text = [
      'hooks:',
      '  session_start: [&hook { command: "echo hi" }]',
      '  session_end: [*hook]',
      'batch:',
      '  tasks: [&task { name: a, shell: "true" }, *task]',
    ].join('\n')
    for (let i = 0; i < 3; i++) {
      const { config } = parseConfigText(text, 'proctor.yml')
      const [start, end] = [config.hooks.session_start![0]!, config.hooks.session_end![0]!]
      expect(end).toEqual(start)
      expect(end).not.toBe(start)
      expect(config.batch.tasks[1]).toEqual(config.batch.tasks[0])
      expect(config.batch.tasks[1]).not.toBe(config.batch.tasks[0])
    }
  })

  it('reports an alias that makes a value contain itself where it does not fit', () => {
    let message = ''
    try {
      parseConfigText('stop_hooks: &hooks\n  - name: a\n    command: *hooks\n', 'proctor.yml')
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    expect(message).toBe('proctor.yml:3:14 stop_hooks[0].command[0]: expected a string, got a mapping')
  })
})
