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
  return {
    tests: countMatches(code, rules.tests),
    assertions: countMatches(code, rules.assertions),
    skips: [...skipLines].map(([line, text]) => ({ line, text })),
    marked: rules.marker ? rules.marker.test(code) : true,
  }
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
