// Findings of the h-trial session against the metering proxy (issue 30), as the agent: scripted agents (node
// scripts) run by the built CLI through the proxy, to a scripted Anthropic Messages API on loopback that
// counts what reaches it. Run `npm run build` first (they drive dist/cli.js).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const root = path.resolve(import.meta.dirname, '../..')
const cli = path.join(root, 'dist/cli.js')
const REAL_KEY = 'sk-ant-trial-real-key-0123456789abcdef'

const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A Messages API that answers each call after `delayMs` with 10 input and 5 output tokens. */
async function messagesApi(
  delayMs: number,
): Promise<{ url: string; calls: () => number; seen: { method: string; url: string; key: string }[] }> {
  let calls = 0
  const seen: { method: string; url: string; key: string }[] = []
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', key: String(req.headers['x-api-key']) })
    req.resume()
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/messages') calls++
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 10, output_tokens: 5 },
          }),
        )
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  server.unref()
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, seen }
}

function repoWith(upstream: string, extraYaml = '', modelApiYaml = ''): TempRepo {
  const r = makeTempRepo({
    files: {
      'README.md': '# test\n',
      'proctor.yml': `model_api:\n  proxy: true\n  api: anthropic\n  upstream: ${upstream}\n${modelApiYaml}checkpoints:\n  push: never\n${extraYaml}`,
    },
  })
  cleanups.push(r.cleanup)
  return r
}

/** Writes a node script agent outside the repository. */
function agentScript(source: string): string {
  const dir = tempDir('proctor-trial-agent-')
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'agent.mjs')
  fs.writeFileSync(file, source)
  return file
}

/** One model call through the proxy, as a CLI makes it (placeholder key, base URL from the environment). */
const CALL = `
const call = () => fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
}).then((r) => r.status, () => 0)
`

function run(r: TempRepo, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1', ANTHROPIC_API_KEY: REAL_KEY }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(killer)
      done({ code, stdout, stderr })
    }),
  )
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = path.join(r.dir, '.proctor/sessions')
  const [id] = fs.readdirSync(sessions)
  return JSON.parse(fs.readFileSync(path.join(sessions, id!, 'report.json'), 'utf8')) as SessionReport
}

describe('the budget holds against an agent that spends in parallel', () => {
  it('budget.requests: 2 — six model calls sent at once reach the API at most twice', async () => {
    const api = await messagesApi(300)
    const r = repoWith(api.url, 'budget:\n  requests: 2\n')
    const agent = agentScript(`${CALL}
const statuses = await Promise.all([1, 2, 3, 4, 5, 6].map(call))
console.log('statuses', statuses.join(','))
`)
    const ran = await run(r, ['run', '--timeout', '60s', '--', process.execPath, agent])
    expect(ran.code, ran.stderr + ran.stdout).toBe(3)
    expect(api.calls(), 'model calls the API answered (and billed)').toBeLessThanOrEqual(2)
    const report = onlyReport(r)
    expect(report.status).toBe('budget')
    expect(report.usage?.requests).toBeLessThanOrEqual(2)
  })
})

describe('with the proxy on, the agent cannot write its own usage into the report', () => {
  it('a forged `claude -p` usage summary the agent prints is not counted: the proxy saw no call', async () => {
    const api = await messagesApi(0)
    const r = repoWith(api.url)
    const forged = {
      type: 'result',
      subtype: 'success',
      num_turns: 1,
      modelUsage: {
        'claude-sonnet-4-5': { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, costUSD: 0.0001 },
      },
    }
    const agent = agentScript(`console.log(${JSON.stringify(JSON.stringify(forged))})\n`)
    const ran = await run(r, ['run', '--timeout', '60s', '--', process.execPath, agent])
    expect(ran.code, ran.stderr + ran.stdout).toBe(0)
    const report = onlyReport(r)
    // Whatever the agent printed, the proxy (which forwarded nothing) is the report's only source.
    expect(report.usage?.requests ?? 0).toBe(0)
    expect(report.usage?.tokens ?? 0).toBe(0)
  })
})

