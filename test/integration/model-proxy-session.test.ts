// A session's side of the metering proxy: what the agent's environment holds afterwards, and when the proxy
// is not started (no key, Vertex AI) or cannot be (a budget without it).
import { afterEach, describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { startSessionProxy, type SessionProxy } from '../../src/proxy/session-proxy.js'
import { UsageMeter } from '../../src/usage/meter.js'
import { knownSecrets } from '../../src/policy/secrets/known.js'

const proxies: SessionProxy[] = []
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close()
})

function start(yml: Record<string, unknown>, base: Record<string, string | undefined>) {
  const agentEnv: Record<string, string | undefined> = { ...base }
  const warnings: string[] = []
  const started = startSessionProxy({
    config: configSchema.parse(yml),
    base,
    agentEnv,
    meter: new UsageMeter(),
    round: () => 1,
    startedAt: Date.now(),
    onWarning: (w) => warnings.push(w),
    onBudgetWarning: () => undefined,
    onStop: () => undefined,
  }).then((p) => {
    if (p) proxies.push(p)
    return p
  })
  return { started, agentEnv, warnings }
}

describe('startSessionProxy', () => {
  it('gives the agent a placeholder and the proxy; the upstream is the base URL proctor was given', async () => {
    const base = {
      OPENAI_API_KEY: 'sk-real-0123456789abcdef',
      CODEX_API_KEY: 'sk-real-0123456789abcdef',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    }
    const { started, agentEnv } = start({ model_api: { proxy: true, api: 'openai' } }, base)
    const proxy = (await started)!
    expect(proxy.upstream).toBe('http://127.0.0.1:9/v1')
    expect(agentEnv.OPENAI_API_KEY).toMatch(/^proctor-session-[0-9a-f]{48}$/)
    expect(agentEnv.CODEX_API_KEY).toBe(agentEnv.OPENAI_API_KEY)
    expect(agentEnv.OPENAI_BASE_URL).toBe(proxy.url)
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(Object.values(agentEnv)).not.toContain('sk-real-0123456789abcdef')
    expect(base).not.toHaveProperty('OPENAI_API_KEY')
    // Withheld from every environment, the key is still one the content scan knows.
    expect(knownSecrets({})).toContainEqual({ name: 'OPENAI_API_KEY', value: 'sk-real-0123456789abcdef' })
    // Codex is pointed at the proxy by arguments on every run; other programs by OPENAI_BASE_URL.
    expect(proxy.command({ file: '/usr/bin/codex', args: ['exec', 'hi'] })).toEqual({
      file: '/usr/bin/codex',
      args: [
        'exec',
        'hi',
        '-c',
        'model_provider="proctor"',
        '-c',
        'model_providers.proctor.name="proctor"',
        '-c',
        `model_providers.proctor.base_url="${proxy.url}"`,
        '-c',
        'model_providers.proctor.wire_api="responses"',
        '-c',
        'model_providers.proctor.env_key="OPENAI_API_KEY"',
      ],
    })
    expect(proxy.command({ file: 'python', args: ['agent.py'] })).toEqual({
      file: 'python',
      args: ['agent.py'],
    })
  })

  it('leaves the agent alone, with a warning, without a key or with Vertex AI; a budget then is an error', async () => {
    const none = start({ model_api: { proxy: true, api: 'anthropic' } }, { CLAUDE_CODE_OAUTH_TOKEN: 'x' })
    expect(await none.started).toBeNull()
    expect(none.warnings).toEqual([
      'model_api.proxy: no ANTHROPIC_API_KEY in the environment, so the agent talks to the model API directly (unmetered)',
    ])
    const vertex = start(
      { model_api: { proxy: true, api: 'gemini' } },
      { GEMINI_API_KEY: 'g', GOOGLE_GENAI_USE_VERTEXAI: 'true' },
    )
    expect(await vertex.started).toBeNull()
    expect(vertex.agentEnv.GEMINI_API_KEY).toBe('g')
    expect(vertex.warnings[0]).toContain('Vertex AI')
    await expect(start({ budget: { tokens: 10 } }, {}).started).rejects.toThrow(
      'budget needs the metering proxy: set model_api.proxy: true',
    )
    await expect(
      start({ model_api: { proxy: true, api: 'anthropic' }, budget: { requests: 1 } }, {}).started,
    ).rejects.toThrow('a budget needs the proxy')
  })
})
