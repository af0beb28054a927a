// What a model's tokens cost, in USD per million, and the Pricer the report's cost estimate uses. The built-in
// table is a list price snapshot: a cost shown from it is always marked an estimate, proctor.yml's `pricing`
// overrides it (a negotiated rate, a model the table does not know), and a model found nowhere has no cost
// ("cost unknown"), never a guess from a similar name.
import type { Config } from '../config/schema.js'
import type { Pricer, UsageSample } from './types.js'

/** USD per million tokens. cached_input and cache_write default to the input price. */
export interface ModelPrice {
  input: number
  output: number
  /** Input tokens read from the prompt cache. */
  cached_input?: number
  /** Input tokens written to the prompt cache (Anthropic; OpenAI's GPT-5.6 family). */
  cache_write?: number
}

/** The date the built-in prices were checked. */
export const PRICES_CHECKED = '2026-11-29'

// Sources, read on PRICES_CHECKED:
// - Anthropic: the model catalog baked into the pinned Claude Code 2.1.330 (its `pricing_tiers`: input,
//   output, cache_write_5m, cache_read), which is also what its own total_cost_usd is computed from.
// - OpenAI and Google: GitHub's per-token price list for the models Copilot offers
//   (github/docs data/tables/copilot/models-and-pricing.yml, commit 024f6b0), which quotes the providers' list
//   prices; models it does not list (gpt-5, gpt-5.1 and their codex variants, the Gemini 2.5 family) at their
//   providers' pricing pages (developers.openai.com/api/docs/pricing, ai.google.dev/gemini-api/docs/pricing).
// Standard tier only: long-context tiers (OpenAI above 272K, Gemini Pro above 200K prompt tokens) and batch or
// priority processing are not modelled, so a cost from prompts that long is understated.
// Keys are model ids as the APIs name them; a dated snapshot (claude-sonnet-4-5-20250929,
// gpt-5-2025-08-07) is priced as its base id.
const p = (input: number, output: number, cached_input: number, cache_write?: number): ModelPrice =>
  cache_write === undefined ? { input, output, cached_input } : { input, output, cached_input, cache_write }

