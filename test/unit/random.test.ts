import { describe, expect, it } from 'vitest'
import { randomHex } from '../../src/util/random.js'

describe('randomHex', () => {
  it('gives the asked number of random bytes as lower-case hex, different each time', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const hex = randomHex(16)
      expect(hex).toMatch(/^[0-9a-f]{32}$/)
      seen.add(hex)
    }
    expect(seen.size).toBe(200)
    expect(randomHex(3)).toMatch(/^[0-9a-f]{6}$/)
    expect(randomHex(0)).toBe('')
  })
})
