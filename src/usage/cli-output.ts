// Usage read from what an agent CLI prints about itself, for sessions without the metering proxy. Each format
// was checked against the pinned CLIs talking to the scripted model APIs (test/integration/usage-cli.test.ts):
// - `claude -p --output-format json` (or stream-json): one result object whose `modelUsage` gives, per model,
//   inputTokens (not cached), cacheReadInputTokens, cacheCreationInputTokens, outputTokens and costUSD, for the
//   whole process; `num_turns` its turns.
// - `codex exec --json`: a `turn.completed` line per turn with usage {input_tokens (cached included),
//   cached_input_tokens, cache_write_input_tokens, output_tokens}.
// - `codex exec` (text): "tokens used" and, on the next line, the input not read from the cache plus the
//   output ("1,220"), unsplit; the model from its header's "model: …" line.
// - the interactive `codex` on exit, below its screen: "Token usage: total=650 input=600 (+ 400 cached)
//   output=50" (input here not read from the cache); the model only from the command line.
// - `gemini -p --output-format json`: `stats.models.<model>` with api.totalRequests and tokens {prompt (cached
//   included), cached, candidates, thoughts, tool}.
// What an agent prints is the agent's word: it can print a forged summary, or none. The proxy's figures are
// the ones it cannot change.
import type { ModelApi, UsageSample } from './types.js'

/** A summary naming more models than this is not one a CLI printed: the rest are not counted. */
const MAX_MODELS = 50

export interface CliUsageContext {
  /** The round the agent process started in. */
  round: number
  /** ms since the session started. */
  at: number
  /** The agent's argv, for a model named on the command line (`-m`, `--model`) when the output names none. */
  argv?: readonly string[]
}

/** The usage samples the output's last usage summary gives, or none. */
export function usageFromCliOutput(output: string, context: CliUsageContext): UsageSample[] {
  return claudeResult(output, context) ?? geminiStats(output, context) ?? codexUsage(output, context) ?? []
}

function sample(
  api: ModelApi,
  model: string,
  context: CliUsageContext,
  figures: Partial<UsageSample> & Pick<UsageSample, 'input_tokens' | 'output_tokens' | 'cached_input_tokens'>,
): UsageSample {
  // The name is the agent's output: kept short and printable in report.json.
  const name = model.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 200) || 'unknown'
  return { api, model: name, round: context.round, source: 'cli', status: 200, at: context.at, ...figures }
}

function claudeResult(output: string, context: CliUsageContext): UsageSample[] | null {
  const models = objectAfter(output, '"modelUsage":')
  if (!models) return null
  const turns = numberAfter(output, '"num_turns":', output.lastIndexOf('"modelUsage":'))
  const samples: UsageSample[] = []
  for (const [model, value] of Object.entries(models).slice(0, MAX_MODELS)) {
    if (!isObject(value)) continue
    const read = count(value.cacheReadInputTokens)
    const written = count(value.cacheCreationInputTokens)
    const cost = value.costUSD
    samples.push(
      sample('anthropic', model, context, {
        input_tokens: count(value.inputTokens) + read + written,
        cached_input_tokens: read,
        cache_write_input_tokens: written,
        output_tokens: count(value.outputTokens),
        requests: 0,
        ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0
          ? { reported_cost_usd: cost }
          : {}),
      }),
    )
  }
  // Claude counts turns, not requests per model: they are the main model's (the one that wrote the most).
  const main = samples.reduce<UsageSample | null>(
    (best, s) => (!best || s.output_tokens > best.output_tokens ? s : best),
    null,
  )
  if (main) main.requests = turns ?? 1
  return samples.length ? samples : null
}

