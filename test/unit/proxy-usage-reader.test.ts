// The usage reader sees a response in whatever pieces TCP hands the proxy: an event cut anywhere (inside a
// line, inside a multi-byte character) still counts once, and the API's fields are read the same way.
import { describe, expect, it } from 'vitest'
import { UsageReader } from '../../src/proxy/usage-reader.js'
import type { ModelApi } from '../../src/usage/types.js'

function readInPieces(api: ModelApi, contentType: string, body: string, size: number) {
  const reader = new UsageReader(api, contentType)
  const bytes = Buffer.from(body)
  for (let i = 0; i < bytes.length; i += size) reader.feed(bytes.subarray(i, i + size))
  return reader.finish()
}

const anthropic = [
  `event: message_start\r\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'claude-é', usage: { input_tokens: 12, cache_read_input_tokens: 30, cache_creation_input_tokens: 5, output_tokens: 1 } } })}\r\n\r\n`,
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'héllo "usage" ✓' } })}\n\n`,
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: { output_tokens: 77 } })}`,
].join('')

describe('UsageReader', () => {
  it('reads an Anthropic stream fed one byte at a time, and whole, alike (CRLF, no final newline)', () => {
    const whole = readInPieces('anthropic', 'text/event-stream; charset=utf-8', anthropic, 1 << 20)
    // Cache reads and writes are part of the prompt; the writes are kept apart for their own price.
    expect(whole).toEqual({
      model: 'claude-é',
      input_tokens: 47,
      output_tokens: 77,
      cached_input_tokens: 30,
      cache_write_input_tokens: 5,
    })
    for (const size of [1, 2, 3, 7, 64])
      expect(readInPieces('anthropic', 'text/event-stream', anthropic, size)).toEqual(whole)
  })

  it('reads a Gemini JSON-array stream: the last usageMetadata counts, thoughts are output', () => {
    const body = JSON.stringify([
      { candidates: [], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1 }, modelVersion: 'g' },
      {
        candidates: [],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 4, thoughtsTokenCount: 6 },
      },
    ])
    expect(readInPieces('gemini', 'application/json', body, 5)).toEqual({
      model: 'g',
      input_tokens: 5,
      output_tokens: 10,
      cached_input_tokens: 0,
      cache_write_input_tokens: 0,
    })
  })

  it('reads a non-streamed OpenAI Responses body and a Chat Completions body', () => {
    const responses = JSON.stringify({
      object: 'response',
      model: 'gpt-x',
      usage: { input_tokens: 9, output_tokens: 3, input_tokens_details: { cached_tokens: 2 } },
    })
    expect(readInPieces('openai', 'application/json', responses, 4)).toMatchObject({
      model: 'gpt-x',
      input_tokens: 9,
      output_tokens: 3,
      cached_input_tokens: 2,
    })
    const chat = JSON.stringify({ model: 'gpt-4o', usage: { prompt_tokens: 8, completion_tokens: 1 } })
    expect(readInPieces('openai', 'application/json', chat, 3)).toMatchObject({
      input_tokens: 8,
      output_tokens: 1,
    })
  })

  it('answers null for a body without usage (an error body, a truncated stream)', () => {
    expect(readInPieces('anthropic', 'application/json', '{"type":"error"}', 3)).toBeNull()
    expect(readInPieces('anthropic', 'text/event-stream', 'data: {"type":"message_st', 3)).toBeNull()
  })

  describe('an answer cut off before it ended (finishCut)', () => {
    const cut = (api: ModelApi, contentType: string, body: string, requestBytes = 0) => {
      const reader = new UsageReader(api, contentType)
      reader.feed(Buffer.from(body))
      return reader.finishCut(requestBytes)
    }
    const data = (o: object) => `data: ${JSON.stringify(o)}\n\n`

    it('keeps the usage as read once the final usage event was seen', () => {
      expect(cut('anthropic', 'text/event-stream', anthropic + '\n\n', 99_999)).toEqual({
        model: 'claude-é',
        input_tokens: 47,
        output_tokens: 77,
        cached_input_tokens: 30,
        cache_write_input_tokens: 5,
      })
    })

    it('Anthropic before message_delta: output from the streamed text (bytes / 4), marked estimated', () => {
      const body =
        data({
          type: 'message_start',
          message: { model: 'm', usage: { input_tokens: 10, output_tokens: 1 } },
        }) +
        data({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'a'.repeat(400) } }) +
        data({
          type: 'content_block_delta',
          delta: { type: 'input_json_delta', partial_json: 'b'.repeat(400) },
        })
      expect(cut('anthropic', 'text/event-stream', body, 4000)).toMatchObject({
        input_tokens: 10,
        output_tokens: 200,
        estimated: true,
      })
    })

    it('OpenAI Responses: deltas counted once (the .done events repeat them); no usage read: the prompt from the request', () => {
      const body =
        data({ type: 'response.created', response: { model: 'gpt-x', usage: null } }) +
        data({ type: 'response.output_text.delta', delta: 'c'.repeat(100) }) +
        data({ type: 'response.output_text.delta', delta: 'c'.repeat(100) }) +
        data({ type: 'response.output_text.done', text: 'c'.repeat(200) })
      expect(cut('openai', 'text/event-stream', body, 800)).toMatchObject({
        input_tokens: 200,
        output_tokens: 50,
        estimated: true,
      })
    })

    it('Chat Completions and a Gemini JSON-array stream cut short', () => {
      const chat =
        data({ choices: [{ delta: { content: 'd'.repeat(40) } }] }) +
        data({ choices: [{ delta: { tool_calls: [{ function: { arguments: 'e'.repeat(40) } }] } }] })
      expect(cut('openai', 'text/event-stream', chat, 40)).toMatchObject({
        input_tokens: 10,
        output_tokens: 20,
        estimated: true,
      })
      const gemini = `[${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'f'.repeat(80) }] } }], usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 2 } })},\n{"candidates": [{"content": {"parts": [{"text": "${'g'.repeat(40)}`
      // The cut array does not parse: the text of its closed strings counts, the prompt is the request's.
      expect(cut('gemini', 'application/json', gemini, 4000)).toMatchObject({
        input_tokens: 1000,
        output_tokens: 20,
        estimated: true,
      })
    })
  })
})
