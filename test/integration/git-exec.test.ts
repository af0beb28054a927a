import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { execFileSync } from 'node:child_process'

import { GitDeadline } from '../../src/git/deadline.js'
import { BASE_CONFIG, sanitizedGitEnv } from '../../src/git/env.js'
import { GitError } from '../../src/git/errors.js'
import { runGit, runGitSync, type GitInvocation } from '../../src/git/exec.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'

const repos: TempRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function repo(): TempRepo {
  const r = makeTempRepo({ files: { 'README.md': 'hello\n' } })
  repos.push(r)
  return r
}

/** A call the way the runner makes it: sanitized env, our -c settings, errors naming only `argv`. */
function call(r: TempRepo, argv: string[], extra: Partial<GitInvocation> = {}): GitInvocation {
  return {
    binary: 'git',
    cwd: r.dir,
    env: sanitizedGitEnv(r.env),
    config: BASE_CONFIG,
    argv,
    args: argv,
    ...extra,
  }
}

// The same contract whether git runs alongside the event loop or, for a one-shot command, to completion
// before the call returns (runGitSync).
for (const [name, run] of [
  ['runGit', runGit],
  ['runGitSync', runGitSync],
] as const) {
  describe(`${name} output`, () => {
    it('returns stdout as the exact bytes of a binary blob, however large', async () => {
      const r = repo()
      const blob = Buffer.alloc(3 * 1024 * 1024 + 7)
      for (let i = 0; i < blob.length; i++) blob[i] = (i * 131) % 256
      const id = (await run(call(r, ['hash-object', '-w', '--stdin'], { input: blob }))).stdout
        .toString()
        .trim()
      const result = await run(call(r, ['cat-file', 'blob', id]))
      expect(result.exitCode).toBe(0)
      expect(result.stdout.equals(blob)).toBe(true)
    })

    it('always closes stdin, so a command that reads it never waits for more', async () => {
      const r = repo()
      for (const input of [undefined, '', Buffer.alloc(0)]) {
        const result = await run(call(r, ['hash-object', '--stdin'], input === undefined ? {} : { input }))
        expect(result.stdout.toString().trim()).toBe(EMPTY_BLOB)
      }
    })

    it('completes commands that print nothing, with their effect visible', async () => {
      const r = repo()
      const result = await run(call(r, ['update-ref', 'refs/proctor/t', 'HEAD']))
      expect(result).toEqual({ stdout: Buffer.alloc(0), stderr: '', exitCode: 0 })
      expect(r.git(['rev-parse', 'refs/proctor/t'])).toBe(r.git(['rev-parse', 'HEAD']))
    })
  })

  describe(`${name} exit codes and errors`, () => {
    it('treats an allowed exit code as an answer and any other as a GitError', async () => {
      const r = repo()
      const argv = ['rev-parse', '--verify', '--quiet', 'refs/heads/nope']
      expect(await run(call(r, argv, { okExitCodes: [1] }))).toMatchObject({ exitCode: 1 })
      const error = await run(call(r, argv)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(GitError)
      expect(error).toMatchObject({ exitCode: 1, signal: null })
    })

    it('names the caller’s command (not our -c settings), the exit code and the stderr tail', async () => {
      const r = repo()
      const error = (await run(call(r, ['cat-file', '-p', 'no-such-object'])).catch(
        (e: unknown) => e,
      )) as GitError
      expect(error).toBeInstanceOf(GitError)
      expect(error.args).toEqual(['cat-file', '-p', 'no-such-object'])
      expect(error.cwd).toBe(r.dir)
      expect(error.exitCode).toBe(128)
      expect(error.stderr).toMatch(/no-such-object/)
      expect(error.message).toMatch(/^git cat-file -p no-such-object failed \(exit code 128\) in /)
      expect(error.message).not.toContain('core.hooksPath')
    })

    it('explains a missing git binary', async () => {
      const r = repo()
      const error = (await run(call(r, ['status'], { binary: '/nonexistent/git' })).catch(
        (e: unknown) => e,
      )) as GitError
      expect(error).toBeInstanceOf(GitError)
      expect(error.exitCode).toBeNull()
      expect(error.message).toContain('could not run git status')
      expect(error.message).toContain('is git installed and on PATH? looked for "/nonexistent/git"')
      expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT')
    })

    it('explains a working directory that does not exist', async () => {
      const r = repo()
      const missing = path.join(r.dir, 'gone')
      await expect(run(call(r, ['status'], { cwd: missing }))).rejects.toThrow(
        new RegExp(`could not run git status in ${missing}: .*does not exist`),
      )
    })

    it('kills git at the deadline and says so', async () => {
      const r = repo()
      // A held ref lock plus a long lock timeout keeps update-ref retrying inside git itself.
      fs.writeFileSync(path.join(r.dir, '.git/refs/heads/locked.lock'), '')
      const argv = ['update-ref', 'refs/heads/locked', 'HEAD']
      const error = (await run(
        call(r, argv, { config: [...BASE_CONFIG, 'core.filesRefLockTimeout=600000'], timeoutMs: 300 }),
      ).catch((e: unknown) => e)) as GitError
      expect(error).toBeInstanceOf(GitError)
      expect(error.message).toMatch(
        /^git update-ref refs\/heads\/locked HEAD timed out after 300 ms and was killed/,
      )
      expect(error.exitCode).toBeNull()
      expect(r.git(['for-each-ref', 'refs/heads/locked'])).toBe('')
    }, 30_000)
  })
}

describe('runGit deadline (issue 28: a FIFO where git reads)', () => {
  it('a git blocked on a FIFO .gitignore is killed when the deadline moves closer while it runs', async () => {
    const r = repo()
    execFileSync('mkfifo', [path.join(r.dir, '.gitignore')])
    const deadline = new GitDeadline(60_000, 100)
    const started = Date.now()
    const running = runGit(call(r, ['ls-files', '-z', '--others', '--exclude-standard'], { deadline }))
    const outcome = running.catch((e: unknown) => e)
    // SIGTERM's cut: the end moves from nothing to now, and the git already running follows it.
    setImmediate(() => deadline.shorten(Date.now() + 200))
    const error = (await outcome) as GitError
    expect(error).toBeInstanceOf(GitError)
    expect(error.timedOut).toBe(true)
    expect(error.message).toMatch(/^git ls-files .* timed out after \d+ ms and was killed/)
    expect(Date.now() - started).toBeLessThan(10_000)
    // Killed, not left behind: nothing holds the FIFO open for reading any more.
    expect(() =>
      fs.openSync(path.join(r.dir, '.gitignore'), fs.constants.O_WRONLY | fs.constants.O_NONBLOCK),
    ).toThrow(/ENXIO/)
  }, 30_000)
})

describe('runGit environment', () => {
  it('passes the whole environment, guarded variables included, to git', async () => {
    const r = repo()
    const env = sanitizedGitEnv({
      ...r.env,
      GIT_EDITOR: 'my-editor --wait',
      PAGER: 'my-pager',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'proctor.fromenv',
      GIT_CONFIG_VALUE_0: 'yes',
      GIT_SSH_COMMAND: 'echo ssh-command-reached >&2; false',
    })
    const base = { env }
    expect((await runGit(call(r, ['var', 'GIT_EDITOR'], base))).stdout.toString()).toBe('my-editor --wait\n')
    expect((await runGit(call(r, ['config', 'proctor.fromenv'], base))).stdout.toString()).toBe('yes\n')
    expect((await runGit(call(r, ['var', 'GIT_AUTHOR_IDENT'], base))).stdout.toString()).toMatch(
      /^Test User <test@example.com> /,
    )
    const ssh = (await runGit(call(r, ['ls-remote', 'ssh://example.invalid/repo.git'], base)).catch(
      (e: unknown) => e,
    )) as GitError
    expect(ssh.stderr).toContain('ssh-command-reached')
  })

  it('uses GIT_INDEX_FILE for that call only, leaving the user’s index alone', async () => {
    const r = repo()
    const userIndex = fs.readFileSync(path.join(r.dir, '.git/index'))
    const dir = tempDir('proctor-idx-')
    dirs.push(dir)
    const index = path.join(dir, 'index')
    const env = { ...sanitizedGitEnv(r.env), GIT_INDEX_FILE: index }
    r.write('new.txt', 'new\n')
    await runGit(call(r, ['read-tree', 'HEAD'], { env }))
    await runGit(call(r, ['add', '-A'], { env }))
    expect((await runGit(call(r, ['ls-files'], { env }))).stdout.toString()).toBe('README.md\nnew.txt\n')
    expect((await runGit(call(r, ['ls-files']))).stdout.toString()).toBe('README.md\n')
    expect(fs.readFileSync(path.join(r.dir, '.git/index')).equals(userIndex)).toBe(true)
  })
})

describe('debug logging', () => {
  it('never prints the environment (tokens) even with DEBUG=* set', async () => {
    const { spawnSync } = await import('node:child_process')
    const script = [
      "import { Git } from './src/git/runner.ts'",
      "const git = new Git({ cwd: '.', env: { ...process.env, GITHUB_TOKEN: 'ghp_leakcheck0123456789abcdef' } })",
      "await git.raw(['rev-parse', '--is-inside-work-tree'])",
    ].join('\n')
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, DEBUG: '*' },
      encoding: 'utf8',
    })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr + run.stdout).not.toContain('ghp_leakcheck')
  })
})
