// What tests_weakened counts in one version of a file (docs/policy.md#tests_weakened), per language, and
// what it reads in test-runner configs. The diff-level behaviour is tested on real repositories
// (test/integration/tests-weakened-judge.test.ts, test/e2e/tests-weakened.test.ts).
import { describe, expect, it } from 'vitest'
import { countTests } from '../../src/policy/tests-weakened/languages.js'
import { loweredThresholds, testSettings } from '../../src/policy/tests-weakened/configs.js'
import { violationAnnotation } from '../../src/report/check-run.js'
import { createSanitizer } from '../../src/util/sanitize.js'

const skipsOf = (language: Parameters<typeof countTests>[0], source: string) =>
  countTests(language, source).skips.map((s) => s.text)

describe('tests_weakened counts, JS/TS', () => {
  it('counts it/test/specify calls, each/concurrent/only included, and expect/assert calls; not regex.test() or a commented-out test', () => {
    const counts = countTests(
      'javascript',
      `const re = /a/
// it('commented out', () => { expect(1).toBe(1) })
/* test('also commented', () => {}) */
describe('x', () => {
  it('a', () => { expect(re.test('http://x')).toBe(true) })
  test.each([[1], [2]])('b %s', (n) => { assert.equal(n > 0, true) })
  test.concurrent('c', async () => { expect.soft(1).toBe(1); assert(true) })
  it.only('d', () => {})
})`,
    )
    expect(counts).toMatchObject({ tests: 4, assertions: 4 })
  })

  it('sees every skip form: .skip, .todo, .only, skipIf, xit, xdescribe, fit, this.skip(), ctx.skip(), { skip: true }', () => {
    expect(
      skipsOf(
        'javascript',
        `it.skip('a', () => {})
test.todo('b')
describe.only('c', () => {})
it.skipIf(process.env.CI)('d', () => {})
xit('e', () => {})
xdescribe('f', () => {})
fit('g', () => {})
it('h', function () { this.skip() })
it('i', (ctx) => { ctx.skip() })
test('j', { skip: true }, () => {})
describe.concurrent.skip('k', () => {})
it('not a skip', () => { skipper.skip; expect(list.only).toBe(1) })`,
      ),
    ).toHaveLength(11)
  })
})

const rebindsOf = (language: Parameters<typeof countTests>[0], source: string) =>
  countTests(language, source).rebinds.map((r) => `${r.line}: ${r.text}`)

