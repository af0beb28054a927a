// The gate on real repositories: the base commit is the checkout the verify job starts from, the tip is
// the agent's last checkpoint (checked out, as verify has it when the hooks run). The hooks are run for
// real (`npm test` through src/hooks/stop-hooks.ts), so each case shows what a user sees in the check.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { Git } from '../../src/git/runner.js'
import { enforceGate, judgeGate, type GateSpec } from '../../src/hooks/gate-files.js'
import { runStopHooks } from '../../src/hooks/stop-hooks.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

// The project `proctor init` writes the `npm test` hook for: a test that imports the code and a helper.
const PROJECT = {
  'proctor.yml': 'stop_hooks:\n  - { name: tests, command: npm test }\n',
  'package.json': `${JSON.stringify({ name: 'demo', version: '1.0.0', type: 'module', scripts: { test: 'node test.mjs' } }, null, 2)}\n`,
  'src/add.js': 'export const add = (a, b) => a + b\n',
  'test/helpers/assert.mjs':
    'export function equal(a, b) { if (a !== b) { console.error(`expected ${b}, got ${a}`); process.exit(1) } }\n',
  'test.mjs':
    "import { add } from './src/add.js'\nimport { equal } from './test/helpers/assert.mjs'\nequal(add(1, 2), 3)\nconsole.log('ok')\n",
}

function project(extra: Record<string, string> = {}): { repo: TempRepo; git: Git; base: string } {
  const repo = makeTempRepo({ files: { ...PROJECT, ...extra } })
  repos.push(repo)
  const base = repo.git(['rev-parse', 'HEAD']).trim()
  return { repo, git: new Git({ cwd: repo.dir, env: repo.env }), base }
}

function hooks(list: unknown[]) {
  return configSchema.parse({ stop_hooks: list }).stop_hooks
}

function spec(list: unknown[] = [{ name: 'tests', command: 'npm test' }]): GateSpec {
  return { configFile: 'proctor.yml', hooks: hooks(list), hookDir: '' }
}

async function runHooks(
  repo: TempRepo,
  list: unknown[] = [{ name: 'tests', command: 'npm test' }],
  cwd = repo.dir,
) {
  return runStopHooks({
    hooks: hooks(list),
    context: {
      session_id: 'gate-test',
      cwd: repo.dir,
      stop_reason: 'verify',
      final_text: '',
      rounds: 1,
      stop_hook_active: false,
      checkpoint: null,
      violations: [],
    },
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false' },
    graceMs: 500,
    round: 1,
  })
}

interface PackageJson {
  scripts: Record<string, string>
  dependencies?: Record<string, string>
  jest?: unknown
}
const packageJson = (repo: TempRepo) => JSON.parse(repo.read('package.json')) as PackageJson
const editJson = (repo: TempRepo, change: (data: PackageJson) => void, indent: string | number = 2) => {
  const data = packageJson(repo)
  change(data)
  repo.write('package.json', `${JSON.stringify(data, null, indent)}\n`)
}

