// Where the real model key stays readable by the agent whatever proctor does: in the environment of a
// process that started proctor and keeps running (`npx proctor run`, an npm script, a shell script that does
// more after it). proctor can scrub only its own /proc/<pid>/environ, but it can find these and say so
// before the agent starts (docs/agents.md#the-model-api-proxy).
import { readFileSync } from 'node:fs'

/** How far up the process tree to look: a CI job is a handful of processes deep. */
const MAX_DEPTH = 32

export interface KeyHolder {
  pid: number
  /** The process's name (`/proc/<pid>/comm`). */
  name: string
}

/**
 * proctor's ancestors (from `start`, its parent, up to init) whose environment, as the agent can read it in
 * /proc/<pid>/environ, holds one of `secrets` as a variable's value. Empty off Linux.
 */
export function ancestorsHolding(
  secrets: readonly string[],
  start: number = process.ppid,
  proc = '/proc',
): KeyHolder[] {
  if (process.platform !== 'linux' || secrets.length === 0) return []
  // Each entry is NAME=value NUL-terminated: the whole value, not a part of a longer one.
  const needles = secrets.filter((s) => s.length > 0).map((s) => Buffer.from(`=${s}\0`))
  const holders: KeyHolder[] = []
  let pid = start
  for (let depth = 0; pid > 1 && depth < MAX_DEPTH; depth++) {
    const environ = read(`${proc}/${pid}/environ`)
    if (environ && needles.some((needle) => environ.includes(needle)))
      holders.push({ pid, name: read(`${proc}/${pid}/comm`)?.toString('utf8').trim() ?? '?' })
    const stat = read(`${proc}/${pid}/stat`)?.toString('utf8')
    // "pid (comm) state ppid …": the name may hold spaces and parentheses, so read after the last ')'.
    const parent = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN
    if (!Number.isInteger(parent) || parent === pid) break
    pid = parent
  }
  return holders
}

/** The warning for the report: which process, and what the user can do. */
export function holderWarning(holder: KeyHolder): string {
  return (
    `model_api.proxy: the real model key is also in the environment of process ${holder.pid} (${holder.name}), ` +
    `which started proctor and is still running: the agent, as the same user, can read it in ` +
    `/proc/${holder.pid}/environ. Run proctor directly (exec it, or use the action), not under a wrapper that ` +
    `keeps the key (npx, an npm script, a shell that runs more after it)`
  )
}

function read(file: string): Buffer | null {
  try {
    return readFileSync(file)
  } catch {
    return null
  }
}
