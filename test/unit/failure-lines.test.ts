// A failed hook's reason names the failure: the runner's failure lines come first (the check's title and the
// comment show the first line), package-manager banners never do. Outputs are real runs' (see the fixtures'
// README).
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { summarizeFailure, withoutBanners } from '../../src/hooks/failure-lines.js'
import { interpretStopHook } from '../../src/hooks/verdict.js'
import { hookAnnotations, hookCheckOutput } from '../../src/report/check-run.js'
import { createSanitizer, stripControl } from '../../src/util/sanitize.js'

const fixture = (name: string) =>
  stripControl(readFileSync(join(import.meta.dirname, '../fixtures/hook-output', name), 'utf8'))

function reasonOf(name: string, command = 'npm test') {
  return interpretStopHook({
    exitCode: 1,
    signal: null,
    timedOut: false,
    stdout: fixture(name),
    stderr: '',
    name: 'tests',
    command,
    cwd: '/work/shop',
  })
}

describe("a failed hook's reason leads with what failed", () => {
  it.each([
    [
      'node-test.txt',
      'npm test',
      'not ok 2 - no discount under $100',
      'expected 40, got 36',
      'discount.test.js',
      3,
    ],
    [
      'vitest.txt',
      'npm test',
      'FAIL  cart.test.js > no discount under $100',
      'expected 36 to be 40',
      'cart.test.js',
      3,
    ],
    ['jest.txt', 'npm test', '● no discount under $100', 'Received: 36', 'cart.test.js', 2],
    [
      'pytest.txt',
      'pytest',
      'FAILED test_cart.py::test_no_discount_under_100 - assert 45.0 == 50',
      'where 45.0 = total(50)',
      'test_cart.py',
      4,
    ],
    [
      'go-test.txt',
      'go test ./...',
      '--- FAIL: TestNoDiscountUnder100 (0.00s)',
      'total(50) = 45, want 50',
      'cart_test.go',
      14,
    ],
    [
      'cargo-test.txt',
      'cargo test',
      "thread 'tests::no_discount_under_100' (28309) panicked at src/main.rs:7:34:",
      'expected 40, got 36',
      'src/main.rs',
      7,
    ],
  ] as const)('%s', (name, command, first, detail, file, line) => {
    const verdict = interpretStopHook({
      exitCode: 1,
      signal: null,
      timedOut: false,
      stdout: fixture(name),
      stderr: '',
      name: 'tests',
      command,
      cwd: '/work/shop',
    })
    expect(verdict.verdict).toBe('fail')
    const lines = verdict.reason!.split('\n')
    expect(lines[0]).toBe(`tests (${command}) exited 1: ${first}`)
    // The detail that says why is among the first lines, before the output's tail.
    const head = verdict.reason!.split('\n\nEnd of its output:')[0]!
    expect(head).toContain(detail)
    expect(verdict.locations?.[0]).toMatchObject({ file, line })
  })

  it("npm's banner is never the reason, and the check's title names the failing test", () => {
    const verdict = reasonOf('node-test.txt')
    expect(verdict.reason).not.toMatch(/> shop@1\.0\.0 test/)
    const output = hookCheckOutput(
      { name: 'tests', verdict: 'block', reason: verdict.reason, exit_code: 1, duration_ms: 900, round: 1 },
      'failure',
      createSanitizer({ secrets: [] }),
    )
    expect(output.title).toBe('blocked: tests (npm test) exited 1: not ok 2 - no discount under $100')
  })

  it("annotates the failing test's file and line on the hook's check run", () => {
    const verdict = reasonOf('jest.txt')
    const annotations = hookAnnotations(
      {
        name: 'tests',
        verdict: 'block',
        reason: verdict.reason,
        exit_code: 1,
        duration_ms: 900,
        round: 1,
        locations: verdict.locations!,
      },
      createSanitizer({ secrets: [] }),
    )
    expect(annotations).toEqual([
      expect.objectContaining({
        path: 'cart.test.js',
        start_line: 2,
        annotation_level: 'failure',
        message: '● no discount under $100',
      }),
    ])
  })

  it('an output no runner is recognised in keeps the tail, banners dropped', () => {
    const verdict = interpretStopHook({
      exitCode: 1,
      signal: null,
      timedOut: false,
      stdout: '\n> shop@1.0.0 lint\n> eslint .\n\nsrc/a.js\n  1:1  error  no-undef\n',
      stderr: 'npm error Lifecycle script `lint` failed with error:\nnpm error code 1\n',
      name: 'lint',
      command: 'npm run lint',
    })
    expect(verdict.reason).toBe('lint (npm run lint) exited 1: src/a.js\n  1:1  error  no-undef')
    expect(verdict.locations).toBeUndefined()
  })

  it('drops pnpm, yarn and bun banners too', () => {
    const text = [
      'yarn run v1.22.22',
      '$ vitest run',
      'real line',
      'error Command failed with exit code 1.',
      'info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.',
      ' ELIFECYCLE  Test failed. See above for more details.',
      'error: script "test" exited with code 1',
    ].join('\n')
    expect(withoutBanners(text)).toBe('real line')
  })

  it('ignores absolute paths outside the repository and runner internals', () => {
    const summary = summarizeFailure(
      "not ok 1 - x\n  ---\n  location: '/elsewhere/a.test.js:3:1'\n  stack: |-\n    (node:internal/x:1:1)\n  ...\n",
      '/work/shop',
    )
    expect(summary.lines[0]).toBe('not ok 1 - x')
    expect(summary.locations).toEqual([])
  })
})
