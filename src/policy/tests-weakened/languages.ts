// What a test file holds, counted lexically per language (no parser: the same rules read every version of
// a file, so what they miss they miss on both sides). Comments and what strings hold are blanked first, so a
// test commented out, or wrapped in a template literal or a docstring, no longer counts; the quotes stay (a
// skip reason opens one). docs/policy.md#tests_weakened lists what each language counts.
import type { TestLanguage } from '../../config/test-files.js'

export interface LanguageRules {
  /** Line comments and, when given, block comments; `'` opens a string unless `quotes` leaves it out. */
  lineComment: string
  blockComment: boolean
  quotes: string
  /** A test case: a test function or a test call. */
  tests: RegExp
  /** An assertion call. */
  assertions: RegExp
  /** A skipped, focused (the others no longer run) or disabled test, or a skip inside one. */
  skips: RegExp
  /** `"""` and `'''` open a string that spans lines (Python). */
  tripleQuotes?: boolean
  /** Skips written as comments, matched before comments are blanked (Go's build constraints). */
  commentSkips?: RegExp
  /** Only a file whose content matches this is a test file (Rust's tests live beside the code). */
  marker?: RegExp
  /**
   * Where the file (re)binds the framework's own names (`const it = () => {}`, `__test__ = False`): every
   * counted `it(` and `expect(` stays in place and none runs as written. Given the source and its blanked
   * code (a match that starts in a comment or a string is none).
   */
  rebinds?: (source: string, code: string) => Rebinding[]
}

/** One place that rebinds a test-framework name: where it starts and what it says (whitespace collapsed). */
export interface Rebinding {
  index: number
  text: string
}

