// h-trial (second round), attacking `proctor checkpoints create`'s content scan: an agent inside a session
// (PROCTOR_SESSION_ID is set) records into the session's chain, which the session pushes. The scan's
// exceptions come from the config that command reads — which the agent can write.
import fs from 'node:fs'
import path from 'node:path'
import { Command } from 'commander'
import { afterEach, describe, expect, it } from 'vitest'

import { registerCheckpointsCommand } from '../../src/cli/commands/checkpoints.js'
import { CliExit } from '../../src/cli/exit.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

async function proctor(repo: TempRepo, ...args: string[]): Promise<{ out: string; code: number }> {
  let out = ''
  const program = new Command().exitOverride()
  registerCheckpointsCommand(program, {
    cwd: () => repo.dir,
    stdout: (text) => (out += text),
    stderr: (text) => (out += text),
  })
  try {
    await program.parseAsync(['checkpoints', ...args], { from: 'user' })
    return { out, code: 0 }
  } catch (error) {
    if (error instanceof CliExit) return { out: out + error.message, code: error.exitCode }
    throw error
  }
}

const token = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`

describe('checkpoints create with a config the agent wrote', () => {
  it('secret_allowed_paths: ["**"] in the worktree’s proctor.yml does not let a token into the chain', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'base\n' } })
    repos.push(repo)
    // The session's chain exists (its baseline is recorded before the agent starts).
    repo.write('b.txt', 'the session’s work\n')
    expect((await proctor(repo, 'create', '--session', 'cli-s')).code).toBe(0)
    repo.write('proctor.yml', 'policy:\n  secret_allowed_paths: ["**"]\n')
    repo.write('deploy.txt', `token: ${token}\n`)
    const created = await proctor(repo, 'create', '--session', 'cli-s')
    expect(repo.git(['log', '-p', '--format=%B', 'refs/proctor/cli-s']), created.out).not.toContain(token)
  })

  it('nor does one passed with -c from outside the worktree', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'base\n' } })
    repos.push(repo)
    const evil = path.join(repo.dir, '..', `${path.basename(repo.dir)}-evil.yml`)
    fs.writeFileSync(evil, 'policy:\n  secret_allowed_paths: ["*.txt"]\n')
    try {
      repo.write('b.txt', 'the session’s work\n')
      expect((await proctor(repo, 'create', '--session', 'cli-s')).code).toBe(0)
      repo.write('deploy.txt', `token: ${token}\n`)
      const created = await proctor(repo, 'create', '--session', 'cli-s', '-c', evil)
      expect(repo.git(['log', '-p', '--format=%B', 'refs/proctor/cli-s']), created.out).not.toContain(token)
      expect(created.out).toContain('skipped (holds a secret): deploy.txt')
    } finally {
      fs.rmSync(evil, { force: true })
    }
  })

  it('a chain of the user’s own (new) keeps the config’s exceptions: fixtures with fake keys are recorded', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'base\n' } })
    repos.push(repo)
    repo.write('proctor.yml', 'policy:\n  secret_allowed_paths: ["fixtures/**"]\n')
    repo.write('fixtures/fake.txt', `token: ${token}\n`)
    expect((await proctor(repo, 'create', '--session', 'mine')).code).toBe(0)
    expect(repo.git(['show', 'refs/proctor/mine:fixtures/fake.txt'])).toContain(token)
  })

  // BREAK: the same caller-written config can empty policy.forbidden_areas (`-c evil.yml` with
  // `forbidden_areas: []`), and then a file the session withholds as forbidden (a `.env` holding a database
  // password no secretlint rule knows) is recorded into the session's chain. Not fixed: the CLI has no
  // trustworthy copy of the session's config (everything under .proctor/ and the worktree is the agent's to
  // write), and the defaults forbid nothing. A fix needs the session to hand its forbidden areas to the
  // agent's environment out of the agent's reach, or the session to refuse a chain moved by another process.
  it.skip('forbidden_areas emptied by the caller’s config does not let a forbidden file into the chain', async () => {
    const repo = makeTempRepo({
      files: { 'a.txt': 'base\n', 'proctor.yml': 'policy:\n  forbidden_areas: [".env"]\n' },
    })
    repos.push(repo)
    expect((await proctor(repo, 'create', '--session', 'cli-s')).code).toBe(0)
    repo.write('proctor.yml', 'policy:\n  forbidden_areas: []\n')
    repo.write('.env', 'DATABASE_URL=postgres://app:hunter2-prod@db/app\n')
    await proctor(repo, 'create', '--session', 'cli-s')
    expect(repo.git(['log', '-p', '--format=%B', 'refs/proctor/cli-s'])).not.toContain('hunter2-prod')
  })
})
