// The policy as a gate, end to end: the built CLI supervising a scripted agent in a real repository,
// pushing checkpoints to a real git remote over loopback HTTP. What must hold: forbidden content never
// enters a checkpoint or reaches the remote; an unresolved error blocks the session (exit 1) and sends the
// agent back until it fixes it; a planted git hook or fsmonitor is a critical violation and undone;
// checkpoints that keep failing end the session errored.
import { spawn } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'
import type { SessionReport } from '../../src/report/model.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')
const agent = join(root, 'test/fixtures/agents/policy-agent.mjs')
const SECRET = 'AKIAIOSFODNN7EXAMPLE'

const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function repo(): TempRepo {
  const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
  cleanups.push(() => r.cleanup())
  return r
}

/** Runs the built CLI asynchronously (the git server lives in this process and must keep answering). */
function proctor(r: TempRepo, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID' || key === 'CI') delete env[key]
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env: { ...env, NO_COLOR: '1', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })))
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = join(r.dir, '.proctor/sessions')
  const ids = readdirSync(sessions)
  expect(ids).toHaveLength(1)
  return JSON.parse(readFileSync(join(sessions, ids[0]!, 'report.json'), 'utf8')) as SessionReport
}

function config(lines: string): string {
  return `agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
  pty: false
timeouts: { total: 2m, idle: 1m, grace: 2s }
${lines}
`
}

async function gitServer(): Promise<{ server: GitHttpServer; bare: string; url: string }> {
  const projectRoot = mkdtempSync(join(tmpdir(), 'proctor-srv-'))
  mkdirSync(projectRoot, { recursive: true })
  const server = await startGitHttpServer({ projectRoot })
  cleanups.push(() => rmSync(projectRoot, { recursive: true, force: true }))
  cleanups.push(() => server.close())
  const bare = server.createRepo('origin.git')
  return { server, bare, url: server.repoUrl('origin.git') }
}

/** Every blob path of every checkpoint commit of the session (all of them, not only the last). */
function checkpointPaths(r: TempRepo, report: SessionReport): string[] {
  return report.checkpoints.flatMap((c) => r.git(['ls-tree', '-r', '-z', '--name-only', c.sha]).split('\0'))
}

describe('policy: nothing forbidden leaves the machine', () => {
  it('a forbidden file with an AWS key is in no checkpoint tree and not on the remote; the session blocks with exit 1', async () => {
    const { bare, url } = await gitServer()
    const r = repo()
    r.write(
      'proctor.yml',
      // push_ci_changes: the plan adds a workflow, which is otherwise never pushed; here the push must happen
      // for the remote to be searched for the forbidden file.
      config(`checkpoints: { push: always, interval: 1h, push_ci_changes: true }
policy:
  forbidden_areas: ["secrets/**"]
  protected_areas: [".github/**"]
  violation_severity: error`),
    )
    r.commitAll('config')
    r.git(['remote', 'add', 'origin', url])

    const run = await proctor(r, ['run'], { POLICY_AGENT_PLAN: 'secret,workflow,newline' })
    const report = onlyReport(r)
    expect(run.code, run.stderr).toBe(1)
    expect(report).toMatchObject({ status: 'completed', verdict: 'block', exit_code: 1 })
    expect(report.reason).toContain('secrets/aws.txt')

    // Flagged: the forbidden file, the new workflow under a protected area, the name with a newline.
    const flagged = report.violations.map((v) => [v.constraint, v.file, v.severity])
    expect(flagged).toContainEqual(['forbidden_area', 'secrets/aws.txt', 'error'])
    expect(flagged).toContainEqual(['protected_area', '.github/workflows/exfiltrate.yml', 'error'])
    expect(flagged).toContainEqual(['unsafe_path', 'src/forged\nline.txt', 'error'])

    // The checkpoints record the file as skipped, and hold neither its path nor its content.
    expect(report.checkpoints.length).toBeGreaterThanOrEqual(1)
    expect(report.checkpoints.some((c) => c.skipped.includes('secrets/aws.txt'))).toBe(true)
    const paths = checkpointPaths(r, report)
    expect(paths).toContain('src/app.js')
    expect(paths).not.toContain('secrets/aws.txt')
    const everything = r.git(['log', '-p', '--all', '--format=%B'])
    expect(everything).not.toContain(SECRET)
    expect(everything).toContain('Skipped "secrets/aws.txt": in a forbidden area')

    // Pushed, and the remote has nothing of it either.
    expect(report.pushed).toMatchObject({ ok: true })
    const remote = (args: string[]) => execFileSync('git', args, { cwd: bare, encoding: 'utf8' })
    expect(remote(['for-each-ref', '--format=%(refname)'])).toContain(
      `refs/heads/proctor/${report.session_id}`,
    )
    expect(remote(['log', '-p', '--all'])).not.toContain(SECRET)
    expect(remote(['cat-file', '--batch-all-objects', '--batch'])).not.toContain(SECRET)

    // The file itself stays in the worktree, untouched.
    expect(r.read('secrets/aws.txt')).toContain(SECRET)
  })
})

