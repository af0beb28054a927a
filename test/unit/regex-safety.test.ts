// The load-time check of detect patterns refuses only what really backtracks: safe-regex2's suspicion
// (a quantifier inside a quantified group) is measured by counting a backtracking match's steps on pumped
// lines, so a bounded optional group such as `(\d+m )?` passes and `(a+)+$` is still refused, with the
// line that explodes it.
import safeRegex from 'safe-regex2'
import { describe, expect, it } from 'vitest'
import { catastrophicRegex } from '../../src/config/regex-safety.js'

describe('catastrophicRegex', () => {
  it.each([
    String.raw`✻ \S+ for (\d+m )?\d+s`,
    String.raw`^\s*(?:[⎿●⏺]\s*)?API Error: \S.*`,
    String.raw`(\d+m )+x`,
    String.raw`^(?:Yes|No)(?:, \w+)*$`,
  ])('lets %s through: suspected by safe-regex2, but its steps do not explode', (pattern) => {
    expect(safeRegex(pattern)).toBe(false)
    expect(catastrophicRegex(pattern)).toBeNull()
  })

  it('the completion rule from the issue matches a 50,000-character line in milliseconds', () => {
    const regex = new RegExp(String.raw`✻ \S+ for (\d+m )?\d+s`)
    for (const line of [`✻ ${'a'.repeat(50_000)}`, `✻ Baked for ${'1'.repeat(50_000)}`]) {
      const started = performance.now()
      regex.exec(line)
      expect(performance.now() - started).toBeLessThan(100)
    }
  })

  it.each([
    ['(a+)+$', '"a" × 20 + "\\u0001"'],
    [String.raw`(\w+\s?)+$`, '"a" × 20'],
    ['(a*)*b', '"a" × 20'],
    ['(x+x+)+y', '"xx" × 10'],
    ['((ab)*)+c', '"ab" × 20'],
  ])('refuses %s, naming the line that makes it explode', (pattern, line) => {
    const found = catastrophicRegex(pattern)
    expect(found?.message).toMatch(
      /can backtrack catastrophically \(measured: more than 200,000 backtracking steps/,
    )
    expect(found?.message).toContain(line)
    expect(found?.hint).toMatch(/drop the inner or the outer quantifier/)
  })

  it('the refused patterns really backtrack in V8 without the linear fallback', async () => {
    // A fresh node without proctor's flags, on the measured kind of line, 24 characters: seconds, not µs.
    const { spawnSync } = await import('node:child_process')
    const probe = spawnSync(
      process.execPath,
      ['-e', `const t=Date.now(); /(a+)+$/.exec('a'.repeat(22)+'\\u0001'); console.log(Date.now()-t)`],
      { encoding: 'utf8', timeout: 60_000 },
    )
    expect(Number(probe.stdout)).toBeGreaterThan(100)
  })
})
