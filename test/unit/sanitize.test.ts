import { describe, it, expect } from 'vitest'
import { stripVTControlCharacters } from 'node:util'
import {
  createSanitizer,
  fenceFor,
  neutralizeWorkflowCommands,
  printableLine,
  printablePath,
  stripControl,
  stripTerminal,
} from '../../src/util/sanitize.js'

const TOKEN = 'ghs_' + 'A1b2C3d4'.repeat(5)
const s = () => createSanitizer({ secrets: [TOKEN, 'hunter2-masked-value'] })

describe('redact', () => {
  it('removes the token and masked values wherever they appear', () => {
    const out = s().redact(`token=${TOKEN} pass hunter2-masked-value end`)
    expect(out).toBe('token=*** pass *** end')
  })

  it.each([
    ['classic PAT', 'ghp_' + 'x'.repeat(36)],
    ['oauth', 'gho_' + 'Y'.repeat(36)],
    ['user-to-server', 'ghu_' + 'z'.repeat(36)],
    ['refresh', 'ghr_' + '1'.repeat(40)],
    ['fine-grained PAT', 'github_pat_11ABCDEFG0' + 'q'.repeat(60)],
    ['OpenAI', 'sk-proj-' + 'a'.repeat(40)],
    ['Anthropic', 'sk-ant-api03-' + 'b'.repeat(60)],
    ['Slack', 'xoxb-1234567890-abcdefghij'],
    ['AWS access key', 'AKIAIOSFODNN7EXAMPLE'],
    ['AWS session key', 'ASIAIOSFODNN7EXAMPLE'],
    ['AWS secret access key', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['Google API key', 'AIza' + 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
    ['Stripe live key', 'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc'],
    ['npm token', 'npm_' + 'a1B2'.repeat(9)],
    ['GitLab PAT', 'glpat-' + 'x1Y2z3W4v5U6t7S8r9Q0'],
    ['Hugging Face token', 'hf_' + 'aBcDeFgHiJ'.repeat(3) + 'kLmN'],
    ['SendGrid key', 'SG.' + 'a'.repeat(22) + '.' + 'B'.repeat(43)],
  ])('redacts a %s and reports it for masking', (_kind, secret) => {
    const sanitizer = s()
    expect(sanitizer.redact(`leaked: ${secret}.`)).toBe('leaked: ***.')
    expect(sanitizer.discovered()).toContain(secret)
  })

  it('redacts private key blocks, bearer tokens and URL credentials but keeps the surrounding words', () => {
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nAAAA\n-----END OPENSSH PRIVATE KEY-----'
    const out = s().redact(
      `before\n${key}\nafter Authorization: Bearer abc.def-ghi_jkl123 git push https://x-access-token:s3cr3tvalue@github.com/o/r`,
    )
    expect(out).toContain('before\n***\nafter')
    expect(out).toContain('Bearer ***')
    expect(out).toContain('https://***@github.com/o/r')
    expect(out).not.toMatch(/b3Blbn|abc\.def|s3cr3t/)
  })

  it('reports the token in a URL once, not the URL credential around it (already redacted)', () => {
    const token = 'ghp_' + 'Q'.repeat(36)
    const sanitizer = s()
    expect(sanitizer.redact(`https://x-access-token:${token}@github.com/a/b`)).toBe(
      'https://***@github.com/a/b',
    )
    expect(sanitizer.discovered()).toEqual([token])
  })

  it('keeps git object ids and ordinary long words (an AWS key needs mixed case and a digit)', () => {
    const text = `commit ${'0123456789abcdef'.repeat(2)}01234567 and ${'a'.repeat(40)} and ${'Ab'.repeat(20)}`
    expect(s().redact(text)).toBe(text)
  })

  it('redacts a Slack webhook path and an AWS key in an env dump', () => {
    const out = s().redact(
      'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    )
    expect(out).toBe('https://hooks.slack.com/services/***\nAWS_SECRET_ACCESS_KEY=***')
  })

  it('does not report the secrets it was given (they are masked already)', () => {
    const sanitizer = createSanitizer({ secrets: ['ghp_' + 'k'.repeat(36)] })
    sanitizer.redact('ghp_' + 'k'.repeat(36))
    expect(sanitizer.discovered()).toEqual([])
  })
})

describe('forMarkdown', () => {
  it('cannot ping people, cross-reference issues, inject HTML or fake a marker', () => {
    const out = s().forMarkdown(
      '@octocat fixed #123 </details><!-- proctor:x --><img src=x onerror=alert(1)>',
      1000,
    )
    expect(out).not.toMatch(/@octocat/)
    expect(out).toContain('@&#8203;octocat')
    expect(out).not.toMatch(/#123/)
    expect(out).not.toMatch(/<\/details>|<!--|<img/)
    expect(out).toContain('&lt;/details&gt;')
  })

  it('is safe inside a table cell: no pipes, no newlines, no link syntax', () => {
    const out = s().forMarkdown('a | b\nc [click](https://evil.example) `code`', 1000)
    expect(out).not.toMatch(/(?<!\\)\|/)
    expect(out).not.toContain('\n')
    expect(out).toContain('<br>')
    expect(out).toContain('\\[click\\]')
  })

  it('strips ANSI and control characters and redacts secrets', () => {
    const out = s().forMarkdown(`\u001b[31mred\u001b[0m\u0007 ${TOKEN}`, 1000)
    // The mask's asterisks are escaped so they render as *** rather than emphasis.
    expect(out).toBe('red \\*\\*\\*')
  })

  it('caps the size with a note and never cuts inside an entity', () => {
    for (let n = 40; n < 120; n++) {
      const out = s().forMarkdown('<<<<<<<<<<'.repeat(30), n)
      expect(out.length).toBeLessThanOrEqual(n)
      expect(out).toMatch(/more characters cut\)$/)
      expect(out.replace(/ … \(.*$/, '')).toMatch(/^(&lt;)*$/)
    }
  })
})

describe('forCodeBlock', () => {
  it('picks a fence longer than any backtick run so a hostile transcript cannot close the block', () => {
    const hostile = 'ok\n```\n</details>\n\n# owned\n``````\n<!-- proctor:other-key -->\n@everyone'
    const block = s().forCodeBlock(hostile, 10_000)
    const fence = block.split('\n', 1)[0]!
    expect(fence).toBe('```````')
    expect(block.endsWith(`\n${fence}`)).toBe(true)
    // Only the first and last lines are fences of that length.
    expect(block.split('\n').filter((l) => l.startsWith(fence))).toHaveLength(2)
    expect(block).not.toContain('<!-- proctor:')
  })

  it('cuts huge lines and keeps the tail within the budget', () => {
    const text = Array.from(
      { length: 2000 },
      (_, i) => `line ${i} ${'x'.repeat(i === 5 ? 50_000 : 10)}`,
    ).join('\n')
    const block = s().forCodeBlock(text, 5000)
    expect(block.length).toBeLessThanOrEqual(5000)
    expect(block).toContain('line 1999')
    expect(block).not.toContain('line 5 ')
    expect(block).toMatch(/characters omitted to fit/)
    const withHuge = s().forCodeBlock(`short\n${'y'.repeat(50_000)}`, 100_000)
    expect(withHuge).toMatch(/line cut: 49000 more characters/)
  })

  it('returns an empty string when not even the fences fit', () => {
    expect(s().forCodeBlock('hello', 4)).toBe('')
  })
})

describe('forLog', () => {
  it('neutralizes workflow commands so agent output cannot set outputs or stop commands', () => {
    const out = s().forLog(`::add-mask::x\n  ::stop-commands::tok\nnormal :: text ${TOKEN}`)
    expect(out).not.toMatch(/^\s*::/m)
    expect(out).toContain('normal :: text ***')
  })

  it('neutralizes the legacy ##[command] form anywhere in a line, and NEL before ::', () => {
    const out = s().forLog('progress ##[set-output name=x]y\n##[stop-commands]tok\n\u0085::add-mask::z')
    expect(out).not.toContain('##[')
    expect(out).not.toMatch(/^[\s\u0085]*::/m)
    expect(out).toContain('progress ##\u200b[set-output name=x]y')
  })
})

describe('helpers', () => {
  it('fenceFor and stripControl', () => {
    expect(fenceFor('no ticks')).toBe('```')
    expect(fenceFor('a ```` b')).toBe('`````')
    expect(stripControl('a\r\nb\rc\u001b]0;title\u0007d\u202eе')).toBe('a\nb\ncdе')
  })
})

describe('printablePath and printableLine (file names and reasons on a terminal)', () => {
  it('leave plain text as it is and escape every control character, newlines, C1 and bidi marks included', () => {
    expect(printablePath('src/a b.txt')).toBe('src/a b.txt')
    expect(printablePath('evil\nrestored 0 file(s)\u001b]52;c;eA==\u0007.txt')).toBe(
      '"evil\\nrestored 0 file(s)\\u001b]52;c;eA==\\u0007.txt"',
    )
    expect(printablePath('x\u009b31m\u202e.txt')).toBe('"x\\u009b31m\\u202e.txt"')
    expect(printableLine('1 violation(s): x\u001b]0;TITLE\u0007.txt')).toBe(
      '1 violation(s): x\\u001b]0;TITLE\\u0007.txt',
    )
    expect(printableLine('plain reason')).toBe('plain reason')
  })
})

describe('stripTerminal (the one stripper: line views, transcripts, logs, markdown, check runs)', () => {
  it('leaves plain text untouched and removes SGR and CSI sequences', () => {
    expect(stripTerminal('plain text')).toBe('plain text')
    expect(stripTerminal('\x1b[32m✓\x1b[39m pass \x1b[?25l')).toBe('✓ pass ')
  })

  it('keeps \r for a line view, where stripControl makes it a newline', () => {
    expect(stripTerminal('50%\r100%\r\n')).toBe('50%\r100%\r\n')
    expect(stripControl('50%\r100%\r\n')).toBe('50%\n100%\n')
  })

  // Why the stripper is not util.stripVTControlCharacters: each of these leaves text behind there.
  const leftBehind: [string, string, string][] = [
    ['a window title cut off by the end of the text', 'a\x1b]0;title', 'a'],
    ['a DCS string (sixel graphics)', 'a\x1bPq#0;2;0;0;0\x1b\\b', 'ab'],
    ['an APC string (kitty graphics)', 'a\x1b_Gf=100;AAAA\x1b\\b', 'ab'],
    ['a lone BEL and a bidi override', 'a\x07b\u202ec', 'abc'],
  ]
  it.each(leftBehind)('removes %s whole', (_what, text, clean) => {
    expect(stripTerminal(text)).toBe(clean)
    expect(stripVTControlCharacters(text)).not.toBe(clean)
  })
})

describe('neutralizeWorkflowCommands', () => {
  it('sees a command behind blanks and colour codes, and leaves other colons alone', () => {
    const out = neutralizeWorkflowCommands('\x1b[1;31m::error::x\n \t::warning::y\n2001::1 and a::b\n')
    expect(out).toBe('\x1b[1;31m:\u200b:error::x\n \t:\u200b:warning::y\n2001::1 and a::b\n')
  })
})
