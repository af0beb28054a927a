import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { CheckpointTriggers, type TriggerName } from '../../src/checkpoints/triggers.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import { writeGitLogger } from '../helpers/git-logger.js'
import { recordedInHead } from '../helpers/recorded.js'

const repos: TempRepo[] = []
const triggers: CheckpointTriggers[] = []
afterEach(async () => {
  for (const t of triggers.splice(0)) await t.stop()
  for (const repo of repos.splice(0)) repo.cleanup()
})

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function setup(options: { intervalMs?: number; maxChanges?: number; fail?: boolean } = {}) {
  const repo = makeTempRepo({ files: { '.gitignore': 'dist/\nbuild/\n', 'a.txt': 'a\n' } })
  repos.push(repo)
  fs.mkdirSync(path.join(repo.dir, 'dist'))
  fs.mkdirSync(path.join(repo.dir, 'node_modules'))
  const calls: { trigger: TriggerName; detail?: string }[] = []
  const errors: string[] = []
  const log = path.join(repo.dir, '.proctor/sessions/s/file-events.jsonl')
  const git = new Git({ cwd: repo.dir, env: repo.env })
  const t = new CheckpointTriggers({
    root: repo.dir,
    git,
    recordedAmong: recordedInHead(git),
    intervalMs: options.intervalMs ?? 0,
    maxChanges: options.maxChanges ?? 1000,
    eventLogPath: log,
    take: async (trigger, detail) => {
      calls.push(detail === undefined ? { trigger } : { trigger, detail })
      if (options.fail) throw new Error('disk full')
    },
    onError: (error, trigger) => errors.push(`${trigger}: ${(error as Error).message}`),
  })
  triggers.push(t)
  const logLines = (): { event: string; path: string }[] =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { event: string; path: string })
      : []
  return { repo, t, calls, errors, logLines }
}

describe('CheckpointTriggers', () => {
  it('counts distinct changed paths, ignoring .git, node_modules and ignored dirs (even ones created later)', async () => {
    const { repo, t, calls, logLines } = setup()
    t.start()
    await t.ready()
    repo.write('node_modules/x.js', '1')
    repo.write('dist/bundle.js', '1')
    repo.write('build/created-later.js', '1')
    repo.write('one.txt', '1')
    repo.write('one.txt', '2')
    repo.write('two.txt', '1')
    repo.write('sentinel.txt', '1')
    const seen = (p: string) => logLines().some((l) => l.path === p)
    await until(() => seen('sentinel.txt') && seen('build') && seen('two.txt'), 'the events')
    await t.counted()
    expect(t.pendingChanges).toBe(3)
    expect(seen('node_modules/x.js') || seen('dist/bundle.js')).toBe(false)
    // The ignored directory created later is one line, not a line per file in it.
    expect(logLines().filter((l) => l.path.startsWith('build'))).toEqual([
      expect.objectContaining({ event: 'ignoredDir', path: 'build' }),
    ])
    expect(calls).toEqual([])
  })

  it('fires "changes" once max_changes distinct paths changed', async () => {
    const { repo, t, calls } = setup({ maxChanges: 3 })
    t.start()
    await t.ready()
    repo.write('one.txt', '1')
    repo.write('two.txt', '1')
    repo.write('sub/three.txt', '1')
    await until(() => calls.length === 1, 'the changes trigger')
    expect(calls[0]!.trigger).toBe('changes')
    expect(t.pendingChanges).toBe(0)
  })

  it('writes every file event to the JSONL audit log', async () => {
    const { repo, t, logLines } = setup()
    t.start()
    await t.ready()
    repo.write('new file.txt', 'x')
    await until(() => logLines().some((l) => l.path === 'new file.txt'), 'the add event in the log')
    repo.remove('new file.txt')
    await until(
      () => logLines().some((l) => l.path === 'new file.txt' && l.event === 'unlink'),
      'the unlink event',
    )
    await t.stop()
    const lines = logLines()
    expect(lines.find((l) => l.path === 'new file.txt')!.event).toBe('add')
    expect(lines.every((l) => !l.path.startsWith('.git/') && !l.path.startsWith('.proctor'))).toBe(true)
  })

  it('fires on the interval', async () => {
    const { t, calls } = setup({ intervalMs: 30 })
    t.start()
    await t.ready()
    await until(() => calls.length >= 1, 'an interval checkpoint')
    expect(calls[0]!.trigger).toBe('interval')
  })

  it('passes events and manual requests through, and takes a final checkpoint after stopping', async () => {
    const { t, calls } = setup()
    t.start()
    await t.ready()
    await t.event('completion')
    await t.manual()
    await t.final()
    expect(calls).toEqual([
      { trigger: 'event', detail: 'completion' },
      { trigger: 'manual' },
      { trigger: 'final' },
    ])
  })

  it('reports a failed checkpoint through onError instead of crashing a timer', async () => {
    const { t, errors } = setup({ fail: true })
    t.start()
    await t.ready()
    await t.event('completion')
    expect(errors).toEqual(['event: disk full'])
  })
})

