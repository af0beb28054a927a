// h-trial (second round), attacking ci-checks' "the agent changed CI's definition" (ci-workflows.ts): an
// action GitHub runs that the hook did not count as CI's definition lets the agent make CI green without the
// work passing, and ci-checks then allows. Out of scope on purpose: a script a workflow runs
// (`run: ./scripts/ci.sh`, `npm test`) — every file of the repository is something CI runs (tests, package.json
// scripts, a Makefile); weakening those is the policy's business (tests_weakened, forbidden paths), not a
// change to what GitHub reads as the workflow.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Git } from '../../src/git/runner.js'
import { changedWorkflowDefinitions } from '../../src/checkpoints/ci-workflows.js'
import { makeTempRepo } from '../helpers/git-repo.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

const ACTION = 'runs: { using: composite, steps: [ { run: npm test, shell: bash } ] }\n'
const PASS = 'runs: { using: composite, steps: [ { run: "true", shell: bash } ] }\n'

/** A repository whose baseline holds `files`; the agent then turns every `ci/<x>/action.yml` into a pass. */
async function agentRewrites(files: Record<string, string>, actions: string[]): Promise<string[]> {
  const r = makeTempRepo({ files: { ...files, ...Object.fromEntries(actions.map((a) => [a, ACTION])) } })
  cleanups.push(r.cleanup)
  const baseline = r.git(['rev-parse', 'HEAD']).trim()
  for (const action of actions) r.write(action, PASS)
  const sha = r.commitAll('agent')
  const git = new Git({ cwd: r.dir, env: r.env })
  return (await changedWorkflowDefinitions(git, baseline, sha)).map((c) => c.path)
}

describe('local actions GitHub runs that the hook must count', () => {
  it('a local action used by a composite action (not by the workflow itself)', async () => {
    const changed = await agentRewrites(
      {
        '.github/workflows/ci.yml':
          'on: push\njobs: { t: { runs-on: x, steps: [ { uses: ./.github/actions/setup } ] } }\n',
        '.github/actions/setup/action.yml': 'runs: { using: composite, steps: [ { uses: ./ci/inner } ] }\n',
        'tools/outer/action.yml': 'runs: { using: composite, steps: [ { uses: ./ci/deeper } ] }\n',
        '.github/workflows/lint.yml':
          'on: push\njobs: { l: { runs-on: x, steps: [ { uses: ./tools/outer } ] } }\n',
      },
      ['ci/inner/action.yml', 'ci/deeper/action.yml'],
    )
    expect(changed).toEqual(['ci/deeper/action.yml', 'ci/inner/action.yml'])
  })

  it('`uses:` in YAML spellings a line-by-line reader misses: a quoted key, an escape, a folded scalar, an alias, `..`', async () => {
    const workflow = [
      'on: push',
      'x-shared: &shared ./ci/alias',
      'jobs:',
      '  t:',
      '    runs-on: x',
      '    steps:',
      '      - "uses": ./ci/quotedkey',
      '      - uses: "\\x2e/ci/escaped"',
      '      - uses: >-',
      '          ./ci/folded',
      '      - uses: *shared',
      '      - uses: ./ci/none/../dotdot',
      '',
    ].join('\n')
    const changed = await agentRewrites({ '.github/workflows/ci.yml': workflow }, [
      'ci/quotedkey/action.yml',
      'ci/escaped/action.yml',
      'ci/folded/action.yml',
      'ci/alias/action.yml',
      'ci/dotdot/action.yml',
    ])
    expect(changed).toEqual([
      'ci/alias/action.yml',
      'ci/dotdot/action.yml',
      'ci/escaped/action.yml',
      'ci/folded/action.yml',
      'ci/quotedkey/action.yml',
    ])
  })

  it('still nothing when the agent changed only code next to the actions', async () => {
    const changed = await agentRewrites(
      {
        '.github/workflows/ci.yml': 'jobs: { t: { steps: [ { uses: ./ci/used } ] } }\n',
        'ci/used/action.yml': ACTION,
      },
      ['ci/unused/action.yml'],
    )
    expect(changed).toEqual([])
  })
})

describe('a local action reached through a symlink', () => {
  it('the target of `uses: ./tools/setup` when `tools` links to `ci` is CI’s definition', async () => {
    const r = makeTempRepo({
      files: {
        '.github/workflows/ci.yml': 'jobs: { t: { steps: [ { uses: ./tools/setup }, { uses: ./lint } ] } }\n',
        'ci/setup/action.yml': ACTION,
        'ci/lint/action.yml': ACTION,
      },
    })
    cleanups.push(r.cleanup)
    symlinkSync('ci', join(r.dir, 'tools'))
    symlinkSync('ci/lint', join(r.dir, 'lint'))
    const baseline = r.commitAll('links')
    r.write('ci/setup/action.yml', PASS)
    r.write('ci/lint/action.yml', PASS)
    const sha = r.commitAll('agent')
    const git = new Git({ cwd: r.dir, env: r.env })
    expect((await changedWorkflowDefinitions(git, baseline, sha)).map((c) => c.path)).toEqual([
      'ci/lint/action.yml',
      'ci/setup/action.yml',
    ])
  })
})
