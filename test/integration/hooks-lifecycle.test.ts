import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { configSchema, type Config } from '../../src/config/schema.js'
import { LifecycleHooks } from '../../src/hooks/lifecycle.js'

const dir = mkdtempSync(join(tmpdir(), 'proctor-lifecycle-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const live: LifecycleHooks[] = []
afterEach(async () => {
  for (const hooks of live.splice(0)) await hooks.shutdown()
})

function make(hooks: unknown, opts: { poolSize?: number; graceMs?: number } = {}) {
  const warnings: string[] = []
  const config: Config = configSchema.parse({ hooks })
  const lifecycle = new LifecycleHooks({
    hooks: config.hooks,
    poolSize: opts.poolSize ?? 10,
    shutdownGraceMs: opts.graceMs ?? 300,
    sessionId: 'sess-9',
    cwd: dir,
    env: process.env,
    onWarning: (message) => warnings.push(message),
  })
  live.push(lifecycle)
  return { lifecycle, warnings }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

async function waitUntil(check: () => boolean, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met before the deadline')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('LifecycleHooks', () => {
  it('awaits sync hooks and gives them hook_event_name, session_id and extra on stdin', async () => {
    const { lifecycle } = make({
      checkpoint: [
        {
          name: 'record',
          command: 'cat > checkpoint.json; echo "$PROCTOR_HOOK_EVENT $PROCTOR_SESSION_ID" > checkpoint.env',
        },
      ],
    })
    const results = await lifecycle.fire('checkpoint', { seq: 3, sha: 'abc' })
    expect(results).toMatchObject([{ name: 'record', status: 'ok', async: false, exit_code: 0 }])
    expect(JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'))).toEqual({
      hook_event_name: 'checkpoint',
      session_id: 'sess-9',
      cwd: dir,
      extra: { seq: 3, sha: 'abc' },
    })
    expect(readFileSync(join(dir, 'checkpoint.env'), 'utf8').trim()).toBe('checkpoint sess-9')
  })

  it('does not wait for async hooks', async () => {
    const { lifecycle } = make({
      session_start: [
        { command: 'while [ ! -f go-async ]; do sleep 0.05; done; touch async-done', async: true },
      ],
    })
    const results = await lifecycle.fire('session_start', {})
    // The hook can only finish after we create go-async, which happens after fire() returned.
    expect(results[0]!.status).toBe('scheduled')
    expect(existsSync(join(dir, 'async-done'))).toBe(false)
    writeFileSync(join(dir, 'go-async'), '')
    await lifecycle.settled()
    expect(existsSync(join(dir, 'async-done'))).toBe(true)
  })

  it('drops firings with a warning when the async pool is full, and accepts again once there is room', async () => {
    const { lifecycle, warnings } = make(
      { violation: [{ command: 'while [ ! -f release-pool ]; do sleep 0.05; done', async: true }] },
      { poolSize: 2 },
    )
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await lifecycle.fire('violation', { i }))[0]!.status)
    expect(statuses).toEqual(['scheduled', 'scheduled', 'dropped'])
    expect(warnings.join('\n')).toMatch(/async hook pool is full \(2 running\); dropped this firing/)
    writeFileSync(join(dir, 'release-pool'), '')
    await lifecycle.settled()
    expect((await lifecycle.fire('violation', { i: 4 }))[0]!.status).toBe('scheduled')
    await lifecycle.settled()
  })

  it('clamps the pool size into 1–100 with a warning', () => {
    expect(make({}, { poolSize: 0 }).lifecycle.poolSize).toBe(1)
    const big = make({}, { poolSize: 500 })
    expect(big.lifecycle.poolSize).toBe(100)
    expect(big.warnings[0]).toMatch(/hooks_async_pool_size 500 is outside 1–100; using 100/)
  })

  it('warns when a sync hook prints {"async": true} and treats it as done', async () => {
    const { lifecycle, warnings } = make({
      session_end: [{ name: 'cc-style', command: `echo '{"async": true}'` }],
    })
    const results = await lifecycle.fire('session_end', { status: 'completed' })
    expect(results[0]!.status).toBe('ok')
    expect(warnings.join('\n')).toMatch(/cc-style printed \{"async": true\}.*set async: true/)
  })

  it('reports a sync hook that times out or fails, with a warning', async () => {
    const { lifecycle, warnings } = make({
      approval_request: [
        { name: 'stuck', command: 'sleep 30', timeout: '300ms' },
        { name: 'broken', command: 'echo nope >&2; exit 4' },
      ],
    })
    const results = await lifecycle.fire('approval_request', {})
    expect(results.map((result) => result.status)).toEqual(['timeout', 'error'])
    expect(results[1]!.message).toBe('exited with code 4: nope')
    expect(warnings).toHaveLength(2)
  })

  it('shutdown kills hooks that ignore SIGTERM after the grace, leaves nothing running, and drops later firings', async () => {
    const { lifecycle, warnings } = make(
      {
        subagent_stop: [
          {
            command: `trap '' TERM; echo $$ >> stubborn.pids; sleep 60 & echo $! >> stubborn.pids; wait`,
            async: true,
            timeout: '60s',
          },
        ],
      },
      { graceMs: 300 },
    )
    for (let i = 0; i < 3; i++) await lifecycle.fire('subagent_stop', { i })
    await waitUntil(
      () =>
        existsSync(join(dir, 'stubborn.pids')) &&
        readFileSync(join(dir, 'stubborn.pids'), 'utf8').trim().split('\n').length === 6,
    )
    expect(lifecycle.runningCount).toBe(3)
    const began = Date.now()
    await lifecycle.shutdown()
    // Far below the hooks' own 60s timeout: the group was SIGKILLed after the grace.
    expect(Date.now() - began).toBeLessThan(15_000)
    expect(lifecycle.runningCount).toBe(0)
    const pids = readFileSync(join(dir, 'stubborn.pids'), 'utf8').trim().split('\n').map(Number)
    expect(pids.filter(alive)).toEqual([])
    const later = await lifecycle.fire('subagent_stop', {})
    expect(later[0]!.status).toBe('dropped')
    expect(warnings.join('\n')).toMatch(/shutting down/)
  })
})
