// The built CLI's gates and endings with real processes: stop hooks that cannot run, async lifecycle hooks
// that must finish before proctor exits (or be stopped at the drain deadline), and detector answers that
// reach an agent without a terminal (--no-pty) — or are reported as not delivered.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'

const dist = resolve(process.env.PROCTOR_E2E_DIST || resolve(import.meta.dirname, '../../dist'))
const cli = join(dist, 'cli.js')

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`)
})

function repo(config: string, files: Record<string, string> = {}): TempRepo {
  const r = makeTempRepo({ files: { 'README.md': '# test\n', 'proctor.yml': config, ...files } })
  repos.push(r)
  return r
}

function proctor(r: TempRepo, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1' }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID' || key === 'CI') delete env[key]
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env,
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

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

const quiet = `checkpoints: { enabled: false }\n`

describe('stop hooks fail closed', () => {
  it('a hook that is not found blocks (exit 1) but the agent is not sent back; an advisory failure does not block', async () => {
    const r = repo(
      `${quiet}agent:
  continue: [sh, -c, "echo sent-back > continued.txt"]
stop_hooks:
  - { name: tests, command: "npm-tset" }
  - { name: docs, command: "echo 'docs are stale'; exit 1", advisory: true }
`,
    )
    const run = await proctor(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo done'])
    expect(run.code, run.stderr).toBe(1)
    const report = onlyReport(r)
    expect(report).toMatchObject({ status: 'completed', verdict: 'block', rounds: 1 })
    expect(report.reason).toMatch(
      /^stop hooks could not run \(fix proctor.yml; the agent was not sent back\): tests: /,
    )
    expect(report.reason).toContain('command not found')
    expect(r.exists('continued.txt')).toBe(false)
    const hooks = report.stop_hooks.map((h) => [h.name, h.verdict, h.advisory ?? false])
    expect(hooks.sort()).toEqual([
      ['docs', 'error', true],
      ['tests', 'error', false],
    ])

    const advisoryOnly = repo(
      `${quiet}stop_hooks:\n  - { name: docs, command: "echo 'docs are stale'; exit 1", on_error: allow }\n`,
    )
    const allowed = await proctor(advisoryOnly, ['run', '--no-pty', '--', 'sh', '-c', 'echo done'])
    expect(allowed.code, allowed.stderr).toBe(0)
    expect(onlyReport(advisoryOnly)).toMatchObject({ verdict: 'allow', stop_hooks: [{ advisory: true }] })
  })
})

describe('async lifecycle hooks finish before proctor exits', () => {
  it('an async session_end hook (the README example) runs to the end and writes its file', async () => {
    const r = repo(
      `${quiet}hooks:
  session_end: [ { command: "sleep 0.3; cat > session-end.json", async: true, timeout: 60s } ]
`,
    )
    const run = await proctor(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo done'])
    expect(run.code, run.stderr).toBe(0)
    const payload = JSON.parse(r.read('session-end.json')) as Record<string, unknown>
    expect(payload).toMatchObject({
      hook_event_name: 'session_end',
      extra: { status: 'completed', verdict: 'allow', exit_code: 0 },
    })
  })

  it('an async hook still running at hooks_async_drain_timeout is stopped, with a warning in the report', async () => {
    const r = repo(
      `${quiet}hooks_async_drain_timeout: 1s
hooks_async_shutdown_grace: 1s
hooks:
  session_end: [ { name: upload, command: "echo $$ > hook.pid; exec sleep 60", async: true, timeout: 5m } ]
`,
    )
    const started = Date.now()
    const run = await proctor(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo done'])
    expect(run.code, run.stderr).toBe(0)
    expect(Date.now() - started).toBeLessThan(20_000)
    const warning = onlyReport(r).events.find(
      (e) => e.kind === 'warning' && e.message.includes('hooks_async_drain_timeout'),
    )
    expect(warning?.message).toMatch(
      /still running after hooks_async_drain_timeout \(1\.0s\): session_end hook upload; stopping them/,
    )
    expect(alive(Number(r.read('hook.pid').trim()))).toBe(false)
  })
})

describe('--no-pty: the agent can be answered', () => {
  const confirm = `${quiet}detect:
  - name: confirm
    match: 'Continue\\? \\[y/N\\]'
    kind: approval_request
    respond: { send: "y\\n" }
`

  it("answers a shell script's `read` prompt through the agent's stdin", async () => {
    const r = repo(confirm)
    const run = await proctor(r, [
      'run',
      '--no-pty',
      '--',
      'sh',
      '-c',
      'printf "Continue? [y/N] "; read answer; echo "got: $answer"; printf "%s" "$answer" > answer.txt',
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(r.read('answer.txt')).toBe('y')
    expect(run.stdout).toContain('got: y')
    const responses = onlyReport(r).events.filter((e) => e.kind === 'response')
    expect(responses).toEqual([
      expect.objectContaining({
        name: 'confirm',
        message: 'send: "y\\n"',
        data: expect.objectContaining({ delivered: true }),
      }),
    ])
    expect(run.stderr).toContain('1 answered')
  })

  it('an answer the agent cannot receive (it closed its stdin) is reported as not delivered', async () => {
    const r = repo(confirm)
    const run = await proctor(r, [
      'run',
      '--no-pty',
      '--',
      'sh',
      '-c',
      'exec 0<&-; printf "Continue? [y/N] "; sleep 1; echo bye',
    ])
    expect(run.code, run.stderr).toBe(0)
    const responses = onlyReport(r).events.filter((e) => e.kind === 'response')
    expect(responses).toHaveLength(1)
    expect(responses[0]!.message).toMatch(/^send: "y\\n" — not delivered: the agent's stdin is closed/)
    expect(responses[0]!.data).toMatchObject({ delivered: false })
    expect(run.stderr).toContain('0 answered, 1 answer(s) not delivered')
  })
})
