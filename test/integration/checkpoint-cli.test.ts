import { Command } from 'commander'
import { afterEach, describe, expect, it } from 'vitest'

import { registerCheckpointsCommand } from '../../src/cli/commands/checkpoints.js'
import { CliExit } from '../../src/cli/exit.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

/** Run `proctor checkpoints …` in-process with the repo as cwd; returns output and exit code. */
async function proctor(
  repo: TempRepo,
  ...args: string[]
): Promise<{ out: string; err: string; code: number }> {
  let out = ''
  let err = ''
  const program = new Command().exitOverride()
  registerCheckpointsCommand(program, {
    cwd: () => repo.dir,
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
  })
  try {
    await program.parseAsync(['checkpoints', ...args], { from: 'user' })
    return { out, err, code: 0 }
  } catch (error) {
    if (error instanceof CliExit) return { out, err: err + error.message, code: error.exitCode }
    throw error
  }
}

function setup(): TempRepo {
  const repo = makeTempRepo({ files: { 'a.txt': 'base\n' } })
  repos.push(repo)
  return repo
}

describe('proctor checkpoints', () => {
  it('create, list, show and diff', async () => {
    const repo = setup()
    repo.write('a.txt', 'one\n')
    const created = await proctor(repo, 'create', '--session', 'cli-1')
    expect(created.out).toMatch(/^cli-1@1 [0-9a-f]{12}: 1 file\(s\)/)
    expect((await proctor(repo, 'create', '--session', 'cli-1')).out).toMatch(/nothing changed/)
    repo.write('b c.txt', 'two\n')
    await proctor(repo, 'create', '--session', 'cli-1')

    const list = await proctor(repo, 'list')
    expect(list.out).toContain('cli-1  (2 checkpoints)')
    expect(list.out).toMatch(/@1 .*proctor checkpoint 1 \(manual\): 1 file/)

    const show = await proctor(repo, 'show', 'cli-1@2')
    expect(show.out).toContain('A b c.txt +1 -0')

    const diff = await proctor(repo, 'diff', 'cli-1@1', 'cli-1@2', '--json')
    expect(JSON.parse(diff.out).map((f: { path: string }) => f.path)).toEqual(['b c.txt'])
    const patch = await proctor(repo, 'diff', 'cli-1@1', 'latest', '--patch')
    expect(patch.out).toContain('+two')
  })

  it('create withholds a file that holds a secret, as a session’s checkpoints do, and says why', async () => {
    // An agent inside a session can run `proctor checkpoints create` itself (PROCTOR_SESSION_ID is set):
    // what it records joins the session's chain, which the session pushes.
    const repo = setup()
    const token = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`
    repo.write('deploy.txt', `token: ${token}\n`)
    repo.write('a.txt', 'one\n')
    const created = await proctor(repo, 'create', '--session', 'cli-s')
    expect(created.out).toContain('skipped (holds a secret): deploy.txt')
    expect(repo.git(['log', '-p', '--format=%B', 'refs/proctor/cli-s'])).not.toContain(token)
    expect(repo.git(['show', 'refs/proctor/cli-s:a.txt'])).toBe('one\n')
  })

  it('restores files and tells how to undo; refusals exit 1 with the reason', async () => {
    const repo = setup()
    repo.write('a.txt', 'one\n')
    await proctor(repo, 'create', '--session', 'cli-2')
    repo.write('a.txt', 'two\n')
    const restored = await proctor(repo, 'restore', 'cli-2@1', '--files', 'a.txt')
    expect(restored.code).toBe(0)
    expect(repo.read('a.txt')).toBe('one\n')
    expect(restored.out).toMatch(/undo with: proctor checkpoints restore cli-2@2/)

    repo.commitAll('moved on')
    const refused = await proctor(repo, 'restore', 'cli-2@1')
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/refusing to restore the whole tree/)
  })

  it('answers unknown ids with exit 2 and the sessions that exist', async () => {
    const repo = setup()
    repo.write('a.txt', 'one\n')
    await proctor(repo, 'create', '--session', 'cli-3')
    const bad = await proctor(repo, 'show', 'nope@1')
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/no session "nope"; sessions: cli-3/)
    const badSession = await proctor(repo, 'create', '--session', '../evil')
    expect(badSession.code).toBe(2)
    expect(badSession.err).toMatch(/invalid session id/)
  })

  it('push without a remote keeps the checkpoints and writes a bundle (exit 1)', async () => {
    const repo = setup()
    repo.write('a.txt', 'one\n')
    await proctor(repo, 'create', '--session', 'cli-4')
    const pushed = await proctor(repo, 'push')
    expect(pushed.code).toBe(1)
    expect(pushed.out).toMatch(/not pushed: no remote named "origin"/)
    expect(pushed.out).toMatch(/checkpoints saved to .*\.proctor\/sessions\/cli-4\/checkpoints\.bundle/)
  })
})