describe('npm test: scripts.test is the judge', () => {
  it('an agent that rewrites scripts.test to pass and breaks the code gets a critical gate_file violation; the real test runs and fails', async () => {
    const { repo, git, base } = project()
    repo.write('src/add.js', 'export const add = (a, b) => a - b\n')
    editJson(repo, (d) => (d.scripts.test = 'echo tests pass'))
    const tip = repo.commitAll('agent')
    // What the check said before: the agent's own script judged its own work.
    expect((await runHooks(repo)).verdict).toBe('allow')

    const { violations } = await enforceGate(git, repo.dir, base, tip, spec(), { checkpoint: 3 })
    expect(violations).toEqual([
      expect.objectContaining({
        checkpoint: 3,
        file: 'package.json',
        constraint: 'gate_file',
        severity: 'critical',
        message: expect.stringMatching(
          /scripts\.test in package\.json.*stop hook tests.*verify job ran the hooks with the checked-out version/,
        ),
      }),
    ])
    expect(packageJson(repo).scripts.test).toBe('node test.mjs')
    expect(repo.read('src/add.js')).toContain('a - b') // the agent's work is what is judged
    const outcome = await runHooks(repo)
    expect(outcome.verdict).toBe('block')
    expect(outcome.results[0]!.reason).toContain('expected 3, got -1')
  })

  it('adding a dependency is no gate change: package.json stays exactly as the agent wrote it', async () => {
    const { repo, git, base } = project()
    editJson(repo, (d) => (d.dependencies = { 'left-pad': '1.3.0' }), 4)
    const written = repo.read('package.json')
    const tip = repo.commitAll('agent')
    const { violations } = await enforceGate(git, repo.dir, base, tip, spec(), { checkpoint: 1 })
    expect(violations).toEqual([])
    expect(repo.read('package.json')).toBe(written)
    expect((await runHooks(repo)).verdict).toBe('allow')
  })

  it('restoring an entry keeps the agent’s other changes, key order and 4-space indentation', async () => {
    const { repo, git, base } = project()
    editJson(
      repo,
      (d) => {
        d.scripts.test = 'exit 0'
        d.scripts.pretest = 'node -e "process.exit(0)"'
        d.scripts.build = 'tsc'
        d.dependencies = { 'left-pad': '1.3.0' }
      },
      4,
    )
    const tip = repo.commitAll('agent')
    const { violations } = await enforceGate(git, repo.dir, base, tip, spec(), { checkpoint: 1 })
    expect(violations.map((v) => v.message.split(' in ')[0])).toEqual([
      'the agent changed scripts.pretest',
      'the agent changed scripts.test',
    ])
    expect(repo.read('package.json')).toBe(
      `${JSON.stringify(
        {
          name: 'demo',
          version: '1.0.0',
          type: 'module',
          scripts: { test: 'node test.mjs', build: 'tsc' },
          dependencies: { 'left-pad': '1.3.0' },
        },
        null,
        4,
      )}\n`,
    )
  })

  it('follows the script into the file it runs and into `npm run other`', async () => {
    const { repo, git, base } = project({
      'package.json': `${JSON.stringify({ type: 'module', scripts: { test: 'npm run unit', unit: 'node scripts/check.mjs' } }, null, 2)}\n`,
      'scripts/check.mjs': "import '../test.mjs'\n",
    })
    repo.write('scripts/check.mjs', 'process.exit(0)\n')
    editJson(repo, (d) => (d.scripts.unit = 'true'))
    const tip = repo.commitAll('agent')
    const { violations } = await judgeGate(git, base, tip, spec(), 1)
    expect(violations.map((v) => v.file).sort()).toEqual(['package.json', 'scripts/check.mjs'])
    expect(violations.find((v) => v.file === 'package.json')!.message).toContain('scripts.unit')
  })

  it('npm test -w <name> judges the workspace’s scripts', async () => {
    const { repo, git, base } = project({
      'package.json': `${JSON.stringify({ private: true, workspaces: ['packages/*'] }, null, 2)}\n`,
      'packages/a/package.json': `${JSON.stringify({ name: 'pkg-a', scripts: { test: 'node t.js' } }, null, 2)}\n`,
      'packages/a/t.js': 'process.exit(1)\n',
    })
    repo.write(
      'packages/a/package.json',
      `${JSON.stringify({ name: 'pkg-a', scripts: { test: 'true' } }, null, 2)}\n`,
    )
    const tip = repo.commitAll('agent')
    const { violations } = await judgeGate(
      git,
      base,
      tip,
      spec([{ name: 'tests', command: 'npm test -w pkg-a' }]),
      1,
    )
    expect(violations).toEqual([
      expect.objectContaining({ file: 'packages/a/package.json', severity: 'critical' }),
    ])
    expect(violations[0]!.message).toContain('scripts.test')
  })

  it('npm test -w <name>: a new workspace the agent adds under that name is a gate change', async () => {
    const { repo, git, base } = project({
      'package.json': `${JSON.stringify({ private: true, workspaces: ['packages/*'] }, null, 2)}\n`,
      'packages/a/package.json': `${JSON.stringify({ name: 'pkg-a', scripts: { test: 'node t.js' } }, null, 2)}\n`,
    })
    repo.write('packages/b/package.json', `${JSON.stringify({ name: 'pkg-b', scripts: { test: 'true' } })}\n`)
    repo.write('packages/c/package.json', `${JSON.stringify({ name: 'pkg-c' })}\n`)
    const tip = repo.commitAll('agent')
    const hook = [{ name: 'tests', command: 'npm test -w pkg-b' }]
    const { violations } = await enforceGate(git, repo.dir, base, tip, spec(hook), { checkpoint: 1 })
    expect(violations.map((v) => v.file)).toEqual(['packages/b/package.json'])
    expect(repo.exists('packages/b/package.json')).toBe(false)
    expect(repo.exists('packages/c/package.json')).toBe(true)
  })

  it('a package.json the agent adds where the hook runs, taking the place of the root’s, is removed', async () => {
    const { repo, git, base } = project({ 'sub/notes.txt': 'x\n' })
    repo.write('src/add.js', 'export const add = (a, b) => a - b\n')
    repo.write('sub/package.json', '{ "scripts": { "test": "true" }, "dependencies": {} }\n')
    const tip = repo.commitAll('agent')
    const sub = join(repo.dir, 'sub')
    expect((await runHooks(repo, undefined, sub)).verdict).toBe('allow')
    const inSub: GateSpec = { ...spec(), hookDir: 'sub' }
    const { violations } = await enforceGate(git, repo.dir, base, tip, inSub, { checkpoint: 1 })
    expect(violations).toEqual([expect.objectContaining({ file: 'sub/package.json', severity: 'critical' })])
    expect(repo.exists('sub/package.json')).toBe(false)
    // npm finds the root package.json again and runs the real test.
    expect((await runHooks(repo, undefined, sub)).verdict).toBe('block')
  })

  it('a package.json replaced by a symlink is restored whole, never written through', async () => {
    const { repo, git, base } = project()
    repo.write('elsewhere.json', '{"scripts":{"test":"true"}}\n')
    repo.remove('package.json')
    symlinkSync('elsewhere.json', join(repo.dir, 'package.json'))
    const tip = repo.commitAll('agent')
    const { violations } = await enforceGate(git, repo.dir, base, tip, spec(), { checkpoint: 1 })
    expect(violations).toEqual([expect.objectContaining({ file: 'package.json', constraint: 'gate_file' })])
    expect(repo.read('elsewhere.json')).toBe('{"scripts":{"test":"true"}}\n')
    expect(repo.read('package.json')).toBe(PROJECT['package.json'])
  })
})

