// A PTY agent is spawned before xterm is loaded (src/supervisor/screen.ts): the screen holds what the agent
// prints meanwhile and renders all of it, in order, once xterm is there. Each test gets a fresh copy of the
// module, so xterm is not loaded yet when its screen is constructed.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const b = (s: string) => Buffer.from(s, 'utf8')

async function freshScreenModule() {
  vi.resetModules()
  return import('../../src/supervisor/screen.js')
}

describe('RenderedScreen constructed before xterm is loaded', () => {
  beforeEach(() => vi.resetModules())

  it('renders the output written before xterm loaded, escapes split across chunks included', async () => {
    const { RenderedScreen } = await freshScreenModule()
    const parsed: number[] = []
    const screen = new RenderedScreen({ cols: 30, rows: 4, onParsed: () => parsed.push(1) })
    // Nothing is rendered in this turn: xterm is not even being read yet.
    expect(screen.visibleLines()).toEqual(['', '', '', ''])
    expect(screen.tailText(10)).toBe('')
    const bytes = b('first\r\n\x1b[31mröd\x1b[0m ✓\r\n\x1b[1;1Htop  ')
    for (let i = 0; i < bytes.length; i += 3) screen.write(bytes.subarray(i, i + 3))
    await screen.flush()
    expect(screen.visibleLines()).toEqual(['top  ', 'röd ✓', '', ''].map((l) => l.trimEnd()))
    expect(parsed.length).toBeGreaterThan(0)
    screen.dispose()
  })

  it('keeps what it holds before xterm loaded when the chunks come in one reused buffer', async () => {
    // The agent's output is read into one buffer that the next read overwrites (reuse-read.ts).
    const { RenderedScreen } = await freshScreenModule()
    const screen = new RenderedScreen({ cols: 30, rows: 3 })
    const reused = Buffer.alloc(4)
    const bytes = b('first\r\nsecond\r\nthird')
    for (let i = 0; i < bytes.length; i += reused.length) {
      const n = bytes.copy(reused, 0, i, i + reused.length)
      screen.write(reused.subarray(0, n))
      reused.fill(0x21)
    }
    await screen.flush()
    expect(screen.visibleLines()).toEqual(['first', 'second', 'third'])
    screen.dispose()
  })

  it('takes a resize made before xterm loaded', async () => {
    const { RenderedScreen } = await freshScreenModule()
    const screen = new RenderedScreen({ cols: 10, rows: 3 })
    screen.resize(40, 3)
    screen.write(b('a line longer than ten columns\r\n'))
    await screen.flush()
    expect(screen.visibleLines()[0]).toBe('a line longer than ten columns')
    screen.dispose()
  })

  it('a screen disposed before xterm loaded stays empty and its flush resolves', async () => {
    const { RenderedScreen, loadRenderer } = await freshScreenModule()
    const screen = new RenderedScreen({ cols: 20, rows: 2 })
    screen.write(b('never rendered'))
    screen.dispose()
    await loadRenderer()
    await screen.flush()
    expect(screen.visibleLines()).toEqual(['', ''])
  })

  it('screens constructed after loadRenderer() render at once', async () => {
    const { RenderedScreen, loadRenderer } = await freshScreenModule()
    await loadRenderer()
    const screen = new RenderedScreen({ cols: 20, rows: 2 })
    screen.write(b('now'))
    await screen.flush()
    expect(screen.visibleLines()[0]).toBe('now')
    screen.dispose()
  })
})
