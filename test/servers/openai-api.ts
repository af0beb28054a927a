// A scripted OpenAI Responses API on 127.0.0.1 for running the real Codex CLI in tests: `POST /v1/responses`
// answered as a server-sent-event stream (response.created, one response.output_item.added/done pair per
// output item, response.completed with usage), each answer taken from a script in order. Every request is
// logged with its parsed body so tests can assert what reached the model (e.g. a stop hook's reason).
// Loopback only; nothing is ever forwarded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export interface LoggedRequest {
  /** When it arrived (Date.now()). */
  at: number
  /** The status it was refused with (options.refuse), if it was. */
  refused?: number
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: JsonObject | null
  /** Which scripted turn answered it (0-based), or null for requests outside the script. */
  turn: number | null
}

/** One model turn: the output items it streams, chosen from the request when a function. */
export type ScriptedTurn = JsonObject[] | ((request: LoggedRequest) => JsonObject[])

export interface OpenAIApi {
  /** Base URL including /v1, for a Codex model provider's base_url. */
  url: string
  requests: LoggedRequest[]
  /** Requests to /v1/responses, in order. */
  turns(): LoggedRequest[]
  close(): Promise<void>
}

/** The API refusing `/responses` the way api.openai.com does; `times` refusals, then it answers (default: all). */
export interface Refusal {
  status: 401 | 429 | 500
  times?: number
}

const refusalBodies: Record<Refusal['status'], JsonObject> = {
  401: {
    message: 'Incorrect API key provided: sk-test-***-real.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
  429: {
    message: 'Rate limit reached for gpt-5.1-codex on tokens per min (TPM). Please try again in 1s.',
    type: 'tokens',
    param: null,
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request.',
    type: 'server_error',
    param: null,
    code: null,
  },
}

export interface OpenAIApiOptions {
  refuse?: Refusal
  script: ScriptedTurn[]
  /** What every turn past the script answers (default: a short "done" message). */
  fallback?: ScriptedTurn
  /** The `usage` each answer reports, by turn (-1: a side request); default 10 in, 5 out, none cached. */
  usage?: (turn: number) => { input_tokens: number; cached_tokens: number; output_tokens: number }
}

export const message = (text: string): JsonObject => ({
  type: 'message',
  role: 'assistant',
  id: `msg_${Math.random().toString(36).slice(2, 10)}`,
  content: [{ type: 'output_text', text, annotations: [] }],
})

export const functionCall = (name: string, args: JsonObject): JsonObject => ({
  type: 'function_call',
  id: `fc_${Math.random().toString(36).slice(2, 10)}`,
  call_id: `call_${Math.random().toString(36).slice(2, 10)}`,
  name,
  arguments: JSON.stringify(args),
  // As the real API sends it; the AI SDK (opencode) runs a call only once it is "completed".
  status: 'completed',
})

/** Every text a request carries in its `input` items (user messages, tool outputs), joined. */
export function inputText(request: LoggedRequest): string {
  const input = request.body?.input
  return JSON.stringify(Array.isArray(input) ? input : [])
}

/**
 * A side request for a short task title: Codex's TUI asks for "a concise, single-line task title", opencode
 * (in its developer message) tells the model "You are a title generator".
 */
function isTitleRequest(request: LoggedRequest): boolean {
  const text = inputText(request)
  return (
    text.includes('Generate a concise, single-line task title') || text.includes('You are a title generator')
  )
}

export async function startOpenAIApi(options: OpenAIApiOptions): Promise<OpenAIApi> {
  const requests: LoggedRequest[] = []
  let turn = 0
  let refusals = 0
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: String(error) } }))
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    let body: JsonObject | null
    try {
      body = raw ? (JSON.parse(raw) as JsonObject) : null
    } catch {
      body = null
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const logged: LoggedRequest = {
      at: Date.now(),
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      turn: null,
    }
    requests.push(logged)
    const refuse = options.refuse
    if (
      refuse &&
      req.method === 'POST' &&
      path.endsWith('/responses') &&
      (refuse.times === undefined || refusals < refuse.times)
    ) {
      refusals++
      logged.refused = refuse.status
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (refuse.status === 429) headers['retry-after'] = '1'
      res.writeHead(refuse.status, headers)
      res.end(JSON.stringify({ error: refusalBodies[refuse.status] }))
      return
    }
    if (req.method === 'POST' && path.endsWith('/responses') && isTitleRequest(logged)) {
      // The interactive Codex and opencode ask the model for a title for the task on the side: not a scripted turn.
      streamResponse(res, [message('Scripted task')], -1, options.usage)
      return
    }
    if (req.method === 'POST' && path.endsWith('/responses')) {
      logged.turn = turn
      const step = options.script[turn] ?? options.fallback ?? [message('done')]
      turn++
      const items = typeof step === 'function' ? step(logged) : step
      streamResponse(res, items, logged.turn, options.usage)
      return
    }
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }))
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: `no scripted answer for ${req.method} ${path}` } }))
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    turns: () => requests.filter((request) => request.turn !== null),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function streamResponse(
  res: ServerResponse,
  items: JsonObject[],
  turn: number,
  usageOf: OpenAIApiOptions['usage'] = () => ({ input_tokens: 10, cached_tokens: 0, output_tokens: 5 }),
): void {
  const usage = usageOf(turn)
  const id = `resp_${turn}_${Math.random().toString(36).slice(2, 8)}`
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  let sequence = 0
  const send = (type: string, data: JsonObject) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`)
  const response = (status: string, output: JsonObject[]): JsonObject => ({
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: 'scripted',
    output,
  })
  send('response.created', { response: response('in_progress', []) })
  items.forEach((item, index) => {
    send('response.output_item.added', { output_index: index, item })
    if (item.type === 'message') {
      const text = ((item.content as JsonObject[])[0]?.text as string) ?? ''
      send('response.output_text.delta', {
        item_id: item.id ?? null,
        output_index: index,
        content_index: 0,
        delta: text,
      })
    }
    send('response.output_item.done', { output_index: index, item })
  })
  send('response.completed', {
    response: {
      ...response('completed', items),
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached_tokens },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  })
  res.end()
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
