// A first checkpoint over thousands of unignored files (node_modules/ missing from .gitignore) warns with
// the fix before it starts, says how far along it is while git hashes the files, and how long it took;
// ordinary checkpoints stay quiet.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  describeSnapshotProgress,
  FirstSnapshotWatch,
  largeSnapshotMessage,
  type SnapshotProgress,
} from '../../src/checkpoints/first-snapshot.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
const stores: CheckpointStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined)
  for (const repo of repos.splice(0)) repo.cleanup()
})

function setup(): {
  repo: TempRepo
  store: CheckpointStore
  notices: string[]
  progress: SnapshotProgress[]
  /** Notices and progress lines in the order they came. */
  lines: string[]
} {
  const repo = makeTempRepo({ files: { 'README.md': 'hello\n' } })
  repos.push(repo)
  const notices: string[] = []
  const progress: SnapshotProgress[] = []
  const lines: string[] = []
  const store = new CheckpointStore({
    git: new Git({ cwd: repo.dir, env: repo.env }),
    session: 'big-tree',
    maxFileSize: 1024 * 1024,
    notice: (level, message) => {
      notices.push(`${level}: ${message}`)
      lines.push(`${level}: ${message}`)
    },
    onProgress: (p) => {
      progress.push(p)
      lines.push(`progress: ${describeSnapshotProgress(p)}`)
    },
    // Every chunk of git's output (the real spacing is 3 s, tested on the watch below).
    progressIntervalMs: 0,
  })
  stores.push(store)
  return { repo, store, notices, progress, lines }
}

function manyFiles(repo: TempRepo, dir: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const file = path.join(repo.dir, dir, `pkg-${i % 50}`, `file-${i}.js`)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, `module.exports = ${i}\n`)
  }
}

describe('the first checkpoint on a big tree', () => {
  it('warns with the directories and the fix, then reports the time, once per session', async () => {
    const { repo, store, notices } = setup()
    manyFiles(repo, 'node_modules', 2100)
    repo.write('src/app.ts', 'export const a = 1\n')
    const first = await store.create('interval')
    expect(first!.files_changed).toHaveLength(2101)
    expect(notices).toEqual([
      'warning: the first checkpoint records 2,101 changed or untracked files that no .gitignore covers ' +
        "(node_modules/ 2,100, src/ 1); this can take a while. If they are not the agent's work, add them to " +
        '.gitignore (e.g. `echo node_modules/ >> .gitignore`) or, for this clone only, to .git/info/exclude',
      expect.stringMatching(/^info: first checkpoint: 2,101 files read in \d/),
    ])

    manyFiles(repo, 'dist', 2100)
    await store.create('manual')
    expect(notices).toHaveLength(2)
  })

  it('says how far along it is while git hashes the files, before the checkpoint completes', async () => {
    const { repo, store, progress, lines } = setup()
    manyFiles(repo, 'node_modules', 2500)
    // Over max_file_size: listed, left out, so not among the files git hashes.
    repo.write('node_modules/big.bin', 'x'.repeat(2 * 1024 * 1024))
    const first = await store.create('interval')
    expect(first!.files_changed).toHaveLength(2500)
    // git's verbose output (~40 bytes a file) outgrows a pipe's 64 KiB, so it cannot arrive in one piece:
    // there are lines part-way, rising, all between the warning and the closing time.
    const partWay = progress.filter((p) => p.done > 0 && p.done < p.total)
    expect(partWay.length).toBeGreaterThan(0)
    expect(progress.every((p) => p.seq === 1 && p.total === 2500)).toBe(true)
    const done = progress.map((p) => p.done)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(lines[0]).toMatch(/^warning: the first checkpoint records 2,501 /)
    expect(lines.at(-1)).toMatch(/^info: first checkpoint: 2,501 files read in /)
    expect(
      lines.slice(1, -1).every((l) => /^progress: checkpoint 1: [\d,]+ \/ 2,500 files \(\d+%\)$/.test(l)),
    ).toBe(true)

    // Later checkpoints are not the first: no progress, no --verbose output.
    const before = progress.length
    manyFiles(repo, 'dist', 2100)
    await store.create('manual')
    expect(progress).toHaveLength(before)
  })

  it('says nothing about an ordinary first checkpoint', async () => {
    const { repo, store, notices, progress } = setup()
    manyFiles(repo, 'src', 300)
    await store.create('interval')
    expect(notices).toEqual([])
    expect(progress).toEqual([])
  })

  it('reports progress at most once per interval, with the count and the share done', () => {
    let now = 0
    const seen: string[] = []
    const watch = new FirstSnapshotWatch(() => undefined, {
      onProgress: (p) => seen.push(`${p.elapsed_ms}ms ${describeSnapshotProgress(p)}`),
      now: () => now,
    })
    watch.begin(
      Array.from({ length: 13_711 }, (_, i) => `node_modules/${i}`),
      0,
    )
    for (const [at, done] of [
      [1000, 500],
      [2999, 1500],
      [3000, 3000],
      [4000, 4000],
      [6100, 6000],
      [6200, 6100],
    ] as const) {
      now = at
      watch.progress(done)
    }
    expect(seen).toEqual([
      '3000ms checkpoint 1: 3,000 / 13,711 files (21%)',
      '6100ms checkpoint 1: 6,000 / 13,711 files (43%)',
    ])
    watch.end()
    watch.progress(13_711)
    expect(seen).toHaveLength(2)
  })

  it('names the three biggest directories', () => {
    const paths = [
      ...Array.from({ length: 5 }, (_, i) => `a/${i}`),
      ...Array.from({ length: 9 }, (_, i) => `b/${i}`),
      ...Array.from({ length: 7 }, (_, i) => `c/${i}`),
      ...Array.from({ length: 2 }, (_, i) => `d/${i}`),
      'top-level-file',
    ]
    expect(largeSnapshotMessage(paths)).toMatch(/ \(b\/ 9, c\/ 7, a\/ 5\);.*echo b\/ >> \.gitignore/)
  })
})
