// Issue 28: nothing the agent or the machine does makes proctor hang, crash with a stack trace, or pass
// silently. Real processes (the CLI and the action's main step from source), real git, real FIFOs
// (mkfifo), a real full disk (a small tmpfs in a user namespace, where the kernel allows one).
import { execFileSync, spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import {
  proctorAction,
  proctorCli,
  proctorPost,
  STACK_LINE,
  type ProcessRun,
} from '../helpers/proctor-process.js'

const repos: TempRepo[] = []
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function repo(config = 'checkpoints:\n  push: never\n', extra: Record<string, string> = {}): TempRepo {
  const r = makeTempRepo({
    files: { 'README.md': '# test\n', 'proctor.yml': `agent:\n  pty: false\n${config}`, ...extra },
  })
  repos.push(r)
  return r
}

const cli = (r: TempRepo, args: string[], killAfterMs?: number) =>
  proctorCli(args, { cwd: r.dir, env: r.env, killAfterMs })

function report(r: TempRepo, session: string): SessionReport {
  return JSON.parse(readFileSync(join(r.dir, '.proctor/sessions', session, 'report.json'), 'utf8'))
}

/** What every outcome here must look like: an answer, not a JavaScript stack trace. */
function noStack(run: ProcessRun): void {
  expect(run.stdout + run.stderr).not.toMatch(STACK_LINE)
}

describe('the agent cannot make proctor hang (issue 28)', () => {
  for (const file of ['report.json', 'file-events.jsonl']) {
    it(`a FIFO at .proctor/sessions/$PROCTOR_SESSION_ID/${file}: the session ends and report.json is a regular file`, async () => {
      const r = repo()
      const path = `.proctor/sessions/$PROCTOR_SESSION_ID/${file}`
      const agent = `rm -f ${path}; mkfifo ${path}; echo work > work.txt`
      const run = await cli(
        r,
        ['run', '--no-push', '--session', 'fifo-1', '--timeout', '5s', '--', 'sh', '-c', agent],
        30_000,
      )
      expect(run.signal, 'proctor hung and was killed').toBeNull()
      expect(run.code, run.stderr).toBe(0)
      expect(report(r, 'fifo-1').status).toBe('completed')
      expect(r.git(['ls-tree', '-r', '--name-only', 'refs/proctor/fifo-1'])).toContain('work.txt')
      noStack(run)
    })
  }

  it('a FIFO the last run left at transcript.log: a rerun of the session id does not block on it', async () => {
    const r = repo()
    const plant =
      'rm -f .proctor/sessions/$PROCTOR_SESSION_ID/transcript.log; mkfifo .proctor/sessions/$PROCTOR_SESSION_ID/transcript.log'
    await cli(r, ['run', '--no-push', '--session', 'again', '--', 'sh', '-c', plant], 30_000)
    const rerun = await cli(
      r,
      ['run', '--no-push', '--session', 'again', '--', 'sh', '-c', 'echo second'],
      30_000,
    )
    expect(rerun.signal, 'proctor hung and was killed').toBeNull()
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(r.read('.proctor/sessions/again/transcript.log')).toContain('second')
  })

  it('a FIFO left at .proctor/.gitignore: the next run replaces it instead of blocking on it', async () => {
    const r = repo()
    await cli(r, ['run', '--no-push', '--', 'true'], 30_000)
    // Planted between sessions: git itself would block on a FIFO .gitignore while the agent runs (see the
    // report of issue 28), so proctor's own write is what is tested here.
    rmSync(join(r.dir, '.proctor/.gitignore'))
    execFileSync('mkfifo', [join(r.dir, '.proctor/.gitignore')])
    const next = await cli(r, ['run', '--no-push', '--', 'true'], 30_000)
    expect(next.signal, 'proctor hung and was killed').toBeNull()
    expect(next.code, next.stderr).toBe(0)
    expect(r.read('.proctor/.gitignore')).toMatch(/^\*$/m)
  })

  it('a symlink planted at report.json is replaced, not written through', async () => {
    const r = repo()
    const victim = join(mkdtempSync(join(tmpdir(), 'proctor-victim-')), 'bashrc')
    cleanups.push(() => rmSync(join(victim, '..'), { recursive: true, force: true }))
    writeFileSync(victim, 'untouched\n')
    const agent = `ln -sf ${victim} .proctor/sessions/$PROCTOR_SESSION_ID/report.json`
    const run = await cli(r, ['run', '--no-push', '--session', 'link-1', '--', 'sh', '-c', agent], 30_000)
    expect(run.code, run.stderr).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n')
    expect(report(r, 'link-1').session_id).toBe('link-1')
  })

  it('kill -STOP $PPID: the total timeout still fires (the watchdog resumes proctor), exit 124', async () => {
    const r = repo('checkpoints:\n  push: never\ntimeouts:\n  grace: 1s\n')
    const agent = 'kill -STOP $PPID; sleep 60'
    const run = await cli(
      r,
      ['run', '--no-push', '--session', 'stop-1', '--timeout', '3s', '--', 'sh', '-c', agent],
      45_000,
    )
    expect(run.signal, 'proctor stayed stopped and was killed').toBeNull()
    expect(run.code).toBe(124)
    const timeout = report(r, 'stop-1').events.find((e) => e.kind === 'timeout')
    expect(timeout?.message).toMatch(/total timeout of 3(\.0)?s reached/)
    noStack(run)
  })

  it('an agent that stops proctor again and again (and ignores SIGTERM) is killed by the backstop', async () => {
    const r = repo('checkpoints:\n  push: never\ntimeouts:\n  grace: 1s\n')
    const agent = 'trap "" TERM; while :; do kill -STOP $PPID; done'
    const run = await cli(
      r,
      ['run', '--no-push', '--session', 'stop-2', '--timeout', '2s', '--', 'sh', '-c', agent],
      45_000,
    )
    expect(run.signal, 'proctor stayed stopped and was killed').toBeNull()
    expect(run.code).toBe(124)
    expect(report(r, 'stop-2').status).toBe('timeout')
  })

  // The agent spins on a CPU of its own and stops proctor (pinned to another) before proctor, right after
  // the spawn, could tell the watchdog the agent's group. Each SIGCONT then buys proctor a few microseconds:
  // it never got to say it, and before the watchdog found the agent by its run token it stayed stopped
  // until killed (the CI run that found it: 45 s).
  const canPin =
    availableParallelism() >= 2 &&
    ['0', '1'].every((cpu) => spawnSync('taskset', ['-c', cpu, 'true'], { stdio: 'ignore' }).status === 0)
  it.skipIf(!canPin)(
    'an agent on another CPU that stops proctor before it named the group is killed by its run token, exit 124',
    async () => {
      const r = repo('checkpoints:\n  push: never\ntimeouts:\n  grace: 1s\n')
      const agent = 'trap "" TERM; while :; do kill -STOP $PPID; done'
      const run = await proctorCli(
        [
          'run',
          '--no-push',
          '--session',
          'stop-3',
          '--timeout',
          '2s',
          '--',
          'taskset',
          '-c',
          '1',
          'sh',
          '-c',
          agent,
        ],
        { cwd: r.dir, env: r.env, killAfterMs: 45_000, wrap: ['taskset', '-c', '0'] },
      )
      expect(run.signal, 'proctor stayed stopped and was killed').toBeNull()
      expect(run.code).toBe(124)
      // Seen first on resuming, the agent's SIGKILL is not "the agent was killed": the deadline had passed.
      const stopped = report(r, 'stop-3')
      expect(stopped.status).toBe('timeout')
      expect(stopped.events.find((e) => e.kind === 'timeout')?.message).toMatch(/total timeout of 2(\.0)?s/)
      noStack(run)
    },
  )
})

describe('the machine cannot make proctor crash (issue 28)', () => {
  // A full disk for real: a 256 KiB tmpfs over .proctor/, mounted in a user namespace.
  const canMount =
    spawnSync('unshare', ['-Urm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /tmp'], { stdio: 'ignore' })
      .status === 0
  it.skipIf(!canMount)(
    'disk full until the end: one line naming report.json and ENOSPC, exit 1, no torn report, the checkpoint kept',
    async () => {
      const r = repo()
      mkdirSync(join(r.dir, '.proctor'), { recursive: true })
      const agent = 'echo work > work.txt; head -c 1M /dev/zero > .proctor/fill; true'
      const run = await proctorCli(['run', '--no-push', '--session', 'full-1', '--', 'sh', '-c', agent], {
        cwd: r.dir,
        env: r.env,
        killAfterMs: 30_000,
        wrap: [
          'unshare',
          '-Urm',
          'sh',
          '-c',
          'mount -t tmpfs -o size=256k tmpfs .proctor && exec "$@"',
          'sh',
        ],
      })
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(/cannot write \S+report\.json: no space left on device \(ENOSPC\)/)
      expect(run.stderr).toContain('free the space')
      // The mount is gone with the namespace; the checkpoint (in .git) stays.
      expect(r.git(['ls-tree', '-r', '--name-only', 'refs/proctor/full-1'])).toContain('work.txt')
      noStack(run)
    },
  )

  it('proctor run … | head -1 (stdout closed): no EPIPE crash; report, final checkpoint and run record are written', async () => {
    const r = repo()
    const agent = 'for i in $(seq 1 3000); do echo line $i; done; echo late > late.txt'
    const run = await proctorCli(['run', '--no-push', '--session', 'pipe-1', '--', 'sh', '-c', agent], {
      cwd: r.dir,
      env: r.env,
      killAfterMs: 30_000,
      // What `head -1` does: read the first chunk, then close the pipe.
      onSpawn: (child) => child.stdout!.once('data', () => child.stdout!.destroy()),
    })
    expect(run.code, run.stderr).toBe(0)
    expect(report(r, 'pipe-1').status).toBe('completed')
    expect(r.git(['ls-tree', '-r', '--name-only', 'refs/proctor/pipe-1'])).toContain('late.txt')
    const runs = join(r.dir, '.proctor/runs')
    const states = execFileSync('sh', ['-c', `cat ${runs}/*.json`], { encoding: 'utf8' })
    expect(states).not.toContain('"running"')
    noStack(run)
  })
})

describe('the action: a bad runner environment is one error line and exit 2 (issue 28)', () => {
  /** The runner's own files (event payload, step outputs): a directory of this test's, outside the repository. */
  function runnerDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-runner-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    return dir
  }

  function actionEnv(r: TempRepo, extra: Record<string, string>): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...r.env }
    for (const key of Object.keys(env))
      if (key.startsWith('GITHUB_') || key.startsWith('INPUT_')) delete env[key]
    return {
      ...env,
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/widgets',
      GITHUB_EVENT_NAME: 'push',
      ...extra,
    }
  }

  it('a malformed GITHUB_EVENT_PATH: ::error:: naming it, exit 2, no SyntaxError stack', async () => {
    const r = repo()
    const runner = runnerDir()
    writeFileSync(join(runner, 'event.json'), '{"not json')
    const run = await proctorAction({
      cwd: r.dir,
      env: actionEnv(r, { GITHUB_EVENT_PATH: join(runner, 'event.json'), INPUT_COMMAND: 'true' }),
    })
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(/::error::proctor: GITHUB_EVENT_PATH \(\S+event\.json\) is not valid JSON/)
    noStack(run)
  })

  it('a GITHUB_OUTPUT that cannot be written: exit 2 before the agent runs', async () => {
    const r = repo()
    const runner = runnerDir()
    writeFileSync(join(runner, 'event.json'), '{}')
    const run = await proctorAction({
      cwd: r.dir,
      env: actionEnv(r, {
        GITHUB_EVENT_PATH: join(runner, 'event.json'),
        GITHUB_OUTPUT: join(runner, 'missing/output'),
        INPUT_COMMAND: 'echo ran > ran.txt',
      }),
    })
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(
      /::error::proctor: GITHUB_OUTPUT \(\S+output\) cannot be written: no such file/,
    )
    expect(r.exists('ran.txt')).toBe(false)
    noStack(run)
  })

  it('GITHUB_OUTPUT gone during the session: the report is kept, the error named, exit 2 (not a silent pass)', async () => {
    const r = repo()
    const runner = runnerDir()
    writeFileSync(join(runner, 'event.json'), '{}')
    const output = join(runner, 'output')
    writeFileSync(output, '')
    const run = await proctorAction({
      cwd: r.dir,
      env: actionEnv(r, {
        GITHUB_EVENT_PATH: join(runner, 'event.json'),
        GITHUB_OUTPUT: output,
        INPUT_COMMAND: `rm ${output}`,
      }),
    })
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(/::error::proctor: step outputs not written: GITHUB_OUTPUT/)
    const saved = /proctor-report-path::(\S+)/.exec(run.stdout)
    expect(saved, run.stdout).not.toBeNull()
    expect(JSON.parse(readFileSync(saved![1]!, 'utf8')).status).toBe('completed')
    noStack(run)
  })
})

