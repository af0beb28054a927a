// The release, run for real where it can be off GitHub: the gate (scripts/release-check.ts) as the workflow
// runs it, `npm run release:prepare` in a copy of the package root, and the workflow's own shell steps
// (taken from release.yml, not retyped) in temp git repositories with a bare remote: which tag it
// refuses, where it puts vX.Y.Z and when it moves v1.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { afterEach, describe, expect, it } from 'vitest'
import { cloneRepo, isolatedGitEnv, makeBareRemote, tempDir, type TempRepo } from '../helpers/git-repo.js'

const root = join(import.meta.dirname, '../..')
const tsx = import.meta.resolve('tsx')
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function dir(): string {
  const path = tempDir('proctor-release-')
  cleanups.push(() => rmSync(path, { recursive: true, force: true }))
  return path
}

const CHANGELOG = `# Changelog

## Unreleased

## 1.2.0

- The thing that shipped.

## 1.1.0

- An older thing.
`

const published = (repository: string, extra: Record<string, unknown> = {}) => ({
  name: 'proctor',
  version: '1.2.0',
  bin: { proctor: 'dist/cli.js' },
  repository: { type: 'git', url: `git+https://github.com/${repository}.git` },
  homepage: `https://github.com/${repository}#readme`,
  bugs: { url: `https://github.com/${repository}/issues` },
  ...extra,
})

/** `scripts/release-check.ts` as the workflow runs it, in `cwd`; its exit code, output and GITHUB_OUTPUT. */
function releaseCheck(cwd: string, tag: string, repository: string) {
  const output = join(cwd, 'github-output')
  writeFileSync(output, '')
  const notes = join(cwd, 'notes.md')
  const ran = spawnSync(
    process.execPath,
    [
      '--import',
      tsx,
      join(root, 'scripts/release-check.ts'),
      '--tag',
      tag,
      '--repository',
      repository,
      '--notes',
      notes,
    ],
    { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, GITHUB_OUTPUT: output } },
  )
  let written = ''
  try {
    written = readFileSync(notes, 'utf8')
  } catch {
    // No notes: refused.
  }
  return {
    status: ran.status,
    stdout: ran.stdout + ran.stderr,
    outputs: readFileSync(output, 'utf8'),
    notes: written,
  }
}

function project(pkg: object, changelog = CHANGELOG): string {
  const cwd = dir()
  writeFileSync(join(cwd, 'package.json'), JSON.stringify(pkg, null, 2))
  writeFileSync(join(cwd, 'CHANGELOG.md'), changelog)
  return cwd
}

describe('the release gate (scripts/release-check.ts)', () => {
  it('passes a package that names this repository at the tagged version; notes and outputs for the workflow', () => {
    const ran = releaseCheck(project(published('acme-test/proctor')), 'v1.2.0', 'acme-test/proctor')
    expect(ran.status, ran.stdout).toBe(0)
    expect(ran.notes).toBe('- The thing that shipped.\n')
    expect(ran.outputs).toBe('version=1.2.0\nmajor=v1\nprerelease=false\nnpm_tag=latest\n')
  })

  it('refuses a package without a repository, or naming another one: nothing that points elsewhere ships', () => {
    const { repository: _, homepage: __, bugs: ___, ...unnamed } = published('x/y')
    const none = releaseCheck(project(unnamed), 'v1.2.0', 'acme-test/proctor')
    expect(none.status).toBe(1)
    expect(none.stdout).toMatch(
      /::error::package\.json names no GitHub repository: run `npm run release:prepare -- 1\.2\.0 acme-test\/proctor`/,
    )
    expect(none.outputs).toBe('')
    expect(none.notes).toBe('')

    const fork = releaseCheck(project(published('someone-else/proctor')), 'v1.2.0', 'acme-test/proctor')
    expect(fork.status).toBe(1)
    expect(fork.stdout).toContain(
      "::error::package.json's repository is someone-else/proctor, but this runs in acme-test/proctor",
    )
  })

  it('refuses a tag that is not package.json version, links not derived from the repository, no changelog section', () => {
    const mismatch = releaseCheck(project(published('acme-test/proctor')), 'v1.2.1', 'acme-test/proctor')
    expect(mismatch.status).toBe(1)
    expect(mismatch.stdout).toContain('package.json says version 1.2.0, the tag v1.2.1')
    expect(mismatch.stdout).toContain('CHANGELOG.md has no "## 1.2.1" section')

    const links = releaseCheck(
      project(
        published('acme-test/proctor', { homepage: 'https://example.com', bugs: 'https://example.com/bugs' }),
      ),
      'v1.2.0',
      'acme-test/proctor',
    )
    expect(links.status).toBe(1)
    expect(links.stdout).toContain(
      'homepage is https://example.com, not https://github.com/acme-test/proctor#readme',
    )
    expect(links.stdout).toContain(
      'bugs is https://example.com/bugs, not https://github.com/acme-test/proctor/issues',
    )

    const noTag = releaseCheck(project(published('acme-test/proctor')), '1.2.0', 'acme-test/proctor')
    expect(noTag.status).toBe(1)
    expect(noTag.stdout).toContain('the tag 1.2.0 is not vMAJOR.MINOR.PATCH')
  })

  it('publishes a prerelease under npm\'s "next" tag', () => {
    const changelog = CHANGELOG.replace('## 1.2.0', '## [2.0.0-rc.1]')
    const ran = releaseCheck(
      project(published('acme-test/proctor', { version: '2.0.0-rc.1' }), changelog),
      'v2.0.0-rc.1',
      'acme-test/proctor',
    )
    expect(ran.status, ran.stdout).toBe(0)
    expect(ran.outputs).toBe('version=2.0.0-rc.1\nmajor=v2\nprerelease=true\nnpm_tag=next\n')
  })
})

