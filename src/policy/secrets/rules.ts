// secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend): a maintained rule set of
// the services' own token formats (GitHub, AWS, GCP, Slack, npm, OpenAI, Anthropic, private keys, database
// URLs with passwords, ...) with their known false positives (AWS's documented example keys) left out.
// Chosen over gitleaks (a Go binary to ship, a process per scan) and over hand-written patterns (the
// sanitizer's are for redacting output, not for judging files). Its cost is per byte (each of ~30 rules
// runs its regexes over the whole text, ~8 MB/s): a checkpoint of 1,000 changed files would spend far more
// than its own time in it. So a file reaches it only when the prefilter (BY_SEPARATOR, BY_WORD: the literal
// prefixes and key words every rule's pattern needs) finds something; nearly no source file does
// (bench/secrets.ts: 10 of 1,000 files of proctor's own source, which is about tokens).
import type { ContentFinding } from './types.js'

/**
 * What each rule of the preset needs in the text before it can match, read from its patterns (the head of
 * each, without the look-arounds and the checks that come after a match). A superset: it lets through text
 * no rule reports, never text a rule would report (test/unit/secret-scan.test.ts holds a sample of every
 * rule). Keep it in step with the preset when its version changes.
 *
 * Two regexes, each starting with few characters: irregexp scans for those and only then tries the rest,
 * which is about twice as fast as one alternation whose branches start with twenty different letters.
 */
const BY_SEPARATOR = new RegExp(
  [
    // tokens by prefix, anchored at the `_` after it: GitHub, GitLab, npm, Groq, Hugging Face, Linear, Notion,
    // Shopify, Stripe, 1Password, Vercel, Docker, Figma, Cloudflare, Grafana
    '_(?:(?<=gh[pousr]_)[A-Za-z0-9_]{36}|(?<=ghs_)[0-9]|(?<=github_pat_)|(?<=glc_)|(?<=glsa_)',
    '(?<=npm_)[A-Za-z0-9_]{36}|authToken=|(?<=gsk_)[a-zA-Z0-9]{52}|(?<=hf_)[a-zA-Z]{34}|(?<=lin_api_)',
    '(?<=ntn_)[0-9]{11}|(?<=shp(?:pa|ca|at|ss)_)[a-zA-Z0-9]{32}|(?<=[sr]k_(?:live|test)_)[a-zA-Z0-9]{24}',
    '(?<=ops_)ey|(?<=vc[picark]_)[A-Za-z0-9]{20}|(?<=dckr_pat_)|(?<=figd_)|(?<=cf(?:k|ut|at)_)[A-Za-z0-9]{40})',
    // at the `-`: GitLab, Slack, OpenAI and Anthropic, Tailscale; PEM private keys (gcp's JSON holds one)
    '-(?:(?<=glpat-)[A-Za-z0-9_-]{20}|(?<=xox[bpaor]-)|(?<=xapp-)|(?<=sk-)(?:proj-|svcacct-|admin-|ant-api0)',
    '(?<=tskey-)|----BEGIN)',
    // at the `.`: SendGrid, HashiCorp Vault, Slack's hooks
    '\\.(?:(?<=SG\\.)\\w|(?<=hv[sbr]\\.)[A-Za-z0-9_-]{90}|(?<=[Hh][Oo][Oo][Kk][Ss]\\.)[Ss][Ll][Aa][Cc][Kk]\\.)',
    // at the `:`: a user and password in a URL (basicauth, database URLs), npm's x-oauth-basic
    ':(?:\\/\\/[^:/\\t-\\r ]{1,256}:[^@/\\t-\\r ]{1,256}@|x-oauth-basic@)',
  ].join('|'),
)
const BY_WORD = new RegExp(
  [
    // aws: access key ids, `aws_secret_access_key = …`, `aws_account_id = 1234…` (the first letter left off)
    'A(?:3T[A-Z0-9]|KIA|GPA|IDA|ROA|IPA|NPA|NVA|SIA)[A-Z0-9]{16}',
    '(?:ECRET|ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)',
    '(?:CCOUNT|ccount)_?(?:ID|[Ii]d)?["\']?\\s*(?::|=>|=)\\s*["\']?[0-9]{4}',
    // OpenAI's older keys, Databricks
    'T3BlbkFJ|dapi[A-Fa-f0-9]{32}',
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
  return BY_SEPARATOR.test(text) || BY_WORD.test(text)
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
