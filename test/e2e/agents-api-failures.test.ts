// The real CLIs (Claude Code, Codex, Gemini CLI; one-shot and TUI) under their presets when the model API
// refuses: a bad key (401; 400 API_KEY_INVALID on the Gemini API), a rate limit or overload that does not
// clear (429 / 529), and a 429 that clears. The first two end the session `failed` with the CLI's own words
// as the report's reason (`agent_error: …`) within 15 s of the CLI giving up (its last refused request),
// never at the total timeout; the third is the CLI's to retry, and the session completes. Each CLI's retries
// are cut short by its own knob (CLAUDE_CODE_MAX_RETRIES, the provider's request_max_retries,
// general.maxAttempts) so a refused run takes seconds, not the minutes the defaults take.
import { afterEach, describe, expect, it } from 'vitest'
import { claudeBinaries, claudeWorld, runProctor, type ClaudeWorld } from './claude-harness.js'
import * as openai from '../servers/openai-api.js'
import * as gemini from '../servers/gemini-api.js'
import {
  AGENT_TEST_MS,
  codexBin,
  codexSetup,
  codexVersion,
  geminiBin,
  geminiSetup,
  geminiVersion,
  onlyReport,
  proctorRun,
  repo,
  type Cleanups,
} from './agents-harness.js'
import type { SessionReport } from '../../src/report/model.js'

const cleanups: Cleanups = []
const worlds: ClaudeWorld[] = []
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

// A timeout far beyond the 15 s allowed: a session that waits for it fails the test.
// The CLI's own failure screens and lines are what is tested here: the metering proxy (on by default in the
// claude-code and gemini presets) would see the refusal first and end the session with its own reason
// (test/e2e/model-proxy.test.ts).
const proctorYml = `checkpoints:
  push: never
timeouts:
  total: 100s
model_api:
  proxy: false
`

/** Ms from the CLI's last refused request to proctor's exit. */
const GAVE_UP_WITHIN_MS = 15_000

interface Outcome {
  report: SessionReport
  /** Date.now() of the last refused request, and of proctor's exit. */
  lastRefusal: number
  exitedAt: number
  diagnostics: string
}

function expectFailedPromptly(o: Outcome, words: RegExp): void {
  expect(o.report.status, o.diagnostics).toBe('failed')
  expect(o.report.reason, o.diagnostics).toMatch(/^agent_error: /)
  expect(o.report.reason, o.diagnostics).toMatch(words)
  expect(o.exitedAt - o.lastRefusal, o.diagnostics).toBeLessThan(GAVE_UP_WITHIN_MS)
  // The session was decided on the failure: nothing was typed into the agent after it.
  const at = o.report.events.find((e) => e.kind === 'agent_error')?.at ?? Infinity
  const typedAfter = o.report.events.filter(
    (e) => e.kind === 'response' && e.at > at && (e.data as { delivered?: boolean } | undefined)?.delivered,
  )
  expect(typedAfter, o.diagnostics).toEqual([])
  // The tail is the screen the agent gave up on, not what it drew while being stopped.
  expect(o.report.output_tail, o.diagnostics).toMatch(words)
}

function diagnose(report: SessionReport, output: string): string {
  return `${output.slice(-2500)}\nreason: ${report?.reason}\n${JSON.stringify(report?.events?.slice(-12), null, 1)}\nlast screen:\n${report?.output_tail ?? ''}`
}

const lastRefusal = (requests: { at: number; refused?: number }[]) =>
  Math.max(0, ...requests.filter((r) => r.refused).map((r) => r.at))

// ---------------------------------------------------------------------------------------------- Claude Code
const claude = claudeBinaries()[0]!

async function runClaude(
  tui: boolean,
  refuse: { status: 401 | 429 | 529; times?: number },
): Promise<Outcome & { world: ClaudeWorld }> {
  const world = await claudeWorld(
    claude,
    () => ({ text: 'All done.' }),
    { 'proctor.yml': proctorYml },
    { refuse },
  )
  worlds.push(world)
  world.repo.commitAll('proctor.yml')
  // Claude's default is 10 retries over ~3 minutes; two keep a refused run short.
  world.env.CLAUDE_CODE_MAX_RETRIES = '2'
  const args = ['--agent', 'claude-code', '--', 'claude', ...(tui ? [] : ['-p']), 'say hi']
  const run = await runProctor(world, args)
  return {
    world,
    report: run.report,
    lastRefusal: lastRefusal(world.api.requests),
    exitedAt: Date.now(),
    diagnostics: diagnose(run.report, run.stdout + run.stderr),
  }
}