describe('npm run release:prepare', () => {
  it('writes the version everywhere it lives and the repository with homepage and bugs; the gate then passes', () => {
    const copy = dir()
    for (const path of ['package.json', 'package-lock.json', 'scripts/release-prepare.ts', 'src/util']) {
      mkdirSync(join(copy, path, '..'), { recursive: true })
      cpSync(join(root, path), join(copy, path), { recursive: true })
    }
    writeFileSync(join(copy, 'CHANGELOG.md'), CHANGELOG.replace('## 1.2.0', '## 7.8.9'))
    const bad = spawnSync(
      process.execPath,
      ['--import', tsx, 'scripts/release-prepare.ts', '7.8.9', 'https://evil'],
      {
        cwd: copy,
        encoding: 'utf8',
      },
    )
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('the second argument is the GitHub repository as owner/name')

    const ran = spawnSync(
      process.execPath,
      ['--import', tsx, 'scripts/release-prepare.ts', '7.8.9', 'acme-test/proctor'],
      {
        cwd: copy,
        encoding: 'utf8',
      },
    )
    expect(ran.status, ran.stderr).toBe(0)
    expect(ran.stdout).toContain('CHANGELOG.md has its "## 7.8.9" section')
    const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(pkg).toMatchObject({
      version: '7.8.9',
      repository: { type: 'git', url: 'git+https://github.com/acme-test/proctor.git' },
      homepage: 'https://github.com/acme-test/proctor#readme',
      bugs: { url: 'https://github.com/acme-test/proctor/issues' },
    })
    const lock = JSON.parse(readFileSync(join(copy, 'package-lock.json'), 'utf8')) as {
      version: string
      packages: Record<string, { version: string }>
    }
    expect([lock.version, lock.packages['']!.version]).toEqual(['7.8.9', '7.8.9'])
    expect(readFileSync(join(copy, 'src/util/version.ts'), 'utf8')).toContain("PROCTOR_VERSION = '7.8.9'")

    expect(releaseCheck(copy, 'v7.8.9', 'acme-test/proctor').status).toBe(0)
    expect(releaseCheck(copy, 'v7.8.9', 'another/proctor').status).toBe(1)
  })
})

interface Step {
  name?: string
  run?: string
}
const workflow = parseYaml(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as {
  jobs: Record<string, { steps: Step[] }>
}
const stepScript = (job: string, name: RegExp): string => {
  const step = workflow.jobs[job]!.steps.find((s) => s.name !== undefined && name.test(s.name))
  expect(step?.run, `${job}: ${String(name)}`).toBeDefined()
  return step!.run!
}

/** A step's script run as GitHub runs it (bash -e -o pipefail) in `repo`, with `env`. */
function runStep(script: string, repo: TempRepo, env: Record<string, string>) {
  const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { ...isolatedGitEnv(), ...env },
  })
  return { status: ran.status, out: ran.stdout + ran.stderr }
}

