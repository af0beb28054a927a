// The content scan's parts (src/policy/secrets): the prefilter in front of secretlint lets through a sample
// of every rule of the preset that secretlint itself reports (it is a superset, so it never hides a
// secret), and keeps ordinary source away from it; known values are found as they are, encoded, and in parts.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { lintSource } from '@secretlint/core'
import { rules } from '@secretlint/secretlint-rule-preset-recommend'
import { describe, expect, it } from 'vitest'
import { KnownValues } from '../../src/policy/secrets/known.js'
import { findByRules, mayHoldToken } from '../../src/policy/secrets/rules.js'

/** Deterministic filler from an alphabet (no real credential anywhere). */
const r = (n: number, chars = 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz') =>
  Array.from({ length: n }, (_, i) => chars[(i * 7 + 3) % chars.length]).join('')
const hex = (n: number) => r(n, '0a1b2c3d4e5f6789')
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const pemBody = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC${r(200, B64)}`
const pem = `-----BEGIN PRIVATE KEY-----\n${pemBody.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----`

/** A 1Password service account token: base64 of JSON, ending in `fQ` (a `}` alone in its last group). */
function onePassword(): string {
  for (let pad = 0; ; pad++) {
    const json = JSON.stringify({
      email: 'bot@1passwordserviceaccounts.lcl',
      secretKey: r(60 + pad),
      srpX: hex(64),
    })
    if (json.length % 3 === 1) return Buffer.from(json).toString('base64')
  }
}

/** One sample per rule of the preset, each written the way the rule looks for it. */
const SAMPLES: Record<string, string> = {
  aws: 'aws_access_key_id = AKIAZ7Q3M5N8P2R4T6V1',
  'aws secret key': `aws_secret_access_key = "${r(40, B64)}"`,
  'aws account id': 'aws_account_id = "1234-5678-9012"',
  gcp: JSON.stringify({ type: 'service_account', private_key_id: hex(40), private_key: `${pem}\n` }),
  privatekey: pem,
  npm: `token = npm_${r(36)}`,
  'npm authToken': `//registry.npmjs.org/:_authToken=${r(36)}`,
  basicauth: 'url = "https://deploy:Sup3rS3cretW0rd@internal.example.org/"',
  slack: `xoxb-123456789012-1234567890123-${r(24)}`,
  sendgrid: `SG.${r(22)}.${r(43)}`,
  shopify: `shpat_${hex(32)}`,
  stripe: `sk_live_${r(24)}`,
  github: `ghp_${r(36)}`,
  gitlab: `glpat-${r(20)}`,
  grafana: `glsa_${r(32, 'ABCDEFGHabcdefgh0123456789')}_${hex(8)}`,
  openai: `sk-proj-${r(74, `${B64.slice(0, 62)}_-`)}T3BlbkFJ${r(74, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
  anthropic: `sk-ant-api03-${r(93)}AA`,
  groq: `gsk_${r(52)}`,
  huggingface: `hf_${r(34, 'abcdefghijklmnopqrstuvwxyzABCDEFGH')}`,
  linear: `lin_api_${r(40)}`,
  notion: `ntn_12345678901${r(35)}`,
  'database-connection-string': 'DATABASE_URL=postgres://admin:Xk9mQ2vL7pR4@db.internal.example.com:5432/app',
  'hashicorp-vault': `hvs.${r(100)}`,
  vercel: `vcp_${r(24)}`,
  databricks: `dapi${hex(32)}`,
  docker: `dckr_pat_${r(27)}`,
  figma: `figd_${r(44)}`,
  cloudflare: `cfut_${r(40)}${hex(8)}`,
  tailscale: `tskey-api-${r(12)}-${r(24)}`,
  '1password': `ops_${onePassword()}`,
}

const everyRule = {
  rules: rules
    .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
    .map((rule) => ({ id: rule.meta.id, rule })),
}

describe('the prefilter in front of secretlint', () => {
  it('has a sample for every rule of the preset (a new rule needs one, and a look at PREFILTER)', () => {
    const covered = new Set(Object.keys(SAMPLES).map((name) => name.split(' ')[0]))
    const missing = rules
      .map((rule) => rule.meta.id.replace('@secretlint/secretlint-rule-', ''))
      .filter((id) => id !== 'filter-comments' && !covered.has(id))
    expect(missing).toEqual([])
  })

  it.each(Object.entries(SAMPLES))(
    'lets %s through, and finds what secretlint alone finds',
    async (name, text) => {
      expect(mayHoldToken(text)).toBe(true)
      const alone = await lintSource({
        source: { filePath: '/x/a.txt', content: text, contentType: 'text', ext: '.txt' },
        options: { config: everyRule, noPhysicFilePath: true },
      })
      const found = await findByRules('a.txt', text)
      expect(found?.rule ?? null).toBe(alone.messages[0]?.ruleId ?? null)
      if (found) expect(JSON.stringify(found)).not.toContain(text.slice(-12))
    },
  )

  it('keeps ordinary source away from secretlint', () => {
    for (const file of ['src/checkpoints/store.ts', 'src/policy/evaluate.ts', 'src/supervisor/process.ts']) {
      expect(mayHoldToken(readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8')), file).toBe(
        false,
      )
    }
  })
})

describe('known values', () => {
  const token = 'Zq7mW2xK9vB4nR8tL1yH6cJ3dF5gS0pAeUoIiQw'
  const known = new KnownValues([{ name: 'GITHUB_TOKEN', value: token }])

  it('are found as they are, base64 at any offset, URL-encoded, and in parts of 17 characters or more', () => {
    expect(known.find(`x\ny=${token}`)).toEqual({
      rule: 'known-value',
      what: 'the value of GITHUB_TOKEN, as it is',
      line: 2,
    })
    for (const prefix of ['', 'a', 'ab', 'user:'])
      expect(known.find(Buffer.from(`${prefix}${token}!`).toString('base64'))?.what).toBe(
        'the value of GITHUB_TOKEN, base64-encoded',
      )
    expect(known.find(`"${token.slice(3, 20)}"`)?.what).toBe('a part of the value of GITHUB_TOKEN, as it is')
    expect(known.find(`"${token.slice(3, 18)}"`)).toBeNull()
    expect(
      known.find(readFileSync(resolve(import.meta.dirname, '../../src/checkpoints/store.ts'), 'utf8')),
    ).toBeNull()
  })
})

describe('which values proctor holds', () => {
  it('credential-named variables of its environment, not addresses named like them', async () => {
    const { knownSecrets } = await import('../../src/policy/secrets/known.js')
    const names = knownSecrets({
      ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdef',
      GH_TOKEN: 'gho_0123456789abcdef',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://pipelines.actions.example.com/abc',
      HOME: '/home/someone/far/away',
      SHORT_TOKEN: 'abc',
    }).map((k) => k.name)
    expect(names).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'GH_TOKEN']))
    expect(names).not.toContain('ACTIONS_ID_TOKEN_REQUEST_URL')
    expect(names).not.toContain('HOME')
    expect(names).not.toContain('SHORT_TOKEN')
  })
})
