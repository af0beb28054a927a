// tests_weakened end to end: the built CLI supervising a scripted agent that weakens a real repository's
// tests, per language. What must hold: each weakening is an error violation naming the file and what
// weakened (count before → after, the skip line); the agent is sent back with it and, once it puts the
// tests back, the gate passes; unfixed, the session ends blocked; the PR comment shows the lines; edits that
// weaken nothing are not flagged.
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport, Violation } from '../../src/report/model.js'
import { javascript, others, python, type Scenario } from '../fixtures/tests-weakened.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')
const agent = join(root, 'test/fixtures/agents/weaken-tests.mjs')

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function proctor(r: TempRepo, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID' || key === 'CI') delete env[key]
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env: { ...env, NO_COLOR: '1', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })))
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = join(r.dir, '.proctor/sessions')
  const ids = readdirSync(sessions)
  expect(ids).toHaveLength(1)
  return JSON.parse(readFileSync(join(sessions, ids[0]!, 'report.json'), 'utf8')) as SessionReport
}

/** A session of the scripted agent applying `scenario.edits` to a repository holding `scenario.base`. */
async function session(
  scenario: Scenario,
  options: { fix?: boolean; rounds?: number; more?: Record<string, string> } = {},
): Promise<{ r: TempRepo; run: Run; report: SessionReport; told: string }> {
  const r = makeTempRepo({ files: scenario.base })
  cleanups.push(() => r.cleanup())
  const log = join(r.dir, '..', `${r.dir.split('/').pop()}-reasons.log`)
  cleanups.push(() => rmSync(log, { force: true }))
  r.write(
    'proctor.yml',
    `agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
  continue: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}, --continue, "{reason}"]
  pty: false
timeouts: { total: 2m, idle: 1m, grace: 2s }
checkpoints: { push: never, interval: 1h }
max_stop_rounds: ${options.rounds ?? 1}
`,
  )
  r.commitAll('config')
  const run = await proctor(r, ['run'], {
    WEAKEN_EDITS: JSON.stringify(scenario.edits),
    WEAKEN_LOG: log,
    ...(options.fix ? { WEAKEN_FIX: '1' } : {}),
    ...(options.more ? { WEAKEN_MORE: JSON.stringify(options.more) } : {}),
  })
  let told = ''
  try {
    told = readFileSync(log, 'utf8')
  } catch {
    // never sent back
  }
  return { r, run, report: onlyReport(r), told }
}

function weakened(report: SessionReport): Violation[] {
  return report.violations.filter((v) => v.constraint === 'tests_weakened')
}

/** Every flagged file is flagged with what its scenario says, and nothing else is. */
function expectFlagged(report: SessionReport, scenario: Scenario): void {
  const found = weakened(report)
  expect(found.map((v) => v.file).sort()).toEqual(Object.keys(scenario.flagged).sort())
  for (const [file, says] of Object.entries(scenario.flagged)) {
    const v = found.find((w) => w.file === file)!
    expect(v.severity).toBe('error')
    for (const text of says) expect(v.message).toContain(text)
  }
}

describe('tests_weakened in a session', () => {
  it('JS/TS: every weakening is flagged and sent back; the agent puts the tests back and the gate passes', async () => {
    const { r, run, report, told } = await session(javascript, { fix: true, rounds: 2 })
    expect(run.code, run.stderr).toBe(0)
    expect(report).toMatchObject({ status: 'completed', verdict: 'allow', rounds: 2 })
    expect(report.stop_hooks.map((h) => [h.name, h.round, h.verdict])).toEqual([
      ['policy', 1, 'block'],
      ['policy', 2, 'allow'],
    ])
    expectFlagged(report, javascript)
    expect(weakened(report).every((v) => v.resolved === true)).toBe(true)
    // The agent heard each one: the file, what weakened, and the skip line.
    expect(told).toContain(
      'policy: error tests_weakened: test/fewer.test.ts weakens its tests: test cases 2 → 1',
    )
    expect(told).toContain("a skip was added (line 5: `it.skip('adds', () => {`)")
    expect(told).toContain(
      'vitest.config.ts (a test-runner or coverage config) had its test settings changed',
    )
    expect(r.read('test/skip.test.ts')).toBe(javascript.base['test/skip.test.ts'])
    // What weakened nothing stays.
    expect(r.read('test/new.test.ts')).toBe(javascript.edits['test/new.test.ts'])
  })

  it('Python: left unfixed, the session ends blocked, and the PR comment shows each file with its lines', async () => {
    const { r, run, report, told } = await session(python, { rounds: 2 })
    expect(run.code, run.stderr).toBe(1)
    expect(report).toMatchObject({ verdict: 'block', exit_code: 1 })
    expectFlagged(report, python)
    expect(weakened(report).some((v) => v.resolved)).toBe(false)
    expect(told).toContain('tests_weakened: tests/test_skip.py weakens its tests: a skip was added')
    expect(told).toContain('fail_under 90 → 70')
    // The preview of the PR comment (exit 1: the report it renders is blocked).
    const comment = await proctor(r, ['report', 'latest', '--markdown'])
    expect(comment.code, comment.stderr).toBe(1)
    // The violations table names the constraint (markdown-escaped there), once.
    expect(comment.stdout).toContain('tests\\_weakened')
    // The markdown escapes the quoted line (a mention is broken with a zero-width space), but shows it.
    expect(comment.stdout).toContain('tests/test\\_skip.py weakens its tests: a skip was added (line 7:')
    expect(comment.stdout).toContain('pytest.mark.skip(reason=')
    expect(comment.stdout).toContain('assertions 4 → 3')
  })

  it('Go, Rust and Java: t.Skip, a deleted _test.go, #[ignore], @Disabled, a removed @Test and a lowered jacoco minimum', async () => {
    const { run, report } = await session(others)
    expect(run.code, run.stderr).toBe(1)
    expectFlagged(report, others)
  })

  it('an agent sent back that weakens further: the report shows the latest count, not the first', async () => {
    const fewer = python.base['tests/test_fewer.py']!
    const scenario: Scenario = {
      base: { 'tests/test_fewer.py': fewer },
      edits: { 'tests/test_fewer.py': fewer.replace(/def test_negative\(\):\n.*\n/, '') },
      flagged: {},
    }
    const { run, report } = await session(scenario, {
      rounds: 2,
      more: {
        'tests/test_fewer.py': fewer
          .replace(/def test_negative\(\):\n.*\n/, '')
          .replace(/def test_adds\(\):\n.*\n.*\n/, ''),
      },
    })
    expect(run.code, run.stderr).toBe(1)
    expect(report.checkpoints.length).toBeGreaterThanOrEqual(2)
    expect(weakened(report)).toMatchObject([
      { file: 'tests/test_fewer.py', message: expect.stringContaining('test cases 3 → 1; assertions 4 → 1') },
    ])
  })
})
