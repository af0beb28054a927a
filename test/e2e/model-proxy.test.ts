// The real agent CLIs through proctor's metering proxy (model_api), against the scripted model APIs: the
// agent's and proctor's /proc environments hold no real key (the API gets it, from the proxy), a token
// budget stops the agent with status budget and exit code 3 at the tokens the API reported, and a key the
// API refuses ends the session within 10 s with the reason. Runs the built CLI: `npm run build` first.
import { afterEach, describe, expect, it } from 'vitest'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { claudeBinaries, claudeWorld, runProctor, type ClaudeWorld } from './claude-harness.js'
import {
  AGENT_TEST_MS,
  codexBin,
  geminiSetup,
  onlyReport,
  proctorRun,
  repo,
  agentEnv,
  type Cleanups,
} from './agents-harness.js'
import * as gemini from '../servers/gemini-api.js'
import * as openai from '../servers/openai-api.js'
import { tempDir } from '../helpers/git-repo.js'
import { writeFileSync } from 'node:fs'

const REAL_KEY = 'sk-ant-api03-proctor-test-key'
const cleanups: Cleanups = []
const worlds: ClaudeWorld[] = []
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup()
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** The environment blocks (/proc/<pid>/environ) of the running agent and of the proctor that started it. */
function environs(repoDir: string): { agent: string; proctor: string } | null {
  const runs = join(repoDir, '.proctor/runs')
  if (!existsSync(runs)) return null
  for (const file of readdirSync(runs)) {
    const record = JSON.parse(readFileSync(join(runs, file), 'utf8')) as {
      role: string
      pid: number
      owner: { pid: number }
    }
    if (record.role !== 'agent') continue
    try {
      return {
        agent: readFileSync(`/proc/${record.pid}/environ`, 'latin1'),
        proctor: readFileSync(`/proc/${record.owner.pid}/environ`, 'latin1'),
      }
    } catch {
      return null
    }
  }
  return null
}

const claude = claudeBinaries().find((b) => b.label.includes('2.1.330')) ?? claudeBinaries()[0]!

