import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { parseCheckpointMessage } from '../../src/checkpoints/message.js'
import { CheckpointStore, type CheckpointStoreOptions } from '../../src/checkpoints/store.js'
import { readIndexSummary } from '../../src/git/on-disk.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, userState, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
const stores: CheckpointStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined)
  for (const repo of repos.splice(0)) repo.cleanup()
})

function setup(
  files: Record<string, string> = { 'README.md': 'hello\n', 'src/app.ts': 'export const a = 1\n' },
  commit = true,
): TempRepo {
  const repo = makeTempRepo({ files, commit })
  repos.push(repo)
  return repo
}

function open(repo: TempRepo, extra: Partial<CheckpointStoreOptions> = {}): CheckpointStore {
  const store = new CheckpointStore({
    git: new Git({ cwd: repo.dir, env: repo.env }),
    session: 'test-session',
    maxFileSize: 1024 * 1024,
    ...extra,
  })
  stores.push(store)
  return store
}

function filesAt(repo: TempRepo, commit: string): string[] {
  return repo
    .git(['ls-tree', '-r', '-z', '--name-only', commit])
    .split('\0')
    .filter((p) => p !== '')
    .sort()
}

function message(repo: TempRepo, commit: string): string {
  return repo.git(['log', '-1', '--format=%B', commit])
}