describe('policy: the gate sends the agent back', () => {
  it('an agent that deletes its forbidden file after being sent back passes the policy gate', async () => {
    const r = repo()
    const log = join(r.dir, '..', `${r.dir.split('/').pop()}-reasons.log`)
    cleanups.push(() => rmSync(log, { force: true }))
    r.write(
      'proctor.yml',
      `agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
  continue: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}, --continue, "{reason}"]
  pty: false
timeouts: { total: 2m, idle: 1m, grace: 2s }
checkpoints: { push: never, interval: 1h }
policy:
  forbidden_areas: ["secrets/**"]
  violation_severity: error
`,
    )
    r.commitAll('config')

    const run = await proctor(r, ['run'], { POLICY_AGENT_PLAN: 'secret', POLICY_AGENT_LOG: log })
    const report = onlyReport(r)
    expect(run.code, run.stderr).toBe(0)
    expect(report).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0, rounds: 2 })
    expect(report.stop_hooks.map((h) => [h.name, h.round, h.verdict])).toEqual([
      ['policy', 1, 'block'],
      ['policy', 2, 'allow'],
    ])
    // The agent heard the violation's message and suggestion.
    const told = readFileSync(log, 'utf8')
    expect(told).toContain('forbidden_area: secrets/aws.txt was added')
    expect(told).toContain('rm secrets/aws.txt')
    expect(r.exists('secrets/aws.txt')).toBe(false)
    expect(report.violations).toEqual([
      expect.objectContaining({ constraint: 'forbidden_area', file: 'secrets/aws.txt', resolved: true }),
    ])
    expect(r.git(['log', '-p', '--all'])).not.toContain(SECRET)
  })
})

describe('policy: warnings reach the agent', () => {
  it('an interactive agent hears a warning at its idle prompt (a detector rule of kind idle)', async () => {
    const r = repo()
    const log = join(r.dir, '..', `${r.dir.split('/').pop()}-typed.log`)
    cleanups.push(() => rmSync(log, { force: true }))
    r.write(
      'proctor.yml',
      `agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
timeouts: { total: 2m, idle: 1m, grace: 2s }
detect:
  - { name: prompt, match: 'Waiting for input >', kind: idle }
checkpoints: { push: never, interval: 1h }
policy:
  protected_areas: [".github/**"]
`,
    )
    r.commitAll('config')
    const run = await proctor(r, ['run'], {
      POLICY_AGENT_PLAN: 'workflow,idle-prompt',
      POLICY_AGENT_LOG: log,
    })
    const report = onlyReport(r)
    expect(run.code, run.stderr).toBe(0) // a warning does not block
    const typed = readFileSync(log, 'utf8')
    expect(typed).toContain('proctor: policy warnings')
    expect(typed).toContain(
      '.github/workflows/exfiltrate.yml is protected (policy.protected_areas ".github/**") and was added',
    )
    expect(report.events.filter((e) => e.kind === 'policy_notice')).toHaveLength(1)
  })
})

