// One decision for colour in every command: NO_COLOR wins, FORCE_COLOR colours a pipe (0/false turns it
// off on a terminal too), otherwise only a terminal is coloured.
import { describe, expect, it } from 'vitest'
import { useColor } from '../../src/cli/color.js'

describe('useColor', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '' }, true],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, false],
  ] as const)('terminal %s with %j → %s', (isTTY, env, expected) => {
    expect(useColor({ isTTY }, env)).toBe(expected)
  })
})
