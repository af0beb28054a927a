// The git facts a checkpoint reads from disk instead of starting git (src/git/on-disk.ts), checked
// against what git itself answers, for every index version and for linked worktrees.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { readDetachedHead, readGitDirs, readIndexSummary, refMayExist } from '../../src/git/on-disk.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

function setup(): TempRepo {
  const repo = makeTempRepo({
    files: {
      'a.txt': 'a\n',
      'dir/b.txt': 'b\n',
      'dir/deeper/c.txt': 'c\n',
      [`${Array.from({ length: 12 }, (_, i) => String.fromCharCode(97 + i).repeat(200)).join('/')}/long.txt`]:
        'n\n',
    },
  })
  repos.push(repo)
  return repo
}

const index = (repo: TempRepo) => path.join(repo.dir, '.git', 'index')

describe('readIndexSummary', () => {
  for (const version of [2, 3, 4]) {
    it(`index v${version}: the cache-tree root while it is valid, and hidden entries`, () => {
      const repo = setup()
      repo.git(['update-index', '--index-version', String(version)])
      const head = repo.git(['rev-parse', 'HEAD^{tree}']).trim()
      repo.git(['write-tree'])
      expect(readIndexSummary(index(repo), 20)).toEqual({ hidden: false, tree: head, cacheTree: head })

      repo.write('a.txt', 'staged\n')
      repo.git(['add', 'a.txt'])
      expect(readIndexSummary(index(repo), 20)?.tree).not.toBe(head)

      repo.git(['update-index', '--assume-unchanged', 'dir/b.txt'])
      expect(readIndexSummary(index(repo), 20)?.hidden).toBe(true)
      repo.git(['update-index', '--no-assume-unchanged', 'dir/b.txt'])
      if (version >= 3) {
        repo.git(['update-index', '--skip-worktree', 'dir/deeper/c.txt'])
        expect(readIndexSummary(index(repo), 20)?.hidden).toBe(true)
      }
    })
  }

  it('with untracked-cache data the file is not plain, but its cache-tree still names the tree it holds', () => {
    const repo = setup()
    const head = repo.git(['rev-parse', 'HEAD^{tree}']).trim()
    repo.git(['config', 'core.untrackedCache', 'true'])
    repo.git(['update-index', '--untracked-cache'])
    repo.git(['write-tree'])
    repo.git(['status', '--porcelain'])
    expect(fs.readFileSync(index(repo)).includes('UNTR')).toBe(true)
    expect(readIndexSummary(index(repo), 20)).toEqual({ hidden: false, tree: null, cacheTree: head })
  })

  it('an intent-to-add entry leaves no tree to rely on; a file that is not an index reads as null', () => {
    const repo = setup()
    repo.git(['write-tree'])
    repo.write('new.txt', 'new\n')
    repo.git(['add', '-N', 'new.txt'])
    expect(readIndexSummary(index(repo), 20)?.tree ?? null).toBeNull()
    repo.write('not-an-index', 'hello')
    expect(readIndexSummary(path.join(repo.dir, 'not-an-index'), 20)).toBeNull()
    expect(readIndexSummary(path.join(repo.dir, 'missing'), 20)).toBeNull()
  })
})

describe('readGitDirs', () => {
  it('matches rev-parse in the main worktree and a linked one; a moved worktree is left to git', () => {
    const repo = setup()
    const linked = `${repo.dir}-linked`
    repo.git(['worktree', 'add', '-q', '--detach', linked])
    try {
      for (const dir of [repo.dir, linked]) {
        const [gitDir, commonDir] = repo
          .git(['-C', dir, 'rev-parse', '--absolute-git-dir', '--git-common-dir'])
          .trim()
          .split('\n')
        expect(readGitDirs(dir)).toEqual({ gitDir, commonDir: path.resolve(dir, commonDir!) })
      }
      repo.git(['config', 'core.worktree', repo.dir])
      expect(readGitDirs(repo.dir)).toBeNull()
    } finally {
      fs.rmSync(linked, { recursive: true, force: true })
    }
  })
})

describe('seeding from the user index', () => {
  it("records the worktree against HEAD whatever the user staged, and leaves the user's index as it was", async () => {
    const repo = setup()
    repo.git(['write-tree'])
    // Staged, then undone in the worktree: not a change against HEAD.
    repo.write('a.txt', 'staged only\n')
    repo.git(['add', 'a.txt'])
    repo.write('a.txt', 'a\n')
    // Intent to add, and a hidden entry whose file did change.
    repo.write('new.txt', 'new\n')
    repo.git(['add', '-N', 'new.txt'])
    repo.git(['update-index', '--assume-unchanged', 'dir/b.txt'])
    repo.write('dir/b.txt', 'changed behind assume-unchanged\n')
    const before = fs.readFileSync(index(repo))
    const store = new CheckpointStore({
      git: new Git({ cwd: repo.dir, env: repo.env }),
      session: 'seed',
      maxFileSize: 1 << 20,
    })
    try {
      const record = await store.create('test')
      expect(record?.files_changed.sort()).toEqual(['dir/b.txt', 'new.txt'])
      expect(repo.git(['show', `${record!.sha}:a.txt`])).toBe('a\n')
      expect(repo.git(['show', `${record!.sha}:dir/b.txt`])).toBe('changed behind assume-unchanged\n')
    } finally {
      await store.close()
    }
    expect(fs.readFileSync(index(repo)).equals(before)).toBe(true)
  })
})