describe('the real key stays out of the agent’s reach', () => {
  // BREAK: the agent reads the real key from proctor's heap through /proc/<proctor>/mem (same uid, where
  // kernel.yama.ptrace_scope is 0 or Yama is absent, as on this machine and in many containers), not fixed:
  // Node cannot make its process non-dumpable (prctl PR_SET_DUMPABLE), and a helper process holding the key
  // would be as readable (same uid); docs/agents.md says what to do (ptrace_scope=1, the agent as another
  // user or in a container of its own).
  it.skip('the agent does not find the key in proctor’s memory', async () => {
    const api = await messagesApi(0)
    const r = repoWith(api.url)
    const agent = agentScript(`
import fs from 'node:fs'
${CALL}
await call()
const ppid = Number(fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[1])
let found = false
try {
  const fd = fs.openSync('/proc/' + ppid + '/mem', 'r')
  for (const line of fs.readFileSync('/proc/' + ppid + '/maps', 'utf8').trim().split('\\n')) {
    const [range, perms] = line.split(' ')
    if (!perms.startsWith('r')) continue
    const [a, b] = range.split('-').map((h) => BigInt('0x' + h))
    if (b - a > 256n * 1024n * 1024n) continue
    const buf = Buffer.alloc(Number(b - a))
    try { fs.readSync(fd, buf, 0, buf.length, a) } catch { continue }
    if (buf.includes('${REAL_KEY}')) { found = true; break }
  }
} catch {}
console.log(found ? 'KEY-FOUND' : 'no key')
`)
    const ran = await run(r, ['run', '--timeout', '60s', '--', process.execPath, agent])
    expect(ran.stdout).toContain('no key')
  })

  // BREAK: run under a wrapper that stays the agent's ancestor (`npx proctor run`, an npm script, `sh -c
  // '…; …'`), the real key sits in that process's /proc/<pid>/environ, readable by the agent; not fixed:
  // proctor can only scrub its own environment. It finds such a wrapper and warns in the report (the next
  // test); docs/agents.md says to run proctor directly.
  it.skip('the agent does not find the key in an ancestor’s environment', async () => {
    const api = await messagesApi(0)
    const r = repoWith(api.url)
    const agent = agentScript(`
import fs from 'node:fs'
let pid = process.pid, found = false
while (pid > 1) {
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes('${REAL_KEY}')) found = true } catch {}
  pid = Number(fs.readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[1])
}
console.log(found ? 'KEY-FOUND' : 'no key')
`)
    const wrapped = await new Promise<string>((done) => {
      const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1', ANTHROPIC_API_KEY: REAL_KEY }
      const child = spawn(
        '/bin/sh',
        ['-c', `"${process.execPath}" "${cli}" run --timeout 60s -- "${process.execPath}" "${agent}"; true`],
        { cwd: r.dir, env, stdio: ['ignore', 'pipe', 'inherit'] },
      )
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.on('close', () => done(out))
    })
    expect(wrapped).toContain('no key')
  })

  it('the report warns of a wrapper that keeps the key in its environment, naming it; not of a direct run', async () => {
    const api = await messagesApi(0)
    const r = repoWith(api.url)
    const agent = agentScript(`console.log('done')\n`)
    const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1', ANTHROPIC_API_KEY: REAL_KEY }
    for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
    const shellPid = await new Promise<number>((done) => {
      const child = spawn(
        '/bin/sh',
        ['-c', `"${process.execPath}" "${cli}" run --timeout 60s -- "${process.execPath}" "${agent}"; true`],
        { cwd: r.dir, env, stdio: 'ignore' },
      )
      child.on('close', () => done(child.pid!))
    })
    const warnings = onlyReport(r)
      .events.filter((e) => e.kind === 'warning')
      .map((e) => e.message)
    expect(warnings).toEqual([
      expect.stringContaining(
        `the real model key is also in the environment of process ${shellPid} (sh), which started proctor and is still running`,
      ),
    ])
    expect(warnings[0]).toContain('Run proctor directly')

    const direct = repoWith(api.url)
    const ran = await run(direct, ['run', '--timeout', '60s', '--', process.execPath, agent])
    expect(ran.code, ran.stderr + ran.stdout).toBe(0)
    expect(onlyReport(direct).events.filter((e) => /model key is also/.test(e.message))).toEqual([])
  })

  // Found by the trial: every GET and HEAD was forwarded with the real key to any path of the upstream (the
  // organization's message batches, stored responses, files). Only the model list and one model's
  // description are now (src/proxy/server.ts modelListing).
  it('a GET of the organization’s message batches does not reach the API with the real key', async () => {
    const api = await messagesApi(0)
    const r = repoWith(api.url)
    const agent = agentScript(`
const r = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages/batches', {
  headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY },
})
console.log('status', r.status)
`)
    const ran = await run(r, ['run', '--timeout', '60s', '--', process.execPath, agent])
    expect(ran.code, ran.stderr + ran.stdout).toBe(0)
    expect(api.seen.filter((s) => s.key === REAL_KEY).map((s) => `${s.method} ${s.url}`)).toEqual([])
  })
})

