// A scripted Anthropic Messages API on loopback for running the real Claude Code CLI in tests: it
// answers POST /v1/messages as a streaming (SSE) response, the way api.anthropic.com does, with the
// turn a test script picks from the conversation so far (text, or a tool_use such as Write). Every
// request is logged, so a test can assert what reached the model. Nothing leaves the machine: point
// the CLI at it with ANTHROPIC_BASE_URL and a fake ANTHROPIC_API_KEY.
//
// `startRefusingProxy` is the other half of "no network but loopback": given as HTTPS_PROXY/HTTP_PROXY
// (with NO_PROXY covering the loopback API), it logs and refuses every request the CLI tries to make
// anywhere else, so a test can assert the list is empty.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: string | { type: string; text?: string; content?: unknown; [key: string]: unknown }[]
}

export interface AnthropicRequest {
  /** When it arrived (Date.now()). */
  at: number
  method: string
  url: string
  headers: IncomingHttpHeaders
  /** The status it was refused with (options.refuse), if it was. */
  refused?: number
  /** The parsed JSON body (null when there was none or it was not JSON). */
  body: {
    model?: string
    stream?: boolean
    system?: unknown
    messages?: AnthropicMessage[]
    tools?: { name: string }[]
    max_tokens?: number
  } | null
}

/** One assistant turn: text, then optionally one tool call (stop_reason tool_use). */
export interface ScriptedTurn {
  text?: string
  toolUse?: { name: string; input: Record<string, unknown> }
}

/** Picks the turn for a conversation request. Requests without tools (titles, summaries) get "ok". */
export type Script = (request: AnthropicRequest, helpers: ScriptHelpers) => ScriptedTurn

export interface ScriptHelpers {
  /** The text of the last user message (text blocks and tool results joined). */
  lastUserText: string
  /** True when the last user message carries a tool_result. */
  afterToolResult: boolean
  /** Conversation requests (with tools) answered before this one. */
  turn: number
}

export interface AnthropicApiServer {
  /** e.g. "http://127.0.0.1:40123": the value for ANTHROPIC_BASE_URL. */
  url: string
  /** Every request received, in order. */
  requests: AnthropicRequest[]
  /** The conversation requests (those that offered tools): the agent's own turns. */
  conversation(): AnthropicRequest[]
  /** Resolves once a request matching `predicate` has arrived (already arrived: at once). */
  waitFor(predicate: (r: AnthropicRequest) => boolean): Promise<AnthropicRequest>
  close(): Promise<void>
}

export function messageText(message: AnthropicMessage | undefined): string {
  if (!message) return ''
  if (typeof message.content === 'string') return message.content
  return message.content
    .map((block) => {
      if (typeof block.text === 'string') return block.text
      if (block.type === 'tool_result') {
        const c = block.content
        if (typeof c === 'string') return c
        if (Array.isArray(c)) return c.map((x: { text?: string }) => x.text ?? '').join('')
      }
      return ''
    })
    .join('\n')
}

