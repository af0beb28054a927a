// Test-runner and coverage configs (policy.tests.configs): what part of a file configures the tests, and
// which coverage thresholds a change lowered. Lexical, like the test counts: a file that also configures
// other things (package.json, pyproject.toml, pom.xml, …) is judged only on its test settings, so adding a
// dependency is no violation.
import { basename } from 'node:path'

/** Keys of a package.json that configure test runners or coverage. */
const PACKAGE_KEYS = ['jest', 'c8', 'nyc', 'ava', 'mocha', 'vitest', 'jasmine']
/** Sections of a TOML/INI file that configure pytest, coverage.py or a tox test environment. */
const SECTION = /^(?:tool\.pytest|tool\.coverage|tool:pytest|pytest|coverage(?::|\b)|testenv)/i
/** Lines of a Maven or Gradle build that configure tests or coverage. */
const BUILD_LINE = /test|jacoco|surefire|failsafe|coverage|minimum|ignoreFailures/i
/** Lines of a vite config (vitest reads its `test` block) that configure tests or coverage. */
const VITE_LINE = /test|coverage|threshold|exclude|include|lines|branches|functions|statements/i

/** The text of `path` that configures tests ('' when none). */
export function testSettings(path: string, text: string): string {
  const name = basename(path)
  if (name === 'package.json') return packageSettings(text)
  if (name === 'pyproject.toml' || name === 'setup.cfg' || name === 'tox.ini') return sectionSettings(text)
  if (name === 'pom.xml' || name.startsWith('build.gradle')) return linesMatching(text, BUILD_LINE)
  if (name.startsWith('vite.config.')) return linesMatching(text, VITE_LINE)
  return text
}

function linesMatching(text: string, pattern: RegExp): string {
  return text
    .split('\n')
    .filter((l) => pattern.test(l))
    .join('\n')
}

function packageSettings(text: string): string {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return text
  }
  if (!json || typeof json !== 'object') return text
  const pkg = json as Record<string, unknown>
  const picked: Record<string, unknown> = {}
  for (const key of PACKAGE_KEYS) if (key in pkg) picked[key] = pkg[key]
  const scripts = pkg.scripts
  if (scripts && typeof scripts === 'object') {
    for (const [name, command] of Object.entries(scripts as Record<string, unknown>))
      if (/test|cov/i.test(name)) picked[`scripts.${name}`] = command
  }
  return Object.keys(picked).length ? JSON.stringify(picked, null, 1) : ''
}

function sectionSettings(text: string): string {
  const kept: string[] = []
  let keep = false
  for (const line of text.split('\n')) {
    const header = /^\s*\[+\s*([^\]]+?)\s*\]+\s*$/.exec(line)
    if (header) keep = SECTION.test(header[1]!)
    if (keep) kept.push(line)
  }
  return kept.join('\n')
}

/** A key names a coverage threshold. */
const THRESHOLD_KEY =
  /fail[_-]?under|threshold|branches|functions|lines|statements|minimum|coveredratio|target/i

/** Every threshold in `text`: key (lowercase, without quotes or dashes) → its values. */
export function thresholds(text: string): Map<string, number[]> {
  const found = new Map<string, number[]>()
  const add = (key: string, value: string) => {
    const k = key.replace(/^-+/, '').toLowerCase()
    if (!THRESHOLD_KEY.test(k)) return
    const list = found.get(k) ?? []
    list.push(Number(value))
    found.set(k, list)
  }
  // `lines: 90`, `"lines": 90`, `fail_under = 80`, `--cov-fail-under=80`, `target: 80%`
  for (const m of text.matchAll(/(?<![\w.-])([A-Za-z_-][\w.-]*)["']?\s*[:=]\s*["']?(\d+(?:\.\d+)?)/g))
    add(m[1]!, m[2]!)
  // `--cov-fail-under 80`, `--lines 90`
  for (const m of text.matchAll(/(?<![\w-])(--[\w-]+)[ \t]+["']?(\d+(?:\.\d+)?)\b/g)) add(m[1]!, m[2]!)
  // <minimum>0.80</minimum>
  for (const m of text.matchAll(/<(\w+)>\s*(\d+(?:\.\d+)?)\s*<\//g)) add(m[1]!, m[2]!)
  return found
}

/** "lines 90 → 80" for each threshold the change lowered or removed. */
export function loweredThresholds(before: string, after: string): string[] {
  const was = thresholds(before)
  const now = thresholds(after)
  const lowered: string[] = []
  for (const [key, values] of was) {
    const b = [...values].sort((x, y) => x - y)
    const a = [...(now.get(key) ?? [])].sort((x, y) => x - y)
    for (let i = 0; i < b.length; i++) {
      if (i >= a.length) lowered.push(`${key} ${b[i]} → removed`)
      else if (a[i]! < b[i]!) lowered.push(`${key} ${b[i]} → ${a[i]}`)
      else continue
      break
    }
  }
  return lowered
}

/** Lines of `a` not in `b` (as a multiset, trimmed, blank lines left out). */
export function linesOnlyIn(a: string, b: string): string[] {
  const count = new Map<string, number>()
  for (const line of b.split('\n')) {
    const t = line.trim()
    if (t) count.set(t, (count.get(t) ?? 0) + 1)
  }
  const only: string[] = []
  for (const line of a.split('\n')) {
    const t = line.trim()
    if (!t) continue
    const n = count.get(t) ?? 0
    if (n > 0) count.set(t, n - 1)
    else only.push(t)
  }
  return only
}