describe('claude -p through the metering proxy (preset default)', () => {
  it(
    'keeps the real key from the agent and proctor’s /proc, and the API gets it from the proxy',
    async () => {
      const here = { dir: '', seen: null as ReturnType<typeof environs> }
      const world = await claudeWorld(
        claude,
        () => {
          here.seen ??= environs(here.dir)
          return { text: 'All done.' }
        },
        {},
      )
      worlds.push(world)
      here.dir = world.repo.dir
      const run = await runProctor(world, [
        '--no-push',
        '--agent',
        'claude-code',
        '--',
        'claude',
        '-p',
        'say hi',
      ])
      const diagnostics = `exit ${run.code}\n${run.stderr}\n${JSON.stringify(run.report?.events?.slice(-10), null, 1)}`
      expect(run.code, diagnostics).toBe(0)
      expect(here.seen, 'the agent was running when the model was asked').not.toBeNull()
      const agentVars = here.seen!.agent.split('\0')
      expect(agentVars.some((v) => v.includes(REAL_KEY))).toBe(false)
      expect(here.seen!.proctor).not.toContain(REAL_KEY)
      expect(agentVars).toContainEqual(
        expect.stringMatching(/^ANTHROPIC_API_KEY=proctor-session-[0-9a-f]{48}$/),
      )
      const base = agentVars.find((v) => v.startsWith('ANTHROPIC_BASE_URL='))!
      expect(base).toMatch(/^ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/)
      expect(base).not.toBe(`ANTHROPIC_BASE_URL=${world.api.url}`)
      const calls = world.api.requests.filter((r) => r.url.split('?')[0] === '/v1/messages')
      expect(calls.length).toBeGreaterThan(0)
      for (const call of calls) expect(call.headers['x-api-key']).toBe(REAL_KEY)
    },
    AGENT_TEST_MS,
  )

  it(
    'a token budget stops Claude with status budget and exit code 3 at the tokens the API reported',
    async () => {
      const here = { dir: '' }
      // A Claude that never finishes: every turn writes one more file.
      const world = await claudeWorld(
        claude,
        (_req, h) => ({
          text: 'More.',
          toolUse: { name: 'Write', input: { file_path: join(here.dir, `f${h.turn}.txt`), content: 'x\n' } },
        }),
        { 'proctor.yml': 'budget:\n  tokens: 40\n  warn_at: 0.5\ncheckpoints:\n  push: never\n' },
      )
      worlds.push(world)
      here.dir = world.repo.dir
      world.repo.commitAll('proctor.yml')
      const run = await runProctor(world, [
        '--agent',
        'claude-code',
        '--',
        'claude',
        '-p',
        '--permission-mode',
        'acceptEdits',
        'write files',
      ])
      const diagnostics = `exit ${run.code}\n${run.stderr}\n${JSON.stringify(run.report?.events?.slice(-10), null, 1)}`
      expect(run.code, diagnostics).toBe(3)
      expect(run.report.status).toBe('budget')
      // Every model call the scripted API answered reported 10 input and 5 output tokens.
      const answered = world.api.requests.filter((r) => r.url.split('?')[0] === '/v1/messages').length
      expect(answered).toBe(3)
      expect(run.report.reason).toBe(`budget reached: ${15 * answered} tokens of 40 tokens (budget.tokens)`)
      expect(run.report.events.filter((e) => e.kind === 'budget').map((e) => e.message)[0]).toMatch(
        /^\d+% of the budget used: \d+ tokens of 40 tokens/,
      )
    },
    AGENT_TEST_MS,
  )

  it(
    'a key the API refuses ends the session within 10 s with the reason',
    async () => {
      let firstRefusal = 0
      const refusing = createServer((req, res) => {
        req.resume()
        firstRefusal ||= Date.now()
        res.writeHead(401, { 'content-type': 'application/json' })
        res.end('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}')
      })
      await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
      cleanups.push(() => new Promise<void>((resolve) => refusing.close(() => resolve())))
      const world = await claudeWorld(claude, () => ({ text: 'never' }), {})
      worlds.push(world)
      world.env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`
      const run = await runProctor(world, [
        '--no-push',
        '--agent',
        'claude-code',
        '--',
        'claude',
        '-p',
        'say hi',
      ])
      const ended = Date.now()
      expect(run.code, run.stderr).toBe(1)
      expect(run.report.status).toBe('failed')
      expect(run.report.reason).toBe('model API refused the key (401)')
      expect(firstRefusal).toBeGreaterThan(0)
      expect(ended - firstRefusal).toBeLessThan(10_000)
    },
    AGENT_TEST_MS,
  )
})

describe('gemini -p through the metering proxy (preset default)', () => {
  it(
    'keeps the real key from the agent, and a token budget stops it with status budget',
    async () => {
      const seen = { env: null as ReturnType<typeof environs>, dir: '' }
      const { api, env } = await geminiSetup(
        cleanups,
        [],
        [gemini.functionCall('list_directory', { dir_path: '.' })],
      )
      const r = repo(cleanups, { 'proctor.yml': 'budget:\n  tokens: 40\ncheckpoints:\n  push: never\n' })
      r.commitAll('proctor.yml')
      seen.dir = r.dir
      const runEnv = env(r)
      const realKey = runEnv.GEMINI_API_KEY!
      const watch = setInterval(() => (seen.env ??= environs(seen.dir)), 50)
      const run = await proctorRun(r.dir, runEnv, [
        '--agent',
        'gemini',
        '--',
        'gemini',
        '--yolo',
        '-p',
        'look around',
      ])
      clearInterval(watch)
      const report = onlyReport(r)
      expect(run.code, run.output).toBe(3)
      expect(report.status).toBe('budget')
      const streamed = api.requests.filter(
        (q) => q.action === 'streamGenerateContent' || q.action === 'generateContent',
      )
      expect(report.reason).toBe(
        `budget reached: ${15 * streamed.length} tokens of 40 tokens (budget.tokens)`,
      )
      expect(seen.env, 'the agent was seen running').not.toBeNull()
      expect(seen.env!.agent).not.toContain(realKey)
      expect(seen.env!.proctor).not.toContain(realKey)
      expect(seen.env!.agent).toMatch(/GEMINI_API_KEY=proctor-session-/)
      for (const q of api.requests) expect(q.headers['x-goog-api-key']).toBe(realKey)
    },
    AGENT_TEST_MS,
  )
})

describe('codex exec through the metering proxy (model_api on, the built-in OpenAI provider)', () => {
  it(
    'keeps the real key from the agent, and a request budget stops it with status budget',
    async () => {
      const api = await openai.startOpenAIApi({
        script: [],
        fallback: [openai.functionCall('exec_command', { cmd: 'echo hi' })],
      })
      cleanups.push(() => api.close())
      const home = tempDir('proctor-codex-home-')
      cleanups.push(() => import('node:fs').then((fs) => fs.rmSync(home, { recursive: true, force: true })))
      writeFileSync(
        join(home, 'config.toml'),
        [
          'model = "gpt-5.1-codex"',
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          '',
        ].join('\n'),
      )
      const r = repo(cleanups, {
        'proctor.yml':
          'model_api:\n  proxy: true\n  api: openai\nbudget:\n  requests: 2\ncheckpoints:\n  push: never\n',
      })
      r.commitAll('proctor.yml')
      const realKey = 'sk-proj-real-codex-key'
      const runEnv = agentEnv(r, {
        HOME: home,
        CODEX_HOME: home,
        CODEX_API_KEY: realKey,
        OPENAI_BASE_URL: api.url,
      })
      const seen = { env: null as ReturnType<typeof environs> }
      const watch = setInterval(() => (seen.env ??= environs(r.dir)), 50)
      const run = await proctorRun(r.dir, runEnv, [
        '--agent',
        'codex',
        '--',
        codexBin,
        'exec',
        '--dangerously-bypass-approvals-and-sandbox',
        '--skip-git-repo-check',
        'run things',
      ])
      clearInterval(watch)
      const report = onlyReport(r)
      expect(run.code, run.output).toBe(3)
      expect(report.status).toBe('budget')
      expect(report.reason).toBe('budget reached: 2 requests of 2 requests (budget.requests)')
      expect(api.turns()).toHaveLength(2)
      for (const q of api.requests) expect(q.headers.authorization).toBe(`Bearer ${realKey}`)
      expect(seen.env, 'the agent was seen running').not.toBeNull()
      expect(seen.env!.agent).not.toContain(realKey)
      expect(seen.env!.proctor).not.toContain(realKey)
    },
    AGENT_TEST_MS,
  )
})
