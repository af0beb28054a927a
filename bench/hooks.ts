// Stop-hook and lifecycle-hook benchmarks: parallel stop hooks cost max(hook) + a little,
// per-hook overhead against a raw spawn, async scheduling latency with a saturated pool, and shutdown time
// with hooks that ignore SIGTERM. Run alone: node --import tsx bench/hooks.ts
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { configSchema } from '../src/config/schema.js'
import type { StopContext } from '../src/hooks/context.js'
import { LifecycleHooks } from '../src/hooks/lifecycle.js'
import { startHookProcess } from '../src/hooks/run-hook.js'
import { runStopHooks } from '../src/hooks/stop-hooks.js'

const SHUTDOWN_GRACE_MS = 1000

export async function runHooksBench(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-bench-hooks-'))
  try {
    const parallel = await parallelStopHooks(dir)
    const overhead = await perHookOverhead(dir)
    const scheduling = await asyncScheduling(dir)
    const shutdown = await shutdownTime(dir)
    return {
      // A ratio against the same ten sleeps spawned raw in the same run: an absolute 250 ms failed on a
      // busy machine whose raw baseline alone took 243-303 ms.
      parallel_stop_hooks: {
        ...parallel,
        target: '<= 1.25x the raw parallel spawns',
        ratio_vs_raw: round(parallel.wall_ms / parallel.raw_parallel_wall_ms),
        ok: parallel.wall_ms <= 1.25 * parallel.raw_parallel_wall_ms,
      },
      per_hook_overhead: { ...overhead, target_ms: 10, ok: overhead.overhead_ms <= 10 },
      async_scheduling: {
        ...scheduling,
        target_p99_ms: 5,
        ok: scheduling.scheduled.p99_ms <= 5 && scheduling.dropped.p99_ms <= 5,
      },
      shutdown: {
        ...shutdown,
        target_ms: SHUTDOWN_GRACE_MS + 500,
        ok: shutdown.wall_ms <= SHUTDOWN_GRACE_MS + 500,
      },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function context(cwd: string): StopContext {
  return {
    session_id: 'bench',
    cwd,
    stop_reason: 'manual',
    final_text: '',
    rounds: 1,
    stop_hook_active: false,
    checkpoint: null,
    violations: [],
  }
}

/** Ten hooks that each sleep 200 ms, in parallel: wall time should be about one hook. */
async function parallelStopHooks(cwd: string) {
  const hooks = configSchema.parse({
    stop_hooks: Array.from({ length: 10 }, (_, i) => ({ name: `sleep-${i}`, command: ['sleep', '0.2'] })),
  }).stop_hooks
  const walls: number[] = []
  const rawWalls: number[] = []
  for (let i = 0; i < 5; i++) {
    let began = performance.now()
    const outcome = await runStopHooks({
      hooks,
      context: context(cwd),
      cwd,
      env: process.env,
      graceMs: 1000,
      round: 1,
    })
    walls.push(performance.now() - began)
    if (outcome.verdict !== 'allow') throw new Error('bench hooks should allow')
    // The same ten sleeps spawned raw, in the same run: what the machine itself costs under its load.
    began = performance.now()
    await Promise.all(Array.from({ length: 10 }, () => rawSpawn('sleep', cwd, ['0.2'])))
    rawWalls.push(performance.now() - began)
  }
  const wall = median(walls)
  const raw = median(rawWalls)
  return {
    hooks: 10,
    hook_ms: 200,
    runs: walls.length,
    wall_ms: round(wall),
    raw_parallel_wall_ms: round(raw),
    overhead_per_hook_ms: round((wall - raw) / 10),
    wall_ms_all: walls.map(round),
  }
}

/** The same command through proctor's hook runner and through a raw child_process.spawn, interleaved. */
async function perHookOverhead(cwd: string) {
  const hookTimes: number[] = []
  const rawTimes: number[] = []
  for (let i = 0; i < 30; i++) {
    let began = performance.now()
    await startHookProcess({
      command: { file: 'true', args: [] },
      cwd,
      env: process.env,
      stdin: '{}\n',
      timeoutMs: 10_000,
      graceMs: 1000,
      label: 'bench',
    }).done
    hookTimes.push(performance.now() - began)
    began = performance.now()
    await rawSpawn('true', cwd)
    rawTimes.push(performance.now() - began)
  }
  const hook = median(hookTimes)
  const raw = median(rawTimes)
  return {
    runs: hookTimes.length,
    hook_ms: round(hook),
    raw_spawn_ms: round(raw),
    overhead_ms: round(hook - raw),
  }
}

function rawSpawn(file: string, cwd: string, args: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    // `true` may exit before reading stdin; a hook runner must survive that, so does this baseline.
    child.stdin.on('error', () => undefined)
    child.stdin.end('{}\n')
    child.stdout.resume()
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', () => resolve())
  })
}

/** fire() latency for async hooks: while the pool fills (scheduled) and once it is full (dropped). */
async function asyncScheduling(cwd: string) {
  const config = configSchema.parse({ hooks: { checkpoint: [{ command: ['sleep', '2'], async: true }] } })
  const lifecycle = new LifecycleHooks({
    hooks: config.hooks,
    poolSize: 10,
    shutdownGraceMs: 200,
    sessionId: 'bench',
    cwd,
    env: process.env,
  })
  const scheduled: number[] = []
  const dropped: number[] = []
  try {
    for (let i = 0; i < 200; i++) {
      const began = performance.now()
      const [result] = await lifecycle.fire('checkpoint', { seq: i })
      const took = performance.now() - began
      if (result?.status === 'scheduled') scheduled.push(took)
      else dropped.push(took)
    }
  } finally {
    await lifecycle.shutdown()
  }
  return { pool_size: 10, firings: 200, scheduled: stats(scheduled), dropped: stats(dropped) }
}

/** Ten async hooks that ignore SIGTERM: shutdown must end them within the grace plus a little. */
async function shutdownTime(cwd: string) {
  const pids = join(cwd, 'pids')
  rmSync(pids, { recursive: true, force: true })
  const config = configSchema.parse({
    hooks: {
      session_end: [
        { command: `trap '' TERM; mkdir -p pids; touch pids/$$; sleep 60`, async: true, timeout: '60s' },
      ],
    },
  })
  const lifecycle = new LifecycleHooks({
    hooks: config.hooks,
    poolSize: 10,
    shutdownGraceMs: SHUTDOWN_GRACE_MS,
    sessionId: 'bench',
    cwd,
    env: process.env,
  })
  for (let i = 0; i < 10; i++) await lifecycle.fire('session_end', { i })
  const deadline = Date.now() + 10_000
  while (!(existsSync(pids) && readdirSync(pids).length === 10) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const began = performance.now()
  await lifecycle.shutdown()
  return {
    hooks: 10,
    grace_ms: SHUTDOWN_GRACE_MS,
    wall_ms: round(performance.now() - began),
    left_running: lifecycle.runningCount,
  }
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) =>
    sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!) : null
  return { count: values.length, p50_ms: at(0.5) ?? 0, p99_ms: at(0.99) ?? 0, max_ms: at(1) ?? 0 }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runHooksBench(), null, 2))
}
