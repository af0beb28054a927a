// The session's metering proxy for the model APIs (model_api, budget; src/proxy/): started before anything
// that sees the agent's environment, since it swaps the model key there for its placeholder. Its stop (a
// spent budget, a refused key) halts the session.
import { hasBudget } from '../proxy/budget.js'
import type { SessionProxy } from '../proxy/session-proxy.js'
import type { SessionContext } from './context.js'

/** Starts model_api's metering proxy for the session, or null when it is off. */
export async function startModelApiProxy(ctx: SessionContext): Promise<SessionProxy | null> {
  const { opts, config, report } = ctx
  if (!config.model_api.proxy && !hasBudget(config)) return null
  // Deferred: the proxy (its server, the usage readers, the API table) costs 30–50 ms to load, and only a
  // session with model_api.proxy or a budget runs it.
  const { startSessionProxy } = await import('../proxy/session-proxy.js')
  return startSessionProxy({
    config,
    base: opts.env ?? process.env,
    agentEnv: ctx.env,
    meter: ctx.usage.meter,
    pricer: ctx.usage.pricer,
    ...(opts.batchUsage ? { batch: opts.batchUsage } : {}),
    round: () => ctx.round,
    startedAt: Date.now(),
    onWarning: (reason) => report.event('warning', reason),
    onBudgetWarning: (reason) => report.event('budget', reason),
    onStop: (stop) => ctx.halts.proxyStopped(stop),
  })
}