describe.each([
  { mode: 'claude -p', tui: false },
  { mode: 'claude (TUI)', tui: true },
])(`proctor run --agent claude-code -- $mode (${claude.label}) against a refusing API`, ({ tui }) => {
  it(
    '401: ends failed with "Invalid API key · Fix external API key"',
    async () => {
      const o = await runClaude(tui, { status: 401 })
      expectFailedPromptly(o, /Invalid API key · Fix external API key/)
    },
    AGENT_TEST_MS,
  )

  it(
    '529 that does not clear: ends failed with "API Error: 529 Overloaded…" once Claude stops retrying',
    async () => {
      const o = await runClaude(tui, { status: 529 })
      expect(o.world.api.requests.filter((r) => r.refused).length).toBeGreaterThan(1)
      expectFailedPromptly(o, /API Error: 529 Overloaded/)
    },
    AGENT_TEST_MS,
  )

  it(
    'a 429 that clears: Claude retries and the session completes',
    async () => {
      const o = await runClaude(tui, { status: 429, times: 1 })
      expect(o.report.status, o.diagnostics).toBe('completed')
      expect(o.world.api.requests.some((r) => r.refused === 429)).toBe(true)
    },
    AGENT_TEST_MS,
  )
})

// ---------------------------------------------------------------------------------------------------- Codex
async function runCodex(
  tui: boolean,
  refuse: openai.Refusal,
  retries = 0,
  extra: string[] = [],
): Promise<Outcome & { api: openai.OpenAIApi }> {
  const { api, env } = await codexSetup(
    cleanups,
    { script: [[openai.message('All done.')]], refuse },
    retries,
  )
  const r = repo(cleanups, { 'proctor.yml': proctorYml })
  const run = await proctorRun(r.dir, env(r), [
    '--agent',
    'codex',
    '--',
    codexBin,
    ...(tui ? [] : ['exec']),
    ...extra,
    'say hi',
  ])
  const report = onlyReport(r)
  return {
    api,
    report,
    lastRefusal: lastRefusal(api.requests),
    exitedAt: Date.now(),
    diagnostics: diagnose(report, run.output),
  }
}

describe.each([
  { mode: 'codex exec', tui: false },
  { mode: 'codex (TUI)', tui: true },
])(`proctor run --agent codex -- $mode (Codex ${codexVersion}) against a refusing API`, ({ tui }) => {
  it(
    '401: ends failed with "unexpected status 401 Unauthorized: Incorrect API key provided…"',
    async () => {
      const o = await runCodex(tui, { status: 401 })
      expectFailedPromptly(o, /unexpected status 401 Unauthorized: Incorrect API key provided/)
      expect(o.report.reason).not.toMatch(/url:/)
    },
    AGENT_TEST_MS,
  )

  it(
    '429 that does not clear: ends failed with "exceeded retry limit, last status: 429…"',
    async () => {
      const o = await runCodex(tui, { status: 429 }, 1)
      expect(o.api.requests.filter((r) => r.refused).length).toBeGreaterThan(1)
      expectFailedPromptly(o, /exceeded retry limit, last status: 429 Too Many Requests/)
    },
    AGENT_TEST_MS,
  )

  it(
    'a 429 that clears: Codex retries and the session completes',
    async () => {
      const o = await runCodex(tui, { status: 429, times: 1 }, 2)
      expect(o.report.status, o.diagnostics).toBe('completed')
      expect(o.api.requests.some((r) => r.refused === 429)).toBe(true)
    },
    AGENT_TEST_MS,
  )
})

