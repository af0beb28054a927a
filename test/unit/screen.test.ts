import { describe, expect, it, vi } from 'vitest'
import { LineView, loadRenderer, RenderedScreen } from '../../src/supervisor/screen.js'

const b = (s: string) => Buffer.from(s, 'utf8')

describe('RenderedScreen (real @xterm/headless)', () => {
  it('shows what a terminal would show after cursor movement and clearing', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    screen.write(b('first line\r\nsecond line\r\n'))
    screen.write(b('\x1b[H\x1b[2J')) // home + clear screen
    screen.write(b('\x1b[2;5Hhello\x1b[1;1Htop   \x1b[K'))
    await screen.flush()
    expect(screen.visibleLines()).toEqual(['top', '    hello', '', '', ''])
    expect(screen.visibleText()).toBe('top\n    hello\n\n\n')
    screen.dispose()
  })

  it('flush waits for chunks split anywhere, even inside escape sequences and characters', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 3 })
    const bytes = b('\x1b[31mröd\x1b[0m text ✓\r\n')
    for (let i = 0; i < bytes.length; i++) screen.write(bytes.subarray(i, i + 1))
    await screen.flush()
    expect(screen.visibleLines()[0]).toBe('röd text ✓')
    screen.dispose()
  })

  it('tailText reaches into scrollback and leaves out blank rows below the output', async () => {
    const screen = new RenderedScreen({ cols: 20, rows: 5, scrollback: 100 })
    for (let i = 1; i <= 30; i++) screen.write(b(`line ${i}\r\n`))
    await screen.flush()
    expect(screen.tailText(8).split('\n')).toEqual(Array.from({ length: 8 }, (_, i) => `line ${23 + i}`))
    expect(screen.visibleLines()).toEqual(['line 27', 'line 28', 'line 29', 'line 30', ''])
    screen.dispose()
  })

  it('joins a wrapped long line into one logical line for matching', async () => {
    const screen = new RenderedScreen({ cols: 20, rows: 5 })
    screen.write(b('x'.repeat(15) + 'Allow this action? (y/n)'))
    await screen.flush()
    const lines = screen.screenLines()
    expect(lines[0]!.text).toBe('x'.repeat(15) + 'Allow this action? (y/n)')
    expect(lines[0]!.row).toBe(0)
    screen.dispose()
  })

  it('line identities stay put while lines scroll, also after the scrollback is full', async () => {
    const screen = new RenderedScreen({ cols: 20, rows: 6, scrollback: 3 })
    screen.write(b('target\r\n'))
    await screen.flush()
    const id = screen.screenLines()[0]!.line
    for (let i = 0; i < 12; i++) {
      screen.write(b(`more ${i}\r\n`)) // from the 4th line on, lines are trimmed off the top
      await screen.flush()
      const lines = screen.screenLines()
      const target = lines.find((l) => l.text === 'target')
      if (target) expect(target.line).toBe(id)
      // Every line keeps one identity from scan to scan: "more 0" never changes its id.
      const more0 = lines.find((l) => l.text === 'more 0')
      if (more0) expect(more0.line).toBe(id + 1)
    }
    expect(screen.screenLines().some((l) => l.text === 'target')).toBe(false)
    screen.dispose()
  })

  it('a flood renders only its tail, and the screen after it is exact', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    const lines: string[] = []
    for (let i = 0; i < 300_000; i++) lines.push(`line ${i}`)
    const flood = Buffer.from(lines.join('\r\n') + '\r\n')
    for (let i = 0; i < flood.length; i += 4096) screen.write(flood.subarray(i, i + 4096))
    await screen.flush()
    expect(screen.skippedBytes).toBeGreaterThan(flood.length / 2)
    expect(screen.visibleLines()).toEqual(['line 299996', 'line 299997', 'line 299998', 'line 299999', ''])
    screen.dispose()
  })

  it('keeps what it renders when every chunk comes in one buffer that the next read overwrites', async () => {
    // How the agent's output arrives (src/supervisor/reuse-read.ts): the screen must copy what it keeps.
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    const reused = Buffer.alloc(4096)
    const lend = (bytes: Buffer) => {
      for (let i = 0; i < bytes.length; i += reused.length) {
        const n = bytes.copy(reused, 0, i, i + reused.length)
        screen.write(reused.subarray(0, n))
        reused.fill(0x21) // the next read lands here
      }
    }
    lend(Buffer.from('\x1b[31mfirst\x1b[0m frame\r\nDo you want to proceed?'))
    await screen.flush()
    expect(screen.visibleLines().slice(0, 2)).toEqual(['first frame', 'Do you want to proceed?'])
    // A flood, thinned to its tail, then the prompt after it.
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i}`)
    lend(Buffer.from('\r\n' + lines.join('\r\n') + '\r\n'))
    lend(Buffer.from('Allow this action?'))
    await screen.flush()
    expect(screen.skippedBytes).toBeGreaterThan(0)
    expect(screen.visibleLines()).toEqual([
      'line 99996',
      'line 99997',
      'line 99998',
      'line 99999',
      'Allow this action?',
    ])
    screen.dispose()
  })

  it("renders little of a flood's first window: what came at once, then the end of it", async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i}`)
    const flood = Buffer.from(lines.join('\r\n') + '\r\n')
    for (let i = 0; i < flood.length; i += 4096) screen.write(flood.subarray(i, i + 4096))
    await screen.flush()
    // At most the 16 KB tail (once the whole 64 KB budget of the window and a 32 KB tail; then 16 KB as
    // they came and a 16 KB tail; now nothing of the start: it never paused).
    expect(flood.length - screen.skippedBytes).toBeLessThanOrEqual(40 * 1024)
    expect(screen.visibleLines()).toEqual(['line 49996', 'line 49997', 'line 49998', 'line 49999', ''])
    screen.dispose()
  })

  it('renders none of the start of a flood: it is known as one before xterm parses any of it', async () => {
    // Coloured lines (ESC in every one), so only the thinning at the start is at stake here, not the
    // plain-text tail below.
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    const lines = Array.from({ length: 50_000 }, (_, i) => `\x1b[32mline\x1b[0m ${i}`)
    const flood = Buffer.from(lines.join('\r\n') + '\r\n')
    for (let i = 0; i < flood.length; i += 4096) screen.write(flood.subarray(i, i + 4096))
    await screen.flush()
    // Only the 16 KB tail (16 KB came at once and were rendered as they came before).
    expect(flood.length - screen.skippedBytes).toBeLessThanOrEqual(17 * 1024)
    expect(screen.visibleLines()).toEqual(['line 49996', 'line 49997', 'line 49998', 'line 49999', ''])
    screen.dispose()
  })

  it('renders only the last lines of a plain-text flood, and they read back exactly', async () => {
    const screen = new RenderedScreen({ cols: 80, rows: 10, scrollback: 200 })
    const lines = Array.from({ length: 50_000 }, (_, i) => `build step ${i}: compiled src/module-${i}.ts`)
    const flood = Buffer.from(lines.join('\r\n') + '\r\n')
    for (let i = 0; i < flood.length; i += 4096) screen.write(flood.subarray(i, i + 4096))
    await screen.flush()
    // The 40 lines reports read back (more than the 10 rows), two more, and nothing else of 2.3 MB.
    const lineBytes = lines.at(-1)!.length + 2
    expect(flood.length - screen.skippedBytes).toBeLessThanOrEqual(44 * lineBytes)
    expect(screen.tailText(40).split('\n')).toEqual(lines.slice(-40))
    expect(screen.visibleLines()).toEqual([...lines.slice(-9), ''])
    screen.dispose()
  })

  it('renders output that comes at once after it pauses, without a flush', async () => {
    let parsed: () => void = () => undefined
    const screen = new RenderedScreen({ cols: 40, rows: 3, onParsed: () => parsed() })
    const frame = b('\x1b[H\x1b[2J\x1b[1mDo you want to proceed?\x1b[0m\r\n  1. Yes\r\n  2. No')
    const rendered = new Promise<void>((resolve) => (parsed = resolve))
    // One frame in three reads, as a TUI's single write can arrive.
    for (let i = 0; i < frame.length; i += 20) screen.write(frame.subarray(i, i + 20))
    await rendered
    expect(screen.visibleLines()).toEqual(['Do you want to proceed?', '  1. Yes', '  2. No'])
    expect(screen.skippedBytes).toBe(0)
    screen.dispose()
  })

  it('renders output that never pauses within a window, not only once it stops', async () => {
    await loadRenderer()
    // Timers and the clock under the test's control: a redraw every millisecond, never a 4 ms pause.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] })
    try {
      const screen = new RenderedScreen({ cols: 40, rows: 3 })
      for (let frame = 1; frame <= 100; frame++) {
        screen.write(b(`\rprogress ${frame}`))
        vi.advanceTimersByTime(1)
      }
      // Rendered at the end of the first 50 ms window while the redraws went on.
      expect(screen.visibleLines()[0]).toMatch(/^progress \d+$/)
      screen.dispose()
    } finally {
      vi.useRealTimers()
    }
  })

  it('renders a large redraw in full when the window stays within its budget', async () => {
    const screen = new RenderedScreen({ cols: 120, rows: 40 })
    // A TUI repainting every cell in colour: about 30 KB at once, more than is rendered once it pauses.
    const rows = Array.from({ length: 40 }, (_, r) =>
      Array.from({ length: 120 }, (_, c) => String.fromCharCode(97 + ((r + c) % 26))).join(''),
    )
    const redraw = Buffer.from(
      rows
        .map((row, r) => `\x1b[${r + 1};1H` + [...row].map((ch, c) => `\x1b[3${c % 8}m${ch}`).join(''))
        .join(''),
    )
    expect(redraw.length).toBeGreaterThan(20 * 1024)
    for (let i = 0; i < redraw.length; i += 4096) screen.write(redraw.subarray(i, i + 4096))
    await screen.flush()
    expect(screen.skippedBytes).toBe(0)
    expect(screen.visibleLines()).toEqual(rows)
    screen.dispose()
  })

  it('a switch to the alternate screen inside a skipped flood still takes effect', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    const filler = Buffer.from('x'.repeat(39) + '\r\n')
    for (let i = 0; i < 5000; i++) screen.write(filler)
    screen.write(Buffer.from('\x1b[?1049h'))
    for (let i = 0; i < 5000; i++) screen.write(filler)
    screen.write(Buffer.from('\x1b[H\x1b[2KDo you want to proceed?'))
    await screen.flush()
    expect(screen.skippedBytes).toBeGreaterThan(0)
    expect(screen.bufferType).toBe('alternate')
    expect(screen.visibleLines()[0]).toBe('Do you want to proceed?')
    screen.dispose()
  })

  it('the last screen switch in a skipped flood wins over other private modes around it', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    // A progress display hides and shows the cursor (CSI ?25l / ?25h) on every line.
    const noise = ('\x1b[?25l' + 'y'.repeat(30) + '\x1b[?25h\r\n').repeat(5000)
    // Read by the PTY in 4 KB pieces, so each switch sits inside a chunk full of other private modes.
    const feed = (text: string) => {
      const bytes = Buffer.from(text)
      for (let i = 0; i < bytes.length; i += 4096) screen.write(bytes.subarray(i, i + 4096))
    }
    feed(noise + '\x1b[?1049h' + noise + '\x1b[?1049l' + noise + '\x1b[?1049h' + noise)
    feed('\x1b[H\x1b[2KAllow this action?')
    await screen.flush()
    expect(screen.skippedBytes).toBeGreaterThan(3 * noise.length)
    expect(screen.bufferType).toBe('alternate')
    expect(screen.visibleLines()[0]).toBe('Allow this action?')
    feed(noise + '\x1b[?1049l' + noise + 'back on the normal screen')
    await screen.flush()
    expect(screen.bufferType).toBe('normal')
    expect(screen.visibleLines().at(-1)).toBe('back on the normal screen')
    screen.dispose()
  })

  it('after a flood, interactive output is rendered in full again', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    const flood = Buffer.from('z'.repeat(38) + '\r\n')
      .toString()
      .repeat(20_000)
    const bytes = Buffer.from(flood)
    for (let i = 0; i < bytes.length; i += 4096) screen.write(bytes.subarray(i, i + 4096))
    await screen.flush()
    const skippedByFlood = screen.skippedBytes
    expect(skippedByFlood).toBeGreaterThan(bytes.length / 2)
    for (let i = 0; i < 50; i++) {
      screen.write(Buffer.from(`\x1b[H\x1b[2Jframe ${i}\r\nDo you want to proceed?`))
      await screen.flush()
      expect(screen.visibleLines().slice(0, 2)).toEqual([`frame ${i}`, 'Do you want to proceed?'])
    }
    expect(screen.skippedBytes).toBe(skippedByFlood)
    screen.dispose()
  })

  it('interactive output is rendered in full', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    for (let i = 0; i < 200; i++) {
      screen.write(Buffer.from(`\x1b[H\x1b[2Jframe ${i}`))
      await screen.flush()
      expect(screen.visibleLines()[0]).toBe(`frame ${i}`)
    }
    expect(screen.skippedBytes).toBe(0)
    screen.dispose()
  })

  it('follows a resize of the PTY', async () => {
    const screen = new RenderedScreen({ cols: 40, rows: 5 })
    screen.resize(10, 5)
    screen.write(b('abcdefghijKLMNO'))
    await screen.flush()
    expect(screen.visibleLines().slice(0, 2)).toEqual(['abcdefghij', 'KLMNO'])
    expect(screen.screenLines()[0]!.text).toBe('abcdefghijKLMNO')
    screen.dispose()
  })

  it('reports the alternate screen that full-screen TUIs switch to', async () => {
    const screen = new RenderedScreen({ cols: 20, rows: 4 })
    expect(screen.bufferType).toBe('normal')
    screen.write(b('\x1b[?1049hTUI'))
    await screen.flush()
    expect(screen.bufferType).toBe('alternate')
    expect(screen.visibleLines()[0]).toBe('TUI')
    screen.dispose()
  })
})

