// PTY supervisor benchmarks (design.md §10), each against a raw baseline in the same run:
// capture throughput with detection on vs raw node-pty, RSS while streaming 25 MB, fast-exit
// completeness (200 runs of `seq 1 50000`), and spawnManaged(`true`) overhead vs a raw spawn.
// Run alone: node --import tsx bench/pty.ts
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as NodePty from '@lydell/node-pty'
import { OutputPipeline } from '../src/supervisor/output.js'
import { spawnManaged } from '../src/supervisor/process.js'

const STREAM_BYTES = 25 * 1024 * 1024
const FAST_EXIT_RUNS = 200
const SEQ_COUNT = 50_000
const TRUE_RUNS = 30
/** Prints exactly STREAM_BYTES of text lines as fast as the terminal takes them. */
const STREAM_COMMAND = `yes 'proctor benchmark line: the quick brown fox jumps over the lazy dog 0123456789' | head -c ${STREAM_BYTES}`

const nodePty = createRequire(import.meta.url)('@lydell/node-pty') as typeof NodePty

export async function runPtyBench(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-bench-pty-'))
  try {
    // Alternate the two so neither always runs on a warmer machine.
    const raw: number[] = []
    const adapter: number[] = []
    const proctor: number[] = []
    const rssBeforeMb = process.memoryUsage.rss() / 1024 / 1024
    let rssPeakMb = 0
    for (let round = 0; round < 3; round++) {
      raw.push(await rawThroughput())
      adapter.push(await adapterThroughput())
      const measured = await proctorThroughput(join(dir, `transcript-${round}.log`))
      proctor.push(measured.mbPerS)
      rssPeakMb = Math.max(rssPeakMb, measured.rssPeakMb)
    }
    const rawMbS = median(raw)
    const proctorMbS = median(proctor)
    const ratio = round(proctorMbS / rawMbS)
    const fastExit = await fastExitCompleteness()
    const overhead = await trueOverhead()
    return {
      node: process.version,
      capture_throughput: {
        stream_mb: STREAM_BYTES / 1024 / 1024,
        raw_node_pty_mb_s: round(rawMbS),
        /** spawnManaged alone (no capture/detection): the cost of the supervisor's PTY adapter. */
        adapter_only_mb_s: round(median(adapter)),
        proctor_mb_s: round(proctorMbS),
        ratio,
        target_ratio: 0.8,
        ok: ratio >= 0.8,
      },
      rss_while_streaming: {
        before_mb: round(rssBeforeMb),
        peak_mb: round(rssPeakMb),
        /** What streaming added on top of the loaded process (tsx + modules account for before_mb). */
        growth_mb: round(rssPeakMb - rssBeforeMb),
        target_mb: 100,
        ok: rssPeakMb <= 100,
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
  return bytes / 1024 / 1024 / ((performance.now() - began) / 1000)
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
    onOutput: (chunk) => (bytes += chunk.length),
  })
  await child.exited
  return bytes / 1024 / 1024 / ((performance.now() - began) / 1000)
}

/** spawnManaged in a PTY feeding the full output pipeline (transcript, screen, one detector rule). */
async function proctorThroughput(transcriptPath: string): Promise<{ mbPerS: number; rssPeakMb: number }> {
  const pipeline = new OutputPipeline({
    mode: 'pty',
    cols: 120,
    rows: 40,
    transcriptPath,
    transcriptMax: 64 * 1024 * 1024,
    bufferBytes: 1024 * 1024,
    rules: [
      {
        name: 'approve',
        match: 'Do you want to proceed\\?',
        kind: 'approval_request',
        respond: { send: 'y\r' },
      },
    ],
  })
  let rssPeak = process.memoryUsage.rss()
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20)
  const began = performance.now()
  const child = spawnManaged({
    command: { shell: STREAM_COMMAND },
    cwd: process.cwd(),
    env: process.env,
    mode: 'pty',
    graceMs: 2000,
    onOutput: (chunk) => pipeline.write(chunk),
  })
  await child.exited
  await pipeline.flush()
  const seconds = (performance.now() - began) / 1000
  clearInterval(sampler)
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
  await pipeline.close()
  return { mbPerS: pipeline.bytes / 1024 / 1024 / seconds, rssPeakMb: rssPeak / 1024 / 1024 }
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