export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  // Anthropic (cached_input: cache_read; cache_write: the 5-minute cache write)
  'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
  'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
  'claude-haiku-5-5': p(0.1, 0.5, 0.01, 0.125),
  'claude-3-5-sonnet': p(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4-0': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4-5': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4-6': p(3, 15, 0.3, 3.75),
  'claude-sonnet-5': p(2, 10, 0.2, 2.5),
  'claude-sonnet-5-5': p(2, 10, 0.1, 2.5),
  'claude-opus-4': p(15, 75, 1.5, 18.75),
  'claude-opus-4-0': p(15, 75, 1.5, 18.75),
  'claude-opus-4-1': p(15, 75, 1.5, 18.75),
  'claude-opus-4-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-6': p(5, 25, 0.5, 6.25),
  'claude-opus-4-7': p(5, 25, 0.5, 6.25),
  'claude-opus-4-8': p(5, 25, 0.5, 6.25),
  'claude-opus-5': p(5, 25, 0.5, 6.25),
  'claude-opus-5-5': p(4, 20, 0.2, 5),
  'claude-fable-5': p(10, 50, 1, 12.5),
  'claude-fable-5-1': p(10, 50, 0.25, 12.5),
  'claude-fable-5-2': p(8, 40, 0.2, 10),
  'claude-mythos-5': p(10, 50, 1, 12.5),
  'claude-mythos-5-1': p(10, 50, 0.25, 12.5),
  'claude-mythos-5-2': p(8, 40, 0.2, 10),
  // OpenAI
  'gpt-5': p(1.25, 10, 0.125),
  'gpt-5-codex': p(1.25, 10, 0.125),
  'gpt-5-mini': p(0.25, 2, 0.025),
  'gpt-5-nano': p(0.05, 0.4, 0.005),
  'gpt-5.1': p(1.25, 10, 0.125),
  'gpt-5.1-codex': p(1.25, 10, 0.125),
  'gpt-5.1-codex-max': p(1.25, 10, 0.125),
  'gpt-5.1-codex-mini': p(0.25, 2, 0.025),
  'gpt-5.2': p(1.75, 14, 0.175),
  'gpt-5.2-codex': p(1.75, 14, 0.175),
  'gpt-5.3-codex': p(1.75, 14, 0.175),
  'gpt-5.4': p(2.5, 15, 0.25),
  'gpt-5.4-mini': p(0.75, 4.5, 0.075),
  'gpt-5.4-nano': p(0.2, 1.25, 0.02),
  'gpt-5.5': p(5, 30, 0.5),
  'gpt-5.6-luna': p(0.2, 1.2, 0.02, 0.25),
  'gpt-5.6-sol': p(5, 30, 0.5, 6.25),
  'gpt-5.6-terra': p(2, 12, 0.2, 2.5),
  // Google
  'gemini-2.5-pro': p(1.25, 10, 0.125),
  'gemini-2.5-flash': p(0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': p(0.1, 0.4, 0.01),
  'gemini-3-pro-preview': p(2, 12, 0.2),
  'gemini-3.1-pro-preview': p(2, 12, 0.2),
  'gemini-3-flash-preview': p(0.5, 3, 0.05),
  'gemini-3.5-flash': p(1.5, 9, 0.15),
}

/** proctor.yml `pricing`: model id or glob (`*` matches any run of characters) → price. */
export type PriceOverrides = Readonly<Record<string, ModelPrice>>

/** USD for one sample at a price (tokens not split into input and output: no cost). */
export function costOf(sample: UsageSample, price: ModelPrice): number | null {
  if ((sample.unsplit_tokens ?? 0) > 0) return null
  const cached = sample.cached_input_tokens
  const written = sample.cache_write_input_tokens ?? 0
  const plain = Math.max(0, sample.input_tokens - cached - written)
  const usd =
    plain * price.input +
    cached * (price.cached_input ?? price.input) +
    written * (price.cache_write ?? price.input) +
    sample.output_tokens * price.output
  return usd / 1_000_000
}

/**
 * The session's Pricer: proctor.yml's `pricing` first (the user's word), then what the agent CLI said its
 * usage cost (Claude Code prices from its own catalog, cache writes and long prompts included), then the
 * built-in table; null when none knows the model.
 */
export function pricerFor(config: { pricing?: Config['pricing'] }): Pricer {
  const overrides = config.pricing ?? {}
  return (sample) => {
    const override = lookup(baseId(sample.model), overrides) ?? lookup(sample.model.toLowerCase(), overrides)
    if (override) return costOf(sample, override)
    if (sample.reported_cost_usd !== undefined && Number.isFinite(sample.reported_cost_usd))
      return sample.reported_cost_usd
    const builtIn = BUILT_IN_PRICES[undated(baseId(sample.model))]
    return builtIn ? costOf(sample, builtIn) : null
  }
}

/** The id without a provider or path prefix ("models/gemini-2.5-pro", "openai/gpt-5"), lower-cased. */
function baseId(model: string): string {
  return (model.split('/').pop() ?? model).trim().toLowerCase()
}

/** A dated snapshot's base id: "-20250929" or "-2025-08-07" at the end removed. */
function undated(id: string): string {
  return id.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, '')
}

function lookup(id: string, overrides: PriceOverrides): ModelPrice | null {
  let best: { pattern: string; price: ModelPrice } | null = null
  for (const [pattern, price] of Object.entries(overrides)) {
    const key = pattern.toLowerCase()
    if (key === id) return price
    if (!key.includes('*') || !globMatches(key, id)) continue
    // The most specific glob wins: the one with the most characters that are not wildcards.
    if (!best || key.replace(/\*/g, '').length > best.pattern.replace(/\*/g, '').length)
      best = { pattern: key, price }
  }
  return best?.price ?? null
}

function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.split('*')
  const first = parts[0]!
  const last = parts[parts.length - 1]!
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last))
    return false
  let at = first.length
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at)
    if (found === -1 || found + part.length > text.length - last.length) return false
    at = found + part.length
  }
  return true
}
