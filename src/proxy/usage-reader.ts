// Reads a model call's usage from the API's own fields in the response the proxy is passing on, without
// holding the answer back: a server-sent-event stream is read event by event as its chunks go by; a JSON
// body (or Gemini's JSON-array stream) is copied aside, bounded, and parsed at its end.
//
// An answer cut off before its final usage (the agent hung up and the reading on reached its bounds) is
// charged what its usage said so far, raised to an estimate from what streamed: the generated text's bytes
// / 4 as output (and the request's bytes / 4 as the prompt when no usage was read at all), marked estimated.
//
// Tokens are counted one way for every API: `input_tokens` is the whole prompt, cached part included (the
// Anthropic API reports cache reads and cache writes beside its `input_tokens`, so they are added; OpenAI and
// Gemini already include them), `cached_input_tokens` the part read from the prompt cache, `output_tokens`
// everything generated (reasoning and thinking included).
import { StringDecoder } from 'node:string_decoder'
import type { ModelApi } from '../usage/types.js'

export interface ReadUsage {
  model: string | null
  input_tokens: number
  output_tokens: number
  cached_input_tokens: number
  /** The part of input_tokens written to the prompt cache (Anthropic's cache_creation_input_tokens). */
  cache_write_input_tokens: number
  /** Some of it is an estimate (finishCut): the answer was cut off before its final usage. */
  estimated?: true
}

/** Bytes per token of an estimate: a common rule of thumb for English text and code. */
const BYTES_PER_TOKEN = 4

/**
 * The generated text in one streamed event or body: the string values of the fields the APIs stream text,
 * thinking and tool input in (Anthropic text/thinking/partial_json, OpenAI delta/content/arguments/refusal,
 * Gemini text), counted as written (JSON escapes included: close enough for an estimate).
 */
const TEXT_FIELDS =
  /"(?:text|thinking|partial_json|delta|content|arguments|refusal)"\s*:\s*"((?:[^"\\]|\\.)*)"/g

/** A JSON body beyond this is passed on but not parsed for usage (model answers are far smaller). */
const JSON_COPY_MAX = 16 * 1024 ** 2

type Obj = Record<string, unknown>

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
const obj = (value: unknown): Obj | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined

/**
 * What one JSON message (an SSE event's data, a chunk, a whole body) says about usage; `final`: the API's
 * last word on it (no later event raises it).
 */
type Partial = {
  model?: string
  input?: number
  output?: number
  cached?: number
  written?: number
  final?: boolean
}

function anthropicUsage(o: Obj): Partial {
  // message_start carries the message with its usage; message_delta the running output count (and, in newer
  // API versions, the input counts again); a non-streamed answer is the message itself.
  const message = o.type === 'message_start' ? obj(o.message) : o.type === 'message' ? o : undefined
  const usage = obj(message?.usage) ?? (o.type === 'message_delta' ? obj(o.usage) : undefined)
  const out: Partial = {}
  if (typeof message?.model === 'string') out.model = message.model
  if (!usage) return out
  if (o.type === 'message_delta' || o.type === 'message') out.final = true
  const input = num(usage.input_tokens)
  const read = num(usage.cache_read_input_tokens)
  const written = num(usage.cache_creation_input_tokens)
  if (input !== undefined || read !== undefined || written !== undefined)
    out.input = (input ?? 0) + (read ?? 0) + (written ?? 0)
  if (read !== undefined) out.cached = read
  if (written !== undefined) out.written = written
  const output = num(usage.output_tokens)
  if (output !== undefined) out.output = output
  return out
}

function openaiUsage(o: Obj): Partial {
  // Responses: response.completed (or .incomplete/.failed) carries the response; a non-streamed answer is
  // the response. Chat Completions: the usage object of the last chunk (stream_options.include_usage) or body.
  const response = typeof o.type === 'string' && o.type.startsWith('response.') ? obj(o.response) : o
  const out: Partial = {}
  if (typeof response?.model === 'string') out.model = response.model
  const usage = obj(response?.usage)
  if (!usage) return out
  // Only the last event (or a whole body) carries usage: response.completed, the Chat Completions chunk.
  out.final = true
  const input = num(usage.input_tokens) ?? num(usage.prompt_tokens)
  const output = num(usage.output_tokens) ?? num(usage.completion_tokens)
  const details = obj(usage.input_tokens_details) ?? obj(usage.prompt_tokens_details)
  if (input !== undefined) out.input = input
  if (output !== undefined) out.output = output
  const cached = num(details?.cached_tokens)
  if (cached !== undefined) out.cached = cached
  return out
}

function geminiUsage(o: Obj): Partial {
  // Each streamed chunk carries the usage so far; the last one counts.
  const out: Partial = {}
  if (typeof o.modelVersion === 'string') out.model = o.modelVersion
  const usage = obj(o.usageMetadata)
  if (!usage) return out
  // Every chunk carries the usage so far; the one with a finishReason is the last.
  const candidates0 = Array.isArray(o.candidates) ? obj(o.candidates[0]) : undefined
  if (typeof candidates0?.finishReason === 'string') out.final = true
  const input = num(usage.promptTokenCount)
  const candidates = num(usage.candidatesTokenCount)
  const thoughts = num(usage.thoughtsTokenCount)
  if (input !== undefined) out.input = input
  if (candidates !== undefined || thoughts !== undefined) out.output = (candidates ?? 0) + (thoughts ?? 0)
  const cached = num(usage.cachedContentTokenCount)
  if (cached !== undefined) out.cached = cached
  return out
}