describe('CheckpointStore.create', () => {
  it('records the agent work as a commit on refs/proctor/<session> with subject and trailers', async () => {
    const repo = setup()
    const base = repo.git(['rev-parse', 'HEAD']).trim()
    repo.write('src/app.ts', 'export const a = 2\n')
    repo.write('src/new.ts', 'export const b = 1\n')
    const store = open(repo)
    const record = await store.create('interval')
    expect(record).not.toBeNull()
    expect(record!.seq).toBe(1)
    expect(record!.ref).toBe('refs/proctor/test-session')
    expect(record!.files_changed.sort()).toEqual(['src/app.ts', 'src/new.ts'])
    expect(repo.git(['rev-parse', 'refs/proctor/test-session']).trim()).toBe(record!.sha)
    expect(repo.git(['rev-parse', `${record!.sha}^`]).trim()).toBe(base)

    const text = message(repo, record!.sha)
    expect(text.split('\n')[0]).toBe('proctor checkpoint 1 (interval): 2 files')
    const trailers = repo.git(['interpret-trailers', '--parse'], { input: text })
    expect(trailers).toContain('Proctor-Session: test-session')
    expect(trailers).toContain('Proctor-Seq: 1')
    expect(trailers).toContain(`Proctor-Base: ${base}`)
    expect(trailers).toContain('Proctor-Trigger: interval')
    expect(trailers).toContain('Proctor-Violations: 0')
    expect(trailers).toContain('Proctor-Skipped: 0')
    expect(repo.git(['show', `${record!.sha}:src/app.ts`])).toBe('export const a = 2\n')
  })

  it('returns null when nothing changed, and chains later checkpoints on the previous one', async () => {
    const repo = setup()
    const store = open(repo)
    expect(await store.create('interval')).toBeNull()
    repo.write('one.txt', '1\n')
    const first = await store.create('interval')
    expect(await store.create('interval')).toBeNull()
    repo.write('two.txt', '2\n')
    const second = await store.create('event')
    expect(second!.seq).toBe(2)
    expect(second!.files_changed).toEqual(['two.txt'])
    expect(repo.git(['rev-parse', `${second!.sha}^`]).trim()).toBe(first!.sha)
  })

  it('records deletions and files with unusual names', async () => {
    const repo = setup({ 'keep.txt': 'k\n', 'delete me.txt': 'd\n' })
    const names = ['sp ace.txt', 'new\nline.txt', 'ünï ✓.txt', '-dash.txt', '*star[1].txt']
    for (const name of names) repo.write(`d/${name}`, name)
    repo.remove('delete me.txt')
    const record = await open(repo).create('manual')
    expect(filesAt(repo, record!.sha)).toEqual(['keep.txt', ...names.map((n) => `d/${n}`)].sort())
    expect(record!.files_changed).toContain('delete me.txt')
  })

  it('leaves out ignored files, .proctor/, oversized files and LFS-tracked files, listing the skipped ones', async () => {
    const repo = setup({
      '.gitignore': 'node_modules/\n*.log\n',
      '.gitattributes': '*.onnx filter=lfs diff=lfs -text\n',
    })
    repo.write('node_modules/pkg/index.js', 'x')
    repo.write('debug.log', 'x')
    repo.write('.proctor/sessions/s/report.json', '{}')
    repo.write('big.bin', Buffer.alloc(2 * 1024 * 1024, 1))
    repo.write('model.onnx', 'weights')
    repo.write('ok.txt', 'fine\n')
    const record = await open(repo).create('interval')
    expect(filesAt(repo, record!.sha)).toEqual(['.gitattributes', '.gitignore', 'ok.txt'])
    expect(record!.skipped.sort()).toEqual(['big.bin', 'model.onnx'])
    const parsed = parseCheckpointMessage(message(repo, record!.sha))
    expect(parsed.skippedCount).toBe(2)
    expect(parsed.skipped.sort()).toEqual(['big.bin', 'model.onnx'])
  })

  it('keeps a nested repository as a gitlink instead of copying its files', async () => {
    const repo = setup()
    const nested = path.join(repo.dir, 'vendor/lib')
    fs.mkdirSync(nested, { recursive: true })
    repo.git(['init', '-q', nested])
    fs.writeFileSync(path.join(nested, 'f.txt'), 'inner\n')
    repo.git(['-C', nested, 'add', '-A'])
    repo.git(['-C', nested, 'commit', '-q', '-m', 'inner'])
    const record = await open(repo).create('interval')
    const entry = repo.git(['ls-tree', record!.sha, 'vendor/lib'])
    expect(entry.startsWith('160000 commit')).toBe(true)
  })

  it('skips a nested repository without commits instead of failing every checkpoint', async () => {
    const repo = setup()
    repo.git(['init', '-q', path.join(repo.dir, 'empty-nested')])
    fs.writeFileSync(path.join(repo.dir, 'empty-nested/f.txt'), 'x\n')
    repo.write('ok.txt', 'ok\n')
    const record = await open(repo).create('interval')
    expect(filesAt(repo, record!.sha)).toContain('ok.txt')
    expect(record!.skipped).toEqual(['empty-nested'])
  })

  it('records a file that became a directory and back', async () => {
    const repo = setup({ thing: 'a file\n' })
    const store = open(repo)
    repo.remove('thing')
    repo.write('thing/inside.txt', 'now a dir\n')
    const first = await store.create('interval')
    expect(filesAt(repo, first!.sha)).toEqual(['thing/inside.txt'])
    repo.remove('thing')
    repo.write('thing', 'a file again\n')
    const second = await store.create('interval')
    expect(filesAt(repo, second!.sha)).toEqual(['thing'])
  })

  it('catches a same-size edit made right after seeding (racy-git)', async () => {
    const repo = setup({ 'a.txt': 'aaaa\n' })
    const store = open(repo)
    await store.open()
    repo.write('a.txt', 'bbbb\n')
    const record = await store.create('interval')
    expect(record).not.toBeNull()
    expect(repo.git(['show', `${record!.sha}:a.txt`])).toBe('bbbb\n')
    repo.write('a.txt', 'cccc\n')
    const again = await store.create('interval')
    expect(repo.git(['show', `${again!.sha}:a.txt`])).toBe('cccc\n')
  })

  it('does not count a file rewritten with the same content as changed', async () => {
    const repo = setup({ 'same.txt': 'same\n', 'edit.txt': 'one\n' })
    const store = open(repo)
    await store.open()
    const later = new Date(Date.now() + 60_000)
    repo.write('same.txt', 'same\n')
    fs.utimesSync(path.join(repo.dir, 'same.txt'), later, later)
    expect(await store.create('interval')).toBeNull()
    repo.write('edit.txt', 'two\n')
    const record = await store.create('interval')
    expect(record!.files_changed).toEqual(['edit.txt'])
    expect(record!.seq).toBe(1)
  })

  it('records the staged work of a checkpoint that failed, with no further change needed', async () => {
    const repo = setup()
    let failPolicy = true
    const store = open(repo, {
      validate: () => {
        if (failPolicy) throw new Error('policy crashed')
        return []
      },
    })
    repo.write('src/app.ts', 'export const a = 3\n')
    await expect(store.create('interval')).rejects.toThrow('policy crashed')
    failPolicy = false
    const record = await store.create('interval')
    expect(record).not.toBeNull()
    expect(record!.files_changed).toEqual(['src/app.ts'])
    expect(repo.git(['show', `${record!.sha}:src/app.ts`])).toBe('export const a = 3\n')
  })

  it('works on an unborn HEAD: the first checkpoint has no parent', async () => {
    const repo = setup({ 'a.txt': 'a\n' }, false)
    const record = await open(repo).create('interval')
    expect(repo.git(['rev-list', '--parents', '-n', '1', record!.sha]).trim()).toBe(record!.sha)
    expect(parseCheckpointMessage(message(repo, record!.sha)).base).toBeNull()
    expect(filesAt(repo, record!.sha)).toEqual(['a.txt'])
  })

  it('counts the violations the validate hook returns in the trailer', async () => {
    const repo = setup()
    repo.write('.github/workflows/x.yml', 'on: push\n')
    const store = open(repo, {
      validate: ({ seq, files }) =>
        files
          .filter((f) => f.path.startsWith('.github/'))
          .map((f) => ({
            checkpoint: seq,
            file: f.path,
            constraint: 'protected_areas',
            severity: 'error' as const,
            message: 'protected',
            suggestion: 'revert it',
          })),
    })
    const result = await store.createDetailed('interval')
    expect(result!.violations).toHaveLength(1)
    expect(result!.record.violations).toBe(1)
    expect(message(repo, result!.record.sha)).toContain('Proctor-Violations: 1')
  })

  it('withholds files the policy forbids: never in a tree, listed as skipped, judged from the disk', async () => {
    const repo = setup({ 'README.md': 'hello\n', 'secrets/old.txt': 'committed\n' })
    const seen: { withheld: string[]; files: string[] }[] = []
    const store = open(repo, {
      withhold: (p) =>
        p.startsWith('secrets/') ? 'in a forbidden area (policy.forbidden_areas "secrets/**")' : null,
      validate: (ctx) => {
        seen.push({
          withheld: ctx.withheld.map((f) => `${f.status} ${JSON.stringify(f.path)}`),
          files: ctx.files.map((f) => f.path),
        })
        return []
      },
    })
    repo.write('src/a.ts', 'a\n')
    repo.write('secrets/aws.txt', 'AKIAIOSFODNN7EXAMPLE\n')
    repo.write('secrets/new\nline', 'x\n')
    repo.write('secrets/old.txt', 'edited with a secret\n')
    const first = await store.createDetailed('interval')
    expect(filesAt(repo, first!.record.sha)).toEqual(['README.md', 'secrets/old.txt', 'src/a.ts'])
    expect(repo.git(['show', `${first!.record.sha}:secrets/old.txt`])).toBe('committed\n')
    expect(first!.record.skipped.sort()).toEqual(['secrets/aws.txt', 'secrets/new\nline', 'secrets/old.txt'])
    expect(message(repo, first!.record.sha)).toContain(
      'Skipped "secrets/aws.txt": in a forbidden area (policy.forbidden_areas "secrets/**"); its content stays out of checkpoints',
    )
    expect(seen[0]!.withheld.sort()).toEqual([
      'A "secrets/aws.txt"',
      'A "secrets/new\\nline"',
      'M "secrets/old.txt"',
    ])
    expect(repo.git(['cat-file', '--batch-all-objects', '--batch'])).not.toContain('AKIAIOSFODNN7EXAMPLE')
    expect(repo.read('secrets/aws.txt')).toBe('AKIAIOSFODNN7EXAMPLE\n') // untouched

    // Unchanged: no new checkpoint. Removing a forbidden file is one, even with the same tree.
    expect(await store.create('interval')).toBeNull()
    repo.remove('secrets/aws.txt')
    const second = await store.createDetailed('interval')
    expect(second).not.toBeNull()
    expect(second!.tree).toBe(first!.tree)
    expect(second!.withheld.map((f) => f.path).sort()).toEqual(['secrets/new\nline', 'secrets/old.txt'])
  })

  for (const synchronous of [false, true]) {
    it(`refuses to overwrite a ref another process created before the first commit (synchronous: ${synchronous})`, async () => {
      const repo = setup()
      const store = new CheckpointStore({
        git: new Git({ cwd: repo.dir, env: repo.env, synchronous }),
        session: 'test-session',
        maxFileSize: 1024 * 1024,
      })
      stores.push(store)
      await store.open()
      repo.git(['update-ref', 'refs/proctor/test-session', 'HEAD'])
      repo.write('x.txt', '1\n')
      await expect(store.create('interval')).rejects.toThrow(/moved by another process/)
      expect(repo.git(['rev-parse', 'refs/proctor/test-session']).trim()).toBe(
        repo.git(['rev-parse', 'HEAD']).trim(),
      )
    })
  }

  it('serializes concurrent calls: every change lands in exactly one checkpoint', async () => {
    const repo = setup()
    const store = open(repo)
    repo.write('x.txt', '1\n')
    const results = await Promise.all([store.create('a'), store.create('b'), store.create('c')])
    expect(results.filter((r) => r !== null)).toHaveLength(1)
  })

  it('refuses to overwrite the ref when something else moved it', async () => {
    const repo = setup()
    const store = open(repo)
    repo.write('x.txt', '1\n')
    await store.create('interval')
    repo.git(['update-ref', 'refs/proctor/test-session', 'HEAD'])
    repo.write('x.txt', '2\n')
    await expect(store.create('interval')).rejects.toThrow(/moved by another process/)
    expect(repo.git(['rev-parse', 'refs/proctor/test-session']).trim()).toBe(
      repo.git(['rev-parse', 'HEAD']).trim(),
    )
  })

  it('waits for min_interval between non-urgent checkpoints but not for final', async () => {
    const repo = setup()
    let clock = 1000
    const waits: number[] = []
    const store = open(repo, {
      minIntervalMs: 5000,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms)
        clock += ms
      },
    })
    repo.write('a.txt', '1')
    await store.create('interval')
    clock += 1000
    repo.write('a.txt', '2')
    await store.create('changes')
    expect(waits).toEqual([4000])
    repo.write('a.txt', '3')
    await store.create('final')
    expect(waits).toEqual([4000])
  })

  it('a final checkpoint never queues behind one waiting out min_interval: the waiting one gives way', async () => {
    const repo = setup()
    let clock = 1000
    // A spacing wait that only ends when the test says so: on the old code, final waited behind it forever.
    let endWait: () => void = () => undefined
    const store = open(repo, {
      minIntervalMs: 60_000,
      now: () => clock,
      sleep: () => new Promise<void>((resolve) => (endWait = resolve)),
    })
    repo.write('a.txt', '1')
    expect((await store.create('interval'))?.seq).toBe(1)
    clock += 1000
    repo.write('a.txt', '2')
    const changes = store.create('changes')
    repo.write('b.txt', 'b')
    const final = await store.create('final')
    expect(final?.seq).toBe(2)
    expect(final?.files_changed.sort()).toEqual(['a.txt', 'b.txt'])
    expect(await changes).toBeNull()
    endWait()
    // The chain holds exactly the two checkpoints.
    expect(repo.git(['rev-list', '--count', 'refs/proctor/test-session', '^HEAD']).trim()).toBe('2')
  })

  it('a session ending with nothing new: a checkpoint waiting out min_interval gives way at once', async () => {
    const repo = setup()
    let clock = 1000
    const store = open(repo, {
      minIntervalMs: 60_000,
      now: () => clock,
      // A spacing wait that never ends by itself: the end of the session must not wait for it.
      sleep: () => new Promise<void>(() => undefined),
    })
    repo.write('a.txt', '1')
    expect((await store.create('event'))?.seq).toBe(1)
    clock += 1000
    // Triggered by the exit's last file events, after the exit's checkpoint listed them.
    const changes = store.create('changes')
    // The final checkpoint is found needless (the watcher saw nothing since): what waits gives way.
    store.nothingMoreToRecord()
    expect(await changes).toBeNull()
    expect(repo.git(['rev-list', '--count', 'refs/proctor/test-session', '^HEAD']).trim()).toBe('1')
  })

  it('an urgent checkpoint (the one before the stop hooks) skips min_interval and a waiting one gives way', async () => {
    const repo = setup()
    let clock = 1000
    // On the old code the stop hooks' checkpoint ('event') slept out min_interval behind a triggered one.
    let endWait: () => void = () => undefined
    const store = open(repo, {
      minIntervalMs: 60_000,
      now: () => clock,
      sleep: () => new Promise<void>((resolve) => (endWait = resolve)),
    })
    repo.write('a.txt', '1')
    expect((await store.create('interval'))?.seq).toBe(1)
    clock += 1000
    repo.write('a.txt', '2')
    const changes = store.create('changes')
    const settled = await store.createDetailed('event', { urgent: true })
    expect(settled?.record.seq).toBe(2)
    expect(await changes).toBeNull()
    endWait()
  })

  it('pauses the agent for the snapshot and always resumes it', async () => {
    const repo = setup()
    const calls: string[] = []
    const store = open(repo, {
      pauser: { pause: () => calls.push('pause'), resume: () => calls.push('resume') },
    })
    repo.write('a.txt', '1')
    await store.create('interval')
    expect(calls).toEqual(['pause', 'resume'])
  })

  it('resumes an existing chain with the next sequence number', async () => {
    const repo = setup()
    const first = open(repo)
    repo.write('a.txt', '1')
    await first.create('interval')
    await first.close()
    const second = open(repo)
    repo.write('a.txt', '2')
    const record = await second.create('interval')
    expect(record!.seq).toBe(2)
  })
})

