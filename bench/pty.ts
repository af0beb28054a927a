// PTY supervisor benchmarks, each against a raw baseline in the same run:
// - the built CLI as users run it (`node dist/cli.js run --quiet -- <stream 25 MB>`, detection on) against a
//   minimal node script that runs the same command under raw node-pty and discards the output: wall time
//   and the peak RSS (VmHWM) of each process;
// - the same capture in this process, to isolate the output pipeline (raw node-pty, spawnManaged alone,
//   spawnManaged + OutputPipeline);
// - fast-exit completeness (200 runs of `seq 1 50000`) and spawnManaged(`true`) against a raw spawn.
// Needs dist/ (npm run build). Run alone: node --import tsx bench/pty.ts
import { execFileSync, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as NodePty from '@lydell/node-pty'
import { OutputPipeline } from '../src/supervisor/output.js'
import type { RenderedScreen } from '../src/supervisor/screen.js'
import { spawnManaged } from '../src/supervisor/process.js'

const root = resolve(import.meta.dirname, '..')
const cli = join(root, 'dist/cli.js')
const STREAM_BYTES = 25 * 1024 * 1024
/**
 * One round's capture ratio ranges over 0.7–1.3 on an idle 2-core machine (the stream, the reader and the
 * kernel's tty work share two cores; a round's standard deviation is 0.12–0.21). With a true ratio of 0.95
 * the median of 11 rounds still falls below 0.85 in about one run in eleven (simulated from the measured
 * spread), the median of 21 in about one in thirty: each capture takes 21.
 */
const CLI_ROUNDS = 21
const IN_PROCESS_ROUNDS = 5
const FAST_EXIT_RUNS = 200
const SEQ_COUNT = 50_000
const TRUE_RUNS = 30
const MB = 1024 * 1024
/** Prints exactly STREAM_BYTES of text lines as fast as the terminal takes them. */
const STREAM_LINE = 'proctor benchmark line: the quick brown fox jumps over the lazy dog 0123456789'
const STREAM_COMMAND = `yes '${STREAM_LINE}' | head -c ${STREAM_BYTES}`
/** What the terminal delivers: each \n of the stream becomes \r\n. */
const STREAM_PTY_BYTES = STREAM_BYTES + Math.floor(STREAM_BYTES / (STREAM_LINE.length + 1))
/** A detect rule that never matches the stream: detection runs on every scan and finds nothing. */
const DETECT_YAML = `detect:
  - name: approve
    match: 'Do you want to proceed\\?'
    kind: approval_request
    respond: { send: "y\\r" }
`

const nodePty = createRequire(import.meta.url)('@lydell/node-pty') as typeof NodePty

/**
 * Loaded with --import into both measured processes: at exit it writes the process's peak RSS (VmHWM,
 * which the kernel keeps) and bytes seen, so the figure covers the whole run up to the last moment.
 */
const PEAK_RSS_PRELOAD = `import { readFileSync, writeFileSync } from 'node:fs'
process.on('exit', () => {
  const status = readFileSync('/proc/self/status', 'utf8')
  const kb = Number(/VmHWM:\\s+(\\d+)/.exec(status)?.[1] ?? 0)
  writeFileSync(process.env.PROCTOR_BENCH_PEAK_OUT, JSON.stringify({ peak_kb: kb, stream: globalThis.__benchStream ?? null }))
})
`

/** The raw baseline: the command under node-pty (the copy dist/ vendors), output counted and dropped. */
const RAW_PTY_SCRIPT = `import { createRequire } from 'node:module'
const pty = createRequire(process.env.PROCTOR_BENCH_CLI)('@lydell/node-pty')
const began = performance.now()
const stream = (globalThis.__benchStream = { bytes: 0, ms: 0 })
const term = pty.spawn('/bin/sh', ['-c', process.argv[2]], {
  cols: 120, rows: 40, cwd: process.cwd(), env: process.env, encoding: null,
})
term.onData((data) => (stream.bytes += data.length))
term.onExit(({ exitCode }) => {
  stream.ms = performance.now() - began
  process.exitCode = exitCode
})
`

/** The raw baseline of `--no-pty`: the command on plain pipes (child_process), output counted and dropped. */
const RAW_PIPE_SCRIPT = `import { spawn } from 'node:child_process'
const began = performance.now()
const stream = (globalThis.__benchStream = { bytes: 0, ms: 0 })
const child = spawn('/bin/sh', ['-c', process.argv[2]], { stdio: ['ignore', 'pipe', 'pipe'] })
child.stdout.on('data', (data) => (stream.bytes += data.length))
child.stderr.on('data', (data) => (stream.bytes += data.length))
child.on('close', (exitCode) => {
  stream.ms = performance.now() - began
  process.exitCode = exitCode
})
`

export async function runPtyBench(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-bench-pty-'))
  try {
    const missing = { error: 'dist/cli.js is missing: run npm run build first' }
    const cliResult = existsSync(cli) ? await cliCapture(dir, process.execPath) : missing
    // `--no-pty` against a plain pipe: same stream, same detect rule, same rounds.
    const pipeResult = existsSync(cli) ? await cliCapture(dir, process.execPath, 'pipe') : missing
    // The CLI's floor is Node 20.19 (node-pty behaves differently there); measured when the e2e tests' variable names it.
    const systemNode = process.env.PROCTOR_SYSTEM_NODE
    const systemResult =
      systemNode && systemNode !== process.execPath && existsSync(cli)
        ? {
            node: execFileSync(systemNode, ['--version']).toString().trim(),
            ...(await cliCapture(dir, systemNode)),
            no_pty: await cliCapture(dir, systemNode, 'pipe'),
          }
        : undefined
    // Alternate the three so none always runs on a warmer machine.
    const raw: number[] = []
    const adapter: number[] = []
    const proctor: number[] = []
    const rendered: number[] = []
    for (let round = 0; round < IN_PROCESS_ROUNDS; round++) {
      raw.push(await rawThroughput())
      adapter.push(await adapterThroughput())
      const pipeline = await pipelineThroughput(join(dir, `transcript-${round}.log`))
      proctor.push(pipeline.mbS)
      rendered.push(pipeline.renderedBytes)
    }
    const rawMbS = median(raw)
    const proctorMbS = median(proctor)
    const fastExit = await fastExitCompleteness()
    const overhead = await trueOverhead()
    return {
      node: process.version,
      cli: cliResult,
      cli_no_pty: pipeResult,
      ...(systemResult ? { cli_system_node: systemResult } : {}),
      in_process: {
        stream_mb: STREAM_BYTES / MB,
        rounds: IN_PROCESS_ROUNDS,
        raw_node_pty_mb_s: round(rawMbS),
        /** spawnManaged alone (no capture/detection): the cost of the supervisor's PTY adapter. */
        adapter_only_mb_s: round(median(adapter)),
        /** spawnManaged + OutputPipeline (transcript, rendered screen, one detect rule). */
        pipeline_mb_s: round(proctorMbS),
        /**
         * KB of the stream xterm parsed (the rest was thinned out of the rendering; the transcript keeps
         * all of it), median: load-independent, and xterm is the costliest thing proctor does per byte.
         */
        rendered_kb: round(median(rendered) / 1024),
        ratio: round(proctorMbS / rawMbS),
      },
      fast_exit: {
        ...fastExit,
        target: `${FAST_EXIT_RUNS}/${FAST_EXIT_RUNS}`,
        ok: fastExit.complete === FAST_EXIT_RUNS,
      },
      true_overhead: { ...overhead, target_ms: 300, ok: overhead.overhead_ms <= 300 },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

interface ProcessRun {
  wallMs: number
  peakMb: number
  code: number | null
  /** From spawning the command to its exit with every byte captured, and the bytes captured. */
  stream: { bytes: number; ms: number }
}

/** The part of report.json this benchmark reads. */
interface ReportExcerpt {
  status: string
  transcript: { path: string; bytes: number }
  events: { at: number; kind: string }[]
}

/** Spawn → exit of the agent as report.json records it ('exit' is recorded once all output is captured). */
function agentWindow(report: ReportExcerpt): { bytes: number; ms: number } {
  const at = (kind: string) => report.events.find((e) => e.kind === kind)?.at ?? NaN
  return { bytes: report.transcript.bytes, ms: at('exit') - at('spawn') }
}

/**
 * The user-facing figures: `proctor run` (built CLI, PTY, one detect rule, default config otherwise)
 * against the raw node-pty script, both streaming 25 MB, in alternating rounds. Each also runs `true`,
 * so the fixed cost of starting and finishing (which has its own budget, `proctor run -- true` ≤ 300 ms)
 * can be told apart from the cost of moving the bytes.
 */
export async function cliCapture(
  dir: string,
  node: string,
  mode: 'pty' | 'pipe' = 'pty',
): Promise<Record<string, unknown>> {
  const pipe = mode === 'pipe'
  /** What the agent's output holds: a pipe passes the bytes as they are, a terminal turns \n into \r\n. */
  const expected = pipe ? STREAM_BYTES : STREAM_PTY_BYTES
  const target = pipe ? 0.8 : 0.85
  const repo = mkdtempSync(join(dir, 'repo-'))
  execFileSync('git', ['init', '-q', repo])
  execFileSync('git', [
    '-C',
    repo,
    '-c',
    'user.name=b',
    '-c',
    'user.email=b@b',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  ])
  writeFileSync(join(repo, 'proctor.yml'), DETECT_YAML)
  writeFileSync(join(repo, '.gitignore'), 'proctor.yml\n')
  const preload = join(dir, 'peak-rss.mjs')
  const rawScript = join(dir, pipe ? 'raw-pipe.mjs' : 'raw-pty.mjs')
  writeFileSync(preload, PEAK_RSS_PRELOAD)
  writeFileSync(rawScript, pipe ? RAW_PIPE_SCRIPT : RAW_PTY_SCRIPT)
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PROCTOR_BENCH_CLI: cli }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
  const measure = async (args: string[]): Promise<ProcessRun> => {
    const out = join(dir, 'peak.json')
    rmSync(out, { force: true })
    let stdout = ''
    const began = performance.now()
    const code = await new Promise<number | null>((ok, fail) => {
      const child = spawn(node, ['--import', pathToFileURL(preload).href, ...args], {
        cwd: repo,
        env: { ...env, PROCTOR_BENCH_PEAK_OUT: out },
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.on('error', fail).on('close', (c) => ok(c))
    })
    const wallMs = performance.now() - began
    const peak = JSON.parse(readFileSync(out, 'utf8')) as {
      peak_kb: number
      stream: { bytes: number; ms: number } | null
    }
    let stream = peak.stream
    if (!stream) {
      const report = JSON.parse(stdout) as ReportExcerpt
      stream = agentWindow(report)
      // Measured, so it goes: the kernel writes dirty pages back about 30 s after they were written, so
      // 7 transcripts of 26 MB kept from one capture were written back during the rounds of the next
      // (Node 20's PTY rounds ran through ~270 MB of Node 24's, in bursts of 25-90 MB, which Node 24's
      // rounds never met). Deleted before the writeback, their pages are dropped unwritten; the run
      // itself still wrote every byte to the page cache inside its window.
      // A failed run keeps it: the error below points there.
      if (code === 0) rmSync(resolve(repo, report.transcript.path), { force: true })
    }
    return { wallMs, peakMb: peak.peak_kb / 1024, code, stream }
  }
  const proctorArgs = (command: string) => [
    cli,
    'run',
    '--json',
    ...(pipe ? ['--no-pty'] : []),
    '--',
    '/bin/sh',
    '-c',
    command,
  ]
  const rawArgs = (command: string) => [rawScript, command]
  const runs = {
    raw: [] as ProcessRun[],
    proctor: [] as ProcessRun[],
    rawTrue: [] as ProcessRun[],
    proctorTrue: [] as ProcessRun[],
  }
  for (let i = 0; i < CLI_ROUNDS; i++) {
    // Which side streams first alternates, so neither always follows the other's run.
    if (i % 2 === 0) {
      runs.raw.push(await measure(rawArgs(STREAM_COMMAND)))
      runs.proctor.push(await measure(proctorArgs(STREAM_COMMAND)))
    } else {
      runs.proctor.push(await measure(proctorArgs(STREAM_COMMAND)))
      runs.raw.push(await measure(rawArgs(STREAM_COMMAND)))
    }
    runs.rawTrue.push(await measure(rawArgs('true')))
    runs.proctorTrue.push(await measure(proctorArgs('true')))
  }
  const failed = runs.proctor.find((r) => r.code !== 0)
  if (failed) throw new Error(`proctor run exited with ${failed.code} while streaming; see ${repo}/.proctor`)
  // No byte lost: every transcript holds exactly what the terminal delivered. Raw node-pty is counted
  // too: on Node 20/22 it loses the tail of a fast exit.
  const complete = (xs: ProcessRun[]) =>
    `${xs.filter((r) => r.stream.bytes === expected).length}/${xs.length}`
  const wall = (xs: ProcessRun[]) => median(xs.map((r) => r.wallMs))
  const window = (xs: ProcessRun[]) => median(xs.map((r) => r.stream.ms))
  const rawStreamMs = wall(runs.raw) - wall(runs.rawTrue)
  const proctorStreamMs = wall(runs.proctor) - wall(runs.proctorTrue)
  const captureRatio = window(runs.raw) / window(runs.proctor)
  const peaks = runs.proctor.map((r) => r.peakMb)
  return {
    mode,
    stream_mb: STREAM_BYTES / MB,
    rounds: CLI_ROUNDS,
    bytes_per_run: expected,
    proctor_transcripts_complete: complete(runs.proctor),
    [pipe ? 'raw_pipe_complete' : 'raw_node_pty_complete']: complete(runs.raw),
    throughput: {
      /** Spawn → exit with all output captured: node-pty's onExit, proctor's report.json events. */
      raw_capture_ms: round(window(runs.raw)),
      proctor_capture_ms: round(window(runs.proctor)),
      raw_mb_s: round(STREAM_BYTES / MB / (window(runs.raw) / 1000)),
      proctor_mb_s: round(STREAM_BYTES / MB / (window(runs.proctor) / 1000)),
      ratio: round(captureRatio),
      /** Median with the spread: each round's raw window over the same round's proctor window. */
      ratio_per_round: runs.raw.map((r, i) => round(r.stream.ms / runs.proctor[i]!.stream.ms)),
      target_ratio: target,
      ok: captureRatio >= target,
    },
    wall: {
      raw_ms: round(wall(runs.raw)),
      proctor_ms: round(wall(runs.proctor)),
      end_to_end_ratio: round(wall(runs.raw) / wall(runs.proctor)),
      raw_true_ms: round(wall(runs.rawTrue)),
      proctor_true_ms: round(wall(runs.proctorTrue)),
      /**
       * What the 25 MB added to each process's wall time (stream run minus `true` run). Lower than the
       * capture ratio because proctor's own start-up work (config, git, the first checkpoint's index)
       * overlaps the start of the stream and competes for the CPU.
       */
      raw_stream_ms: round(rawStreamMs),
      proctor_stream_ms: round(proctorStreamMs),
      stream_ratio: round(rawStreamMs / proctorStreamMs),
    },
    peak_rss_mb: {
      [pipe ? 'raw_pipe' : 'raw_node_pty']: round(median(runs.raw.map((r) => r.peakMb))),
      raw_true: round(median(runs.rawTrue.map((r) => r.peakMb))),
      proctor_true: round(median(runs.proctorTrue.map((r) => r.peakMb))),
      proctor_streaming_median: round(median(peaks)),
      proctor_streaming_max: round(Math.max(...peaks)),
      target_mb: 100,
      ok: Math.max(...peaks) <= 100,
    },
  }
}

/** Raw node-pty: spawn, count bytes, stop at exit. MB/s. */
async function rawThroughput(): Promise<number> {
  const began = performance.now()
  let bytes = 0
  await new Promise<void>((resolve) => {
    const term = nodePty.spawn('/bin/sh', ['-c', STREAM_COMMAND], {
      cols: 120,
      rows: 40,
      cwd: process.cwd(),
      env: process.env as Record<string, string>,
      encoding: null,
    })
    term.onData((data: string | Buffer) => (bytes += data.length))
    term.onExit(() => resolve())
  })
  return bytes / MB / ((performance.now() - began) / 1000)
}

/** spawnManaged in a PTY, only counting bytes. MB/s. */
async function adapterThroughput(): Promise<number> {
  const began = performance.now()
  let bytes = 0
  const child = spawnManaged({
    command: { shell: STREAM_COMMAND },
    cwd: process.cwd(),
    env: process.env,
    mode: 'pty',
    graceMs: 2000,
    // As AgentRun reads the agent's output: into one reused buffer.
    reuseOutputBuffer: true,
    onOutput: (chunk) => (bytes += chunk.length),
  })
  await child.exited
  return bytes / MB / ((performance.now() - began) / 1000)
}

/** spawnManaged in a PTY feeding the full output pipeline (transcript, screen, one detector rule). MB/s. */
async function pipelineThroughput(transcriptPath: string): Promise<{ mbS: number; renderedBytes: number }> {
  const pipeline = new OutputPipeline({
    mode: 'pty',
    cols: 120,
    rows: 40,
    transcriptPath,
    transcriptMax: 64 * MB,
    rules: [
      {
        name: 'approve',
        match: 'Do you want to proceed\\?',
        kind: 'approval_request',
        respond: { send: 'y\r' },
      },
    ],
  })
  const began = performance.now()
  const child = spawnManaged({
    command: { shell: STREAM_COMMAND },
    cwd: process.cwd(),
    env: process.env,
    mode: 'pty',
    graceMs: 2000,
    reuseOutputBuffer: true,
    onOutput: (chunk) => pipeline.write(chunk),
  })
  await child.exited
  await pipeline.flush()
  const seconds = (performance.now() - began) / 1000
  await pipeline.close()
  // Gone before the kernel writes it back during a later round (see cliCapture's measure).
  rmSync(transcriptPath, { force: true })
  const screen = pipeline.view as RenderedScreen
  return { mbS: pipeline.bytes / MB / seconds, renderedBytes: pipeline.bytes - screen.skippedBytes }
}

async function fastExitCompleteness(): Promise<{
  runs: number
  complete: number
  worst_shortfall_bytes: number
}> {
  let expected = 0
  for (let i = 1; i <= SEQ_COUNT; i++) expected += String(i).length + 2
  let complete = 0
  let worst = 0
  for (let run = 0; run < FAST_EXIT_RUNS; run++) {
    let bytes = 0
    const child = spawnManaged({
      command: { file: 'seq', args: ['1', String(SEQ_COUNT)] },
      cwd: process.cwd(),
      env: process.env,
      mode: 'pty',
      graceMs: 2000,
      reuseOutputBuffer: true,
      onOutput: (chunk) => (bytes += chunk.length),
    })
    await child.exited
    if (bytes === expected) complete++
    worst = Math.max(worst, expected - bytes)
  }
  return { runs: FAST_EXIT_RUNS, complete, worst_shortfall_bytes: worst }
}

/** Median wall time of `true` through spawnManaged (PTY, as `proctor run -- true` would) vs child_process. */
async function trueOverhead(): Promise<{
  raw_ms: number
  pty_ms: number
  pipe_ms: number
  overhead_ms: number
}> {
  const raw: number[] = []
  const pty: number[] = []
  const pipe: number[] = []
  for (let i = 0; i < TRUE_RUNS; i++) {
    let began = performance.now()
    await new Promise((resolve) => spawn('true', [], { stdio: 'ignore' }).on('exit', resolve))
    raw.push(performance.now() - began)
    for (const [mode, into] of [
      ['pty', pty],
      ['pipe', pipe],
    ] as const) {
      began = performance.now()
      const child = spawnManaged({
        command: { file: 'true', args: [] },
        cwd: process.cwd(),
        env: process.env,
        mode,
        graceMs: 1000,
      })
      await child.exited
      into.push(performance.now() - began)
    }
  }
  const rawMs = median(raw)
  const ptyMs = median(pty)
  return {
    raw_ms: round(rawMs),
    pty_ms: round(ptyMs),
    pipe_ms: round(median(pipe)),
    overhead_ms: round(ptyMs - rawMs),
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runPtyBench(), null, 2))
}
