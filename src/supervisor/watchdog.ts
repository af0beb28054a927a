// The total timeout's backstop. proctor's own timer cannot fire while proctor is stopped, and the agent is
// proctor's child: `kill -STOP $PPID` stops it, and nothing would ever continue it. The watchdog is a
// tiny `sh` in its own session (so neither the agent's group nor its terminal reaches it), started
// before the agent (an agent can stop proctor before its spawn call has even returned). It sleeps until
// the deadline, then sends proctor SIGCONT every 200 ms: proctor's overdue timer fires at once and stops
// the agent the usual way. When proctor has not finished the run by the deadline plus the grace and a
// margin (an agent that stops proctor again and again), it SIGKILLs the agent's processes itself:
// - the group proctor names on its stdin, right after the spawn;
// - every process whose environment holds the run's token (PROCTOR_RUN_TOKEN, given before the spawn),
//   found in /proc. An agent that stops proctor at once often does so before proctor has named the
//   group, and a stopped proctor then runs a few microseconds per SIGCONT: it may never get to say it.
//   The token also finds what left the group (its own setsid). No /proc (macOS): the named group only.
// It ends when proctor closes its stdin (the run finished, or proctor died: the pipe closes either way),
// taking its sleeps along (`kill -KILL 0`: it leads its own group).
//
// What it cannot do: the agent runs as the same user and can signal any of that user's processes; an
// agent that looks for the watchdog (`pkill -STOP sh`) can stop it too, and one that rewrites its own
// environment is not found by its token. It defeats the stop of the parent, not an adversary with the
// same uid: for that, run the agent as another user or in a container.
//
// It is not spawned through spawnManaged: it is not a supervised command (no output, no run record an
// agent could forge, no group for proctor to stop: closing its stdin ends it).
import { spawn, type ChildProcess } from 'node:child_process'
import { RUN_TOKEN_ENV } from './registry.js'

/** Seconds between SIGCONTs once the deadline has passed. */
const TICK_S = 0.2
/** After the deadline plus the grace, how long proctor still gets before the watchdog kills the group. */
const BACKSTOP_MARGIN_MS = 5_000

// $1 proctor's pid, $2 seconds to the deadline, $3 seconds to the backstop, $4 the environment entry that
// marks the agent's processes (empty: none); the group's id on stdin. A process found by $4 is killed with
// its group when it leads one (`kill -- -p` fails for a mere member, which is then killed alone).
const SCRIPT = [
  `( sleep "$2"; while kill -0 "$1" 2>/dev/null; do kill -CONT "$1" 2>/dev/null; sleep ${TICK_S}; done ) &`,
  'if [ -n "$4" ]; then ( sleep "$3"',
  '  for f in $(grep -lzxF -e "$4" /proc/[0-9]*/environ 2>/dev/null); do',
  '    p=${f#/proc/}; p=${p%/environ}',
  '    kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null',
  '  done ) & fi',
  'if read -r g; then ( sleep "$3"; kill -KILL -- "-$g" 2>/dev/null ) & fi',
  'cat >/dev/null',
  'kill -KILL 0',
].join('\n')

export interface Watchdog {
  /** The agent's group, once spawned: the backstop's target. */
  agentGroup(pgid: number): void
  /** The run ended (or never started): the watchdog goes away. Idempotent. */
  stop(): void
}

/**
 * Starts the watchdog for proctor (this process): SIGCONT from `deadlineMs` from now, the SIGKILL of the
 * agent's processes (its group, and what carries `runToken`) `graceMs` + a margin after that. Null when it
 * cannot be started (no /bin/sh): the timeout then works as it always did, by proctor's own timer.
 */
export function startWatchdog(opts: {
  deadlineMs: number
  graceMs: number
  /** The agent's PROCTOR_RUN_TOKEN, decided before its spawn. */
  runToken?: string
}): Watchdog | null {
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  let child: ChildProcess
  try {
    child = spawn(
      '/bin/sh',
      [
        '-c',
        SCRIPT,
        'proctor-watchdog',
        String(process.pid),
        seconds(opts.deadlineMs),
        seconds(opts.deadlineMs + opts.graceMs + BACKSTOP_MARGIN_MS),
        opts.runToken ? `${RUN_TOKEN_ENV}=${opts.runToken}` : '',
      ],
      { detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
    )
  } catch {
    return null
  }
  child.on('error', () => undefined)
  const stdin = child.stdin
  stdin?.on('error', () => undefined)
  // Neither the process nor the pipe may keep proctor alive: it exits when it is done, and so the pipe
  // closes and the watchdog goes.
  child.unref()
  ;(stdin as unknown as { unref?: () => void } | null)?.unref?.()
  return {
    agentGroup(pgid) {
      if (Number.isInteger(pgid) && pgid > 1) stdin?.write(`${pgid}\n`)
    },
    stop() {
      stdin?.destroy()
    },
  }
}
