// What simple-git's safety guards must be told so that a git call runs with exactly the environment and
// `-c` settings the runner chose. simple-git 4 refuses a call whose explicit `.env()` holds a "guarded"
// variable (every GIT_* key, plus EDITOR, PAGER, VISUAL, PREFIX, SSH_ASKPASS) that `allowEnvironment`
// does not name, and refuses some variables and `-c` keys outright unless an `unsafe` flag opts in.
//
// The environment is the user's own (sanitized by env.ts): the same trust as their ~/.gitconfig, which
// simple-git never inspects. So the guard is told about exactly the keys present in the environment of
// each call, and granted exactly the categories those keys trigger, as judged by simple-git's own guard
// code (@simple-git/argv-parser, the module simple-git imports). Nothing is stripped, nothing extra is
// opened. Arguments get no such pass: only the categories our fixed `-c` settings need are granted, so a
// caller that passes e.g. `-c core.sshCommand=...` is still refused.
import { isGitEnvKey, parseEnv, type VulnerabilityCategory } from '@simple-git/argv-parser'
import type { SimpleGitOptions } from 'simple-git'

export type UnsafeFlags = NonNullable<SimpleGitOptions['unsafe']>

/**
 * Granted for our own BASE_CONFIG (env.ts): `core.hooksPath=/dev/null` turns the user's hooks OFF for our
 * plumbing and `core.fsmonitor=false` skips a daemon whose answers are about the user's index, not ours.
 * simple-git blocks any `-c` of these keys because another value could run a program.
 */
export const CONFIG_UNSAFE_FLAGS: Readonly<UnsafeFlags> = {
  allowUnsafeHooksPath: true,
  allowUnsafeFsMonitor: true,
}

/** The keys of `env` that simple-git guards: a key it guards but `allowEnvironment` omits fails the call. */
export function guardedEnvKeys(env: Record<string, string>): string[] {
  return Object.keys(env).filter((key) => {
    const lower = key.toLowerCase().trim()
    return lower.startsWith('git_') || isGitEnvKey(lower)
  })
}

/** The `unsafe` categories that the variables in `env` trigger (e.g. GIT_SSH_COMMAND: allowUnsafeSshCommand). */
export function envUnsafeCategories(env: Record<string, string>): VulnerabilityCategory[] {
  return [...new Set(parseEnv(env).vulnerabilities.map((v) => v.category))].sort()
}

/** `allowEnvironment` and `unsafe` for one call with this exact environment. */
export function guardOptions(
  env: Record<string, string>,
): Pick<SimpleGitOptions, 'allowEnvironment' | 'unsafe'> {
  const unsafe: UnsafeFlags = { ...CONFIG_UNSAFE_FLAGS }
  for (const category of envUnsafeCategories(env)) unsafe[category] = true
  return { allowEnvironment: guardedEnvKeys(env), unsafe }
}