describe('tests_weakened sees the framework rebound, JS/TS', () => {
  it('flags a declaration, assignment, global, stub or mock that rebinds it/test/describe/expect/assert', () => {
    expect(
      rebindsOf(
        'javascript',
        `import { expect } from 'vitest'
const it = (..._: unknown[]) => {}
let test
function describe(name, fn) {}
class expect {}
assert = () => true
globalThis.it = () => {}
global['test'] = () => {}
Object.defineProperty(globalThis, 'expect', { value: () => ({ toBe() {} }) })
Object.assign(global, { fetch: stub, test() {} })
vi.stubGlobal('describe', () => {})
vi.mock('vitest', () => ({ it: () => {} }))
jest.mock('@jest/globals')
const { it: real, expect: e, test: t2, ...describe2 } = helpers
const [beforeEach] = hooks
function* fit() {}
it.each = () => () => {}
`,
      ),
    ).toEqual([
      '2: const it = (..._: unknown[]) => {}',
      '3: let test',
      '4: function describe(name, fn) {}',
      '5: class expect {}',
      '6: assert = () => true',
      '7: globalThis.it = () => {}',
      "8: global['test'] = () => {}",
      "9: Object.defineProperty(globalThis, 'expect', { value: () => ({ toBe() {} }) })",
      '10: Object.assign(global, { fetch: stub, test() {} })',
      "11: vi.stubGlobal('describe', () => {})",
      "12: vi.mock('vitest', () => ({ it: () => {} }))",
      "13: jest.mock('@jest/globals')",
      '15: const [beforeEach] = hooks',
      '16: function* fit() {}',
      '17: it.each = () => () => {}',
    ])
  })

  it("flags the framework's names imported from anywhere but the framework, one statement over lines too", () => {
    expect(
      rebindsOf(
        'javascript',
        `import { describe, it as test, expect } from 'vitest'
import { test as base, expect as e } from '@playwright/test'
import assert from 'node:assert/strict'
import { it } from './fake-vitest.js'
import expect from 'my-expect'
import * as test from './t'
import {
  describe,
  type Foo,
} from "../not-mocha"
import type { it as T } from './types'
import { item, iterator } from './items'
const { expect: ex } = require('chai')
const assert2 = require('assert')
const expect = require('chai').expect
const test = require('./fake')
`,
      ),
    ).toEqual([
      "4: import { it } from './fake-vitest.js'",
      "5: import expect from 'my-expect'",
      "6: import * as test from './t'",
      '7: import { describe, type Foo, } from "../not-mocha"',
      "16: const test = require('./fake')",
    ])
  })

  it('leaves alone names that only start like one, loops, properties, comparisons, comments and strings', () => {
    expect(
      rebindsOf(
        'javascript',
        `const item = 1, iterator = 2, testData = [], expected = 3, tests = []
let items, assertion, describer
for (const test of tests) it(test.name, () => expect(test.run()).toBe(true))
for (const it in obj) {}
obj.it = 1
this.test = 2
const x = { it: 1, test: 2, expect: 3 }
if (test == 1 || it === 2 || expect !== 3 || it <= 4 || it >= 5) {}
const f = (it) => it.name
const g = it => it
// const it = () => {}
/* test = null */
const s = 'const it = () => {}; globalThis.it = 1'
const t = \`vi.mock('vitest')\`
const { it: renamed } = helpers
Object.defineProperty(globalThis, 'URL', { value: undefined })
Object.assign(globalThis, { fetch: stub })
`,
      ),
    ).toEqual([])
  })
})

describe('tests_weakened sees the framework rebound, Python', () => {
  it("flags __test__ = False, a test function's name bound again or deleted, an assertion method replaced", () => {
    expect(
      rebindsOf(
        'python',
        `__test__ = False

def test_add():
    assert add(1, 2) == 3

def test_neg():
    assert add(-1, -2) == -3

test_add = lambda: None
del test_neg

class TestX(unittest.TestCase):
    __test__ = False
    def test_y(self):
        self.assertEqual = lambda *a: None
        self.assertEqual(1, 2)
`,
      ),
    ).toEqual([
      '1: __test__ = False',
      '9: test_add = lambda: None',
      '10: del test_neg',
      '13: __test__ = False',
      '15: self.assertEqual = lambda *a: None',
    ])
  })

  it('leaves alone test data named like a test, comparisons, comments and docstrings', () => {
    expect(
      rebindsOf(
        'python',
        `test_cases = [(1, 2), (3, 4)]
testdata: list = []

def test_add():
    assert test_cases == [(1, 2), (3, 4)]
    result = test_add == 1
    # test_add = None
    """test_add = None"""
`,
      ),
    ).toEqual([])
  })
})

describe('tests_weakened counts, Python', () => {
  it('counts test functions and methods, assert statements, self.assert* and pytest.raises; not a comment', () => {
    expect(
      countTests(
        'python',
        `def test_a():
    assert f() == 1  # def test_hidden():
    with pytest.raises(ValueError):
        f(-1)

async def test_b():
    assert await g()

class T(unittest.TestCase):
    def test_c(self):
        self.assertEqual(1, 1)
        self.assertRaises(ValueError, f, -1)

def helper_test():
    assert True
`,
      ),
    ).toMatchObject({ tests: 3, assertions: 6 })
  })

  it('sees pytest.mark.skip/skipif/xfail, pytest.skip(), unittest.skip/skipIf/skipUnless/expectedFailure, self.skipTest and SkipTest', () => {
    expect(
      skipsOf(
        'python',
        `@pytest.mark.skip(reason="x")
@pytest.mark.skipif(sys.version_info < (3, 9), reason="y")
@pytest.mark.xfail
pytest.skip("z")
@unittest.skip("a")
@unittest.skipIf(True, "b")
@unittest.skipUnless(False, "c")
@unittest.expectedFailure
self.skipTest("d")
raise unittest.SkipTest("e")
pytestmark = pytest.mark.skip(reason="the whole module")
# @pytest.mark.skip in a comment`,
      ),
    ).toHaveLength(11)
  })
})

