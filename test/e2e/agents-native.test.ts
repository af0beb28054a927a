// The real Codex CLI and Gemini CLI (pinned devDependencies) under the built `proctor run`, each talking to a
// scripted model API on loopback (test/servers/openai-api.ts, gemini-api.ts). proctor wires itself into the
// agent's own Stop hook; the tests follow a block from proctor's stop hook through the agent to the model (the
// API log), the agent's file write (a real tool call), the allow, and report.json. Every other address is
// unreachable: the proxy variables point at a closed loopback port and the CLIs' telemetry and update checks
// are off.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'
import * as openai from '../servers/openai-api.js'
import * as gemini from '../servers/gemini-api.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')
const codexBin = join(root, 'node_modules/.bin/codex')
const geminiBin = join(root, 'node_modules/.bin/gemini')
/** Real agents on two shared cores: generous, but a hang still fails. */
const AGENT_TEST_MS = 150_000

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function repo(files: Record<string, string>): TempRepo {
  const r = makeTempRepo({ files: { 'README.md': '# test\n', ...files } })
  cleanups.push(() => r.cleanup())
  return r
}

/** The agent's environment: a temp HOME, fake keys, no proxy but a dead one, nothing from GitHub Actions. */
function agentEnv(r: TempRepo, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env)) {
    if (/^(GITHUB_|PROCTOR_|OPENAI_|CODEX_|GEMINI_|GOOGLE_)/.test(key)) delete env[key]
  }
  const dead = 'http://127.0.0.1:9'
  return {
    ...env,
    NO_COLOR: '1',
    HTTP_PROXY: dead,
    HTTPS_PROXY: dead,
    ALL_PROXY: dead,
    http_proxy: dead,
    https_proxy: dead,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    ...extra,
  }
}

function proctorRun(cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [cli, 'run', '--no-push'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('close', (code) => resolveRun({ code, output }))
  })
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = join(r.dir, '.proctor/sessions')
  const ids = readdirSync(sessions)
  expect(ids).toHaveLength(1)
  return JSON.parse(readFileSync(join(sessions, ids[0]!, 'report.json'), 'utf8')) as SessionReport
}

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

const needsDoneFile = 'test -f done.txt || { echo "done.txt is missing: create it" >&2; exit 2; }'
const REASON = 'done-file: done.txt is missing: create it'

// ---------------------------------------------------------------- Codex

async function codexSetup(script: openai.ScriptedTurn[]) {
  const api = await openai.startOpenAIApi({ script })
  cleanups.push(() => api.close())
  const home = tempDir('proctor-codex-home-')
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model = "gpt-5.1-codex"',
      'model_provider = "scripted"',
      'check_for_update_on_startup = false',
      '[analytics]',
      'enabled = false',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${api.url}"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  )
  const command = [codexBin, 'exec', '--dangerously-bypass-approvals-and-sandbox', 'create done.txt']
  return { api, home, command }
}

describe('Codex CLI 0.169.0 under proctor run (adapter codex)', () => {
  it(
    "blocks once through Codex's own Stop hook, the reason reaches the model, the fix lands, report.json shows both rounds",
    async () => {
      const { api, home, command } = await codexSetup([
        [openai.message('All done.')],
        (request) => {
          // The turn after the block: the model must have been told why.
          expect(openai.inputText(request)).toContain('done.txt is missing')
          return [openai.functionCall('exec_command', { cmd: 'printf "fixed\\n" > done.txt' })]
        },
        [openai.message('Created done.txt.')],
      ])
      const r = repo({ 'proctor.yml': proctorYml(command, 'codex', needsDoneFile) })
      cleanups.push(() => rmHome(home))
      const run = await proctorRun(
        r.dir,
        agentEnv(r, { HOME: home, CODEX_HOME: home, OPENAI_API_KEY: 'sk-test-not-real' }),
      )
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

/** The CLIs leave sessions and logs in their temp HOME; it is ours to remove. */
function rmHome(home: string): void {
  rmSync(home, { recursive: true, force: true })
}

// ---------------------------------------------------------------- Gemini CLI

async function geminiSetup(script: gemini.ScriptedTurn[], fallback?: gemini.ScriptedTurn) {
  const api = await gemini.startGeminiApi({ script, fallback })
  cleanups.push(() => api.close())
  const home = tempDir('proctor-gemini-home-')
  mkdirSync(join(home, '.gemini'))
  writeFileSync(
    join(home, '.gemini/settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }),
  )
  cleanups.push(() => rmHome(home))
  const command = [geminiBin, '-p', 'create done.txt', '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo']
  const env = (r: TempRepo) =>
    agentEnv(r, {
      HOME: home,
      GEMINI_API_KEY: 'test-key-not-real',
      GOOGLE_GEMINI_BASE_URL: api.url,
      // As in every GitHub Actions job: Gemini then strips its hooks' environment to PATH, HOME, GEMINI_CLI_*.
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    })
  return { api, command, env }
}

const writeFile = (path: string, content: string) =>
  gemini.functionCall('write_file', { file_path: path, content })

/** Did the model just get a tool result back? Then this turn closes the tool loop with text. */
const afterTool = (request: gemini.LoggedRequest): boolean => {
  const contents = (request.body?.contents ?? []) as { parts?: Record<string, unknown>[] }[]
  const last = contents.at(-1)
  return (last?.parts ?? []).some((part) => 'functionResponse' in part)
}

describe('Gemini CLI 0.61.0 under proctor run (adapter gemini)', () => {
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
