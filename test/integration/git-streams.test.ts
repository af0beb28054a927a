// The session's long-lived git processes: commit objects through `hash-object --stdin-paths` must be
// byte-for-byte what `git commit-tree` makes, ref updates through `update-ref --stdin` keep their
// compare-and-swap, a dead or too-old git falls back to one-shot calls, and an unclosed stream never
// keeps proctor alive.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

import { CommitWriter } from '../../src/git/commit-writer.js'
import { RefUpdater } from '../../src/git/ref-updater.js'
import { Git, RefMovedError } from '../../src/git/runner.js'
import { isolatedGitEnv, makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const repos: TempRepo[] = []
const dirs: string[] = []
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  for (const repo of repos.splice(0)) repo.cleanup()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function setup(env: NodeJS.ProcessEnv = isolatedGitEnv(), binary?: string) {
  const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
  repos.push(repo)
  const git = new Git({ cwd: repo.dir, env, ...(binary ? { binary } : {}) })
  const run = (args: string[], input?: string) =>
    execFileSync('git', args, { cwd: repo.dir, env, encoding: 'utf8', input }).trim()
  const scratch = path.join(repo.dir, '.git', 'commit-scratch')
  const commits = new CommitWriter(git, scratch)
  const refs = new RefUpdater(git, 'proctor checkpoint')
  closers.push(
    () => commits.close(),
    () => refs.close(),
  )
  return {
    repo,
    git,
    run,
    commits,
    refs,
    tree: run(['rev-parse', 'HEAD^{tree}']),
    head: run(['rev-parse', 'HEAD']),
  }
}

/** A git that behaves like one without `update-ref --stdin` transactions and whose hash-object dies. */
function brokenGit(): string {
  const dir = tempDir('proctor-fake-git-')
  dirs.push(dir)
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  const file = path.join(dir, 'git')
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      'case " $* " in',
      '  *" update-ref "*" --stdin "*) head -c 5 >/dev/null; echo "fatal: unknown command: start" >&2; exit 128 ;;',
      '  *" --stdin-paths "*) read line; exit 1 ;;',
      'esac',
      `exec "${real}" "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  )
  return file
}

const MESSAGE = 'proctor checkpoint 1 (manual): 1 file\n\nProctor-Session: s\nProctor-Note: ünïcødé ✓\n'

describe('CommitWriter', () => {
  it('writes the same commit as git commit-tree (pinned dates, user identity)', async () => {
    const env = isolatedGitEnv({
      GIT_AUTHOR_DATE: '1700000000 +0200',
      GIT_COMMITTER_DATE: '1700000100 -0530',
    })
    const { commits, run, tree, head } = setup(env)
    for (const message of [MESSAGE, 'no trailing newline']) {
      const ours = await commits.commit(tree, [head], message)
      const theirs = run(['commit-tree', tree, '-p', head, '-F', '-'], message)
      expect(ours).toBe(theirs)
    }
    // A root commit (no parent) too.
    expect(await commits.commit(tree, [], MESSAGE)).toBe(run(['commit-tree', tree, '-F', '-'], MESSAGE))
  })

  it('stamps each commit with the time it is made, in the same time zone as git', async () => {
    const { commits, run, tree, head } = setup()
    const before = Math.floor(Date.now() / 1000)
    const ours = await commits.commit(tree, [head], MESSAGE)
    const after = Math.ceil(Date.now() / 1000)
    const reference = run(['commit-tree', tree, '-p', head, '-F', '-'], MESSAGE)
    const [ourDate, ourZone] = run(['log', '-1', '--format=%ad', '--date=raw', ours]).split(' ')
    const [, gitZone] = run(['log', '-1', '--format=%ad', '--date=raw', reference]).split(' ')
    expect(Number(ourDate)).toBeGreaterThanOrEqual(before)
    expect(Number(ourDate)).toBeLessThanOrEqual(after)
    expect(ourZone).toBe(gitZone)
    expect(run(['log', '-1', '--format=%an <%ae>|%cn <%ce>', ours])).toBe(
      'Test User <test@example.com>|Test User <test@example.com>',
    )
  })

  it("falls back to proctor's identity when git has none", async () => {
    const env = isolatedGitEnv()
    for (const key of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']) {
      delete env[key]
    }
    env.EMAIL = ''
    const { commits, run, tree, head } = setup(env)
    const sha = await commits.commit(tree, [head], MESSAGE)
    expect(run(['log', '-1', '--format=%an <%ae>|%cn <%ce>', sha])).toBe(
      'proctor <proctor@localhost>|proctor <proctor@localhost>',
    )
  })

  it('keeps making commits with git commit-tree when its process dies', async () => {
    const env = isolatedGitEnv({
      GIT_AUTHOR_DATE: '1700000000 +0000',
      GIT_COMMITTER_DATE: '1700000000 +0000',
    })
    const { commits, run, tree, head } = setup(env, brokenGit())
    const first = await commits.commit(tree, [head], MESSAGE)
    const second = await commits.commit(tree, [first], 'second\n')
    expect(first).toBe(run(['commit-tree', tree, '-p', head, '-F', '-'], MESSAGE))
    expect(run(['log', '--format=%s', second])).toBe('second\nproctor checkpoint 1 (manual): 1 file\ninitial')
  })
})

describe('RefUpdater', () => {
  it('creates and moves a ref with compare-and-swap, and refuses when someone else moved it', async () => {
    const { refs, run, tree, head } = setup()
    const c1 = run(['commit-tree', tree, '-p', head, '-m', 'c1'])
    const c2 = run(['commit-tree', tree, '-p', c1, '-m', 'c2'])
    const c3 = run(['commit-tree', tree, '-p', c2, '-m', 'c3'])
    await refs.updateCas('refs/proctor/s', c1, null)
    await refs.updateCas('refs/proctor/s', c2, c1)
    expect(run(['rev-parse', 'refs/proctor/s'])).toBe(c2)

    // Another process moves the ref behind our back: the stale update must not overwrite it.
    run(['update-ref', 'refs/proctor/s', c3])
    await expect(refs.updateCas('refs/proctor/s', c1, c2)).rejects.toBeInstanceOf(RefMovedError)
    expect(run(['rev-parse', 'refs/proctor/s'])).toBe(c3)
    // "Only if it does not exist" on an existing ref is a lost race too.
    await expect(refs.updateCas('refs/proctor/s', c1, null)).rejects.toBeInstanceOf(RefMovedError)

    // The updater carries on with a fresh process after a lost race.
    await refs.updateCas('refs/proctor/s', c1, c3)
    expect(run(['rev-parse', 'refs/proctor/s'])).toBe(c1)
  })

  it('falls back to one update-ref per update on a git without transactions', async () => {
    const { refs, run, tree, head } = setup(isolatedGitEnv(), brokenGit())
    const c1 = run(['commit-tree', tree, '-p', head, '-m', 'c1'])
    const c2 = run(['commit-tree', tree, '-p', c1, '-m', 'c2'])
    await refs.updateCas('refs/proctor/s', c1, null)
    await refs.updateCas('refs/proctor/s', c2, c1)
    expect(run(['rev-parse', 'refs/proctor/s'])).toBe(c2)
    await expect(refs.updateCas('refs/proctor/s', c1, c1)).rejects.toBeInstanceOf(RefMovedError)
  })
})

describe('a git that cannot start', () => {
  it('fails the commit and the ref update with the reason instead of hanging', async () => {
    const { tree, head } = setup()
    const repo = repos[0]!
    const missing = new Git({ cwd: repo.dir, env: isolatedGitEnv(), binary: '/nonexistent/git' })
    const commits = new CommitWriter(missing, path.join(repo.dir, '.git', 'scratch-missing'))
    const refs = new RefUpdater(missing, 'r')
    closers.push(
      () => commits.close(),
      () => refs.close(),
    )
    await expect(commits.commit(tree, [head], 'm\n')).rejects.toThrow(/nonexistent\/git|ENOENT/)
    await expect(refs.updateCas('refs/proctor/x', head, null)).rejects.toThrow(/nonexistent\/git|ENOENT/)
  })
})

describe('an unclosed stream', () => {
  it('does not keep the process alive', async () => {
    const { repo } = setup()
    const script = path.join(repo.dir, '..', `unclosed-${process.pid}.mts`)
    dirs.push(script)
    fs.writeFileSync(
      script,
      [
        `import { Git } from ${JSON.stringify(path.join(ROOT, 'src/git/runner.ts'))}`,
        `import { CommitWriter } from ${JSON.stringify(path.join(ROOT, 'src/git/commit-writer.ts'))}`,
        `import { RefUpdater } from ${JSON.stringify(path.join(ROOT, 'src/git/ref-updater.ts'))}`,
        `const git = new Git({ cwd: ${JSON.stringify(repo.dir)} })`,
        `const tree = (await git.raw(['rev-parse', 'HEAD^{tree}'])).stdout.trim()`,
        `const sha = await new CommitWriter(git, ${JSON.stringify(path.join(repo.dir, '.git', 'scratch'))}).commit(tree, [], 'm\\n')`,
        `await new RefUpdater(git, 'r').updateCas('refs/proctor/unclosed', sha, null)`,
        `console.log(sha)`,
      ].join('\n'),
    )
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { ...isolatedGitEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    clearTimeout(timer)
    expect(code, out).toBe(0)
    const sha = out.trim().split('\n').pop()!
    expect(
      execFileSync('git', ['rev-parse', 'refs/proctor/unclosed'], { cwd: repo.dir, encoding: 'utf8' }).trim(),
    ).toBe(sha)
  })
})
