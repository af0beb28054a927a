// The lines of a failed hook's output that say what failed. A plain `npm test` hook's output starts with
// npm's banner ("> shop@1.0.0 test") and ends with a summary; the failing assertion is in between. The
// reason sent to the agent, the check run's title and the PR comment lead with these lines, so a reviewer
// reads the failure first. Recognised: node:test (its spec reporter, and TAP `not ok`), vitest
// and jest, pytest, go test and cargo test; package-manager banners (npm, pnpm, yarn, bun) are dropped.

import type { FailureLocation } from '../report/model.js'

export interface FailureSummary {
  /** The failure lines in output order, each at most MAX_LINE_CHARS; empty when no runner was recognised. */
  lines: string[]
  /** Files and lines the failures name, relative to the hook's working directory. */
  locations: FailureLocation[]
}

const MAX_LINES = 12
const MAX_LINE_CHARS = 300
/** Detail lines taken after a failure's heading (an assertion's message, expected/received). */
const MAX_DETAIL = 3

/** Lines a package manager prints around a script: never what failed. */
const BANNER = [
  /^> \S+@\S* \S+$/, // npm: "> shop@1.0.0 test"
  /^npm (?:ERR!|error|warn|notice)\b/,
  /^\s*ELIFECYCLE\b|^\s*ERR_PNPM_\w+/,
  /^(?:yarn run v\d|info Visit https:\/\/yarnpkg\.com|error Command failed with exit code \d+\.?$|Done in [\d.]+s\.?$)/,
  /^error: script "[^"]+" exited with code \d+/, // bun
]

export function isBannerLine(line: string, previous: string | undefined): boolean {
  if (BANNER.some((re) => re.test(line))) return true
  // npm's second banner line ("> vitest run") follows the first; yarn and bun echo "$ vitest run".
  if (previous !== undefined && /^> \S+@\S* \S+$/.test(previous) && /^> /.test(line)) return true
  return (
    /^\$ \S/.test(line) && (previous === undefined || previous.trim() === '' || /^yarn run v/.test(previous))
  )
}

/** Drops package-manager banner lines (and the blank lines they leave at the start). */
export function withoutBanners(text: string): string {
  const lines = text.split('\n')
  const kept = lines.filter(
    (line, i) => !isBannerLine(line.trimEnd(), i > 0 ? lines[i - 1]!.trimEnd() : undefined),
  )
  return kept.join('\n').replace(/^\s*\n/, '')
}

interface Recognizer {
  /** A line that heads a failure. */
  head: RegExp
  /** Whether the line after a block's last one still belongs to it (default: none does). */
  continues?: (line: string) => boolean
  /** The lines of a block worth showing after its heading (default: its non-blank lines, trimmed). */
  details?: (block: readonly string[]) => string[]
  /** A summary line that says the whole failure: listed before the others. */
  summary?: true
  /** The heading as shown (default: the line, trimmed). */
  render?: (line: string) => string
}

const indented = (line: string) => line === '' || /^\s/.test(line)

