// A session's budget (proctor.yml `budget`): limits on USD (an estimate from the usage helper's price table),
// tokens (input + output) and model requests, checked against the session's one usage tally. The proxy asks
// before it forwards a model call and after each one ends.
import type { Config } from '../config/schema.js'
import type { Pricer, UsageTotals } from '../usage/types.js'

/** Whether proctor.yml sets any budget limit. */
export function hasBudget(config: Config): boolean {
  const b = config.budget
  return b.usd !== undefined || b.tokens !== undefined || b.requests !== undefined
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

export class Budget {
  readonly #limits: BudgetLimits
  readonly #pricer: Pricer | undefined
  #warned = false

  constructor(limits: BudgetLimits, pricer?: Pricer) {
    this.#limits = limits
    this.#pricer = pricer
  }

  /** Whether any limit is set: without one the proxy only meters. */
  get active(): boolean {
    const l = this.#limits
    return l.usd !== null || l.tokens !== null || l.requests !== null
  }

  /**
   * The state after `totals`: spent once a limit is reached (no further request may start), a warning the
   * first time a limit's warn_at share is crossed, else ok. A USD limit counts only while every request's
   * model has a known price (cost_usd not null): a session is never stopped on a guessed cost.
   */
  check(totals: UsageTotals): BudgetState {
    const spent = this.#measures(totals).find((m) => m.used >= m.limit)
    if (spent)
      return {
        kind: 'spent',
        reason: `budget reached: ${spent.show(spent.used)} of ${spent.show(spent.limit)} (budget.${spent.name})`,
      }
    if (this.#warned) return { kind: 'ok' }
    const near = this.#measures(totals).find((m) => m.used >= m.limit * this.#limits.warn_at)
    if (near) {
      this.#warned = true
      return {
        kind: 'warn',
        reason: `${Math.round((near.used / near.limit) * 100)}% of the budget used: ${near.show(near.used)} of ${near.show(near.limit)} (budget.${near.name})`,
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
