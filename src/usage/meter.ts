// The session's one tally of model usage: the metering proxy and the CLI-output readers add samples, the
// budget and the report read totals.
import type { Pricer, UsageSample, UsageTotals } from './types.js'

export class UsageMeter {
  readonly #samples: UsageSample[] = []
  #inFlight = 0

  /**
   * Model calls forwarded and not yet added: a budget on requests counts them, so calls sent at once cannot
   * all pass a check made before any of them ended.
   */
  get inFlight(): number {
    return this.#inFlight
  }

  /** One more call is in flight; the returned function (idempotent) ends that. */
  begin(): () => void {
    this.#inFlight++
    let open = true
    return () => {
      if (open) this.#inFlight--
      open = false
    }
  }

  add(sample: UsageSample): void {
    this.#samples.push(sample)
  }

  samples(): readonly UsageSample[] {
    return this.#samples
  }

  totals(pricer?: Pricer, filter: (sample: UsageSample) => boolean = () => true): UsageTotals {
    return totalsOf(this.#samples.filter(filter), pricer)
  }
}

export function totalsOf(samples: readonly UsageSample[], pricer?: Pricer): UsageTotals {
  let cost: number | null = 0
  const totals = { requests: 0, input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, tokens: 0 }
  for (const sample of samples) {
    totals.requests += sample.requests ?? 1
    totals.input_tokens += sample.input_tokens
    totals.output_tokens += sample.output_tokens
    totals.cached_input_tokens += sample.cached_input_tokens
    totals.tokens += sample.input_tokens + sample.output_tokens + (sample.unsplit_tokens ?? 0)
    const price = pricer ? pricer(sample) : null
    cost = cost === null || price === null ? null : cost + price
  }
  return { ...totals, cost_usd: samples.length === 0 ? 0 : cost }
}
