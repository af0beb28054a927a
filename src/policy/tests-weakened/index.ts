// The tests_weakened constraint: a diff that deletes test files, leaves a test file with fewer test cases or
// assertions, adds skips, or changes the test settings of a test-runner or coverage config (naming a lowered
// threshold). It reads the blobs of both sides of each test file the diff touches (one `cat-file --batch`
// per diff), so unlike the path constraints it needs git: callers add it to evaluatePolicy's violations.
import type { Git } from '../../git/runner.js'
import type { Violation } from '../../report/model.js'
import { TEST_LANGUAGES, type TestLanguage } from '../../config/test-files.js'
import { compileAreas, type AreaMatcher } from '../areas.js'
import { compilePolicy } from '../compile.js'
import { displayPath, shellQuote } from '../evaluate.js'
import { MODE_SYMLINK, type ChangedFile, type PolicyConfig } from '../types.js'
import { countTests, type TestCounts } from './languages.js'
import { linesOnlyIn, loweredThresholds, testSettings } from './configs.js'

type Kind = TestLanguage | 'configs'

/** Blobs larger than this are no test file a person wrote (generated fixtures, snapshots): not read. */
const MAX_BLOB = 2 * 1024 * 1024
/** How much of a quoted line a message shows. */
const MAX_QUOTE = 120

const matchers = new WeakMap<PolicyConfig, { kind: Kind; areas: AreaMatcher }[]>()

/**
 * `policy.tests` compiled (throws PolicyConfigError naming the glob that is unusable). Configs first:
 * conftest.py is a Python file and, first of all, the runner's config.
 */
export function testFileMatchers(policy: PolicyConfig): { kind: Kind; areas: AreaMatcher }[] {
  let compiled = matchers.get(policy)
  if (!compiled) {
    compiled = (['configs', ...TEST_LANGUAGES] as const).map((kind) => ({
      kind,
      areas: compileAreas(`tests.${kind}`, policy.tests[kind]),
    }))
    matchers.set(policy, compiled)
  }
  return compiled
}

function kindOf(path: string, policy: PolicyConfig): Kind | null {
  for (const { kind, areas } of testFileMatchers(policy)) if (!areas.empty && areas.match(path)) return kind
  return null
}

/** Counts of blobs already read, by language and blob: a test file the session changed is judged at every checkpoint. */
const counted = new Map<string, TestCounts>()
const MAX_COUNTED = 5000

/** Every tests_weakened violation of the diff, one per file, in the order of the files. */
export async function testsWeakened(
  git: Git,
  files: readonly ChangedFile[],
  checkpoint: number | null,
  policy: PolicyConfig,
): Promise<Violation[]> {
  const judged: { file: ChangedFile; before: Kind | null; after: Kind | null }[] = []
  for (const file of files) {
    const readable = (mode: string | null) => mode !== null && mode !== MODE_SYMLINK && mode !== '160000'
    const before = file.oldBlob && readable(file.oldMode) ? kindOf(file.oldPath ?? file.path, policy) : null
    // A test file turned into a symlink, a binary or a 2 MiB file can no longer be counted: it is judged
    // like one whose tests are gone.
    const after =
      file.newBlob && readable(file.newMode) && (file.size ?? 0) <= MAX_BLOB
        ? kindOf(file.path, policy)
        : null
    if (before !== null || (after === 'configs' && file.status !== 'D')) judged.push({ file, before, after })
  }
  if (judged.length === 0) return []
  const wanted = new Set<string>()
  for (const { file, before, after } of judged) {
    if (before !== null && !counted.has(`${before}\0${file.oldBlob}`)) wanted.add(file.oldBlob!)
    if (after !== null && !counted.has(`${after}\0${file.newBlob}`)) wanted.add(file.newBlob!)
  }
  const ids = [...wanted]
  const read = await git.readBlobs(ids)
  const blobs = new Map(ids.map((id, i) => [id, read[i]] as const))
  const text = (sha: string | undefined): string | null => {
    const blob = sha === undefined ? undefined : blobs.get(sha)
    if (!blob || blob.length > MAX_BLOB || blob.subarray(0, 8000).includes(0)) return null
    return blob.toString('utf8')
  }
  const countsOf = (language: TestLanguage, sha: string | undefined): TestCounts | null => {
    if (sha === undefined) return null
    const key = `${language}\0${sha}`
    let counts = counted.get(key)
    if (!counts) {
      const source = text(sha)
      if (source === null) return null
      counts = countTests(language, source)
      if (counted.size >= MAX_COUNTED) counted.delete(counted.keys().next().value!)
      counted.set(key, counts)
    }
    return counts
  }

  const severity = compilePolicy(policy).severityOf('tests_weakened')
  const violations: Violation[] = []
  for (const { file, before, after } of judged) {
    const found =
      before === 'configs' || after === 'configs'
        ? configFinding(
            file,
            before === 'configs' ? text(file.oldBlob) : null,
            after === 'configs' ? text(file.newBlob) : null,
          )
        : testFinding(
            file,
            countsOf(before as TestLanguage, file.oldBlob),
            before === after ? countsOf(after as TestLanguage, file.newBlob) : null,
          )
    if (found)
      violations.push({ checkpoint, file: file.path, constraint: 'tests_weakened', severity, ...found })
  }
  return violations
}

type Finding = Pick<Violation, 'message' | 'suggestion' | 'line'>

