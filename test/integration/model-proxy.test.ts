// The metering proxy against the scripted model APIs (and small upstreams written here where a test needs an
// answer those do not give: a held-back stream, a refusal, a Chat Completions stream): usage equals the API's
// own fields, the real key reaches only the upstream, nobody without the session's placeholder gets through,
// nothing is forwarded elsewhere, a stream passes as it is produced, and a budget or failing API ends it.
import { afterEach, describe, expect, it } from 'vitest'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { startModelProxy, type ModelProxy, type ProxyStop } from '../../src/proxy/server.js'
import { Budget, type BudgetLimits } from '../../src/proxy/budget.js'
import { UsageMeter } from '../../src/usage/meter.js'
import type { ModelApi } from '../../src/usage/types.js'
import { startAnthropicApi } from '../servers/anthropic-api.js'
import { startOpenAIApi, message } from '../servers/openai-api.js'
import { startGeminiApi, text } from '../servers/gemini-api.js'

const KEY = 'sk-real-key-held-by-proctor'
const PLACEHOLDER = 'proctor-session-placeholder'
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const noLimits = { usd: null, tokens: null, requests: null, warn_at: 0.8 }

async function proxyTo(
  api: ModelApi,
  upstream: string,
  extra: {
    limits?: BudgetLimits
    retries?: number
    batch?: { meter: UsageMeter; budget: Budget }
    drain?: { ms: number; bytes: number }
  } = {},
): Promise<{ proxy: ModelProxy; meter: UsageMeter; stops: ProxyStop[]; warnings: string[] }> {
  const meter = new UsageMeter()
  const stops: ProxyStop[] = []
  const warnings: string[] = []
  const proxy = await startModelProxy({
    api,
    upstream,
    key: KEY,
    placeholder: PLACEHOLDER,
    retries: extra.retries ?? 3,
    meter,
    budgets: [new Budget(extra.limits ?? noLimits, { meter }), ...(extra.batch ? [extra.batch.budget] : [])],
    ...(extra.batch ? { alsoMeters: [extra.batch.meter] } : {}),
    round: () => 1,
    startedAt: Date.now(),
    onWarning: (reason) => warnings.push(reason),
    onStop: (stop) => stops.push(stop),
    ...(extra.drain ? { drain: extra.drain } : {}),
  })
  cleanups.push(() => proxy.close())
  return { proxy, meter, stops, warnings }
}

const anthropicBody = JSON.stringify({
  model: 'claude-test',
  stream: true,
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  tools: [{ name: 'Write' }],
})

