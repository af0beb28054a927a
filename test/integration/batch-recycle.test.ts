// Recycled worktrees: a finished task's worktree is reset for the next task instead of being deleted and
// checked out again. The next task must not be able to tell: it sees what a fresh worktree shows, whatever
// the previous task left (edits, new and ignored files, a commit on a branch it switched to, its own
// .proctor/ state). A worktree that cannot safely be reset is replaced by a fresh one.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runBatch } from '../../src/batch/batch.js'
import { tempDir } from '../helpers/git-repo.js'
import { batchRepo, extraWorktrees, fastConfig, type BatchRepo } from './batch-helpers.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function setup(): { r: BatchRepo; out: string } {
  const r = batchRepo()
  r.write('.gitignore', '*.log\nbuild/\n')
  r.commitAll('ignore logs and build output')
  const out = tempDir('proctor-batch-recycle-out-')
  cleanups.push(r.cleanup, () => fs.rmSync(out, { recursive: true, force: true }))
  return { r, out }
}

/** What a task can see of its worktree, written to $OUT/<task>.txt (outside the worktree). */
const INSPECT = [
  'f="$OUT/$PROCTOR_TASK_NAME.txt"',
  '{',
  '  echo "dir: $(pwd)"',
  '  echo "head: $(git rev-parse HEAD)"',
  '  echo "branch: $(git symbolic-ref -q HEAD || echo detached)"',
  '  echo "status:"; git status --porcelain --ignored',
  '  echo "files:"; find . -path ./.git -prune -o -path ./.proctor -prune -o -print | sort',
  '  echo "state: $(ls -A .proctor | tr "\\n" " ")"',
  '  echo "sessions: $(ls .proctor/sessions | wc -l)"',
  '  echo "runs: $(ls .proctor/runs | wc -l)"',
  '  echo "readme: $(cat README.md)"',
  '} > "$f"',
].join('\n')

/** Everything a task can leave behind in its worktree. */
const MESS = [
  'set -e',
  'echo changed > README.md',
  'echo new > untracked.txt',
  'echo noise > debug.log',
  'mkdir -p build/deep && echo out > build/deep/artifact.bin',
  'rm src/a.ts',
  'git checkout -q -b task-branch',
  'echo committed > on-branch.txt',
  'git add on-branch.txt && git commit -q -m "a task commit"',
  'echo stale > .proctor/leftover-state',
].join('\n')

function read(out: string, task: string): string {
  return fs.readFileSync(path.join(out, `${task}.txt`), 'utf8')
}

