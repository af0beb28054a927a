// What a session's checkpoint store answers CheckpointTriggers.recordedAmong with (CheckpointStore.
// recordedAmong), for tests that drive the triggers without a store: which of the directories HEAD's tree
// holds something in, as the latest checkpoint's tree would before the agent wrote anything.
import type { Git } from '../../src/git/runner.js'

export function recordedInHead(git: Git): (dirs: readonly string[]) => Promise<ReadonlySet<string>> {
  return async (dirs) => {
    const names = (await git.lsTree('HEAD', dirs, { recursive: false })).map((entry) => entry.path)
    return new Set(dirs.filter((d) => names.some((n) => n === d || n.startsWith(`${d}/`))))
  }
}