function testFinding(file: ChangedFile, was: TestCounts | null, now: TestCounts | null): Finding | null {
  if (!was?.marked && !now?.marked) return null
  const shown = displayPath(file.path)
  if (!was || (was.tests === 0 && was.assertions === 0 && was.skips.length === 0 && !now)) return null
  if (!now) {
    const gone =
      file.status === 'D'
        ? `${shown} was deleted`
        : file.status === 'R'
          ? `${displayPath(file.oldPath ?? file.path)} was renamed to ${shown}, which policy.tests does not count as a test file of its language`
          : `${shown} can no longer be read as a test file (it became a symlink, a binary or a file over 2 MiB)`
    return {
      message: `${gone}: a test file with ${plural(was.tests, 'test case')} and ${plural(was.assertions, 'assertion')} is gone`,
      suggestion: `Restore ${displayPath(file.oldPath ?? file.path)} (git checkout HEAD -- ${shellQuote(file.oldPath ?? file.path)}, or from the session's baseline) and make the code pass its tests instead of removing them.`,
    }
  }
  const parts: string[] = []
  if (now.tests < was.tests) parts.push(`test cases ${was.tests} → ${now.tests}`)
  if (now.assertions < was.assertions) parts.push(`assertions ${was.assertions} → ${now.assertions}`)
  const added = addedSkips(was.skips, now.skips)
  if (added.length) {
    const lines = added
      .slice(0, 3)
      .map((s) => `line ${s.line}: ${quoteLine(s.text)}`)
      .join(', ')
    parts.push(
      `${added.length === 1 ? 'a skip was' : `${added.length} skips were`} added (${lines}${added.length > 3 ? ', …' : ''})`,
    )
  }
  const rebound = addedSkips(was.rebinds, now.rebinds)
  if (rebound.length) {
    const lines = rebound
      .slice(0, 3)
      .map((s) => `line ${s.line}: ${quoteLine(s.text)}`)
      .join(', ')
    parts.push(
      `the test framework's names are rebound, so the tests and assertions in place no longer run as written (${lines}${rebound.length > 3 ? ', …' : ''})`,
    )
  }
  if (parts.length === 0) return null
  const removed = now.tests < was.tests || now.assertions < was.assertions
  const first = [added[0], rebound[0]].filter((s) => s !== undefined).sort((a, b) => a.line - b.line)[0]
  return {
    message: `${shown} weakens its tests: ${parts.join('; ')}`,
    suggestion: `${[
      removed ? 'put back the removed tests and assertions' : '',
      added.length ? 'remove the skip' : '',
      rebound.length
        ? "remove what rebinds the framework's names (use them as the framework exports them)"
        : '',
    ]
      .filter(Boolean)
      .join(' and ')
      .replace(/^./, (c) =>
        c.toUpperCase(),
      )} in ${shown} (git diff shows what changed) and fix the code under test instead; the tests are the user's measure of the work.`,
    ...(first ? { line: first.line } : {}),
  }
}

function configFinding(file: ChangedFile, before: string | null, after: string | null): Finding | null {
  const oldPath = file.oldPath ?? file.path
  const was = before === null ? '' : testSettings(oldPath, before)
  const now = after === null ? '' : testSettings(file.path, after)
  if (was.replace(/\s+/g, ' ').trim() === now.replace(/\s+/g, ' ').trim()) return null
  const shown = displayPath(file.path)
  const how =
    file.status === 'D' || after === null
      ? 'was deleted'
      : before === null
        ? 'was added'
        : 'had its test settings changed'
  const lowered = loweredThresholds(was, now)
  const removedLines = linesOnlyIn(was, now)
  const addedLines = linesOnlyIn(now, was)
  const sample = [
    ...removedLines.slice(0, 2).map((l) => `- ${quoteLine(l)}`),
    ...addedLines.slice(0, 2).map((l) => `+ ${quoteLine(l)}`),
  ]
  const firstAdded = addedLines[0]
  const at = firstAdded && after !== null ? after.split('\n').findIndex((l) => l.trim() === firstAdded) : -1
  return {
    message: `${shown} (a test-runner or coverage config) ${how}${lowered.length ? `; coverage threshold lowered: ${lowered.join(', ')}` : ''}${sample.length ? ` (${sample.join(', ')})` : ''}`,
    suggestion: `Undo the change to ${shown}'s test settings (git checkout HEAD -- ${shellQuote(oldPath)} restores the file); how the tests run and how much they must cover is the user's to decide, and the code must meet it as it is.`,
    ...(at >= 0 ? { line: at + 1 } : {}),
  }
}

/**
 * Skip (or rebinding) lines of `now` that `was` did not hold, as a multiset of their text: a moved one is no
 * new one.
 */
function addedSkips(was: TestCounts['skips'], now: TestCounts['skips']): TestCounts['skips'] {
  const seen = new Map<string, number>()
  for (const s of was) seen.set(s.text, (seen.get(s.text) ?? 0) + 1)
  return now.filter((s) => {
    const n = seen.get(s.text) ?? 0
    if (n > 0) seen.set(s.text, n - 1)
    return n === 0
  })
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** A line of the file as a message shows it: one line, no control characters, capped. */
function quoteLine(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ')
  return `\`${clean.length > MAX_QUOTE ? `${clean.slice(0, MAX_QUOTE)}…` : clean}\``
}
