// The real Gemini CLI TUI (`gemini "…"`, no `-p`) under `proctor run --agent gemini`, against the scripted
// Gemini API: the preset alone trusts the workspace and answers the approval its default mode asks for, Gemini's
// own AfterAgent hook blocks once, the reason reaches the model, the agent writes the file, the hook allows —
// and proctor then ends the TUI, which would otherwise wait at its prompt.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import * as gemini from '../servers/gemini-api.js'
import {
  AGENT_TEST_MS,
  geminiBin,
  geminiSetup,
  geminiVersion,
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

describe(`proctor run --agent gemini -- gemini (TUI, Gemini CLI ${geminiVersion})`, () => {
  it(
    'answers the approval, blocks once through the native hook, then ends the idle TUI',
    async () => {
      const { api, env } = await geminiSetup(cleanups, [
        [gemini.text('All done.')],
        (request) => {
          expect(gemini.contentsText(request)).toContain('done.txt is missing')
          return [gemini.functionCall('write_file', { file_path: 'done.txt', content: 'fixed\n' })]
        },
        [gemini.text('Created done.txt.')],
      ])
      const r = repo(cleanups, { 'proctor.yml': proctorYml })
      // A laptop, not a CI job: with CI, CONTINUOUS_INTEGRATION or any CI_* variable set, Gemini (is-in-ci) never
      // starts its TUI; it runs the prompt headless, where the default approval mode leaves it no write tools.
      const laptop = Object.fromEntries(
        Object.entries(env(r)).filter(([key]) => !/^(CI|CONTINUOUS_INTEGRATION|CI_.*)$/.test(key)),
      )
      // The default approval mode: Gemini asks before it writes.
      const run = await proctorRun(r.dir, laptop, [
        '--agent',
        'gemini',
        '--',
        geminiBin,
        '-m',
        'gemini-2.5-flash',
        'create done.txt',
      ])
      const report = onlyReport(r)
      const events = report.events
      const diagnostics = `${run.output.slice(-3000)}\n${JSON.stringify(events.slice(-30), null, 1)}\nlast screen:\n${report.output_tail ?? ''}`
      expect(run.code, diagnostics).toBe(0)

      // The model was told why after the first stop, and the agent fixed it.
      const turns = api.turns()
      expect(turns, diagnostics).toHaveLength(3)
      expect(gemini.contentsText(turns[0]!)).not.toContain('done.txt is missing')
      expect(gemini.contentsText(turns[1]!)).toContain(REASON)
      expect(readFileSync(join(r.dir, 'done.txt'), 'utf8')).toBe('fixed\n')

      // Both rounds from Gemini's own hook, nothing run a second time; its settings file is gone again.
      expect(report).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0, rounds: 2 })
      expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'block'],
        [2, 'allow'],
      ])
      expect(existsSync(join(r.dir, '.gemini'))).toBe(false)

      // The preset answered the approval for the write.
      const answered = events.filter((e) => e.kind === 'response').map((e) => e.name)
      expect(answered, diagnostics).toContain('gemini:allow-once')
      expect(events.some((e) => e.kind === 'approval_request' && e.name === 'gemini:approval')).toBe(true)

      // Gemini shows no done line (its empty input box is there before any work too): no completion is
      // reported at all, and proctor ended the TUI by /quit once the hook allowed and the spinner was gone.
      expect(
        events.filter((e) => e.kind === 'completion'),
        diagnostics,
      ).toEqual([])
      const allowAt = events.find((e) => e.kind === 'stop_hooks' && /allow/.test(e.message))?.at ?? Infinity
      const quit = events.find((e) => e.kind === 'exit' && /agent\.quit/.test(e.message))
      expect(quit, diagnostics).toBeDefined()
      expect(quit!.at).toBeGreaterThan(allowAt)
    },
    AGENT_TEST_MS,
  )
})