/** A small upstream whose handler the test writes; every request is counted. */
async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingMessage[] = []
  const server = createServer((req, res) => {
    seen.push(req)
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

describe('the metering proxy', () => {
  it('forwards Anthropic Messages with the real key and records the usage the API reported', async () => {
    const api = await startAnthropicApi(() => ({ text: 'hello' }))
    cleanups.push(() => api.close())
    const { proxy, meter } = await proxyTo('anthropic', api.url)
    const res = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': PLACEHOLDER, 'content-type': 'application/json' },
      body: anthropicBody,
    })
    const body = await res.text()
    expect(res.status).toBe(200)
    expect(body).toContain('"text":"hello"')
    expect(api.requests[0]!.headers['x-api-key']).toBe(KEY)
    expect(meter.samples()).toEqual([
      expect.objectContaining({
        api: 'anthropic',
        model: 'claude-test',
        input_tokens: 10,
        output_tokens: 5,
        cached_input_tokens: 0,
        source: 'proxy',
        status: 200,
        round: 1,
      }),
    ])
  })

  it('counts Anthropic cache reads and writes as prompt tokens, reads as cached', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(
        `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'claude-x', usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 } } })}\n\n`,
      )
      res.end(
        `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: { output_tokens: 42 } })}\n\n`,
      )
    })
    const { proxy, meter } = await proxyTo('anthropic', up.url)
    await (
      await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${PLACEHOLDER}` },
        body: '{}',
      })
    ).text()
    expect(up.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(meter.totals()).toMatchObject({ input_tokens: 123, cached_input_tokens: 100, output_tokens: 42 })
  })

  it('reads OpenAI Responses usage from response.completed', async () => {
    const api = await startOpenAIApi({ script: [[message('hi')]] })
    cleanups.push(() => api.close())
    const { proxy, meter } = await proxyTo('openai', api.url)
    expect(proxy.url).toMatch(/\/v1$/)
    const res = await fetch(`${proxy.url}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PLACEHOLDER}` },
      body: JSON.stringify({ model: 'gpt-test', stream: true, input: [] }),
    })
    expect(await res.text()).toContain('response.completed')
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(meter.samples()).toEqual([
      expect.objectContaining({ api: 'openai', model: 'scripted', input_tokens: 10, output_tokens: 5 }),
    ])
  })

  it('asks a streamed Chat Completion for its usage and records it', async () => {
    let sent: Record<string, unknown> = {}
    const up = await upstream((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        sent = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(`data: ${JSON.stringify({ model: 'gpt-4o', choices: [{ delta: { content: 'hi' } }] })}\n\n`)
        res.write(
          `data: ${JSON.stringify({ model: 'gpt-4o', choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 4 } } })}\n\n`,
        )
        res.end('data: [DONE]\n\n')
      })
    })
    const { proxy, meter } = await proxyTo('openai', `${up.url}/v1`)
    await (
      await fetch(`${proxy.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${PLACEHOLDER}` },
        body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [] }),
      })
    ).text()
    expect(sent.stream_options).toEqual({ include_usage: true })
    expect(meter.totals()).toMatchObject({
      requests: 1,
      input_tokens: 7,
      output_tokens: 2,
      cached_input_tokens: 4,
    })
  })

  it('reads Gemini usageMetadata from an SSE stream and a JSON-array stream, the key in the query replaced', async () => {
    const api = await startGeminiApi({ script: [[text('one')]] })
    cleanups.push(() => api.close())
    const { proxy, meter } = await proxyTo('gemini', api.url)
    const res = await fetch(
      `${proxy.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse&key=${PLACEHOLDER}`,
      { method: 'POST', body: JSON.stringify({ contents: [] }) },
    )
    expect(await res.text()).toContain('"text":"one"')
    expect(api.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent')
    expect(meter.samples()[0]).toMatchObject({
      api: 'gemini',
      model: 'scripted',
      input_tokens: 10,
      output_tokens: 5,
    })

    const array = await upstream((req, res) => {
      expect(req.url).toContain(`key=${KEY}`)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('[{"candidates":[],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":1}}\n,')
      res.end(
        '{"candidates":[],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":6,"thoughtsTokenCount":2,"cachedContentTokenCount":3}}]',
      )
    })
    const second = await proxyTo('gemini', array.url)
    await (
      await fetch(`${second.proxy.url}/v1beta/models/gemini-x:streamGenerateContent?key=${PLACEHOLDER}`, {
        method: 'POST',
        body: '{}',
      })
    ).text()
    expect(second.meter.samples()[0]).toMatchObject({
      model: 'gemini-x',
      input_tokens: 9,
      output_tokens: 8,
      cached_input_tokens: 3,
    })
  })

  it('passes a stream on as it is produced: the rest is only sent once the client saw the first event', async () => {
    let sawFirst!: () => void
    const clientSawFirst = new Promise<void>((resolve) => (sawFirst = resolve))
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(
        `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'm', usage: { input_tokens: 1, output_tokens: 0 } } })}\n\n`,
      )
      // Were the proxy to hold the body back, the client would never see this first event and this test
      // would hang (vitest's timeout fails it).
      void clientSawFirst.then(() =>
        res.end(
          `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: { output_tokens: 9 } })}\n\n`,
        ),
      )
    })
    const { proxy, meter } = await proxyTo('anthropic', up.url)
    const res = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': PLACEHOLDER },
      body: '{}',
    })
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('message_start')
    expect(first).not.toContain('message_delta')
    sawFirst()
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value)
    expect(rest).toContain('message_delta')
    expect(meter.totals().output_tokens).toBe(9)
  }, 10_000)

  /** A streamed Anthropic call through the proxy that the agent reads until `until` shows, then hangs up on. */
  async function hangUpAfter(proxy: ModelProxy, until: string, body = '{}') {
    const abort = new AbortController()
    const res = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': PLACEHOLDER },
      body,
      signal: abort.signal,
    })
    const reader = res.body!.getReader()
    let seen = ''
    while (!seen.includes(until)) seen += new TextDecoder().decode((await reader.read()).value)
    abort.abort()
  }

  const sse = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  const start = (input: number) =>
    sse('message_start', { message: { model: 'm', usage: { input_tokens: input, output_tokens: 1 } } })
  const delta = (text: string) =>
    sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })

  it('reads on an answer the agent hung up on, and charges the output the API reported at its end', async () => {
    let finish = () => {}
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start(50) + delta('a long answer') + sse('content_block_stop', { index: 0 }))
      // The rest comes once the agent has gone: the API generated (and bills) it all the same.
      finish = () =>
        res.end(sse('message_delta', { usage: { output_tokens: 400 } }) + sse('message_stop', {}))
    })
    const { proxy, meter } = await proxyTo('anthropic', up.url)
    await hangUpAfter(proxy, 'content_block_stop')
    const settled = proxy.settled()
    expect(meter.samples()).toEqual([])
    finish()
    await settled
    expect(meter.samples()).toEqual([
      expect.objectContaining({ input_tokens: 50, output_tokens: 400, status: 200 }),
    ])
    expect(meter.samples()[0]!.estimated).toBeUndefined()
    expect(meter.inFlight).toBe(0)
  })

  it('charges an estimate from the streamed text when the answer does not end within the deadline', async () => {
    const text = 'x'.repeat(4000)
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start(50) + delta(text))
      // ...and never ends.
    })
    const { proxy, meter, stops } = await proxyTo('anthropic', up.url, {
      drain: { ms: 300, bytes: 1 << 20 },
      limits: { ...noLimits, tokens: 1000 },
    })
    await hangUpAfter(proxy, 'content_block_delta')
    await proxy.settled()
    // message_start said 1 output token; 4000 bytes of text streamed: ~1000 tokens.
    expect(meter.samples()).toEqual([
      expect.objectContaining({ input_tokens: 50, output_tokens: 1000, status: 200, estimated: true }),
    ])
    // And the estimate fills the budget like counted tokens.
    expect(stops).toEqual([expect.objectContaining({ kind: 'budget' })])
  })

  it('stops reading on past the byte cap, and at close: the answer is charged, the session not held', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start(50) + delta('first'))
      // An answer that streams on without end once the agent has gone.
      const flood = setInterval(() => res.write(delta('y'.repeat(16 * 1024))), 1)
      res.on('close', () => clearInterval(flood))
    })
    const capped = await proxyTo('anthropic', up.url, { drain: { ms: 60_000, bytes: 256 * 1024 } })
    await hangUpAfter(capped.proxy, 'first')
    await capped.proxy.settled()
    const [sample] = capped.meter.samples()
    expect(sample).toMatchObject({ input_tokens: 50, estimated: true })
    // What was read on stayed within the cap (plus the chunk that crossed it).
    expect(sample!.output_tokens).toBeLessThan((256 * 1024 + 64 * 1024) / 4)

    const closing = await proxyTo('anthropic', up.url, { drain: { ms: 60_000, bytes: 1 << 30 } })
    await hangUpAfter(closing.proxy, 'first')
    await closing.proxy.close()
    expect(closing.meter.samples()).toEqual([expect.objectContaining({ input_tokens: 50, estimated: true })])
  })

  it('stops waiting for an answer read on once the session is interrupted', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start(50) + delta('first'))
      // ...and never ends.
    })
    const { proxy, meter } = await proxyTo('anthropic', up.url, { drain: { ms: 60_000, bytes: 1 << 20 } })
    await hangUpAfter(proxy, 'first')
    const interrupted = new AbortController()
    const waiting = proxy.settled(interrupted.signal)
    interrupted.abort()
    await waiting
    // Not charged yet (still read on); closing cuts it and charges it.
    expect(meter.samples()).toEqual([])
    await proxy.close()
    expect(meter.samples()).toEqual([expect.objectContaining({ input_tokens: 50, estimated: true })])
  })

  it('estimates the prompt of a call the agent left before any answer, and counts no API failure', async () => {
    let reached = () => {}
    const arrived = new Promise<void>((resolve) => (reached = resolve))
    // Reads the whole request, and never answers.
    const up = await upstream((req) => req.resume().on('end', () => reached()))
    const { proxy, meter, stops } = await proxyTo('anthropic', up.url, {
      drain: { ms: 200, bytes: 1 << 20 },
      retries: 0,
    })
    const abort = new AbortController()
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'p'.repeat(4000) }] })
    const call = fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': PLACEHOLDER },
      body,
      signal: abort.signal,
    }).catch(() => null)
    await arrived
    abort.abort()
    await call
    await proxy.settled()
    expect(meter.samples()).toEqual([
      expect.objectContaining({ status: 0, input_tokens: Math.ceil(body.length / 4), estimated: true }),
    ])
    expect(stops).toEqual([])
  })

  it('refuses a request without the placeholder and never forwards it', async () => {
    const up = await upstream((_req, res) => res.end('{}'))
    const { proxy, meter } = await proxyTo('anthropic', up.url)
    for (const headers of [{}, { 'x-api-key': KEY }, { 'x-api-key': `${PLACEHOLDER}x` }]) {
      const res = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: anthropicBody })
      expect(res.status).toBe(401)
      expect(await res.text()).toContain("does not carry the session's key")
    }
    expect(up.seen).toHaveLength(0)
    expect(meter.samples()).toHaveLength(0)
  })

  it('is no open proxy: an absolute URL or a CONNECT goes nowhere', async () => {
    const up = await upstream((_req, res) => res.end('{}'))
    const elsewhere = await upstream((_req, res) => res.end('reached'))
    const { proxy } = await proxyTo('anthropic', up.url)
    const port = Number(new URL(proxy.url).port)
    const absolute = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${elsewhere.url}/v1/messages`,
          headers: { 'x-api-key': PLACEHOLDER },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end('{}')
    })
    expect(absolute).toBe(400)
    const connectAnswer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`CONNECT ${new URL(elsewhere.url).host} HTTP/1.1\r\nHost: x\r\n\r\n`),
      )
      let got = ''
      socket.on('data', (d) => (got += d.toString()))
      socket.on('close', () => resolve(got))
      socket.on('error', () => resolve(got))
    })
    expect(connectAnswer).not.toContain('200')
    expect(elsewhere.seen).toHaveLength(0)
    expect(up.seen).toHaveLength(0)
  })

  it('forwards model calls, token counts and GETs only: a batch or file upload would spend past the meter', async () => {
    const up = await upstream((_req, res) => res.end('{}'))
    const { proxy } = await proxyTo('anthropic', up.url)
    const send = (method: string, path: string) =>
      fetch(`${proxy.url}${path}`, {
        method,
        headers: { 'x-api-key': PLACEHOLDER },
        ...(method === 'GET' ? {} : { body: '{}' }),
      })
    for (const path of ['/v1/messages/batches', '/v1/files', '/v1/complete']) {
      const res = await send('POST', path)
      expect(res.status).toBe(404)
      expect(await res.text()).toContain(`POST ${path} is not forwarded`)
    }
    expect(up.seen).toHaveLength(0)
    expect((await send('POST', '/v1/messages/count_tokens')).status).toBe(200)
    expect((await send('GET', '/v1/models')).status).toBe(200)
    expect((await send('POST', '/v1/messages?beta=true')).status).toBe(200)
    expect(up.seen.map((r) => r.url)).toEqual([
      '/v1/messages/count_tokens',
      '/v1/models',
      '/v1/messages?beta=true',
    ])
  })

  it('stops at a token budget: the call that reaches it ends the session, the next is refused unforwarded', async () => {
    const api = await startAnthropicApi(() => ({ text: 'x' }))
    cleanups.push(() => api.close())
    const limits = { usd: null, tokens: 20, requests: null, warn_at: 0.5 }
    const { proxy, stops, warnings } = await proxyTo('anthropic', api.url, { limits })
    const call = () =>
      fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': PLACEHOLDER },
        body: anthropicBody,
      })
    expect((await call()).status).toBe(200)
    expect(warnings).toEqual(['75% of the budget used: 15 tokens of 20 tokens (budget.tokens)'])
    expect(stops).toEqual([])
    expect((await (await call()).text()).length).toBeGreaterThan(0)
    expect(stops).toEqual([
      { kind: 'budget', reason: 'budget reached: 30 tokens of 20 tokens (budget.tokens)' },
    ])
    const refused = await call()
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('budget reached: 30 tokens of 20 tokens') },
    })
    expect(api.requests).toHaveLength(2)
  })

  it('holds a batch budget across sessions: the calls of one session count toward the limit of another', async () => {
    const api = await startAnthropicApi(() => ({ text: 'x' }))
    cleanups.push(() => api.close())
    const batchMeter = new UsageMeter()
    const batch = {
      meter: batchMeter,
      budget: new Budget(
        { usd: null, tokens: null, requests: 3, warn_at: 1 },
        { meter: batchMeter, key: 'budget.batch' },
      ),
    }
    const first = await proxyTo('anthropic', api.url, { batch })
    const second = await proxyTo('anthropic', api.url, { batch })
    const call = (proxy: ModelProxy) =>
      fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': PLACEHOLDER },
        body: anthropicBody,
      })
    await (await call(first.proxy)).text()
    await (await call(first.proxy)).text()
    expect(first.stops).toEqual([])
    await (await call(second.proxy)).text()
    const spent = {
      kind: 'budget',
      reason: 'budget reached: 3 requests of 3 requests (budget.batch.requests)',
    }
    expect(second.stops).toEqual([spent])
    // The first session learns at its next call, which is refused.
    expect((await call(first.proxy)).status).toBe(400)
    expect(first.stops).toEqual([spent])
    expect(api.requests).toHaveLength(3)
    expect(first.meter.samples()).toHaveLength(2)
    expect(batchMeter.samples()).toHaveLength(3)
  })

  it('holds a USD budget with the pricer it is given', async () => {
    const api = await startOpenAIApi({ script: [] })
    cleanups.push(() => api.close())
    const pricer = () => 0.6
    const meter = new UsageMeter()
    const budget = new Budget({ usd: 1, tokens: null, requests: null, warn_at: 1 }, { meter, pricer })
    const stops: ProxyStop[] = []
    const proxy = await startModelProxy({
      api: 'openai',
      upstream: api.url,
      key: KEY,
      placeholder: PLACEHOLDER,
      retries: 3,
      meter,
      budgets: [budget],
      round: () => 2,
      startedAt: Date.now(),
      onWarning: () => undefined,
      onStop: (s) => stops.push(s),
    })
    cleanups.push(() => proxy.close())
    for (let i = 0; i < 2; i++)
      await (
        await fetch(`${proxy.url}/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${PLACEHOLDER}` },
          body: JSON.stringify({ stream: true, input: [] }),
        })
      ).text()
    expect(stops).toEqual([{ kind: 'budget', reason: 'budget reached: $1.20 of $1.00 (budget.usd)' }])
    expect(meter.samples().map((s) => s.round)).toEqual([2, 2])
  })

  it('ends the session when the model API refuses the key', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}')
    })
    const { proxy, stops, meter } = await proxyTo('anthropic', up.url)
    const res = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': PLACEHOLDER },
      body: anthropicBody,
    })
    expect(res.status).toBe(401)
    expect(await res.text()).toContain('invalid x-api-key')
    expect(stops).toEqual([{ kind: 'api_failure', reason: 'model API refused the key (401)' }])
    expect(meter.samples()[0]).toMatchObject({ status: 401, input_tokens: 0 })
  })

  it('lets the agent retry 529s up to model_api.retries, then ends the session', async () => {
    let answers = [529, 200, 529, 529, 529]
    const up = await upstream((_req, res) => {
      const status = answers[0]!
      answers = answers.slice(1)
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(
        status === 200
          ? '{"type":"message","usage":{"input_tokens":1,"output_tokens":1}}'
          : '{"type":"error"}',
      )
    })
    const { proxy, stops } = await proxyTo('anthropic', up.url, { retries: 2 })
    const call = async () =>
      (
        await fetch(`${proxy.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': PLACEHOLDER },
          body: '{}',
        })
      ).text()
    for (let i = 0; i < 4; i++) await call()
    // 529, then a success resets the count, then two 529s: still within the retries.
    expect(stops).toEqual([])
    await call()
    expect(stops).toEqual([{ kind: 'api_failure', reason: 'model API failed 3 times in a row (last: 529)' }])
  })
})