describe('CheckpointTriggers.quietSince: whether the tree changed since a checkpoint listed it (issue 35)', () => {
  /** setup()'s repository with its node_modules/ ignored, as a project's is. */
  function ignoringNodeModules() {
    const made = setup()
    made.repo.write('.gitignore', 'dist/\nbuild/\nnode_modules/\n')
    made.repo.commitAll('ignore node_modules')
    return made
  }

  it('after the walk, nothing changed since the mark: quiet; a file written after it: not', async () => {
    const { repo, t } = ignoringNodeModules()
    t.start()
    await t.ready()
    const mark = await t.mark()
    expect(await t.quietSince(mark)).toBe(true)
    repo.write('late.txt', 'written after the listing\n')
    // No wait for the event here: quietSince reads what the kernel queued before it answers.
    expect(await t.quietSince(mark)).toBe(false)
  })

  it('a mark taken before the watcher had walked the tree never vouches for it', async () => {
    const { t } = ignoringNodeModules()
    const early = await t.mark()
    t.start()
    await t.ready()
    expect(await t.quietSince(early)).toBe(false)
    expect(await t.quietSince(await t.mark())).toBe(true)
  })

  it('node_modules, never watched: a committed one is not quiet; one git ignores, created later, is', async () => {
    const committed = setup()
    committed.repo.write('node_modules/dep/index.js', 'module.exports = 1\n')
    committed.repo.commitAll('vendored')
    committed.t.start()
    await committed.t.ready()
    expect(await committed.t.quietSince(await committed.t.mark())).toBe(false)

    const ignored = ignoringNodeModules()
    ignored.t.start()
    await ignored.t.ready()
    ignored.repo.write('web/node_modules/pkg/index.js', 'module.exports = 2\n')
    const mark = await ignored.t.mark()
    ignored.repo.write('web/node_modules/pkg/more.js', 'module.exports = 3\n')
    expect(await ignored.t.quietSince(mark)).toBe(true)
  })
})

