// The wait after the agent exits (issue 35): the exit's checkpoint lists the worktree, and when nothing
// changed after it (the watcher saw no event) the session ends without listing the whole tree again. The
// last checkpoint still holds every file; a change made after the exit's checkpoint (a stop hook writing
// a file) is still listed and recorded by the final one.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import { writeGitLogger } from '../helpers/git-logger.js'
import { proctorCli } from '../helpers/proctor-process.js'
import type { SessionReport } from '../../src/report/model.js'
import { fixture } from './supervisor-helpers.js'

const FILES = 3000
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

function bigRepo(yml: string): TempRepo {
  const files: Record<string, string> = { 'proctor.yml': yml, '.gitignore': 'node_modules/\n' }
  for (let i = 0; i < FILES; i++) files[`src/f${i}.txt`] = `file ${i}\n`
  const repo = makeTempRepo({ files })
  cleanups.push(repo.cleanup)
  return repo
}

async function session(repo: TempRepo) {
  const bin = tempDir('proctor-git-log-')
  cleanups.push(() => fs.rmSync(bin, { recursive: true, force: true }))
  writeGitLogger(bin, { argv: true })
  const log = path.join(bin, 'calls.log')
  const run = await proctorCli(
    [
      'run',
      '--no-push',
      '--',
      process.execPath,
      fixture('edit-when-watched.mjs'),
      '20',
      '20',
      'src/f100.txt',
    ],
    {
      cwd: repo.dir,
      env: { ...repo.env, PATH: `${bin}:${process.env.PATH}`, PROCTOR_TEST_GIT_LOG: log },
      killAfterMs: 120_000,
    },
  )
  const sessions = path.join(repo.dir, '.proctor/sessions')
  const id = fs.readdirSync(sessions)[0]!
  const report = JSON.parse(fs.readFileSync(path.join(sessions, id, 'report.json'), 'utf8')) as SessionReport
  const calls = fs.readFileSync(log, 'utf8').split('\n')
  // The checkpoints' listings of the worktree: the baseline's before the agent starts, then the agent's.
  const listings = calls.filter(
    (c) => (c.startsWith('ls-files') && c.includes('--modified')) || c.startsWith('status'),
  )
  return { run, report, listings, diagnostics: `${run.stdout}\n${run.stderr}\n${calls.join('\n')}` }
}

/** Every file git would record in the worktree, with its blob id, against the checkpoint's tree. */
function assertHoldsWorktree(repo: TempRepo, commit: string): void {
  const tree = new Map(
    repo
      .git(['ls-tree', '-r', '-z', commit])
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(line.indexOf('\t') + 1), line.split(' ')[2]!.split('\t')[0]!]),
  )
  const onDisk = repo
    .git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
    .split('\0')
    .filter((p) => p && !p.startsWith('.proctor/') && fs.existsSync(path.join(repo.dir, p)))
  const ids = repo
    .git(['hash-object', '--stdin-paths'], { input: onDisk.join('\n') + '\n' })
    .trim()
    .split('\n')
  expect(tree.size).toBe(onDisk.length)
  const differing = onDisk.filter((p, i) => tree.get(p) !== ids[i])
  expect(differing).toEqual([])
}

describe('the end of a session after the agent exits', () => {
  it(`at ${FILES} files, lists the worktree once after the agent's exit, and the last checkpoint holds every file`, async () => {
    const repo = bigRepo('checkpoints:\n  interval: 0\n')
    const { run, report, listings, diagnostics } = await session(repo)
    expect(run.code, diagnostics).toBe(0)
    // The baseline's and the exit's checkpoint list the tree; the final one knows from the watcher that
    // nothing changed since the exit's (before: a third listing that recorded nothing).
    expect(listings, diagnostics).toHaveLength(2)
    const last = report.checkpoints.at(-1)!
    expect(last.trigger).toBe('event')
    expect(last.files_changed).toHaveLength(41)
    expect(last.files_changed).toContain('src/f100.txt')
    assertHoldsWorktree(repo, last.sha)
  })

  it('a stop hook that writes a file after the exit’s checkpoint: the final checkpoint lists and records it', async () => {
    const repo = bigRepo(
      'checkpoints:\n  interval: 0\nstop_hooks:\n  - { name: writes, command: [sh, -c, "echo by the hook > hook-wrote.txt"] }\n',
    )
    const { run, report, listings, diagnostics } = await session(repo)
    expect(run.code, diagnostics).toBe(0)
    expect(listings, diagnostics).toHaveLength(3)
    const last = report.checkpoints.at(-1)!
    expect(last.trigger).toBe('final')
    expect(last.files_changed).toEqual(['hook-wrote.txt'])
    assertHoldsWorktree(repo, last.sha)
  })
})
