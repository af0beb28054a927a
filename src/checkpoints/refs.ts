// Names of proctor's refs and branches, checked before they reach git.

export const CHECKPOINT_REF_PREFIX = 'refs/proctor/'

/**
 * A session id must be one safe ref component: letters, digits, `.`, `_`, `-` (CI ids such as
 * `12345-1-build` qualify). Throws an error that says what is wrong and how to fix it.
 */
export function assertSessionId(session: string): void {
  const problem = !session
    ? 'it is empty'
    : session.length > 200
      ? 'it is longer than 200 characters'
      : !/^[A-Za-z0-9._-]+$/.test(session)
        ? 'it may only contain letters, digits, ".", "_" and "-"'
        : session.startsWith('.') || session.startsWith('-')
          ? 'it may not start with "." or "-"'
          : session.includes('..') || session.endsWith('.lock') || session.endsWith('.')
            ? 'it may not contain ".." or end with "." or ".lock"'
            : null
  if (problem) {
    throw new Error(`invalid session id ${JSON.stringify(session)}: ${problem}; use e.g. "run-42-1-build"`)
  }
}

export function checkpointRef(session: string): string {
  assertSessionId(session)
  return `${CHECKPOINT_REF_PREFIX}${session}`
}

/** The remote branch for a session from the `checkpoints.branch` template (`{session}` placeholder). */
export function remoteBranchFor(template: string, session: string): string {
  assertSessionId(session)
  const branch = template.replaceAll('{session}', session).replace(/^refs\/heads\//, '')
  if (
    !branch ||
    /(^|\/)\.|\.\.|[\s~^:?*[\\]|@\{|\/\/|\/$|\.lock(\/|$)/.test(branch) ||
    branch.startsWith('-') ||
    branch.endsWith('.')
  ) {
    throw new Error(
      `checkpoints.branch ${JSON.stringify(template)} gives the invalid branch name ${JSON.stringify(branch)}; ` +
        'use something like "proctor/{session}"',
    )
  }
  return branch
}

/**
 * The local-only copy of a session's baseline with the files withheld from its checkpoints (forbidden
 * areas) as the user left them: outside refs/proctor/, so no push, bundle or fetch refspec of proctor's
 * ever names it.
 */
export function localBaselineRef(session: string): string {
  assertSessionId(session)
  return `refs/proctor-local/${session}`
}