describe('core.attributesFile without a git process', () => {
  it('an LFS filter in core.attributesFile (repository or global config) still leaves the file out', async () => {
    for (const scope of ['repository', 'global'] as const) {
      const repo = setup()
      const attributes = path.join(repo.dir, '..', `${path.basename(repo.dir)}-attributes`)
      fs.writeFileSync(attributes, '*.bin filter=lfs diff=lfs merge=lfs -text\n')
      const globalConfig = path.join(repo.dir, '..', `${path.basename(repo.dir)}-gitconfig`)
      fs.writeFileSync(globalConfig, '')
      if (scope === 'repository') repo.git(['config', 'core.attributesFile', attributes])
      else fs.writeFileSync(globalConfig, `[core]\n\tattributesFile = ${attributes}\n`)
      repo.write('big.bin', 'binary\n')
      repo.write('a.txt', 'changed\n')
      const store = new CheckpointStore({
        git: new Git({ cwd: repo.dir, env: { ...repo.env, GIT_CONFIG_GLOBAL: globalConfig } }),
        session: `attributes-${scope}`,
        maxFileSize: 1 << 20,
      })
      try {
        const record = await store.create('test')
        expect(record?.skipped, scope).toEqual(['big.bin'])
        expect(record?.files_changed, scope).toEqual(['a.txt'])
      } finally {
        await store.close()
        fs.rmSync(attributes, { force: true })
        fs.rmSync(globalConfig, { force: true })
      }
    }
  })
})

describe('refMayExist', () => {
  it('agrees with git for a loose ref, a packed one and a missing one; a reftable repository may hold any', () => {
    const repo = setup()
    const common = path.join(repo.dir, '.git')
    const exists = (ref: string) => repo.git(['for-each-ref', '--format=%(refname)', ref]).trim() === ref
    expect(refMayExist(common, 'refs/proctor/s')).toBe(false)
    repo.git(['update-ref', 'refs/proctor/s', 'HEAD'])
    expect(exists('refs/proctor/s')).toBe(true)
    expect(refMayExist(common, 'refs/proctor/s')).toBe(true)
    repo.git(['pack-refs', '--all'])
    expect(fs.existsSync(path.join(common, 'refs', 'proctor', 's'))).toBe(false)
    expect(refMayExist(common, 'refs/proctor/s')).toBe(true)
    // A name that only ends like a packed one is not it.
    expect(refMayExist(common, 'refs/proctor/t')).toBe(false)
    expect(refMayExist(common, 'proctor/s')).toBe(false)
    repo.git(['update-ref', '-d', 'refs/proctor/s'])
    expect(exists('refs/proctor/s')).toBe(false)
    expect(refMayExist(common, 'refs/proctor/s')).toBe(false)
    fs.mkdirSync(path.join(common, 'reftable'))
    expect(refMayExist(common, 'refs/proctor/s')).toBe(true)
  })
})

describe('readDetachedHead', () => {
  it("agrees with git for a detached HEAD (a batch worktree's); a symbolic or missing HEAD is left to git", () => {
    const repo = setup()
    const gitDir = path.join(repo.dir, '.git')
    expect(readDetachedHead(gitDir)).toBeNull()
    const head = repo.git(['rev-parse', 'HEAD']).trim()
    repo.git(['checkout', '-q', '--detach'])
    expect(readDetachedHead(gitDir)).toBe(head)
    expect(readDetachedHead(path.join(repo.dir, 'missing'))).toBeNull()
  })
})

describe('files the agent replaced with a FIFO', () => {
  it('the index, HEAD, packed-refs and config read as "ask git" at once instead of blocking proctor', () => {
    const repo = setup()
    const detached = repo.git(['rev-parse', 'HEAD']).trim()
    const git = (name: string) => path.join(repo.dir, '.git', name)
    for (const name of ['proctor-index', 'packed-refs']) {
      fs.rmSync(git(name), { force: true })
      execFileSync('mkfifo', [git(name)])
    }
    expect(readIndexSummary(git('proctor-index'), 20)).toBeNull()
    expect(refMayExist(path.join(repo.dir, '.git'), 'refs/proctor/none')).toBe(true)
    fs.rmSync(git('config'))
    execFileSync('mkfifo', [git('config')])
    expect(readGitDirs(repo.dir)).toBeNull()
    fs.writeFileSync(git('HEAD'), `${detached}\n`)
    expect(readDetachedHead(path.join(repo.dir, '.git'))).toBe(detached)
    fs.rmSync(git('HEAD'))
    execFileSync('mkfifo', [git('HEAD')])
    expect(readDetachedHead(path.join(repo.dir, '.git'))).toBeNull()
  })
})