// The listing trusts stat data: a tracked file whose stat is unchanged is not read, and a directory whose stat
// is unchanged since the last listing is not read again (git's untracked cache, kept in the private index).
// An agent can set a file's or a directory's mtime back after writing, but not its ctime: the private index
// compares every stat field with the ctime, whatever the user's config trusts (core.checkStat, trustctime).
// git compares whole seconds of ctime: each test lets the second of the last recorded change go by first.
describe('stat data the agent sets back hides nothing', () => {
  const past = new Date('2020-01-01T00:00:00Z')
  /**
   * Resolves once a change made now gets a ctime in a later second than `file`'s last change: the file
   * system's clock is asked (a probe file next to it), as it lags the wall clock by up to a tick.
   */
  async function pastTheSecondOf(file: string): Promise<void> {
    const second = Math.floor(fs.statSync(file).ctimeMs / 1000)
    const probe = path.join(path.dirname(file), '..', `.ctime-probe-${process.pid}`)
    try {
      for (;;) {
        fs.writeFileSync(probe, '')
        if (Math.floor(fs.statSync(probe).ctimeMs / 1000) > second) return
        await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 1))
      }
    } finally {
      fs.rmSync(probe, { force: true })
    }
  }
  function trustingLittle(files: Record<string, string>): TempRepo {
    const repo = setup(files)
    // What a user on a file system with unreliable ctimes sets; proctor copies both into its own config.
    repo.git(['config', 'core.checkStat', 'minimal'])
    repo.git(['config', 'core.trustctime', 'false'])
    return repo
  }

  it('a tracked file rewritten with the same size and its mtime put back is recorded', async () => {
    const repo = trustingLittle({ 'a.txt': 'aaaa\n' })
    fs.utimesSync(path.join(repo.dir, 'a.txt'), past, past)
    const store = open(repo)
    repo.write('b.txt', 'first\n')
    expect(await store.create('interval')).not.toBeNull()
    await pastTheSecondOf(path.join(repo.dir, 'a.txt'))
    repo.write('a.txt', 'evil\n')
    fs.utimesSync(path.join(repo.dir, 'a.txt'), past, past)
    const record = await store.create('interval')
    expect(record?.files_changed).toEqual(['a.txt'])
    expect(repo.git(['show', `${record!.sha}:a.txt`])).toBe('evil\n')
  })

  it('a file added to a listed directory whose mtime is put back is recorded', async () => {
    const repo = trustingLittle({ 'src/a.ts': 'a\n' })
    const dir = path.join(repo.dir, 'src')
    fs.utimesSync(dir, past, past)
    const store = open(repo)
    repo.write('src/a.ts', 'a2\n')
    // Two listings of src/ as it is: the untracked cache holds it from the first.
    expect(await store.create('interval')).not.toBeNull()
    expect(await store.create('interval')).toBeNull()
    await pastTheSecondOf(dir)
    repo.write('src/payload.ts', 'hidden\n')
    fs.utimesSync(dir, past, past)
    const record = await store.create('interval')
    expect(record?.files_changed).toEqual(['src/payload.ts'])
  })

  it('a touched but unchanged file is compared by content once, then trusted again', async () => {
    const repo = setup({ 'same.txt': 'same\n' })
    const git = new Git({ cwd: repo.dir, env: repo.env })
    const store = open(repo, { git })
    repo.write('other.txt', 'x\n')
    expect(await store.create('interval')).not.toBeNull()
    const later = new Date(Date.now() - 60_000)
    fs.utimesSync(path.join(repo.dir, 'same.txt'), later, later)
    expect(await store.create('interval')).toBeNull()
    // The listing wrote the refreshed stat back: the private index now has it, so no later listing reads it.
    // (Read through the store's runner: the index is split, its shared part in that runner's git directory.)
    const listed = await git.raw(['ls-files', '--debug', '--', 'same.txt'], {
      indexFile: store.privateIndexPath,
    })
    const entry = listed.stdout.match(/mtime: (\d+):/)
    expect(Number(entry?.[1])).toBe(Math.floor(later.getTime() / 1000))
  })
})

