// Stopping a whole process group: the only way proctor ends processes. Never by name, never by
// scanning the process table: the group id is the leader's pid, which we spawned ourselves.
import { groupHasLiveMembers, signalGroup } from './proc-info.js'

const POLL_MS = 50
const KILL_SETTLE_MS = 1000

/**
 * A group we may signal. `leaderAlive` (for groups whose leader is our own unreaped child) covers
 * the moment right after spawn: node-pty returns before its child has called setsid(), so the
 * group may not exist yet while the leader does — then the leader itself is signalled.
 */
export interface GroupTarget {
  pgid: number
  leaderAlive?: () => boolean
}

/** Signals the group (or, before it exists, its live leader). Returns false when nobody was there. */
export function signalTarget(target: GroupTarget, signal: NodeJS.Signals): boolean {
  if (signalGroup(target.pgid, signal)) return true
  if (!target.leaderAlive?.()) return false
  try {
    process.kill(target.pgid, signal)
    return true
  } catch {
    return false
  }
}

function targetAlive(target: GroupTarget): boolean {
  return groupHasLiveMembers(target.pgid) || target.leaderAlive?.() === true
}

/** Resolves true when no live member is left in the group, or false once `deadline` passes. */
export async function waitGroupGone(target: GroupTarget, deadline: number): Promise<boolean> {
  // No event tells us when processes that are not our children die, so poll with a deadline.
  while (Date.now() < deadline) {
    if (!targetAlive(target)) return true
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))))
  }
  return !targetAlive(target)
}

/** SIGTERM (+SIGCONT: a stopped group cannot act on it) → grace → SIGKILL. Returns whether KILL was sent. */
export async function terminateGroup(target: GroupTarget, graceMs: number): Promise<boolean> {
  if (!signalTarget(target, 'SIGTERM')) return false
  signalTarget(target, 'SIGCONT')
  if (await waitGroupGone(target, Date.now() + graceMs)) return false
  if (!signalTarget(target, 'SIGKILL')) return false
  // SIGKILL is delivered at once but dying is not: a member inside a syscall (a write, say) finishes
  // it first. Callers act on "stopped" (e.g. the final checkpoint), so wait briefly for the deaths.
  await waitGroupGone(target, Date.now() + KILL_SETTLE_MS)
  return true
}
