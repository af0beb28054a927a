// Issue 35: the watcher never descends into a directory git ignores, and that hides nothing from the
// checkpoints. A whole session, run as the user runs it: the agent makes `src/` ignored itself (appends it to
// .gitignore), then edits tracked files there and creates a new directory under it. The watcher skips the
// new directory (one line in the file-events log); the checkpoint still holds the .gitignore edit that hid it
// and every change to a tracked file, exactly what git records of the worktree.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import { proctorCli } from '../helpers/proctor-process.js'

const repos: TempRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** Waits (bounded: the test fails on the log, not on a hang) until the file-events log has `pattern`. */
const waitFor = (pattern: string) =>
  `n=0; until grep -qsF '${pattern}' .proctor/sessions/*/file-events.jsonl || [ $n -ge 400 ]; do n=$((n+1)); sleep 0.05; done`

describe('a directory the agent ignores itself', () => {
  it('is skipped by the watcher, and its tracked changes and the .gitignore edit are in the checkpoint', async () => {
    const repo = makeTempRepo({
      files: { '.gitignore': 'dist/\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'README.md': 'r\n' },
    })
    repos.push(repo)
    const agent = [
      waitFor('"event":"watching"'),
      "printf 'src/\\n' >> .gitignore",
      "printf 'a, edited\\n' > src/a.ts",
      'mkdir -p src/deep/deeper',
      "printf 'new\\n' > src/deep/deeper/new.ts",
      waitFor('"event":"ignoredDir","path":"src/deep"'),
      "printf 'b, edited after\\n' > src/b.ts",
      "printf 'more\\n' >> src/deep/deeper/new.ts",
    ].join('\n')
    const run = await proctorCli(['run', '--no-push', '--', 'sh', '-c', agent], {
      cwd: repo.dir,
      env: repo.env,
    })
    const diagnostics = `${run.stdout}\n${run.stderr}`
    expect(run.code, diagnostics).toBe(0)

    const sessions = path.join(repo.dir, '.proctor/sessions')
    const id = fs.readdirSync(sessions)[0]!
    const events = fs
      .readFileSync(path.join(sessions, id, 'file-events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; path: string })
    // The new directory is one line; nothing in it was walked or watched.
    expect(events.filter((e) => e.path.startsWith('src/deep'))).toEqual([
      expect.objectContaining({ event: 'ignoredDir', path: 'src/deep' }),
    ])

    const report = JSON.parse(
      fs.readFileSync(path.join(sessions, id, 'report.json'), 'utf8'),
    ) as SessionReport
    const last = report.checkpoints.at(-1)!
    const changed = repo.git(['diff', '--name-only', 'HEAD', last.sha]).split('\n').filter(Boolean)
    expect(changed, diagnostics).toEqual(['.gitignore', 'src/a.ts', 'src/b.ts'])
    // Exactly what git itself records of the worktree: the watcher's skip hid nothing from the checkpoint.
    const scratch = tempDir('proctor-index-')
    dirs.push(scratch)
    const env = { ...repo.env, GIT_INDEX_FILE: path.join(scratch, 'index') }
    execFileSync('git', ['read-tree', 'HEAD'], { cwd: repo.dir, env })
    execFileSync('git', ['add', '-A'], { cwd: repo.dir, env })
    const gitsTree = execFileSync('git', ['write-tree'], { cwd: repo.dir, env, encoding: 'utf8' }).trim()
    expect(repo.git(['rev-parse', `${last.sha}^{tree}`]).trim()).toBe(gitsTree)
  })
})