const READERS: Record<ModelApi, (o: Obj) => Partial> = {
  anthropic: anthropicUsage,
  openai: openaiUsage,
  gemini: geminiUsage,
}

export class UsageReader {
  readonly #read: (o: Obj) => Partial
  readonly #sse: boolean
  readonly #decoder = new StringDecoder('utf8')
  #pending = ''
  #copied = 0
  #overflow = false
  #seen = false
  #final = false
  /** Bytes of generated text seen in the SSE events so far (for finishCut). */
  #text = 0
  #usage: ReadUsage = {
    model: null,
    input_tokens: 0,
    output_tokens: 0,
    cached_input_tokens: 0,
    cache_write_input_tokens: 0,
  }

  constructor(api: ModelApi, contentType: string | undefined) {
    this.#read = READERS[api]
    this.#sse = /text\/event-stream/i.test(contentType ?? '')
  }

  /** One chunk of the response body, as it goes by. */
  feed(chunk: Buffer): void {
    if (this.#overflow) return
    const text = this.#decoder.write(chunk)
    if (!this.#sse) {
      this.#copied += chunk.length
      if (this.#copied > JSON_COPY_MAX) {
        this.#overflow = true
        this.#pending = ''
        return
      }
      this.#pending += text
      return
    }
    // Lines are cut out by position and the rest kept once per chunk: slicing the remainder per line
    // copied a 64 KiB chunk once for each of its events.
    const pending = this.#pending + text
    let start = 0
    let newline: number
    while ((newline = pending.indexOf('\n', start)) !== -1) {
      this.#line(pending.slice(start, pending[newline - 1] === '\r' ? newline - 1 : newline))
      start = newline + 1
    }
    this.#pending = pending.slice(start)
    // An event line longer than the cap is not usage: drop it rather than grow without bound.
    if (this.#pending.length > JSON_COPY_MAX) this.#pending = ''
  }

  /** The usage once the body ended, or null when the response carried none. */
  finish(): ReadUsage | null {
    this.#pending += this.#decoder.end()
    if (this.#sse) this.#line(this.#pending.replace(/\r$/, ''))
    else if (!this.#overflow) this.#json(this.#pending)
    this.#pending = ''
    return this.#seen ? this.#usage : null
  }

  /**
   * The usage of an answer cut off before it ended: as read, unless the API's final usage was never seen;
   * then output is at least the streamed text's bytes / 4, and a prompt with no usage read at all is
   * `requestBytes` / 4 (the request the API got whole). Marked estimated when an estimate raised a count.
   */
  finishCut(requestBytes: number): ReadUsage {
    // A JSON body cut short does not parse: its text is counted from the copy instead.
    const cutJson = !this.#sse && !this.#overflow ? this.#pending : ''
    const read = this.finish()
    if (this.#final && read) return read
    const text = this.#sse ? this.#text : this.#overflow ? this.#copied : textBytes(cutJson)
    const usage: ReadUsage = { ...this.#usage }
    const output = Math.ceil(text / BYTES_PER_TOKEN)
    const input = Math.ceil(requestBytes / BYTES_PER_TOKEN)
    if (output > usage.output_tokens) {
      usage.output_tokens = output
      usage.estimated = true
    }
    if (!read && input > usage.input_tokens) {
      usage.input_tokens = input
      usage.estimated = true
    }
    return usage
  }

  #line(line: string): void {
    if (!line.startsWith('data:')) return
    // OpenAI's *.done events repeat the whole text its deltas streamed.
    if (!line.includes('.done"')) this.#text += textBytes(line)
    // Usage, and the model beside it, come only in events that name a usage field (usage, usageMetadata):
    // the content deltas between them are not parsed.
    if (!line.includes('"usage')) return
    this.#json(line.slice(5).trim())
  }

  #json(text: string): void {
    if (!text || (text[0] !== '{' && text[0] !== '[')) return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const o = obj(item)
      if (o) this.#merge(this.#read(o))
    }
  }

  /** Later messages win field by field: streamed counts are running totals. */
  #merge(p: Partial): void {
    if (p.model !== undefined) this.#usage.model = p.model
    if (p.input !== undefined) this.#usage.input_tokens = p.input
    if (p.output !== undefined) this.#usage.output_tokens = p.output
    if (p.cached !== undefined) this.#usage.cached_input_tokens = p.cached
    if (p.written !== undefined) this.#usage.cache_write_input_tokens = p.written
    if (p.input !== undefined || p.output !== undefined) this.#seen = true
    if (p.final) this.#final = true
  }
}

function textBytes(text: string): number {
  let bytes = 0
  for (const match of text.matchAll(TEXT_FIELDS)) bytes += match[1]!.length
  return bytes
}
