// The built CLI (dist/cli.js) as users run it: real repositories, real agents in PTYs and pipes, real
// signals — on the pinned Node 24 and on the machine's own Node (the CLI's floor, >= 20.19).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, chmodSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')
const agent = join(root, 'examples/agents/demo-agent.mjs')
const requireTests = join(root, 'examples/hooks/require-tests.sh')

const nodes: [string, string][] = [['node 24 (pinned)', process.execPath]]
if (process.env.PROCTOR_SYSTEM_NODE && process.env.PROCTOR_SYSTEM_NODE !== process.execPath) {
  nodes.push([`system ${process.env.PROCTOR_SYSTEM_NODE_VERSION ?? 'node'}`, process.env.PROCTOR_SYSTEM_NODE])
}

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

function repo(files: Record<string, string> = { 'README.md': '# test\n' }): TempRepo {
  const r = makeTempRepo({ files })
  repos.push(r)
  return r
}

function cleanEnv(r: TempRepo, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID') delete env[key]
  return { ...env, NO_COLOR: '1', ...extra }
}

function start(
  node: string,
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(node, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const done = new Promise<Run>((resolveRun) =>
    child.on('close', (code, signal) => resolveRun({ code, signal, stdout, stderr })),
  )
  return { child, done }
}

function proctor(
  node: string,
  r: TempRepo,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<Run> {
  return start(node, r.dir, args, cleanEnv(r, extraEnv)).done
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = join(r.dir, '.proctor/sessions')
  const ids = readdirSync(sessions)
  expect(ids).toHaveLength(1)
  return JSON.parse(readFileSync(join(sessions, ids[0]!, 'report.json'), 'utf8')) as SessionReport
}

/** Resolves once `predicate` holds; the deadline only bounds a broken run. */
async function until(predicate: () => boolean, what: string, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Running (a zombie waiting for init to reap it counts as gone: it cannot do anything). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

const demoConfig = (continueCmd = true) => `
agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
${continueCmd ? `  continue: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}, --continue, "{reason}"]` : ''}
detect:
  - name: approve-edit
    match: 'Do you want to make this edit'
    kind: approval_request
    respond: { send: "y\\r" }
policy:
  forbidden_areas: ["secrets/**"]
  violation_severity: error
stop_hooks:
  - name: tests
    command: ${JSON.stringify(requireTests)}
`

describe.each(nodes)('proctor run on %s', (_label, node) => {
  it('supervises the demo agent: answers the prompt, checkpoints, flags the violation, continues after a block', async () => {
    const r = repo()
    r.write('proctor.yml', demoConfig())
    r.commitAll('config')
    const indexBefore = readFileSync(join(r.dir, '.git/index'))
    const head = r.git(['rev-parse', 'HEAD'])

    const run = await proctor(node, r, ['run'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('Do you want to make this edit')
    expect(run.stderr).toContain('verdict allow')
    // Not a terminal: the stop hooks as plain lines, no status line redrawn in place.
    expect(run.stderr).toMatch(/^proctor: stop hook tests running…$/m)
    expect(run.stderr).toMatch(/^proctor: stop hook tests blocked \(\S+\) — /m)
    expect(run.stderr).toMatch(/^proctor: stop hook tests passed \(\S+\)$/m)
    expect(run.stderr).not.toContain('\x1b[2K')
    // The saved report, again: `latest` finds it; --markdown previews the PR comment.
    const latest = await proctor(node, r, ['report', 'latest'])
    expect(latest.code, latest.stderr).toBe(0)
    expect(latest.stdout).toContain('verdict allow')
    expect(latest.stdout).not.toContain('\x1b[')
    // A CI log that renders colour asks for it with FORCE_COLOR, on a pipe.
    const forced = await proctor(node, r, ['report', 'latest'], { NO_COLOR: '', FORCE_COLOR: '1' })
    expect(forced.stdout).toContain('\x1b[')
    const preview = await proctor(node, r, ['report', '--markdown', 'latest'])
    expect(preview.code, preview.stderr).toBe(0)
    expect(preview.stdout.split('\n', 1)[0]).toBe('<!-- proctor:preview -->')
    expect(preview.stdout).toMatch(/^### (✅|⚠️) proctor · allow · completed · /m)
    expect(preview.stdout).toContain('<summary>Earlier rounds (1)</summary>')

    const report = onlyReport(r)
    expect(report).toMatchObject({
      schema: 1,
      status: 'completed',
      verdict: 'allow',
      exit_code: 0,
      rounds: 2,
    })
    expect(report.events.some((e) => e.kind === 'response' && e.name === 'approve-edit')).toBe(true)
    expect(r.read('src/index.js')).toContain('greet') // the edit was approved by proctor's answer
    // The tests hook and the policy gate both send the agent back once; it fixes both.
    expect(report.stop_hooks.map((h) => [h.name, h.round, h.verdict])).toEqual([
      ['tests', 1, 'block'],
      ['policy', 1, 'block'],
      ['tests', 2, 'allow'],
      ['policy', 2, 'allow'],
    ])
    expect(report.stop_hooks[0]!.reason).toContain('test/greeting.test.js')
    expect(report.violations).toEqual([
      expect.objectContaining({
        file: 'secrets/token.txt',
        constraint: 'forbidden_area',
        severity: 'error',
        resolved: true,
      }),
    ])
    expect(r.exists('secrets/token.txt')).toBe(false)
    expect(report.checkpoints.length).toBeGreaterThanOrEqual(1)
    const last = report.checkpoints[report.checkpoints.length - 1]!
    expect(r.git(['cat-file', '-t', last.sha]).trim()).toBe('commit')
    expect(r.git(['ls-tree', '-r', '--name-only', last.ref])).toContain('test/greeting.test.js')
    // The user's repository is untouched and proctor's own state never shows.
    expect(r.git(['rev-parse', 'HEAD'])).toBe(head)
    expect(readFileSync(join(r.dir, '.git/index')).equals(indexBefore)).toBe(true)
    expect(readFileSync(join(r.dir, '.proctor/.gitignore'), 'utf8')).toMatch(/^\*$/m)
    expect(r.git(['status', '--porcelain'])).not.toContain('.proctor')
    expect(existsSync(join(r.dir, '.proctor/sessions', report.session_id, 'transcript.log'))).toBe(true)
  })

  it('exit codes: a failing agent is 1, a missing executable is 2 with a clear message', async () => {
    const r = repo()
    const failed = await proctor(node, r, ['run', '--no-pty', '--', 'sh', '-c', 'echo working; exit 3'])
    expect(failed.code).toBe(1)
    expect(onlyReport(r)).toMatchObject({
      status: 'failed',
      verdict: 'block',
      reason: 'the agent exited with code 3',
    })

    const r2 = repo()
    const missing = await proctor(node, r2, ['run', '--', 'no-such-agent-binary', '-p', 'x'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/no-such-agent-binary/)
    expect(missing.stderr).toMatch(/not found/i)
  })

  it('total and idle timeouts end the agent with 124 and say why', async () => {
    const r = repo()
    const total = await proctor(node, r, [
      'run',
      '--timeout',
      '1s',
      '--',
      'sh',
      '-c',
      'while true; do echo tick; sleep 0.1; done',
    ])
    expect(total.code).toBe(124)
    expect(onlyReport(r)).toMatchObject({ status: 'timeout', reason: 'total timeout of 1.0s reached' })

    const r2 = repo()
    const idle = await proctor(node, r2, [
      'run',
      '--no-pty',
      '--idle-timeout',
      '1s',
      '--',
      'sh',
      '-c',
      'echo hi; sleep 30',
    ])
    expect(idle.code).toBe(124)
    expect(onlyReport(r2).reason).toMatch(/no output for 1\.0s/)
  })

  it('a config error is exit 2 and names file, line and column', async () => {
    const r = repo()
    r.write('proctor.yml', 'agent:\n  comand: [claude]\n')
    const run = await proctor(node, r, ['run', '--', 'true'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('proctor.yml:2:3')
    expect(run.stderr).toContain('did you mean "command"')
  })

  it('SIGINT stops the agent group, writes the report and exits 130 within the cancel window', async () => {
    const r = repo()
    const pidFile = join(r.dir, 'agent.pid')
    const script = join(r.dir, 'agent.sh')
    // The agent and a grandchild that ignores SIGTERM: both must be gone after proctor exits.
    writeFileSync(
      script,
      `#!/bin/sh\necho $$ > ${pidFile}\n(trap '' TERM; sleep 60) &\necho $! >> ${pidFile}\necho ready\nwait\n`,
    )
    chmodSync(script, 0o755)
    r.write('.gitignore', 'agent.pid\nagent.sh\n')
    const { child, done } = start(node, r.dir, ['run', '--', script], cleanEnv(r, {}))
    let pids: number[] = []
    await until(() => {
      pids = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').map(Number) : []
      return pids.length === 2
    }, 'the agent to start')
    const sentAt = Date.now()
    child.kill('SIGINT')
    const run = await done
    expect(run.code).toBe(130)
    expect(Date.now() - sentAt).toBeLessThan(7_000)
    const report = onlyReport(r)
    expect(report).toMatchObject({ status: 'interrupted', signal: 'SIGINT', exit_code: 130 })
    for (const pid of pids) expect(alive(pid)).toBe(false)
  })

  it('--json prints the report; without a command it is a usage error', async () => {
    const r = repo()
    const run = await proctor(node, r, ['run', '--json', '--no-pty', '--', 'echo', 'hello'])
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as SessionReport
    expect(report).toMatchObject({ status: 'completed', command: ['echo', 'hello'], mode: 'pipe' })
    expect(report.output_tail).toContain('hello')

    const usage = await proctor(node, r, ['run'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('no agent command')
  })
})

describe('cancellation with a remote that does not answer', () => {
  it('still writes report.json and exits 130 in time; the report says the push did not finish', async () => {
    const { createServer } = await import('node:net')
    const sockets: import('node:net').Socket[] = []
    // Accepts connections and never answers: a push to it hangs until the connection is closed.
    const server = createServer((socket) => void sockets.push(socket))
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    const port = (server.address() as import('node:net').AddressInfo).port
    try {
      const r = repo()
      r.git(['remote', 'add', 'origin', `http://127.0.0.1:${port}/repo.git`])
      r.write('proctor.yml', 'checkpoints: { push: always }\n')
      r.commitAll('config')
      const { child, done } = start(
        process.execPath,
        r.dir,
        ['run', '--no-pty', '--', 'sh', '-c', 'echo work > work.txt; echo ready; sleep 60'],
        cleanEnv(r),
      )
      let seen = ''
      child.stdout!.on('data', (d: Buffer) => (seen += d.toString()))
      await until(() => seen.includes('ready'), 'the agent to start')
      const sentAt = Date.now()
      child.kill('SIGINT')
      const run = await done
      expect(run.code).toBe(130)
      expect(Date.now() - sentAt).toBeLessThan(7_500)
      const report = onlyReport(r)
      expect(report.checkpoints.length).toBe(1)
      expect(report.pushed).toMatchObject({ ok: false })
      expect(report.pushed!.reason).toMatch(/did not finish/)
    } finally {
      for (const socket of sockets) socket.destroy()
      server.close()
    }
  })
})

describe('crash recovery', () => {
  it('a proctor killed with SIGKILL leaves its agent; the next start reaps it after checking its identity', async () => {
    const r = repo()
    const pidFile = join(r.dir, 'agent.pid')
    r.write('.gitignore', 'agent.pid\n')
    // Pipe mode: a PTY agent would get SIGHUP from the kernel when its terminal's owner dies.
    const { child, done } = start(
      process.execPath,
      r.dir,
      ['run', '--no-pty', '--', 'sh', '-c', `echo $$ > ${pidFile}; exec sleep 120`],
      cleanEnv(r),
    )
    await until(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      'the agent to start',
    )
    const agentPid = Number(readFileSync(pidFile, 'utf8').trim())
    // The agent's own record, not any file: the record is written through a temp file and a rename, and a
    // SIGKILL between the two (a loaded machine) leaves an agent nobody recorded.
    const runs = join(r.dir, '.proctor/runs')
    await until(
      () =>
        readdirSync(runs).some(
          (f) => f.endsWith('.json') && readFileSync(join(runs, f), 'utf8').includes(`"pid": ${agentPid},`),
        ),
      'the agent’s run record',
    )
    child.kill('SIGKILL')
    await done
    expect(alive(agentPid)).toBe(true) // orphaned: nobody stopped it

    const next = await proctor(process.execPath, r, ['run', '--json', '--no-pty', '--', 'true'])
    expect(next.code).toBe(0)
    await until(() => !alive(agentPid), 'the orphan to be reaped', 10_000)
    const report = JSON.parse(next.stdout) as SessionReport
    expect(report.events.some((e) => e.kind === 'warning' && e.message.includes(`pid ${agentPid}`))).toBe(
      true,
    )
  })
})

describe('an agent that starts by flooding its output', () => {
  // Every git process forks proctor, which stalls its reading of the agent's output; the checkpoint store
  // and the watcher wait until the first flood is over (the base commit is resolved before the spawn).
  // "Over" is what proctor can see: less than 64 KB per 50 ms over 200 ms (CALM_* in src/supervisor/output.ts).
  // On a loaded machine the agent itself can go unscheduled mid-flood, and then git may rightly start: the
  // agent notes when each of its 64 KB writes was taken, so the test knows where such pauses were.
  it.each([
    ['a PTY', []],
    ['pipes', ['--no-pty']],
  ])(
    'over %s, proctor starts no git process while the output floods, and captures all of it',
    async (_mode, flags) => {
      const r = repo()
      const bin = tempDirIn(r)
      const log = join(bin, 'git.log')
      // A git that notes when it ran, then runs the real one.
      const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
      writeFileSync(
        join(bin, 'git'),
        `#!/bin/sh\necho "$(date +%s%6N) $1" >> '${log}'\nexec '${realGit}' "$@"\n`,
      )
      chmodSync(join(bin, 'git'), 0o755)
      const marks = join(bin, 'writes.json')
      // A change to the worktree as it begins (the watcher would want git for it), then 20 MB in 64 KB writes,
      // each awaited (the reader's pace), then a pause before the exit.
      const agent = join(bin, 'flood.cjs')
      writeFileSync(
        agent,
        `const { writeFileSync } = require('node:fs')
const now = () => Math.round((performance.timeOrigin + performance.now()) * 1000)
const all = Buffer.from(${JSON.stringify(FLOOD_LINE)}.repeat(${Math.ceil(FLOOD_BYTES / FLOOD_LINE.length)}).slice(0, ${FLOOD_BYTES}))
const taken = [now()]
writeFileSync('work.txt', 'written as the flood begins\\n')
let at = 0
const next = () => {
  if (at >= all.length) {
    writeFileSync(${JSON.stringify(marks)}, JSON.stringify(taken))
    setTimeout(() => {}, 500)
    return
  }
  const piece = all.subarray(at, at + 65536)
  at += piece.length
  process.stdout.write(piece, () => { taken.push(now()); next() })
}
next()
`,
      )
      const run = await proctor(
        process.execPath,
        r,
        ['run', '--json', ...flags, '--', process.execPath, agent],
        {
          PATH: `${bin}:${process.env.PATH ?? ''}`,
        },
      )
      expect(run.code, run.stderr).toBe(0)
      const report = JSON.parse(run.stdout) as SessionReport
      const taken = JSON.parse(readFileSync(marks, 'utf8')) as number[]
      const floodStart = taken[0]!
      const floodEnd = taken.at(-1)!
      const calls = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => ({ at: Number(line.split(' ')[0]), command: line.split(' ')[1] }))
      expect(calls.some((c) => c.at < floodStart)).toBe(true) // the base commit, before the spawn
      // A flood delays them 5 s at most (LAUNCH_AFTER_FLOOD_MAX_MS in src/session/attempt.ts).
      const waitedFor = Math.min(floodEnd, floodStart + 4_500_000)
      const duringFlood = calls.filter((c) => c.at > floodStart && c.at < waitedFor)
      const timeline = JSON.stringify({
        calls: calls.map((c) => c.at - floodStart),
        slowWrites: taken
          .map((t, k) => [t - floodStart, t - (taken[k - 1] ?? t)])
          .filter(([, d]) => d! > 20_000),
      })
      expect(
        duringFlood.filter((c) => !pausedBefore(taken, c.at)),
        timeline,
      ).toEqual([])
      expect(calls.some((c) => c.at > floodEnd)).toBe(true) // the store, the watcher, the checkpoint
      // No byte lost: the transcript holds the whole flood.
      const transcript = readFileSync(join(r.dir, '.proctor/sessions', report.session_id, 'transcript.log'))
      expect(transcript.length).toBe(report.transcript.bytes)
      const expected = FLOOD_LINE.repeat(Math.ceil(FLOOD_BYTES / FLOOD_LINE.length)).slice(0, FLOOD_BYTES)
      expect(transcript.toString().replaceAll('\r\n', '\n')).toBe(expected)
    },
  )
})

const FLOOD_LINE = 'flood line 0123456789\n'
const FLOOD_BYTES = 20_000_000

/**
 * Whether the agent's output paused before `at` (µs): a stretch of at least 150 ms in which fewer than four
 * of its 64 KB writes were taken, i.e. a rate proctor counts as calm (kept a little short of its 200 ms span).
 */
function pausedBefore(taken: readonly number[], at: number): boolean {
  const until = [...taken.filter((t) => t < at), at]
  for (let i = 0; i + 1 < until.length; i++) {
    const j = Math.min(i + 4, until.length - 1)
    if (until[j]! - until[i]! >= 150_000) return true
  }
  return false
}

function tempDirIn(r: TempRepo): string {
  const dir = join(r.dir, '.proctor-test-bin')
  mkdirSync(dir)
  writeFileSync(join(r.dir, '.git/info/exclude'), '.proctor-test-bin/\n', { flag: 'a' })
  return dir
}