export const RULES: Record<TestLanguage, LanguageRules> = {
  javascript: {
    lineComment: '//',
    blockComment: true,
    quotes: `'"\``,
    // it(, test(, specify(, it.each(…)(…) and test.concurrent(…); not regex.test( (a method).
    tests:
      /(?<![\w.$])(?:it|test|specify)\s*(?:\.\s*(?:only|concurrent|sequential|failing|fails|each|for)\s*)*[(`]/g,
    assertions: /(?<![\w.$])(?:expect|assert)(?:\s*\.\s*\w+)*\s*\(|\.should\b/g,
    skips:
      /(?<![\w.$])(?:it|test|specify|describe|suite|context)\s*(?:\.\s*\w+\s*)*?\.\s*(?:skip|todo|only|skipIf|runIf)\b|(?<![\w.$])(?:xit|xtest|xspecify|xdescribe|xcontext|xsuite|fit|fdescribe)\s*\(|(?<![\w$])(?:this|ctx|context|t)\s*\.\s*skip\s*\(|(?<![\w$])(?:skip|todo|only)\s*:\s*(?:true|['"`])/g,
    rebinds: jsRebinds,
  },
  python: {
    lineComment: '#',
    blockComment: false,
    quotes: `'"`,
    tripleQuotes: true,
    tests: /^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(/gm,
    assertions:
      /^[ \t]*assert\b|\bself\.assert\w*\s*\(|\bself\.fail\s*\(|\bpytest\.(?:raises|warns|fail)\s*\(/gm,
    skips:
      /\bpytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail|importorskip)\s*\(|@(?:unittest\.)?(?:skip|skipIf|skipUnless|expectedFailure)\b|\bself\.skipTest\s*\(|\braise\s+(?:unittest\.)?SkipTest\b/g,
    rebinds: pythonRebinds,
  },
  go: {
    lineComment: '//',
    blockComment: true,
    quotes: `"\``,
    tests: /^func[ \t]+(?:Test|Fuzz|Example)\w*[ \t]*\(|\bt\.Run\s*\(/gm,
    assertions: /\b[tbf]\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\b(?:assert|require)\.\w+\s*\(/g,
    skips: /\b[tbf]\.(?:Skip|Skipf|SkipNow)\s*\(/g,
    // A build constraint leaves the whole file out of `go test` wherever it does not hold.
    commentSkips: /^\/\/(?:go:build|[ \t]*\+build)\b.*$/gm,
  },
  rust: {
    lineComment: '//',
    blockComment: true,
    // `'` is a lifetime as often as a char: it opens nothing.
    quotes: '"',
    // (Bounded repetitions throughout: an attribute never runs for pages, and an unbounded one would
    // backtrack over the rest of a line at each `#[`.)
    tests: /#\[\s*(?:[\w:]+::)?test\b[^\]\n]{0,200}\]|#\[\s*rstest\b/g,
    assertions:
      /\b(?:assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|assert_matches|prop_assert\w*)!\s*[([{]|#\[\s*should_panic\b/g,
    skips: /#\[\s*ignore\b/g,
    marker: /#\[\s*(?:[\w:]+::)?test\b|#\[\s*cfg\s*\(\s*test\s*\)\s*\]|#\[\s*rstest\b/,
  },
  java: {
    lineComment: '//',
    blockComment: true,
    quotes: `"'`,
    tests: /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property)\b/g,
    assertions: /(?<![\w$])(?:assert[A-Z]\w*|assertThat|fail|verify)\s*\(|^[ \t]*assert[ \t(]/gm,
    skips:
      /@(?:Disabled\w*|Ignore|EnabledIf\w*|EnabledOn\w*)\b|(?<![\w$])(?:Assumptions\s*\.\s*)?assume(?:True|False|That)\s*\(/g,
  },
}

/** Counts and the skip lines of one version of a test file. */
export interface TestCounts {
  tests: number
  assertions: number
  /** Each line holding a skip (trimmed), with its 1-based number. */
  skips: { line: number; text: string }[]
  /** The file is a test file at all (always, but for a language with a marker). */
  marked: boolean
  /** Each place that rebinds a test-framework name, with its 1-based line. */
  rebinds: { line: number; text: string }[]
}

export function countTests(language: TestLanguage, source: string): TestCounts {
  const rules = RULES[language]
  const code = blankComments(source, rules)
  const lines = source.split('\n')
  const skipLines = new Map<number, string>()
  const at = lineCounter(source)
  const found = [...code.matchAll(rules.skips)].map((m) => m.index)
  if (rules.commentSkips) found.push(...[...source.matchAll(rules.commentSkips)].map((m) => m.index))
  for (const index of found.sort((a, b) => a - b)) {
    const line = at(index)
    if (!skipLines.has(line)) skipLines.set(line, (lines[line - 1] ?? '').trim())
  }
  // One per line: `const it = …` is both a declaration and an assignment.
  const rebinds = new Map<number, string>()
  const atRebind = lineCounter(source)
  for (const r of (rules.rebinds?.(source, code) ?? []).sort((a, b) => a.index - b.index)) {
    const line = atRebind(r.index)
    if (!rebinds.has(line)) rebinds.set(line, r.text)
  }
  return {
    tests: countMatches(code, rules.tests),
    assertions: countMatches(code, rules.assertions),
    skips: [...skipLines].map(([line, text]) => ({ line, text })),
    marked: rules.marker ? rules.marker.test(code) : true,
    rebinds: [...rebinds].map(([line, text]) => ({ line, text })),
  }
}

// --- Rebinding the framework's names -------------------------------------------------------------------
// Lexical like the rest: what binds a name the framework provides, at any depth (a local `const test = …`
// inside a helper is flagged too; only lines the change added count, so a file that always had one is not).

/** The JS/TS names a test file calls the framework by. */
const JS_NAMES =
  'it|test|specify|describe|suite|expect|assert|beforeEach|afterEach|beforeAll|afterAll|xit|xtest|xdescribe|fit|fdescribe|chai'
const JS_NAME = new RegExp(`^(?:${JS_NAMES})$`)

/** Modules a test file imports the framework's names from: an import of them from anywhere else rebinds. */
const JS_FRAMEWORKS =
  /^(?:vitest(?:\/.*)?|@vitest\/.+|@jest\/globals|jest|expect|mocha|chai|ava|tap|uvu(?:\/assert)?|jasmine|power-assert|(?:node:)?test|bun:test|(?:node:)?assert(?:\/strict)?|@playwright\/test|@fast-check\/(?:vitest|jest|ava)|@effect\/vitest|@std\/(?:testing|assert)(?:\/.*)?|jsr:@std\/(?:testing|assert)(?:\/.*)?)$/

/** `require('vitest')`, `await import('chai')`, possibly followed by a member (`require('chai').expect`). */
const FRAMEWORK_LOAD = /^\s*(?:await\s+)?(?:require|import)\s*\(\s*(['"`])([^'"`]+)\1\s*\)/

const JS_REBIND_PATTERNS: RegExp[] = [
  // const it = …, let test, var expect, class describe, function it(…), function* test(…)
  new RegExp(
    `(?<![\\w$.])(?:(?:const|let|var|class)\\s+|function\\s*\\*?\\s*)(?:${JS_NAMES})(?![\\w$])(?!\\s+(?:of|in)\\b)`,
    'g',
  ),
  // const { it, expect: e } = …, let [test] = … (a name bound by a pattern, not a key renamed away)
  /(?<![\w$.])(?:const|let|var)\s*[{[][^=;]{0,400}?[}\]]\s*=/g,
  // it = …, expect ||= …, it.each = … (not ==, =>)
  new RegExp(`(?<![\\w$.])(?:${JS_NAMES})(?:\\s*\\.\\s*[\\w$]+){0,4}\\s*(?:[-+*/%&|^?]{0,3})=(?![=>])`, 'g'),
  // globalThis.it = …, global['test'] = …, window.expect = …
  new RegExp(
    `(?<![\\w$.])(?:globalThis|global|window|self)\\s*(?:\\.\\s*(?:${JS_NAMES})(?![\\w$])|\\[\\s*(['"\`])(?:${JS_NAMES})\\1\\s*\\])\\s*=(?![=>])`,
    'g',
  ),
  // Object.defineProperty(globalThis, 'it', …), Object.assign(global, { test: … }), vi.stubGlobal('it', …)
  new RegExp(
    `(?<![\\w$.])Object\\s*\\.\\s*(?:defineProperty\\s*\\(\\s*(?:globalThis|global|window|self)\\s*,\\s*(['"\`])(?:${JS_NAMES})\\1|(?:defineProperties|assign)\\s*\\(\\s*(?:globalThis|global|window|self)\\s*,\\s*\\{[^}]{0,400}?(?<![\\w$.])(?:${JS_NAMES})\\s*[:,}(])`,
    'g',
  ),
  new RegExp(`(?<![\\w$.])vi\\s*\\.\\s*stubGlobal\\s*\\(\\s*(['"\`])(?:${JS_NAMES})\\1`, 'g'),
  // vi.mock('vitest', …), jest.mock('@jest/globals'), jest.unstable_mockModule('node:test', …)
  /(?<![\w$.])(?:vi|jest)\s*\.\s*(?:mock|doMock|unstable_mockModule|setMock)\s*\(\s*(['"`])([^'"`\n]+)\1/g,
  // import { it } from './fake', import test from 'x', import * as expect from 'y'
  /(?<![\w$.])import\s+(?!\()([^'";]{1,400}?)\s+from\s*(['"])([^'"\n]+)\2/g,
]

function jsRebinds(source: string, code: string): Rebinding[] {
  const found: Rebinding[] = []
  const inCode = (index: number) => code.charCodeAt(index) === source.charCodeAt(index)
  for (const [which, pattern] of JS_REBIND_PATTERNS.entries()) {
    for (const match of source.matchAll(pattern)) {
      if (!inCode(match.index)) continue
      if (!jsRebindCounts(which, match, source)) continue
      found.push({ index: match.index, text: statementText(source, match.index, match[0]) })
    }
  }
  return found
}

/** Whether a match of JS_REBIND_PATTERNS[which] rebinds a framework name (the framework's own load does not). */
function jsRebindCounts(which: number, match: RegExpMatchArray, source: string): boolean {
  const rest = () => source.slice(match.index! + match[0].length, match.index! + match[0].length + 200)
  const loadsFramework = (after: string) => {
    const load = FRAMEWORK_LOAD.exec(after)
    return load !== null && JS_FRAMEWORKS.test(load[2]!)
  }
  switch (which) {
    case 0:
      // `const expect = require('chai').expect` is the framework's; `const it = …` anything else is not.
      return !(
        /^(?:const|let|var)\b/.test(match[0]) && loadsFramework(rest().replace(/^\s*(?::[^=;\n]*)?=/, ''))
      )
    case 2:
      return !loadsFramework(rest())
    case 1: {
      const names = patternBindings(match[0].replace(/^(?:const|let|var)\s*/, '').replace(/\s*=$/, ''))
      return names.some((name) => JS_NAME.test(name)) && !loadsFramework(rest())
    }
    case 6:
      return JS_FRAMEWORKS.test(match[2]!)
    case 7: {
      if (JS_FRAMEWORKS.test(match[3]!)) return false
      return importBindings(match[1]!).some((name) => JS_NAME.test(name))
    }
    default:
      return true
  }
}

/** The names a destructuring pattern binds: `{ a, b: c, ...d }` binds a, c, d; `[e, , f = 1]` e and f. */
function patternBindings(pattern: string): string[] {
  const names: string[] = []
  for (const m of pattern.matchAll(/(?:^|[{[,:]|\.\.\.)\s*([A-Za-z_$][\w$]*)\s*(?=[,}\]=]|$)/g))
    names.push(m[1]!)
  return names
}

/** The local names an import clause binds: `a, { b as c, type d, e }` binds a, c, e; `* as f` binds f. */
function importBindings(clause: string): string[] {
  // A type-only import binds no value.
  if (/^type\s/.test(clause)) return []
  const names: string[] = []
  const text = clause
  const braces = /\{([^}]*)\}/.exec(text)
  for (const part of braces ? braces[1]!.split(',') : []) {
    const spec = part.trim()
    if (!spec || /^type\s/.test(spec)) continue
    names.push(
      spec
        .split(/\s+as\s+/)
        .pop()!
        .trim(),
    )
  }
  const outside = braces ? text.replace(braces[0], '') : text
  for (const part of outside.split(',')) {
    const spec = part.trim()
    if (spec) names.push(spec.replace(/^\*\s*as\s+/, ''))
  }
  return names
}

/** What a rebinding says, as its line shows it: the line it starts on (a whole import statement). */
function statementText(source: string, index: number, matched: string): string {
  const start = source.lastIndexOf('\n', index - 1) + 1
  const end = source.indexOf('\n', index)
  const line = source.slice(start, end === -1 ? source.length : end)
  const text = matched.startsWith('import') && matched.includes('\n') ? matched : line
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * Python: `__test__ = False` (pytest collects nothing of the module or class), a test function's name
 * bound again or deleted (`test_x = lambda: None`, `del test_x`: pytest runs what the name holds last), and
 * an assertion method replaced (`self.assertEqual = …`, `TestCase.assertTrue = …`).
 */
function pythonRebinds(source: string, code: string): Rebinding[] {
  const found: Rebinding[] = []
  const inCode = (index: number) => code.charCodeAt(index) === source.charCodeAt(index)
  const tests = new Set([...code.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test\w*)/gm)].map((m) => m[1]!))
  const patterns: [RegExp, (m: RegExpMatchArray) => boolean][] = [
    [/^[ \t]*__test__[ \t]*(?::[^=\n]*)?=(?!=)/gm, () => true],
    [/^[ \t]*(test\w*)[ \t]*(?::[^=\n]*)?=(?!=)/gm, (m) => tests.has(m[1]!)],
    [/^[ \t]*del[ \t]+(test\w*)\b/gm, (m) => tests.has(m[1]!)],
    [/\b(?:self|cls|(?:unittest\.)?TestCase)\.(?:assert\w*|fail\w*)[ \t]*=(?!=)/g, () => true],
  ]
  for (const [pattern, counts] of patterns) {
    for (const match of source.matchAll(pattern)) {
      const at = match.index + (match[0].length - match[0].trimStart().length)
      if (!inCode(at) || !counts(match)) continue
      found.push({ index: at, text: statementText(source, at, match[0]) })
    }
  }
  return found
}

function countMatches(text: string, pattern: RegExp): number {
  let n = 0
  for (const _ of text.matchAll(pattern)) n++
  return n
}

/** The 1-based line of an index, for indexes asked in increasing order (one pass over the text). */
function lineCounter(text: string): (index: number) => number {
  let line = 1
  let next = text.indexOf('\n')
  return (index) => {
    while (next !== -1 && next < index) {
      line++
      next = text.indexOf('\n', next + 1)
    }
    return line
  }
}

/**
 * The source with its comments and the insides of its strings replaced by spaces (newlines kept, so line
 * numbers stay; the quotes kept). Strings are read with their escapes, so `"http://x"` is not a comment, and
 * tests wrapped in a string (`` `it(…)` ``, a docstring) are not counted as code.
 */
export function blankComments(source: string, rules: LanguageRules): string {
  const parts: string[] = []
  const line = rules.lineComment
  let kept = 0
  let i = 0
  const blank = (from: number, to: number) => {
    parts.push(source.slice(kept, from), source.slice(from, to).replace(/[^\n]/g, ' '))
    kept = to
  }
  while (i < source.length) {
    const c = source[i]!
    const triple = rules.tripleQuotes && rules.quotes.includes(c) ? c.repeat(3) : null
    if (triple && source.startsWith(triple, i)) {
      const end = source.indexOf(triple, i + 3)
      const to = end === -1 ? source.length : end
      blank(i + 3, to)
      i = to + 3
    } else if (rules.quotes.includes(c)) {
      let j = i + 1
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\') j++
        // An unclosed quote ends at the line's end (a stray apostrophe must not hide the rest of the file),
        // except in a template literal or Go raw string, which span lines.
        else if (source[j] === '\n' && c !== '`') break
        j++
      }
      const to = Math.min(j, source.length)
      if (to > i + 1) blank(i + 1, to)
      i = j + 1
    } else if (source.startsWith(line, i)) {
      const end = source.indexOf('\n', i)
      const to = end === -1 ? source.length : end
      blank(i, to)
      i = to
    } else if (rules.blockComment && source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2)
      const to = end === -1 ? source.length : end + 2
      blank(i, to)
      i = to
    } else i++
  }
  parts.push(source.slice(kept))
  return parts.join('')
}
