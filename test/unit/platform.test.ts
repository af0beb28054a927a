// Windows is refused up front with what to do instead; POSIX systems pass.
import { describe, expect, it } from 'vitest'
import { platformProblem } from '../../src/util/platform.js'

describe('platformProblem', () => {
  it('refuses Windows, naming WSL and a Linux runner', () => {
    expect(platformProblem('win32')).toMatch(/not on Windows; run it in WSL, or use a Linux runner/)
  })
  it.each(['linux', 'darwin', 'freebsd'] as const)('accepts %s', (platform) => {
    expect(platformProblem(platform)).toBeNull()
  })
})
