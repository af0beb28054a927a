import { describe, expect, it } from 'vitest'
import { configSchema, type DetectRule } from '../../src/config/schema.js'
import {
  compileRule,
  compileRules,
  decodeKeys,
  Detector,
  DetectRuleError,
  ruleResponse,
} from '../../src/supervisor/detect.js'
import { presetRules } from '../../src/supervisor/presets.js'
import { LineView, RenderedScreen } from '../../src/supervisor/screen.js'

/** Rules as proctor.yml produces them (schema defaults applied). */
function rules(...input: unknown[]): DetectRule[] {
  return configSchema.parse({ detect: input }).detect
}

function lineDetector(ruleList: DetectRule[], presets: 'prompts'[] = []) {
  const detector = new Detector(compileRules(ruleList, presets), () => 1234)
  const view = new LineView()
  return {
    detector,
    feed(text: string) {
      view.write(Buffer.from(text))
      return detector.scanLines(view.takeLines())
    },
  }
}

describe('compiling rules', () => {
  it('explains an invalid regular expression and how to fix it', () => {
    const [rule] = rules({ name: 'bad', match: 'Allow [y/N' })
    expect(() => compileRule(rule!)).toThrow(DetectRuleError)
    expect(() => compileRule(rule!)).toThrow(
      /detect rule "bad": match "Allow \[y\/N" is not a valid regular expression .*escape characters such as \[/,
    )
  })

  it('refuses a rule with two responses, naming both', () => {
    const [rule] = rules({ name: 'both', match: 'x', respond: { send: 'y', stop: true } })
    expect(() => compileRule(rule!)).toThrow(
      /"both": respond has send and stop; .*keep one of send, deny or stop/,
    )
    const [withNotify] = rules({ name: 'n', match: 'x', respond: { send: 'y', notify: true } })
    expect(ruleResponse(withNotify!)).toEqual({ type: 'send', text: 'y' })
  })

  it('refuses a pattern that matches empty text', () => {
    const [rule] = rules({ name: 'empty', match: 'x*' })
    expect(() => compileRule(rule!)).toThrow(/"empty": .* matches empty text/)
  })

  it('refuses duplicate rule names', () => {
    expect(() => compileRules(rules({ name: 'a', match: 'x' }, { name: 'a', match: 'y' }))).toThrow(
      /detect rule "a" is defined twice/,
    )
  })

  it('resolves responses: send (escapes decoded), deny with its default text, stop, notify by default', () => {
    const [send, deny, denyText, stop, plain] = rules(
      { name: 's', match: 'a', respond: { send: '1\\r' } },
      { name: 'd', match: 'a', respond: { deny: true } },
      { name: 'dt', match: 'a', respond: { deny_text: '2\r' } },
      { name: 'st', match: 'a', respond: { stop: true } },
      { name: 'n', match: 'a' },
    )
    expect(ruleResponse(send!)).toEqual({ type: 'send', text: '1\r' })
    expect(ruleResponse(deny!)).toEqual({ type: 'deny', text: 'n\r' })
    expect(ruleResponse(denyText!)).toEqual({ type: 'deny', text: '2\r' })
    expect(ruleResponse(stop!)).toEqual({ type: 'stop' })
    expect(ruleResponse(plain!)).toEqual({ type: 'notify' })
  })

  it('decodes the key escapes people write', () => {
    expect(decodeKeys('y\\r')).toBe('y\r')
    expect(decodeKeys('\\e[B\\x1b[A\\u00e9\\t\\\\n')).toBe('\x1b[B\x1b[A\u00e9\t\\n')
    expect(decodeKeys('plain\r')).toBe('plain\r')
    expect(decodeKeys('\\q stays')).toBe('\\q stays')
  })
})

describe('Detector on lines (pipe sessions)', () => {
  it('fires once per matching line, with the rule, kind, line and response', () => {
    const d = lineDetector(
      rules({ name: 'err', match: 'ERROR: (\\w+)', kind: 'error', respond: { stop: true } }),
    )
    expect(d.feed('ok\nERROR: disk full\nok again\n')).toEqual([
      {
        rule: 'err',
        kind: 'error',
        text: 'ERROR: disk full',
        match: 'ERROR: disk',
        response: { type: 'stop' },
        at: 1234,
        fire: 1,
        attempt: 1,
        preset: false,
      },
    ])
    expect(d.feed('ERROR: again\n').map((e) => [e.text, e.fire])).toEqual([['ERROR: again', 2]])
  })

  it('fires on an unfinished prompt line once, not again when the line completes', () => {
    const d = lineDetector(rules({ name: 'ask', match: 'Proceed\\?', respond: { send: 'yes\n' } }))
    expect(d.feed('Proceed? ').map((e) => e.response)).toEqual([{ type: 'send', text: 'yes\n' }])
    expect(d.feed('')).toEqual([])
    expect(d.feed('yes\nworking\n')).toEqual([])
    expect(d.feed('Proceed? ')).toHaveLength(1)
  })

  it('supports custom kinds and flags', () => {
    const d = lineDetector(rules({ name: 'quota', match: 'rate limit', flags: 'i', kind: 'quota_exhausted' }))
    const [event] = d.feed('Rate Limit reached\n')
    expect(event).toMatchObject({ rule: 'quota', kind: 'quota_exhausted', response: { type: 'notify' } })
  })

  it('max_fires stops a rule after that many appearances', () => {
    const d = lineDetector(rules({ name: 'warn', match: 'WARN', max_fires: 2 }))
    expect(d.feed('WARN 1\nWARN 2\nWARN 3\n')).toHaveLength(2)
    expect(d.feed('WARN 4\n')).toHaveLength(0)
    expect(d.detector.stats()).toEqual({ fires: { warn: 2 }, suppressed: 2 })
  })

  it('the prompts preset is off unless enabled', () => {
    const off = lineDetector([])
    expect(off.feed('Continue? [y/N] ')).toEqual([])
    const on = lineDetector([], ['prompts'])
    const [event] = on.feed('Continue? [y/N] ')
    expect(event).toMatchObject({
      rule: 'preset:y/N',
      kind: 'approval_request',
      response: { type: 'send', text: 'y\r' },
      preset: true,
    })
  })

  it('presets answer real prompts but not lines that only mention them', () => {
    const d = lineDetector([], ['prompts'])
    const answers = (text: string) => d.feed(text).map((e) => [e.rule, e.response.text])
    expect(answers('Overwrite? [Y/n]: ')).toEqual([['preset:Y/n', 'y\r']])
    expect(answers('\nDelete branch? (y/N) ')).toEqual([['preset:(y/n)', 'y\r']])
    expect(answers('\nAllow this action?\n')).toEqual([['preset:allow-action', 'y\r']])
    expect(answers('Do you want to proceed?\n')).toEqual([['preset:proceed', '\r']])
    expect(answers('help: answer [y/N] prompts with y\n')).toEqual([])
  })

  it('a user rule matching a line keeps the presets off it, and only one preset answers a line', () => {
    const d = lineDetector(
      rules({ name: 'mine', match: 'Do you want to proceed', respond: { deny: true } }),
      ['prompts'],
    )
    expect(d.feed('Do you want to proceed? [y/N] ').map((e) => e.rule)).toEqual(['mine'])
    const p = lineDetector([], ['prompts'])
    expect(p.feed('Allow this action? ').map((e) => e.rule)).toEqual(['preset:allow-action'])
    // The same line grows into "[y/N]" form: still one answer for one prompt.
    expect(p.feed('[y/N] ')).toEqual([])
  })

  it('presetRules documents each preset with a response', () => {
    for (const rule of presetRules(['prompts'])) {
      expect(rule.name.startsWith('preset:')).toBe(true)
      expect(ruleResponse(rule).type).toBe('send')
    }
  })
})

describe('Detector on a rendered screen (PTY sessions, real xterm)', () => {
  async function setup(ruleList: DetectRule[], opts: { rows?: number; scrollback?: number } = {}) {
    const screen = new RenderedScreen({ cols: 60, rows: opts.rows ?? 10, scrollback: opts.scrollback ?? 50 })
    const detector = new Detector(compileRules(ruleList))
    return {
      screen,
      async show(bytes: string) {
        screen.write(Buffer.from(bytes))
        await screen.flush()
        return detector.scanScreen(screen)
      },
    }
  }
  const approve = rules({
    name: 'edit',
    match: 'Do you want to make this edit to (\\S+)\\?',
    respond: { send: '1' },
  })

  it('a prompt redrawn in place fires once; gone and back fires again', async () => {
    const s = await setup(approve)
    const frame = (n: number) =>
      `\x1b[H\x1b[2Jframe ${n}\r\n\x1b[3;1H\x1b[KDo you want to make this edit to a.ts?`
    expect(await s.show(frame(0))).toHaveLength(1)
    for (let i = 1; i < 20; i++) expect(await s.show(frame(i))).toEqual([])
    expect(await s.show('\x1b[H\x1b[2Jworking')).toEqual([])
    const again = await s.show(frame(99))
    expect(again.map((e) => [e.text, e.fire])).toEqual([['Do you want to make this edit to a.ts?', 2]])
    s.screen.dispose()
  })

  it('a different prompt on the same row is a new appearance', async () => {
    const s = await setup(approve)
    expect(await s.show('\x1b[5;1HDo you want to make this edit to a.ts?')).toHaveLength(1)
    const next = await s.show('\x1b[5;1H\x1b[2KDo you want to make this edit to b.ts?')
    expect(next.map((e) => e.match)).toEqual(['Do you want to make this edit to b.ts?'])
  })

  it('a matched line scrolling up (even past a full scrollback) does not fire again', async () => {
    const s = await setup(rules({ name: 'err', match: 'FATAL', kind: 'error' }), { rows: 8, scrollback: 5 })
    for (let i = 0; i < 20; i++) await s.show(`filler ${i}\r\n`) // fill the scrollback
    expect(await s.show('FATAL: boom\r\n')).toHaveLength(1)
    for (let i = 0; i < 6; i++) expect(await s.show(`after ${i}\r\n`)).toEqual([])
    // Off the screen and back: printed again, it is a new appearance.
    for (let i = 0; i < 10; i++) await s.show(`more ${i}\r\n`)
    expect(await s.show('FATAL: boom\r\n')).toHaveLength(1)
  })

  it('the same prompt twice on screen fires twice; the alternate screen is tracked by row', async () => {
    const s = await setup(approve)
    const both = await s.show(
      '\x1b[?1049h\x1b[2;1HDo you want to make this edit to a.ts?\x1b[6;1HDo you want to make this edit to a.ts?',
    )
    expect(both).toHaveLength(2)
    expect(await s.show('\x1b[2;1HDo you want to make this edit to a.ts?')).toEqual([])
    // Leaving the alternate screen drops what was on it; the normal screen is empty of prompts.
    expect(await s.show('\x1b[?1049l')).toEqual([])
    expect(await s.show('\x1b[?1049h\x1b[2;1HDo you want to make this edit to a.ts?')).toHaveLength(1)
  })
})