/** Every text the model was sent in a request's messages (user turns), joined. */
export function userTexts(request: AnthropicRequest): string {
  return (request.body?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map(messageText)
    .join('\n')
}

/** The `usage` an answer reports (default 10 in, 5 out, nothing cached). */
export interface AnthropicUsage {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
}

/**
 * The API refusing model requests the way api.anthropic.com does: 401 (a bad key), 429 (rate limited), 529
 * (overloaded). `times` refusals, then it answers again (a limit that clears); without it, every request.
 */
export interface Refusal {
  status: 401 | 429 | 529
  times?: number
}

const refusalBodies: Record<Refusal['status'], { type: string; message: string }> = {
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  429: {
    type: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your per-minute rate limit',
  },
  529: { type: 'overloaded_error', message: 'Overloaded' },
}

export async function startAnthropicApi(
  script: Script,
  options: { usage?: () => AnthropicUsage; refuse?: Refusal } = {},
): Promise<AnthropicApiServer> {
  const usage = options.usage ?? defaultUsage
  let refusals = 0
  const requests: AnthropicRequest[] = []
  const waiters: { predicate: (r: AnthropicRequest) => boolean; resolve: (r: AnthropicRequest) => void }[] =
    []
  let turns = 0
  let ids = 0
  const sockets = new Set<Socket>()

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: AnthropicRequest['body']
      try {
        body = raw ? (JSON.parse(raw) as AnthropicRequest['body']) : null
      } catch {
        body = null
      }
      const request: AnthropicRequest = {
        at: Date.now(),
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
      }
      requests.push(request)
      for (const w of waiters.splice(0)) {
        if (w.predicate(request)) w.resolve(request)
        else waiters.push(w)
      }
      const path = (req.url ?? '').split('?')[0]
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }))
        return
      }
      if (req.method !== 'POST' || path !== '/v1/messages' || !body) {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not scripted' } }),
        )
        return
      }
      const refuse = options.refuse
      if (refuse && (refuse.times === undefined || refusals < refuse.times)) {
        refusals++
        request.refused = refuse.status
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        // A short wait asked for, so a limit that clears is retried soon; the CLI decides how often.
        if (refuse.status !== 401) headers['retry-after'] = '1'
        res.writeHead(refuse.status, headers)
        res.end(JSON.stringify({ type: 'error', error: refusalBodies[refuse.status] }))
        return
      }
      const messages = body.messages ?? []
      const last = [...messages].reverse().find((m) => m.role === 'user')
      const conversation = (body.tools?.length ?? 0) > 0
      const turn: ScriptedTurn = conversation
        ? script(request, {
            lastUserText: messageText(last),
            afterToolResult:
              Array.isArray(last?.content) && last.content.some((b) => b.type === 'tool_result'),
            turn: turns++,
          })
        : { text: 'ok' }
      const id = ++ids
      if (body.stream) streamTurn(res, turn, body.model ?? 'claude-test', id, usage())
      else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(wholeMessage(turn, body.model ?? 'claude-test', id, usage())))
      }
    })
  })
  server.on('connection', (s) => {
    // A client that gives up mid-request resets the socket; that is its business, not a test failure.
    s.on('error', () => undefined)
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await listen(server)
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    conversation: () => requests.filter((r) => (r.body?.tools?.length ?? 0) > 0),
    waitFor(predicate) {
      const found = requests.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve) => waiters.push({ predicate, resolve }))
    },
    close: () => closeServer(server, sockets),
  }
}

function defaultUsage(): AnthropicUsage {
  return { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
}

function contentBlocks(turn: ScriptedTurn, id: number) {
  const blocks: Record<string, unknown>[] = []
  if (turn.text !== undefined) blocks.push({ type: 'text', text: turn.text })
  if (turn.toolUse)
    blocks.push({ type: 'tool_use', id: `toolu_${id}`, name: turn.toolUse.name, input: turn.toolUse.input })
  return blocks
}

function wholeMessage(turn: ScriptedTurn, model: string, id: number, usage: AnthropicUsage) {
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content: contentBlocks(turn, id),
    stop_reason: turn.toolUse ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage,
  }
}

/** The event sequence of a streamed message, as the Messages API sends it. */
function streamTurn(
  res: import('node:http').ServerResponse,
  turn: ScriptedTurn,
  model: string,
  id: number,
  usage: AnthropicUsage,
) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  send('message_start', {
    type: 'message_start',
    // As the API does: message_start carries the input and cache counts, message_delta the output.
    message: {
      ...wholeMessage({}, model, id, usage),
      content: [],
      stop_reason: null,
      usage: { ...usage, output_tokens: 1 },
    },
  })
  let index = 0
  if (turn.text !== undefined) {
    send('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'text', text: '' },
    })
    send('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'text_delta', text: turn.text },
    })
    send('content_block_stop', { type: 'content_block_stop', index })
    index++
  }
  if (turn.toolUse) {
    send('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: `toolu_${id}`, name: turn.toolUse.name, input: {} },
    })
    send('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.toolUse.input) },
    })
    send('content_block_stop', { type: 'content_block_stop', index })
  }
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: turn.toolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  })
  send('message_stop', { type: 'message_stop' })
  res.end()
}

export interface RefusingProxy {
  /** e.g. "http://127.0.0.1:40124": the value for HTTPS_PROXY and HTTP_PROXY. */
  url: string
  /** Every destination something tried to reach through the proxy ("host:port" or a URL). */
  attempts: string[]
  close(): Promise<void>
}

/** An HTTP(S) proxy that reaches nothing: it records each attempt and answers 403. */
export async function startRefusingProxy(): Promise<RefusingProxy> {
  const attempts: string[] = []
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    attempts.push(req.url ?? '')
    res.writeHead(403)
    res.end('no network in tests')
  })
  server.on('connect', (req, socket: Socket) => {
    attempts.push(req.url ?? '')
    socket.on('error', () => undefined)
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
  })
  server.on('connection', (s) => {
    // A client that gives up mid-request resets the socket; that is its business, not a test failure.
    s.on('error', () => undefined)
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await listen(server)
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    close: () => closeServer(server, sockets),
  }
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const s of sockets) s.destroy()
  return new Promise((resolve) => server.close(() => resolve()))
}
