// `proctor run` starts the git reads its checkpoints need before the agent (the base commit, the repository's
// machinery) before it parses proctor.yml (src/cli/commands/run.ts). The session uses them only when nothing
// that may change the repository ran in between: a session_start hook that commits moves the base.
import { spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'

const cli = join(resolve(import.meta.dirname, '../..'), 'dist/cli.js')

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

function runIn(repo: TempRepo, config: string): SessionReport {
  repo.write('proctor.yml', config)
  repo.git(['add', 'proctor.yml'])
  repo.commitAll('config')
  const env: NodeJS.ProcessEnv = { ...repo.env, NO_COLOR: '1' }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID') delete env[key]
  const run = spawnSync(
    process.execPath,
    [cli, 'run', '--json', '--no-pty', '--', 'sh', '-c', 'echo work > agent.txt'],
    { cwd: repo.dir, env, encoding: 'utf8' },
  )
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as SessionReport
}

describe('the git reads begun before the config is parsed', () => {
  it('give the session its base commit: the agent’s work is what it changed', () => {
    const repo = makeTempRepo({ files: { 'README.md': '# test\n' } })
    repos.push(repo)
    const report = runIn(repo, 'timeouts: { total: 5m }\n')
    expect(report.checkpoints.flatMap((c) => c.files_changed)).toEqual(['agent.txt'])
  })

  it('are not used when a session_start hook ran first: what the hook committed is not the agent’s work', () => {
    const repo = makeTempRepo({ files: { 'README.md': '# test\n' } })
    repos.push(repo)
    const hook = 'echo hooked > hooked.txt && git add hooked.txt && git commit -q -m hooked'
    const report = runIn(repo, `hooks:\n  session_start:\n    - command: ${JSON.stringify(hook)}\n`)
    expect(repo.git(['log', '-1', '--format=%s', 'HEAD']).trim()).toBe('hooked')
    expect(report.checkpoints.flatMap((c) => c.files_changed)).toEqual(['agent.txt'])
  })
})
