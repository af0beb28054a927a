// tests_weakened in the judge the publish and verify jobs use (src/action/judge.ts): a handed-off commit is
// judged from git objects only — the checked-out commit against the agent's tip — as the session judges
// its checkpoints. Each scenario commits a repository, applies what an agent did, and judges the two commits.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { judgeDiff } from '../../src/action/judge.js'
import { configSchema } from '../../src/config/schema.js'
import { Git } from '../../src/git/runner.js'
import { failsPolicyCheck } from '../../src/policy/index.js'
import type { Violation } from '../../src/report/model.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { javascript, others, python, type Scenario } from '../fixtures/tests-weakened.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** The violations the publish job's judge finds in what an agent did to a repository. */
async function judged(
  base: Record<string, string>,
  edits: Record<string, string | null>,
  policy: Record<string, unknown> = {},
): Promise<{ violations: Violation[]; repo: TempRepo }> {
  const repo = makeTempRepo({ files: base })
  cleanups.push(() => repo.cleanup())
  const head = repo.git(['rev-parse', 'HEAD']).trim()
  for (const [path, content] of Object.entries(edits)) {
    if (content === null) repo.remove(path)
    else repo.write(path, content)
  }
  const tip = repo.commitAll('the agent')
  const { violations } = await judgeDiff({
    git: new Git({ cwd: repo.dir, env: repo.env }),
    head,
    tip,
    gate: { configFile: null, hooks: [], hookDir: '' },
    config: configSchema.parse({ policy }),
    worktree: repo.dir,
    checkpoint: 3,
  })
  return { violations, repo }
}

function expectFlagged(violations: Violation[], scenario: Scenario): void {
  const weakened = violations.filter((v) => v.constraint === 'tests_weakened')
  expect(weakened.map((v) => v.file).sort()).toEqual(Object.keys(scenario.flagged).sort())
  for (const [file, says] of Object.entries(scenario.flagged)) {
    const v = weakened.find((w) => w.file === file)!
    expect(v.severity).toBe('error')
    expect(v.checkpoint).toBe(3)
    for (const text of says) expect(v.message).toContain(text)
    expect(v.suggestion).not.toBe('')
  }
  expect(failsPolicyCheck(weakened)).toBe(true)
}

describe('tests_weakened in the publish/verify judge', () => {
  it('JS/TS: a deleted test file, fewer tests, fewer assertions, it.skip, xit, a lowered vitest threshold and a changed jest config; not a new test, a renamed assertion or a new dependency', async () => {
    const { violations } = await judged(javascript.base, javascript.edits)
    expectFlagged(violations, javascript)
    const skip = violations.find((v) => v.file === 'test/skip.test.ts')!
    expect(skip.line).toBe(5)
    expect(skip.suggestion).toContain('remove the skip')
  })

  it('Python: a deleted test file, fewer tests, fewer assertions, pytest skip and skipif, unittest.skip, a lowered --cov-fail-under and .coveragerc fail_under; not a renamed assertion or an added test', async () => {
    const { violations } = await judged(python.base, python.edits)
    expectFlagged(violations, python)
  })

  it('Go, Rust, Java: t.Skip, a deleted _test.go, #[ignore], @Disabled, a removed @Test, a lowered jacoco minimum; not a Rust file without tests', async () => {
    const { violations } = await judged(others.base, others.edits)
    expectFlagged(violations, others)
  })

  it('sees through a rename: a test file renamed and cut is judged against its old content', async () => {
    const { violations } = await judged(python.base, {
      'tests/test_skip.py': null,
      'tests/test_renamed.py': python.base['tests/test_skip.py']!.replace(/def test_negative\(\):\n.*\n/, ''),
    })
    expect(violations.filter((v) => v.constraint === 'tests_weakened')).toMatchObject([
      { file: 'tests/test_renamed.py', message: expect.stringContaining('test cases 3 → 2') },
    ])
  })

  it('a test file moved out of the test globs counts as deleted', async () => {
    const { violations } = await judged(python.base, {
      'tests/test_skip.py': null,
      'attic/skip.py': python.base['tests/test_skip.py']!,
    })
    expect(violations.filter((v) => v.constraint === 'tests_weakened')).toMatchObject([
      {
        file: 'attic/skip.py',
        message: expect.stringContaining(
          'tests/test_skip.py was renamed to attic/skip.py, which policy.tests does not count as a test file',
        ),
      },
    ])
  })

  it('a test file replaced by a symlink can no longer be counted, and is flagged', async () => {
    const repo = makeTempRepo({ files: python.base })
    cleanups.push(() => repo.cleanup())
    const head = repo.git(['rev-parse', 'HEAD']).trim()
    repo.remove('tests/test_skip.py')
    symlinkSync('test_ok.py', join(repo.dir, 'tests/test_skip.py'))
    const tip = repo.commitAll('the agent')
    const { violations } = await judgeDiff({
      git: new Git({ cwd: repo.dir, env: repo.env }),
      head,
      tip,
      gate: { configFile: null, hooks: [], hookDir: '' },
      config: configSchema.parse({}),
      worktree: repo.dir,
      checkpoint: null,
    })
    expect(violations).toMatchObject([
      {
        constraint: 'tests_weakened',
        file: 'tests/test_skip.py',
        message: expect.stringContaining('tests/test_skip.py can no longer be read as a test file'),
      },
    ])
  })

  it('follows policy.tests and policy.severities: custom globs, a config list emptied, a severity lowered', async () => {
    const base = {
      'checks/calc.ts': "it('a', () => { expect(1).toBe(1) })\n",
      'vitest.config.ts': 'x = { lines: 90 }\n',
    }
    const edits = { 'checks/calc.ts': "it.todo('a')\n", 'vitest.config.ts': 'x = { lines: 10 }\n' }
    // The default globs do not cover checks/: only the config is flagged.
    expect((await judged(base, edits)).violations.map((v) => v.file)).toEqual(['vitest.config.ts'])
    const { violations } = await judged(base, edits, {
      tests: { javascript: ['checks/**'], configs: [] },
      severities: { tests_weakened: 'warning' },
    })
    expect(violations).toMatchObject([
      {
        file: 'checks/calc.ts',
        severity: 'warning',
        message: expect.stringContaining(
          "test cases 1 → 0; assertions 1 → 0; a skip was added (line 1: `it.todo('a')`)",
        ),
      },
    ])
  })
})
