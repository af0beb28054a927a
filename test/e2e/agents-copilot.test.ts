// The real GitHub Copilot CLI (pinned devDependency) under the built `proctor run` with `agent.preset: copilot`,
// its model calls going to the scripted Responses API on loopback as a "bring your own key" provider
// (COPILOT_PROVIDER_BASE_URL, offline mode: no GitHub sign-in). proctor hands Copilot its agentStop hook as a
// session plugin; the tests follow a block through Copilot to the model (the API log), the file Copilot's
// shell tool writes, the allow and report.json; then the API refusing: a bad key, a 429 that does not clear
// (both end the session failed with Copilot's words within 15 s of its last refused request) and a 429 that
// clears (Copilot's to retry; the session completes).
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import * as openai from '../servers/openai-api.js'
import { tempDir } from '../helpers/git-repo.js'
import {
  AGENT_TEST_MS,
  copilotBin,
  copilotSetup,
  copilotVersion,
  needsDoneFile,
  onlyReport,
  proctorRun,
  REASON,
  repo as tempRepo,
  type Cleanups,
} from './agents-harness.js'

const cleanups: Cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
// Where Copilot unpacks itself: once for this file.
const cache = tempDir('proctor-copilot-cache-')
afterAll(() => rmSync(cache, { recursive: true, force: true }))

const repo = (files: Record<string, string>) => tempRepo(cleanups, files)

const command = [copilotBin, '-p', 'create done.txt', '--allow-all-tools']

function proctorYml(stopHook: string): string {
  return [
    'agent:',
    '  preset: copilot',
    `  command: ${JSON.stringify(command)}`,
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

const shell = (cmd: string) => openai.functionCall('bash', { command: cmd, description: 'write the file' })

describe(`Copilot CLI ${copilotVersion} under proctor run (preset copilot)`, () => {
  it(
    "blocks once through Copilot's agentStop hook, the reason reaches the model, the fix lands, report.json shows both rounds",
    async () => {
      const { api, env } = await copilotSetup(
        cleanups,
        {
          script: [
            [openai.message('All done.')],
            (request) => {
              expect(openai.inputText(request)).toContain('done.txt is missing')
              return [shell('printf "fixed\\n" > done.txt')]
            },
            [openai.message('Created done.txt.')],
          ],
        },
        cache,
      )
      const r = repo({ 'proctor.yml': proctorYml(needsDoneFile) })
      const run = await proctorRun(r.dir, env(r))
      expect(run.code, run.output).toBe(0)

      // Three model turns; the second carries proctor's reason as Copilot's next user message.
      const turns = api.turns()
      expect(turns).toHaveLength(3)
      expect(openai.inputText(turns[0]!)).not.toContain('done.txt is missing')
      expect(openai.inputText(turns[1]!)).toContain(REASON)
      expect(readFileSync(join(r.dir, 'done.txt'), 'utf8')).toBe('fixed\n')

      const report = onlyReport(r)
      expect(report).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0, rounds: 2 })
      expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'block'],
        [2, 'allow'],
      ])
      expect(report.events.some((e) => /never called/.test(e.message))).toBe(false)
      // The hook went in as a session plugin: nothing left in the project, no repository hook written.
      expect(existsSync(join(r.dir, '.proctor/copilot-plugin'))).toBe(false)
      expect(existsSync(join(r.dir, '.github'))).toBe(false)
      expect(report.checkpoints.flatMap((c) => c.files_changed)).toEqual(expect.arrayContaining(['done.txt']))
      for (const checkpoint of report.checkpoints)
        expect(checkpoint.files_changed.filter((f) => f.startsWith('.proctor/'))).toEqual([])
    },
    AGENT_TEST_MS,
  )

  async function refused(refuse: openai.Refusal) {
    const { api, env } = await copilotSetup(
      cleanups,
      { refuse, script: [[shell('printf "fixed\\n" > done.txt')], [openai.message('Done.')]] },
      cache,
    )
    const r = repo({ 'proctor.yml': proctorYml(needsDoneFile) })
    const run = await proctorRun(r.dir, env(r))
    const exitedAt = Date.now()
    const report = onlyReport(r)
    const last = Math.max(0, ...api.requests.filter((q) => q.refused).map((q) => q.at))
    const diagnostics = `${run.output.slice(-2000)}\nreason: ${report.reason}\nevents: ${JSON.stringify(report.events.slice(-6))}\ntail:\n${report.output_tail}`
    return { run, report, exitedAt, last, diagnostics, dir: r.dir }
  }

  it(
    'a bad key (401): failed with "Authentication failed with provider" within 15 s of the last refusal',
    async () => {
      const o = await refused({ status: 401 })
      expect(o.report.status, o.diagnostics).toBe('failed')
      expect(o.report.reason, o.diagnostics).toMatch(
        /^agent_error: Authentication failed with provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\)$/,
      )
      expect(o.exitedAt - o.last, o.diagnostics).toBeLessThan(15_000)
      expect(o.run.code, o.diagnostics).not.toBe(0)
    },
    AGENT_TEST_MS,
  )

  it(
    "a 429 that does not clear: failed with the API's own words once Copilot stopped retrying",
    async () => {
      const o = await refused({ status: 429 })
      expect(o.report.status, o.diagnostics).toBe('failed')
      expect(o.report.reason, o.diagnostics).toMatch(
        /^agent_error: 429 Rate limit reached for gpt-5\.1-codex/,
      )
      expect(o.exitedAt - o.last, o.diagnostics).toBeLessThan(15_000)
    },
    AGENT_TEST_MS,
  )

  it(
    "a 429 that clears is Copilot's to retry: the session completes",
    async () => {
      const o = await refused({ status: 429, times: 1 })
      expect(o.report, o.diagnostics).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0 })
      expect(readFileSync(join(o.dir, 'done.txt'), 'utf8')).toBe('fixed\n')
    },
    AGENT_TEST_MS,
  )
})
