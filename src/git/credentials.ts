// A token for one git command, never for the repository: actions/checkout's default stores its token in
// .git/config (`http.<url>.extraheader`), where anything running in the worktree (the agent, a stop hook
// running the agent's code) reads it. proctor instead hands its token to the single push or fetch that
// needs it, as GIT_CONFIG_* environment entries of that process (not argv, which every process can read).

/** Config entries that send `token` as GitHub expects it (HTTP Basic, user x-access-token) to `url`'s host. */
export function tokenHeaderConfig(url: string, token: string): [string, string][] {
  let origin: string
  try {
    origin = new URL(url).origin
  } catch {
    return []
  }
  if (!/^https?:/.test(origin)) return []
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')
  return [[`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]]
}

/** GIT_CONFIG_COUNT/KEY/VALUE entries appended after those `base` already has. */
export function configEnv(
  base: Record<string, string | undefined>,
  entries: readonly [string, string][],
): Record<string, string> {
  if (entries.length === 0) return {}
  const first = Number(base.GIT_CONFIG_COUNT) || 0
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(first + entries.length) }
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${first + i}`] = key
    env[`GIT_CONFIG_VALUE_${first + i}`] = value
  })
  return env
}

/** `http.<url>.extraheader` entries of the repository's config: a persisted credential the agent can read. */
export function persistedCredentialKeys(configList: string): string[] {
  return configList
    .split('\0')
    .map((entry) => entry.slice(0, entry.indexOf('\n') === -1 ? entry.length : entry.indexOf('\n')))
    .filter((key) => /^http\..*\.extraheader$/i.test(key) || /^http\.extraheader$/i.test(key))
}

/**
 * Whether the credential entries of tokenHeaderConfig may go with a git talking to `url`: only to the
 * origin they were made for. A local path or file:// URL would hand them to the receiving repository's
 * hooks (git passes GIT_CONFIG_KEY_n/VALUE_n on to a local receive-pack), another host never gets them.
 */
export function credentialFits(entries: readonly [string, string][], url: string): boolean {
  let origin: string
  try {
    origin = new URL(url).origin
  } catch {
    return false
  }
  if (!/^https?:/.test(origin)) return false
  return entries.every(([key]) => key.toLowerCase() === `http.${origin}/.extraheader`.toLowerCase())
}
