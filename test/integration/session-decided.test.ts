// Once a session is decided (a timeout, a detector that stops the agent), nothing more is typed into the
// agent, and output_tail is the screen it was decided on. Claude Code redraws its API-key dialog when it is
// stopped: proctor once answered that dialog after the timeout, and reported the dialog as the last screen.
// The fake agent here does the same: on SIGTERM it draws a [y/N] dialog that a rule answers, and records
// whatever reaches its stdin.
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import { proctorCli } from '../helpers/proctor-process.js'
import type { SessionReport } from '../../src/report/model.js'
import { fixture } from './supervisor-helpers.js'

const repos: TempRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const rules = `detect:
  - { name: yes, match: '\\[y/N\\] ?$', respond: { send: "y\\r" } }
  - { name: gave-up, match: '^API Error: (?<reason>.+)$', kind: agent_error, respond: { stop: true } }
`

async function session(yml: string, args: string[]) {
  const r = makeTempRepo({ files: { 'proctor.yml': `${yml}${rules}` } })
  repos.push(r)
  r.commitAll('proctor.yml')
  const outside = tempDir('proctor-typed-')
  dirs.push(outside)
  const typed = join(outside, 'typed.txt')
  const run = await proctorCli(
    ['run', '--no-push', '--', process.execPath, fixture('dialog-on-term.mjs'), typed, ...args],
    { cwd: r.dir, env: r.env },
  )
  const sessions = join(r.dir, '.proctor/sessions')
  const id = readdirSync(sessions)[0]!
  const report = JSON.parse(readFileSync(join(sessions, id, 'report.json'), 'utf8')) as SessionReport
  return { run, report, typed: readFileSync(typed, 'utf8'), diagnostics: `${run.stdout}\n${run.stderr}` }
}

describe('a decided session types nothing more into the agent', () => {
  it('after the total timeout: the dialog drawn on SIGTERM is not answered, and is not the output_tail', async () => {
    const { report, typed, diagnostics } = await session('timeouts:\n  total: 2s\n  grace: 5s\n', [])
    expect(report.status, diagnostics).toBe('timeout')
    expect(typed).toBe('')
    const answer = report.events.find((e) => e.kind === 'response' && e.name === 'yes')
    expect(answer?.message, diagnostics).toMatch(/not delivered: the session is decided/)
    expect(report.output_tail).toContain('agent: working on it')
    expect(report.output_tail).not.toContain('[y/N]')
  })

  it('an agent_error rule: failed with the agent’s words as the reason, promptly, and nothing typed after', async () => {
    const { report, typed, run, diagnostics } = await session('timeouts:\n  total: 60s\n  grace: 5s\n', [
      'API Error: 401 invalid x-api-key · Fix external API key',
    ])
    expect(report.status, diagnostics).toBe('failed')
    expect(report.reason).toBe('agent_error: 401 invalid x-api-key · Fix external API key')
    expect(run.ms).toBeLessThan(30_000)
    expect(typed).toBe('')
    expect(report.output_tail).toContain('API Error: 401')
    expect(report.output_tail).not.toContain('[y/N]')
  })
})