describe('LineView', () => {
  it('decodes UTF-8 across chunk boundaries and replaces invalid bytes without throwing', () => {
    const view = new LineView()
    const bytes = b('grüße\n')
    view.write(bytes.subarray(0, 3)) // splits "ü"
    view.write(bytes.subarray(3))
    view.write(Buffer.from([0x66, 0xff, 0xfe, 0xc3, 0x28, 0x0a])) // invalid sequences
    expect(view.visibleLines()).toEqual(['grüße', 'f\ufffd\ufffd\ufffd('])
  })

  it('strips colours, cursor movement, OSC titles and stray control characters', () => {
    const view = new LineView()
    view.write(b('\x1b[1;31merror:\x1b[0m bad\x07 thing\n\x1b]0;window title\x07done \x1b[2K\x1b[10Cok\n'))
    expect(view.visibleLines()).toEqual(['error: bad thing', 'done ok'])
  })

  it('keeps an escape sequence split between chunks out of the text', () => {
    const view = new LineView()
    view.write(b('before \x1b['))
    view.write(b('38;5;196mred\x1b'))
    view.write(b(']8;;http://x\x07link\x1b]8;;\x07\n'))
    expect(view.visibleLines()).toEqual(['before redlink'])
  })

  it('treats \\r\\n split across chunks as one line end, and a lone \\r as starting the line over', () => {
    const view = new LineView()
    view.write(b('abc\r'))
    view.write(b('\ndef\n'))
    view.write(b('progress 10%\rprogress 100%\n'))
    expect(view.visibleLines()).toEqual(['abc', 'def', 'progress 100%'])
  })

  it('hands each completed line to the detector once and the unfinished line until it ends', () => {
    const view = new LineView()
    view.write(b('one\ntwo\nContinue? [y/N] '))
    expect(view.takeLines()).toEqual([
      { seq: 0, text: 'one', complete: true },
      { seq: 1, text: 'two', complete: true },
      { seq: 2, text: 'Continue? [y/N] ', complete: false },
    ])
    expect(view.takeLines()).toEqual([{ seq: 2, text: 'Continue? [y/N] ', complete: false }])
    view.write(b('y\n'))
    expect(view.takeLines()).toEqual([{ seq: 2, text: 'Continue? [y/N] y', complete: true }])
    expect(view.takeLines()).toEqual([])
  })

  it('keeps only the end of a 10 MB line without a newline', () => {
    const view = new LineView({ maxLineChars: 4096 })
    const chunk = b('z'.repeat(64 * 1024))
    for (let i = 0; i < 160; i++) view.write(chunk)
    view.write(b('END [y/N]'))
    const [current] = view.takeLines()
    expect(current!.complete).toBe(false)
    expect(current!.text.length).toBeLessThanOrEqual(2 * 4096)
    expect(current!.text.endsWith('zEND [y/N]')).toBe(true)
  })

  it('keeps the last lines only, and bounds lines waiting for a slow detector', () => {
    const view = new LineView({ keepLines: 3, maxPendingChars: 4096 })
    for (let i = 0; i < 5000; i++) view.write(b(`line ${i}\n`))
    expect(view.visibleLines()).toEqual(['line 4997', 'line 4998', 'line 4999'])
    expect(view.tailText(2)).toBe('line 4998\nline 4999')
    const pending = view.takeLines()
    expect(pending.length).toBeLessThan(1000)
    expect(pending[pending.length - 1]!.text).toBe('line 4999')
    expect(view.skippedLines).toBe(5000 - pending.length)
  })

  it('in a flood, hands the detector the end of the output and counts the rest as skipped', () => {
    const view = new LineView()
    const line = b('build step 0123456789 0123456789 0123456789 0123456789 0123456789 ok\n')
    const chunk = Buffer.concat(Array.from({ length: Math.floor(65536 / line.length) }, () => line))
    const perChunk = Math.floor(65536 / line.length)
    // 16 MB arriving at once (a build log): every byte goes to the transcript, but splitting all of it
    // into lines for the detector would cost more than reading it.
    for (let i = 0; i < 256; i++) view.write(chunk)
    view.write(b('Overwrite 3 files? [y/N] '))
    const taken = view.takeLines()
    const chars = taken.reduce((sum, l) => sum + l.text.length + 1, 0)
    expect(chars).toBeLessThan(1024 * 1024)
    const last = taken[taken.length - 1]!
    expect(last).toMatchObject({ text: 'Overwrite 3 files? [y/N] ', complete: false })
    // The lines left out are not counted one by one (that cost more than reading them), but they are
    // counted, and the lines handed over are numbered in order, after every line before the gap.
    expect(view.skippedLines).toBeGreaterThan(0)
    expect(taken.length - 1 + view.skippedLines).toBeLessThanOrEqual(256 * perChunk)
    const complete = taken.slice(0, -1)
    expect(complete.every((l, i) => i === 0 || l.seq > complete[i - 1]!.seq)).toBe(true)
    // The lines handed over last are the flood's last lines, in order, up to the prompt.
    const end = complete.slice(-100)
    expect(end.map((l) => l.seq)).toEqual(end.map((_, i) => last.seq - 100 + i))
    expect(taken.slice(0, -1).every((l) => l.text === line.toString().trimEnd())).toBe(true)
    expect(view.tailText(1)).toBe('Overwrite 3 files? [y/N]')
  })

  it('keeps what it decodes when every chunk comes in one buffer that the next read overwrites', () => {
    const view = new LineView()
    const reused = Buffer.alloc(65536)
    const lend = (bytes: Buffer) => {
      for (let i = 0; i < bytes.length; i += reused.length) {
        const n = bytes.copy(reused, 0, i, i + reused.length)
        view.write(reused.subarray(0, n))
        reused.fill(0x21)
      }
    }
    const line = 'build step 0123456789 0123456789 0123456789 ok\n'
    // 8 MB at once: a flood, so the lines wait in the view before they are decoded.
    lend(Buffer.from(line.repeat(Math.ceil((8 * 1024 * 1024) / line.length))))
    lend(Buffer.from('Overwrite 3 files? [y/N] '))
    const taken = view.takeLines()
    expect(view.skippedLines).toBeGreaterThan(0)
    expect(taken.at(-1)).toMatchObject({ text: 'Overwrite 3 files? [y/N] ', complete: false })
    expect(taken.slice(0, -1).every((l) => l.text === line.trimEnd())).toBe(true)
    expect(view.tailText(2)).toBe(`${line.trimEnd()}\nOverwrite 3 files? [y/N]`)
  })

  it('survives random bytes and escape fragments', () => {
    const view = new LineView()
    let seed = 42
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const pieces = [
      '\x1b',
      '[',
      '?',
      '1049',
      'h',
      ']',
      '0;',
      '\x07',
      '\x9b',
      'P',
      '\\',
      '\r',
      '\n',
      'é',
      '\xff',
    ]
    for (let i = 0; i < 20000; i++) {
      const bytes = Array.from({ length: rand(40) }, () =>
        rand(3) === 0 ? Buffer.from([rand(256)]) : b(pieces[rand(pieces.length)]!),
      )
      view.write(Buffer.concat(bytes))
    }
    view.write(b('\x1b[0m\nfinal line\n'))
    expect(view.visibleLines().at(-1)).toBe('final line')
  })
})