describe('the post step cannot be made to hang (issue 28)', () => {
  it("a FIFO at report.json after main was killed: the post step checkpoints the agent's last work and ends", async () => {
    const r = repo()
    const dir = join(r.dir, '.proctor/sessions/post-1')
    mkdirSync(dir, { recursive: true })
    execFileSync('mkfifo', [join(dir, 'report.json')])
    r.write('work.txt', 'the agent was here\n')
    const env: NodeJS.ProcessEnv = { ...r.env }
    for (const key of Object.keys(env))
      if (key.startsWith('GITHUB_') || key.startsWith('INPUT_')) delete env[key]
    const run = await proctorPost({
      cwd: r.dir,
      env: { ...env, 'STATE_proctor-session-id': 'post-1', 'STATE_proctor-cwd': r.dir },
      killAfterMs: 30_000,
    })
    expect(run.signal, 'the post step hung and was killed').toBeNull()
    expect(run.code, run.stdout).toBe(0)
    expect(r.git(['ls-tree', '-r', '--name-only', 'refs/proctor/post-1'])).toContain('work.txt')
    noStack(run)
  })
})

describe('bad configuration is loud (issue 28)', () => {
  const shapes: [string, (dir: string) => void, RegExp][] = [
    [
      'a dangling symlink',
      (dir) => symlinkSync('nowhere.yml', join(dir, 'proctor.yml')),
      /symbolic link to nowhere\.yml, which does not exist/,
    ],
    ['a directory', (dir) => mkdirSync(join(dir, 'proctor.yml')), /is a directory, not a regular file/],
    [
      'a FIFO',
      (dir) => execFileSync('mkfifo', [join(dir, 'proctor.yml')]),
      /is a FIFO \(named pipe\), not a regular file/,
    ],
    [
      'a symlink loop',
      (dir) => symlinkSync('proctor.yml', join(dir, 'proctor.yml')),
      /symlink loop.*\(ELOOP\)/,
    ],
    [
      '/dev/zero',
      (dir) => symlinkSync('/dev/zero', join(dir, 'proctor.yml')),
      /is a character device, not a regular file/,
    ],
  ]
  for (const [what, make, message] of shapes) {
    it(`proctor.yml that is ${what}: config validate and run exit 2 naming the file, at once`, async () => {
      const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
      repos.push(r)
      make(r.dir)
      const validate = await cli(r, ['config', 'validate'], 20_000)
      expect(validate.code, validate.stdout).toBe(2)
      expect(validate.stderr).toMatch(/^proctor\.yml: /)
      expect(validate.stderr).toMatch(message)
      expect(validate.stdout + validate.stderr).not.toMatch(/defaults apply/)
      const run = await cli(r, ['run', '--no-push', '--', 'sh', '-c', 'echo ran > ran.txt'], 20_000)
      expect(run.code).toBe(2)
      expect(r.exists('ran.txt')).toBe(false)
      noStack(validate)
      noStack(run)
    })
  }

  it('invalid UTF-8: an error with line, column and byte offset', async () => {
    const r = repo('checkpoints:\n  push: never\n')
    r.write('proctor.yml', Buffer.from('agent:\n  pty: false\n# caf\xe9\n', 'latin1'))
    const validate = await cli(r, ['config', 'validate'])
    expect(validate.code).toBe(2)
    expect(validate.stderr).toContain('proctor.yml:3:6 invalid UTF-8 at byte offset 25 (byte 0xe9)')
    noStack(validate)
  })

  it('branch "proctor/{sesion}": unknown placeholder, did you mean {session}, exit 2', async () => {
    const r = repo('checkpoints:\n  branch: "proctor/{sesion}"\n')
    const validate = await cli(r, ['config', 'validate'])
    expect(validate.code).toBe(2)
    expect(validate.stderr).toMatch(/proctor\.yml:4:\d+ checkpoints\.branch: unknown placeholder \{sesion\}/)
    expect(validate.stderr).toContain('did you mean {session}?')
  })

  for (const pattern of ['secrets//**', 'secrets/./key']) {
    it(`forbidden area "${pattern}" covers secrets/key: the AWS key is never checkpointed`, async () => {
      const r = repo(`checkpoints:\n  push: never\npolicy:\n  forbidden_areas: ["${pattern}"]\n`)
      const agent = 'mkdir -p secrets && echo AKIAIOSFODNN7EXAMPLE > secrets/key && echo ok > ok.txt'
      await cli(r, ['run', '--no-push', '--session', 'sec-1', '--', 'sh', '-c', agent])
      const files = r.git(['ls-tree', '-r', '--name-only', 'refs/proctor/sec-1'])
      expect(files).toContain('ok.txt')
      expect(files).not.toContain('secrets/key')
      expect(report(r, 'sec-1').violations.map((v) => v.constraint)).toContain('forbidden_area')
    })
  }

  const rejected: [string, RegExp][] = [
    ['secrets\\\\key', /"secrets\\key" contains "\\"; .*did you mean "secrets\/key"\?/],
    ['/etc/passwd', /"\/etc\/passwd" is an absolute path; .*did you mean "etc\/passwd"\?/],
  ]
  for (const [pattern, message] of rejected) {
    it(`forbidden area "${pattern}" is a config error with the fix`, async () => {
      const r = repo(`policy:\n  forbidden_areas: ["${pattern}"]\n`)
      const validate = await cli(r, ['config', 'validate'])
      expect(validate.code).toBe(2)
      expect(validate.stderr).toMatch(/proctor\.yml:4:\d+ policy\.forbidden_areas\[0\]/)
      expect(validate.stderr).toMatch(message)
    })
  }
})

