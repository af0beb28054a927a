// `proctor run --task`: a proctor.yml written by `proctor init --trigger mention` has `{task}` in its
// command; on a laptop the task comes from --task, into the same one argument and PROCTOR_TASK as in CI.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { isolatedGitEnv, makeTempRepo, type TempRepo } from '../helpers/git-repo.js'
import { proctorCli } from '../helpers/proctor-process.js'

const RECORDER = `import { writeFileSync } from 'node:fs'
writeFileSync(process.env.E2E_RECORD, JSON.stringify({ argv: process.argv.slice(2), task: process.env.PROCTOR_TASK ?? null }))
`
const CONFIG = `agent:
  command: [node, recorder.mjs, "{task}"]
  pty: false
`

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

function setup(): { repo: TempRepo; record: string } {
  const repo = makeTempRepo({ files: { 'proctor.yml': CONFIG, 'recorder.mjs': RECORDER } })
  repos.push(repo)
  return { repo, record: `${repo.dir}/.git/record.json` }
}

describe('proctor run --task', () => {
  it('puts the task into {task} as one argument and into PROCTOR_TASK, byte for byte', async () => {
    const { repo, record } = setup()
    const task = 'fix it; echo $(id) `whoami` "q"\nline two'
    const run = await proctorCli(['run', '--task', task, '--no-checkpoints', '--no-push', '-q'], {
      cwd: repo.dir,
      env: isolatedGitEnv({ E2E_RECORD: record }),
    })
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ argv: [task], task })
  })

  it('without --task, a command with {task} is a usage error naming the fix, and nothing runs', async () => {
    const { repo, record } = setup()
    const run = await proctorCli(['run', '--no-checkpoints', '--no-push', '-q'], {
      cwd: repo.dir,
      env: isolatedGitEnv({ E2E_RECORD: record }),
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      'the agent command contains {task} (the task from a comment in CI): give one with --task "<text>"',
    )
    expect(() => readFileSync(record)).toThrow()
  })

  it('--task with {task} in a shell string is refused: the task never goes through a shell', async () => {
    const { repo, record } = setup()
    const run = await proctorCli(
      ['run', '--task', 'x', '--shell', 'node recorder.mjs "{task}"', '--no-push'],
      {
        cwd: repo.dir,
        env: isolatedGitEnv({ E2E_RECORD: record }),
      },
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('never put into a shell string')
    expect(() => readFileSync(record)).toThrow()
  })
})
