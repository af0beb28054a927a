// checkpoints.push_on_pre_push: when the user pushes, their local checkpoint branches go along. The git
// runner pushes with --no-verify and hooks disabled, so this never re-enters the pre-push hook.
import type { Config } from '../config/schema.js'
import { listSessions } from '../checkpoints/history.js'
import { Workspace } from '../state/workspace.js'

export async function pushCheckpointsAlong(options: {
  cwd: string
  config: Config
  remote: string | null
}): Promise<string> {
  const workspace = Workspace.find(options.cwd)
  const sessions = workspace ? await listSessions(workspace.git) : []
  if (!workspace || sessions.length === 0) return 'no checkpoint branches to push'
  Workspace.stateDirs(options.cwd)
  const lines: string[] = []
  for (const { session } of sessions) {
    const record = await workspace.pushSession(session, options.config, {
      mode: 'always',
      ...(options.remote !== null ? { remote: options.remote } : {}),
    })
    if (!record) continue
    lines.push(
      record.ok
        ? `pushed checkpoints ${session} → ${record.branch}`
        : `checkpoints ${session} not pushed: ${record.reason}`,
    )
  }
  return lines.join('\n')
}