describe("policy: the repository's own machinery", () => {
  it('a planted .git/hooks/post-checkout and core.fsmonitor are critical git_tamper violations, and are gone afterwards', async () => {
    const r = repo()
    r.write('proctor.yml', config('checkpoints: { push: never, interval: 1h }'))
    r.commitAll('config')
    const configBefore = readFileSync(join(r.dir, '.git/config'))

    const run = await proctor(r, ['run'], { POLICY_AGENT_PLAN: 'tamper' })
    const report = onlyReport(r)
    const tamper = report.violations.filter((v) => v.constraint === 'git_tamper')
    expect(tamper).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: '.git/hooks/post-checkout', severity: 'critical', reverted: true }),
        expect.objectContaining({ file: '.git/config', severity: 'critical', reverted: true }),
      ]),
    )
    expect(tamper.find((v) => v.file === '.git/config')!.message).toContain(
      'core.fsmonitor set to "echo pwned"',
    )
    expect(
      report.events.some((e) => e.kind === 'revert' && e.message.includes('.git/hooks/post-checkout')),
    ).toBe(true)
    expect(existsSync(join(r.dir, '.git/hooks/post-checkout'))).toBe(false)
    expect(readFileSync(join(r.dir, '.git/config')).equals(configBefore)).toBe(true)
    // Undone, so it no longer holds the session back.
    expect(run.code, run.stderr).toBe(0)
  })

  it('with git_tamper: report the change stays, and the session ends blocked', async () => {
    const r = repo()
    r.write(
      'proctor.yml',
      config('checkpoints: { push: never, interval: 1h }\npolicy: { git_tamper: report }'),
    )
    r.commitAll('config')
    const run = await proctor(r, ['run'], { POLICY_AGENT_PLAN: 'tamper' })
    const report = onlyReport(r)
    expect(run.code).toBe(1)
    expect(report.verdict).toBe('block')
    expect(report.reason).toContain('.git/hooks/post-checkout')
    expect(existsSync(join(r.dir, '.git/hooks/post-checkout'))).toBe(true)
  })
})

describe('policy: revert_on_violation', () => {
  it('a critical file the agent adds is taken out of the worktree at its checkpoint, and the report says so', async () => {
    const r = repo()
    r.write(
      'proctor.yml',
      config(`checkpoints: { push: never, interval: 1h }
policy:
  protected_areas: [".github/**"]
  severities: { protected_area: critical }
  revert_on_violation: true`),
    )
    r.commitAll('config')
    await proctor(r, ['run'], { POLICY_AGENT_PLAN: 'workflow' })
    const report = onlyReport(r)
    expect(report.violations).toContainEqual(
      expect.objectContaining({
        constraint: 'protected_area',
        file: '.github/workflows/exfiltrate.yml',
        severity: 'critical',
        reverted: true,
      }),
    )
    expect(
      report.events.some(
        (e) => e.kind === 'revert' && e.message.includes('.github/workflows/exfiltrate.yml'),
      ),
    ).toBe(true)
    expect(existsSync(join(r.dir, '.github/workflows/exfiltrate.yml'))).toBe(false)
    expect(r.read('src/app.js')).toBe('export const answer = 42\n')
  })
})

describe('checkpoint failures add up', () => {
  it('beyond checkpoints.max_failures the agent is stopped and the session ends errored, exit 1', async () => {
    const r = repo()
    r.write(
      'proctor.yml',
      config(`checkpoints: { push: never, interval: 200ms, min_interval: 0s, max_failures: 2 }`),
    )
    r.commitAll('config')
    const started = Date.now()
    const run = await proctor(r, ['run'], { POLICY_AGENT_PLAN: 'lock-index,sleep' })
    const report = onlyReport(r)
    expect(run.code, run.stderr).toBe(1)
    expect(report.status).toBe('errored')
    expect(report.verdict).toBe('block')
    expect(report.reason).toMatch(/checkpoints failed 3 times in a row \(checkpoints\.max_failures: 2\)/)
    // The agent would have slept two minutes: it was stopped.
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(run.stderr).toContain('checkpoints.max_failures')
  })
})