const RECOGNIZERS: Recognizer[] = [
  // TAP / node:test: "not ok 2 - name", then an indented YAML block whose error/expected/actual say why.
  { head: /^\s*not ok \d+\b(?!.*# (?:SKIP|TODO))/i, continues: indented, details: tapDetails },
  // node:test's spec reporter (Node 23+ on any stream): "✖ name (0.7ms)", listed again under "✖ failing
  // tests:" with the error indented below it.
  {
    head: /^\s*✖ (?!failing tests:$).+$/,
    continues: (line) => /^\s+\S/.test(line) && !/^\s+at /.test(line),
    render: (line) => line.trim().replace(/ \([\d.]+m?s\)$/, ''),
  },
  // vitest: "FAIL  cart.test.js > suite > name"; jest: "● suite › name" and its message, up to the code frame.
  { head: /^\s*FAIL\s+\S.*\s>\s.+$/ },
  {
    head: /^\s*● (?!Console\b).+$/,
    continues: (line) => indented(line) && !/^\s*>?\s*\d+ \|/.test(line) && !/^\s*● /.test(line),
  },
  // AssertionError lines (vitest, node:assert, chai) and jest's matcher line.
  { head: /^\s*(?:AssertionError\b|expect\(received\)).*$/ },
  // pytest: the short summary's "FAILED path::test - why", and the "E   " lines of each failure.
  { head: /^FAILED \S+::\S+.*$/, summary: true },
  { head: /^E {2,}\S.*$/ },
  // go test: "--- FAIL: TestX (0.00s)" and its indented "x_test.go:12: message" lines.
  { head: /^\s*--- FAIL: \S+.*$/, continues: (line) => /^\s{4,}\S/.test(line) },
  // cargo test: "thread 'tests::x' panicked at src/lib.rs:7:34:" then the message.
  {
    head: /^thread '[^']+'(?: \(\d+\))? panicked at .+$/,
    continues: (line) => line.trim() !== '' && !/^(?:stack backtrace:|note: )/.test(line),
  },
]

/** node:test's YAML: the `error:` text (inline or a block scalar), then expected and actual. */
function tapDetails(block: readonly string[]): string[] {
  const out: string[] = []
  const field = (name: string) => block.find((line) => new RegExp(`^\\s+${name}: `).test(line))
  const error = block.findIndex((line) => /^\s+error: /.test(line))
  if (error >= 0) {
    const value = block[error]!.replace(/^\s+error: /, '').trim()
    if (/^[|>][-+]?$/.test(value)) {
      const depth = block[error]!.search(/\S/)
      for (const line of block.slice(error + 1)) {
        if (line.trim() !== '' && line.search(/\S/) <= depth) break
        if (line.trim() !== '') out.push(line.trim())
      }
    } else out.push(unquote(value))
  }
  const expected = field('expected')
  const actual = field('actual')
  if (expected && actual) out.push(`${expected.trim()}, ${actual.trim()}`)
  return out
}

function unquote(value: string): string {
  return /^'.*'$/.test(value) ? value.slice(1, -1).replace(/''/g, "'") : value
}

export function summarizeFailure(output: string, cwd?: string): FailureSummary {
  const lines = output.split('\n').map((line) => line.replace(/\r$/, '').trimEnd())
  const summaries: string[] = []
  const others: string[] = []
  const seen = new Set<string>()
  const locations: FailureLocation[] = []
  const take = (text: string, into: string[]) => {
    const line = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text
    if (seen.has(line)) return
    seen.add(line)
    into.push(line)
  }
  for (let i = 0; i < lines.length && seen.size < MAX_LINES * 2; i++) {
    const line = lines[i]!
    const recognizer = RECOGNIZERS.find((r) => r.head.test(line))
    if (!recognizer) continue
    const heading = recognizer.render ? recognizer.render(line) : line.trim()
    const block = [line]
    while (recognizer.continues && i + 1 < lines.length && recognizer.continues(lines[i + 1]!)) {
      block.push(lines[++i]!)
    }
    const into = recognizer.summary ? summaries : others
    take(heading, into)
    const details = recognizer.details
      ? recognizer.details(block)
      : block
          .slice(1)
          .map((l) => l.trim())
          .filter(Boolean)
    for (const detail of details.slice(0, MAX_DETAIL)) take(`  ${detail}`, into)
    const where = locationIn(block, lines, i, cwd)
    if (where) locations.push({ ...where, message: heading })
  }
  return { lines: [...summaries, ...others].slice(0, MAX_LINES), locations: dedupeLocations(locations) }
}

/** Where a line names a file and line: "x.test.js:3:51", "(cart.test.js:2:51)", "test_cart.py:4:". */
const LOCATION =
  /(?:^|[\s('"❯])((?:\.{0,2}\/)?[\w@.+-][\w@.+/-]*\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|scala|c|cc|cpp|h|hpp)):(\d+)(?::\d+)?/

/** The first file:line in a failure's block, or in the few lines after it (vitest's "❯ file:line"). */
function locationIn(
  block: readonly string[],
  lines: readonly string[],
  end: number,
  cwd: string | undefined,
): Omit<FailureLocation, 'message'> | null {
  const window = [...block, ...lines.slice(end + 1, end + 12)]
  for (const line of window) {
    const match = LOCATION.exec(line)
    if (!match) continue
    const file = relative(match[1]!, cwd)
    if (file === null || file.startsWith('node:') || file.includes('node_modules/')) continue
    return { file, line: Number(match[2]) }
  }
  return null
}

function relative(file: string, cwd: string | undefined): string | null {
  let path = file.replace(/^\.\//, '')
  if (path.startsWith('/')) {
    if (!cwd || !path.startsWith(`${cwd.replace(/\/+$/, '')}/`)) return null
    path = path.slice(cwd.replace(/\/+$/, '').length + 1)
  }
  return path.startsWith('../') ? null : path
}

function dedupeLocations(locations: FailureLocation[]): FailureLocation[] {
  const seen = new Set<string>()
  return locations.filter((l) => {
    const key = `${l.file}:${l.line}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