describe('CheckpointStore.recordedAmong: what the watcher may skip', () => {
  it("answers from the chain's latest tree, not the user's index (which the agent can empty)", async () => {
    const repo = setup({ '.gitignore': 'build/\ndist/\n', 'a.txt': 'a\n' })
    repo.write('build/run.sh', 'make\n')
    repo.git(['add', '-f', 'build/run.sh'])
    repo.git(['commit', '-qm', 'a tracked script in an ignored directory'])
    const store = open(repo)
    // Before the store has a tree to answer from: unknown, so the caller lists the worktree.
    expect(await store.recordedAmong(['build'])).toBeNull()
    repo.write('a.txt', 'a2\n')
    expect(await store.create('interval')).not.toBeNull()
    repo.git(['rm', '-q', '--cached', 'build/run.sh'])
    repo.write('dist/out.js', 'built\n')
    expect(await store.recordedAmong(['build', 'dist', 'build/run.sh/x'])).toEqual(new Set(['build']))
  })
})

describe('a private index a crashed proctor left', () => {
  it('is seeded again: its shared part died with that process, and the chain goes on from its ref', async () => {
    const repo = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const crashed = open(repo, { git: new Git({ cwd: repo.dir, env: repo.env }) })
    repo.write('a.txt', 'a1\n')
    const first = await crashed.create('interval')
    // No close(): the process died. Its index is still there; a new process (another git directory) opens.
    expect(fs.existsSync(crashed.privateIndexPath)).toBe(true)
    const next = open(repo, { git: new Git({ cwd: repo.dir, env: repo.env }) })
    repo.write('b.txt', 'b1\n')
    const record = await next.create('interval')
    expect(record?.seq).toBe(2)
    expect(repo.git(['rev-parse', `${record!.sha}^`]).trim()).toBe(first!.sha)
    expect(record?.files_changed).toEqual(['b.txt'])
    expect(filesAt(repo, record!.sha)).toEqual(['a.txt', 'b.txt'])
  })
})

