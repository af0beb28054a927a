import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { CheckpointTriggers, type TriggerName } from '../../src/checkpoints/triggers.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

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
  const t = new CheckpointTriggers({
    root: repo.dir,
    git: new Git({ cwd: repo.dir, env: repo.env }),
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
    await until(() => seen('sentinel.txt') && seen('build/created-later.js') && seen('two.txt'), 'the events')
    await t.counted()
    expect(t.pendingChanges).toBe(3)
    expect(seen('node_modules/x.js') || seen('dist/bundle.js')).toBe(false)
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
