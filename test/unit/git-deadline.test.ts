// The rule every git call of a session is killed by (issue 28): a cap per call, the session's end, and a
// floor for a call that starts after the end (the final checkpoint).
import { describe, expect, it } from 'vitest'

import { GitDeadline } from '../../src/git/deadline.js'

describe('GitDeadline', () => {
  it('without an end, only the per-call cap', () => {
    const deadline = new GitDeadline(300_000, 2_000)
    expect(deadline.killAt(1_000)).toBe(301_000)
  })

  it('a call is killed at the end when it comes before the cap; one started after the end gets the floor', () => {
    const deadline = new GitDeadline(300_000, 2_000)
    deadline.endBy(10_000)
    expect(deadline.killAt(1_000)).toBe(10_000)
    expect(deadline.killAt(9_500)).toBe(11_500)
    expect(deadline.killAt(20_000)).toBe(22_000)
  })

  it('SIGTERM moves the end closer, never further, and running calls hear of it', () => {
    const deadline = new GitDeadline(300_000, 2_000)
    let told = 0
    const unwatch = deadline.watch(() => told++)
    deadline.endBy(100_000)
    deadline.shorten(50_000)
    deadline.shorten(80_000)
    expect(deadline.killAt(0)).toBe(50_000)
    expect(told).toBe(2)
    unwatch()
    deadline.shorten(40_000)
    expect(told).toBe(2)
  })
})
