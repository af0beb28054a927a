// Detect rules and policy globs are checked by the code that will use them, at load time, with positions:
// a bad rule must not wait for the first line of agent output (or the first checkpoint) to fail.
import { describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/parse.js'
import { ConfigError } from '../../src/config/errors.js'
import { loadConfig } from '../../src/config/load.js'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function errorsOf(text: string): string[] {
  try {
    parseConfigText(text, 'proctor.yml')
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n')
    throw error
  }
  return []
}

describe('load-time checks of detect rules and policy', () => {
  it('names a rule with two responses, a duplicate rule name and a glob that leaves the repository', () => {
    const errors = errorsOf(
      [
        'detect:',
        '  - name: a',
        "    match: 'x'",
        '    respond: { send: "y", stop: true }',
        '  - name: a',
        "    match: 'y'",
        'policy:',
        '  forbidden_areas: ["../outside"]',
      ].join('\n'),
    )
    expect(errors[0]).toMatch(/^proctor\.yml:2:5 detect\[0\]: respond has send and stop/)
    expect(errors[1]).toMatch(/^proctor\.yml:5:11 detect\[1\]\.name: duplicate detect rule name "a"/)
    expect(errors[2]).toMatch(
      /^proctor\.yml:8:21 policy\.forbidden_areas\[0\]: "\.\.\/outside" contains "\.\."/,
    )
  })

  it('checks a stop hook’s gate_files like the policy’s globs, through loadConfig too (file:line:col)', async () => {
    const text = [
      'stop_hooks:',
      '  - name: tests',
      '    command: npm test',
      '    gate_files: [test/helpers/**, "../outside", "!only"]',
    ].join('\n')
    const errors = errorsOf(text)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^proctor\.yml:4:35 stop_hooks\[0\]\.gate_files\[1\]: "\.\.\/outside" contains "\.\."; patterns are relative to the repository root/,
    )
    const dir = mkdtempSync(join(tmpdir(), 'proctor-gates-'))
    try {
      writeFileSync(join(dir, 'proctor.yml'), text)
      await expect(loadConfig({ cwd: dir })).rejects.toThrow(
        /stop_hooks\[0\]\.gate_files\[1\]: "\.\.\/outside"/,
      )
      writeFileSync(
        join(dir, 'proctor.yml'),
        'stop_hooks:\n  - { name: t, command: npm test, gate_files: ["t/**"] }\n',
      )
      expect((await loadConfig({ cwd: dir })).config.stop_hooks[0]!.gate_files).toEqual(['t/**'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a pattern that matches empty text, which would fire on every line', () => {
    const [error] = errorsOf("detect:\n  - name: everything\n    match: '.*'\n")
    expect(error).toMatch(/^proctor\.yml:2:5 detect\[0\]: match ".\*" matches empty text/)
  })

  it('warns (without failing) when revert_on_violation can never revert anything', () => {
    const { warnings } = parseConfigText('policy:\n  revert_on_violation: true\n', 'proctor.yml')
    expect(warnings.join('\n')).toMatch(/revert_on_violation is true but no constraint has severity critical/)
  })
})
