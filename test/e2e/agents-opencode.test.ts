// The real opencode (pinned; installed on first use, see agents-harness.ts opencodeBin) under the built `proctor run` with `agent.preset: opencode`, its
// model calls going to the scripted Responses API on loopback (a custom provider with its own baseURL). opencode
// has no stop hook of its own, so the preset takes proctor's generic path: stop hooks after `opencode run`
// exits, and a block re-runs it as `opencode run --continue <reason>`. The tests follow that block to the model
// (the API log), the file opencode's bash tool writes, the allow and report.json; then a bad key and a 429 that
// does not clear, which end the session failed with the API's words within 15 s of the last refused request.
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import * as openai from '../servers/openai-api.js'
import { tempDir, type TempRepo } from '../helpers/git-repo.js'
import {
  AGENT_TEST_MS,
  needsDoneFile,
  onlyReport,
  opencodeBin,
  opencodeSetup,
  opencodeVersion,
  proctorRun,
  REASON,
  repo as tempRepo,
  type Cleanups,
} from './agents-harness.js'

const cleanups: Cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const repo = (files: Record<string, string>) => tempRepo(cleanups, files)

/** The preset's continue names `opencode`: a PATH entry holding the binary under test by that name. */
function onPath(): string {
  const dir = tempDir('proctor-opencode-bin-')
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(dir, { recursive: true })
  symlinkSync(opencodeBin(), join(dir, 'opencode'))
  return dir
}

function proctorYml(stopHook: string): string {
  return [
    'agent:',
    '  preset: opencode',
    '  command: ["opencode", "run", "create done.txt"]',
    'timeouts:',
    '  total: 100s',
    'stop_hooks:',
    '  - name: done-file',
    `    command: ${JSON.stringify(stopHook)}`,
    '    timeout: 30s',
    'max_stop_rounds: 3',
    '',
  ].join('\n')
}

async function setup(options: openai.OpenAIApiOptions) {
  const world = await opencodeSetup(cleanups, options)
  const bin = onPath()
  const env = (r: TempRepo) => {
    const e = world.env(r)
    return { ...e, PATH: `${bin}:${e.PATH ?? ''}` }
  }
  return { ...world, env }
}

const bash = (command: string) => openai.functionCall('bash', { command })

describe(`opencode ${opencodeVersion} under proctor run (preset opencode)`, () => {
  it(
    'blocks once, the reason reaches the model through `opencode run --continue`, the fix lands, report.json shows both rounds',
    async () => {
      const { api, env } = await setup({
        script: [
          [openai.message('All done.')],
          (request) => {
            expect(openai.inputText(request)).toContain('done.txt is missing')
            return [bash('printf "fixed\\n" > done.txt')]
          },
          [openai.message('Created done.txt.')],
        ],
      })
      const r = repo({ 'proctor.yml': proctorYml(needsDoneFile) })
      const run = await proctorRun(r.dir, env(r))
      expect(run.code, run.output).toBe(0)

      const turns = api.turns()
      expect(turns).toHaveLength(3)
      expect(openai.inputText(turns[0]!)).not.toContain('done.txt is missing')
      expect(openai.inputText(turns[1]!)).toContain(REASON)
      // The same conversation went on (--continue): the second round's request holds the first round's answer.
      expect(openai.inputText(turns[1]!)).toContain('All done.')
      expect(readFileSync(join(r.dir, 'done.txt'), 'utf8')).toBe('fixed\n')

      const report = onlyReport(r)
      expect(report).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0, rounds: 2 })
      expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'block'],
        [2, 'allow'],
      ])
      expect(report.stop_hooks[0]!.reason).toContain('done.txt is missing')
      expect(report.checkpoints.flatMap((c) => c.files_changed)).toContain('done.txt')
    },
    AGENT_TEST_MS,
  )

  async function refused(refuse: openai.Refusal) {
    const { api, env } = await setup({ refuse, script: [[openai.message('Done.')]] })
    const r = repo({ 'proctor.yml': proctorYml(needsDoneFile) })
    const run = await proctorRun(r.dir, env(r))
    const exitedAt = Date.now()
    const report = onlyReport(r)
    const last = Math.max(0, ...api.requests.filter((q) => q.refused).map((q) => q.at))
    const diagnostics = `${run.output.slice(-2000)}\nreason: ${report.reason}\nevents: ${JSON.stringify(report.events.slice(-6))}`
    return { run, report, exitedAt, last, diagnostics }
  }

  it(
    'a bad key (401): failed with the API\'s "Incorrect API key provided" within 15 s',
    async () => {
      const o = await refused({ status: 401 })
      expect(o.report.status, o.diagnostics).toBe('failed')
      expect(o.report.reason, o.diagnostics).toMatch(
        /^agent_error: Incorrect API key provided: sk-test-\*\*\*-real\.$/,
      )
      expect(o.exitedAt - o.last, o.diagnostics).toBeLessThan(15_000)
      // Decided on the failure: no continuation round was started.
      expect(o.report.rounds, o.diagnostics).toBe(1)
    },
    AGENT_TEST_MS,
  )

  it(
    "a 429 that does not clear: failed with the API's words once opencode stopped retrying",
    async () => {
      const o = await refused({ status: 429 })
      expect(o.report.status, o.diagnostics).toBe('failed')
      expect(o.report.reason, o.diagnostics).toMatch(/^agent_error: Rate limit reached for gpt-5\.1-codex/)
      expect(o.exitedAt - o.last, o.diagnostics).toBeLessThan(15_000)
    },
    AGENT_TEST_MS,
  )
})