describe('tests_weakened counts, Go, Rust, Java', () => {
  it('Go: Test/Fuzz/Example functions and t.Run subtests, t.Error/Fatal and testify calls, t.Skip/Skipf/SkipNow', () => {
    const counts = countTests(
      'go',
      `func TestA(t *testing.T) {
	t.Run("sub", func(t *testing.T) { assert.Equal(t, 1, 1) })
	if x != 1 { t.Errorf("x = %d", x) }
	t.Skipf("later %d", 1)
}
func FuzzB(f *testing.F) { f.Skip("x") }
func helper() { t.Fatal("x") }
// func TestCommented(t *testing.T) { t.SkipNow() }
u := "http://x"; t.SkipNow() // a string's "//" opens no comment`,
    )
    expect(counts).toMatchObject({ tests: 3, assertions: 3 })
    expect(counts.skips.map((s) => s.line)).toEqual([4, 6, 9])
  })

  it('Go: a build constraint added to a test file (it leaves the file out of go test) is a skip', () => {
    expect(
      skipsOf('go', '//go:build integration\n// +build integration\n\npackage calc\n// go:build is prose\n'),
    ).toEqual(['//go:build integration', '// +build integration'])
  })

  it('Rust: #[test] and #[tokio::test], assert!/assert_eq!/should_panic, #[ignore]; a file with no test attribute is not a test file', () => {
    const counts = countTests(
      'rust',
      `fn id<'a>(s: &'a str) -> &'a str { s }
#[cfg(test)]
mod tests {
    #[test]
    #[ignore = "slow"]
    fn a() { assert_eq!(id("x"), "x"); }
    #[tokio::test]
    #[should_panic]
    async fn b() { assert!(false) }
}`,
    )
    expect(counts).toMatchObject({ tests: 2, assertions: 3, marked: true })
    expect(counts.skips).toEqual([{ line: 5, text: '#[ignore = "slow"]' }])
    expect(countTests('rust', 'fn main() { assert!(true) }').marked).toBe(false)
  })

  it('Java: @Test, @ParameterizedTest, assert*/assertThat/fail/verify; @Disabled, @DisabledOnOs, @Ignore, assumeTrue; not @TestInstance', () => {
    const counts = countTests(
      'java',
      `@TestInstance(Lifecycle.PER_CLASS)
class ATest {
  @Test @Disabled("x") void a() { assertEquals(1, 1); Assertions.assertThat(x).isTrue(); }
  @ParameterizedTest @DisabledOnOs(OS.LINUX) void b(int n) { assumeTrue(n > 0); fail("no"); }
  @Ignore @Test void c() { verify(mock).run(); }
  // @Test void d() {}
}`,
    )
    expect(counts).toMatchObject({ tests: 3, assertions: 4 })
    expect(counts.skips.map((s) => s.line)).toEqual([3, 4, 5])
  })
})