describe('runBatch recycled worktrees', () => {
  it('hands the next task a worktree that looks exactly like a fresh one', async () => {
    const { r, out } = setup()
    const base = r.git(['rev-parse', 'HEAD']).trim()
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: { ...r.env, OUT: out },
      concurrency: 1,
      batchId: 'recycle',
      tasks: [
        { name: 'fresh', command: { shell: INSPECT }, role: null },
        { name: 'mess', command: { shell: `pwd > "$OUT/mess-dir"\n${MESS}` }, role: null },
        { name: 'probe1', command: { shell: INSPECT }, role: null },
        { name: 'probe2', command: { shell: INSPECT }, role: null },
      ],
    })
    expect(outcome.batch.children.map((c) => c.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
    ])

    const messDir = fs.readFileSync(path.join(out, 'mess-dir'), 'utf8').trim()
    const probes = ['probe1', 'probe2'].map((task) => read(out, task))
    // Two worktrees take turns (the first and a spare), so a probe ran in the one the mess was made in.
    const after = probes.find((seen) => seen.startsWith(`dir: ${messDir}\n`))
    expect(after).toBeDefined()
    const withoutDir = (seen: string) => seen.replace(/^dir: .*\n/, '')
    const fresh = read(out, 'fresh')
    for (const seen of probes) expect(withoutDir(seen)).toBe(withoutDir(fresh))
    expect(after).toContain(`head: ${base}\nbranch: detached\n`)
    // Only the session's own (ignored) state; none of the previous task's files, tracked or not.
    expect(after).toMatch(/status:\n!! \.proctor\/\nfiles:\n/)
    expect(after).toContain('./src/a.ts\n')
    expect(after).not.toMatch(/untracked|debug\.log|build|on-branch/)
    expect(after).toContain('state: .gitignore runs sessions \nsessions: 1\nruns: 1\nreadme: hello\n')

    // The task's commit lives on in its branch, as it would after a fresh worktree was removed.
    expect(r.git(['show', 'task-branch:on-branch.txt'])).toBe('committed\n')
    expect(r.git(['rev-parse', 'HEAD']).trim()).toBe(base)
    // Every report was collected before its worktree was reset.
    for (const child of outcome.batch.children) expect(fs.existsSync(child.report_path!)).toBe(true)
    expect(extraWorktrees(r)).toEqual([])
    expect(fs.existsSync(path.join(r.dir, '.proctor/worktrees/recycle'))).toBe(false)
  })

  it('makes at most one worktree more than the concurrency, however many tasks', async () => {
    const { r, out } = setup()
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: { ...r.env, OUT: out },
      concurrency: 2,
      batchId: 'two',
      tasks: Array.from({ length: 8 }, (_, i) => ({
        name: `t${i}`,
        command: { shell: `echo mine > mine-${i}.txt\n${INSPECT}` },
        role: null,
      })),
    })
    expect(outcome.batch.completed_count).toBe(8)
    const dirs = new Set<string>()
    for (let i = 0; i < 8; i++) {
      const seen = read(out, `t${i}`)
      dirs.add(/^dir: (.*)$/m.exec(seen)![1]!)
      // Each task sees its own file and no other task's.
      expect(seen.match(/mine-\d\.txt/g)).toEqual([`mine-${i}.txt`, `mine-${i}.txt`])
    }
    expect(dirs.size).toBeLessThanOrEqual(3)
    for (const dir of dirs) expect(path.dirname(dir)).toBe(path.join(r.dir, '.proctor/worktrees/two'))
    expect(extraWorktrees(r)).toEqual([])
  })

  it('replaces a worktree that cannot safely be reset, and never touches the main worktree', async () => {
    const { r, out } = setup()
    // The user's own uncommitted work: had git been run in a worktree without its .git link, it would have
    // found this repository instead and reset it.
    r.write('README.md', 'my uncommitted edit\n')
    r.write('mine.txt', 'untracked, mine\n')
    let said = ''
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: { ...r.env, OUT: out },
      concurrency: 1,
      batchId: 'broken',
      output: {
        write: (chunk: string) => {
          said += chunk
          return true
        },
      } as NodeJS.WritableStream,
      tasks: [
        { name: 'unlink', command: { shell: 'rm .git && echo x > stray.txt' }, role: null },
        { name: 'rebase', command: { shell: 'mkdir "$(git rev-parse --git-dir)/rebase-merge"' }, role: null },
        { name: 'after', command: { shell: INSPECT }, role: null },
      ],
    })
    expect(r.read('README.md')).toBe('my uncommitted edit\n')
    expect(r.read('mine.txt')).toBe('untracked, mine\n')
    expect(r.git(['status', '--porcelain'])).toBe(' M README.md\n?? mine.txt\n')
    expect(outcome.batch.children.map((c) => c.status)).toEqual(['completed', 'completed', 'completed'])
    expect(said).toMatch(/worktree .*0-unlink could not be reset .*\.git link is gone.*using a fresh one/)
    expect(said).toMatch(/worktree .*1-rebase could not be reset .*rebase-merge.*using a fresh one/)
    // Each broken worktree was replaced by a fresh one, named after the task it was made for.
    expect(read(out, 'after')).toMatch(/^dir: .*\/\.proctor\/worktrees\/broken\/2-after$/m)
    expect(read(out, 'after')).toMatch(/status:\n!! \.proctor\/\nfiles:\n/)
    expect(extraWorktrees(r)).toEqual([])
    expect(fs.existsSync(path.join(r.dir, '.proctor/worktrees/broken'))).toBe(false)
  })
})