describe('stop_hooks[].gate_files', () => {
  const withHelpers = [{ name: 'tests', command: 'npm test', gate_files: ['test/helpers/**'] }]

  it('an edited helper the test imports is a violation, restored, and the hook fails again', async () => {
    const { repo, git, base } = project()
    repo.write('src/add.js', 'export const add = (a, b) => a - b\n')
    repo.write('test/helpers/assert.mjs', 'export function equal() {}\n')
    repo.write('test/helpers/extra.mjs', 'export {}\n') // new, matching the glob: removed
    const tip = repo.commitAll('agent')
    expect((await runHooks(repo, withHelpers)).verdict).toBe('allow')

    const { violations } = await enforceGate(git, repo.dir, base, tip, spec(withHelpers), { checkpoint: 2 })
    expect(violations.map((v) => [v.file, v.severity])).toEqual([
      ['test/helpers/assert.mjs', 'critical'],
      ['test/helpers/extra.mjs', 'critical'],
    ])
    expect(violations[0]!.message).toContain('gate_files of stop hook tests')
    expect(repo.read('test/helpers/assert.mjs')).toBe(PROJECT['test/helpers/assert.mjs'])
    expect(repo.exists('test/helpers/extra.mjs')).toBe(false)
    expect((await runHooks(repo, withHelpers)).verdict).toBe('block')
  })

  it('without gate_files the helper is the agent’s to change (only the two-job docs promise the rest)', async () => {
    const { repo, git, base } = project()
    repo.write('test/helpers/assert.mjs', 'export function equal() {}\n')
    const tip = repo.commitAll('agent')
    expect((await judgeGate(git, base, tip, spec(), 1)).violations).toEqual([])
  })
})

describe('test-runner configuration', () => {
  it('edits to vitest.config.ts and jest.config.js, a new playwright config and package.json#jest are violations', async () => {
    const { repo, git, base } = project({
      'vitest.config.ts': "export default { test: { include: ['test/**'] } }\n",
      'jest.config.js': 'module.exports = { testMatch: ["**/*.test.js"] }\n',
    })
    repo.write('vitest.config.ts', 'export default { test: { include: [], passWithNoTests: true } }\n')
    repo.write('jest.config.js', 'module.exports = { testMatch: [] }\n')
    repo.write('playwright.config.ts', 'export default {}\n')
    repo.write('tests/conftest.py', 'import pytest\n')
    editJson(repo, (d) => (d.jest = { testPathIgnorePatterns: ['.'] }))
    const tip = repo.commitAll('agent')
    const runners = spec([
      { name: 'unit', command: 'npx vitest run' },
      { name: 'jest', command: ['npx', 'jest', '--ci'] },
      { name: 'e2e', command: 'npx playwright test' },
      { name: 'py', command: 'python -m pytest -q' },
    ])
    const { violations } = await judgeGate(git, base, tip, runners, 1)
    expect(violations.map((v) => v.file).sort()).toEqual([
      'jest.config.js',
      'package.json',
      'playwright.config.ts',
      'tests/conftest.py',
      'vitest.config.ts',
    ])
    expect(violations.every((v) => v.constraint === 'gate_file' && v.severity === 'critical')).toBe(true)
    expect(violations.find((v) => v.file === 'vitest.config.ts')!.message).toContain('vitest')

    await enforceGate(git, repo.dir, base, tip, runners, { checkpoint: 1 })
    expect(repo.read('vitest.config.ts')).toContain("include: ['test/**']")
    expect(repo.exists('playwright.config.ts')).toBe(false)
    expect(packageJson(repo).jest).toBeUndefined()
  })

  it('a runner the hooks never run is no judge: its configuration and a Makefile stay the agent’s', async () => {
    const { repo, git, base } = project({
      'vite.config.ts': 'export default {}\n',
      Makefile: 'build:\n\ttrue\n',
    })
    repo.write('vite.config.ts', "export default { base: '/app/' }\n")
    repo.write('Makefile', 'build:\n\tnode build.mjs\n')
    repo.write('jest.config.js', 'module.exports = {}\n')
    const tip = repo.commitAll('agent')
    // The hook is `npm test`, whose script is `node test.mjs`: no vite, make or jest judges this work.
    expect((await judgeGate(git, base, tip, spec(), 1)).violations).toEqual([])
    const viaScript = project({ 'vite.config.ts': 'export default {}\n' })
    editJson(viaScript.repo, (d) => (d.scripts.test = 'vitest run'))
    const scriptBase = viaScript.repo.commitAll('the suite runs on vitest')
    viaScript.repo.write('vite.config.ts', 'export default { test: { include: [] } }\n')
    const scriptTip = viaScript.repo.commitAll('agent')
    // ... but a script the hook runs that names vitest makes vite's configuration part of the gate.
    const followed = await judgeGate(viaScript.git, scriptBase, scriptTip, spec(), 1)
    expect(followed.violations.map((v) => v.file)).toEqual(['vite.config.ts'])
  })
})

