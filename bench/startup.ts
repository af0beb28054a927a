// Start and end of a session, with the built CLI, each as a ratio or a margin against a baseline in the
// same run:
// - `proctor run` start → the agent's spawn, in a 50-file and a 10,000-file repository (the ratio shows
//   whether start-up grows with the tree), with a proctor.yml (parsed before the spawn) in a pipe and in a
//   PTY, against the floor of a bare `node -e` starting the same agent; proctor's CPU time at the spawn; its
//   peak RSS at 10,000 files;
// - the agent's exit → proctor's exit, minus the final checkpoint's own time, when 60 or 1,000 files
//   changed and a triggered checkpoint is waiting out min_interval;
// - `proctor --version` and each command's `--help` against a bare `node -e 0`, and the action's first
//   log line.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { SessionReport } from '../src/report/model.js'

const root = path.resolve(import.meta.dirname, '..')
const cli = path.join(root, 'dist/cli.js')
const ROUNDS = 9

export async function runStartupBench(): Promise<Record<string, unknown>> {
  const small = makeRepo(50)
  const large = makeRepo(10_000)
  const configured = makeRepo(50)
  fs.writeFileSync(path.join(configured, 'proctor.yml'), 'timeouts: { total: 30m }\n')
  try {
    const floor: number[] = []
    const spawnSmall: number[] = []
    const spawnLarge: number[] = []
    const spawnConfigured: number[] = []
    const spawnPty: number[] = []
    const cpuSmall: number[] = []
    const cpuPty: number[] = []
    const rssLarge: number[] = []
    // Interleaved, so a busy moment of the machine hits every variant alike.
    for (let i = 0; i < ROUNDS; i++) {
      floor.push((await timeToSpawn(small, 'bare')).ms)
      const first = await timeToSpawn(small)
      spawnSmall.push(first.ms)
      if (first.cpuMs !== null) cpuSmall.push(first.cpuMs)
      const big = await timeToSpawn(large)
      spawnLarge.push(big.ms)
      if (big.rssMiB !== null) rssLarge.push(big.rssMiB)
      spawnConfigured.push((await timeToSpawn(configured)).ms)
      const pty = await timeToSpawn(configured, 'pty')
      spawnPty.push(pty.ms)
      if (pty.cpuMs !== null) cpuPty.push(pty.cpuMs)
    }
    const spawnRatio = median(spawnLarge) / median(spawnSmall)
    const end60 = await sessionEnd(60)
    const end1000 = await sessionEnd(1000)
    const commands = await commandLoad()
    const actionFirstLine = await actionFirstLineMs()
    return {
      spawn_floor_ms: stats(floor),
      spawn_ms_50_files: stats(spawnSmall),
      spawn_ms_10k_files: stats(spawnLarge),
      spawn_ms_50_files_with_proctor_yml: stats(spawnConfigured),
      // What a user's `proctor run -- <agent>` does by default: a proctor.yml and a PTY.
      spawn_ms_50_files_with_proctor_yml_pty: stats(spawnPty),
      spawn_over_floor_ms: round(median(spawnSmall) - median(floor)),
      proctor_cpu_ms_at_spawn: cpuSmall.length ? stats(cpuSmall) : 'unmeasured (no /proc)',
      proctor_cpu_ms_at_spawn_pty_with_proctor_yml: cpuPty.length ? stats(cpuPty) : 'unmeasured (no /proc)',
      spawn_ratio_10k_to_50: round(spawnRatio),
      spawn_targets: '≤ 1.2× and ≤ 150 ms',
      // Every variant within 150 ms: no file, a proctor.yml, and a proctor.yml in a PTY (the default).
      spawn_ok: spawnRatio <= 1.2 && Math.max(...[spawnLarge, spawnConfigured, spawnPty].map(median)) <= 150,
      peak_rss_mib_10k_files: rssLarge.length ? stats(rssLarge) : 'unmeasured (/usr/bin/time missing)',
      peak_rss_ok: rssLarge.length ? median(rssLarge) <= 100 : null,
      session_end_60_files: end60,
      session_end_1000_files: end1000,
      session_end_target: 'end − final checkpoint ≤ 100 ms',
      session_end_ok: end60.overhead_ms <= 100 && end1000.overhead_ms <= 100,
      ...commands,
      action_first_line_ms: actionFirstLine,
      action_first_line_ok: median(actionFirstLine.values) <= 150,
    }
  } finally {
    for (const dir of [small, large, configured]) fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Wall time from launching `proctor run` to the agent's first instruction, proctor's peak RSS, and the CPU
 * time proctor had used by then (read by the agent from /proc: unlike the wall time, it barely moves with
 * the machine's load). `bare` is the floor: a bare `node -e` starting the same agent the same way; `pty`
 * runs it in a terminal, as `proctor run` does by default.
 */
async function timeToSpawn(
  repo: string,
  mode: 'proctor' | 'pty' | 'bare' = 'proctor',
): Promise<{ ms: number; rssMiB: number | null; cpuMs: number | null }> {
  const marker = path.join(repo, '.proctor-bench-spawned')
  const stat = path.join(repo, '.proctor-bench-stat')
  fs.rmSync(marker, { force: true })
  fs.rmSync(stat, { force: true })
  const timeBin = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null
  const agent = `date +%s%N > ${marker}; cat /proc/$PPID/stat > ${stat} 2>/dev/null || true`
  const args =
    mode === 'bare'
      ? ['-e', `require('node:child_process').spawnSync('sh', ['-c', ${JSON.stringify(agent)}])`]
      : [cli, 'run', '--quiet', ...(mode === 'pty' ? [] : ['--no-pty']), '--', 'sh', '-c', agent]
  const started = Date.now()
  const { stderr } = await run(
    timeBin ?? process.execPath,
    timeBin ? ['-f', 'RSS %M', process.execPath, ...args] : args,
    repo,
  )
  const spawnedNs = BigInt(fs.readFileSync(marker, 'utf8').trim())
  fs.rmSync(marker, { force: true })
  const rss = /RSS (\d+)/.exec(stderr)
  return {
    ms: Number(spawnedNs / 1_000_000n) - started,
    rssMiB: rss ? round(Number(rss[1]) / 1024) : null,
    cpuMs: cpuOf(stat),
  }
}

/** utime + stime of a /proc/<pid>/stat snapshot, in ms (USER_HZ is 100 on Linux), or null. */
function cpuOf(statFile: string): number | null {
  let text: string
  try {
    text = fs.readFileSync(statFile, 'utf8')
  } catch {
    return null
  } finally {
    fs.rmSync(statFile, { force: true })
  }
  // Fields after "pid (comm) ": state is the first, utime the 12th, stime the 13th.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? ticks * 10 : null
}

/**
 * The agent writes `files` files in steps (so a `changes` checkpoint is triggered and a second one waits
 * out min_interval), records the time and exits. The end of the session is measured from that time to
 * proctor's exit, less the durations (report.json) of the checkpoints taken after the agent exited.
 */
async function sessionEnd(files: number): Promise<Record<string, number> & { overhead_ms: number }> {
  const ends: number[] = []
  const finals: number[] = []
  for (let i = 0; i < 3; i++) {
    const repo = makeRepo(50)
    try {
      fs.writeFileSync(
        path.join(repo, 'proctor.yml'),
        'checkpoints: { interval: 0, max_changes: 20, min_interval: 10s, push: never }\n',
      )
      const agent = path.join(repo, '.bench-agent.mjs')
      const exited = path.join(repo, '.bench-exited')
      fs.writeFileSync(
        agent,
        `import fs from 'node:fs'
const half = ${Math.floor(files / 2)}
for (let i = 0; i < half; i++) { fs.mkdirSync('out/' + (i % 20), { recursive: true }); fs.writeFileSync('out/' + (i % 20) + '/f' + i + '.txt', 'x' + i) }
await new Promise((r) => setTimeout(r, 1500))
for (let i = half; i < ${files}; i++) { fs.mkdirSync('out/' + (i % 20), { recursive: true }); fs.writeFileSync('out/' + (i % 20) + '/f' + i + '.txt', 'x' + i) }
await new Promise((r) => setTimeout(r, 300))
fs.writeFileSync(${JSON.stringify(exited)}, String(Date.now()))
`,
      )
      fs.appendFileSync(path.join(repo, '.git/info/exclude'), '.bench-*\n')
      await run(process.execPath, [cli, 'run', '--quiet', '--no-pty', '--', process.execPath, agent], repo)
      const endedAt = Date.now()
      const exitedAt = Number(fs.readFileSync(exited, 'utf8'))
      // The checkpoints taken after the agent exited (before the stop hooks, and the final one) are
      // the work the end of a session must do; anything beyond them is waiting.
      const after = latestReport(repo).checkpoints.filter((c) => Date.parse(c.created_at) >= exitedAt)
      ends.push(endedAt - exitedAt)
      finals.push(after.reduce((sum, c) => sum + (c.duration_ms ?? 0), 0))
    } finally {
      fs.rmSync(repo, { recursive: true, force: true })
    }
  }
  const end = median(ends)
  const final = median(finals)
  return { end_ms: round(end), final_checkpoints_ms: round(final), overhead_ms: round(end - final) }
}

/** `proctor --version` and each command's `--help` against `node -e 0`, medians of interleaved runs. */
async function commandLoad(): Promise<Record<string, unknown>> {
  const cwd = os.tmpdir()
  const bare: number[] = []
  const version: number[] = []
  const perCommand: Record<string, number[]> = {}
  const names = ['run', 'check', 'checkpoints', 'batch', 'hooks', 'init', 'config', 'report']
  for (let i = 0; i < 9; i++) {
    bare.push(await timed(process.execPath, ['-e', '0'], cwd))
    version.push(await timed(process.execPath, [cli, '--version'], cwd))
    for (const name of names)
      (perCommand[name] ??= []).push(await timed(process.execPath, [cli, name, '--help'], cwd))
  }
  const ratio = median(version) / median(bare)
  return {
    node_e_0_ms: round(median(bare)),
    version_ms: round(median(version)),
    version_ratio: round(ratio),
    version_target: '≤ 1.5× node -e 0',
    version_ok: ratio <= 1.5,
    command_help_ms: Object.fromEntries(Object.entries(perCommand).map(([k, v]) => [k, round(median(v))])),
  }
}

/** Time from starting the action's main step to its first line on stdout. */
async function actionFirstLineMs(): Promise<{ values: number[]; median: number }> {
  const values: number[] = []
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: os.tmpdir() }
  for (let i = 0; i < 7; i++) {
    const started = performance.now()
    const child = spawn(process.execPath, [path.join(root, 'dist/index.js')], {
      env,
      cwd: os.tmpdir(),
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    values.push(round(performance.now() - started))
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('close', resolve))
  }
  return { values, median: median(values) }
}

function latestReport(repo: string): SessionReport {
  const sessions = path.join(repo, '.proctor/sessions')
  const newest = fs
    .readdirSync(sessions)
    .map((name) => ({ name, at: fs.statSync(path.join(sessions, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at)[0]!
  return JSON.parse(fs.readFileSync(path.join(sessions, newest.name, 'report.json'), 'utf8')) as SessionReport
}

function makeRepo(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `proctor-bench-start-${count}-`))
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, 'src', `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`)
    if (i % 100 === 0) fs.mkdirSync(sub, { recursive: true })
    fs.writeFileSync(path.join(sub, `file${i}.ts`), `export const v${i} = ${i}\n`)
  }
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@b',
  }
  const git = (args: string[]): void => void execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' })
  git(['init', '-q', '-b', 'main'])
  git(['add', '-A'])
  git(['commit', '-q', '-m', 'generated'])
  return dir
}

function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  for (const key of Object.keys(env))
    if (key.startsWith('GITHUB_') || key.startsWith('GIT_') || key === 'CI') delete env[key]
  return env
}

function run(file: string, args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env: benchEnv(), stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

async function timed(file: string, args: string[], cwd: string): Promise<number> {
  const started = performance.now()
  await run(file, args, cwd)
  return performance.now() - started
}

function stats(values: number[]): { median: number; min: number; max: number } {
  return { median: round(median(values)), min: round(Math.min(...values)), max: round(Math.max(...values)) }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function round(n: number): number {
  return Math.round(n * 10) / 10
}
