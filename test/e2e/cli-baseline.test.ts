// The user's work is never the agent's (issue 27): the built CLI on real repositories whose worktree is
// dirty when the session starts — a modified tracked file, a staged one, untracked files in allowed,
// protected and forbidden areas — judges only what the agent changes after that, reverts a path to the
// state the user left it in, and never deletes or rewrites a path the agent did not touch.
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync, utimesSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, userState, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function proctor(r: TempRepo, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID' || key === 'CI') delete env[key]
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })))
}

function report(r: TempRepo, session: string): SessionReport {
  return JSON.parse(
    readFileSync(join(r.dir, '.proctor/sessions', session, 'report.json'), 'utf8'),
  ) as SessionReport
}

/** Every error-or-worse violation blocks; forbidden areas are critical, so revert_on_violation acts on them. */
const POLICY = `checkpoints: { push: never }
policy:
  allowed_areas: ["src/**"]
  protected_areas: ["config/**"]
  forbidden_areas: [".env", "secrets/**"]
  violation_severity: error
  severities: { forbidden_area: critical }
  revert_on_violation: true
`

/** The paths the user left changed before the session, as `git status` would call them. */
const PRE_EXISTING = [
  '.env',
  'config/app.yml',
  'config/local.yml',
  'notes.txt',
  'secrets/mykey.txt',
  'src/a.txt',
  'src/b.txt',
  'src/mine.txt',
]

/**
 * A repository as a user leaves it on a laptop: src/a.txt modified, src/b.txt staged, untracked files in
 * the allowed area (src/mine.txt), outside it (notes.txt), in the protected area (config/local.yml, and
 * config/app.yml modified) and in forbidden ones (.env, secrets/mykey.txt).
 */
function dirtyRepo(): TempRepo {
  const r = makeTempRepo({
    files: {
      'proctor.yml': POLICY,
      'src/a.txt': 'a\n',
      'src/b.txt': 'b\n',
      'src/c.txt': 'c\n',
      'config/app.yml': 'x: 1\n',
      'README.md': '# test\n',
    },
  })
  repos.push(r)
  r.write('src/a.txt', 'a\nthe user was here\n')
  r.write('src/b.txt', 'b\nstaged by the user\n')
  r.git(['add', 'src/b.txt'])
  r.write('src/mine.txt', 'the user started this\n')
  r.write('notes.txt', 'my notes\n')
  r.write('config/app.yml', 'x: 2\n')
  r.write('config/local.yml', 'local: true\n')
  r.write('.env', 'SECRET=user\n')
  r.write('secrets/mykey.txt', 'the user key\n')
  return r
}

