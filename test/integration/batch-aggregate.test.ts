// Aggregation of saved reports, as the `mode: aggregate` job and `proctor report a.json b.json…` do it
// with matrix jobs' artifacts: real report.json files from a batch, plus missing, malformed and
// wrong-schema ones, which are reported as problems and never crash the aggregate.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aggregateReports, parseSessionReport, type ChildInput } from '../../src/report/aggregate.js'
import type { BatchReport } from '../../src/report/model.js'
import { runBatch } from '../../src/batch/batch.js'
import { tempDir } from '../helpers/git-repo.js'
import { batchRepo, fastConfig } from './batch-helpers.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href
const ENTRY = path.join(ROOT, 'test/fixtures/batch/proctor-cli.ts')

const repo = batchRepo()
const artifacts = tempDir('proctor-batch-artifacts-')
const saved: Record<'ok' | 'ok2' | 'failed', string> = { ok: '', ok2: '', failed: '' }

beforeAll(async () => {
  const outcome = await runBatch({
    config: fastConfig(repo),
    cwd: repo.dir,
    env: repo.env,
    batchId: 'matrix',
    tasks: [
      { name: 'ok', command: { shell: 'echo fine' }, role: null },
      { name: 'ok2', command: { shell: 'echo also fine' }, role: null },
      { name: 'failed', command: { shell: 'exit 5' }, role: null },
    ],
  })
  // As download-artifact lays them out: one directory per matrix job.
  for (const child of outcome.batch.children) {
    const dir = path.join(artifacts, `report-${child.name}`)
    fs.mkdirSync(dir, { recursive: true })
    fs.copyFileSync(child.report_path!, path.join(dir, 'report.json'))
    saved[child.name as keyof typeof saved] = path.join(dir, 'report.json')
  }
})
afterAll(() => {
  repo.cleanup()
  fs.rmSync(artifacts, { recursive: true, force: true })
})

function write(name: string, text: string): string {
  const file = path.join(artifacts, name)
  fs.writeFileSync(file, text)
  return file
}

function report(files: string[]) {
  const run = spawnSync(
    process.execPath,
    ['--import', TSX, ENTRY, 'report', '--json', '--id', 'agg', ...files],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    },
  )
  return {
    code: run.status,
    batch: run.stdout ? (JSON.parse(run.stdout) as BatchReport) : null,
    stderr: run.stderr,
  }
}

describe('aggregating saved reports', () => {
  it('turns matrix jobs’ report.json files into one batch report that allows when all completed', () => {
    const run = report([saved.ok, saved.ok2])
    expect(run.code).toBe(0)
    expect(run.batch).toMatchObject({
      batch_id: 'agg',
      child_count: 2,
      completed_count: 2,
      verdict: 'allow',
      problems: [],
    })
    expect(run.batch!.children.map((c) => c.report_path)).toEqual([saved.ok, saved.ok2])
  })

  it('reports missing, malformed and wrong-schema files as problems, counted as errored, without crashing', () => {
    const missing = path.join(artifacts, 'report-gone/report.json')
    const malformed = write('malformed.json', '{"schema": 1, "session_id": ')
    const wrongSchema = write(
      'schema2.json',
      fs.readFileSync(saved.ok, 'utf8').replace('"schema": 1', '"schema": 2'),
    )
    const notAReport = write('list.json', '[1, 2, 3]')
    const incomplete = write(
      'incomplete.json',
      JSON.stringify({ schema: 1, session_id: 'x', status: 'completed' }),
    )
    const run = report([saved.ok, saved.failed, missing, malformed, wrongSchema, notAReport, incomplete])
    expect(run.code).toBe(1)
    const batch = run.batch!
    expect(batch.children.map((c) => c.status)).toEqual([
      'completed',
      'failed',
      'errored',
      'errored',
      'errored',
      'errored',
      'errored',
    ])
    expect(
      batch.completed_count +
        batch.failed_count +
        batch.errored_count +
        batch.interrupted_count +
        batch.timeout_count,
    ).toBe(7)
    expect(batch).toMatchObject({
      child_count: 7,
      completed_count: 1,
      failed_count: 1,
      errored_count: 5,
      verdict: 'block',
    })
    const problems = new Map(batch.problems.map((p) => [p.source, p.message]))
    expect(problems.get(missing)).toMatch(/cannot read .*ENOENT/)
    expect(problems.get(malformed)).toMatch(/not JSON/)
    expect(problems.get(wrongSchema)).toMatch(/unsupported report schema 2 \(expected 1\)/)
    expect(problems.get(notAReport)).toBeDefined()
    expect(problems.get(incomplete)).toMatch(/field \w+ is missing/)
  })

  it('keeps the partition when every input is unusable', () => {
    const inputs: ChildInput[] = ['{', '{"schema":3}', 'null'].map((text, i) => {
      const parsed = parseSessionReport(text)
      return typeof parsed === 'string'
        ? { source: `job-${i}`, problem: parsed }
        : { source: `job-${i}`, report: parsed }
    })
    const batch = aggregateReports('empty', inputs)
    expect(batch).toMatchObject({ child_count: 3, errored_count: 3, verdict: 'block' })
    expect(batch.problems.map((p) => p.source)).toEqual(['job-0', 'job-1', 'job-2'])
  })
})
