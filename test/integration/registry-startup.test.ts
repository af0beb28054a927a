// A session's start looks only at the running records of the run registry, and leaves pruning the finished
// ones (up to KEEP_FINISHED on a laptop) for after its agent has started.
import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hostName } from '../../src/supervisor/proc-info.js'
import {
  ensureRunsDir,
  pruneFinished,
  readRecords,
  reconcileOrphans,
  runsDir,
  type RunRecord,
} from '../../src/supervisor/registry.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-registry-start-'))
  dirs.push(dir)
  ensureRunsDir(dir)
  return dir
}

const longAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString()

function write(dir: string, fields: Partial<RunRecord> & Pick<RunRecord, 'id' | 'state'>, pretty = false) {
  const me = { pid: process.pid, start: null, host: hostName() }
  const record: RunRecord = {
    version: 1,
    pid: 1,
    pgid: 1,
    start: null,
    host: hostName(),
    role: 'agent',
    session: null,
    label: 'agent',
    executable: '/bin/sh',
    owner: me,
    started_at: longAgo,
    ...fields,
  }
  writeFileSync(
    join(runsDir(dir), `${record.id}.json`),
    pretty ? JSON.stringify(record, null, 2) : JSON.stringify(record),
  )
}

describe('the run registry at a session start', () => {
  it('reads only the records in the state asked for', () => {
    const dir = stateDir()
    write(dir, { id: 'a-running', state: 'running' }, true)
    write(dir, { id: 'b-running-compact', state: 'running' })
    write(dir, { id: 'c-exited', state: 'exited', ended_at: longAgo })
    // "running" in another field does not make a record a running one.
    write(dir, { id: 'd-crashed', state: 'crashed', label: 'running tests', ended_at: longAgo })
    expect(readRecords(dir, 'running').map((r) => r.id)).toEqual(['a-running', 'b-running-compact'])
    expect(readRecords(dir, 'crashed').map((r) => r.id)).toEqual(['d-crashed'])
    expect(readRecords(dir)).toHaveLength(4)
  })

  it('reconciles without pruning when told to, and pruning removes the old finished records later', async () => {
    const dir = stateDir()
    write(dir, { id: 'old-exited', state: 'exited', ended_at: longAgo })
    expect(await reconcileOrphans(dir, { graceMs: 100, prune: false })).toEqual([])
    expect(readdirSync(runsDir(dir))).toEqual(['old-exited.json'])
    expect(pruneFinished(dir)).toEqual(['old-exited'])
    expect(readdirSync(runsDir(dir))).toEqual([])
  })
})
