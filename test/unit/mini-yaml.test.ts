// src/config/mini-yaml.ts reads the common proctor.yml without the yaml library. Whatever it reads must be
// exactly what yaml reads (the value parse.ts validates); anything else it must leave to yaml.
import { describe, expect, it } from 'vitest'
import { parseDocument, stringify } from 'yaml'
import fs from 'node:fs'
import path from 'node:path'
import { readSimpleYaml } from '../../src/config/mini-yaml.js'

const root = path.resolve(import.meta.dirname, '../..')

/** yaml's reading, as parse.ts takes it; undefined when it has errors or warnings. */
function yamlReads(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: true })
  if (doc.errors.length > 0 || doc.warnings.length > 0) return undefined
  return doc.toJS() ?? null
}

function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SCALARS: unknown[] = [
  ...[
    '',
    'a',
    'npm test',
    'a: b',
    'a #b',
    'a#b',
    '#x',
    '-p',
    '- x',
    '-',
    '?',
    ':x',
    'x:',
    '[a]',
    '{b}',
    'a, b',
  ],
  ...[
    "it's",
    'say "hi"',
    '\r',
    '1\r',
    '\x1b[A',
    'tab\there',
    'ü ✓',
    'null',
    'Null',
    '~',
    'true',
    'TRUE',
    'no',
  ],
  ...[
    'yes',
    'on',
    '0o17',
    '0x1F',
    '.inf',
    '-.inf',
    '.nan',
    '1e3',
    '1.',
    '.5',
    '+5',
    '-0',
    '012',
    '1_000',
    '5MiB',
  ],
  ...[
    '30m',
    '1h30m',
    'proctor/{session}',
    'src/**',
    '*',
    '&a',
    '!x',
    '|',
    '>',
    '%',
    '@',
    '`',
    'a\\b',
    ' lead',
  ],
  ...[0, 1, -1, 1.5, 1e21, 2 ** 53 + 2, true, false, null],
]
const KEYS = ['a', 'agent', 'command', 'b_c', 'x.y', 'x-y', 'on', 'true', 'null', '1', 'a b', '__proto__', '']

function generate(rnd: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!
  const r = rnd()
  if (depth > 3 || r < 0.5) return pick(SCALARS)
  if (r < 0.75) return Array.from({ length: Math.floor(rnd() * 4) }, () => generate(rnd, depth + 1))
  const out: Record<string, unknown> = {}
  for (let i = Math.floor(rnd() * 4); i > 0; i--) out[pick(KEYS)] = generate(rnd, depth + 1)
  return out
}

function agrees(text: string): boolean {
  const mine = readSimpleYaml(text)
  if (mine === undefined) return false
  expect(yamlReads(text), text).not.toBeUndefined()
  expect(mine, text).toStrictEqual(yamlReads(text))
  return true
}

describe('readSimpleYaml', () => {
  it('reads what yaml reads, on generated documents in block and flow style', () => {
    const rnd = random(7)
    let read = 0
    for (let i = 0; i < 3000; i++) {
      const value = { top: generate(rnd, 0), other: generate(rnd, 1) }
      const styles = [
        stringify(value),
        stringify(value, { collectionStyle: 'flow' }),
        stringify(value, { indentSeq: false }),
        stringify(value, { defaultStringType: 'QUOTE_SINGLE' }),
        stringify(value, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }),
      ]
      for (const text of styles) if (agrees(text)) read++
    }
    expect(read).toBeGreaterThan(3000)
  })

  it('reads hand-written files as yaml does, comments and quoting included', () => {
    const texts = [
      '',
      '# only a comment\n',
      'timeouts: { total: 30m }\n',
      'agent:\n  command: [claude, -p, "Fix the test"]   # the agent\n  pty: false\n',
      "detect:\n  - name: a\n    match: 'it''s'\n    respond: { send: \"1\\r\" }\n  - { name: b, match: x }\n",
      'on_events:\n- completion\n- idle\nnext: 1\n',
      'stop_hooks:\n  -\n    name: tests\n    command: npm test\n',
      'a:\n  b:\n    c: 1\n  d: 2\ne: ~\nf:\n',
      'url: http://example.com/a#b\ncount: 012\nfloat: 1e3\nneg: -1\n',
      'list: []\nmap: {}\nnested: [[a], {b: c}]\n',
    ]
    for (const text of texts) expect(agrees(text), text).toBe(true)
    for (const name of ['minimal.yml', 'claude-code.yml', 'interactive-tui.yml', 'batch.yml'])
      expect(agrees(fs.readFileSync(path.join(root, 'examples/configs', name), 'utf8')), name).toBe(true)
  })

  it('leaves to yaml what it does not read exactly, and every document yaml has a problem with', () => {
    const texts = [
      'a: 1\na: 2\n', // duplicate key
      'a:\n\tb: 1\n', // tab
      'a: &x 1\nb: *x\n', // anchor, alias
      'a: !!str 1\n', // tag
      'a: |\n  text\n', // block scalar
      'a: one\n  two\n', // multi-line plain scalar
      'a: "one\n  two"\n', // multi-line quoted scalar
      '---\na: 1\n', // document marker
      'a: [1,\n  2]\n', // multi-line flow
      'a: 0x1F\n', // hexadecimal
      'a: .inf\n',
      '"quoted key": 1\n',
      '  a: 1\n', // indented document
      'a: 1\n b: 2\n', // bad indentation
      'a:\n  - x\n  b: 1\n', // sequence then key at its indentation
      '- - a\n', // sequence in a sequence entry
      'a: b: c\n',
      'a: {b: 1, b: 2}\n',
      'a: "\\N"\n',
      'a: 1\r\nb: 2\r\n',
      '\uFEFFa: 1\n',
    ]
    for (const text of texts) expect(readSimpleYaml(text), text).toBeUndefined()
  })
})
