// Batch benchmark (issue 6): twenty short tasks at concurrency 4 in a real repository. Wall time is set
// against the ideal ceil(20/4) × task time, where the task time is measured by running the same command
// bare; what is left over, per wave of children, is the overhead proctor adds to each child (worktree,
// session, report, subagent_stop). Each child's own overhead is also timed, from onChildStart (before
// its worktree is acquired) to onChildEnd (after subagent_stop), minus the task time: p50 and p90 over
// every child of every run. Targets (issue 17): p50 ≤ 60 ms per child without checkpoints, ≤ 200 ms with
// them. Peak RSS is proctor's own process.
// One batch's wall time swings with the machine's I/O (the first wave checks out every file of the
// repository once per worktree), so the batch runs BENCH_BATCH_RUNS times (default 3), plain and
// checkpointed alternately, each in a fresh repository, and every figure is the median of its runs.
// BENCH_BATCH_FILES (default 200) sets the repository's size; it goes under TMPDIR.
// The batches run in a process of their own, as `proctor batch` does: every git process a child starts
// is a fork() of that process, whose cost grows with the memory fork has to copy, and `npm run bench`
// reaches this suite with what the earlier suites left in its own process (a 25 MB flood's buffers:
// 34 MB of copied memory against 15 MB in a fresh process). Run alone: node --import tsx bench/batch.ts
import { spawn, execFileSync } from 'node:child_process'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { configSchema } from '../src/config/schema.js'
import { runBatch, type BatchTask } from '../src/batch/batch.js'

const TASKS = 20
const CONCURRENCY = 4
const TASK_SECONDS = 0.2
const TARGET_PLAIN_MS = 60
const TARGET_CHECKPOINTS_MS = 200
const FILES = Number(process.env.BENCH_BATCH_FILES ?? 200)
const RUNS = Math.max(1, Number(process.env.BENCH_BATCH_RUNS ?? 3))

type Figures = Awaited<ReturnType<typeof measure>>

/** The batch figures, measured in a new process (see the top of this file). */
export async function runBatchBench(): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const out: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  if (code !== 0) throw new Error(`the batch bench process exited with ${code}`)
  return JSON.parse(Buffer.concat(out).toString('utf8')) as Record<string, unknown>
}

async function measureBatches(): Promise<Record<string, unknown>> {
  const copiedAtStart = forkCopiedMb()
  const taskMs = await bareTaskMs()
  const plainRuns: Figures[] = []
  const checkpointRuns: Figures[] = []
  // Repositories are deleted only once every run is timed: a deletion (800 files per batch, with its
  // worktrees) slows the disk for the next seconds, and would land in the next run's first checkouts.
  const repos: string[] = []
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [id, runs, checkpoints] of [
        [`plain-${run}`, plainRuns, { enabled: false }],
        [`checkpoints-${run}`, checkpointRuns, { enabled: true, push: 'never' }],
      ] as const) {
        const repo = makeRepo()
        repos.push(repo)
        flushDisk()
        runs.push(await measure(repo, id, { checkpoints }, taskMs))
      }
    }
  } finally {
    for (const repo of repos) rmSync(repo, { recursive: true, force: true })
  }
  const plain = medianFigures(plainRuns)
  const withCheckpoints = medianFigures(checkpointRuns)
  const plainChild = percentiles(plainRuns.flatMap((r) => r.child_overheads_ms))
  const checkpointChild = percentiles(checkpointRuns.flatMap((r) => r.child_overheads_ms))
  return {
    tasks: TASKS,
    concurrency: CONCURRENCY,
    files: FILES,
    runs: RUNS,
    task_ms: round(taskMs),
    ideal_ms: round(Math.ceil(TASKS / CONCURRENCY) * taskMs),
    // Pipe mode, no checkpoints: the batch machinery and the session around a process.
    plain,
    // Each child also starts its checkpoint store and watcher and takes its checkpoints.
    with_checkpoints: withCheckpoints,
    // Each child's own overhead (its start to its end, minus the task), over every child of every run.
    per_child_ms: { plain: plainChild, with_checkpoints: checkpointChild },
    // Every run's overhead per child (ms), to show the spread behind the medians.
    overhead_per_child_runs_ms: {
      plain: plainRuns.map((r) => r.overhead_per_child_ms),
      with_checkpoints: checkpointRuns.map((r) => r.overhead_per_child_ms),
    },
    peak_rss_mb: round(process.resourceUsage().maxRSS / 1024),
    // Anonymous memory a fork() of this process copies (what is not marked MADV_DONTFORK, as V8's heap
    // is), before the first batch and after the last; null where /proc/self/smaps is not there.
    fork_copied_mb: { start: copiedAtStart, end: forkCopiedMb() },
    // Processes this process started per child (git, the task's shell), counted as they are created.
    processes_per_child: {
      plain: round(median(plainRuns.map((r) => r.processes)) / TASKS),
      with_checkpoints: round(median(checkpointRuns.map((r) => r.processes)) / TASKS),
    },
    targets: {
      plain_p50: {
        target: `<= ${TARGET_PLAIN_MS}`,
        value: plainChild.p50,
        ok: plainChild.p50 <= TARGET_PLAIN_MS,
      },
      with_checkpoints_p50: {
        target: `<= ${TARGET_CHECKPOINTS_MS}`,
        value: checkpointChild.p50,
        ok: checkpointChild.p50 <= TARGET_CHECKPOINTS_MS,
      },
    },
    ok: plainChild.p50 <= TARGET_PLAIN_MS && checkpointChild.p50 <= TARGET_CHECKPOINTS_MS,
  }
}