describe('a session starts from the tree as the user left it', () => {
  it('a no-op agent on a dirty tree: allow, exit 0, no violation; index, HEAD and every file unchanged', async () => {
    const r = dirtyRepo()
    const before = userState(r)

    const run = await proctor(r, ['run', '--session', 'noop', '--', 'true'])

    expect(run.code).toBe(0)
    const rep = report(r, 'noop')
    expect(rep.verdict).toBe('allow')
    expect(rep.violations).toEqual([])
    expect(rep.baseline?.pre_existing).toEqual(PRE_EXISTING)
    expect(rep.baseline?.pre_existing_count).toBe(8)
    expect(run.stderr).toContain('8 files were already changed before the session; not judged')
    expect(userState(r)).toBe(before)
    // The baseline is checkpoint 0 on the session's ref, on top of HEAD; the forbidden content is not in it.
    const baseline = rep.baseline!.commit!
    expect(r.git(['rev-parse', 'refs/proctor/noop']).trim()).toBe(baseline)
    expect(r.git(['rev-parse', `${baseline}^`]).trim()).toBe(r.git(['rev-parse', 'HEAD']).trim())
    const tree = r.git(['ls-tree', '-r', '--name-only', baseline]).split('\n')
    expect(tree).toEqual(
      expect.arrayContaining(['src/a.txt', 'src/mine.txt', 'notes.txt', 'config/local.yml']),
    )
    expect(tree).not.toContain('.env')
    expect(tree).not.toContain('secrets/mykey.txt')
  })

  it("judges only the agent's own delta: a pre-existing file changed further, another deleted, the rest left", async () => {
    const r = dirtyRepo()
    const before = userState(r, { exceptFiles: (f) => f === 'src/a.txt' || f === 'src/mine.txt' })

    const run = await proctor(r, [
      'run',
      '--session',
      'delta',
      '--',
      'sh',
      '-c',
      'echo "the agent was here" >> src/a.txt; rm src/mine.txt',
    ])

    expect(run.code).toBe(0)
    const rep = report(r, 'delta')
    expect(rep.verdict).toBe('allow')
    expect(rep.violations).toEqual([])
    expect([...new Set(rep.checkpoints.flatMap((c) => c.files_changed))].sort()).toEqual([
      'src/a.txt',
      'src/mine.txt',
    ])
    // The agent's diff, from the baseline to its latest checkpoint, is exactly its two changes.
    const latest = rep.checkpoints.at(-1)!.sha
    const patch = r.git(['diff', rep.baseline!.commit!, latest, '--', 'src/a.txt'])
    expect(patch).toContain('+the agent was here')
    expect(patch).not.toContain('+the user was here')
    expect(r.git(['diff', '--name-status', rep.baseline!.commit!, latest])).toBe(
      'M\tsrc/a.txt\nD\tsrc/mine.txt\n',
    )
    expect(r.read('src/a.txt')).toBe('a\nthe user was here\nthe agent was here\n')
    expect(userState(r, { exceptFiles: (f) => f === 'src/a.txt' || f === 'src/mine.txt' })).toBe(before)
  })

  it('revert_on_violation puts a forbidden file back as the user left it and touches nothing else', async () => {
    const r = dirtyRepo()
    const before = userState(r)

    const run = await proctor(r, [
      'run',
      '--session',
      'revert',
      '--',
      'sh',
      '-c',
      'echo "AGENT=1" >> .env; echo agent > secrets/agent.txt; rm secrets/mykey.txt',
    ])

    const rep = report(r, 'revert')
    const forbidden = rep.violations.filter((v) => v.constraint === 'forbidden_area')
    expect(forbidden.map((v) => [v.file, v.reverted]).sort()).toEqual([
      ['.env', true],
      ['secrets/agent.txt', true],
      ['secrets/mykey.txt', true],
    ])
    // Only the agent's changes were judged (also as outside src/**): none of the user's own files.
    expect([...new Set(rep.violations.map((v) => v.file))].sort()).toEqual([
      '.env',
      'secrets/agent.txt',
      'secrets/mykey.txt',
    ])
    expect(run.code).toBe(0)
    // .env has the user's content again (never HEAD's, never deleted), the key the agent deleted is back
    // (from the local-only copy: it was never in a checkpoint), the agent's new file is gone; every other
    // path, the index and HEAD are byte-identical to before the session.
    expect(r.read('.env')).toBe('SECRET=user\n')
    expect(r.read('secrets/mykey.txt')).toBe('the user key\n')
    expect(r.exists('secrets/agent.txt')).toBe(false)
    expect(userState(r)).toBe(before)
    // The user's forbidden content was never put into a checkpoint that can be pushed.
    for (const c of rep.checkpoints) {
      expect(r.git(['ls-tree', '-r', '--name-only', c.sha])).not.toMatch(/^(\.env|secrets\/)/m)
    }
  })

  it("restore of checkpoint 0 gives back the tree as the user left it, and its undo gives back the agent's", async () => {
    const r = dirtyRepo()
    const before = userState(r)
    const run = await proctor(r, [
      'run',
      '--session',
      'rst',
      '--',
      'sh',
      '-c',
      'echo "the agent was here" >> src/a.txt; rm src/mine.txt; echo new > src/agent.txt',
    ])
    expect(run.code).toBe(0)
    const after = userState(r)

    const restored = await proctor(r, ['checkpoints', 'restore', 'rst@0'])
    expect(restored.code).toBe(0)
    // Byte-identical to before the session: the user's modified, staged and untracked files, the forbidden
    // ones (left alone: never in a checkpoint), the index and HEAD.
    expect(userState(r)).toBe(before)
    const undo = /undo with: proctor (checkpoints restore \S+)/.exec(restored.stdout + restored.stderr)
    expect(undo).not.toBeNull()
    const undone = await proctor(r, undo![1]!.split(' '))
    expect(undone.code).toBe(0)
    expect(userState(r)).toBe(after)
  })

  it('a session continued with --session keeps its first baseline, even after the user committed', async () => {
    const r = dirtyRepo()
    expect((await proctor(r, ['run', '--session', 'cont', '--', 'true'])).code).toBe(0)
    const first = report(r, 'cont').baseline!.commit
    r.git(['commit', '-q', '-m', 'the user commits what they had staged'])

    const run = await proctor(r, ['run', '--session', 'cont', '--', 'sh', '-c', 'echo agent >> src/c.txt'])

    expect(run.code).toBe(0)
    const rep = report(r, 'cont')
    expect(rep.violations).toEqual([])
    expect(rep.checkpoints.map((c) => c.files_changed)).toEqual([['src/c.txt']])
    expect(r.git(['diff', '--name-status', first!, rep.checkpoints[0]!.sha])).toBe('M\tsrc/c.txt\n')
  })

  it("checkpoint 1 holds every file when the user's index is older than the stale-index age and the agent is fast", async () => {
    const files: Record<string, string> = { 'proctor.yml': 'checkpoints: { push: never }\n' }
    for (let i = 1; i <= 50; i++) files[`f${i}.txt`] = `${i}\n`
    const r = makeTempRepo({ files })
    repos.push(r)
    const old = new Date(Date.now() - 11 * 60 * 1000)
    utimesSync(join(r.dir, '.git/index'), old, old)

    const run = await proctor(r, ['run', '--session', 'fast', '--', 'sh', '-c', 'echo x >> f1.txt'])

    expect(run.code).toBe(0)
    const rep = report(r, 'fast')
    expect(rep.checkpoints.map((c) => c.files_changed)).toEqual([['f1.txt']])
    const tip = rep.checkpoints[0]!.sha
    expect(r.git(['ls-tree', '-r', '--name-only', tip]).trim().split('\n')).toHaveLength(51)
    expect(r.git(['diff', '--name-status', 'HEAD', tip])).toBe('M\tf1.txt\n')
    // The session's private index and its owner record are gone at the end; nothing else is left.
    expect(readdirSync(join(r.dir, '.git/proctor'))).toEqual([])
  })
})
