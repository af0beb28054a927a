// The report's usage section from the meter's samples: totals, by model and by round, priced by the session's
// Pricer. Nothing here renders; report/words.ts says it in one line.
import type { UsageFigures, UsageReport } from '../report/model.js'
import { totalsOf } from './meter.js'
import type { Pricer, UsageSample } from './types.js'

/** The usage section, or undefined when no sample was recorded. */
export function usageReport(all: readonly UsageSample[], pricer: Pricer): UsageReport | undefined {
  // The proxy saw every request on the wire: what the CLI printed about the same requests would count them twice.
  const proxy = all.some((s) => s.source === 'proxy')
  const samples = proxy ? all.filter((s) => s.source === 'proxy') : all
  if (samples.length === 0) return undefined
  const byModel = groupBy(samples, (s) => `${s.api}\u0000${s.model}`)
  const byRound = groupBy(samples, (s) => s.round)
  return {
    ...figures(samples, pricer),
    estimated: true,
    source: proxy ? 'proxy' : 'cli',
    by_model: [...byModel.values()].map((group) => ({
      api: group[0]!.api,
      model: group[0]!.model,
      ...figures(group, pricer),
    })),
    by_round: [...byRound.entries()]
      .sort(([a], [b]) => a - b)
      .map(([round, group]) => ({ round, ...figures(group, pricer) })),
  }
}

/** Figures summed over several (a batch's sessions); cost null when any is unknown. */
export function sumFigures(parts: readonly UsageFigures[]): UsageFigures {
  const sum: UsageFigures = {
    requests: 0,
    tokens: 0,
    input_tokens: 0,
    output_tokens: 0,
    cached_input_tokens: 0,
    cost_usd: 0,
  }
  for (const part of parts) {
    sum.requests += part.requests
    sum.tokens += part.tokens
    sum.input_tokens += part.input_tokens
    sum.output_tokens += part.output_tokens
    sum.cached_input_tokens += part.cached_input_tokens
    sum.cost_usd = sum.cost_usd === null || part.cost_usd === null ? null : sum.cost_usd + part.cost_usd
  }
  return { ...sum, cost_usd: sum.cost_usd === null ? null : roundUsd(sum.cost_usd) }
}

function figures(samples: readonly UsageSample[], pricer: Pricer): UsageFigures {
  const t = totalsOf(samples, pricer)
  return {
    requests: t.requests,
    tokens: t.tokens,
    input_tokens: t.input_tokens,
    output_tokens: t.output_tokens,
    cached_input_tokens: t.cached_input_tokens,
    cost_usd: t.cost_usd === null ? null : roundUsd(t.cost_usd),
  }
}

/** To a millionth of a dollar: float sums of many small prices leave noise in the last digits. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6
}

function groupBy<K>(samples: readonly UsageSample[], key: (s: UsageSample) => K): Map<K, UsageSample[]> {
  const groups = new Map<K, UsageSample[]>()
  for (const s of samples) {
    const k = key(s)
    const group = groups.get(k)
    if (group) group.push(s)
    else groups.set(k, [s])
  }
  return groups
}

/**
 * The action's `tokens` and `cost-usd` step outputs: every token counted, and the estimated USD; each empty
 * when not known (no usage, or a model without a price).
 */
export function usageOutputs(usage: UsageFigures | undefined): { tokens: string; 'cost-usd': string } {
  return {
    tokens: usage ? String(usage.tokens) : '',
    'cost-usd': usage && usage.cost_usd !== null ? String(usage.cost_usd) : '',
  }
}
