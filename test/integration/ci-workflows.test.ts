// Which of the agent's changes make `ci-checks` distrust CI: the workflow definitions GitHub would run
// from the pushed commit, counted from the session's baseline in real git repositories.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Git } from '../../src/git/runner.js'
import { changedWorkflowDefinitions, usesLocal } from '../../src/checkpoints/ci-workflows.js'
import { makeTempRepo } from '../helpers/git-repo.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

const WORKFLOW = `on: [push, pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: "./tools/setup"
      - { uses: ./, with: { x: 1 } }
      - run: npm test
`

function repo(files: Record<string, string>) {
  const r = makeTempRepo({ files })
  cleanups.push(r.cleanup)
  return { r, git: new Git({ cwd: r.dir, env: r.env }) }
}

describe('the workflow definitions the agent changed since the baseline', () => {
  it('counts workflows, .github/actions, the local actions a workflow uses, and nothing else', async () => {
    const { r, git } = repo({
      '.github/workflows/ci.yml': WORKFLOW,
      '.github/actions/lint/action.yml': 'runs: { using: node20, main: index.js }\n',
      'tools/setup/action.yml': 'runs: { using: composite, steps: [] }\n',
      'tools/setup/install.sh': 'npm ci\n',
      'tools/setupx/notes.md': 'not the action\n',
      'action.yml': 'runs: { using: node20, main: dist/index.js }\n',
      'src/app.ts': 'export const x = 1\n',
      'old.yml': 'x\n',
    })
    // The user's own edit before the session is part of the baseline: not the agent's.
    r.write('.github/workflows/ci.yml', WORKFLOW.replace('npm test', 'npm run test:all'))
    const baseline = r.commitAll('baseline')
    r.write('tools/setup/install.sh', 'exit 0\n')
    r.write('.github/actions/lint/index.js', 'process.exit(0)\n')
    r.write('action.yml', 'runs: { using: composite, steps: [] }\n')
    r.write('tools/setupx/notes.md', 'still not the action\n')
    r.write('src/app.ts', 'export const x = 2\n')
    r.git(['mv', 'old.yml', '.github/workflows/new.yml'])
    const sha = r.commitAll('agent')
    expect(await changedWorkflowDefinitions(git, baseline, sha)).toEqual([
      { path: '.github/actions/lint/index.js', added: true },
      { path: '.github/workflows/new.yml', added: true },
      { path: 'action.yml', added: false },
      { path: 'tools/setup/install.sh', added: false },
    ])
  })

  it('counts a workflow deleted, and one moved out of .github/workflows (GitHub no longer runs it)', async () => {
    const { r, git } = repo({
      '.github/workflows/ci.yml': WORKFLOW,
      '.github/workflows/lint.yml': 'on: push\n',
    })
    const baseline = r.git(['rev-parse', 'HEAD']).trim()
    r.remove('.github/workflows/lint.yml')
    r.git(['mv', '.github/workflows/ci.yml', 'ci.yml.off'])
    const sha = r.commitAll('agent')
    expect(await changedWorkflowDefinitions(git, baseline, sha)).toEqual([
      { path: '.github/workflows/ci.yml', added: false },
      { path: '.github/workflows/lint.yml', added: false },
    ])
  })

  it('counts a local action the agent wires into a workflow, from an unborn HEAD (the empty tree) too', async () => {
    const { r, git } = repo({ 'README.md': '# x\n' })
    const baseline = r.git(['rev-parse', 'HEAD']).trim()
    r.write('.github/workflows/ci.yml', 'jobs: { b: { steps: [ { uses: ./ci/pass } ] } }\n')
    r.write('ci/pass/action.yml', 'runs: { using: composite, steps: [] }\n')
    const sha = r.commitAll('agent')
    const expected = [
      { path: '.github/workflows/ci.yml', added: true },
      { path: 'ci/pass/action.yml', added: true },
    ]
    expect(await changedWorkflowDefinitions(git, baseline, sha)).toEqual(expected)
    // No baseline commit (HEAD was unborn): everything is the agent's, README.md is still no CI.
    expect(await changedWorkflowDefinitions(git, null, sha)).toEqual(expected)
  })

  it('counts .github turned into a symlink (to a directory of workflows the agent wrote)', async () => {
    const { r, git } = repo({ '.github/dependabot.yml': 'version: 2\n', 'src/app.ts': '1\n' })
    const baseline = r.git(['rev-parse', 'HEAD']).trim()
    r.remove('.github')
    r.write('ci/workflows/ci.yml', 'on: push\n')
    symlinkSync('ci', join(r.dir, '.github'))
    const sha = r.commitAll('agent')
    expect(await changedWorkflowDefinitions(git, baseline, sha)).toEqual([{ path: '.github', added: true }])
  })

  it('is empty when the agent changed only the code', async () => {
    const { r, git } = repo({ '.github/workflows/ci.yml': WORKFLOW, 'src/app.ts': '1\n' })
    const baseline = r.git(['rev-parse', 'HEAD']).trim()
    r.write('src/app.ts', '2\n')
    r.write('tools/setup-notes.md', 'near, not under, tools/setup\n')
    expect(await changedWorkflowDefinitions(git, baseline, r.commitAll('agent'))).toEqual([])
  })
})

describe('local actions a workflow names', () => {
  it('reads `uses: ./dir` in every YAML spelling, never a remote action', () => {
    expect(
      usesLocal(
        `steps:\n  - uses: ./a/b/\n  - uses: './c'\n  - uses: "./d/./e"\n  - {uses: ./f, with: {}}\n  - uses: actions/checkout@v4\n  - uses: ./\n  - uses: docker://alpine\n`,
      ),
    ).toEqual(['a/b', 'c', 'd/e', 'f', ''])
  })
})
