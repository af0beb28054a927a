// Identity and liveness of processes and process groups, without scanning the process table.
// A pid alone is not an identity (pids are reused); pid + start time on this boot is.
import { readdirSync, readFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { constants, hostname } from 'node:os'

let bootIdCache: string | undefined

function linuxBootId(): string {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    } catch {
      bootIdCache = ''
    }
  }
  return bootIdCache
}

interface LinuxStat {
  state: string
  ppid: number
  pgrp: number
  startTicks: string
}

/** Fields of /proc/<pid>/stat; the command name may hold spaces and ')' so split after the last ')'. */
function readLinuxStat(pid: number): LinuxStat | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // rest[0] is field 3 (state); field N is rest[N - 3].
  const state = rest[0]
  const ppid = Number(rest[1])
  const pgrp = Number(rest[2])
  const startTicks = rest[19]
  if (state === undefined || startTicks === undefined) return null
  return { state, ppid, pgrp, startTicks }
}

/**
 * A token that identifies the process `pid` for as long as it lives and never matches a later
 * process that reuses the pid. Linux: boot id + start time in clock ticks (field 22 of
 * /proc/<pid>/stat); elsewhere: `ps -o lstart=` (one-second resolution). Null when the process is gone.
 */
export function processStartToken(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (process.platform === 'linux') {
    const stat = readLinuxStat(pid)
    return stat ? `linux:${linuxBootId()}:${stat.startTicks}` : null
  }
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' })
  const started = ps.status === 0 ? ps.stdout.trim() : ''
  return started ? `ps:${started}` : null
}

/** Whether a process with this pid exists (zombies included; EPERM means it exists but isn't ours). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether the process is alive and running (exists and, where we can tell, is not a zombie). */
export function isRunning(pid: number): boolean {
  if (!pidExists(pid)) return false
  if (process.platform !== 'linux') return true
  const stat = readLinuxStat(pid)
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X'
}

/** Whether `pid` is a live child of this process (where we can't tell: whether it exists). */
export function isOwnLiveChild(pid: number): boolean {
  if (process.platform !== 'linux') return pidExists(pid)
  const stat = readLinuxStat(pid)
  return stat !== null && stat.ppid === process.pid && stat.state !== 'Z' && stat.state !== 'X'
}

/** Whether any process (zombies included) is still in process group `pgid`. */
export function groupExists(pgid: number): boolean {
  return signalGroup(pgid, 0)
}

/**
 * Whether group `pgid` still has a member that is not a zombie. A killed grandchild stays a zombie
 * until init reaps it, which in containers can take seconds or never happen (no init), so
 * `kill(-pgid, 0)` alone would make every stop wait out its grace and report a needless SIGKILL.
 * On Linux the zombies are told apart by reading /proc — a read-only check: signals still only go
 * to the group id, never to pids found here.
 */
export function groupHasLiveMembers(pgid: number): boolean {
  if (!groupExists(pgid)) return false
  if (process.platform !== 'linux') return true
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return true
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0)
    if (first < 48 || first > 57) continue
    const stat = readLinuxStat(Number(entry))
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true
  }
  return false
}

/**
 * Sends `signal` to every process in group `pgid`. Returns false when the group is empty (ESRCH).
 * Refuses pgid <= 1: `kill(-1)` would signal every process we may signal, `kill(0)` our own group.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`)
  try {
    process.kill(-pgid, signal)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ESRCH') return false
    // EPERM: some member is not ours (e.g. setuid); nothing more we may do to it.
    if (code === 'EPERM') return true
    throw error
  }
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, num]) => [num, name as NodeJS.Signals]),
)

/** `15` → `'SIGTERM'`; unknown numbers map to null. */
export function signalName(num: number): NodeJS.Signals | null {
  return SIGNAL_NAMES.get(num) ?? null
}

export function hostName(): string {
  return hostname()
}

export interface GroupMember {
  pid: number
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  startTicks: bigint
}

/**
 * The live (non-zombie) members of group `pgid`, read from /proc; null where /proc is not available.
 * Read-only: used to prove whose processes a group holds before it is signalled.
 */
export function liveGroupMembers(pgid: number): GroupMember[] | null {
  if (process.platform !== 'linux') return null
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return null
  }
  const members: GroupMember[] = []
  for (const entry of entries) {
    const first = entry.charCodeAt(0)
    if (first < 48 || first > 57) continue
    const stat = readLinuxStat(Number(entry))
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
      members.push({ pid: Number(entry), startTicks: BigInt(stat.startTicks) })
  }
  return members
}

/** Whether the process started with `NAME=value` in its environment (Linux /proc/<pid>/environ). */
export function processEnvironmentHas(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry)
  } catch {
    return false
  }
}

/** The current process group of `pid` (Linux: /proc; elsewhere `ps -o pgid=`); null when it is gone. */
export function processGroupOf(pid: number): number | null {
  if (process.platform === 'linux') return readLinuxStat(pid)?.pgrp ?? null
  const ps = spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' })
  const pgid = Number(ps.stdout.trim())
  return ps.status === 0 && Number.isInteger(pgid) && pgid > 0 ? pgid : null
}

/** The boot id and start ticks inside a Linux start token; null for other tokens. */
export function parseLinuxStartToken(token: string | null): { boot: string; ticks: bigint } | null {
  const match = /^linux:([^:]*):(\d+)$/.exec(token ?? '')
  return match ? { boot: match[1]!, ticks: BigInt(match[2]!) } : null
}

export function currentBootId(): string {
  return linuxBootId()
}
