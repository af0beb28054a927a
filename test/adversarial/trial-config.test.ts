// Findings of the h-trial session as a user writing proctor.yml: a key combination that cannot work is
// refused when the file is read, at its line with the fix, like any other mistake in it (not at the start of
// a session, with a session directory and a report for nothing and no line named).
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfigText } from '../../src/config/index.js'

function errorsOf(text: string, preset = {}): string[] {
  try {
    parseConfigText(text, 'proctor.yml', preset)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).message.split('\n')
  }
  throw new Error('expected the config to be rejected')
}

describe('a budget without the metering proxy', () => {
  it('is refused at the budget key’s line, naming model_api.proxy as the fix', () => {
    const lines = errorsOf('checkpoints:\n  push: never\nbudget:\n  usd: 5\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^proctor\.yml:3:1 budget: a budget needs the metering proxy/)
    expect(lines[0]).toContain('model_api: { proxy: true')
  })

  it('budget.batch alone needs it too; model_api.proxy without api is named at its line', () => {
    expect(errorsOf('budget:\n  batch:\n    requests: 3\n')[0]).toMatch(/^proctor\.yml:1:1 budget: /)
    const lines = errorsOf('model_api:\n  proxy: true\nbudget:\n  tokens: 100\n')
    expect(lines[0]).toMatch(/^proctor\.yml:2:3 model_api\.proxy: .*needs model_api\.api/)
    // Without a budget too: the proxy cannot start without knowing the API.
    expect(errorsOf('model_api:\n  proxy: true\n')[0]).toMatch(/^proctor\.yml:2:3 model_api\.proxy: /)
  })

  it('is accepted with the proxy on, from the file or from an agent preset, and without a limit', () => {
    expect(() =>
      parseConfigText('model_api: { proxy: true, api: openai }\nbudget: { tokens: 10 }\n', 'proctor.yml'),
    ).not.toThrow()
    expect(() =>
      parseConfigText('budget: { usd: 1 }\n', 'proctor.yml', { preset: 'claude-code' }),
    ).not.toThrow()
    expect(() => parseConfigText('budget: { warn_at: 0.5 }\n', 'proctor.yml')).not.toThrow()
  })
})
