// The metering proxy: a loopback HTTP server between one session's agent and its model API. The agent holds
// a per-session placeholder key and this server's base URL; the proxy holds the real key and adds it to
// what it forwards, only to the configured upstream (an origin fixed at start: no open proxy). Answers are
// passed on chunk by chunk as they arrive (streams are never buffered), and each model call's usage is read
// from the API's own fields on the way (usage-reader.ts) into the session's one tally. Before and after each
// call the budget is checked; a refused key or failures in a row end the session through `onStop`. An agent
// that hangs up mid-answer does not stop the API generating (and billing) it: the proxy reads the rest of the
// answer for its usage, bounded, and charges an estimate when that cannot be read.
import { request as httpRequest, type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import { Agent as HttpAgent } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { UsageMeter } from '../usage/meter.js'
import type { ModelApi, UsageSample } from '../usage/types.js'
import { API_SPECS } from './apis.js'
import type { Budget } from './budget.js'
import { UsageReader } from './usage-reader.js'

export type ProxyStop = { kind: 'budget'; reason: string } | { kind: 'api_failure'; reason: string }

export interface ModelProxyOptions {
  api: ModelApi
  /** Where model calls go, e.g. "https://api.anthropic.com" (its path is the agent's base path too). */
  upstream: string
  /** The real key, added to what is forwarded; never sent to the agent. */
  key: string
  /** The key the agent was given: a request without it is refused (another local process cannot use the proxy). */
  placeholder: string
  /** Failed answers in a row (429, 529, 5xx, none) the agent may retry before the session ends. */
  retries: number
  /** The session's tally: every model call is one sample. */
  meter: UsageMeter
  /** Tallies the samples are added to as well (a batch's). */
  alsoMeters?: readonly UsageMeter[]
  /** Checked in order before each model call and after it: the session's, a batch's. */
  budgets: readonly Budget[]
  /** The session's current stop-hook round, for each sample. */
  round: () => number
  /** When the session started (ms since the epoch): samples' `at` counts from it. */
  startedAt: number
  onWarning: (reason: string) => void
  /** The session must end: the budget is spent, or the model API refused the key or kept failing. */
  onStop: (stop: ProxyStop) => void
  /** How long, and how many bytes, an answer the agent hung up on is read on for its usage (DRAIN). */
  drain?: { ms: number; bytes: number }
}

export interface ModelProxy {
  /** The base URL the agent is given: this server plus the upstream's path. */
  url: string
  /**
   * Resolves once every model call forwarded is in the tally (an answer the agent hung up on is read on
   * first), at most the drain's deadline from now, or when `signal` aborts (the session is interrupted).
   */
  settled(signal?: AbortSignal): Promise<void>
  /** Cuts the calls still open (each is charged what was read, with an estimate) and closes the server. */
  close(): Promise<void>
}

/**
 * An answer the agent hung up on is read on this long, and this far, for its final usage (Anthropic's
 * message_delta, OpenAI's response.completed, Gemini's last chunk): long enough for a model to finish a
 * long answer, short enough that a stalled upstream does not hold the session.
 */
export const DRAIN = { ms: 30_000, bytes: 16 * 1024 ** 2 }

/** Hop-by-hop headers (RFC 9110 7.6.1) and those the proxy sets itself. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'accept-encoding',
])

/** A request body the proxy must read whole (to ask Chat Completions for its usage) is bounded. */
const REQUEST_BODY_MAX = 64 * 1024 ** 2

export async function startModelProxy(opts: ModelProxyOptions): Promise<ModelProxy> {
  const spec = API_SPECS[opts.api]
  const upstream = new URL(opts.upstream)
  const basePath = upstream.pathname.replace(/\/+$/, '')
  const secure = upstream.protocol === 'https:'
  if (!secure && upstream.protocol !== 'http:')
    throw new Error(`model_api.upstream must be an http(s) URL, not ${upstream.protocol}`)
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const send = secure ? httpsRequest : httpRequest
  const placeholder = Buffer.from(opts.placeholder)
  let failuresInRow = 0
  let stopped = false
  /**
   * Why no further model call may be forwarded (the budget is spent, or the API kept failing): the agent is
   * being stopped, and a CLI retrying through the grace period must not spend on. Not after a refused key:
   * the API refuses those calls itself, and the CLI's own words for it stay what the agent sees.
   */
  let closed: string | null = null
  const stop = (s: ProxyStop, close = true) => {
    if (close) closed ??= s.reason
    if (stopped) return
    stopped = true
    opts.onStop(s)
  }

  /** The key the request carries, and where (so the real one goes the same way). */
  const presented = (req: IncomingMessage, url: URL): { where: string; value: string } | null => {
    for (const name of spec.keyHeaders) {
      const raw = req.headers[name]
      if (typeof raw !== 'string') continue
      return { where: name, value: name === 'authorization' ? raw.replace(/^Bearer\s+/i, '') : raw }
    }
    const query = spec.keyQuery ? url.searchParams.get('key') : null
    return query === null ? null : { where: '?key', value: query }
  }

  const refuse = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(spec.errorBody(status, message))
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Only origin-form targets ("/v1/messages"): an absolute URL would ask the proxy to go elsewhere.
    const target = req.url ?? ''
    if (!target.startsWith('/') || target.startsWith('//')) {
      refuse(res, 400, 'proctor model proxy: only requests to the model API are forwarded')
      return
    }
    const url = new URL(target, 'http://proxy.invalid')
    const key = presented(req, url)
    if (!key || !sameSecret(Buffer.from(key.value), placeholder)) {
      refuse(res, 401, "proctor model proxy: this request does not carry the session's key")
      return
    }
    const method = req.method ?? 'GET'
    const metered = spec.metered(method, url.pathname)
    if (!metered && !modelListing(method, url.pathname, req) && !spec.free(method, url.pathname)) {
      refuse(
        res,
        404,
        `proctor model proxy: ${method} ${url.pathname} is not forwarded (only model calls, which are metered)`,
      )
      return
    }
    if (metered && closed !== null) {
      refuse(res, 400, `proctor: ${closed}; no further model requests in this session`)
      return
    }
    if (metered) {
      const state = opts.budgets.map((budget) => budget.check(true)).find((s) => s.kind === 'spent')
      if (state?.kind === 'spent') {
        // Not a 429: the CLIs retry those. A 400 they show and give up on.
        refuse(res, 400, `proctor: ${state.reason}; no further model requests in this session`)
        stop({ kind: 'budget', reason: state.reason })
        return
      }
      // Reserved until its sample is added (record), or the request fails before it is sent.
      const ends = [opts.meter, ...(opts.alsoMeters ?? [])].map((meter) => meter.begin())
      inFlight.set(req, () => {
        for (const end of ends) end()
      })
    }

    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || DROPPED.has(name) || spec.keyHeaders.includes(name)) continue
      headers[name] = value
    }
    // Usage is read from the body on the way: ask for it uncompressed.
    headers['accept-encoding'] = 'identity'
    if (key.where === 'authorization') headers.authorization = `Bearer ${opts.key}`
    else if (key.where !== '?key') headers[key.where] = opts.key
    if (key.where === '?key') url.searchParams.set('key', opts.key)
    const path = `${url.pathname}${url.search}`

    // Chat Completions reports a stream's usage only when asked (stream_options.include_usage).
    let body: Buffer | null = null
    if (metered && opts.api === 'openai' && url.pathname.endsWith('/chat/completions')) {
      body = withStreamUsage(await readBody(req))
      headers['content-length'] = String(body.length)
    }

    const upstreamReq = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port || (secure ? 443 : 80),
      method: req.method,
      path,
      headers,
      agent,
    })
    upstreamReq.setNoDelay(true)
    // What the agent sent, for an estimate of the prompt when an answer is cut off before its usage.
    let requestBytes = body?.length ?? 0
    /** The agent hung up before the answer ended. */
    let agentLeft = false
    /** ...after sending its whole request: the answer is read on (DRAIN) for its usage. */
    let drainOn = false
    let answered = false
    let recorded = false
    /** Ends the reading on (set while it runs): called once the answer's sample is added. */
    let drained = () => {}
    const endCall = metered ? calls.begin(() => upstreamReq.destroy()) : () => {}
    const charge = (status: number, usage: ReturnType<UsageReader['finishCut']> | null) => {
      if (recorded) return
      recorded = true
      record(status, usage, req)
      drained()
      endCall()
    }
    res.on('close', () => {
      if (res.writableFinished) return
      agentLeft = true
      // The API goes on generating an answer whose request it got whole, and bills it: read on for the
      // usage, bounded. A request cut off on its way is never answered: drop it.
      if (!metered || !req.complete || recorded) {
        upstreamReq.destroy()
        return
      }
      drainOn = true
      const deadline = setTimeout(() => upstreamReq.destroy(), drainLimits.ms)
      deadline.unref()
      drained = () => clearTimeout(deadline)
    })
    // The agent left before any answer: no API failure (the agent ended it, or the bounds of the reading on
    // did). A request the API got whole is charged, its prompt estimated; one cut on its way, nothing.
    upstreamReq.on('close', () => {
      if (metered && (agentLeft || closing) && !answered)
        charge(0, drainOn ? new UsageReader(opts.api, undefined).finishCut(requestBytes) : null)
    })
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent || agentLeft || closing) {
        res.destroy()
        return
      }
      refuse(res, 502, `proctor model proxy: the model API did not answer (${error.code ?? error.message})`)
      if (metered) {
        charge(0, null)
        failed(`model API unreachable (${error.code ?? error.message})`)
      }
    })
    upstreamReq.on('response', (upstreamRes) => {
      answered = true
      const status = upstreamRes.statusCode ?? 0
      if (!agentLeft) {
        const out: Record<string, string | string[]> = {}
        for (const [name, value] of Object.entries(upstreamRes.headers))
          if (value !== undefined && !DROPPED.has(name)) out[name] = value
        res.writeHead(status, upstreamRes.statusMessage, out)
        // The headers go now, not with the first chunk: a client waits for them to start reading.
        res.flushHeaders()
      }
      if (!metered) {
        upstreamRes.pipe(res)
        return
      }
      // The verdict on the key comes with the status, before the agent has read the answer.
      if (status === 401 || status === 403)
        stop({ kind: 'api_failure', reason: `model API refused the key (${status})` }, false)
      const reader = new UsageReader(opts.api, upstreamRes.headers['content-type'])
      let readOn = 0
      upstreamRes.on('data', (chunk: Buffer) => {
        reader.feed(chunk)
        if (drainOn && (readOn += chunk.length) > drainLimits.bytes) upstreamReq.destroy()
      })
      // Once the answer ended, or was cut off (the stream broke, or the reading on after the agent hung up
      // reached its bounds): what was streamed until then was spent. An answer that did not end is charged
      // what its usage said so far, raised to an estimate from what streamed (UsageReader.finishCut).
      const ended = () => {
        if (recorded) return
        charge(status, upstreamRes.complete ? reader.finish() : reader.finishCut(requestBytes))
        if (status === 429 || status >= 500)
          failed(`model API failed ${failuresInRow + 1} times in a row (last: ${status})`)
        else if (status < 400) failuresInRow = 0
        afterCall()
      }
      upstreamRes.on('end', ended)
      upstreamRes.on('close', ended)
      if (agentLeft) upstreamRes.resume()
      else {
        upstreamRes.pipe(res)
        // A pipe stops when its destination closes: once the agent hung up, the answer is read on without it.
        res.on('close', () => {
          if (drainOn) setImmediate(() => upstreamRes.resume())
        })
      }
    })
    if (body) upstreamReq.end(body)
    else {
      req.pipe(upstreamReq)
      req.on('data', (chunk: Buffer) => (requestBytes += chunk.length))
    }
  }

  const failed = (reason: string) => {
    failuresInRow++
    if (failuresInRow > opts.retries) stop({ kind: 'api_failure', reason })
  }

  /** The in-flight reservation of each metered request, ended when its sample is added. */
  const inFlight = new WeakMap<IncomingMessage, () => void>()

  const record = (
    status: number,
    usage: ReturnType<UsageReader['finishCut']> | null,
    req: IncomingMessage,
  ) => {
    inFlight.get(req)?.()
    const sample: UsageSample = {
      api: opts.api,
      model: usage?.model ?? modelOfPath(req.url ?? '') ?? 'unknown',
      round: opts.round(),
      input_tokens: usage?.input_tokens ?? 0,
      output_tokens: usage?.output_tokens ?? 0,
      cached_input_tokens: usage?.cached_input_tokens ?? 0,
      ...(usage?.cache_write_input_tokens
        ? { cache_write_input_tokens: usage.cache_write_input_tokens }
        : {}),
      source: 'proxy',
      status,
      at: Date.now() - opts.startedAt,
      ...(usage?.estimated ? { estimated: true as const } : {}),
    }
    opts.meter.add(sample)
    for (const meter of opts.alsoMeters ?? []) meter.add(sample)
  }

  const afterCall = () => {
    for (const budget of opts.budgets) {
      const state = budget.check()
      if (state.kind === 'warn') opts.onWarning(state.reason)
      if (state.kind === 'spent') stop({ kind: 'budget', reason: state.reason })
    }
  }

  const drainLimits = opts.drain ?? DRAIN
  const calls = new OpenCalls()
  /** close() was called: what is cut now is no failure of the API. */
  let closing = false

  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      inFlight.get(req)?.()
      if (!res.headersSent) refuse(res, 500, `proctor model proxy: ${(error as Error).message}`)
      else res.destroy()
    })
  })
  server.on('connection', (socket) => {
    socket.setNoDelay(true)
    socket.on('error', () => undefined)
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    // A little past the drain's deadline: a hang-up noticed only now still gets its full read on.
    settled: (signal) => calls.settled(drainLimits.ms + 1_000, signal),
    close: async () => {
      // The calls still open (answers read on after the agent hung up, those the agent has not yet been
      // seen to leave) are cut now and charged, before the session's tally is final.
      closing = true
      calls.cutAll()
      await calls.settled(2_000)
      await new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        agent.destroy()
        server.close(() => resolve())
      })
    },
  }
}