describe('tests_weakened in test-runner configs', () => {
  it('reads only the test settings of package.json, pyproject.toml, setup.cfg, tox.ini and pom.xml', () => {
    const pkg = (deps: string, jest: string) =>
      `{ "name": "a", "dependencies": { ${deps} }, "jest": { ${jest} }, "scripts": { "build": "tsc", "test": "jest" } }`
    expect(testSettings('package.json', pkg('"a": "1"', '"bail": 1'))).toBe(
      testSettings('package.json', pkg('"a": "2", "b": "1"', '"bail": 1')),
    )
    expect(testSettings('package.json', pkg('', '"bail": 1'))).not.toBe(
      testSettings('package.json', pkg('', '"bail": 0')),
    )
    const toml = (version: string, under: number) =>
      `[project]\nversion = "${version}"\n[tool.coverage.report]\nfail_under = ${under}\n[tool.black]\nline-length = 100\n`
    expect(testSettings('pyproject.toml', toml('1.0', 90))).toBe(
      testSettings('pyproject.toml', toml('2.0', 90)),
    )
    expect(
      loweredThresholds(
        testSettings('x/pyproject.toml', toml('1', 90)),
        testSettings('x/pyproject.toml', toml('1', 80)),
      ),
    ).toEqual(['fail_under 90 → 80'])
    expect(testSettings('setup.cfg', '[metadata]\nname = a\n[tool:pytest]\naddopts = -q\n')).toBe(
      '[tool:pytest]\naddopts = -q\n',
    )
    expect(
      testSettings('tox.ini', '[tox]\nenvlist = py3\n[testenv]\ncommands = pytest --cov-fail-under 80\n'),
    ).toBe('[testenv]\ncommands = pytest --cov-fail-under 80\n')
    expect(testSettings('pom.xml', '<dependency>x</dependency>\n<skipTests>true</skipTests>')).toBe(
      '<skipTests>true</skipTests>',
    )
  })

  it('reads a vite config (vitest reads its test block) by its test lines: a plugin added is no change', () => {
    const vite = (plugins: string, lines: number) =>
      `export default defineConfig({\n  plugins: [${plugins}],\n  test: {\n    coverage: { thresholds: { lines: ${lines} } },\n  },\n})\n`
    expect(testSettings('vite.config.ts', vite('react()', 90))).toBe(
      testSettings('vite.config.ts', vite('react(), svg()', 90)),
    )
    expect(
      loweredThresholds(
        testSettings('vite.config.ts', vite('', 90)),
        testSettings('vite.config.ts', vite('', 10)),
      ),
    ).toEqual(['lines 90 → 10'])
  })

  it('reads a hostile 1 MiB file in linear time (no regex backtracks over a long token or line)', () => {
    const started = performance.now()
    const mib = 2 ** 20
    for (const text of [
      'a'.repeat(mib),
      '-'.repeat(mib),
      '#[test'.repeat(mib / 6),
      'it.skip()'.repeat(mib / 9),
      // What the rebinding patterns start at, never closed: each scan is bounded, not to the file's end.
      'const {'.repeat(mib / 7),
      'import x'.repeat(mib / 8),
      `it${' '.repeat(mib)}`,
      'test_a\n'.repeat(mib / 7),
    ]) {
      loweredThresholds(text, text)
      countTests('rust', text)
      countTests('javascript', text)
      countTests('python', text)
    }
    // Linear: well under a second each here. Quadratic (as an unbounded [^\]]* after each "#[test" was): hours.
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  it('names each threshold lowered or removed, in any of the usual spellings; a raised one is no loosening', () => {
    expect(
      loweredThresholds(
        "coverage: { thresholds: { lines: 90, functions: 90, 'statements': 85 } }",
        'coverage: { thresholds: { lines: 95, functions: 80 } }',
      ),
    ).toEqual(['functions 90 → 80', 'statements 85 → removed'])
    expect(
      loweredThresholds(
        '"nyc": "nyc --check-coverage --lines 90"',
        '"nyc": "nyc --check-coverage --lines 60"',
      ),
    ).toEqual(['lines 90 → 60'])
    expect(
      loweredThresholds(
        'coverage:\n  status:\n    project:\n      default:\n        target: 80%\n',
        'target: 60%',
      ),
    ).toEqual(['target 80 → 60'])
    expect(loweredThresholds('<minimum>0.9</minimum>', '<minimum>0.95</minimum>')).toEqual([])
  })
})

describe('tests_weakened on the check run', () => {
  it("annotates the line the violation points at (a skip's line), not line 1", () => {
    const annotation = violationAnnotation(
      {
        checkpoint: 2,
        file: 'test/a.test.ts',
        constraint: 'tests_weakened',
        severity: 'error',
        message: "test/a.test.ts weakens its tests: a skip was added (line 7: `it.skip('a')`)",
        suggestion: 'Remove the skip',
        line: 7,
      },
      createSanitizer({ secrets: [] }),
    )
    expect(annotation).toMatchObject({ path: 'test/a.test.ts', start_line: 7, end_line: 7 })
  })
})
