// The YAML a proctor.yml is usually written in — block mappings and sequences, one-line flow collections,
// plain and quoted scalars, comments — read without the yaml library, whose loading and first parse cost
// ~12 ms of CPU before every agent spawn. It reads a text only when it is sure to read it exactly as yaml
// does (YAML 1.2, core schema: what parse.ts uses); anything else (anchors, tags, block scalars, multi-line
// scalars, tabs, duplicate keys, a problem of any kind) gets `undefined`, and the yaml library reads it.
// test/unit/mini-yaml.test.ts compares the two on generated and hand-written documents.

/** The text's value (null for an empty document), or undefined when this reader does not decide it. */
export function readSimpleYaml(text: string): unknown {
  try {
    return new Reader(text).document()
  } catch (error) {
    if (error instanceof Undecided) return undefined
    throw error
  }
}

class Undecided extends Error {}
const give = (): never => {
  throw new Undecided()
}

interface Line {
  indent: number
  text: string
}

/** A key: a plain word, never one that yaml would read as null, a boolean or a number. */
const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/
/** Characters that start something other than a plain scalar (or a plain scalar yaml reads otherwise). */
const INDICATOR = /^[?:,[\]{}#&*!|>'"%@`]/

class Reader {
  private readonly lines: Line[] = []
  private at = 0

  constructor(text: string) {
    if (/[\t\r\uFEFF]/.test(text)) give()
    for (const raw of text.split('\n')) {
      const content = raw.trimStart()
      if (content === '' || content.startsWith('#')) continue
      if (/^(---|\.\.\.|%)/.test(raw)) give()
      this.lines.push({ indent: raw.length - content.length, text: content.trimEnd() })
    }
  }

  document(): unknown {
    if (this.lines.length === 0) return null
    if (this.lines[0]!.indent !== 0) give()
    const value = this.block(0)
    if (this.at !== this.lines.length) give()
    return value
  }

  private block(indent: number): unknown {
    return isSequenceEntry(this.lines[this.at]!.text) ? this.sequence(indent) : this.mapping(indent)
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    while (this.at < this.lines.length) {
      const line = this.lines[this.at]!
      if (line.indent < indent) break
      if (line.indent > indent || isSequenceEntry(line.text)) give()
      const colon = line.text.indexOf(':')
      if (colon < 0) give()
      const key = line.text.slice(0, colon)
      const rest = line.text.slice(colon + 1)
      if (!KEY.test(key) || typeof plain(key) !== 'string' || key === '__proto__') give()
      if (rest !== '' && !rest.startsWith(' ')) give()
      if (Object.hasOwn(out, key)) give()
      this.at++
      out[key] = this.valueAfter(rest.trim(), indent, true)
    }
    return out
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = []
    while (this.at < this.lines.length) {
      const line = this.lines[this.at]!
      // A key's sequence at the key's own indentation ends at the next key.
      if (line.indent < indent || (line.indent === indent && !isSequenceEntry(line.text))) break
      if (line.indent > indent) give()
      const rest = line.text.slice(1).trimStart()
      if (rest.startsWith('- ') || rest === '-') give() // a sequence in a sequence entry
      const column = indent + line.text.length - rest.length
      if (rest !== '' && !rest.startsWith('#') && startsMapping(rest)) {
        // `- key: value`: a mapping whose keys line up with this first one.
        this.lines[this.at] = { indent: column, text: rest }
        out.push(this.mapping(column))
        continue
      }
      this.at++
      out.push(this.valueAfter(rest, indent, false))
    }
    return out
  }

  /** The value after `key:` or `- `: on the same line, or the block below it (or null). */
  private valueAfter(rest: string, indent: number, ofKey: boolean): unknown {
    if (rest !== '' && !rest.startsWith('#')) return inline(rest)
    const next = this.lines[this.at]
    if (!next) return null
    // A key's sequence may sit at the key's own indentation.
    if (next.indent > indent || (ofKey && next.indent === indent && isSequenceEntry(next.text)))
      return this.block(next.indent)
    return null
  }
}

const isSequenceEntry = (text: string) => text === '-' || text.startsWith('- ')

function startsMapping(text: string): boolean {
  const m = /^([^\s:]+):( |$)/.exec(text)
  return m !== null && !INDICATOR.test(text)
}

/** A value that fits on its line: a flow collection, a quoted or a plain scalar, then maybe a comment. */
function inline(text: string): unknown {
  if (text.startsWith('[') || text.startsWith('{') || text.startsWith('"') || text.startsWith("'")) {
    const [value, end] = flowNode(text, 0)
    const after = text.slice(end)
    if (after.trim() !== '' && !/^\s+#/.test(after)) give()
    return value
  }
  const comment = text.search(/\s#/)
  const scalar = (comment < 0 ? text : text.slice(0, comment)).trimEnd()
  if (scalar.includes(': ') || scalar.endsWith(':')) give()
  return plain(scalar)
}

/** One node of a flow collection (or a quoted scalar) starting at `at`: its value and where it ends. */
function flowNode(text: string, at: number): [unknown, number] {
  const c = text[at]
  if (c === '"') return doubleQuoted(text, at)
  if (c === "'") return singleQuoted(text, at)
  if (c === '[') {
    const out: unknown[] = []
    let i = skipSpaces(text, at + 1)
    if (text[i] === ']') return [out, i + 1]
    for (;;) {
      const [value, end] = flowScalarOrNode(text, i)
      out.push(value)
      i = skipSpaces(text, end)
      if (text[i] === ']') return [out, i + 1]
      if (text[i] !== ',') give()
      i = skipSpaces(text, i + 1)
    }
  }
  if (c === '{') {
    const out: Record<string, unknown> = {}
    let i = skipSpaces(text, at + 1)
    if (text[i] === '}') return [out, i + 1]
    for (;;) {
      const m = /^([A-Za-z_][A-Za-z0-9_.-]*): +/.exec(text.slice(i))
      if (!m) give()
      const key = m![1]!
      if (typeof plain(key) !== 'string' || key === '__proto__' || Object.hasOwn(out, key)) give()
      const [value, end] = flowScalarOrNode(text, i + m![0].length)
      out[key] = value
      i = skipSpaces(text, end)
      if (text[i] === '}') return [out, i + 1]
      if (text[i] !== ',') give()
      i = skipSpaces(text, i + 1)
    }
  }
  return give()
}

function flowScalarOrNode(text: string, at: number): [unknown, number] {
  if ('[{"\''.includes(text[at] ?? '')) return flowNode(text, at)
  let end = at
  while (end < text.length && !',[]{}'.includes(text[end]!)) end++
  const scalar = text.slice(at, end).trimEnd()
  if (scalar === '' || scalar.includes(': ') || scalar.endsWith(':') || /\s#/.test(scalar)) give()
  return [plain(scalar), end]
}

function skipSpaces(text: string, at: number): number {
  while (text[at] === ' ') at++
  return at
}

function singleQuoted(text: string, at: number): [string, number] {
  let out = ''
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] !== "'") out += text[i]
    else if (text[i + 1] === "'") {
      out += "'"
      i++
    } else return [out, i + 1]
  }
  return give()
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
}

function doubleQuoted(text: string, at: number): [string, number] {
  let out = ''
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') return [out, i + 1]
    if (c !== '\\') {
      out += c
      continue
    }
    const e = text[++i] ?? ''
    if (e in ESCAPES) out += ESCAPES[e]
    else if (e === 'x' || e === 'u') {
      const hex = text.slice(i + 1, i + (e === 'x' ? 3 : 5))
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== (e === 'x' ? 2 : 4)) give()
      const code = parseInt(hex, 16)
      if (code >= 0xd800 && code <= 0xdfff) give()
      out += String.fromCharCode(code)
      i += hex.length
    } else give()
  }
  return give()
}

/** A plain scalar as YAML 1.2's core schema reads it. */
function plain(text: string): unknown {
  if (text === '' || text === '~' || /^(null|Null|NULL)$/.test(text)) return null
  if (INDICATOR.test(text) || (text.startsWith('-') && text.length > 1 && text[1] === ' ')) give()
  if (text === '-') give()
  if (/^(true|True|TRUE)$/.test(text)) return true
  if (/^(false|False|FALSE)$/.test(text)) return false
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text)
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return parseFloat(text)
  // Octal, hexadecimal, infinities and NaN: numbers in yaml's reading, left to it.
  if (/^(0o|0x)|^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/.test(text)) give()
  return text
}
