// Answers that land and completions that are new: respond.delay and respond.retry_after on a real
// rendered screen (xterm), completion gated by `working` rules or by what was on screen when proctor
// typed, and bracketed-paste mode followed in the raw output.
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { compileRules, Detector } from '../../src/supervisor/detect.js'
import { BracketedPasteTracker } from '../../src/supervisor/output.js'
import { RenderedScreen } from '../../src/supervisor/screen.js'

function setup(detect: unknown[]) {
  let now = 1_000
  const screen = new RenderedScreen({ cols: 80, rows: 12 })
  const detector = new Detector(compileRules(configSchema.parse({ detect }).detect), () => now)
  return {
    detector,
    advance: (ms: number) => (now += ms),
    async show(bytes: string) {
      screen.write(Buffer.from(bytes))
      await screen.flush()
      return detector.scanScreen(screen)
    },
    scan: () => detector.scanScreen(screen),
    dispose: () => screen.dispose(),
  }
}

const DIALOG = '\x1b[H\x1b[2J  Do you want to use this API key?\r\n    Yes\r\n  ❯ No (recommended)'

describe('respond.delay and respond.retry_after', () => {
  it('waits for the delay, then answers again while the prompt stays, at most max_attempts times', async () => {
    const s = setup([
      {
        name: 'api-key',
        match: '❯ No \\(recommended\\)',
        respond: { send: '\x1b[A', delay: '300ms', retry_after: '2s', max_attempts: 3 },
      },
    ])
    expect(await s.show(DIALOG)).toEqual([])
    expect(s.detector.nextDeadline()).toBe(1_300)
    s.advance(299)
    expect(s.scan()).toEqual([])
    s.advance(1)
    const first = s.scan()
    expect(first.map((e) => [e.rule, e.attempt, e.fire, e.response.text])).toEqual([
      ['api-key', 1, 1, '\x1b[A'],
    ])
    s.advance(1_999)
    expect(s.scan()).toEqual([])
    s.advance(1)
    expect(s.scan().map((e) => e.attempt)).toEqual([2])
    s.advance(2_000)
    expect(s.scan().map((e) => e.attempt)).toEqual([3])
    s.advance(10_000)
    expect(s.scan()).toEqual([])
    expect(s.detector.nextDeadline()).toBeNull()
    expect(s.detector.stats().fires).toEqual({ 'api-key': 1 })
    s.dispose()
  })

  it('a leftover of an answered dialog is not answered again once the agent has worked since', async () => {
    // Claude Code 2.1.197 redraws over a closed dialog and can leave its lines on screen while it works;
    // keys sent at that leftover would land in its input box (Up recalls the last prompt, Enter submits).
    const s = setup([
      {
        name: 'api-key',
        match: '❯ No \\(recommended\\)',
        respond: { send: '\x1b[A', delay: '300ms', retry_after: '2s', max_attempts: 5 },
      },
      { name: 'working', match: 'esc to interrupt', kind: 'working' },
    ])
    await s.show(DIALOG)
    s.advance(300)
    expect(s.scan().map((e) => e.attempt)).toEqual([1])
    // The dialog's line stays where it was; below it the agent now shows itself busy.
    await s.show('\x1b[8;1H✽ Shimmying… (esc to interrupt)')
    await s.show('\x1b[8;1H\x1b[2K❯ ')
    s.advance(10_000)
    expect(s.scan()).toEqual([])
    expect(s.detector.nextDeadline()).toBeNull()
    s.dispose()
  })

  it('a leftover of an answered dialog is not answered again once another dialog was answered', async () => {
    // The folder-trust leftover stays on screen beside the API-key dialog: an Enter sent at it would pick
    // the API-key dialog's default ("No").
    const s = setup([
      { name: 'yes', match: '❯ (?:1\\. )?Yes', respond: { send: '\r', retry_after: '2s', max_attempts: 5 } },
      { name: 'api-key', match: '❯ No \\(recommended\\)', respond: { send: '\x1b[A', retry_after: '2s' } },
    ])
    expect((await s.show('\x1b[H\x1b[2J❯ 1. Yes, I trust this folder')).map((e) => e.rule)).toEqual(['yes'])
    s.advance(500)
    expect((await s.show('\x1b[3;1H  ❯ No (recommended)')).map((e) => e.rule)).toEqual(['api-key'])
    s.advance(1_600)
    // 2.1 s after the trust answer, its line is still there: not answered again. The API-key dialog,
    // answered 1.6 s ago, still is when its own time comes.
    expect(s.scan()).toEqual([])
    s.advance(400)
    expect(s.scan().map((e) => [e.rule, e.attempt])).toEqual([['api-key', 2]])
    s.dispose()
  })

  it('a prompt drawn twice (one copy below the other) is answered once; the same prompt shown later is new', async () => {
    // Claude Code 2.1.197 drew the folder-trust dialog a second time below the first before the answer; the
    // Enter sent at the second copy reached the API-key dialog that followed and picked "No": Not logged in.
    const s = setup([{ name: 'yes', match: '^\\s*❯ (?:1\\. )?Yes', respond: { send: '\r', delay: '300ms' } }])
    expect(await s.show('\x1b[H\x1b[2J ❯ 1. Yes, I trust this folder')).toEqual([])
    s.advance(150)
    expect(await s.show('\x1b[6;1H ❯ 1. Yes, I trust this folder')).toEqual([])
    s.advance(150)
    expect(s.scan().map((e) => e.rule)).toEqual(['yes'])
    s.advance(150)
    expect(s.scan()).toEqual([])
    s.advance(5_000)
    expect(s.scan()).toEqual([])
    // Shown after the answer (a script asking again): a new prompt, answered.
    expect(await s.show('\x1b[10;1H ❯ 1. Yes, I trust this folder')).toEqual([])
    s.advance(300)
    expect(s.scan().map((e) => e.rule)).toEqual(['yes'])
    s.dispose()
  })

  it('a prompt gone before its delay is never answered; one that comes back is a new appearance', async () => {
    const s = setup([
      { name: 'api-key', match: '❯ No \\(recommended\\)', respond: { send: 'x', delay: '1s' } },
    ])
    expect(await s.show(DIALOG)).toEqual([])
    s.advance(500)
    expect(await s.show('\x1b[H\x1b[2Jsomething else')).toEqual([])
    s.advance(5_000)
    expect(s.scan()).toEqual([])
    expect(await s.show(DIALOG)).toEqual([])
    s.advance(1_000)
    expect(s.scan().map((e) => e.attempt)).toEqual([1])
    s.dispose()
  })

  it('without retry_after an answered prompt that stays on screen is answered once', async () => {
    const s = setup([{ name: 'api-key', match: '❯ No \\(recommended\\)', respond: { send: 'x' } }])
    expect((await s.show(DIALOG)).length).toBe(1)
    s.advance(60_000)
    expect(s.scan()).toEqual([])
    expect(s.detector.nextDeadline()).toBeNull()
    s.dispose()
  })
})

