// Issue 28, git's side: a FIFO the agent plants where git reads (.gitignore, .gitattributes) blocks git in
// open() forever. Proctor must still end on time with a checkpoint failure that names the file, never hang
// and never pass silently. Real processes, real git, real FIFOs (mkfifo).
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
} from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { proctorCli, STACK_LINE } from '../helpers/proctor-process.js'

const repos: TempRepo[] = []
const fifos: string[] = []
afterEach(() => {
  // A git still blocked on a FIFO (proctor killed by the guard, on the code before the fix) is let go: a
  // writer that opens and closes the other end gives its open() an end of file.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // No reader left: nobody is blocked on it.
    }
  }
  for (const repo of repos.splice(0)) repo.cleanup()
})

const GRACE_MS = 1_000
const TIMEOUT_MS = 5_000
/** Starting node with tsx, writing the report, and a loaded machine. */
const SLACK_MS = 8_000

function repo(): TempRepo {
  const r = makeTempRepo({
    files: {
      'README.md': '# test\n',
      'proctor.yml': 'agent:\n  pty: false\ncheckpoints:\n  push: never\ntimeouts:\n  grace: 1s\n',
    },
  })
  repos.push(r)
  return r
}

function report(r: TempRepo, session: string): SessionReport {
  return JSON.parse(readFileSync(join(r.dir, '.proctor/sessions', session, 'report.json'), 'utf8'))
}

describe('a FIFO where git reads never hangs proctor (issue 28)', () => {
  const cases = [
    { file: '.gitignore', agent: 'mkfifo .gitignore; echo work > work.txt' },
    { file: 'sub/.gitignore', agent: 'mkdir sub; mkfifo sub/.gitignore; echo work > work.txt' },
    { file: '.gitattributes', agent: 'mkfifo .gitattributes; echo work > work.txt; sleep 30' },
  ]
  for (const [i, { file, agent }] of cases.entries()) {
    it(`mkfifo ${file}: proctor ends within the timeout, exit 1, the checkpoint failure names ${file}`, async () => {
      const r = repo()
      fifos.push(join(r.dir, file))
      const session = `fifo-${i}`
      const run = await proctorCli(
        ['run', '--no-push', '--session', session, '--timeout', '5s', '--', 'sh', '-c', agent],
        { cwd: r.dir, env: r.env, killAfterMs: 45_000 },
      )
      expect(run.signal, 'proctor hung and was killed').toBeNull()
      expect(run.ms).toBeLessThan(TIMEOUT_MS + GRACE_MS + SLACK_MS)
      // Documented: a session whose checkpoints failed is `errored`, exit 1 (docs/configuration.md,
      // checkpoints.max_failures), also when the total timeout ended it.
      expect(run.code, run.stderr).toBe(1)
      const final = report(r, session)
      expect(final.status).toBe('errored')
      const why = new RegExp(
        `a FIFO \\(named pipe\\) at ${file.replace('.', '\\.')} blocks git[^\\n]*remove it`,
      )
      expect(final.reason).toMatch(why)
      expect(run.stdout + run.stderr).toMatch(why)
      expect(run.stdout + run.stderr).not.toMatch(STACK_LINE)
    })
  }

  it('a FIFO .gitignore left before the run: the baseline fails naming it, the agent still runs, exit 1', async () => {
    const r = repo()
    const fifo = join(r.dir, 'sub/.gitignore')
    fifos.push(fifo)
    mkdirSync(join(r.dir, 'sub'))
    execFileSync('mkfifo', [fifo])
    const run = await proctorCli(
      [
        'run',
        '--no-push',
        '--session',
        'before-1',
        '--timeout',
        '5s',
        '--',
        'sh',
        '-c',
        'echo ran > ran.txt',
      ],
      { cwd: r.dir, env: r.env, killAfterMs: 45_000 },
    )
    expect(run.signal, 'proctor hung and was killed').toBeNull()
    expect(run.ms).toBeLessThan(TIMEOUT_MS + GRACE_MS + SLACK_MS)
    expect(run.code, run.stderr).toBe(1)
    expect(r.read('ran.txt')).toBe('ran\n')
    expect(report(r, 'before-1').reason).toMatch(/a FIFO \(named pipe\) at sub\/\.gitignore blocks git/)
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE)
  })

  it('SIGTERM while a checkpoint git hangs on sub/.gitignore: proctor ends promptly with its report', async () => {
    const r = repo()
    fifos.push(join(r.dir, 'sub/.gitignore'))
    const agent = 'mkdir sub; mkfifo sub/.gitignore; echo work > work.txt; echo planted; sleep 60'
    let sentAt = 0
    let endedAt = 0
    const run = await proctorCli(
      ['run', '--no-push', '--session', 'term-1', '--timeout', '60s', '--', 'sh', '-c', agent],
      {
        cwd: r.dir,
        env: r.env,
        killAfterMs: 45_000,
        onSpawn: (child) => {
          // Once the FIFO is planted, the watcher's first git (the ignored directories, or the ignore check
          // of the new paths) reads sub/.gitignore: SIGTERM once a git of proctor's is blocked in its open().
          child.on('close', () => (endedAt = Date.now()))
          child.stdout!.on('data', (chunk: Buffer) => {
            if (sentAt || !chunk.toString().includes('planted')) return
            const poll = setInterval(() => {
              if (!gitBlockedIn(r.dir)) return
              clearInterval(poll)
              sentAt = Date.now()
              child.kill('SIGTERM')
            }, 100)
          })
        },
      },
    )
    expect(sentAt, 'no git ever blocked on the FIFO').toBeGreaterThan(0)
    expect(run.signal, 'proctor hung and was killed').toBeNull()
    expect(endedAt - sentAt).toBeLessThan(GRACE_MS + SLACK_MS)
    expect(run.code).toBe(143)
    expect(report(r, 'term-1').status).toBe('interrupted')
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE)
  })
})

/** Whether a git process running in `dir` (one of proctor's) is blocked opening a FIFO. */
function gitBlockedIn(dir: string): boolean {
  const real = realpathSync(dir)
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== real) continue
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (!(argv[0] === 'git' || argv[0]?.endsWith('/git'))) continue
      if (/fifo|pipe|partner/.test(readFileSync(`/proc/${pid}/wchan`, 'utf8'))) return true
    } catch {
      // Gone meanwhile.
    }
  }
  return false
}