// Issue 35: a directory that appears mid-session and that git ignores (`.venv/` from pip, `target/`,
// `build/`) costs one question to git and one log line, however many files it holds; one that git does not
// ignore is watched as before, even when some of its files are ignored.
describe('new ignored directories', () => {
  const bins: string[] = []
  afterEach(() => {
    for (const bin of bins.splice(0)) fs.rmSync(bin, { recursive: true, force: true })
  })

  /** Triggers over a repository with `ignore` as its .gitignore, every git call logged. */
  function watched(ignore: string, maxChanges = 100_000) {
    const repo = makeTempRepo({ files: { '.gitignore': ignore, 'src/a.ts': 'a\n' } })
    repos.push(repo)
    const bin = tempDir('proctor-git-log-')
    bins.push(bin)
    writeGitLogger(bin)
    const gitLog = path.join(bin, 'calls.log')
    const log = path.join(repo.dir, '.proctor/sessions/s/file-events.jsonl')
    const calls: TriggerName[] = []
    const t = new CheckpointTriggers({
      root: repo.dir,
      git: new Git({
        cwd: repo.dir,
        env: { ...repo.env, PROCTOR_TEST_GIT_LOG: gitLog },
        binary: path.join(bin, 'git'),
      }),
      intervalMs: 0,
      maxChanges,
      eventLogPath: log,
      take: async (trigger) => void calls.push(trigger),
    })
    triggers.push(t)
    const lines = (): { event: string; path: string }[] =>
      fs.existsSync(log)
        ? fs
            .readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { event: string; path: string })
        : []
    const has = (event: string, p: string) => lines().some((l) => l.event === event && l.path === p)
    const gitCalls = () => fs.readFileSync(gitLog, 'utf8').split('\n').filter(Boolean)
    return { repo, t, calls, lines, has, gitCalls }
  }

  /** `count` files in `dirs` directories under `top`, the way an install writes them. */
  function flood(root: string, top: string, dirs: number, count: number): void {
    for (let d = 0; d < dirs; d++) fs.mkdirSync(path.join(root, top, `pkg${d}`, 'sub'), { recursive: true })
    for (let i = 0; i < count; i++)
      fs.writeFileSync(path.join(root, top, `pkg${i % dirs}`, 'sub', `f${i}.py`), '')
  }

  it('a 2,000-file ignored directory is one log line and a handful of git calls, never walked', async () => {
    const { repo, t, lines, has, gitCalls } = watched('.venv/\n')
    t.start()
    await t.ready()
    const before = gitCalls().length
    flood(repo.dir, '.venv', 50, 2000)
    repo.write('sentinel.txt', 's')
    await until(() => has('ignoredDir', '.venv') && has('add', 'sentinel.txt'), 'the ignored directory')
    await t.counted()
    // Written after it was skipped: nothing in it is watched, so nothing arrives.
    repo.write('.venv/pkg0/late.py', '')
    repo.write('sentinel-2.txt', 's')
    await until(() => has('add', 'sentinel-2.txt'), 'the second sentinel')
    await t.counted()
    expect(lines().filter((l) => l.path.startsWith('.venv'))).toEqual([
      expect.objectContaining({ event: 'ignoredDir', path: '.venv' }),
    ])
    expect(t.pendingChanges).toBe(2)
    // The question about .venv, then the sentinels' counts (a batch or two each): nothing per file of the flood.
    const asked = gitCalls().slice(before)
    expect(asked.filter((c) => c === 'check-ignore').length, asked.join(' ')).toBeLessThanOrEqual(5)
    expect(
      asked.filter((c) => c !== 'check-ignore'),
      asked.join(' '),
    ).toEqual([])
  })

  it('a new directory git does not ignore is watched, its ignored files (*.pyc) logged but not counted', async () => {
    const { repo, t, has, lines } = watched('*.pyc\n')
    t.start()
    await t.ready()
    repo.write('pkg/__pycache__/mod.cpython-312.pyc', 'bytecode')
    repo.write('pkg/mod.py', 'code')
    await until(
      () => has('add', 'pkg/mod.py') && has('add', 'pkg/__pycache__/mod.cpython-312.pyc'),
      'the files',
    )
    // Watched: a file written into it later is seen.
    repo.write('pkg/__pycache__/late.py', 'late')
    await until(() => has('add', 'pkg/__pycache__/late.py'), 'the late file')
    await t.counted()
    expect(t.pendingChanges).toBe(2)
    expect(lines().some((l) => l.event === 'ignoredDir')).toBe(false)
  })

  it('follows git, not a prefix: `out/*` with `!out/keep/` walks out/ and out/keep/, skips out/tmp/', async () => {
    const { repo, t, has, lines } = watched('out/*\n!out/keep/\n')
    t.start()
    await t.ready()
    fs.mkdirSync(path.join(repo.dir, 'out/tmp/deep'), { recursive: true })
    fs.mkdirSync(path.join(repo.dir, 'out/keep'), { recursive: true })
    repo.write('out/tmp/deep/x.o', 'x')
    repo.write('out/keep/kept.txt', 'k')
    await until(() => has('add', 'out/keep/kept.txt') && has('ignoredDir', 'out/tmp'), 'the walk of out/')
    expect(has('addDir', 'out')).toBe(true)
    expect(lines().filter((l) => l.path.startsWith('out/tmp'))).toEqual([
      expect.objectContaining({ event: 'ignoredDir', path: 'out/tmp' }),
    ])
    await t.counted()
    expect(t.pendingChanges).toBe(1)
  })

  it('an ignored directory removed and created again is reported each time, never what it holds', async () => {
    const { repo, t, has, lines } = watched('build\n')
    t.start()
    await t.ready()
    repo.write('build/a.o', 'a')
    await until(() => has('ignoredDir', 'build'), 'the ignored directory')
    fs.rmSync(path.join(repo.dir, 'build'), { recursive: true })
    await until(() => has('unlinkDir', 'build'), 'its removal')
    repo.write('build/b.o', 'b')
    await until(() => lines().filter((l) => l.event === 'ignoredDir').length === 2, 'it again')
    expect(lines().some((l) => l.path.startsWith('build/'))).toBe(false)
  })

  it('a FIFO planted as .gitignore next to a new directory is not read: the directory is watched, nothing waits', async () => {
    const { repo, t, has } = watched('dist/\n')
    t.start()
    await t.ready()
    // In one go, before the watcher handles either event: git would block opening src/.gitignore.
    const fifo = path.join(repo.dir, 'src/.gitignore')
    fs.mkdirSync(path.join(repo.dir, 'src/new'))
    execFileSync('mkfifo', [fifo])
    try {
      repo.write('src/new/file.ts', 'x')
      await until(() => has('add', 'src/new/file.ts'), 'the new directory walked, not held by git', 20_000)
      expect(has('addDir', 'src/new')).toBe(true)
    } finally {
      // Release a git that opened it anyway (the code before this change), so that none outlives the test.
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK))
      } catch {
        // ENXIO: nobody is reading it, as it should be
      }
    }
  })
})
