import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { diffTrees } from '../../src/checkpoints/diff.js'
import { sanitizedGitEnv } from '../../src/git/env.js'
import { Git, GitError, RefMovedError } from '../../src/git/runner.js'
import { isolatedGitEnv, makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const NASTY = [
  'with space.txt',
  'new\nline.txt',
  'ünïcødé ✓.txt',
  '-leading-dash.txt',
  'tab\there.txt',
  '*glob[1].txt',
]

const repos: TempRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function repo(files?: Record<string, string>, commit = true): { repo: TempRepo; git: Git } {
  const r = makeTempRepo({ files: files ?? { 'README.md': 'hello\n' }, commit })
  repos.push(r)
  return { repo: r, git: new Git({ cwd: r.dir, env: r.env }) }
}

function privateIndex(): string {
  const dir = tempDir('proctor-idx-')
  dirs.push(dir)
  return path.join(dir, 'index')
}

describe('sanitized environment', () => {
  it('drops inherited variables that would redirect git to another repo or index', () => {
    const env = sanitizedGitEnv({
      PATH: '/bin',
      GIT_DIR: '/elsewhere/.git',
      GIT_WORK_TREE: '/elsewhere',
      GIT_INDEX_FILE: '/elsewhere/index',
      GIT_OBJECT_DIRECTORY: '/x',
      GIT_SSH_COMMAND: 'ssh -i key',
    })
    expect(env.GIT_DIR).toBeUndefined()
    expect(env.GIT_WORK_TREE).toBeUndefined()
    expect(env.GIT_INDEX_FILE).toBeUndefined()
    expect(env.GIT_OBJECT_DIRECTORY).toBeUndefined()
    expect(env.GIT_SSH_COMMAND).toBe('ssh -i key')
    expect(env.GIT_OPTIONAL_LOCKS).toBe('0')
    expect(env.GIT_TERMINAL_PROMPT).toBe('0')
  })

  it('ignores an inherited GIT_DIR/GIT_INDEX_FILE and works on the repository it was given', async () => {
    const decoy = makeTempRepo({ files: { 'decoy.txt': 'decoy\n' } })
    repos.push(decoy)
    const { repo: r } = repo({ 'real.txt': 'real\n' })
    const git = new Git({
      cwd: r.dir,
      env: {
        ...r.env,
        GIT_DIR: path.join(decoy.dir, '.git'),
        GIT_INDEX_FILE: path.join(decoy.dir, '.git/index'),
      },
    })
    expect(await git.lsFiles()).toEqual(['real.txt'])
    expect(await git.headCommit()).toBe(r.git(['rev-parse', 'HEAD']).trim())
  })
})

describe('NUL-separated parsing of unusual paths', () => {
  it('lists, stages and diffs paths with spaces, newlines, unicode, tabs, globs and leading dashes', async () => {
    const { repo: r, git } = repo()
    for (const name of NASTY) r.write(`dir/${name}`, `content of ${name}\n`)
    const untracked = await git.lsFiles({ others: true, excludeStandard: true })
    expect(untracked.sort()).toEqual(NASTY.map((n) => `dir/${n}`).sort())

    const status = await git.statusZ()
    expect(status.map((e) => e.path).sort()).toEqual(NASTY.map((n) => `dir/${n}`).sort())
    expect(status.every((e) => e.xy === '??')).toBe(true)

    const index = privateIndex()
    await git.readTree(index, 'HEAD')
    // Excluding the glob-looking name must exclude exactly that file, not everything it would match.
    await git.addAll(index, { exclude: ['dir/*glob[1].txt'] })
    const staged = (await git.lsFiles({ indexFile: index })).sort()
    expect(staged).toEqual(
      ['README.md', ...NASTY.filter((n) => n !== '*glob[1].txt').map((n) => `dir/${n}`)].sort(),
    )

    const tree = await git.writeTree(index)
    const changes = await diffTrees(git, 'HEAD', tree)
    expect(changes.map((c) => c.path).sort()).toEqual(
      NASTY.filter((n) => n !== '*glob[1].txt')
        .map((n) => `dir/${n}`)
        .sort(),
    )
    const dash = changes.find((c) => c.path === 'dir/-leading-dash.txt')!
    expect(dash).toMatchObject({
      status: 'A',
      oldMode: null,
      newMode: '100644',
      linesAdded: 1,
      linesDeleted: 0,
    })
    expect(dash.size).toBe(Buffer.byteLength('content of -leading-dash.txt\n'))
  })

  it('reports renames, deletions, mode changes, binaries and symlinks in diffTrees', async () => {
    const { repo: r, git } = repo({
      'old name.txt': 'line one\nline two\nline three\nline four\n',
      'gone.txt': 'bye\n',
      'script.sh': 'echo hi\n',
    })
    const base = r.git(['rev-parse', 'HEAD^{tree}']).trim()
    fs.renameSync(path.join(r.dir, 'old name.txt'), path.join(r.dir, 'new name.txt'))
    r.remove('gone.txt')
    fs.chmodSync(path.join(r.dir, 'script.sh'), 0o755)
    r.write('blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]))
    fs.symlinkSync('../outside', path.join(r.dir, 'link'))
    const index = privateIndex()
    await git.readTree(index, 'HEAD')
    await git.addAll(index)
    const changes = await diffTrees(git, base, await git.writeTree(index))
    const byPath = new Map(changes.map((c) => [c.path, c]))
    expect(byPath.get('new name.txt')).toMatchObject({ status: 'R', oldPath: 'old name.txt' })
    expect(byPath.get('gone.txt')).toMatchObject({ status: 'D', newMode: null, size: null })
    expect(byPath.get('script.sh')).toMatchObject({ status: 'M', oldMode: '100644', newMode: '100755' })
    expect(byPath.get('blob.bin')).toMatchObject({
      status: 'A',
      size: 6,
      linesAdded: null,
      linesDeleted: null,
    })
    expect(byPath.get('link')).toMatchObject({ status: 'A', newMode: '120000', symlinkTarget: '../outside' })
  })

  it('treats a null from-tree as the empty tree', async () => {
    const { git } = repo({ 'a.txt': 'a\n', 'b/c.txt': 'c\n' })
    const changes = await diffTrees(git, null, 'HEAD')
    expect(changes.map((c) => `${c.status} ${c.path}`).sort()).toEqual(['A a.txt', 'A b/c.txt'])
  })
})

describe('errors', () => {
  it('carry the argv, the exit code and the stderr tail', async () => {
    const { git } = repo()
    const error = await git.raw(['cat-file', '-p', 'no-such-object']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GitError)
    const gitError = error as GitError
    expect(gitError.args).toEqual(['cat-file', '-p', 'no-such-object'])
    expect(gitError.exitCode).toBe(128)
    expect(gitError.message).toContain('git cat-file -p no-such-object failed (exit code 128)')
    expect(gitError.message).toMatch(/not a valid object name|no-such-object/)
  })

  it('names the missing binary', async () => {
    const { repo: r } = repo()
    const git = new Git({ cwd: r.dir, binary: '/nonexistent/git' })
    await expect(git.raw(['status'])).rejects.toThrow(/is git installed and on PATH/)
  })

  it('returns null, not an error, for a revision that does not exist', async () => {
    const { git } = repo()
    expect(await git.revParse('refs/heads/nope')).toBeNull()
    expect(await git.revParse('--help')).toBeNull()
  })
})

describe('refs', () => {
  it('update-ref is a compare-and-swap: a moved ref is never overwritten', async () => {
    const { repo: r, git } = repo()
    const head = (await git.headCommit())!
    const tree = r.git(['rev-parse', 'HEAD^{tree}']).trim()
    const a = await git.commitTree(tree, [head], 'a')
    const b = await git.commitTree(tree, [head], 'b')
    await git.updateRefCas('refs/proctor/s1', a, null)
    await expect(git.updateRefCas('refs/proctor/s1', b, null)).rejects.toBeInstanceOf(RefMovedError)
    await expect(git.updateRefCas('refs/proctor/s1', b, head)).rejects.toThrow(/moved/)
    expect(await git.revParse('refs/proctor/s1')).toBe(a)
    await git.updateRefCas('refs/proctor/s1', b, a)
    expect(await git.revParse('refs/proctor/s1')).toBe(b)
  })

  it('readCommits: id, tree and the message as log prints it, for each revision; null for the rest', async () => {
    const { repo: r, git } = repo()
    const head = (await git.headCommit())!
    const tree = r.git(['rev-parse', 'HEAD^{tree}']).trim()
    const message = 'subject: ünïcode\n\nbody\n\nProctor-Seq: 3\n'
    const commit = await git.commitTree(tree, [head], message)
    await git.updateRefCas('refs/proctor/s2', commit, null)
    const read = await git.readCommits([
      'refs/proctor/s2^{commit}',
      'refs/proctor/missing^{commit}',
      'HEAD^{commit}',
      `${tree}^{commit}`,
      'HEAD^{tree}',
    ])
    expect(read).toEqual([
      { oid: commit, tree, message: r.git(['log', '-1', '--format=%B', commit]).replace(/\n$/, '') },
      null,
      { oid: head, tree, message: 'initial\n' },
      null,
      null,
    ])
    expect(read[0]!.message).toBe(message)
  })

  it('refuses to force-push', async () => {
    const { git } = repo()
    await expect(git.push('origin', ['+HEAD:refs/heads/x'])).rejects.toThrow(/only fast-forwards/)
  })
})

describe('identity', () => {
  it('falls back to proctor <proctor@localhost> only when the user has no identity', async () => {
    const r = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    repos.push(r)
    const bare = isolatedGitEnv()
    for (const key of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'])
      delete bare[key]
    const tree = r.git(['rev-parse', 'HEAD^{tree}']).trim()

    const anonymous = new Git({ cwd: r.dir, env: bare })
    const c1 = await anonymous.commitTree(tree, [], 'x')
    expect(r.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>', c1]).trim()).toBe(
      'proctor <proctor@localhost>|proctor <proctor@localhost>',
    )

    r.git(['config', 'user.name', 'Real Person'])
    r.git(['config', 'user.email', 'real@example.com'])
    const named = new Git({ cwd: r.dir, env: bare })
    const c2 = await named.commitTree(tree, [], 'y')
    expect(r.git(['log', '-1', '--format=%an <%ae>', c2]).trim()).toBe('Real Person <real@example.com>')
  })
})

describe('environment', () => {
  it('passes an inherited GIT_SSH_COMMAND to git (nothing strips it)', async () => {
    const r = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    repos.push(r)
    const git = new Git({
      cwd: r.dir,
      env: { ...r.env, GIT_SSH_COMMAND: 'echo inherited-ssh-command-ran >&2; false' },
    })
    const result = await git.fetch('ssh://example.invalid/repo.git', ['main']).catch((e: unknown) => e)
    expect(result).toBeInstanceOf(GitError)
    expect((result as GitError).stderr).toContain('inherited-ssh-command-ran')
  })

  it('applies GIT_INDEX_FILE per call only, even when another one was inherited', async () => {
    const decoyIndex = path.join(tempDir('proctor-decoy-'), 'index')
    dirs.push(path.dirname(decoyIndex))
    const r = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    repos.push(r)
    const git = new Git({ cwd: r.dir, env: { ...r.env, GIT_INDEX_FILE: decoyIndex } })
    r.write('b.txt', 'b\n')
    const index = privateIndex()
    await git.readTree(index, 'HEAD')
    await git.addAll(index)
    expect(await git.lsFiles({ indexFile: index })).toEqual(['a.txt', 'b.txt'])
    expect(await git.lsFiles()).toEqual(['a.txt'])
    expect(fs.existsSync(decoyIndex)).toBe(false)
  })
})
