import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pty from '@lydell/node-pty'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configSchema, type DetectRule } from '../../src/config/schema.js'
import type { DetectionEvent } from '../../src/supervisor/detect.js'
import { OutputPipeline, type OutputPipelineOptions } from '../../src/supervisor/output.js'
import { spawnManaged } from '../../src/supervisor/process.js'

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/tui/redraw-prompt.mjs')

let dir: string
const open: OutputPipeline[] = []
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-output-'))
})
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()))
  fs.rmSync(dir, { recursive: true, force: true })
})

function rules(...input: unknown[]): DetectRule[] {
  return configSchema.parse({ detect: input }).detect
}

function pipeline(opts: Partial<OutputPipelineOptions> = {}) {
  const p = new OutputPipeline({
    mode: 'pty',
    cols: 80,
    rows: 24,
    transcriptPath: path.join(dir, 'transcript.log'),
    transcriptMax: 64 * 1024 * 1024,
    ...opts,
  })
  open.push(p)
  const events: DetectionEvent[] = []
  p.on('event', (e) => events.push(e))
  return { p, events }
}

/** Resolves with the next detection event, or fails after a generous deadline. */
function nextEvent(p: OutputPipeline, timeoutMs = 20_000): Promise<DetectionEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no detection event within ${timeoutMs}ms`)), timeoutMs)
    p.once('event', (e) => {
      clearTimeout(timer)
      resolve(e)
    })
  })
}

const editRule = rules({
  name: 'approve-edit',
  match: 'Do you want to make this edit to (\\S+)\\?',
  kind: 'approval_request',
  respond: { send: '1\\r' },
})

/** The TUI fixture's frames, as recorded bytes: home, clear, clear-line, the same prompt each time. */
function tuiFrames(redraws: number): Buffer {
  let out = ''
  for (let i = 0; i < redraws; i++) {
    out +=
      '\x1b[H\x1b[2J' +
      `\x1b[1;1H\x1b[Kworking... frame ${i}\r\n` +
      '\x1b[3;1H\x1b[K\x1b[1mDo you want to make this edit to app.ts?\x1b[0m\r\n' +
      '\x1b[K  1. Yes  2. No'
  }
  return Buffer.from(out)
}

describe('OutputPipeline with recorded bytes', () => {
  it('a TUI redrawing the same prompt 50 times fires the rule exactly once', async () => {
    const { p, events } = pipeline({ rules: editRule })
    const bytes = tuiFrames(50)
    // Fed in awkward pieces, with detection given every chance to run in between.
    for (let i = 0; i < bytes.length; i += 97) {
      p.write(bytes.subarray(i, i + 97))
      if (i % (97 * 20) === 0) await p.flush()
    }
    await p.flush()
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      rule: 'approve-edit',
      kind: 'approval_request',
      text: 'Do you want to make this edit to app.ts?',
      response: { type: 'send', text: '1\r' },
      fire: 1,
    })
  })

  it('the prompt disappearing and reappearing fires twice', async () => {
    const { p, events } = pipeline({ rules: editRule })
    p.write(tuiFrames(10))
    await p.flush()
    p.write(Buffer.from('\x1b[H\x1b[2Jediting app.ts...\r\n'))
    await p.flush()
    p.write(tuiFrames(10))
    await p.flush()
    expect(events.map((e) => e.fire)).toEqual([1, 2])
  })

  it('detects without an explicit flush once output goes quiet', async () => {
    const { p } = pipeline({ rules: editRule })
    const event = nextEvent(p)
    p.write(tuiFrames(3))
    expect((await event).rule).toBe('approve-edit')
  })

  it('keeps the transcript, the in-memory tail and lastOutputAt for every byte', async () => {
    let now = 1000
    const { p } = pipeline({ rules: editRule, clock: () => now })
    expect(p.lastOutputAt).toBeNull()
    const bytes = tuiFrames(5)
    p.write(bytes)
    now = 2000
    p.write(Buffer.from('\r\nbye\r\n'))
    const summary = await p.close()
    const all = Buffer.concat([bytes, Buffer.from('\r\nbye\r\n')])
    expect(fs.readFileSync(path.join(dir, 'transcript.log'))).toEqual(all)
    expect(summary).toMatchObject({ bytes: all.length, capped: false, dropped: 0 })
    expect(p.lastOutputAt).toBe(2000)
    expect(p.bytes).toBe(all.length)
    expect(p.tailText(3)).toBe('Do you want to make this edit to app.ts?\n  1. Yes  2. No\nbye')
  })

  it('reports the transcript cap once and still detects past it', async () => {
    const { p, events } = pipeline({ rules: editRule, transcriptMax: 100 })
    const capped: number[] = []
    p.on('capped', (max) => capped.push(max))
    p.write(Buffer.alloc(500, 'x'))
    p.write(tuiFrames(2))
    await p.flush()
    expect(events).toHaveLength(1)
    const summary = await p.close()
    expect(capped).toEqual([100])
    expect(summary).toMatchObject({ bytes: 100, capped: true, dropped: 400 + tuiFrames(2).length })
    expect(fs.readFileSync(path.join(dir, 'transcript.log'), 'utf8')).toMatch(
      /\n\[proctor: transcript capped at 100 bytes; \d+ bytes dropped\]\n$/,
    )
  })

  it('invalid UTF-8, a 10 MB line and random escape sequences neither crash nor stall detection', async () => {
    for (const mode of ['pty', 'pipe'] as const) {
      const { p, events } = pipeline({
        mode,
        rules: rules({ name: 'done', match: 'ALL DONE', kind: 'completion' }),
        transcriptPath: path.join(dir, `${mode}.log`),
      })
      p.write(Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x0a, 0xf0, 0x9f]))
      const line = Buffer.alloc(1024 * 1024, 'y')
      for (let i = 0; i < 10; i++) p.write(line) // 10 MB without a newline
      let seed = 1
      const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
      const junk = Buffer.from(
        Array.from({ length: 200_000 }, () => (rand(4) === 0 ? 0x1b : rand(2) ? 0x5b : rand(256))),
      )
      p.write(junk)
      const end = Buffer.from('\x1b[0m\x1b[?1049l\x1bc\r\nALL DONE\r\n')
      p.write(end)
      await p.flush()
      expect(events.map((e) => [e.rule, e.kind])).toEqual([['done', 'completion']])
      const summary = await p.close()
      expect(summary.bytes).toBe(9 + 10 * line.length + junk.length + end.length)
    }
  })

  it('without rules nothing is scanned and the tail is still available', async () => {
    const { p, events } = pipeline({ mode: 'pipe' })
    p.write(Buffer.from('Continue? [y/N] '))
    await p.flush()
    expect(events).toEqual([])
    expect(p.tailText()).toBe('Continue? [y/N]')
  })

  it('the prompts preset is off by default and answers when enabled', async () => {
    const off = pipeline({ mode: 'pipe', transcriptPath: path.join(dir, 'off.log') })
    off.p.write(Buffer.from('Continue? [y/N] '))
    await off.p.flush()
    expect(off.events).toEqual([])
    const on = pipeline({ mode: 'pipe', presets: ['prompts'], transcriptPath: path.join(dir, 'on.log') })
    on.p.write(Buffer.from('Continue? [y/N] '))
    await on.p.flush()
    expect(on.events.map((e) => [e.rule, e.response])).toEqual([
      ['preset:y/N', { type: 'send', text: 'y\r' }],
    ])
  })

  it('a PTY flood that goes on is scanned a few times a second, and the prompt after it at once', async () => {
    const { p, events } = pipeline({ rules: editRule })
    let scans = 0
    p.on('scanned', () => scans++)
    const line = Buffer.from('compiling module 0123456789 0123456789 0123456789\r\n')
    const chunk = Buffer.concat(Array.from({ length: Math.floor(4096 / line.length) }, () => line))
    // One second of 4 KB reads, as fast as the event loop turns (a build log through a PTY).
    const began = performance.now()
    await new Promise<void>((resolve) => {
      const feed = (): void => {
        for (let i = 0; i < 16; i++) p.write(Buffer.from(chunk))
        if (performance.now() - began < 1000) setImmediate(feed)
        else resolve()
      }
      feed()
    })
    const during = scans
    // Scanning every 50 ms window of the flood made 20 scans of output the agent was still scrolling past.
    expect(during).toBeLessThan(12)
    const detected = nextEvent(p)
    p.write(Buffer.from('Do you want to make this edit to src/a.ts?'))
    const at = performance.now()
    expect((await detected).match).toBe('Do you want to make this edit to src/a.ts?')
    // Within the flood's own scan cadence (the pause is noticed), not at the next forced scan.
    expect(performance.now() - at).toBeLessThan(1_000)
    expect(events).toHaveLength(1)
  })

  it('a bad rule is refused when the pipeline is built', () => {
    expect(() => pipeline({ rules: rules({ name: 'oops', match: '(unclosed' }) })).toThrow(
      /detect rule "oops": match "\(unclosed" is not a valid regular expression/,
    )
  })
})

describe('OutputPipeline with real processes', () => {
  it('answers a real TUI in a PTY: one event per appearance across redraws, two rounds', async () => {
    const { p, events } = pipeline({ rules: editRule })
    const child = pty.spawn(process.execPath, [fixture, '2', '50'], {
      cols: 80,
      rows: 24,
      env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string>,
    })
    const exited = new Promise<number>((resolve) => child.onExit((e) => resolve(e.exitCode)))
    let seen = ''
    let onSeen: ((text: string) => void) | null = null
    child.onData((d) => {
      p.write(Buffer.from(d))
      seen += d
      onSeen?.(seen)
    })
    const waitForOutput = (needle: string) =>
      new Promise<void>((resolve) => {
        if (seen.includes(needle)) return resolve()
        onSeen = (text) => {
          if (text.includes(needle)) resolve()
        }
      })

    const first = await nextEvent(p)
    expect(first.response).toEqual({ type: 'send', text: '1\r' })
    child.write(first.response.text!)
    await waitForOutput('press any key for the next round')
    await p.flush() // the prompt is gone from the screen now
    const second = nextEvent(p)
    child.write('c')
    child.write((await second).response.text!)
    expect(await exited).toBe(0)
    await p.flush()
    // Exit 0 means the TUI got both answers (its last words may be lost by node-pty on Node 20/22).
    expect(events.map((e) => e.fire)).toEqual([1, 2])
  })

  it('keeps every byte of an 8 MB PTY flood and still answers the prompt that follows it', async () => {
    const { p, events } = pipeline({
      cols: 120,
      rows: 40,
      rules: rules({
        name: 'proceed',
        match: 'Do you want to proceed\\?',
        kind: 'approval_request',
        respond: { send: 'y\\r' },
      }),
    })
    const line = 'flood line: the quick brown fox 0123456789\n'
    // About 8 MB of whole lines, so the prompt starts a line of its own.
    const floodBytes = Math.floor((8 * 1024 * 1024) / line.length) * line.length
    const child = spawnManaged({
      command: {
        shell: `yes '${line.trimEnd()}' | head -c ${floodBytes}; printf 'Do you want to proceed? '; read answer; echo "got $answer"`,
      },
      cwd: dir,
      env: process.env,
      mode: 'pty',
      graceMs: 2000,
      onOutput: (chunk) => p.write(chunk),
    })
    const event = await nextEvent(p, 60_000)
    expect(event).toMatchObject({ rule: 'proceed', text: 'Do you want to proceed?' })
    await child.write(event.response.text!)
    const exit = await child.exited
    expect(exit.exitCode).toBe(0)
    const summary = await p.close()
    expect(events).toHaveLength(1)
    // The terminal turns each \n into \r\n: the file holds the flood exactly, then the prompt.
    const flood = line.repeat(floodBytes / line.length).replaceAll('\n', '\r\n')
    const transcript = fs.readFileSync(path.join(dir, 'transcript.log'))
    expect(summary).toMatchObject({ bytes: transcript.length, capped: false, dropped: 0 })
    expect(transcript.length).toBe(p.bytes)
    expect(transcript.subarray(0, flood.length).equals(Buffer.from(flood))).toBe(true)
    expect(transcript.subarray(flood.length).toString()).toMatch(/^Do you want to proceed\? /)
  })

  it('answers a prompt without a newline from a real piped process', async () => {
    const { p, events } = pipeline({ mode: 'pipe', presets: ['prompts'] })
    const script = `
      process.stdout.write('\\x1b[32mready\\x1b[0m\\nDelete the build cache? [y/N] ');
      process.stdin.once('data', (d) => { process.stdout.write('got ' + JSON.stringify(String(d)) + '\\n'); process.exit(0) });
    `
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'pipe'] })
    child.stdout.on('data', (d: Buffer) => p.write(d))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const event = await nextEvent(p)
    expect(event).toMatchObject({ rule: 'preset:y/N', text: 'Delete the build cache? [y/N]' })
    child.stdin.write(event.response.text!)
    expect(await exited).toBe(0)
    await p.flush()
    expect(events).toHaveLength(1)
    expect(p.tailText(2)).toBe('ready\nDelete the build cache? [y/N] got "y\\r"')
  })
})
