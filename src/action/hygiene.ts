// What every mode of the action does before anything of the agent's can run: take the tokens out of its
// own environment (and out of /proc/self/environ), and warn when the checkout left a credential in
// .git/config, where the agent reads it as easily as any file. docs/action.md#what-the-agent-can-see.
import * as core from '@actions/core'
import { Git } from '../git/runner.js'
import { persistedCredentialKeys, tokenHeaderConfig } from '../git/credentials.js'
import { withholdSecrets, type WithheldSecrets } from '../supervisor/agent-env.js'
import { registerKnownSecrets } from '../policy/secrets/known.js'

/** Takes the runner's tokens out of the environment; masks them in the log (once: `masked` already are). */
export function withholdRunnerSecrets(masked: readonly string[] = []): WithheldSecrets {
  const secrets = withholdSecrets(process.env)
  // The content scan recognises them (and their base64 and URL-encoded forms) in any file the agent writes.
  registerKnownSecrets(
    Object.fromEntries(Object.entries(secrets.values).filter(([name]) => /TOKEN|KEY|SECRET/i.test(name))),
  )
  const seen = new Set(masked)
  for (const [name, value] of Object.entries(secrets.values)) {
    if (!/TOKEN/i.test(name) || !value || seen.has(value)) continue
    seen.add(value)
    core.setSecret(value)
  }
  if (!secrets.scrubbed && Object.keys(secrets.values).length > 0) {
    core.warning(
      `proctor: the tokens were removed from the agent's environment, but ${secrets.problem ?? 'the start-up environment could not be overwritten'}; a process of the same user could still read them in /proc`,
    )
  }
  return secrets
}

/**
 * A warning when the repository's config holds an `http.<url>.extraheader` (actions/checkout's default,
 * `persist-credentials: true`): that token is readable by the agent and every hook.
 */
export async function warnPersistedCredentials(cwd: string): Promise<boolean> {
  try {
    const git = new Git({ cwd })
    const listed = await git.raw(['config', '-z', '--includes', '--get-regexp', '^http\\..*extraheader$'], {
      okExitCodes: [1],
    })
    const keys = persistedCredentialKeys(listed.stdout)
    if (keys.length === 0) return false
    core.warning(
      `proctor: .git/config holds a credential (${keys.join(', ')}) that the agent and its hooks can read. ` +
        'Use actions/checkout with `persist-credentials: false`; proctor passes its own token to each push. ' +
        'See docs/action.md#what-the-agent-can-see',
    )
    return true
  } catch {
    return false
  }
}

/**
 * The git host the token belongs to: GITHUB_SERVER_URL, or PROCTOR_GIT_SERVER_URL when set (the
 * end-to-end tests point it at a loopback git server; the artifact client insists on github.com).
 */
export function gitServerUrl(env: Record<string, string | undefined>, serverUrl: string): string {
  return env.PROCTOR_GIT_SERVER_URL || serverUrl
}

/**
 * The repository the token may push to, `owner/repo` as the event names it — or null (any repository on the
 * token's server) when PROCTOR_GIT_SERVER_URL points the pushes at a loopback server with names of its own.
 */
export function tokenRepository(
  env: Record<string, string | undefined>,
  repository: { owner: string; repo: string } | null,
): string | null {
  if (env.PROCTOR_GIT_SERVER_URL || !repository) return null
  return `${repository.owner}/${repository.repo}`
}

/**
 * proctor's token for the pushes to `remoteUrl`, or none: only when the remote is on the GitHub server the
 * token belongs to (GITHUB_SERVER_URL), never to another host, and — given `repository` — only when it is
 * that repository. The post step reads the remote after the agent ran, so .git/config could name another
 * repository of the same server that a broader token (a PAT) may write.
 */
export function pushCredential(
  remoteUrl: string | null,
  token: string,
  serverUrl: string,
  repository: string | null = null,
): [string, string][] | undefined {
  if (!token || !remoteUrl) return undefined
  let same: boolean
  try {
    const remote = new URL(remoteUrl)
    same = remote.origin === new URL(serverUrl).origin
    if (same && repository) {
      const path = decodeURIComponent(remote.pathname)
        .replace(/\.git\/?$/, '')
        .replace(/\/+$/, '')
      same = path.toLowerCase() === `/${repository.toLowerCase()}`
    }
  } catch {
    same = false
  }
  if (!same) return undefined
  const entries = tokenHeaderConfig(remoteUrl, token)
  return entries.length ? entries : undefined
}

/**
 * The credential for pushing `remote` from `git`'s repository: checked against the URL the push will
 * really use (Git.trustedPushUrl: pushurl and pushInsteadOf included), never a plain `remote get-url`,
 * which an agent-written `pushurl` would make disagree with where the token goes.
 */
export async function pushCredentialFor(
  git: Git,
  remote: string,
  token: string,
  env: Record<string, string | undefined>,
  ctx: { serverUrl: string; owner: string; repo: string } | null,
): Promise<[string, string][] | undefined> {
  if (!token) return undefined
  const url = await git.trustedPushUrl(remote).catch(() => null)
  return pushCredential(
    url,
    token,
    gitServerUrl(env, ctx?.serverUrl ?? 'https://github.com'),
    tokenRepository(env, ctx),
  )
}
