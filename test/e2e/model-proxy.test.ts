// The real agent CLIs through proctor's metering proxy (model_api), against the scripted model APIs: the
// agent's and proctor's /proc environments hold no real key (the API gets it, from the proxy), a token
// budget stops the agent with status budget and exit code 3 at the tokens the API reported, and a key the
// API refuses ends the session within 10 s with the reason. Runs the built CLI: `npm run build` first.
import { afterEach, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
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

/** A model API that answers every request 401 with the API's error body; when the first one came. */
async function refusingApi(body: string): Promise<{ url: string; first: () => number }> {
  let first = 0
  const server = createServer((req, res) => {
    req.resume()
    first ||= Date.now()
    res.writeHead(401, { 'content-type': 'application/json' })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, first: () => first }
}

describe('the TUI and the other CLIs end promptly on a refused key, and a budget stops the TUI', () => {
  it(
    'claude (TUI): a token budget stops it with status budget',
    async () => {
      const here = { dir: '' }
      const world = await claudeWorld(
        claude,
        (_req, h) => ({
          text: 'More.',
          toolUse: { name: 'Write', input: { file_path: join(here.dir, `f${h.turn}.txt`), content: 'x\n' } },
        }),
        { 'proctor.yml': 'budget:\n  tokens: 40\ncheckpoints:\n  push: never\ntimeouts:\n  total: 100s\n' },
      )
      worlds.push(world)
      here.dir = world.repo.dir
      world.repo.commitAll('proctor.yml')
      const run = await runProctor(world, [
        '--agent',
        'claude-code',
        '--',
        'claude',
        '--permission-mode',
        'acceptEdits',
        'write files',
      ])
      const diagnostics = `exit ${run.code}\n${run.stderr.slice(-2000)}\n${JSON.stringify(run.report?.events?.slice(-15), null, 1)}`
      expect(run.code, diagnostics).toBe(3)
      expect(run.report.status).toBe('budget')
      const answered = world.api.requests.filter((r) => r.url.split('?')[0] === '/v1/messages').length
      expect(run.report.reason).toBe(`budget reached: ${15 * answered} tokens of 40 tokens (budget.tokens)`)
    },
    AGENT_TEST_MS,
  )

  it(
    'claude (TUI): a refused key ends the session within 10 s, not at the total timeout',
    async () => {
      const api = await refusingApi(
        '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
      )
      const world = await claudeWorld(claude, () => ({ text: 'never' }), {})
      worlds.push(world)
      world.env.ANTHROPIC_BASE_URL = api.url
      const run = await runProctor(world, [
        '--no-push',
        '--timeout',
        '100s',
        '--agent',
        'claude-code',
        '--',
        'claude',
        'say hi',
      ])
      const ended = Date.now()
      expect(run.report.reason, run.stderr).toBe('model API refused the key (401)')
      expect(run.report.status).toBe('failed')
      expect(api.first()).toBeGreaterThan(0)
      expect(ended - api.first()).toBeLessThan(10_000)
    },
    AGENT_TEST_MS,
  )

  it(
    'gemini -p: a refused key ends the session within 10 s',
    async () => {
      const api = await refusingApi(
        '{"error":{"code":401,"message":"API key not valid","status":"UNAUTHENTICATED"}}',
      )
      const { env } = await geminiSetup(cleanups, [])
      const r = repo(cleanups, {})
      const run = await proctorRun(r.dir, { ...env(r), GOOGLE_GEMINI_BASE_URL: api.url }, [
        '--agent',
        'gemini',
        '--',
        'gemini',
        '-p',
        'say hi',
      ])
      const ended = Date.now()
      const report = onlyReport(r)
      expect(report.reason, run.output).toBe('model API refused the key (401)')
      expect(report.status).toBe('failed')
      expect(ended - api.first()).toBeLessThan(10_000)
    },
    AGENT_TEST_MS,
  )

  it(
    'codex exec: a refused key ends the session within 10 s',
    async () => {
      const api = await refusingApi(
        '{"error":{"message":"Incorrect API key provided","type":"invalid_api_key"}}',
      )
      const home = tempDir('proctor-codex-home-')
      cleanups.push(() => import('node:fs').then((fs) => fs.rmSync(home, { recursive: true, force: true })))
      writeFileSync(
        join(home, 'config.toml'),
        'check_for_update_on_startup = false\n[analytics]\nenabled = false\n',
      )
      const r = repo(cleanups, {
        'proctor.yml': 'model_api:\n  proxy: true\n  api: openai\ncheckpoints:\n  push: never\n',
      })
      r.commitAll('proctor.yml')
      const run = await proctorRun(
        r.dir,
        agentEnv(r, {
          HOME: home,
          CODEX_HOME: home,
          CODEX_API_KEY: 'sk-proj-x',
          OPENAI_BASE_URL: `${api.url}/v1`,
        }),
        ['--agent', 'codex', '--', codexBin, 'exec', '--skip-git-repo-check', 'say hi'],
      )
      const ended = Date.now()
      const report = onlyReport(r)
      expect(report.reason, run.output).toBe('model API refused the key (401)')
      expect(report.status).toBe('failed')
      expect(ended - api.first()).toBeLessThan(10_000)
    },
    AGENT_TEST_MS,
  )
})

describe('a streamed answer reaches the agent as the API produces it', () => {
  it(
    'claude -p prints the first part of a streamed answer before the API sends the rest',
    async () => {
      // The API sends the first text delta, then holds the rest until that text has come out of Claude (in
      // proctor's echo of its output). A proxy that buffered the answer would never let it through: the
      // session would hang to the test's timeout.
      let release!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
      const usage = { input_tokens: 10, output_tokens: 5 }
      const api = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
            tools?: unknown[]
            model?: string
          }
          res.writeHead(200, { 'content-type': 'text/event-stream' })
          const message = {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: body.model ?? 'm',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage,
          }
          res.write(sse('message_start', { type: 'message_start', message }))
          res.write(
            sse('content_block_start', {
              type: 'content_block_start',
              index: 0,
              content_block: { type: 'text', text: '' },
            }),
          )
          const conversation = (body.tools?.length ?? 0) > 0
          res.write(
            sse('content_block_delta', {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: conversation ? 'FIRSTPART' : 'ok' },
            }),
          )
          const rest = () => {
            if (conversation)
              res.write(
                sse('content_block_delta', {
                  type: 'content_block_delta',
                  index: 0,
                  delta: { type: 'text_delta', text: ' SECONDPART' },
                }),
              )
            res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }))
            res.write(
              sse('message_delta', {
                type: 'message_delta',
                delta: { stop_reason: 'end_turn', stop_sequence: null },
                usage: { output_tokens: 5 },
              }),
            )
            res.end(sse('message_stop', { type: 'message_stop' }))
          }
          if (conversation) void released.then(rest)
          else rest()
        })
      })
      await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
      cleanups.push(
        () =>
          new Promise<void>((resolve) => {
            api.closeAllConnections()
            api.close(() => resolve())
          }),
      )
      const world = await claudeWorld(claude, () => ({ text: 'unused' }), {})
      worlds.push(world)
      world.env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
      const child = spawn(
        process.execPath,
        [
          join(import.meta.dirname, '../../dist/cli.js'),
          'run',
          '--no-push',
          '--no-pty',
          '--agent',
          'claude-code',
          '--',
          'claude',
          '-p',
          '--output-format',
          'stream-json',
          '--verbose',
          '--include-partial-messages',
          'say hi',
        ],
        { cwd: world.repo.dir, env: world.env, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let out = ''
      let firstSeenBeforeRest = false
      let agentBase: string | null = null
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('FIRSTPART') && !out.includes('SECONDPART') && !firstSeenBeforeRest) {
          firstSeenBeforeRest = true
          // ...and it came through the proxy: the agent was given the proxy's base URL, not the API's.
          agentBase =
            environs(world.repo.dir)
              ?.agent.split('\0')
              .find((v) => v.startsWith('ANTHROPIC_BASE_URL=')) ?? null
          release()
        }
      })
      child.stderr.on('data', (d: Buffer) => (out += d.toString()))
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      expect(firstSeenBeforeRest, out.slice(-3000)).toBe(true)
      expect(code, out.slice(-3000)).toBe(0)
      expect(out).toContain('SECONDPART')
      expect(agentBase).toMatch(/^ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/)
      expect(agentBase).not.toBe(`ANTHROPIC_BASE_URL=${world.env.ANTHROPIC_BASE_URL}`)
    },
    AGENT_TEST_MS,
  )
})

