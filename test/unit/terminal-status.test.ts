// Stop hooks in the terminal: a status line redrawn in place on a TTY, plain lines anywhere else.
import { describe, expect, it } from 'vitest'
import { HookStatus } from '../../src/report/terminal.js'

function sink(isTTY: boolean) {
  const writes: string[] = []
  return { out: { isTTY, write: (t: string) => void writes.push(t) }, writes }
}

const passed = {
  name: 'tests',
  verdict: 'allow' as const,
  reason: null,
  exit_code: 0,
  duration_ms: 12_000,
  round: 1,
}

describe('HookStatus', () => {
  it('on a terminal, redraws "tests running 12s…" in place and leaves a result line', () => {
    let now = 1_000
    const { out, writes } = sink(true)
    const status = new HookStatus({ out, color: false, now: () => now, intervalMs: 0 })
    status.started('tests')
    now += 12_000
    status.render()
    expect(writes.at(-1)).toBe('\r\x1b[2K⏳ tests running 12s…')
    status.started('lint')
    now += 1_000
    status.render()
    expect(writes.at(-1)).toBe('\r\x1b[2K⏳ tests running 13s… · lint running 1.0s…')
    status.finished({ ...passed, duration_ms: 13_000 })
    expect(writes.slice(-3)).toEqual([
      '\r\x1b[2K',
      'proctor: stop hook tests passed (13s)\n',
      '\r\x1b[2K⏳ lint running 1.0s…',
    ])
    status.finished({
      ...passed,
      name: 'lint',
      verdict: 'block',
      reason: 'no tests\nmore',
      duration_ms: 1_000,
    })
    expect(writes.slice(-2)).toEqual(['\r\x1b[2K', 'proctor: stop hook lint blocked (1.0s) — no tests\n'])
  })

  it('anywhere else, writes plain lines only', () => {
    const { out, writes } = sink(false)
    const status = new HookStatus({ out, color: false })
    status.started('tests')
    status.render()
    status.finished(passed)
    status.stop()
    expect(writes).toEqual(['proctor: stop hook tests running…\n', 'proctor: stop hook tests passed (12s)\n'])
  })
})
