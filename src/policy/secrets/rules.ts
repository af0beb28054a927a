// secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend): a maintained rule set of
// the services' own token formats (GitHub, AWS, GCP, Slack, npm, OpenAI, Anthropic, private keys, database
// URLs with passwords, ...) with their known false positives (AWS's documented example keys) left out.
// Chosen over gitleaks (a Go binary to ship, a process per scan) and over hand-written patterns (the
// sanitizer's are for redacting output, not for judging files). Its cost is per byte (each of ~30 rules
// runs its regexes over the whole text, ~8 MB/s): a checkpoint of 1,000 changed files would spend far more
// than its own time in it. So a file reaches it only when one pass of PREFILTER — the literal prefixes and
// key words every rule's pattern needs — finds something; nearly no source file does (bench/secrets.ts).
import type { ContentFinding } from './types.js'

/**
 * Something every rule of the preset needs in the text before it can match (read from the rules'
 * patterns): the token prefixes, the AWS key names, a PEM header, a URL with a user and password, the
 * database URL schemes, Slack's hooks. A superset: it may let through text no rule reports.
 */
const PREFILTER = new RegExp(
  [
    // AWS access key ids and the secret/account key names (SECRET|secret|Secret, ACCOUNT|...)
    'A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|[Ss]ecret|SECRET|[Aa]ccount|ACCOUNT',
    // PEM private keys (the GCP service account JSON holds one too)
    '-----BEGIN',
    // tokens by prefix: GitHub, GitLab, npm, Slack, OpenAI/Anthropic, Groq, Hugging Face, Linear, Notion,
    // SendGrid, Shopify, Stripe, Grafana, 1Password, Vault, Vercel, Databricks, Docker, Figma, Cloudflare,
    // Tailscale
    'gh[pousr]_|github_pat_|glpat-|npm_|_authToken|xox[bpaor]-|xapp-|sk-|gsk_|hf_|lin_api_|ntn_|SG\\.',
    'shp(?:pa|ca|at|ss)_|[sr]k_(?:live|test)_|glc_|glsa_|ops_ey|hv[sbr]\\.|vc[picark]_|dapi|dckr_pat_',
    'figd_|cf(?:k|ut|at)_|tskey-',
    // a user and password in a URL (basic auth, x-oauth-basic, database URLs)
    ':\\/\\/[^\\s/@]*:[^\\s/@]*@',
    '(?:[Hh][Oo][Oo][Kk][Ss]\\.[Ss][Ll][Aa][Cc][Kk])',
  ].join('|'),
)

type Lint = typeof import('@secretlint/core').lintSource
type LintConfig = Parameters<Lint>[0]['options']['config']
let loaded: Promise<{ lint: Lint; config: LintConfig }> | undefined

/** secretlint and the preset, loaded at the first text the prefilter lets through. */
function load() {
  loaded ??= Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]).then(([core, preset]) => ({
    lint: core.lintSource,
    config: {
      // Each rule of the preset on its own, without `filter-comments`: `secretlint-disable` comments are for
      // a project's own reviewed exceptions, and an agent must not switch the scan off by writing one next
      // to the key it adds. (A preset's `rules: [{ id, disabled: true }]` is not honoured by core 13.1.0.)
      rules: preset.rules
        .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
        .map((rule) => ({ id: rule.meta.id, rule })),
    } satisfies LintConfig,
  }))
  return loaded
}

/** Whether secretlint needs to look at `text` at all. */
export function mayHoldToken(text: string): boolean {
  return PREFILTER.test(text)
}

/** The first secret the preset finds in `text` (a file named `name`), or null. */
export async function findByRules(name: string, text: string): Promise<ContentFinding | null> {
  if (!mayHoldToken(text)) return null
  const { lint, config } = await load()
  const ext = /\.[^./]+$/.exec(name)?.[0] ?? ''
  const result = await lint({
    // The GCP rule reads a `.p12` file from disk by its name: proctor hands it the bytes it read itself
    // and no path it could open (a FIFO planted there would block it).
    source: {
      filePath: `/proctor-scan/${name}`,
      content: text,
      contentType: 'text',
      ext: ext === '.p12' ? '' : ext,
    },
    // Not maskSecrets: it masks the rule's type name too. Only the rule id, the type name and the line are
    // taken from a message; its text, which quotes the secret, is never read.
    options: { config, noPhysicFilePath: true },
  })
  const first = result.messages.find((m) => m.type === 'message')
  if (!first) return null
  const typeName = (first.data as { typeName?: unknown } | undefined)?.typeName
  return {
    rule: first.ruleId,
    what: typeof typeName === 'string' ? typeName : shortRule(first.ruleId),
    line: first.loc.start.line,
  }
}

function shortRule(id: string): string {
  return id.replace(/^@secretlint\/secretlint-rule-/, '')
}
