// Where a project's tests and test-runner configs live, by default (`policy.tests`): the one copy, which
// defaults.ts holds and the schema takes from there. The tests_weakened constraint
// (src/policy/tests-weakened/) judges the files these globs match.

export const TEST_LANGUAGES = ['javascript', 'python', 'go', 'rust', 'java'] as const
export type TestLanguage = (typeof TEST_LANGUAGES)[number]

const JS = '{js,jsx,ts,tsx,mjs,cjs,mts,cts}'

export const TEST_FILE_DEFAULTS: Record<TestLanguage | 'configs', readonly string[]> = {
  javascript: [
    `**/*.{test,spec}.${JS}`,
    `**/__tests__/**/*.${JS}`,
    `**/test/**/*.${JS}`,
    `**/tests/**/*.${JS}`,
  ],
  python: ['**/test_*.py', '**/*_test.py', '**/tests/**/*.py', '**/test/**/*.py'],
  go: ['**/*_test.go'],
  // Rust's unit tests live beside the code (`#[cfg(test)] mod tests`): a .rs file is judged only when one
  // of its versions holds a test attribute.
  rust: ['**/*.rs'],
  java: ['**/src/test/**/*.java', '**/*Test.java', '**/*Tests.java', '**/*IT.java'],
  configs: [
    '**/vitest.config.*',
    '**/vitest.workspace.*',
    '**/vite.config.*',
    '**/jest.config.*',
    '**/.mocharc*',
    '**/karma.conf.*',
    '**/playwright.config.*',
    '**/.c8rc*',
    '**/.nycrc*',
    '**/package.json',
    '**/pytest.ini',
    '**/conftest.py',
    '**/.coveragerc',
    '**/pyproject.toml',
    '**/setup.cfg',
    '**/tox.ini',
    '**/codecov.yml',
    '**/.codecov.yml',
    '**/.config/nextest.toml',
    '**/tarpaulin.toml',
    '**/.tarpaulin.toml',
    '**/pom.xml',
    '**/build.gradle',
    '**/build.gradle.kts',
  ],
}

/** A fresh copy (sessions may change their config's lists). */
export function testFileDefaults(): Record<TestLanguage | 'configs', string[]> {
  return Object.fromEntries(Object.entries(TEST_FILE_DEFAULTS).map(([k, v]) => [k, [...v]])) as Record<
    TestLanguage | 'configs',
    string[]
  >
}
