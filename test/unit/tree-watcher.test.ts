// The worktree watcher behind the `changes` trigger: one watch per directory, directories created late
// (with files already inside) are reported and watched, removed ones are dropped, ignored ones never seen.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { TreeWatcher, type TreeEvent } from '../../src/checkpoints/tree-watcher.js'

const dirs: string[] = []
const watchers: TreeWatcher[] = []
afterEach(() => {
  for (const w of watchers.splice(0)) w.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function setup(ignoredAmong?: (dirs: string[]) => Promise<ReadonlySet<string>>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-tree-watcher-'))
  dirs.push(root)
  fs.mkdirSync(path.join(root, 'src/deep'), { recursive: true })
  fs.mkdirSync(path.join(root, 'node_modules/pkg'), { recursive: true })
  fs.writeFileSync(path.join(root, 'src/deep/a.ts'), 'a')
  const events: [TreeEvent, string][] = []
  const waiters: { check: () => boolean; resolve: () => void }[] = []
  const watcher = new TreeWatcher({
    root,
    ignored: (rel) => rel.split('/').includes('node_modules'),
    ...(ignoredAmong ? { ignoredAmong } : {}),
    onEvent: (event, rel) => {
      events.push([event, rel])
      for (const w of waiters.splice(0)) (w.check() ? w.resolve : () => waiters.push(w))()
    },
    onError: (error) => {
      throw error
    },
  })
  watchers.push(watcher)
  const seen = (event: TreeEvent, rel: string) => events.some(([e, r]) => e === event && r === rel)
  const until = (event: TreeEvent, rel: string) =>
    new Promise<void>((resolve) => {
      const check = () => seen(event, rel)
      if (check()) resolve()
      else waiters.push({ check, resolve })
    })
  return { root, watcher, events, seen, until }
}

describe('TreeWatcher', () => {
  it('reports changes in directories that existed at the start, with add/change/unlink', async () => {
    const { root, watcher, until, seen } = setup()
    await watcher.start()
    fs.writeFileSync(path.join(root, 'src/deep/b.ts'), 'b')
    await until('add', 'src/deep/b.ts')
    fs.appendFileSync(path.join(root, 'src/deep/a.ts'), 'more')
    await until('change', 'src/deep/a.ts')
    fs.rmSync(path.join(root, 'src/deep/b.ts'))
    await until('unlink', 'src/deep/b.ts')
    fs.writeFileSync(path.join(root, 'node_modules/pkg/x.js'), 'x')
    fs.writeFileSync(path.join(root, 'sentinel'), 's')
    await until('add', 'sentinel')
    expect(seen('add', 'node_modules/pkg/x.js')).toBe(false)
  })

  it('a directory tree created at once is reported with the files already in it, then watched', async () => {
    const { root, watcher, until } = setup()
    await watcher.start()
    fs.mkdirSync(path.join(root, 'new/inner'), { recursive: true })
    fs.writeFileSync(path.join(root, 'new/inner/early.txt'), 'written before any watch could exist')
    await until('add', 'new/inner/early.txt')
    fs.writeFileSync(path.join(root, 'new/inner/late.txt'), 'late')
    await until('add', 'new/inner/late.txt')
  })

  it('a removed directory is reported once and no longer watched', async () => {
    const { root, watcher, until } = setup()
    await watcher.start()
    fs.rmSync(path.join(root, 'src/deep'), { recursive: true })
    await until('unlinkDir', 'src/deep')
    fs.mkdirSync(path.join(root, 'src/deep'))
    await until('addDir', 'src/deep')
    fs.writeFileSync(path.join(root, 'src/deep/again.ts'), 'again')
    await until('add', 'src/deep/again.ts')
  })

  it('close() ends a walk in progress and silences every watch', async () => {
    const { root, watcher, events } = setup()
    const started = watcher.start()
    watcher.close()
    await started
    fs.writeFileSync(path.join(root, 'src/deep/after-close.ts'), 'x')
    // Give inotify a turn of the loop: nothing may arrive after close().
    await new Promise((resolve) => setImmediate(resolve))
    expect(events.filter(([, rel]) => rel.includes('after-close'))).toEqual([])
  })

  it('directories that appear together are asked about in one question, and an ignored one is never entered', async () => {
    const asked: string[][] = []
    const { root, watcher, until, events } = setup(async (dirs) => {
      asked.push([...dirs].sort())
      return new Set(dirs.filter((d) => d.endsWith('/venv')))
    })
    await watcher.start()
    for (const name of ['a', 'b', 'venv'])
      fs.mkdirSync(path.join(root, 'new', name, 'inner'), { recursive: true })
    fs.writeFileSync(path.join(root, 'new/venv/inner/early.py'), '')
    fs.writeFileSync(path.join(root, 'new/a/inner/early.ts'), '')
    await until('add', 'new/a/inner/early.ts')
    // A level at a time, each level one question; nothing below new/venv was asked about or reported.
    expect(asked).toEqual([['new'], ['new/a', 'new/b', 'new/venv'], ['new/a/inner', 'new/b/inner']])
    fs.writeFileSync(path.join(root, 'new/venv/late.py'), '')
    fs.writeFileSync(path.join(root, 'new/a/late.ts'), '')
    await until('add', 'new/a/late.ts')
    expect(events.filter(([, rel]) => rel.startsWith('new/venv'))).toEqual([['ignoredDir', 'new/venv']])
  })

  it('a question that fails is answered "none ignored": the directory is watched', async () => {
    const { root, watcher, until } = setup(() => Promise.reject(new Error('git is gone')))
    await watcher.start()
    fs.mkdirSync(path.join(root, 'build'))
    fs.writeFileSync(path.join(root, 'build/out.js'), '')
    await until('add', 'build/out.js')
  })
})
