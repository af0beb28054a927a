// Stopping a whole process group: the only way proctor ends processes. Never by name, never by
// scanning the process table: the group id is the leader's pid, which we spawned ourselves.
import { groupHasLiveMembers, signalGroup } from './proc-info.js'

const POLL_MS = 50

/** Resolves true when no live member is left in the group, or false once `deadline` passes. */
export async function waitGroupGone(pgid: number, deadline: number): Promise<boolean> {
  // No event tells us when processes that are not our children die, so poll with a deadline.
  while (Date.now() < deadline) {
    if (!groupHasLiveMembers(pgid)) return true
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))))
  }
  return !groupHasLiveMembers(pgid)
}

/** SIGTERM (+SIGCONT: a stopped group cannot act on it) → grace → SIGKILL. Returns whether KILL was sent. */
export async function terminateGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!signalGroup(pgid, 'SIGTERM')) return false
  signalGroup(pgid, 'SIGCONT')
  if (await waitGroupGone(pgid, Date.now() + graceMs)) return false
  return signalGroup(pgid, 'SIGKILL')
}