/** A remote with main at three commits, v1.0.0 and v1.1.0 tagged and v1 on v1.1.0; a full clone of it. */
function releasedRepo() {
  const remote = makeBareRemote()
  cleanups.push(remote.cleanup)
  const seed = cloneRepo(remote.url)
  cleanups.push(seed.cleanup)
  const commits = ['one', 'two', 'three'].map((message) => seed.commitAll(message))
  seed.git(['tag', '-a', 'v1.0.0', '-m', 'v1.0.0', commits[0]!])
  seed.git(['tag', '-a', 'v1.1.0', '-m', 'v1.1.0', commits[1]!])
  seed.git(['tag', '-a', 'v1', '-m', 'v1', commits[1]!])
  seed.git(['push', '-q', 'origin', 'HEAD:main', '--tags'])
  const clone = cloneRepo(remote.url)
  cleanups.push(clone.cleanup)
  const tagged = (tag: string) => remote.refSha(`refs/tags/${tag}^{commit}`)
  return { remote, clone, commits, tagged }
}

describe("release.yml's own steps", () => {
  const tagStep = stepScript('publish', /^Tag /)
  const gateStep = stepScript('check', /^The tag/)

  it('tags the release commit and moves v1 to it; an older patch or a prerelease leaves v1 alone', () => {
    const { clone, commits, tagged } = releasedRepo()
    const release = (tag: string, sha: string, prerelease = 'false') => {
      clone.git(['checkout', '-q', '--detach', sha])
      return runStep(tagStep, clone, { TAG: tag, MAJOR: 'v1', PRERELEASE: prerelease })
    }

    const minor = release('v1.2.0', commits[2]!)
    expect(minor.status, minor.out).toBe(0)
    expect(tagged('v1.2.0')).toBe(commits[2])
    expect(tagged('v1')).toBe(commits[2])

    // A fix to 1.0 after 1.2 is out: tagged, but `uses: …@v1` keeps getting 1.2.0.
    const patch = release('v1.0.1', commits[0]!)
    expect(patch.status, patch.out).toBe(0)
    expect(patch.out).toContain('v1 stays at v1.2.0, newer than v1.0.1')
    expect(tagged('v1.0.1')).toBe(commits[0])
    expect(tagged('v1')).toBe(commits[2])

    const rc = release('v1.3.0-rc.1', commits[1]!, 'true')
    expect(rc.status, rc.out).toBe(0)
    expect(tagged('v1.3.0-rc.1')).toBe(commits[1])
    expect(tagged('v1')).toBe(commits[2])
  })

  it('releases only a commit on the default branch, not one a tag already names otherwise, nor a malformed version', () => {
    const { clone, commits, remote } = releasedRepo()
    const gate = (env: Record<string, string>) => {
      const output = join(clone.dir, '..', 'github-output')
      writeFileSync(output, '')
      const ran = runStep(gateStep, clone, {
        DEFAULT_BRANCH: 'main',
        EVENT: 'workflow_dispatch',
        REF_NAME: 'main',
        GITHUB_OUTPUT: output,
        ...env,
      })
      return { ...ran, outputs: readFileSync(output, 'utf8') }
    }
    const fresh = gate({ INPUT_VERSION: '1.2.0', GITHUB_SHA: commits[2]! })
    expect(fresh.status, fresh.out).toBe(0)
    expect(fresh.outputs).toBe('tag=v1.2.0\n')
    expect(gate({ EVENT: 'push', REF_NAME: 'v1.1.0', GITHUB_SHA: commits[1]! }).outputs).toBe('tag=v1.1.0\n')

    const retagged = gate({ INPUT_VERSION: '1.1.0', GITHUB_SHA: commits[2]! })
    expect(retagged.status).toBe(1)
    expect(retagged.out).toContain(`v1.1.0 already tags ${commits[1]}, not ${commits[2]}`)

    // A commit only on a side branch.
    clone.git(['checkout', '-q', '-b', 'side'])
    const side = clone.commitAll('side')
    clone.git(['push', '-q', 'origin', 'side'])
    expect(remote.refSha('refs/heads/side')).toBe(side)
    const offMain = gate({ INPUT_VERSION: '1.2.0', GITHUB_SHA: side })
    expect(offMain.status).toBe(1)
    expect(offMain.out).toContain(`${side} is not on main: only the default branch is released`)

    const injected = gate({ INPUT_VERSION: '1.2.0\nmajor=v9', GITHUB_SHA: commits[2]! })
    expect(injected.status).toBe(1)
    expect(injected.outputs).toBe('')
  })
})
