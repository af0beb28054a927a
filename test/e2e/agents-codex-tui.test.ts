// The real Codex TUI (`codex "…"`, no `exec`) under `proctor run --agent codex`, against the scripted Responses
// API: the preset alone gets it through the folder-trust dialog and the approval its policy asks for, Codex's
// own Stop hook (passed on the command line) blocks once, the reason reaches the model, the agent writes the
// file, the hook allows — and proctor then ends the TUI, which would otherwise wait at its prompt.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import * as openai from '../servers/openai-api.js'
import {
  AGENT_TEST_MS,
  codexBin,
  codexSetup,
  codexVersion,
  needsDoneFile,
  onlyReport,
  proctorRun,
  REASON,
  repo,
  type Cleanups,
} from './agents-harness.js'

const cleanups: Cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const proctorYml = `stop_hooks:
  - name: done-file
    command: ${JSON.stringify(needsDoneFile)}
    timeout: 30s
timeouts:
  total: 2m
`

describe(`proctor run --agent codex -- codex (TUI, Codex ${codexVersion})`, () => {
  it(
    'answers the dialogs, blocks once through the native hook, then ends the idle TUI',
    async () => {
      const { api, env } = await codexSetup(cleanups, {
        script: [
          [openai.message('All done.')],
          (request) => {
            expect(openai.inputText(request)).toContain('done.txt is missing')
            // Outside the workspace-write sandbox: the approval policy makes Codex ask first.
            return [
              openai.functionCall('exec_command', {
                cmd: 'printf "fixed\\n" > done.txt',
                sandbox_permissions: 'require_escalated',
                justification: 'write done.txt',
              }),
            ]
          },
          [openai.message('Created done.txt.')],
        ],
      })
      const r = repo(cleanups, { 'proctor.yml': proctorYml })
      const run = await proctorRun(r.dir, env(r), [
        '--agent',
        'codex',
        '--',
        codexBin,
        '-a',
        'on-request',
        '-s',
        'workspace-write',
        'create done.txt',
      ])
      const report = onlyReport(r)
      const events = report.events
      const diagnostics = `${run.output.slice(-3000)}\n${JSON.stringify(events.slice(-30), null, 1)}\nlast screen:\n${report.output_tail ?? ''}`
      expect(run.code, diagnostics).toBe(0)

      // The model was told why after the first stop, and the agent fixed it.
      const turns = api.turns()
      expect(turns, diagnostics).toHaveLength(3)
      expect(openai.inputText(turns[0]!)).not.toContain('done.txt is missing')
      expect(openai.inputText(turns[1]!)).toContain(REASON)
      expect(readFileSync(join(r.dir, 'done.txt'), 'utf8')).toBe('fixed\n')

      // Both rounds from Codex's own Stop hook, nothing run a second time.
      expect(report).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0, rounds: 2 })
      expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'block'],
        [2, 'allow'],
      ])

      // The preset answered the dialogs: the folder trust and the approval for the escalated command.
      const answered = events.filter((e) => e.kind === 'response').map((e) => e.name)
      expect(answered, diagnostics).toContain('codex:trust-folder')
      expect(answered).toContain('codex:yes')
      expect(events.some((e) => e.kind === 'approval_request' && e.name === 'codex:approval')).toBe(true)

      // One completion, after the allow (never while Codex was still working), and it ended the TUI by /exit.
      const allowAt = events.find((e) => e.kind === 'stop_hooks' && /allow/.test(e.message))?.at ?? Infinity
      const completions = events.filter((e) => e.kind === 'completion')
      expect(
        completions.map((e) => e.name),
        diagnostics,
      ).toEqual(['codex:done'])
      expect(completions[0]!.at).toBeGreaterThan(allowAt)
      expect(events.some((e) => e.kind === 'exit' && /agent\.quit/.test(e.message))).toBe(true)
      expect(report.events.some((e) => /never called/.test(e.message))).toBe(false)
    },
    AGENT_TEST_MS,
  )
})