const WORKING = { name: 'busy', match: 'esc to interrupt', kind: 'working' }
const DONE = { name: 'done', match: '^✻ \\w+ for \\d+s', kind: 'completion' }

describe('completion only from new activity', () => {
  it('with a working rule: a re-rendered old completion line never counts, a new one after work does once', async () => {
    const s = setup([WORKING, DONE])
    // The agent works, then finishes: one completion. Working rules are never reported themselves.
    expect(await s.show('> task\r\n\x1b[12;1Hesc to interrupt')).toEqual([])
    const done = await s.show('\x1b[12;1H\x1b[K\x1b[3;1H✻ Churned for 2s\r\n>')
    expect(done.map((e) => e.rule)).toEqual(['done'])
    // proctor types; the agent is paused and continued and re-renders its whole transcript, old line included.
    s.detector.markTyped()
    expect(await s.show('\x1b[H\x1b[2J> task\r\n\r\n✻ Churned for 2s\r\n> proctor: fix it')).toEqual([])
    expect(await s.show('\r\n\r\n\r\n✻ Churned for 2s')).toEqual([])
    // Still busy: a completion line next to the spinner does not count yet...
    expect(await s.show('\x1b[12;1Hesc to interrupt\x1b[9;1H✻ Brewed for 1s')).toEqual([])
    // ...and counts once the agent is idle.
    expect((await s.show('\x1b[12;1H\x1b[K')).map((e) => e.rule)).toEqual(['done'])
    expect(await s.show('\x1b[10;1H✻ Baked for 1s')).toEqual([])
    s.dispose()
  })

  it('an agent waiting on a permission prompt is not done, though an old done line is on screen', async () => {
    const s = setup([
      WORKING,
      DONE,
      { name: 'perm', match: 'Do you want to create', respond: { notify: true } },
    ])
    s.detector.markTyped()
    expect(await s.show('✻ Baked for 0s\r\n\x1b[12;1Hesc to interrupt')).toEqual([])
    const ask = await s.show('\x1b[12;1H\x1b[K\x1b[5;1HDo you want to create hello.txt?')
    expect(ask.map((e) => e.rule)).toEqual(['perm'])
    expect(await s.show('\x1b[12;1Hesc to interrupt\x1b[5;1H\x1b[K')).toEqual([])
    expect((await s.show('\x1b[12;1H\x1b[K\x1b[7;1H✻ Worked for 2s')).map((e) => e.rule)).toEqual(['done'])
    s.dispose()
  })

  it('on the normal buffer, a spinner or prompt above the lowest done line is a leftover; only that line counts', async () => {
    // Claude Code 2.1.197 redraws below its previous frame and leaves it on screen: an answered dialog and a
    // spinner of an older frame stay above the done line that ends the turn.
    const s = setup([
      WORKING,
      DONE,
      { name: 'api-key', match: '❯ No \\(recommended\\)', respond: { send: '\x1b[A' } },
    ])
    expect((await s.show('\x1b[2;1H  ❯ No (recommended)')).map((e) => e.rule)).toEqual(['api-key'])
    expect(await s.show('\x1b[4;1H✻ Brewed for 1s\x1b[5;1H✢ Pondering… (esc to interrupt)')).toEqual([])
    const done = await s.show('\x1b[9;1H✻ Worked for 1s')
    expect(done.map((e) => e.text)).toEqual(['✻ Worked for 1s'])
    // Work again; a spinner below the lowest done line is current.
    s.detector.markTyped()
    expect(await s.show('\x1b[11;1H✢ Pondering… (esc to interrupt)')).toEqual([])
    expect(s.detector.workingNow).toBe(true)
    s.dispose()
  })

  it('respond.delay on a completion: counted once the agent stayed idle that long; busy in between starts it over', async () => {
    const s = setup([WORKING, { ...DONE, respond: { notify: true, delay: '500ms' } }])
    expect(await s.show('\x1b[12;1Hesc to interrupt')).toEqual([])
    expect(await s.show('\x1b[12;1H\x1b[K\x1b[3;1H✻ Churned for 2s')).toEqual([])
    expect(s.detector.nextDeadline()).toBe(1_500)
    s.advance(300)
    // A redraw caught half drawn: the spinner comes back below; the done line waits again.
    expect(await s.show('\x1b[12;1Hesc to interrupt')).toEqual([])
    expect(s.detector.nextDeadline()).toBeNull()
    s.advance(300)
    expect(await s.show('\x1b[12;1H\x1b[K')).toEqual([])
    s.advance(499)
    expect(s.scan()).toEqual([])
    s.advance(1)
    expect(s.scan().map((e) => e.rule)).toEqual(['done'])
    expect(s.detector.nextDeadline()).toBeNull()
    s.dispose()
  })

  it('without working rules: after typing, a completion line already on screen before does not count again', async () => {
    const s = setup([DONE])
    expect((await s.show('✻ Churned for 2s\r\n')).length).toBe(1)
    s.detector.markTyped()
    expect(await s.show('\x1b[H\x1b[2J✻ Churned for 2s\r\n> next')).toEqual([])
    expect((await s.show('\r\n✻ Worked for 3s')).map((e) => e.text)).toEqual(['✻ Worked for 3s'])
    s.dispose()
  })
})

