// How many git processes a checkpoint starts. Each one is a fork of proctor's whole process (tens of MB
// of page tables copied, the event loop blocked meanwhile), so on a busy machine the count, not git's own
// work, sets what a one-shot `proctor checkpoints create` or a batch child costs (issue 17). Counted
// with a `git` on PATH that logs each call and runs the real one.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Command } from 'commander'

import { registerCheckpointsCommand } from '../../src/cli/commands/checkpoints.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { Git } from '../../src/git/runner.js'
import { configSchema } from '../../src/config/schema.js'
import { runBatch } from '../../src/batch/batch.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import { writeGitLogger } from '../helpers/git-logger.js'

const repos: TempRepo[] = []
let bin = ''
let log = ''
const savedPath = process.env.PATH
const savedLog = process.env.PROCTOR_TEST_GIT_LOG
const isolated = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test User',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test User',
  GIT_COMMITTER_EMAIL: 'test@example.com',
}
const saved = new Map<string, string | undefined>()

beforeAll(() => {
  bin = tempDir('proctor-git-counter-')
  log = path.join(bin, 'calls.log')
  writeGitLogger(bin)
  process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`
  // The machine's own git config must not decide the count (an include there means one `git config` more);
  // the user has an identity (without one, proctor probes for it and falls back to its own).
  for (const [key, value] of Object.entries(isolated)) {
    saved.set(key, process.env[key])
    process.env[key] = value
  }
  process.env.PROCTOR_TEST_GIT_LOG = log
})

afterAll(() => {
  process.env.PATH = savedPath
  for (const [key, value] of saved) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  if (savedLog === undefined) delete process.env.PROCTOR_TEST_GIT_LOG
  else process.env.PROCTOR_TEST_GIT_LOG = savedLog
  fs.rmSync(bin, { recursive: true, force: true })
})

afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

/** The git processes started by `work`, by subcommand. */
async function gitCalls(work: () => Promise<unknown>): Promise<string[]> {
  fs.writeFileSync(log, '')
  await work()
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
}

function setup(): TempRepo {
  const files: Record<string, string> = {}
  for (let i = 0; i < 20; i++) files[`src/file${i}.ts`] = `export const v${i} = ${i}\n`
  const repo = makeTempRepo({ files })
  repos.push(repo)
  return repo
}

describe('git processes per checkpoint', () => {
  it('a one-shot `proctor checkpoints create` starts 6: config, status, update-index, write-tree, commit-tree, update-ref (raw plumbing: 4)', async () => {
    const repo = setup()
    repo.write('src/file3.ts', 'export const v3 = 33\n')
    const program = new Command().exitOverride()
    let out = ''
    registerCheckpointsCommand(program, { cwd: () => repo.dir, stdout: (t) => (out += t), stderr: () => {} })
    const calls = await gitCalls(() =>
      program.parseAsync(['checkpoints', 'create', '--session', 'count-1'], { from: 'user' }),
    )
    expect(out).toMatch(/^count-1@1 [0-9a-f]{12}: 1 file\(s\)/)
    expect(repo.git(['show', 'refs/proctor/count-1:src/file3.ts'])).toBe('export const v3 = 33\n')
    // One status names HEAD and lists the changes (it was a cat-file for HEAD and the chain, then ls-files).
    // The first, `config`, reads the user's config once for proctor's own (src/git/isolation.ts, issue 26).
    expect(calls).toEqual(['config', 'status', 'update-index', 'write-tree', 'commit-tree', 'update-ref'])
  })

  it("a one-shot create starts 6 also when the user's index carries untracked-cache data", async () => {
    const repo = setup()
    repo.git(['config', 'core.untrackedCache', 'true'])
    repo.git(['update-index', '--untracked-cache'])
    repo.git(['status', '--porcelain'])
    repo.write('src/file3.ts', 'export const v3 = 33\n')
    const program = new Command().exitOverride()
    registerCheckpointsCommand(program, { cwd: () => repo.dir, stdout: () => {}, stderr: () => {} })
    const calls = await gitCalls(() =>
      program.parseAsync(['checkpoints', 'create', '--session', 'count-untr'], { from: 'user' }),
    )
    expect(repo.git(['show', 'refs/proctor/count-untr:src/file3.ts'])).toBe('export const v3 = 33\n')
    // HEAD's tree comes from the index's cache-tree: no rev-parse for it.
    expect(calls).toEqual(['config', 'status', 'update-index', 'write-tree', 'commit-tree', 'update-ref'])
  })

  it("a session's first checkpoint that opens the store itself starts 6, the ref updater among them", async () => {
    const repo = setup()
    const store = new CheckpointStore({
      git: new Git({ cwd: repo.dir, env: repo.env }),
      session: 'count-first',
      maxFileSize: 1 << 20,
    })
    try {
      repo.write('src/file3.ts', 'export const v3 = 33\n')
      const calls = await gitCalls(() => store.create('test'))
      expect(repo.git(['show', 'refs/proctor/count-first:src/file3.ts'])).toBe('export const v3 = 33\n')
      // (a session's runner has read `config` before its agent started; this store's runner is new)
      expect(calls.sort()).toEqual([
        'commit-tree',
        'config',
        'status',
        'update-index',
        'update-ref',
        'write-tree',
      ])
    } finally {
      await store.close()
    }
  })

  it('a one-shot create into an existing session starts 8: one cat-file reads HEAD and the chain tip, message included', async () => {
    const repo = setup()
    const create = async (value: number): Promise<string[]> => {
      const program = new Command().exitOverride()
      registerCheckpointsCommand(program, { cwd: () => repo.dir, stdout: () => {}, stderr: () => {} })
      repo.write('src/file3.ts', `export const v3 = ${value}\n`)
      return gitCalls(() =>
        program.parseAsync(['checkpoints', 'create', '--session', 'count-again'], { from: 'user' }),
      )
    }
    await create(1)
    const calls = await create(2)
    expect(repo.git(['rev-list', '--count', 'refs/proctor/count-again', '^HEAD']).trim()).toBe('2')
    // The chain tip's message (its seq and base) came from a `log` of its own before.
    expect(calls).toEqual([
      'config',
      'cat-file',
      'read-tree',
      'status',
      'update-index',
      'write-tree',
      'commit-tree',
      'update-ref',
    ])
  })

  it("a session's later checkpoints start 3 (listing, update-index, write-tree), an unchanged one 1", async () => {
    const repo = setup()
    const store = new CheckpointStore({
      git: new Git({ cwd: repo.dir, env: repo.env }),
      session: 'count-2',
      maxFileSize: 1 << 20,
    })
    try {
      for (let round = 0; round < 2; round++) {
        repo.write('src/file1.ts', `export const v1 = ${round}\n`)
        expect(await store.create('test')).not.toBeNull()
      }
      repo.write('src/file2.ts', 'export const v2 = 22\n')
      expect(await gitCalls(() => store.create('test'))).toEqual(['status', 'update-index', 'write-tree'])
      expect(await gitCalls(() => store.create('test'))).toEqual(['status'])
    } finally {
      await store.close()
    }
  })
})

describe('a synchronous runner (what a one-shot `checkpoints create` uses)', () => {
  it('starts no long-lived git: every checkpoint is its own five processes, each run to completion', async () => {
    const repo = setup()
    const store = new CheckpointStore({
      git: new Git({ cwd: repo.dir, env: repo.env, synchronous: true }),
      session: 'count-sync',
      maxFileSize: 1 << 20,
    })
    try {
      repo.write('src/file1.ts', 'export const v1 = 11\n')
      const first = await store.create('test')
      repo.write('src/file2.ts', 'export const v2 = 22\n')
      const calls = await gitCalls(() => store.create('test'))
      expect(calls).toEqual(['status', 'update-index', 'write-tree', 'commit-tree', 'update-ref'])
      expect(repo.git(['rev-parse', 'refs/proctor/count-sync^']).trim()).toBe(first!.sha)
      expect(repo.git(['show', 'refs/proctor/count-sync:src/file2.ts'])).toBe('export const v2 = 22\n')
    } finally {
      await store.close()
    }
  })
})

describe('git processes per batch child', () => {
  it('a batch with checkpoints starts at most 17 per child (28 before issue 17)', async () => {
    const repo = setup()
    const tasks = Array.from({ length: 4 }, (_, i) => ({
      name: `t${i}`,
      command: { shell: `echo task ${i} > out-${i}.txt` },
      role: null,
    }))
    let completed = 0
    const calls = await gitCalls(async () => {
      const outcome = await runBatch({
        config: configSchema.parse({ agent: { pty: false }, checkpoints: { enabled: true, push: 'never' } }),
        cwd: repo.dir,
        tasks,
        concurrency: 2,
        batchId: 'count',
        env: { ...process.env, ...repo.env, PATH: process.env.PATH },
      })
      completed = outcome.batch.completed_count
    })
    expect(completed).toBe(4)
    for (let i = 0; i < 4; i++) {
      expect(repo.git(['show', `refs/proctor/count-${i}-t${i}:out-${i}.txt`])).toBe(`task ${i}\n`)
    }
    expect(calls.length / tasks.length, calls.join(' ')).toBeLessThanOrEqual(17)
  })
})