describe("the user's repository is never touched", () => {
  it('keeps index bytes+mtime, HEAD, refs, stash and files identical over many checkpoints', async () => {
    const repo = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n', '.gitignore': 'ignored/\n' })
    repo.write('c.txt', 'stash me\n')
    repo.git(['stash', 'push', '-u', '-q', '-m', 'user stash'])
    repo.write('a.txt', 'staged change\n')
    repo.git(['add', 'a.txt'])
    repo.write('b.txt', 'unstaged change\n')
    repo.write('untracked.txt', 'untracked\n')
    repo.write('ignored/secret.txt', 'secret\n')
    const store = open(repo)
    // The agent only writes under agent/; everything else must stay byte-identical.
    const state = () => userState(repo, { exceptFiles: (file) => file.startsWith('agent/') })
    const before = state()
    for (let i = 0; i < 8; i++) {
      repo.write(`agent/file-${i}.txt`, `work ${i}\n`)
      if (i > 0) repo.write(`agent/file-${i - 1}.txt`, `rework ${i}\n`)
      const record = await store.create('interval')
      expect(record!.seq).toBe(i + 1)
      expect(state()).toBe(before)
    }
    await store.close()
    expect(state()).toBe(before)
    expect(repo.git(['stash', 'list'])).toContain('user stash')
  })

  it('also on an unborn HEAD with staged files', async () => {
    const repo = setup({ 'a.txt': 'a\n' }, false)
    repo.git(['add', 'a.txt'])
    repo.write('b.txt', 'b\n')
    const before = userState(repo)
    const store = open(repo)
    const first = await store.create('interval')
    expect(filesAt(repo, first!.sha)).toEqual(['a.txt', 'b.txt'])
    repo.write('b.txt', 'b2\n')
    expect(await store.create('interval')).not.toBeNull()
    expect(await store.create('interval')).toBeNull()
    expect(userState(repo)).toBe(before.replace('"b.txt 100644 Ygo="', '"b.txt 100644 YjIK"'))
    expect(fs.readFileSync(path.join(repo.dir, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n')
  })
})

describe('CheckpointStore base', () => {
  it('keeps the base the session recorded before the agent started, even when the agent committed before the store opened', async () => {
    const repo = setup()
    const before = repo.git(['rev-parse', 'HEAD']).trim()
    // The store is created (the session records HEAD) before the agent runs; it opens after the agent's spawn.
    const store = open(repo, { baseCommit: before })
    repo.write('secrets/key.txt', 'AKIAABCDEFGHIJKLMNOP\n')
    repo.git(['add', 'secrets/key.txt'])
    repo.git(['commit', '-qm', 'the agent commits at once'])
    const record = await store.create('interval')
    expect(store.base).toBe(before)
    // The agent's commit is part of its work: its file is in the checkpoint's changes, not hidden in the base.
    expect(record!.files_changed).toContain('secrets/key.txt')
  })
})

// A first checkpoint that opens the store itself (a one-shot `checkpoints create`) lists the worktree on a
// copy of the user's index while git resolves HEAD, and keeps that listing only when the copy holds HEAD's
// tree exactly and there is no chain to resume.
describe('a first checkpoint that opens the store itself', () => {
  it('leaves out a file the user force-added from an ignored directory but never committed', async () => {
    const repo = setup({ 'a.txt': 'a\n', '.gitignore': 'ignored/\n' })
    repo.write('ignored/secret.txt', 'secret\n')
    repo.git(['add', '-f', 'ignored/secret.txt'])
    // write-tree records the staged tree in the index's cache-tree: valid, but not HEAD's tree.
    repo.git(['write-tree'])
    repo.write('a.txt', 'agent work\n')
    const before = userState(repo)
    const record = await open(repo).create('manual')
    expect(filesAt(repo, record!.sha)).toEqual(['.gitignore', 'a.txt'])
    expect(repo.git(['show', `${record!.sha}:a.txt`])).toBe('agent work\n')
    expect(userState(repo)).toBe(before)
  })

  it("takes what the user staged and what the worktree holds, not HEAD's content", async () => {
    const repo = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    repo.write('a.txt', 'staged\n')
    repo.git(['add', 'a.txt'])
    repo.write('b.txt', 'unstaged\n')
    const record = await open(repo).create('manual')
    expect(record!.files_changed.sort()).toEqual(['a.txt', 'b.txt'])
    expect(repo.git(['show', `${record!.sha}:a.txt`])).toBe('staged\n')
    expect(repo.git(['show', `${record!.sha}:b.txt`])).toBe('unstaged\n')
  })

  it("resumes the session's chain from another private index (a second `create` into the session)", async () => {
    const repo = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    repo.write('a.txt', 'first\n')
    const first = open(repo, { indexName: 'cli-1' })
    const one = await first.create('manual')
    await first.close()
    repo.write('b.txt', 'second\n')
    const two = await open(repo, { indexName: 'cli-2' }).create('manual')
    expect(two!.seq).toBe(2)
    expect(repo.git(['rev-parse', `${two!.sha}^`]).trim()).toBe(one!.sha)
    expect(two!.files_changed).toEqual(['b.txt'])
    expect(repo.git(['show', `${two!.sha}:a.txt`])).toBe('first\n')
  })

  it('with pause_agent, reads the worktree only once the agent is paused', async () => {
    const repo = setup({ 'a.txt': 'a\n' })
    repo.write('a.txt', 'agent work\n')
    // What the agent writes up to the moment it is paused belongs in the checkpoint.
    const store = open(repo, {
      pauser: { pause: () => repo.write('last-write.txt', 'just before the pause\n'), resume: () => {} },
    })
    const record = await store.create('interval')
    expect(record!.files_changed.sort()).toEqual(['a.txt', 'last-write.txt'])
  })
})

// A first checkpoint that opens the store itself finds HEAD and the changes with one `git status` on a copy
// of the user's index (store.ts, openFromStatus): these pin what it must still get right.
describe('a first checkpoint that opens the store with one git status', () => {
  for (const synchronous of [false, true]) {
    it(`resumes a chain that is only in packed-refs instead of starting a new one (synchronous: ${synchronous})`, async () => {
      const repo = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
      repo.write('a.txt', 'first\n')
      const first = open(repo, { indexName: 'cli-1' })
      const one = await first.create('manual')
      await first.close()
      repo.git(['pack-refs', '--all'])
      expect(fs.existsSync(path.join(repo.dir, '.git', 'refs', 'proctor', 'test-session'))).toBe(false)
      repo.write('b.txt', 'second\n')
      const second = new CheckpointStore({
        git: new Git({ cwd: repo.dir, env: repo.env, synchronous }),
        session: 'test-session',
        maxFileSize: 1024 * 1024,
        indexName: 'cli-2',
      })
      stores.push(second)
      const two = await second.create('manual')
      expect(two!.seq).toBe(2)
      expect(repo.git(['rev-parse', `${two!.sha}^`]).trim()).toBe(one!.sha)
      expect(two!.files_changed).toEqual(['b.txt'])
    })
  }

  for (const cacheTree of ['valid', 'invalid'] as const) {
    it(`takes no checkpoint when a listed file cleans to HEAD's content (cache-tree ${cacheTree})`, async () => {
      const repo = setup({ 'f.txt': 'a\nb\n', 'README.md': 'r\n' })
      repo.git(['config', 'core.autocrlf', 'true'])
      if (cacheTree === 'invalid') {
        // Staging and unstaging a file leaves the index equal to HEAD but its cache-tree root invalid.
        repo.write('t.txt', 't\n')
        repo.git(['add', 't.txt'])
        repo.git(['rm', '-q', '--cached', 't.txt'])
        repo.remove('t.txt')
      } else repo.git(['write-tree'])
      expect(readIndexSummary(path.join(repo.dir, '.git', 'index'), 20)!.tree === null).toBe(
        cacheTree === 'invalid',
      )
      // Another size, the same blob once converted: listed as modified, staged, and the tree is HEAD's.
      repo.write('f.txt', 'a\r\nb\r\n')
      const store = open(repo)
      expect(await store.create('manual')).toBeNull()
      expect(repo.git(['for-each-ref', 'refs/proctor/'])).toBe('')
      repo.write('README.md', 'changed\n')
      const record = await store.create('manual')
      expect(record!.seq).toBe(1)
      expect(repo.git(['rev-parse', `${record!.sha}^`]).trim()).toBe(repo.git(['rev-parse', 'HEAD']).trim())
    })
  }

  it('records the worktree of a merge in conflict against HEAD, leaving the conflict in the index', async () => {
    const repo = setup({ 'f.txt': 'base\n', 'g.txt': 'g\n' })
    repo.git(['checkout', '-q', '-b', 'other'])
    repo.write('f.txt', 'theirs\n')
    repo.commitAll('theirs')
    repo.git(['checkout', '-q', 'main'])
    repo.write('f.txt', 'ours\n')
    const ours = repo.commitAll('ours')
    expect(() => repo.git(['merge', '-q', 'other'])).toThrow()
    repo.write('g.txt', 'edited during the conflict\n')
    const before = userState(repo)
    const record = await open(repo).create('manual')
    expect(repo.git(['rev-parse', `${record!.sha}^`]).trim()).toBe(ours)
    expect(repo.git(['show', `${record!.sha}:f.txt`])).toContain('<<<<<<<')
    expect(repo.git(['show', `${record!.sha}:g.txt`])).toBe('edited during the conflict\n')
    expect(record!.files_changed.sort()).toEqual(['f.txt', 'g.txt'])
    expect(userState(repo)).toEqual(before)
    expect(repo.git(['ls-files', '-u'])).toContain('f.txt')
  })

  it('starts a chain on an unborn branch from an empty index, with no parent', async () => {
    const repo = setup({}, false)
    repo.write('x.txt', 'x\n')
    repo.git(['add', 'x.txt'])
    repo.git(['rm', '-q', '--cached', 'x.txt'])
    expect(fs.existsSync(path.join(repo.dir, '.git', 'index'))).toBe(true)
    repo.write('dir/y.txt', 'y\n')
    const record = await open(repo).create('manual')
    expect(filesAt(repo, record!.sha)).toEqual(['dir/y.txt', 'x.txt'])
    expect(repo.git(['rev-list', '--count', record!.sha]).trim()).toBe('1')
  })

  it('sees changes behind an index with skip-worktree entries (status would not look at them)', async () => {
    const repo = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    repo.git(['update-index', '--skip-worktree', 'b.txt'])
    repo.write('b.txt', 'changed behind skip-worktree\n')
    const record = await open(repo).create('manual')
    expect(record!.files_changed).toEqual(['b.txt'])
    expect(repo.git(['show', `${record!.sha}:b.txt`])).toBe('changed behind skip-worktree\n')
  })
})
