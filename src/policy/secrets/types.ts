// What the content scan found in one file. Never the secret itself: only where it is and which rule saw
// it, so the finding can go into a report, a log, a comment and the text the agent is sent back with.

export interface ContentFinding {
  /**
   * The rule that matched: a secretlint rule id (`@secretlint/secretlint-rule-github`), `known-value` (a
   * token proctor holds, or a part of one) or `forbidden-copy` (the bytes of a file in a forbidden area).
   */
  rule: string
  /** What the rule found, in words with no secret in them ("GitHub personal access tokens", "GITHUB_TOKEN, base64"). */
  what: string
  /** 1-based line of the first match; null when the whole file is the finding (a copy). */
  line: number | null
}

/** A secret value proctor holds (a token, a model API key), under the name it came by. */
export interface KnownSecret {
  name: string
  value: string
}
