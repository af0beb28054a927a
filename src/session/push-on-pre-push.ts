// checkpoints.push_on_pre_push: when the user pushes, their local checkpoint branches go along. The git
// runner pushes with --no-verify and hooks disabled, so this never re-enters the pre-push hook.
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import { Git } from '../git/runner.js'
import { listSessions, listCheckpoints } from '../checkpoints/history.js'
import { PushQueue } from '../checkpoints/push.js'
import { ensureStateDir } from '../state/layout.js'

export async function pushCheckpointsAlong(options: {
  cwd: string
  config: Config
  remote: string | null
}): Promise<string> {
  const git = new Git({ cwd: options.cwd })
  const sessions = await listSessions(git)
  if (sessions.length === 0) return 'no checkpoint branches to push'
  const dirs = ensureStateDir(options.cwd)
  const lines: string[] = []
  for (const { session } of sessions) {
    const first = (await listCheckpoints(git, session))[0]
    const queue = new PushQueue({
      git,
      session,
      remote: options.remote ?? options.config.checkpoints.remote,
      branchTemplate: options.config.checkpoints.branch,
      mode: 'always',
      sessionDir: join(dirs.sessions, session),
      base: first?.base ?? null,
    })
    queue.schedule()
    const record = await queue.flush()
    lines.push(
      record.ok
        ? `pushed checkpoints ${session} → ${record.branch}`
        : `checkpoints ${session} not pushed: ${record.reason}`,
    )
  }
  return lines.join('\n')
}
