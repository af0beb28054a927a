// A scripted Gemini API (generativelanguage v1beta) on 127.0.0.1 for running the real Gemini CLI in tests:
// `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answered as a server-sent-event stream of
// GenerateContentResponse chunks, each answer taken from a script in order. Side requests the CLI makes
// (countTokens, a non-streaming generateContent for its own checks) get neutral answers outside the script.
// Every request is logged with its parsed body so tests can assert what reached the model. Loopback only.
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
  /** The method after the colon: streamGenerateContent, generateContent, countTokens... */
  action: string
  headers: Record<string, string | string[] | undefined>
  body: JsonObject | null
  /** Which scripted turn answered it (0-based), or null for requests outside the script. */
  turn: number | null
}

/** One model turn: the parts it streams, chosen from the request when a function. */
export type ScriptedTurn = JsonObject[] | ((request: LoggedRequest) => JsonObject[])

export interface GeminiApi {
  /** For GOOGLE_GEMINI_BASE_URL. */
  url: string
  requests: LoggedRequest[]
  /** streamGenerateContent requests, in order. */
  turns(): LoggedRequest[]
  close(): Promise<void>
}

/** The API refusing model requests the way generativelanguage does; `times` refusals, then it answers. */
export interface Refusal {
  status: 400 | 401 | 429 | 503
  times?: number
}

const refusalBodies: Record<Refusal['status'], JsonObject> = {
  // An invalid key is a 400 on the Gemini API (API_KEY_INVALID), not a 401.
  400: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
      },
    ],
  },
  401: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
  429: {
    code: 429,
    message: 'You exceeded your current quota, please check your plan and billing details.',
    status: 'RESOURCE_EXHAUSTED',
  },
  503: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
}

export interface GeminiApiOptions {
  refuse?: Refusal
  script: ScriptedTurn[]
  /** What every turn past the script answers (default: a short "done" text). */
  fallback?: ScriptedTurn
  /** The `usageMetadata` each scripted turn reports (default 10 prompt, 5 candidates, none cached). */
  usage?: (turn: number) => {
    promptTokenCount: number
    cachedContentTokenCount: number
    candidatesTokenCount: number
  }
}

export const text = (value: string): JsonObject => ({ text: value })
export const functionCall = (name: string, args: JsonObject): JsonObject => ({ functionCall: { name, args } })

/** Every text the request's `contents` carry (user prompts, function responses), as JSON. */
export function contentsText(request: LoggedRequest): string {
  return JSON.stringify(request.body?.contents ?? [])
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }

function usageMetadata(u: NonNullable<GeminiApiOptions['usage']> extends (t: number) => infer U ? U : never) {
  return { ...u, totalTokenCount: u.promptTokenCount + u.candidatesTokenCount }
}

export async function startGeminiApi(options: GeminiApiOptions): Promise<GeminiApi> {
  const requests: LoggedRequest[] = []
  let turn = 0
  let refusals = 0
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { code: 500, message: String(error), status: 'INTERNAL' } }))
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
    const action = path.includes(':') ? path.slice(path.lastIndexOf(':') + 1) : ''
    const logged: LoggedRequest = {
      at: Date.now(),
      method: req.method ?? 'GET',
      path,
      action,
      headers: req.headers,
      body,
      turn: null,
    }
    requests.push(logged)
    const refuse = options.refuse
    const modelCall = action === 'streamGenerateContent' || action === 'generateContent'
    if (
      refuse &&
      req.method === 'POST' &&
      modelCall &&
      (refuse.times === undefined || refusals < refuse.times)
    ) {
      refusals++
      logged.refused = refuse.status
      res.writeHead(refuse.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: refusalBodies[refuse.status] }))
      return
    }
    if (req.method === 'POST' && action === 'streamGenerateContent') {
      logged.turn = turn
      const step = options.script[turn] ?? options.fallback ?? [text('done')]
      turn++
      const parts = typeof step === 'function' ? step(logged) : step
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const chunk = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: options.usage ? usageMetadata(options.usage(logged.turn)) : usage,
        modelVersion: 'scripted',
      }
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`)
      res.end()
      return
    }
    if (req.method === 'POST' && action === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ totalTokens: 10 }))
      return
    }
    if (req.method === 'POST' && action === 'generateContent') {
      // The CLI's own side questions (e.g. "who speaks next"): a neutral JSON answer, never a scripted turn.
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          candidates: [
            {
              content: { role: 'model', parts: [text('{"reasoning":"done","next_speaker":"user"}')] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: usage,
        }),
      )
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        error: { code: 404, message: `no scripted answer for ${req.method} ${path}`, status: 'NOT_FOUND' },
      }),
    )
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns: () => requests.filter((request) => request.turn !== null),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
