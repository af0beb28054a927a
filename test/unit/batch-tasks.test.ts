import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/load.js'
import { configSchema } from '../../src/config/schema.js'
import {
  BatchError,
  childConfig,
  childSessionId,
  makeBatchId,
  parseTaskFlag,
  tasksFromConfig,
} from '../../src/batch/tasks.js'
import { runPool } from '../../src/batch/pool.js'

describe('batch tasks', () => {
  it('parses --task name=command, keeping everything after the first = as one shell string', () => {
    expect(parseTaskFlag("lint=npm run lint -- --max-warnings=0 'src/**'")).toEqual({
      name: 'lint',
      command: { shell: "npm run lint -- --max-warnings=0 'src/**'" },
      role: null,
    })
  })

  it.each(['just-a-name', '=npm test', 'tests=', 'tests=   '])(
    'rejects --task %j with how to write it',
    (value) => {
      expect(() => parseTaskFlag(value)).toThrow(BatchError)
      expect(() => parseTaskFlag(value)).toThrow(/expected name=command, e\.g\. --task tests='npm test'/)
    },
  )

  it('reads command (argv), shell, role and timeout from proctor.yml', () => {
    const config = configSchema.parse({
      batch: {
        tasks: [
          { name: 'a', command: ['claude', '-p', 'fix it'], role: 'fixer', timeout: '90s' },
          { name: 'b', shell: 'codex exec "write docs"' },
        ],
      },
    })
    expect(tasksFromConfig(config)).toEqual([
      { name: 'a', command: { file: 'claude', args: ['-p', 'fix it'] }, role: 'fixer', timeoutMs: 90_000 },
      { name: 'b', command: { shell: 'codex exec "write docs"' }, role: null },
    ])
  })

  it('gives a task timeout to the child as its total timeout, leaving the batch config alone', () => {
    const config = configSchema.parse({ timeouts: { total: '30m' } })
    const child = childConfig(config, { name: 'x', command: { shell: 'true' }, role: null, timeoutMs: 5000 })
    expect(child.timeouts.total).toBe(5000)
    expect(config.timeouts.total).toBe(30 * 60_000)
  })

  it('names children <batch>-<index>-<name> in a form git accepts as a ref', () => {
    expect(childSessionId('b1', 0, 'api tests')).toBe('b1-0-api-tests')
    expect(childSessionId('b1', 2, '..lock')).toMatch(/^b1-2-[A-Za-z0-9._-]+$/)
    expect(childSessionId('b1', 1, 'same')).not.toBe(childSessionId('b1', 2, 'same'))
  })

  it('takes the batch id from PROCTOR_BATCH_ID, else run/attempt/job in GitHub Actions, never PROCTOR_SESSION_ID', () => {
    expect(makeBatchId({ PROCTOR_BATCH_ID: 'nightly 7' })).toBe('nightly-7')
    expect(
      makeBatchId({
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_ID: '42',
        GITHUB_RUN_ATTEMPT: '2',
        GITHUB_JOB: 'agents',
        PROCTOR_SESSION_ID: 's',
      }),
    ).toBe('42-2-agents')
  })
})

describe('runPool', () => {
  it('never has more than `concurrency` items in flight and runs each once', async () => {
    let inFlight = 0
    let peak = 0
    const ran: number[] = []
    const gates: (() => void)[] = []
    const pool = runPool({
      count: 7,
      concurrency: 3,
      signal: new AbortController().signal,
      run: async (i) => {
        inFlight++
        peak = Math.max(peak, inFlight)
        await new Promise<void>((resolve) => gates.push(resolve))
        inFlight--
        ran.push(i)
      },
      skip: () => {
        throw new Error('nothing should be skipped')
      },
    })
    // Release items one at a time as they arrive: the pool must refill to 3, never above.
    while (ran.length < 7) {
      await new Promise((resolve) => setImmediate(resolve))
      gates.shift()?.()
    }
    await pool
    expect(peak).toBe(3)
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('skips every item not yet taken once the signal aborts', async () => {
    const abort = new AbortController()
    const ran: number[] = []
    const skipped: number[] = []
    await runPool({
      count: 5,
      concurrency: 2,
      signal: abort.signal,
      run: async (i) => {
        ran.push(i)
        if (i === 1) abort.abort()
      },
      skip: (i) => skipped.push(i),
    })
    expect(ran).toEqual([0, 1])
    expect(skipped).toEqual([2, 3, 4])
  })
})

describe('docs/batch.md', () => {
  it('shows a proctor.yml that loads and yields its three tasks', async () => {
    const docs = readFileSync(fileURLToPath(new URL('../../docs/batch.md', import.meta.url)), 'utf8')
    const yml = /```yaml\n(# proctor\.yml[\s\S]*?)```/.exec(docs)?.[1]
    expect(yml).toBeDefined()
    const dir = mkdtempSync(join(tmpdir(), 'proctor-batch-docs-'))
    try {
      writeFileSync(join(dir, 'proctor.yml'), yml!)
      const loaded = await loadConfig({ cwd: dir, file: 'proctor.yml' })
      expect(loaded.warnings).toEqual([])
      expect(tasksFromConfig(loaded.config).map((t) => [t.name, t.role, t.timeoutMs])).toEqual([
        ['api-tests', 'tester', undefined],
        ['cli-tests', 'tester', undefined],
        ['changelog', 'writer', 600_000],
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