describe(`proctor run --agent codex -- codex exec --dangerously-bypass-hook-trust (Codex ${codexVersion})`, () => {
  it(
    'the flag the user already gave is not added again: Codex runs, and the report says what was added',
    async () => {
      const { report, diagnostics } = await runCodex(false, { status: 401, times: 0 }, 0, [
        '--dangerously-bypass-hook-trust',
      ])
      expect(report.status, diagnostics).toBe('completed')
      expect(report.agent, diagnostics).toMatchObject({ exit_code: 0 })
      const wired = report.events.find((e) => /own Stop hook/.test(e.message))
      expect(wired?.message).toBe(
        "wired proctor into codex's own Stop hook: added -c hooks.Stop=…; already given: --dangerously-bypass-hook-trust",
      )
    },
    AGENT_TEST_MS,
  )
})

// ----------------------------------------------------------------------------------------------- Gemini CLI
async function runGemini(
  tui: boolean,
  refuse: gemini.Refusal,
  maxAttempts: number,
  yml = proctorYml,
): Promise<Outcome & { api: gemini.GeminiApi }> {
  const { api, env } = await geminiSetup(cleanups, [[gemini.text('All done.')]], undefined, {
    refuse,
    maxAttempts,
  })
  const r = repo(cleanups, { 'proctor.yml': yml })
  // The TUI only off CI (Gemini runs headless whenever CI or CI_* is set).
  const e = Object.fromEntries(
    Object.entries(env(r)).filter(([key]) => !(tui && /^(CI|CONTINUOUS_INTEGRATION|CI_.*)$/.test(key))),
  )
  const run = await proctorRun(r.dir, e, [
    '--agent',
    'gemini',
    '--',
    geminiBin,
    '-m',
    'gemini-2.5-flash',
    ...(tui ? [] : ['-p']),
    'say hi',
  ])
  const report = onlyReport(r)
  return {
    api,
    report,
    lastRefusal: lastRefusal(api.requests),
    exitedAt: Date.now(),
    diagnostics: diagnose(report, run.output),
  }
}

describe.each([
  { mode: 'gemini -p', tui: false },
  { mode: 'gemini (TUI)', tui: true },
])(`proctor run --agent gemini -- $mode (Gemini CLI ${geminiVersion}) against a refusing API`, ({ tui }) => {
  it(
    'an invalid key (400 API_KEY_INVALID): ends failed with "API key not valid…"',
    async () => {
      const o = await runGemini(tui, { status: 400 }, 2)
      expectFailedPromptly(o, /API key not valid/)
    },
    AGENT_TEST_MS,
  )

  // Not in the TUI: on a 429 that never clears, Gemini's TUI (0.61.0) falls back to another model and starts
  // its attempts over, for good (111 refused requests in 4m40s), showing only its "Thinking…" spinner; there
  // is nothing on its screen to recognise, and the session ends at its timeout (docs/agents.md).
  it.runIf(!tui)(
    '429 that does not clear: ends failed with the quota message once Gemini stops retrying',
    async () => {
      const o = await runGemini(tui, { status: 429 }, 2)
      expect(o.api.requests.filter((r) => r.refused).length).toBeGreaterThan(1)
      expectFailedPromptly(o, /You exceeded your current quota/)
    },
    AGENT_TEST_MS,
  )

  // With the metering proxy the preset turns on by default, the TUI's endless 429s end too: the proxy counts
  // the refusals and ends the session after model_api.retries of them (docs/agents.md).
  it.runIf(tui)(
    '429 that does not clear, through the metering proxy (the preset default): ends failed after the retries',
    async () => {
      const o = await runGemini(
        tui,
        { status: 429 },
        10,
        'checkpoints:\n  push: never\ntimeouts:\n  total: 100s\nmodel_api:\n  retries: 2\n',
      )
      expect(o.report.status, o.diagnostics).toBe('failed')
      expect(o.report.reason, o.diagnostics).toMatch(/^model API failed 3 times in a row \(last: 429\)/)
      expect(o.api.requests.filter((r) => r.refused).length).toBe(3)
      expect(o.exitedAt - o.lastRefusal, o.diagnostics).toBeLessThan(GAVE_UP_WITHIN_MS)
    },
    AGENT_TEST_MS,
  )

  it(
    'a 429 that clears: Gemini retries and the session completes',
    async () => {
      const o = await runGemini(tui, { status: 429, times: 1 }, 3)
      expect(o.report.status, o.diagnostics).toBe('completed')
      expect(o.api.requests.some((r) => r.refused === 429)).toBe(true)
    },
    AGENT_TEST_MS,
  )
})