function geminiStats(output: string, context: CliUsageContext): UsageSample[] | null {
  const stats = objectAfter(output, '"stats":')
  if (!stats || !isObject(stats.models)) return null
  const samples: UsageSample[] = []
  for (const [model, value] of Object.entries(stats.models).slice(0, MAX_MODELS)) {
    if (!isObject(value) || !isObject(value.tokens)) continue
    const tokens = value.tokens
    samples.push(
      sample('gemini', model, context, {
        input_tokens: count(tokens.prompt) + count(tokens.tool),
        cached_input_tokens: count(tokens.cached),
        // Thinking is billed as output.
        output_tokens: count(tokens.candidates) + count(tokens.thoughts),
        requests: isObject(value.api) ? count(value.api.totalRequests) : 1,
      }),
    )
  }
  return samples.length ? samples : null
}

function codexUsage(output: string, context: CliUsageContext): UsageSample[] | null {
  const model = lastMatch(output, /^model: (\S+)\s*$/gm)?.[1] ?? modelFromArgv(context.argv) ?? 'codex'
  const turns = [...output.matchAll(/\{"type":"turn\.completed","usage":(\{[^{}]*\})\}/g)]
  if (turns.length) {
    const samples = turns.flatMap((match) => {
      const usage = parse(match[1]!)
      if (!usage) return []
      return [
        sample('openai', model, context, {
          input_tokens: count(usage.input_tokens),
          cached_input_tokens: count(usage.cached_input_tokens),
          cache_write_input_tokens: count(usage.cache_write_input_tokens),
          output_tokens: count(usage.output_tokens),
          requests: 0,
        }),
      ]
    })
    return samples.length ? samples : null
  }
  const exit = lastMatch(
    output,
    /Token usage: total=[\d,]+ input=(\d[\d,]*)(?: \(\+ (\d[\d,]*) cached\))? output=(\d[\d,]*)/g,
  )
  if (exit) {
    const cached = exit[2] ? number(exit[2]) : 0
    return [
      sample('openai', model, context, {
        input_tokens: number(exit[1]!) + cached,
        cached_input_tokens: cached,
        output_tokens: number(exit[3]!),
        requests: 0,
      }),
    ]
  }
  const used = lastMatch(output, /^tokens used:?[ \t]*\r?\n?[ \t]*(\d[\d,]*)[ \t]*\r?$/gm)
  if (!used) return null
  return [
    sample('openai', model, context, {
      input_tokens: 0,
      cached_input_tokens: 0,
      output_tokens: 0,
      unsplit_tokens: number(used[1]!),
      requests: 0,
    }),
  ]
}

/** The JSON object that follows the last occurrence of `key` (a pretty-printed or a one-line object). */
function objectAfter(text: string, key: string): Record<string, unknown> | null {
  const at = text.lastIndexOf(key)
  if (at === -1) return null
  const start = text.indexOf('{', at + key.length)
  if (start === -1 || text.slice(at + key.length, start).trim() !== '') return null
  const end = closingBrace(text, start)
  return end === -1 ? null : parse(text.slice(start, end + 1))
}

/** Where the object opened at `start` closes, strings and their escapes skipped; -1 if it never does. */
function closingBrace(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return i
  }
  return -1
}

function numberAfter(text: string, key: string, near: number): number | null {
  const at = text.indexOf(key, Math.max(0, near))
  if (at === -1) return null
  const match = /^\s*(\d+)/.exec(text.slice(at + key.length, at + key.length + 24))
  return match ? Number(match[1]) : null
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A token count as printed: a non-negative safe integer, anything else 0. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0
}

/** "1,220" → 1220. */
function number(digits: string): number {
  return Number(digits.replace(/,/g, ''))
}

function lastMatch(text: string, pattern: RegExp): RegExpMatchArray | null {
  let last: RegExpMatchArray | null = null
  for (const match of text.matchAll(pattern)) last = match
  return last
}

function modelFromArgv(argv: readonly string[] | undefined): string | null {
  if (!argv) return null
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if ((arg === '-m' || arg === '--model') && argv[i + 1]) return argv[i + 1]!
    if (arg.startsWith('--model=')) return arg.slice('--model='.length)
  }
  return null
}