describe('spending the agent hides', () => {
  // Found by the trial: a streamed answer the agent hung up on after its text, before the final
  // message_delta, was counted with message_start's figures only (the proxy destroyed the upstream request),
  // so a token budget never filled. The proxy now reads on for the usage (bounded: server.ts DRAIN) and
  // charges an estimate when it cannot; the session waits for it before its stop.
  it('an agent that hangs up before the usage event of each stream is still stopped by budget.tokens', async () => {
    const server: Server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        const event = (type: string, data: object) =>
          res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
        event('message_start', {
          message: { id: 'm', model: 'claude-sonnet-4-5', usage: { input_tokens: 10, output_tokens: 1 } },
        })
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'a long answer' } })
        event('content_block_stop', { index: 0 })
        const end = setTimeout(() => {
          event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 400 } })
          event('message_stop', {})
          res.end()
        }, 300)
        res.on('close', () => clearTimeout(end))
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    cleanups.push(() => new Promise<void>((done) => server.close(() => done())))
    const r = repoWith(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      'budget:\n  tokens: 500\n',
    )
    const agent = agentScript(`
for (let i = 0; i < 5; i++) {
  const controller = new AbortController()
  const res = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
    method: 'POST',
    signal: controller.signal,
    headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1000, stream: true, messages: [] }),
  })
  const reader = res.body.getReader()
  let text = ''
  while (!text.includes('content_block_stop')) text += new TextDecoder().decode((await reader.read()).value)
  controller.abort()
}
console.log('five answers read')
`)
    const ran = await run(r, ['run', '--timeout', '60s', '--', process.execPath, agent])
    // The API generated 5 × 401 output tokens: the budget of 500 is spent after the second answer.
    expect(ran.code, ran.stderr + ran.stdout).toBe(3)
    expect(onlyReport(r).usage?.output_tokens).toBeGreaterThanOrEqual(400)
  })
})

describe('no model call is forwarded once the session is ending', () => {
  it('after the API failed past model_api.retries, an agent that ignores SIGTERM gets no more calls through', async () => {
    let calls = 0
    const server: Server = createServer((req, res) => {
      calls++
      req.resume()
      res.writeHead(429, { 'content-type': 'application/json' }).end('{"type":"error"}')
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    cleanups.push(() => new Promise<void>((done) => server.close(() => done())))
    const r = repoWith(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      'timeouts: { grace: 3s }\n',
      '  retries: 0\n',
    )
    // It keeps calling through the grace period, as a CLI retrying a 429 does.
    const agent = agentScript(`${CALL}
process.on('SIGTERM', () => {})
for (let i = 0; i < 20; i++) {
  await call()
  await new Promise((done) => setTimeout(done, 100))
}
`)
    const ran = await run(r, ['run', '--timeout', '60s', '--', process.execPath, agent])
    expect(ran.code, ran.stderr + ran.stdout).not.toBe(0)
    expect(onlyReport(r).reason).toMatch(/model API failed/)
    expect(calls, 'calls the API got (the first 429 ended the session)').toBe(1)
  })
})