/** Each figure's median over the runs. */
function medianFigures(runs: Figures[]): Omit<Figures, 'child_overheads_ms' | 'processes'> {
  const of = (key: Exclude<keyof Figures, 'child_overheads_ms' | 'processes'>) =>
    median(runs.map((r) => r[key]))
  return {
    wall_ms: of('wall_ms'),
    vs_ideal: of('vs_ideal'),
    overhead_per_child_ms: of('overhead_per_child_ms'),
    session_overhead_median_ms: of('session_overhead_median_ms'),
    completed: of('completed'),
  }
}

async function measure(repo: string, id: string, extra: Record<string, unknown>, taskMs: number) {
  const config = configSchema.parse({ agent: { pty: false }, ...extra })
  const tasks: BatchTask[] = Array.from({ length: TASKS }, (_, i) => ({
    name: `t${i}`,
    command: { shell: `sleep ${TASK_SECONDS}; echo task ${i} > out-${i}.txt` },
    role: null,
  }))
  const started: number[] = []
  const childOverheads: number[] = []
  let processes = 0
  const count = () => void processes++
  subscribe('child_process', count)
  const began = performance.now()
  const outcome = await runBatch({
    config,
    cwd: repo,
    tasks,
    concurrency: CONCURRENCY,
    batchId: `bench-${id}`,
    onChildStart: (_task, index) => (started[index] = performance.now()),
    onChildEnd: (child) =>
      void childOverheads.push(round(performance.now() - started[child.task_index]! - taskMs)),
  })
  const wallMs = performance.now() - began
  unsubscribe('child_process', count)
  const waves = Math.ceil(TASKS / CONCURRENCY)
  const sessionMs = outcome.batch.children.map((c) => c.duration_ms)
  return {
    wall_ms: round(wallMs),
    vs_ideal: round(wallMs / (waves * taskMs)),
    overhead_per_child_ms: round((wallMs - waves * taskMs) / waves),
    // Inside runSession alone (spawn to report), without the worktree and the move of the report.
    session_overhead_median_ms: round(median(sessionMs) - taskMs),
    completed: outcome.batch.completed_count,
    child_overheads_ms: childOverheads,
    processes,
  }
}

/** Anonymous memory (MB) in mappings a fork() copies: every one whose VmFlags lack `dc` (MADV_DONTFORK). */
function forkCopiedMb(): number | null {
  let smaps: string
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8')
  } catch {
    return null
  }
  let kb = 0
  let anonymous = 0
  for (const line of smaps.split('\n')) {
    if (line.startsWith('Anonymous:')) anonymous = Number(line.split(/\s+/)[1])
    else if (line.startsWith('VmFlags:') && !/\bdc\b/.test(line)) kb += anonymous
  }
  return round(kb / 1024)
}

function percentiles(values: number[]): { p50: number; p90: number; n: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
  return { p50: round(at(0.5)), p90: round(at(0.9)), n: sorted.length }
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

/**
 * Writes out what earlier runs (and the new repository) left in the page cache and journal, so that their
 * deletions — on a filesystem mounted with `discard`, each one a TRIM at the next journal commit — are not
 * paid for inside the next timed batch.
 */
function flushDisk(): void {
  try {
    execFileSync('sync', { stdio: 'ignore' })
  } catch {
    // No sync(1) here (Windows): the figures just carry more noise.
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await measureBatches(), null, 2))
}