/** The model calls forwarded and not yet charged (added to the tally). */
class OpenCalls {
  readonly #open = new Set<() => void>()
  #waiters: (() => void)[] = []

  /** One more, cut short by `cut`; the returned function (idempotent) ends it. */
  begin(cut: () => void): () => void {
    // A fresh function per call: the same `cut` twice is still two calls.
    const entry = () => cut()
    this.#open.add(entry)
    return () => {
      if (!this.#open.delete(entry)) return
      if (this.#open.size === 0) for (const wake of this.#waiters.splice(0)) wake()
    }
  }

  /** Cuts every open call: each ends once it is charged. */
  cutAll(): void {
    for (const cut of [...this.#open]) cut()
  }

  /**
   * Resolves once no call is open, or after `ms`: an answer the agent hung up on ends by the drain's own
   * deadline; one a process the agent left behind still reads is not waited for past it.
   */
  settled(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#open.size === 0 || signal?.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      timer.unref()
      signal?.addEventListener('abort', done, { once: true })
      this.#waiters.push(done)
    })
  }
}

/** Compares two secrets in time independent of where they differ. */
function sameSecret(a: Buffer, b: Buffer): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i]!
  return diff === 0
}

/** Gemini names the model in the path: /v1beta/models/gemini-2.5-pro:streamGenerateContent. */
function modelOfPath(target: string): string | null {
  const match = /\/models\/([^/:?]+):/.exec(target)
  return match ? decodeURIComponent(match[1]!) : null
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > REQUEST_BODY_MAX) {
        req.destroy()
        reject(new Error(`request body over ${REQUEST_BODY_MAX} bytes`))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** A streamed Chat Completions request, asked to end with its usage; anything else as it was. */
function withStreamUsage(body: Buffer): Buffer {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>
    if (parsed.stream !== true) return body
    const options = (parsed.stream_options ?? {}) as Record<string, unknown>
    if (options.include_usage === true) return body
    parsed.stream_options = { ...options, include_usage: true }
    return Buffer.from(JSON.stringify(parsed))
  } catch {
    return body
  }
}

/**
 * The one read that is forwarded unmetered: the model list or one model's description (`…/models`,
 * `…/models/<id>`), which the CLIs ask for at start. Every other GET would read with the real key what the
 * key may read beyond model calls (the organization's message batches, stored responses, files), and a
 * method override would turn a GET into something else.
 */
function modelListing(method: string, path: string, req: IncomingMessage): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false
  if (req.headers['x-http-method-override'] !== undefined) return false
  return /^(?:\/[\w.-]+)*\/models(?:\/[\w.-]+)?\/?$/.test(path)
}
