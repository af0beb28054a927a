// The watchdog's backstop when proctor never named the agent's group: an agent that stops proctor at once
// can do so before proctor's spawn call has returned. The fault is injected by never calling agentGroup();
// this test process plays proctor (the watchdog's SIGCONTs to it do nothing).
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { spawnManaged } from '../../src/supervisor/process.js'
import type { ManagedProcess } from '../../src/supervisor/types.js'
import { startWatchdog, type Watchdog } from '../../src/supervisor/watchdog.js'
import { isRunning } from '../../src/supervisor/proc-info.js'
import { OutputLog, processEnv, repoRoot, waitGone } from './supervisor-helpers.js'

const started: ManagedProcess[] = []
const watchdogs: Watchdog[] = []
const escaped: number[] = []
afterEach(async () => {
  for (const watchdog of watchdogs.splice(0)) watchdog.stop()
  for (const pid of escaped.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone: what the test wanted.
    }
  }
  await Promise.all(started.splice(0).map((child) => child.stop('requested')))
})

function start(script: string, runToken: string) {
  const log = new OutputLog()
  const child = spawnManaged({
    command: { file: '/bin/sh', args: ['-c', script] },
    cwd: repoRoot,
    env: processEnv(),
    mode: 'pipe',
    graceMs: 500,
    runToken,
    onOutput: log.onOutput,
  })
  started.push(child)
  return { child, log }
}

describe.skipIf(!existsSync('/proc/self/environ'))('the watchdog, never told the agent’s group', () => {
  it('kills what carries the run’s token after the deadline, grace and margin, with what left the group; another run’s is left alone', async () => {
    // The agent: a leader, and a process that left its group (setsid) and says its pid.
    const agent = start('setsid sleep 61 & echo "escaped $!"; exec sleep 62', 'token-of-this-run')
    const other = start('exec sleep 63', 'token-of-another-run')
    const escapedPid = Number((await agent.log.next(/escaped (\d+)/))[1])
    escaped.push(escapedPid)

    const startedAt = Date.now()
    const watchdog = startWatchdog({ deadlineMs: 100, graceMs: 200, runToken: 'token-of-this-run' })
    expect(watchdog).not.toBeNull()
    watchdogs.push(watchdog!)

    const exit = await agent.child.exited
    expect(exit.signal).toBe('SIGKILL')
    expect(exit.stoppedBy, 'proctor did not stop it: the watchdog did').toBeNull()
    // Not before the deadline, the grace and the 5 s margin: proctor gets its chance first.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(5_000)
    await waitGone(escapedPid, 'the process that left the group', 5_000)
    expect(isRunning(other.child.pid), 'another run’s agent is not this run’s').toBe(true)
  }, 30_000)

  it('does nothing once proctor ended the run (closed its stdin) before the backstop', async () => {
    const agent = start('exec sleep 64', 'token-of-a-run-that-ended')
    const watchdog = startWatchdog({ deadlineMs: 50, graceMs: 0, runToken: 'token-of-a-run-that-ended' })!
    watchdog.stop()
    // The backstop would have fired 5.05 s after the start; the agent outlives that.
    const outlived = await Promise.race([
      agent.child.exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 6_500)),
    ])
    expect(outlived).toBe(true)
  }, 30_000)
})