describe('what a runner loads instead of source', () => {
  it('committed node_modules and Python bytecode are gate changes; a gate directory swapped for a symlink comes back real', async () => {
    const { repo, git, base } = project({
      '.gitignore': 'node_modules/\n',
      'cypress/support/e2e.js': 'beforeEach(() => {})\n',
    })
    repo.write('.gitignore', '')
    repo.write('node_modules/vitest/vitest.mjs', 'process.exit(0)\n')
    repo.write('tests/__pycache__/test_add.cpython-312.pyc', 'bytecode')
    repo.write('fake/support/e2e.js', 'Cypress.on("fail", () => false)\n')
    repo.remove('cypress')
    symlinkSync('fake', join(repo.dir, 'cypress'))
    const tip = repo.commitAll('agent')
    const withCypress = spec([
      { name: 'tests', command: 'npm test' },
      { name: 'e2e', command: 'npx cypress run' },
    ])
    const { violations } = await enforceGate(git, repo.dir, base, tip, withCypress, { checkpoint: 1 })
    // `npx cypress run` names `cypress` too: the symlink the agent put there is itself a gate change.
    expect(violations.map((v) => v.file).sort()).toEqual([
      'cypress',
      'cypress/support/e2e.js',
      'node_modules/vitest/vitest.mjs',
      'tests/__pycache__/test_add.cpython-312.pyc',
    ])
    expect(repo.exists('node_modules/vitest/vitest.mjs')).toBe(false)
    expect(repo.exists('tests/__pycache__/test_add.cpython-312.pyc')).toBe(false)
    expect(repo.read('cypress/support/e2e.js')).toBe('beforeEach(() => {})\n')
    expect(repo.read('fake/support/e2e.js')).toContain('Cypress.on') // the agent's own file, untouched
  })
})

describe('the commit-only judgement (publish) and the worktree one (verify) agree', () => {
  it('same violations, and judgeGate touches no file', async () => {
    const { repo, git, base } = project({ 'check.mjs': 'process.exit(1)\n' })
    const list = [
      { name: 'tests', command: 'npm test', gate_files: ['test/helpers/**'] },
      { name: 'check', command: ['node', 'check.mjs'] },
      { name: 'unit', command: 'npx vitest run' },
    ]
    editJson(repo, (d) => {
      d.scripts.test = 'true'
      d.scripts.posttest = 'true'
    })
    repo.write('check.mjs', 'process.exit(0)\n')
    repo.write('proctor.yml', 'stop_hooks: []\n')
    repo.write('test/helpers/assert.mjs', 'export function equal() {}\n')
    repo.write('vitest.config.mjs', 'export default {}\n')
    repo.write('src/add.js', 'export const add = () => 3\n')
    const tip = repo.commitAll('agent')
    const status = repo.git(['status', '--porcelain'])
    const before = repo.read('package.json')

    const judged = await judgeGate(git, base, tip, spec(list), 4)
    expect(repo.git(['status', '--porcelain'])).toBe(status)
    expect(repo.read('package.json')).toBe(before)

    const enforced = await enforceGate(git, repo.dir, base, tip, spec(list), { checkpoint: 4 })
    expect(enforced.violations).toEqual(judged.violations)
    expect(judged.violations.map((v) => v.file).sort()).toEqual([
      'check.mjs',
      'package.json',
      'package.json',
      'proctor.yml',
      'test/helpers/assert.mjs',
      'vitest.config.mjs',
    ])
    // After the reset the tree holds the base gate and the agent's code.
    expect(repo.git(['diff', '--name-only', base]).trim()).toBe('src/add.js')
  })
})
