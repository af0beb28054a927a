// `proctor run --continue <session> --task "<feedback>"` with the built CLI and plain shell agents (no agent
// CLI with sessions of its own): the next round of the same session, a fresh agent told the history through
// {task} or agent.continue, max_stop_rounds counted from the continuation, and clear usage errors.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
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

function proctor(r: TempRepo, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env)) if (/^(GITHUB_|PROCTOR_)/.test(key)) delete env[key]
  const child = spawn(process.execPath, [cli, 'run', '--no-push', '--quiet', ...args], {
    cwd: r.dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stderr })))
}

const reportOf = (r: TempRepo, id: string) =>
  JSON.parse(readFileSync(join(r.dir, '.proctor/sessions', id, 'report.json'), 'utf8')) as SessionReport

/** The agent writes its prompt (the one argument) and PROCTOR_TASK where the test can read them. */
const recorder = (file: string) => [
  '--',
  'sh',
  '-c',
  `printf '%s' "$1" > ${file}.arg; printf '%s' "$PROCTOR_TASK" > ${file}.env`,
  'sh',
  '{task}',
]

describe('proctor run --continue', () => {
  it('runs round 2 of the same session: a fresh agent gets the history and the feedback as its {task}', async () => {
    const r = repo('stop_hooks:\n  - name: always\n    command: ["true"]\ncheckpoints: { push: never }\n')
    const first = await proctor(r, ['--session', 's1', '--task', 'write the parser', ...recorder('one')])
    expect(first.code, first.stderr).toBe(0)
    expect(r.read('one.arg')).toBe('write the parser')

    const second = await proctor(r, ['--continue', 's1', '--task', 'now the $(tests)', ...recorder('two')])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toContain('proctor: continuing session s1 at round 2: agent.continue is not set')
    const prompt = r.read('two.arg')
    expect(prompt).toMatch(/^proctor: this continues session s1\./)
    expect(prompt).toContain('- the agent was started as: sh -c')
    expect(prompt).toContain('write the parser')
    expect(prompt).toContain('- round 1, the stop hooks: always passed')
    expect(prompt).toContain('- files changed: one.arg, one.env')
    expect(prompt.endsWith('proctor: you are asked to continue with this:\nnow the $(tests)')).toBe(true)
    expect(r.read('two.env')).toBe(prompt)

    const report = reportOf(r, 's1')
    expect(report).toMatchObject({ session_id: 's1', rounds: 2, verdict: 'allow' })
    expect(report.stop_hooks.map((h) => h.round)).toEqual([1, 2])
    // The same checkpoint chain goes on: round 2's checkpoint holds round 1's work.
    const tip = report.checkpoints.at(-1)!.sha
    expect(r.git(['show', `${tip}:one.arg`])).toBe('write the parser')
    expect(r.git(['show', `${tip}:two.arg`])).toBe(prompt)
  }, 60_000)

  it('counts max_stop_rounds from the continuation, and re-runs agent.continue without a session to resume', async () => {
    // agent.continue touches `ok` only when sent back by the stop hooks after the feedback round marked `cont`.
    const template = [
      'sh',
      '-c',
      'case "$1" in *"did not pass"*) [ -f cont ] && touch ok;; *"asked to continue"*) touch cont;; esac; true',
      'sh',
      '{reason}',
    ]
    const r = repo(
      [
        'agent:',
        '  command: ["true"]',
        `  continue: ${JSON.stringify(template)}`,
        'stop_hooks:',
        '  - name: needs-ok',
        '    command: ["sh", "-c", "test -f ok || { echo ok is missing >&2; exit 2; }"]',
        'max_stop_rounds: 2',
        'checkpoints: { push: never }',
        '',
      ].join('\n'),
    )
    const first = await proctor(r, ['--session', 's2'])
    expect(first.code, first.stderr).toBe(1)
    expect(reportOf(r, 's2')).toMatchObject({ rounds: 2, verdict: 'block' })

    const second = await proctor(r, ['--continue', 's2', '--task', 'try once more'])
    expect(second.code, second.stderr).toBe(0)
    expect(existsSync(join(r.dir, 'ok'))).toBe(true)
    const report = reportOf(r, 's2')
    expect(report).toMatchObject({ rounds: 4, verdict: 'allow' })
    expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
      [1, 'block'],
      [2, 'block'],
      [3, 'block'],
      [4, 'allow'],
    ])
  }, 60_000)

  it('refuses, naming the fix, what it cannot continue', async () => {
    const r = repo('checkpoints: { push: never }\n')
    const missing = await proctor(r, ['--continue', 'nope', '--task', 'x', ...recorder('a')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('cannot continue session nope')
    expect(missing.stderr).toContain('ls .proctor/sessions')

    expect((await proctor(r, ['--session', 's3', '--task', 'x', ...recorder('a')])).code).toBe(0)
    const noTask = await proctor(r, ['--continue', 's3', ...recorder('b')])
    expect(noTask.code).toBe(2)
    expect(noTask.stderr).toContain('--continue s3 needs the feedback for the next round: --task')
    const noPlaceholder = await proctor(r, ['--continue', 's3', '--task', 'x', '--', 'true'])
    expect(noPlaceholder.code).toBe(2)
    expect(noPlaceholder.stderr).toContain('the agent command has no {task} to tell it')
    expect(existsSync(join(r.dir, 'b.arg'))).toBe(false)
  }, 60_000)
})
