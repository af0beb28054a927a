// The action echoes the agent's output into the job log: tokens must be gone, even when the agent's
// output arrives in pieces that split a token in two.
import { describe, expect, it } from 'vitest'
import { RedactingWriter } from '../../src/util/redacting-writer.js'
import { createSanitizer } from '../../src/util/sanitize.js'

function collect(): { sink: { write(c: string | Uint8Array): void }; text: () => string } {
  const parts: string[] = []
  return { sink: { write: (c) => void parts.push(String(c)) }, text: () => parts.join('') }
}

describe('RedactingWriter', () => {
  const token = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'

  it('redacts a token split across chunks, and a registered secret', () => {
    const out = collect()
    const writer = new RedactingWriter(out.sink, createSanitizer({ secrets: ['hunter2-secret-value'] }))
    writer.write(`using ${token.slice(0, 10)}`)
    writer.write(Buffer.from(`${token.slice(10)} now\r\n`))
    writer.write('password is hunter2-secret-value\n')
    writer.write('no newline at the end')
    writer.end()
    expect(out.text()).not.toContain(token.slice(4))
    expect(out.text()).not.toContain('hunter2-secret-value')
    expect(out.text()).toContain('using ***')
    expect(out.text()).toContain('no newline at the end')
  })

  it('does not hold a long line without newlines forever', () => {
    const out = collect()
    const writer = new RedactingWriter(out.sink, createSanitizer({ secrets: [] }), 100)
    writer.write('#'.repeat(150))
    expect(out.text()).toHaveLength(150)
  })
})

describe('workflow commands in agent output', () => {
  it('cannot be issued by the agent', () => {
    const out = collect()
    const writer = new RedactingWriter(out.sink, createSanitizer({ secrets: [] }))
    writer.write('::add-mask::nothing\r\n  ::stop-commands::x\n\x1b[31m::error::fake\x1b[0m\nkeep a::b\n')
    writer.end()
    expect(out.text()).not.toMatch(/^[\s\x1b[\]0-9;]*::/m)
    expect(out.text()).toContain('keep a::b')
  })
})

describe("the runner's view of agent output", () => {
  const sanitizer = createSanitizer({ secrets: [] })

  it('decodes UTF-8 split across chunks (one streaming decoder)', () => {
    const out = collect()
    const writer = new RedactingWriter(out.sink, sanitizer)
    const bytes = Buffer.from('héllo ✓\n', 'utf8')
    // Cut inside "é" (2 bytes) and inside "✓" (3 bytes).
    for (const piece of [bytes.subarray(0, 2), bytes.subarray(2, 8), bytes.subarray(8)]) writer.write(piece)
    writer.end()
    expect(out.text()).toBe('héllo ✓\n')
  })

  it('neutralizes a command after NEL (the runner trims it) and the ##[ form anywhere', () => {
    const out = collect()
    const writer = new RedactingWriter(out.sink, sanitizer)
    writer.write('\u0085::add-mask::x\n \u0085 ::error::y\nsee ##[stop-commands]tok here\n')
    writer.end()
    // What the runner checks: TrimStart (which removes NEL) then "::"; and IndexOf("##[").
    for (const line of out.text().split('\n')) {
      expect(line.replace(/^[\s\u0085]+/, '').startsWith('::')).toBe(false)
      expect(line).not.toContain('##[')
    }
  })

  it('wraps each flush in ::stop-commands::<random token> … ::<token>::', () => {
    const out = collect()
    const a = new RedactingWriter(out.sink, sanitizer, { stopCommands: true })
    a.write('line one\nline two\n')
    a.write('partial')
    a.end()
    const text = out.text()
    const token = /^::stop-commands::(proctor-[0-9a-f]{32})\n/.exec(text)?.[1]
    expect(token).toBeDefined()
    expect(text).toBe(
      `::stop-commands::${token}\nline one\nline two\n::${token}::\n::stop-commands::${token}\npartial\n::${token}::\n`,
    )
    const other = collect()
    const b = new RedactingWriter(other.sink, sanitizer, { stopCommands: true })
    b.write('x\n')
    expect(other.text()).not.toContain(token!)
  })
})
