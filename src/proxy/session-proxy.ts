// A session's side of the metering proxy (model_api in proctor.yml): takes the real model key out of the
// environment the agent and its hooks get (and out of proctor's own /proc/<pid>/environ, which the agent,
// running as the same user, could read), starts the proxy with it, and points the agent at the proxy with a
// per-session placeholder key instead. docs/agents.md#the-model-api-proxy says what this protects and not.
import type { Config } from '../config/schema.js'
import type { CommandSpec } from '../supervisor/types.js'
import { withholdVariables } from '../supervisor/agent-env.js'
import type { UsageMeter } from '../usage/meter.js'
import type { Pricer } from '../usage/types.js'
import { randomHex } from '../util/random.js'
import { registerKnownSecrets } from '../policy/secrets/known.js'
import { API_SPECS } from './apis.js'
import { Budget, hasBudget, limitsOf } from './budget.js'
import { ancestorsHolding, holderWarning } from './key-exposure.js'
import { startModelProxy, type ModelProxy, type ProxyStop } from './server.js'

type Env = Record<string, string | undefined>

export interface SessionProxyOptions {
  config: Config
  /** proctor's environment, where the real key and any base URL are read. */
  base: Env
  /** The agent's and hooks' environment: the key is replaced by the placeholder, the base URL by the proxy's. */
  agentEnv: Env
  meter: UsageMeter
  pricer?: Pricer
  /** The batch this session is part of: its tally and its budget (budget.batch), shared by every session. */
  batch?: { meter: UsageMeter; budget: Budget }
  round: () => number
  startedAt: number
  onWarning: (reason: string) => void
  /** A budget limit's warn_at share was crossed. */
  onBudgetWarning: (reason: string) => void
  onStop: (stop: ProxyStop) => void
}

export type SessionProxy = ModelProxy & {
  api: string
  upstream: string
  /** The agent's command with what points it at the proxy (Codex's provider), for each run and re-run. */
  command(command: CommandSpec): CommandSpec
}

/** Keys already taken out of proctor's environment (a batch's later sessions need them too). */
const held = new Map<string, string>()

/**
 * Starts the proxy when model_api.proxy is on and a key is there to hold; null (with the reason passed to
 * `onWarning`) when it is on but there is no key: the agent may sign in otherwise (Claude's OAuth token) and
 * talks to its API directly. A budget cannot be kept without the proxy: that is an error.
 */
export async function startSessionProxy(opts: SessionProxyOptions): Promise<SessionProxy | null> {
  const { config } = opts
  const budgeted = hasBudget(config)
  if (!config.model_api.proxy) {
    if (budgeted)
      throw new Error(
        'budget needs the metering proxy: set model_api.proxy: true and model_api.api (or use an agent preset)',
      )
    return null
  }
  const api = config.model_api.api
  if (!api)
    throw new Error(
      'model_api.proxy needs model_api.api: anthropic, openai or gemini (the agent presets set it)',
    )
  const spec = API_SPECS[api]
  const elsewhere = spec.elsewhere?.(opts.base) ?? null
  if (elsewhere) {
    const reason = `model_api.proxy: ${elsewhere}, so the agent talks to the model API directly (unmetered)`
    if (budgeted) throw new Error(`${reason}; a budget needs the proxy`)
    opts.onWarning(reason)
    return null
  }
  const taken = withholdVariables(spec.keyEnv, opts.base)
  if (opts.base !== process.env) withholdVariables(spec.keyEnv)
  for (const [name, value] of Object.entries(taken.values)) held.set(name, value)
  // Out of every environment now, so the content scan would no longer see it there: a file the agent writes
  // with the key in it is still a secret_content violation (docs/policy.md).
  registerKnownSecrets(taken.values)
  const keyName = spec.keyEnv.find((name) => held.has(name))
  if (!keyName) {
    const reason = `model_api.proxy: no ${spec.keyEnv.join(' or ')} in the environment, so the agent talks to the model API directly (unmetered)`
    if (budgeted) throw new Error(`${reason}; a budget needs the proxy`)
    opts.onWarning(reason)
    return null
  }
  const upstream =
    config.model_api.upstream ??
    spec.baseUrlEnv.map((name) => opts.base[name]).find((value) => value) ??
    spec.defaultUpstream
  const placeholder = `proctor-session-${randomHex(24)}`
  const proxy = await startModelProxy({
    api,
    upstream,
    key: held.get(keyName)!,
    placeholder,
    retries: config.model_api.retries,
    meter: opts.meter,
    ...(opts.batch ? { alsoMeters: [opts.batch.meter] } : {}),
    budgets: [
      new Budget(limitsOf(config.budget, config.budget.warn_at), {
        meter: opts.meter,
        ...(opts.pricer ? { pricer: opts.pricer } : {}),
      }),
      ...(opts.batch ? [opts.batch.budget] : []),
    ],
    round: opts.round,
    startedAt: opts.startedAt,
    onWarning: opts.onBudgetWarning,
    onStop: opts.onStop,
  })
  // Every variable a CLI may read its key from holds the placeholder (Codex reads CODEX_API_KEY in exec mode,
  // OPENAI_API_KEY otherwise); every base-URL variable names the proxy.
  for (const name of spec.keyEnv) {
    if (held.has(name) || opts.agentEnv[name] !== undefined) opts.agentEnv[name] = placeholder
  }
  for (const name of spec.baseUrlEnv) opts.agentEnv[name] = proxy.url
  // A CLI told by arguments where its provider is reads the key from OPENAI_API_KEY (agentArgs).
  if (spec.agentArgs) opts.agentEnv[spec.keyEnv[0]!] = placeholder
  if (taken.problem && process.platform === 'linux')
    opts.onWarning(`the model key could not be removed from proctor's /proc environment: ${taken.problem}`)
  // A wrapper that started proctor keeps the key where the agent can read it: say so, it cannot be undone.
  for (const holder of ancestorsHolding([...new Set(held.values())])) opts.onWarning(holderWarning(holder))
  const command = (c: CommandSpec): CommandSpec =>
    'shell' in c || !spec.agentArgs
      ? c
      : { file: c.file, args: [...c.args, ...spec.agentArgs(c.file, proxy.url)] }
  return { ...proxy, api, upstream, command }
}
