// The real Codex CLI and Gemini CLI (pinned devDependencies) under the built `proctor run`, each talking to a
// scripted model API on loopback (test/servers/openai-api.ts, gemini-api.ts). proctor wires itself into the
// agent's own Stop hook; the tests follow a block from proctor's stop hook through the agent to the model (the
// API log), the agent's file write (a real tool call), the allow, and report.json. Every other address is
// unreachable: the proxy variables point at a closed loopback port and the CLIs' telemetry and update checks
// are off.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import * as openai from '../servers/openai-api.js'
import * as gemini from '../servers/gemini-api.js'
import {
  AGENT_TEST_MS,
  agentEnv,
  codexBin,
  codexSetup as codexWorld,
  codexVersion,
  geminiBin,
  geminiSetup as geminiWorld,
  geminiVersion,
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

const repo = (files: Record<string, string>) => tempRepo(cleanups, files)

function proctorYml(command: string[], adapter: string, stopHook: string, maxRounds = 3): string {
  return [
    'agent:',
    `  command: ${JSON.stringify(command)}`,
    `  adapter: ${adapter}`,
    '  pty: false',
    'timeouts:',
    '  total: 2m',
    'stop_hooks:',
    '  - name: done-file',
    `    command: ${JSON.stringify(stopHook)}`,
    '    timeout: 30s',
    `max_stop_rounds: ${maxRounds}`,
    '',
  ].join('\n')
}

// ---------------------------------------------------------------- Codex

async function codexSetup(script: openai.ScriptedTurn[]) {
  const world = await codexWorld(cleanups, { script })
  const command = [codexBin, 'exec', '--dangerously-bypass-approvals-and-sandbox', 'create done.txt']
  return { ...world, command }
}

describe(`Codex CLI ${codexVersion} under proctor run (adapter codex)`, () => {
  it(
    "blocks once through Codex's own Stop hook, the reason reaches the model, the fix lands, report.json shows both rounds",
    async () => {
      const { api, command, env } = await codexSetup([
        [openai.message('All done.')],
        (request) => {
          // The turn after the block: the model must have been told why.
          expect(openai.inputText(request)).toContain('done.txt is missing')
          return [openai.functionCall('exec_command', { cmd: 'printf "fixed\\n" > done.txt' })]
        },
        [openai.message('Created done.txt.')],
      ])
      const r = repo({ 'proctor.yml': proctorYml(command, 'codex', needsDoneFile) })
      const run = await proctorRun(r.dir, env(r))
      expect(run.code, run.output).toBe(0)

      // The API log: three model turns; the second carries proctor's reason as Codex's hook prompt.
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
      expect(report.stop_hooks[0]!.reason).toContain('done.txt is missing')
      // Nothing written into the project for the hook: it went on the command line.
      expect(existsSync(join(r.dir, '.codex'))).toBe(false)
      expect(report.events.some((e) => /never called/.test(e.message))).toBe(false)
    },
    AGENT_TEST_MS,
  )
})

// ---------------------------------------------------------------- Gemini CLI

async function geminiSetup(script: gemini.ScriptedTurn[], fallback?: gemini.ScriptedTurn) {
  const world = await geminiWorld(cleanups, script, fallback)
  const command = [geminiBin, '-p', 'create done.txt', '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo']
  return { ...world, command }
}

const writeFile = (path: string, content: string) =>
  gemini.functionCall('write_file', { file_path: path, content })

/** Did the model just get a tool result back? Then this turn closes the tool loop with text. */
const afterTool = (request: gemini.LoggedRequest): boolean => {
  const contents = (request.body?.contents ?? []) as { parts?: Record<string, unknown>[] }[]
  const last = contents.at(-1)
  return (last?.parts ?? []).some((part) => 'functionResponse' in part)
}

describe(`Gemini CLI ${geminiVersion} under proctor run (adapter gemini)`, () => {
  it(
    "blocks once through Gemini's AfterAgent hook, the reason reaches the model, the fix lands, report.json shows both rounds",
    async () => {
      const { api, command, env } = await geminiSetup([
        [gemini.text('All done.')],
        (request) => {
          expect(gemini.contentsText(request)).toContain('done.txt is missing')
          return [writeFile('done.txt', 'fixed\n')]
        },
        [gemini.text('Created done.txt.')],
      ])
      const r = repo({ 'proctor.yml': proctorYml(command, 'gemini', needsDoneFile) })
      const run = await proctorRun(r.dir, env(r))
      expect(run.code, run.output).toBe(0)

      const turns = api.turns()
      expect(turns).toHaveLength(3)
      expect(gemini.contentsText(turns[0]!)).not.toContain('done.txt is missing')
      expect(gemini.contentsText(turns[1]!)).toContain(REASON)
      expect(readFileSync(join(r.dir, 'done.txt'), 'utf8')).toBe('fixed\n')

      const report = onlyReport(r)
      expect(report).toMatchObject({ status: 'completed', verdict: 'allow', exit_code: 0, rounds: 2 })
      expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'block'],
        [2, 'allow'],
      ])
      // The settings file proctor wrote is gone and was never part of the agent's work.
      expect(existsSync(join(r.dir, '.gemini'))).toBe(false)
      for (const checkpoint of report.checkpoints)
        expect(checkpoint.files_changed).not.toContain('.gemini/settings.json')
      expect(report.checkpoints.flatMap((c) => c.files_changed)).toContain('done.txt')
      expect(report.violations).toEqual([])
    },
    AGENT_TEST_MS,
  )

  it(
    'holds max_stop_rounds although Gemini resets stop_hook_active after every tool call',
    async () => {
      let files = 0
      // Every continuation uses a tool (a write), which makes Gemini send stop_hook_active: false again.
      const { api, command, env } = await geminiSetup([], (request) =>
        afterTool(request) ? [gemini.text('Done.')] : [writeFile(`note-${++files}.txt`, 'x\n')],
      )
      const r = repo({
        'proctor.yml': proctorYml(command, 'gemini', 'echo "never satisfied" >&2; exit 2', 2),
      })
      const run = await proctorRun(r.dir, env(r))
      expect(run.code, run.output).toBe(1)

      const report = onlyReport(r)
      expect(report).toMatchObject({ status: 'completed', verdict: 'block', rounds: 2 })
      expect(report.reason).toContain('max_stop_rounds: 2')
      expect(report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'block'],
        [2, 'block'],
      ])
      // Sent back exactly once: one request carries the reason as a new prompt.
      const reasonPrompts = api
        .turns()
        .filter((turn) =>
          JSON.stringify((turn.body?.contents as unknown[]).at(-1)).includes('never satisfied'),
        )
      expect(reasonPrompts).toHaveLength(1)
    },
    AGENT_TEST_MS,
  )

  it(
    "leaves a user's own .gemini/settings.json byte-identical and out of every checkpoint, and still runs their hooks",
    async () => {
      const { command, env } = await geminiSetup([
        [gemini.text('All done.')],
        [writeFile('done.txt', 'fixed\n')],
        [gemini.text('Created done.txt.')],
      ])
      // Odd spacing, a BOM-less CRLF file and the user's own AfterAgent hook: all must survive untouched.
      const userSettings =
        '{\r\n  "ui":   { "hideBanner": true },\r\n  "hooks": { "AfterAgent": [ { "hooks": [ { "type": "command", "name": "user-hook", "command": "echo ran >> user-hook.log", "timeout": 10000 } ] } ] }\r\n}\r\n'
      const r = repo({
        'proctor.yml': proctorYml(command, 'gemini', needsDoneFile),
        '.gemini/settings.json': userSettings,
      })
      const run = await proctorRun(r.dir, env(r))
      expect(run.code, run.output).toBe(0)

      expect(readFileSync(join(r.dir, '.gemini/settings.json'), 'utf8')).toBe(userSettings)
      // Both hooks ran on both stops: proctor's was added beside the user's, not instead of it.
      expect(readFileSync(join(r.dir, 'user-hook.log'), 'utf8')).toBe('ran\nran\n')
      const report = onlyReport(r)
      expect(report).toMatchObject({ verdict: 'allow', rounds: 2 })
      expect(report.checkpoints.length).toBeGreaterThan(0)
      for (const checkpoint of report.checkpoints) {
        expect(checkpoint.files_changed).not.toContain('.gemini/settings.json')
        // The checkpoint's tree holds the user's file as committed, not proctor's merged one.
        expect(r.git(['show', `${checkpoint.sha}:.gemini/settings.json`])).toBe(userSettings)
      }
    },
    AGENT_TEST_MS,
  )
})

describe('an agent wired natively that never calls the hook', () => {
  it("says the agent never called proctor's Stop hook, then lets proctor's own stop hooks decide", async () => {
    // A stand-in for an agent version without hooks: it exits without ever running its AfterAgent hook.
    const r = repo({
      'proctor.yml': proctorYml(['sh', '-c', 'echo working'], 'gemini', needsDoneFile),
    })
    const run = await proctorRun(r.dir, agentEnv(r, {}))
    expect(run.code, run.output).toBe(1)
    const report = onlyReport(r)
    expect(report.verdict).toBe('block')
    expect(report.reason).toMatch(/^gemini never called proctor's Stop hook, and stop hooks blocked/)
    expect(
      report.events.some((e) => e.kind === 'warning' && /never called proctor's Stop hook/.test(e.message)),
    ).toBe(true)
    expect(report.stop_hooks).toHaveLength(1)
    expect(existsSync(join(r.dir, '.gemini'))).toBe(false)
  })
})
