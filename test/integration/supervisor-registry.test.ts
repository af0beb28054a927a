import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnManaged } from '../../src/supervisor/process.js'
import { hostName, isRunning, processStartToken } from '../../src/supervisor/proc-info.js'
import {
  ensureRunsDir,
  readRecords,
  reconcileOrphans,
  runsDir,
  type RunRecord,
} from '../../src/supervisor/registry.js'
import type { ManagedProcess } from '../../src/supervisor/types.js'
import { OutputLog, fixture, processEnv, repoRoot, waitGone } from './supervisor-helpers.js'

const cleanups: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tempStateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-registry-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function track(child: ManagedProcess): ManagedProcess {
  cleanups.push(() => child.stop('requested'))
  return child
}

/** A pid that belonged to a process which has exited (and was reaped) by the time this returns. */
async function deadPid(): Promise<number> {
  const child = spawnManaged({
    command: { file: 'true', args: [] },
    cwd: repoRoot,
    env: processEnv(),
    mode: 'pipe',
    graceMs: 100,
  })
  await child.exited
  return child.pid
}

describe('run registry', () => {
  it('records a spawn and its exit', async () => {
    const stateDir = tempStateDir()
    const child = track(
      spawnManaged({
        command: { file: fixture('exit-with.sh'), args: ['5'] },
        cwd: repoRoot,
        env: processEnv(),
        mode: 'pipe',
        graceMs: 500,
        registry: { dir: stateDir, role: 'hook', session: 's1' },
        label: 'hook tests',
      }),
    )
    await child.exited
    const [record] = readRecords(stateDir)
    expect(record).toMatchObject({
      pid: child.pid,
      pgid: child.pid,
      role: 'hook',
      session: 's1',
      label: 'hook tests',
      state: 'exited',
      host: hostName(),
      owner: { pid: process.pid, host: hostName() },
      exit: { exit_code: 5, signal: null, stopped_by: null, killed: false },
    })
    expect(record!.start).toMatch(/\S/)
    expect(record!.executable).toBe(fixture('exit-with.sh'))
  })

  it.each(['pipe', 'pty'] as const)(
    'reaps the agent of a proctor that was SIGKILLed (%s mode) and marks the record',
    async (mode) => {
      const stateDir = tempStateDir()
      const log = new OutputLog()
      // The stand-in proctor runs under the same supervisor, in pipe mode so we can read its pid line.
      const owner = track(
        spawnManaged({
          command: {
            file: process.execPath,
            args: [
              '--import',
              'tsx',
              fixture('crash-owner.mts'),
              stateDir,
              mode,
              fixture('hup-proof-sleeper.sh'),
            ],
          },
          cwd: repoRoot,
          env: processEnv(),
          mode: 'pipe',
          graceMs: 500,
          onOutput: log.onOutput,
        }),
      )
      const line = await log.next(/\{"owner":\d+,"agent":(\d+)\}/)
      const agentPid = Number(line[1])
      expect(isRunning(agentPid)).toBe(true)

      process.kill(owner.pid, 'SIGKILL')
      await owner.exited
      // The owner is dead, its agent is not: exactly the leak the registry exists for.
      expect(isRunning(agentPid)).toBe(true)

      const outcomes = await reconcileOrphans(stateDir, { graceMs: 2000 })
      expect(outcomes).toEqual([
        expect.objectContaining({ pid: agentPid, action: 'reaped', role: 'agent', session: 'crash-test' }),
      ])
      await waitGone(agentPid, 'the orphaned agent')
      const [record] = readRecords(stateDir)
      expect(record!.state).toBe('reaped')
      expect(record!.note).toContain('stopped')
      // Reconciling again finds nothing left to do.
      expect(await reconcileOrphans(stateDir, { graceMs: 500 })).toEqual([])
    },
  )

  it('never kills a reused pid: a live process with another start time is left alone', async () => {
    const stateDir = tempStateDir()
    const bystander = track(
      spawnManaged({
        command: { file: fixture('silent.sh'), args: [] },
        cwd: repoRoot,
        env: processEnv(),
        mode: 'pipe',
        graceMs: 500,
      }),
    )
    const ownerPid = await deadPid()
    writeRecord(stateDir, {
      id: 'reused',
      pid: bystander.pid,
      pgid: bystander.pgid,
      start: 'linux:some-other-boot:12345',
      owner: { pid: ownerPid, start: 'linux:x:1', host: hostName() },
    })
    const outcomes = await reconcileOrphans(stateDir, { graceMs: 500 })
    expect(outcomes).toEqual([expect.objectContaining({ id: 'reused', action: 'pid_reused', killed: false })])
    expect(isRunning(bystander.pid)).toBe(true)
    expect(readRecords(stateDir)[0]!.state).toBe('crashed')
  })

  it('leaves records of a live owner and of other hosts alone', async () => {
    const stateDir = tempStateDir()
    const agent = track(
      spawnManaged({
        command: { file: fixture('silent.sh'), args: [] },
        cwd: repoRoot,
        env: processEnv(),
        mode: 'pipe',
        graceMs: 500,
      }),
    )
    const ownerPid = await deadPid()
    const start = processStartToken(agent.pid)
    writeRecord(stateDir, {
      id: 'live-owner',
      pid: agent.pid,
      pgid: agent.pgid,
      start,
      owner: { pid: process.pid, start: processStartToken(process.pid), host: hostName() },
    })
    writeRecord(stateDir, {
      id: 'other-host',
      pid: agent.pid,
      pgid: agent.pgid,
      start,
      host: 'some-other-runner',
      owner: { pid: ownerPid, start: null, host: 'some-other-runner' },
    })
    expect(await reconcileOrphans(stateDir, { graceMs: 500 })).toEqual([])
    expect(isRunning(agent.pid)).toBe(true)
    expect(readRecords(stateDir).map((r) => r.state)).toEqual(['running', 'running'])
  })

  it('marks a record crashed when its process is already gone, and ignores corrupt files', async () => {
    const stateDir = tempStateDir()
    const gone = await deadPid()
    writeRecord(stateDir, {
      id: 'gone',
      pid: gone,
      pgid: gone,
      start: 'linux:x:1',
      owner: { pid: gone, start: null, host: hostName() },
    })
    writeFileSync(join(runsDir(stateDir), 'junk.json'), '{ not json')
    writeFileSync(join(runsDir(stateDir), 'alien.json'), JSON.stringify({ version: 1, pid: 'x' }))
    const outcomes = await reconcileOrphans(stateDir)
    expect(outcomes).toEqual([expect.objectContaining({ id: 'gone', action: 'gone' })])
    const record = JSON.parse(readFileSync(join(runsDir(stateDir), 'gone.json'), 'utf8')) as RunRecord
    expect(record.state).toBe('crashed')
  })

  it('prunes finished records past a week or beyond the newest 200, never a running one', async () => {
    const stateDir = tempStateDir()
    const me = { pid: process.pid, start: processStartToken(process.pid), host: hostName() }
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
    // A running record of a live owner (this test), started long ago: reaping depends on it.
    writeRecord(stateDir, {
      id: 'live-old',
      pid: process.pid,
      pgid: process.pid,
      start: null,
      owner: me,
      started_at: daysAgo(30),
    })
    writeRecord(stateDir, {
      id: 'exited-old',
      pid: 1,
      pgid: 1,
      start: null,
      owner: me,
      state: 'exited',
      ended_at: daysAgo(8),
    })
    writeRecord(stateDir, {
      id: 'reaped-old',
      pid: 1,
      pgid: 1,
      start: null,
      owner: me,
      state: 'reaped',
      ended_at: daysAgo(10),
    })
    writeRecord(stateDir, {
      id: 'exited-new',
      pid: 1,
      pgid: 1,
      start: null,
      owner: me,
      state: 'exited',
      ended_at: daysAgo(1),
    })
    for (let i = 0; i < 205; i++) {
      writeRecord(stateDir, {
        id: `many-${String(i).padStart(3, '0')}`,
        pid: 1,
        pgid: 1,
        start: null,
        owner: me,
        state: 'exited',
        ended_at: new Date(Date.now() - 3_600_000 - i * 1000).toISOString(),
      })
    }
    writeFileSync(join(runsDir(stateDir), 'x.json.123.tmp'), '{')
    utimesSync(join(runsDir(stateDir), 'x.json.123.tmp'), new Date(0), new Date(0))

    await reconcileOrphans(stateDir)
    const ids = new Set(readRecords(stateDir).map((r) => r.id))
    expect(ids.has('live-old')).toBe(true)
    expect(ids.has('exited-old')).toBe(false)
    expect(ids.has('reaped-old')).toBe(false)
    expect(ids.has('exited-new')).toBe(false) // the oldest of the finished ones beyond the newest 200
    expect(ids.has('many-000')).toBe(true)
    expect(ids.has('many-199')).toBe(true)
    expect(ids.has('many-200')).toBe(false)
    expect(ids.size).toBe(201)
    expect(readdirSync(runsDir(stateDir)).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })
})

function writeRecord(
  stateDir: string,
  fields: Pick<RunRecord, 'id' | 'pid' | 'pgid' | 'start' | 'owner'> & Partial<RunRecord>,
): void {
  const record: RunRecord = {
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
  ensureRunsDir(stateDir)
  writeFileSync(join(runsDir(stateDir), `${record.id}.json`), JSON.stringify(record))
}