describe('BracketedPasteTracker', () => {
  it('follows ESC[?2004h/l, including a sequence split between chunks', () => {
    const t = new BracketedPasteTracker()
    expect(t.enabled).toBe(false)
    t.write(Buffer.from('hello\x1b[?20'))
    t.write(Buffer.from('04hworld'))
    expect(t.enabled).toBe(true)
    t.write(Buffer.from('\x1b[?2004l\x1b[?2004h\x1b[?2004l'))
    expect(t.enabled).toBe(false)
    t.write(Buffer.from('x\x1b[?2004h'))
    expect(t.enabled).toBe(true)
  })
})

describe('slow rules', () => {
  it('a rule slow once (a pause, not its pattern) stays on; one slow again on the same line is disabled', () => {
    // A pattern whose first run is held up, as a garbage-collection pause or a busy CPU holds up any match.
    class PausedOnce extends RegExp {
      private paused = false
      override exec(text: string): RegExpExecArray | null {
        if (!this.paused) {
          this.paused = true
          const until = performance.now() + 150
          while (performance.now() < until);
        }
        return super.exec(text)
      }
    }
    const [rule] = compileRules(
      configSchema.parse({ detect: [{ name: 'yes', match: 'Yes', respond: { send: '\r' } }] }).detect,
    )
    const detector = new Detector([{ ...rule!, regex: new PausedOnce('Yes') }])
    const slow: string[] = []
    detector.onSlowRule = (name) => slow.push(name)
    expect(detector.scanLines([{ seq: 1, text: 'Yes', complete: true }]).map((e) => e.rule)).toEqual(['yes'])
    expect(detector.scanLines([{ seq: 2, text: 'Yes', complete: true }]).map((e) => e.rule)).toEqual(['yes'])
    expect(slow).toEqual([])
  })
})
