// A first checkpoint over thousands of unignored files (node_modules/ missing from .gitignore) warns with
// the fix before it starts and says how long it took; ordinary checkpoints stay quiet.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { largeSnapshotMessage } from '../../src/checkpoints/first-snapshot.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
const stores: CheckpointStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined)
  for (const repo of repos.splice(0)) repo.cleanup()
})

function setup(): { repo: TempRepo; store: CheckpointStore; notices: string[] } {
  const repo = makeTempRepo({ files: { 'README.md': 'hello\n' } })
  repos.push(repo)
  const notices: string[] = []
  const store = new CheckpointStore({
    git: new Git({ cwd: repo.dir, env: repo.env }),
    session: 'big-tree',
    maxFileSize: 1024 * 1024,
    notice: (level, message) => notices.push(`${level}: ${message}`),
  })
  stores.push(store)
  return { repo, store, notices }
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

  it('says nothing about an ordinary first checkpoint', async () => {
    const { repo, store, notices } = setup()
    manyFiles(repo, 'src', 300)
    await store.create('interval')
    expect(notices).toEqual([])
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
