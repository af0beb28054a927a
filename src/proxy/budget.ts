// A budget (proctor.yml `budget` for a session, `budget.batch` for a whole `proctor batch`): limits on USD
// (an estimate from the usage helper's price table), tokens (input + output) and model requests, checked
// against one usage tally (the session's, or the batch's that every session's proxy adds to). The proxy asks
// before it forwards a model call and after each one ends.
import type { Config } from '../config/schema.js'
import type { UsageMeter } from '../usage/meter.js'
import type { Pricer, UsageTotals } from '../usage/types.js'

type Limits = { usd?: number | undefined; tokens?: number | undefined; requests?: number | undefined }

const anyLimit = (b: Limits | undefined): boolean =>
  b !== undefined && (b.usd !== undefined || b.tokens !== undefined || b.requests !== undefined)

/** Whether proctor.yml sets any budget limit, for the session or the batch. */
export function hasBudget(config: Config): boolean {
  return anyLimit(config.budget) || anyLimit(config.budget.batch)
}

/** proctor.yml's limits (`budget`, or `budget.batch`) as a Budget takes them. */
export function limitsOf(b: Limits | undefined, warnAt: number): BudgetLimits {
  return { usd: b?.usd ?? null, tokens: b?.tokens ?? null, requests: b?.requests ?? null, warn_at: warnAt }
}

export interface BudgetLimits {
  usd: number | null
  tokens: number | null
  requests: number | null
  /** The share of any limit at which the session is warned once (0..1). */
  warn_at: number
}

export type BudgetState =
  { kind: 'ok' } | { kind: 'warn'; reason: string } | { kind: 'spent'; reason: string }

interface Measure {
  name: string
  limit: number
  used: number
  /** How the limit reads in a reason: "100000 tokens", "$2.00". */
  show: (n: number) => string
}

export interface Tally {
  /** The usage this budget is kept on. */
  meter: UsageMeter
  pricer?: Pricer
  /** The config key reasons name: "budget" or "budget.batch". */
  key?: string
}

export class Budget {
  readonly #limits: BudgetLimits
  readonly #meter: UsageMeter
  readonly #pricer: Pricer | undefined
  readonly #key: string
  #warned = false

  constructor(limits: BudgetLimits, tally: Tally) {
    this.#limits = limits
    this.#meter = tally.meter
    this.#pricer = tally.pricer
    this.#key = tally.key ?? 'budget'
  }

  /** Whether any limit is set: without one the proxy only meters. */
  get active(): boolean {
    const l = this.#limits
    return l.usd !== null || l.tokens !== null || l.requests !== null
  }

  /**
   * The state after `totals`: spent once a limit is reached (no further request may start), a warning the
   * first time a limit's warn_at share is crossed, else ok. A USD limit counts only while every request's
   * model has a known price (cost_usd not null): a session is never stopped on a guessed cost. Asked
   * `beforeCall`, the calls still in flight count as requests (they are spent, only not yet added).
   */
  check(beforeCall = false): BudgetState {
    if (!this.active) return { kind: 'ok' }
    const totals = this.#meter.totals(this.#pricer)
    const measures = this.#measures(totals)
    const pending = beforeCall ? this.#meter.inFlight : 0
    const spent = measures.find((m) => m.used + (m.name === 'requests' ? pending : 0) >= m.limit)
    if (spent)
      return {
        kind: 'spent',
        reason: `budget reached: ${spent.show(spent.used)} of ${spent.show(spent.limit)} (${this.#key}.${spent.name})`,
      }
    if (this.#warned) return { kind: 'ok' }
    const near = measures.find((m) => m.used >= m.limit * this.#limits.warn_at)
    if (near) {
      this.#warned = true
      return {
        kind: 'warn',
        reason: `${Math.round((near.used / near.limit) * 100)}% of the budget used: ${near.show(near.used)} of ${near.show(near.limit)} (${this.#key}.${near.name})`,
      }
    }
    return { kind: 'ok' }
  }

  #measures(totals: UsageTotals): Measure[] {
    const l = this.#limits
    const out: Measure[] = []
    if (l.tokens !== null)
      out.push({
        name: 'tokens',
        limit: l.tokens,
        used: totals.input_tokens + totals.output_tokens,
        show: (n) => `${n} tokens`,
      })
    if (l.requests !== null)
      out.push({ name: 'requests', limit: l.requests, used: totals.requests, show: (n) => `${n} requests` })
    if (l.usd !== null && this.#pricer && totals.cost_usd !== null)
      out.push({ name: 'usd', limit: l.usd, used: totals.cost_usd, show: (n) => `$${n.toFixed(2)}` })
    return out
  }
}
