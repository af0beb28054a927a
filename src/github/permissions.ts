// Comment-triggered runs act on someone's words: check that the commenter may write to the repository
// before an agent starts on their behalf.
import type { GitHubOctokit } from './client.js'

export type PermissionLevel = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

/** The actor's permission on the repository ('none' when GitHub knows no such collaborator). */
export async function actorPermission(
  octokit: GitHubOctokit,
  owner: string,
  repo: string,
  username: string,
): Promise<PermissionLevel> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username })
    const level = data.role_name || data.permission
    return (['admin', 'maintain', 'write', 'triage', 'read'] as const).find((l) => l === level) ?? 'none'
  } catch (error) {
    if (error && typeof error === 'object' && 'status' in error && error.status === 404) return 'none'
    throw error
  }
}

/** admin, maintain and write may trigger a session; triage, read and strangers may not. */
export function canTrigger(level: PermissionLevel): boolean {
  return level === 'admin' || level === 'maintain' || level === 'write'
}
