// `npm run bench [-- pty checkpoints hooks batch cli startup proxy secrets github scale ignored]`: every benchmark measured as a ratio against a
// baseline taken in the same run (raw node-pty, raw git plumbing, raw spawns, the ideal schedule), so the
// figures mean the same on a fast laptop and a busy CI runner. Results: bench/results/latest.{json,md}.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runPtyBench } from './pty.js'
import { runCheckpointBench } from './checkpoints.js'
import { runHooksBench } from './hooks.js'
import { runBatchBench } from './batch.js'
import { runStartupBench } from './startup.js'
import { runProxyBench } from './proxy.js'
import { runSecretsBench } from './secrets.js'
import { runGitHubBench } from './github.js'
import { runScaleBench } from './scale.js'
import { runIgnoredDirsBench } from './ignored-dirs.js'

const root = resolve(import.meta.dirname, '..')
const suites: Record<string, () => Promise<Record<string, unknown>>> = {
  pty: runPtyBench,
  checkpoints: runCheckpointBench,
  hooks: runHooksBench,
  batch: runBatchBench,
  cli: runCliBench,
  startup: runStartupBench,
  proxy: runProxyBench,
  secrets: runSecretsBench,
  github: runGitHubBench,
  scale: runScaleBench,
  ignored: runIgnoredDirsBench,
}

/** `proctor run -- true` against `true`, and SIGINT → final report, with the built CLI. */
async function runCliBench(): Promise<Record<string, unknown>> {
  const cli = join(root, 'dist/cli.js')
  const dir = mkdtempSync(join(tmpdir(), 'proctor-bench-cli-'))
  execFileSync('git', ['init', '-q', dir])
  execFileSync('git', [
    '-C',
    dir,
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
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_')) delete env[key]
  const time = async (file: string, args: string[]): Promise<number> => {
    const started = performance.now()
    await new Promise<void>((ok) =>
      spawn(file, args, { cwd: dir, env, stdio: 'ignore' }).on('close', () => ok()),
    )
    return performance.now() - started
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const raw: number[] = []
  const supervised: number[] = []
  for (let i = 0; i < 7; i++) {
    raw.push(await time('true', []))
    supervised.push(await time(process.execPath, [cli, 'run', '--quiet', '--', 'true']))
  }
  // SIGINT while an agent runs: time until proctor has written report.json and exited.
  const child = spawn(process.execPath, [cli, 'run', '--', 'sh', '-c', 'echo ready; sleep 60'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  await new Promise<void>((ok) => {
    let seen = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (seen.includes('ready')) ok()
    })
  })
  const sent = performance.now()
  child.kill('SIGINT')
  const code = await new Promise<number | null>((ok) => child.on('close', (c) => ok(c)))
  const sigintMs = performance.now() - sent
  rmSync(dir, { recursive: true, force: true })
  const overhead = median(supervised) - median(raw)
  return {
    true_ms: round(median(raw)),
    proctor_run_true_ms: round(median(supervised)),
    overhead_ms: round(overhead),
    overhead_target_ms: 300,
    overhead_ok: overhead <= 300,
    sigint_to_exit_ms: round(sigintMs),
    sigint_exit_code: code,
    sigint_target_ms: 7000,
    sigint_ok: sigintMs <= 7000 && code === 130,
  }
}

function previousResults(file: string): Record<string, unknown> {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { results?: Record<string, unknown> }).results ?? {}
  } catch {
    return {}
  }
}

function round(n: number): number {
  return Math.round(n * 10) / 10
}

function toMarkdown(results: Record<string, unknown>): string {
  const lines = [
    `# proctor benchmarks`,
    '',
    `Run at ${new Date().toISOString()} on Node ${process.version}, ${process.platform}/${process.arch}.`,
    '',
  ]
  for (const [suite, result] of Object.entries(results)) {
    lines.push(`## ${suite}`, '', '| measure | value |', '| --- | --- |')
    for (const [key, value] of flatten(result)) lines.push(`| ${key} | ${value} |`)
    lines.push('')
  }
  return lines.join('\n')
}

function flatten(value: unknown, prefix = ''): [string, string][] {
  if (value === null || typeof value !== 'object') return [[prefix || 'value', String(value)]]
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) return [[prefix, value.join(', ')]]
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    flatten(v, prefix ? `${prefix}.${k}` : k),
  )
}

const wanted = process.argv.slice(2).filter((a) => a in suites)
const out = join(root, 'bench/results')
// Running some suites keeps the last figures of the others (each suite records when and where it ran).
const results: Record<string, unknown> = previousResults(join(out, 'latest.json'))
for (const name of wanted.length ? wanted : Object.keys(suites)) {
  process.stderr.write(`bench: ${name}…\n`)
  const ran = { ran_at: new Date().toISOString(), node: process.version }
  try {
    results[name] = { ...ran, ...(await suites[name]!()) }
  } catch (error) {
    results[name] = { ...ran, error: (error as Error).message }
  }
}
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'latest.json'), JSON.stringify({ results }, null, 2) + '\n')
writeFileSync(join(out, 'latest.md'), toMarkdown(results))
process.stdout.write(toMarkdown(results))