describe('smaller items (issue 28)', () => {
  it('--no-pty: send "y\\r" and the default deny_text end the line for an agent that reads lines', async () => {
    const r = repo(
      [
        'checkpoints:',
        '  push: never',
        'detect:',
        '  - name: go-on',
        '    match: "Continue\\\\?"',
        '    respond: { send: "y\\r" }',
        '  - name: delete',
        '    match: "Delete all\\\\?"',
        '    respond: { deny: true }',
        '',
      ].join('\n'),
    )
    const agent =
      'echo "Continue?"; read a; echo "Delete all?"; read b; printf "%s,%s" "$a" "$b" > answers.txt'
    const run = await cli(
      r,
      ['run', '--no-pty', '--no-push', '--timeout', '20s', '--', 'sh', '-c', agent],
      45_000,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(r.read('answers.txt')).toBe('y,n')
  })

  it('agent.cwd is relative to the repository root, also when proctor starts in a subdirectory', async () => {
    const r = repo('checkpoints:\n  push: never\n', { 'tools/.keep': '', 'sub/.keep': '' })
    r.write('proctor.yml', 'agent:\n  pty: false\n  cwd: tools\ncheckpoints:\n  push: never\n')
    const run = await proctorCli(['run', '--no-push', '--', 'sh', '-c', 'pwd > where.txt'], {
      cwd: join(r.dir, 'sub'),
      env: r.env,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(r.read('tools/where.txt').trim()).toBe(join(r.dir, 'tools'))
  })

  it('hooks test sends the fields a session sends (session_end, stop, approval_request, session_start)', async () => {
    const events = ['session_start', 'approval_request', 'stop', 'session_end']
    const hooks = events.map((e) => `  ${e}: [ { command: "cat > ${e}.$PROCTOR_SESSION_ID.json" } ]`)
    const r = repo(
      [
        'checkpoints:',
        '  push: never',
        'detect:',
        '  - name: ask',
        '    match: "Proceed\\\\?"',
        '    respond: { send: "y\\r" }',
        'hooks:',
        ...hooks,
        '',
      ].join('\n'),
    )
    // In a PTY: the answer reaches `read` on the code before the pipes' Enter fix too.
    r.write('proctor.yml', r.read('proctor.yml').replace('  pty: false\n', '  pty: true\n'))
    const session = await cli(
      r,
      ['run', '--no-push', '--session', 'real', '--', 'sh', '-c', 'echo Proceed?; read a'],
      45_000,
    )
    expect(session.code, session.stderr).toBe(0)
    for (const event of events) {
      const test = await proctorCli(['hooks', 'test', event], {
        cwd: r.dir,
        env: r.env,
      })
      expect(test.code, test.stderr).toBe(0)
      const tested = readdirSync(r.dir).find((f) => f.startsWith(`${event}.`) && !f.endsWith('.real.json'))
      const keys = (file: string) => Object.keys(JSON.parse(r.read(file)).extra as object).sort()
      expect(keys(tested!), event).toEqual(keys(`${event}.real.json`))
    }
  })

  it('file-events.jsonl says where it starts (a "watching" line); what came before is in the checkpoint', async () => {
    const r = repo()
    const log = '.proctor/sessions/$PROCTOR_SESSION_ID/file-events.jsonl'
    const agent = `echo early > early.txt; until grep -q watching ${log} 2>/dev/null; do sleep 0.1; done; echo late > late.txt`
    const run = await cli(
      r,
      ['run', '--no-push', '--session', 'ev-1', '--timeout', '20s', '--', 'sh', '-c', agent],
      45_000,
    )
    expect(run.code, run.stderr).toBe(0)
    const events = r
      .read('.proctor/sessions/ev-1/file-events.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event: string; path: string })
    const start = events.findIndex((e) => e.event === 'watching')
    expect(start).toBeGreaterThanOrEqual(0)
    expect(events.slice(start).map((e) => e.path)).toContain('late.txt')
    const files = r.git(['ls-tree', '-r', '--name-only', 'refs/proctor/ev-1'])
    expect(files).toContain('early.txt')
    expect(files).toContain('late.txt')
  })

  it("checkpoints show @1 (as checkpoints list prints it) shows the newest session's checkpoint 1", async () => {
    const r = repo()
    await cli(r, ['run', '--no-push', '--session', 'shown', '--', 'sh', '-c', 'echo x > x.txt'])
    const list = await cli(r, ['checkpoints', 'list'])
    expect(list.stdout).toContain('@1  ')
    const show = await cli(r, ['checkpoints', 'show', '@1'])
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toMatch(/^shown@1 {2}[0-9a-f]{40}/)
    expect(show.stdout).toContain('x.txt')
  })
})
