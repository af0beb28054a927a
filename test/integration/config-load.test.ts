import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/index.js'
import { findRepoRoot } from '../../src/state/layout.js'

let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proctor-config-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

function gitRepo(): string {
  const repo = join(dir, 'repo')
  mkdirSync(join(repo, 'packages', 'app'), { recursive: true })
  execFileSync('git', ['init', '-q', repo])
  return repo
}

async function loadError(opts: { file?: string; cwd: string }): Promise<ConfigError> {
  const error = await loadConfig(opts).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ConfigError)
  return error as ConfigError
}

describe('finding proctor.yml', () => {
  it('reads proctor.yml at the repository root when run from a subdirectory', async () => {
    const repo = gitRepo()
    writeFileSync(join(repo, 'proctor.yml'), 'max_stop_rounds: 7\n')
    const loaded = await loadConfig({ cwd: join(repo, 'packages', 'app') })
    expect(loaded.source).toBe('file')
    expect(loaded.file).toBe(join(repo, 'proctor.yml'))
    expect(loaded.config.max_stop_rounds).toBe(7)
  })

  it('accepts proctor.yaml too, but not both', async () => {
    const repo = gitRepo()
    writeFileSync(join(repo, 'proctor.yaml'), 'max_stop_rounds: 4\n')
    expect((await loadConfig({ cwd: repo })).config.max_stop_rounds).toBe(4)
    writeFileSync(join(repo, 'proctor.yml'), 'max_stop_rounds: 5\n')
    const error = await loadError({ cwd: repo })
    expect(error.message).toBe(
      `proctor.yml: both proctor.yml and proctor.yaml exist in ${repo} — keep one of them`,
    )
  })

  it('finds the root of a worktree, whose .git is a file', async () => {
    const worktree = join(dir, 'wt')
    mkdirSync(join(worktree, 'src'), { recursive: true })
    writeFileSync(join(worktree, '.git'), 'gitdir: /somewhere/.git/worktrees/wt\n')
    writeFileSync(join(worktree, 'proctor.yml'), 'max_stop_rounds: 9\n')
    expect(findRepoRoot(join(worktree, 'src'))).toBe(worktree)
    expect((await loadConfig({ cwd: join(worktree, 'src') })).config.max_stop_rounds).toBe(9)
  })

  it('inside a repository, ignores a proctor.yml that is not at the root', async () => {
    const repo = gitRepo()
    writeFileSync(join(repo, 'packages', 'app', 'proctor.yml'), 'max_stop_rounds: 8\n')
    const loaded = await loadConfig({ cwd: join(repo, 'packages', 'app') })
    expect(loaded).toMatchObject({ source: 'defaults', file: null })
    expect(loaded.config.max_stop_rounds).toBe(3)
  })

  it('outside a repository, reads proctor.yml in the current directory', async () => {
    expect(findRepoRoot(dir)).toBeNull() // the temp dir must not sit inside some repository
    writeFileSync(join(dir, 'proctor.yml'), 'max_stop_rounds: 6\n')
    const loaded = await loadConfig({ cwd: dir })
    expect(loaded).toMatchObject({ source: 'file', file: join(dir, 'proctor.yml') })
    expect(loaded.config.max_stop_rounds).toBe(6)
  })

  it('no file means defaults', async () => {
    const loaded = await loadConfig({ cwd: gitRepo() })
    expect(loaded).toMatchObject({ source: 'defaults', file: null, warnings: [] })
    expect(loaded.config.timeouts.total).toBe(30 * 60_000)
  })

  it('names the file relative to where the user stands in error messages', async () => {
    const repo = gitRepo()
    writeFileSync(join(repo, 'proctor.yml'), 'agent:\n  comand: [x]\n')
    const error = await loadError({ cwd: join(repo, 'packages') })
    expect(error.message).toBe(
      '../proctor.yml:2:3 agent.comand: unknown key "comand" — did you mean "command"?',
    )
  })

  it('returns the warnings of the file', async () => {
    writeFileSync(join(dir, 'proctor.yml'), 'hooks_async_pool_size: 1000\n')
    const loaded = await loadConfig({ cwd: dir })
    expect(loaded.config.hooks_async_pool_size).toBe(100)
    expect(loaded.warnings).toEqual([
      'proctor.yml:1:24 hooks_async_pool_size: 1000 is outside 1–100; using 100',
    ])
  })
})

describe('-c picks another file', () => {
  it('reads the given file relative to cwd instead of proctor.yml', async () => {
    const repo = gitRepo()
    writeFileSync(join(repo, 'proctor.yml'), 'max_stop_rounds: 2\n')
    mkdirSync(join(repo, 'ci'))
    writeFileSync(join(repo, 'ci', 'nightly.yml'), 'max_stop_rounds: 10\n')
    const loaded = await loadConfig({ cwd: repo, file: 'ci/nightly.yml' })
    expect(loaded).toMatchObject({ source: 'file', file: join(repo, 'ci', 'nightly.yml') })
    expect(loaded.config.max_stop_rounds).toBe(10)
  })

  it('a missing -c file is an error, not defaults', async () => {
    const error = await loadError({ cwd: dir, file: 'nope.yml' })
    expect(error.message).toBe(
      'nope.yml: config file not found — check the path given with -c, or leave -c out to use proctor.yml at the repository root',
    )
    expect(error.exitCode).toBe(2)
  })

  it('a directory given to -c is an error', async () => {
    mkdirSync(join(dir, 'conf'))
    const error = await loadError({ cwd: dir, file: 'conf' })
    expect(error.message).toBe(
      'conf: the config file is a directory, not a regular file — give -c the path of a proctor.yml file',
    )
  })

  it('reports every problem of a bad file with its own name', async () => {
    const error = await loadError({
      cwd: fileURLToPath(new URL('../fixtures/config/', import.meta.url)),
      file: 'many-problems.yml',
    })
    expect(error.message.split('\n')).toEqual([
      'many-problems.yml:4:3 agent.comand: unknown key "comand" — did you mean "command"?',
      'many-problems.yml:6:10 timeouts.total: "5x" is not a duration; write it like 500ms, 30s, 10m, 1h or 1h30m',
      'many-problems.yml:8:18 checkpoints.max_file_size: "lots" is not a size; write it like 512KiB, 5MiB or 1GB (KiB/MiB/GiB are powers of 1024)',
      'many-problems.yml:9:9 checkpoints.push: expected one of auto, always, never, got a string ("sometimes")',
      'many-problems.yml:13:11 stop_hooks[1].name: duplicate stop hook name "tests" (also stop_hooks[0]) — each stop hook is reported as the check "proctor / <name>", so names must be unique',
      'many-problems.yml:18:14 hooks.stop[0].async: the stop event needs an answer, so it cannot run async; remove async or move the hook to session_end',
    ])
  })
})
