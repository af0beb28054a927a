// What the agent and its hooks inherit: never the runner's tokens or the step files that steer later
// steps, unless proctor.yml passes a name through; and proctor's own token travels per git command.
import { describe, it, expect } from 'vitest'
import { spawnSync } from 'node:child_process'
import { agentEnvironment, isWithheld } from '../../src/supervisor/agent-env.js'
import { configEnv, persistedCredentialKeys, tokenHeaderConfig } from '../../src/git/credentials.js'
import { pushCredential, tokenRepository } from '../../src/action/hygiene.js'
import { configSchema } from '../../src/config/schema.js'

const runner = {
  PATH: '/usr/bin',
  HOME: '/home/runner',
  GITHUB_REPOSITORY: 'acme/widgets',
  GITHUB_STEP_SUMMARY: '/tmp/summary',
  'INPUT_GITHUB-TOKEN': 'ghs_input',
  INPUT_COMMAND: 'claude -p hi',
  ACTIONS_RUNTIME_TOKEN: 'runtime',
  ACTIONS_RUNTIME_URL: 'https://runtime/',
  ACTIONS_RESULTS_URL: 'https://results/',
  ACTIONS_CACHE_URL: 'https://cache/',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc/',
  GITHUB_TOKEN: 'ghs_env',
  GH_TOKEN: 'ghs_gh',
  GITHUB_ENV: '/tmp/env',
  GITHUB_PATH: '/tmp/path',
  GITHUB_OUTPUT: '/tmp/output',
  GITHUB_STATE: '/tmp/state',
  ANTHROPIC_API_KEY: 'sk-ant-agent-needs-this',
}

describe('agentEnvironment', () => {
  it('drops every runner token, service URL and step file; keeps the rest (the agent API key too)', () => {
    expect(Object.keys(agentEnvironment(runner)).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'GITHUB_REPOSITORY',
      'GITHUB_STEP_SUMMARY',
      'HOME',
      'PATH',
    ])
  })

  it('passes through exactly the names agent.env_passthrough lists', () => {
    const env = agentEnvironment(runner, ['GH_TOKEN'])
    expect(env.GH_TOKEN).toBe('ghs_gh')
    expect(env.GITHUB_TOKEN).toBeUndefined()
    expect(isWithheld('ACTIONS_ID_TOKEN_REQUEST_URL')).toBe(true)
    expect(configSchema.parse({ agent: { env_passthrough: ['GH_TOKEN'] } }).agent.env_passthrough).toEqual([
      'GH_TOKEN',
    ])
    expect(() => configSchema.parse({ agent: { env_passthrough: ['A=B'] } })).toThrow()
  })
})

describe('withholdSecrets', () => {
  it("takes the tokens out of process.env AND out of this process's /proc/self/environ", () => {
    // A child process, so this test's own environment is left alone.
    const script = `
      const { withholdSecrets } = await import(${JSON.stringify(new URL('../../src/supervisor/agent-env.ts', import.meta.url).pathname)})
      const { readFileSync } = await import('node:fs')
      const result = withholdSecrets(process.env)
      const environ = readFileSync('/proc/self/environ', 'latin1')
      console.log(JSON.stringify({ result, env: process.env.ACTIONS_RUNTIME_TOKEN ?? null, leaked: environ.includes('s3cr3t-runtime'), kept: environ.includes('KEEP_ME=1') }))`
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, ACTIONS_RUNTIME_TOKEN: 's3cr3t-runtime', KEEP_ME: '1' },
      encoding: 'utf8',
    })
    expect(out.status, out.stderr).toBe(0)
    const seen = JSON.parse(out.stdout.trim().split('\n').pop()!) as {
      result: { values: Record<string, string>; scrubbed: boolean }
      env: string | null
      leaked: boolean
      kept: boolean
    }
    expect(seen.result.values.ACTIONS_RUNTIME_TOKEN).toBe('s3cr3t-runtime')
    expect(seen).toMatchObject({ env: null, leaked: false, kept: true, result: { scrubbed: true } })
  })
})

describe('git credentials per command', () => {
  it('a basic-auth extraheader for the host only, appended after the GIT_CONFIG_* entries already set', () => {
    const entries = tokenHeaderConfig('https://github.com/acme/widgets.git', 'ghs_x')
    expect(entries).toEqual([
      [
        'http.https://github.com/.extraheader',
        `AUTHORIZATION: basic ${Buffer.from('x-access-token:ghs_x').toString('base64')}`,
      ],
    ])
    expect(configEnv({ GIT_CONFIG_COUNT: '1' }, entries)).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_1: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_1: entries[0]![1],
    })
    expect(tokenHeaderConfig('git@github.com:acme/widgets.git', 'ghs_x')).toEqual([])
  })

  it("never sends the token to a host other than the GitHub server's", () => {
    expect(pushCredential('https://github.com/acme/w.git', 'ghs_x', 'https://github.com')).toHaveLength(1)
    expect(pushCredential('https://evil.example/acme/w.git', 'ghs_x', 'https://github.com')).toBeUndefined()
    expect(pushCredential('https://github.com/acme/w.git', '', 'https://github.com')).toBeUndefined()
  })

  it('sends the token only to the event’s repository when the remote was read after the agent ran', () => {
    const server = 'https://github.com'
    // The post step reads .git/config after the agent: it may name another repository a PAT can write.
    expect(
      pushCredential('https://github.com/mallory/loot.git', 'ghp_x', server, 'acme/widgets'),
    ).toBeUndefined()
    expect(
      pushCredential('https://github.com/acme/widgets-fork', 'ghp_x', server, 'acme/widgets'),
    ).toBeUndefined()
    expect(
      pushCredential('https://github.com/acme/widgets.git', 'ghp_x', server, 'acme/widgets'),
    ).toHaveLength(1)
    expect(pushCredential('https://github.com/Acme/Widgets/', 'ghp_x', server, 'acme/widgets')).toHaveLength(
      1,
    )
    expect(tokenRepository({}, { owner: 'acme', repo: 'widgets' })).toBe('acme/widgets')
    // The end-to-end tests' loopback git server names its repositories its own way.
    expect(
      tokenRepository({ PROCTOR_GIT_SERVER_URL: 'http://127.0.0.1:1' }, { owner: 'a', repo: 'b' }),
    ).toBeNull()
  })

  it('finds a credential actions/checkout persisted in .git/config', () => {
    const listed = 'http.https://github.com/.extraheader\nAUTHORIZATION: basic eA==\0core.bare\nfalse\0'
    expect(persistedCredentialKeys(listed)).toEqual(['http.https://github.com/.extraheader'])
    expect(persistedCredentialKeys('')).toEqual([])
  })
})