describe('budget.batch across the sessions of a batch', () => {
  it(
    'two claude -p tasks share one budget: the second is stopped at its first call',
    async () => {
      const world = await claudeWorld(claude, () => ({ text: 'All done.' }), {
        'proctor.yml': [
          'agent:',
          '  preset: claude-code',
          'budget:',
          '  batch:',
          '    tokens: 15',
          'checkpoints:',
          '  push: never',
          'batch:',
          '  concurrency: 1',
          '  tasks:',
          '    - { name: one, command: [claude, -p, "say hi"] }',
          '    - { name: two, command: [claude, -p, "say hi again"] }',
          '',
        ].join('\n'),
      })
      worlds.push(world)
      world.repo.commitAll('proctor.yml')
      const child = spawn(
        process.execPath,
        [join(import.meta.dirname, '../../dist/cli.js'), 'batch', '--json'],
        {
          cwd: world.repo.dir,
          env: world.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      await new Promise((resolve) => child.on('close', resolve))
      const batch = JSON.parse(stdout) as { children: { name: string; status: string; summary: string }[] }
      const diagnostics = `${stderr.slice(-2000)}\n${stdout.slice(-2000)}`
      // The first call (15 tokens) reaches the batch's limit: the first session ends there, the second is
      // refused at its first call; the API saw exactly one.
      expect(
        batch.children.map((c) => [c.name, c.status]),
        diagnostics,
      ).toEqual([
        ['one', 'budget'],
        ['two', 'budget'],
      ])
      expect(batch.children[1]!.summary).toContain(
        'budget reached: 15 tokens of 15 tokens (budget.batch.tokens)',
      )
      expect(world.api.requests.filter((r) => r.url.split('?')[0] === '/v1/messages')).toHaveLength(1)
    },
    AGENT_TEST_MS,
  )
})
