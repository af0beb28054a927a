// Issue 13, items 6 and 7, through the real CLI (run from source with tsx: real processes, real git).
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { renderJobSummary } from '../../src/report/markdown.js'
import { hostName, isRunning, processStartToken } from '../../src/supervisor/proc-info.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const root = resolve(import.meta.dirname, '../..')
const repos: TempRepo[] = []
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function repo(config = ''): TempRepo {
  const r = makeTempRepo({
    files: { 'README.md': '# test\n', 'proctor.yml': `agent:\n  pty: false\n${config}` },
  })
  repos.push(r)
  return r
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
  pid: number
}

function proctor(
  r: TempRepo,
  args: string[],
  onStart?: (pid: number) => void,
  extraEnv: NodeJS.ProcessEnv = {},
  onStdout?: (text: string) => void,
): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_')) delete env[key]
  Object.assign(env, extraEnv)
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(root, 'src/cli/main.ts'), ...args],
    {
      cwd: r.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  onStart?.(child.pid!)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('latin1')
    onStdout?.(d.toString('latin1'))
  })
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr, pid: child.pid! })))
}

function reports(r: TempRepo): SessionReport[] {
  const dir = join(r.dir, '.proctor/sessions')
  return readdirSync(dir).map(
    (id) => JSON.parse(readFileSync(join(dir, id, 'report.json'), 'utf8')) as SessionReport,
  )
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('restore through the CLI (issues 13.1, 13.2)', () => {
  it('a 6 MB file over max_file_size is saved before it is overwritten; the printed undo brings it back', async () => {
    const r = repo('checkpoints:\n  push: never\n  max_file_size: 1MB\n')
    await proctor(r, ['run', '--no-push', '--session', 's1', '--', 'sh', '-c', 'echo v1 > data.bin'])
    const big = randomBytes(6 << 20)
    writeFileSync(join(r.dir, 'data.bin'), big)
    const restore = await proctor(r, ['checkpoints', 'restore', 's1@1'])
    expect(restore.code, restore.stderr).toBe(0)
    expect(r.read('data.bin')).toBe('v1\n')
    const undo = /undo with: proctor (checkpoints restore \S+)/.exec(restore.stdout)
    expect(undo, restore.stdout).not.toBeNull()
    const back = await proctor(r, ['checkpoints', 'restore', ...undo![1]!.split(' ').slice(2)])
    expect(back.code, back.stderr).toBe(0)
    expect(readFileSync(join(r.dir, 'data.bin')).equals(big)).toBe(true)
  })

  it('a directory with an ignored file where the checkpoint has a file: refused with the path, exit 1, no stack trace, nothing changed', async () => {
    const r = repo('checkpoints:\n  push: never\n')
    r.write('.gitignore', '*.log\n')
    r.commitAll('ignore logs')
    await proctor(r, [
      'run',
      '--no-push',
      '--session',
      's1',
      '--',
      'sh',
      '-c',
      'echo file > x; echo agent > other.txt',
    ])
    r.remove('x')
    r.write('x/inner.txt', 'saved\n')
    r.write('x/build.log', 'ignored, cannot be saved\n')
    r.write('other.txt', 'changed again\n')
    const restore = await proctor(r, ['checkpoints', 'restore', 's1@1'])
    expect(restore.code).toBe(1)
    expect(restore.stderr).toContain('x/build.log')
    expect(restore.stdout + restore.stderr).not.toMatch(/ENOTDIR|EISDIR|\n\s+at /)
    expect(r.read('other.txt')).toBe('changed again\n')
    expect(r.read('x/build.log')).toBe('ignored, cannot be saved\n')
  })
})

describe('run records the agent can write (issues 13.3, 13.4)', () => {
  it("a forged record naming a bystander's group with its real start time: the next proctor run signals nothing", async () => {
    const r = repo()
    const victim = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
    cleanups.push(() => victim.kill('SIGKILL'))
    const dead = spawn('true')
    await new Promise((done) => dead.on('close', done))
    // What an agent can write into .proctor/runs/ (same user, inside the worktree).
    mkdirSync(join(r.dir, '.proctor/runs'), { recursive: true })
    writeFileSync(
      join(r.dir, '.proctor/runs/forged.json'),
      JSON.stringify({
        version: 1,
        id: 'forged',
        pid: victim.pid,
        pgid: victim.pid,
        start: processStartToken(victim.pid!),
        token: 'forged',
        host: hostName(),
        role: 'agent',
        session: null,
        label: 'agent',
        executable: '/bin/sh',
        owner: { pid: dead.pid, start: null, host: hostName() },
        state: 'running',
        started_at: new Date().toISOString(),
      }),
    )
    const run = await proctor(r, ['run', '--no-push', '--', 'true'])
    expect(run.code, run.stderr).toBe(0)
    expect(isRunning(victim.pid!)).toBe(true)
  })

  it('after SIGKILL to proctor, a SIGHUP-proof child left in the agent group is stopped by the next run', async () => {
    const r = makeTempRepo({
      files: { 'README.md': '# test\n', 'proctor.yml': 'agent:\n  pty: true\ncheckpoints:\n  push: never\n' },
    })
    repos.push(r)
    const agent = `(trap '' HUP; while :; do sleep 1; done) & echo "child=$!"; wait`
    let pid = 0
    let out = ''
    const crashed = proctor(
      r,
      ['run', '--no-push', '--', 'sh', '-c', agent],
      (p) => (pid = p),
      {},
      (d) => (out += d),
    )
    await until(() => /child=\d+/.test(out), 'the agent to start its child')
    const child = Number(/child=(\d+)/.exec(out)![1])
    process.kill(pid, 'SIGKILL')
    await crashed
    cleanups.push(() => {
      if (isRunning(child)) process.kill(child, 'SIGKILL')
    })
    expect(isRunning(child)).toBe(true) // the orphan: its leader hung up with the terminal
    const next = await proctor(r, ['run', '--no-push', '--', 'true'])
    expect(next.code, next.stderr).toBe(0)
    await until(() => !isRunning(child), 'the orphan to be stopped')
  })
})

describe('a detect rule cannot stop the clock (issue 13.5)', () => {
  it('a hostile line for a lookahead rule: the rule is cut off and disabled, the 5 s total timeout fires on time', async () => {
    // ((?=a)a|a)*b passes the load-time check, and V8's linear engine cannot run it: matched on
    // proctor's own thread, this 60-character line would take hours.
    const r = repo(
      'timeouts:\n  total: 5s\n  grace: 1s\ndetect:\n  - name: hostile\n    match: "((?=a)a|a)*b"\ncheckpoints:\n  push: never\n',
    )
    const line = `${'a'.repeat(60)}!`
    let pid = 0
    const started = Date.now()
    const running = proctor(
      r,
      ['run', '--no-push', '--', 'sh', '-c', `echo ${line}; sleep 60`],
      (p) => (pid = p),
    )
    // A regression would spin for hours: never leave it behind.
    const guard = setTimeout(() => process.kill(pid, 'SIGKILL'), 40_000)
    const run = await running.finally(() => clearTimeout(guard))
    const elapsed = Date.now() - started
    expect(run.code).not.toBeNull()
    const [report] = reports(r)
    const timeout = report!.events.find((e) => e.kind === 'timeout')
    expect(timeout?.message).toMatch(/total timeout of 5(\.0)?s reached/)
    // On time: the timer fired at 5 s (a margin for a loaded machine), not after the match.
    expect(timeout!.at).toBeGreaterThanOrEqual(5_000)
    expect(timeout!.at).toBeLessThan(6_500)
    expect(elapsed).toBeLessThan(20_000)
    const warning = report!.events.find((e) => e.kind === 'detector' && e.name === 'hostile')
    expect(warning?.message).toMatch(/warning: detect rule "hostile" .*disabled/)
  })
})

describe('git config written by ordinary git work is not tamper', () => {
  function withRemote(): TempRepo {
    const r = repo('checkpoints:\n  push: never\n')
    const bare = mkdtempSync(join(tmpdir(), 'proctor-bare-'))
    cleanups.push(() => rmSync(bare, { recursive: true, force: true }))
    execFileSync('git', ['init', '-q', '--bare', bare], { env: r.env })
    r.git(['remote', 'add', 'origin', bare])
    return r
  }
  const tamper = (report: SessionReport) => report.violations.filter((v) => v.constraint === 'git_tamper')

  it('git push -u and git branch --set-upstream-to (branch.*.remote/merge) raise no git_tamper and stay', async () => {
    const r = withRemote()
    const agent =
      'git push -q -u origin HEAD && git checkout -q -b feature && git branch -q --set-upstream-to=origin/main'
    const run = await proctor(r, ['run', '--no-push', '--', 'sh', '-c', agent])
    const [report] = reports(r)
    expect(tamper(report!)).toEqual([])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(r.git(['config', 'branch.main.remote']).trim()).toBe('origin')
    expect(r.git(['config', 'branch.feature.merge']).trim()).toBe('refs/heads/main')
  })

  it('url.*.insteadOf and credential.helper set next to an upstream are still critical and undone', async () => {
    const r = withRemote()
    const agent = [
      'git push -q -u origin HEAD',
      'git config url.http://127.0.0.1:9/.insteadOf https://github.com/',
      "git config credential.helper '!f() { cat >/tmp/stolen; }; f'",
    ].join(' && ')
    await proctor(r, ['run', '--no-push', '--', 'sh', '-c', agent])
    const [report] = reports(r)
    const found = tamper(report!)
    expect(found).toEqual([
      expect.objectContaining({ file: '.git/config', severity: 'critical', reverted: true }),
    ])
    expect(found[0]!.message).toContain('url.http://127.0.0.1:9/.insteadof set to')
    expect(found[0]!.message).toContain('credential.helper set to')
    expect(r.read('.git/config')).not.toMatch(/insteadOf|credential|stolen/)
  })

  it('url.*.insteadOf written to the global config is reported (it cannot be undone from the repository)', async () => {
    const r = withRemote()
    const global = join(mkdtempSync(join(tmpdir(), 'proctor-home-')), 'gitconfig')
    cleanups.push(() => rmSync(dirname(global), { recursive: true, force: true }))
    const agent = 'git config --global url.http://127.0.0.1:9/.pushInsteadOf https://github.com/'
    await proctor(r, ['run', '--no-push', '--', 'sh', '-c', agent], undefined, { GIT_CONFIG_GLOBAL: global })
    const found = tamper(reports(r)[0]!)
    expect(found).toEqual([
      expect.objectContaining({
        file: 'git config url.http://127.0.0.1:9/.pushinsteadof',
        severity: 'critical',
      }),
    ])
    expect(found[0]!.message).toContain('outside the repository')
  })
})

describe('proctor batch: lifecycle hooks get the environment a session gives its hooks', () => {
  it('no runner tokens or step files reach subagent_stop / subagent_batch_complete hooks; env_passthrough does', async () => {
    const r = repo(
      [
        '  env_passthrough: [GH_TOKEN]',
        'checkpoints:',
        '  enabled: false',
        'hooks:',
        '  subagent_stop: [ { command: "env > stop-hook.env" } ]',
        '  subagent_batch_complete: [ { command: "env > complete-hook.env" } ]',
        '',
      ].join('\n'),
    )
    r.commitAll('config')
    const run = await proctor(r, ['batch', '--task', 'one=true'], undefined, {
      GITHUB_TOKEN: 'ghs_runnertoken',
      'INPUT_GITHUB-TOKEN': 'ghs_inputtoken',
      ACTIONS_RUNTIME_TOKEN: 'runtime-token',
      GITHUB_ENV: join(r.dir, '..', 'github-env'),
      GH_TOKEN: 'passed-through',
      PROCTOR_TEST_MARK: 'kept',
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    for (const file of ['stop-hook.env', 'complete-hook.env']) {
      const env = r.read(file)
      expect(env).toContain('PROCTOR_TEST_MARK=kept')
      expect(env).toContain('GH_TOKEN=passed-through')
      for (const withheld of ['ghs_runnertoken', 'ghs_inputtoken', 'runtime-token', 'GITHUB_ENV='])
        expect(env, `${file} has ${withheld}`).not.toContain(withheld)
    }
  })
})

describe("the agent's own exit (issue 13.7)", () => {
  it('report.json has agent {exit_code: 3} and the terminal and markdown say so', async () => {
    const r = repo()
    const run = await proctor(r, ['run', '--no-push', '--', 'sh', '-c', 'echo working; exit 3'])
    const [report] = reports(r)
    expect(report!.agent).toEqual({ exit_code: 3, signal: null })
    expect(run.stdout + run.stderr).toContain('agent exited 3')
    const links = { commit: () => '', compare: () => '', file: () => '', jobSummary: null }
    expect(renderJobSummary(report!, { links, sanitizer: createSanitizer({ secrets: [] }) })).toContain(
      'agent exited 3',
    )
  })

  it('records the signal that killed the agent', async () => {
    const r = repo()
    await proctor(r, ['run', '--no-push', '--', 'sh', '-c', 'kill -TERM $$'])
    expect(reports(r)[0]!.agent).toEqual({ exit_code: null, signal: 'SIGTERM' })
  })
})

describe('leftovers (issue 13.6)', () => {
  it('config validate rejects an invalid branch template with exit 2 and its line, as run does', async () => {
    const r = repo('checkpoints:\n  branch: "proctor/..{session}"\n')
    const validate = await proctor(r, ['config', 'validate'])
    expect(validate.code).toBe(2)
    expect(validate.stderr + validate.stdout).toMatch(/proctor\.yml:4/)
    expect(validate.stderr + validate.stdout).toMatch(/invalid branch name/)
    const run = await proctor(r, ['run', '--', 'true'])
    expect(run.code).toBe(2)
  })

  it('a non-interactive echo drops OSC 0/2/52 (title, clipboard) and keeps the text', async () => {
    const r = repo()
    const script = String.raw`printf '\033]0;owned title\007hello\033]52;c;ZXZpbA==\007 world\033]2;t2\033\\!\n'`
    const run = await proctor(r, ['run', '--no-push', '--', 'sh', '-c', script])
    expect(run.stdout).toContain('hello world!')
    expect(run.stdout).not.toContain('\x1b]')
    expect(run.stdout).not.toContain('ZXZpbA==')
  })

  it("removes a crashed session's private index on the next run", async () => {
    const r = repo()
    let proctorPid = 0
    const crashed = proctor(
      r,
      ['run', '--no-push', '--session', 'crashed-1', '--', 'sh', '-c', 'echo x > f.txt; sleep 60'],
      (pid) => (proctorPid = pid),
    )
    const index = join(r.dir, '.git/proctor/index-crashed-1')
    await until(() => existsSync(index), 'the private index of the running session')
    process.kill(proctorPid, 'SIGKILL')
    await crashed
    expect(existsSync(index)).toBe(true)
    const old = new Date(Date.now() - 60 * 60 * 1000)
    for (const name of readdirSync(join(r.dir, '.git/proctor')))
      utimesSync(join(r.dir, '.git/proctor', name), old, old)

    const next = await proctor(r, ['run', '--no-push', '--session', 'next-1', '--', 'true'])
    expect(next.code).toBe(0)
    expect(readdirSync(join(r.dir, '.git/proctor')).filter((n) => n.includes('crashed-1'))).toEqual([])
  })
})
