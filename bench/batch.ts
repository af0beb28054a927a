// Batch benchmark (issue 6): twenty short tasks at concurrency 4 in a real repository. Wall time is set
// against the ideal ceil(20/4) × task time, where the task time is measured by running the same command
// bare; what is left over, per wave of children, is the overhead proctor adds to each child (worktree,
// session, report, subagent_stop). Target: ≤ 100 ms per child. Peak RSS is proctor's own process.
// The checkout dominates what is left (git writes every file of the repository per child), so the
// figures depend on BENCH_BATCH_FILES (default 200) and on the disk under TMPDIR, where the repo goes.
// Run alone: node --import tsx bench/batch.ts
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { configSchema } from '../src/config/schema.js'
import { runBatch, type BatchTask } from '../src/session/batch.js'

const TASKS = 20
const CONCURRENCY = 4
const TASK_SECONDS = 0.2
const TARGET_OVERHEAD_MS = 100
const FILES = Number(process.env.BENCH_BATCH_FILES ?? 200)

export async function runBatchBench(): Promise<Record<string, unknown>> {
  const repo = makeRepo()
  try {
    const taskMs = await bareTaskMs()
    const plain = await measure(repo, 'plain', { checkpoints: { enabled: false } }, taskMs)
    const withCheckpoints = await measure(
      repo,
      'checkpoints',
      { checkpoints: { enabled: true, push: 'never' } },
      taskMs,
    )
    return {
      tasks: TASKS,
      concurrency: CONCURRENCY,
      task_ms: round(taskMs),
      ideal_ms: round(Math.ceil(TASKS / CONCURRENCY) * taskMs),
      // Pipe mode, no checkpoints: the batch machinery and the session around a process.
      plain,
      // Each child also takes its final checkpoint (a write-tree and commit per child).
      with_checkpoints: withCheckpoints,
      peak_rss_mb: round(process.resourceUsage().maxRSS / 1024),
      target_overhead_per_child_ms: TARGET_OVERHEAD_MS,
      ok: plain.overhead_per_child_ms <= TARGET_OVERHEAD_MS,
    }
  } finally {
    rmSync(repo, { recursive: true, force: true })
  }
}

async function measure(repo: string, id: string, extra: Record<string, unknown>, taskMs: number) {
  const config = configSchema.parse({ agent: { pty: false }, ...extra })
  const tasks: BatchTask[] = Array.from({ length: TASKS }, (_, i) => ({
    name: `t${i}`,
    command: { shell: `sleep ${TASK_SECONDS}; echo task ${i} > out-${i}.txt` },
    role: null,
  }))
  const began = performance.now()
  const outcome = await runBatch({
    config,
    cwd: repo,
    tasks,
    concurrency: CONCURRENCY,
    batchId: `bench-${id}`,
  })
  const wallMs = performance.now() - began
  const waves = Math.ceil(TASKS / CONCURRENCY)
  const sessionMs = outcome.batch.children.map((c) => c.duration_ms)
  return {
    wall_ms: round(wallMs),
    vs_ideal: round(wallMs / (waves * taskMs)),
    overhead_per_child_ms: round((wallMs - waves * taskMs) / waves),
    // Inside runSession alone (spawn to report), without the worktree and the move of the report.
    session_overhead_median_ms: round(median(sessionMs) - taskMs),
    completed: outcome.batch.completed_count,
  }
}

/** The task's own time, measured the same way a session starts it (sh -c, pipes). */
async function bareTaskMs(): Promise<number> {
  const runs: number[] = []
  for (let i = 0; i < 5; i++) {
    const began = performance.now()
    await new Promise<void>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `sleep ${TASK_SECONDS}; echo task > /dev/null`], {
        stdio: 'pipe',
      })
      child.on('error', reject)
      child.on('close', () => resolve())
    })
    runs.push(performance.now() - began)
  }
  return median(runs)
}

function makeRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-bench-batch-')))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `file-${i}.txt`), `content ${i}\n`)
  git('add', '-A')
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'bench')
  return dir
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runBatchBench(), null, 2))
}
