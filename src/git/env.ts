// The environment every git call runs with. Inherited variables that point git at another repository,
// index or object store are dropped: a hook or wrapper that exported them must never redirect our
// plumbing (or worse, make it write the user's index).

/** Inherited variables that redirect which repository, index or objects git uses, or how pathspecs parse. */
export const REDIRECTING_GIT_VARS: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_INDEX_VERSION',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_QUARANTINE_PATH',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_PREFIX',
  'GIT_TEMPLATE_DIR',
  'GIT_SHALLOW_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_GRAFT_FILE',
  // We build pathspecs with explicit magic; these would change how every one of them is read.
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
  // Set by proctor per call, never inherited.
  'GIT_OPTIONAL_LOCKS',
  'GIT_TERMINAL_PROMPT',
]

const REDIRECTING = new Set(REDIRECTING_GIT_VARS)

/**
 * process.env minus the redirecting GIT_* variables, plus proctor's fixed settings. `GIT_OPTIONAL_LOCKS=0`
 * keeps read commands (status, diff) from refreshing and rewriting the user's index; `GIT_TERMINAL_PROMPT=0`
 * turns a credential prompt in CI into a fast failure instead of a hang.
 */
export function sanitizedGitEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (REDIRECTING.has(key.toUpperCase())) continue
    env[key] = value
  }
  env.GIT_OPTIONAL_LOCKS = '0'
  env.GIT_TERMINAL_PROMPT = '0'
  // Messages we classify (push rejections, missing remotes) must be in English.
  env.LC_ALL = 'C'
  env.LANGUAGE = 'C'
  return env
}

/**
 * `-c` settings for every call. All are safe for commands that only read the user's repository:
 * they change how our own commits are made (no signing prompt, no hooks) and skip the fsmonitor
 * daemon, whose answers are about the user's index, not ours.
 */
export const BASE_CONFIG: readonly string[] = [
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  // `git log` would verify a signed commit with the repository's gpg.program.
  'log.showSignature=false',
  'core.quotePath=false',
  'advice.addEmbeddedRepo=false',
  'advice.detachedHead=false',
  'gc.auto=0',
  'maintenance.auto=false',
]

/**
 * Extra settings for calls on the private index only. They change the index FORMAT (untracked cache; the
 * split index, see the runner's invocation) or trust in stat data, so they are never applied where the
 * user's index could be written. On our private index they make it notice every edit: the untracked cache
 * (see the store's listing) trusts a directory whose stat data is unchanged, and an entry is trusted by its
 * stat data too, so both compare the ctime and every stat field, whatever the user's config says: an agent
 * can set a file's or a directory's mtime back after writing to it, but not its ctime.
 */
export const PRIVATE_INDEX_CONFIG: readonly string[] = [
  'core.untrackedCache=true',
  'core.trustctime=true',
  'core.checkStat=default',
  'core.ignoreStat=false',
  'index.skipHash=false',
]

export const FALLBACK_IDENTITY = { name: 'proctor', email: 'proctor@localhost' } as const
