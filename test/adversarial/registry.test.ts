// Issue 13, items 3 and 4: what the agent writes in .proctor/runs/ can't make proctor kill a process
// group that is not the run's, and a run's orphan is found even when its leader is gone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { spawnManaged } from '../../src/supervisor/process.js'
import { hostName, isRunning, liveGroupMembers, processStartToken } from '../../src/supervisor/proc-info.js'
import {
  ensureRunsDir,
  readRecords,
  reconcileOrphans,
  runsDir,
  type RunRecord,
} from '../../src/supervisor/registry.js'
import type { ManagedProcess } from '../../src/supervisor/types.js'
import {
  OutputLog,
  fixture,
  processEnv,
  repoRoot,
  waitFor,
  waitGone,
} from '../integration/supervisor-helpers.js'

const cleanups: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tempStateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-adversarial-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function start(opts: Partial<Parameters<typeof spawnManaged>[0]> = {}): ManagedProcess {
  const child = spawnManaged({
    command: { file: fixture('silent.sh'), args: [] },
    cwd: repoRoot,
    env: processEnv(),
    mode: 'pipe',
    graceMs: 500,
    ...opts,
  })
  cleanups.push(() => child.stop('requested'))
  return child
}

async function deadPid(): Promise<number> {
  const child = start({ command: { file: 'true', args: [] } })
  await child.exited
  return child.pid
}

function forge(
  stateDir: string,
  fields: Pick<RunRecord, 'id' | 'pid' | 'pgid' | 'start'> & Partial<RunRecord>,
): void {
  ensureRunsDir(stateDir)
  const record = {
    version: 1,
    host: hostName(),
    role: 'agent',
    session: null,
    label: 'agent',
    executable: '/bin/sh',
    state: 'running',
    started_at: new Date().toISOString(),
    ...fields,
  }
  writeFileSync(join(runsDir(stateDir), `${fields.id}.json`), JSON.stringify(record))
}

describe('forged run records (issue 13.3)', () => {
  it("never signals a group named by a record the agent wrote, even with the victim's real start time", async () => {
    const stateDir = tempStateDir()
    const victim = start() // a bystander in its own group: the user's editor, a database...
    // A genuine run of this proctor (with a token), so the forger can also point at a real run's pid.
    const genuine = start({ registry: { dir: tempStateDir(), role: 'agent' } })
    const owner = { pid: await deadPid(), start: null, host: hostName() }
    forge(stateDir, {
      id: 'a-victim',
      pid: victim.pid,
      pgid: victim.pgid,
      start: processStartToken(victim.pid),
      owner,
      token: 'forged',
    })
    forge(stateDir, {
      id: 'b-mixed',
      pid: genuine.pid,
      pgid: victim.pgid,
      start: processStartToken(genuine.pid),
      owner,
    })
    const outcomes = await reconcileOrphans(stateDir, { graceMs: 500 })
    expect(outcomes.map((o) => [o.id, o.action])).toEqual([
      ['a-victim', 'pid_reused'],
      ['b-mixed', 'unproven'],
    ])
    expect(isRunning(victim.pid)).toBe(true)
    expect(isRunning(genuine.pid)).toBe(true)
    expect(readRecords(stateDir).map((r) => r.state)).toEqual(['crashed', 'crashed'])
  })
})

describe('orphans of a SIGKILLed proctor (issue 13.4)', () => {
  it('stops a SIGHUP-proof child whose leader died with the terminal', async () => {
    const stateDir = tempStateDir()
    const log = new OutputLog()
    const owner = start({
      command: {
        file: process.execPath,
        args: [
          '--import',
          'tsx',
          fixture('crash-owner.mts'),
          stateDir,
          'pty',
          fixture('hup-orphan-child.sh'),
        ],
      },
      onOutput: log.onOutput,
    })
    const agentPid = Number((await log.next(/\{"owner":\d+,"agent":(\d+)\}/))[1])
    process.kill(owner.pid, 'SIGKILL')
    await owner.exited
    await waitGone(agentPid, 'the leader, hung up with its terminal')
    const orphans = await waitFor(() => liveGroupMembers(agentPid)?.length, 'the orphan child in the group')
    expect(orphans).toBeGreaterThan(0)

    const outcomes = await reconcileOrphans(stateDir, { graceMs: 2000 })
    expect(outcomes).toEqual([expect.objectContaining({ pid: agentPid, action: 'reaped' })])
    await waitFor(() => liveGroupMembers(agentPid)?.length === 0, 'the group to be empty')
    expect(readRecords(stateDir)[0]!.state).toBe('reaped')
  })
})
