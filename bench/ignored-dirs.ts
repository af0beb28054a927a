// An agent that creates an ignored directory mid-session (issue 35): `pip install` into `.venv/`, a build's
// `target/`. On a generated repository of 100k files (PROCTOR_BENCH_IGNORED_REPO / _DIR set other sizes), the
// built CLI supervises an agent that waits until proctor's watcher is watching, writes 100k files under an
// ignored `.venv/` and edits one tracked file. What proctor's own process spends (its CPU, not git's or the
// agent's, and its peak RSS, both read in the process at its exit) is set against the same session whose agent
// only edits the file, and against what the install itself spends (the agent's process), all in the same run.
// Targets: the directory costs proctor <= 1 s of CPU, and the session's peak RSS stays <= 100 MiB. Most of
// the wall time (about 2 minutes on a loaded 2-core machine) is the file system. Needs `npm run build`.
// Run alone: node --import tsx bench/ignored-dirs.ts
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const root = path.resolve(import.meta.dirname, '..')
/** Rounds of the two sessions, interleaved (PROCTOR_BENCH_IGNORED_ROUNDS): each round writes 100k files. */
const ROUNDS = Number(process.env.PROCTOR_BENCH_IGNORED_ROUNDS ?? 1)
const CPU_TARGET_MS = 1000
const RSS_TARGET_MB = 100

interface Usage {
  cpu_ms: number
  max_rss_mb: number
}

export async function runIgnoredDirsBench(): Promise<Record<string, unknown>> {
  const repoFiles = Number(process.env.PROCTOR_BENCH_IGNORED_REPO ?? 100_000)
  const dirFiles = Number(process.env.PROCTOR_BENCH_IGNORED_DIR ?? 100_000)
  const cli = path.join(root, 'dist/cli.js')
  if (!fs.existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first')
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-bench-ignored-')))
  try {
    const repo = path.join(work, 'repo')
    const env = benchEnv()
    const generateMs = timedSync(() => generateRepo(repo, repoFiles, env))
    const tools = writeTools(work)
    const quiet: Usage[] = []
    const flood: Usage[] = []
    const install: Usage[] = []
    let log = { bytes: 0, lines: 0, ignored_dir_lines: 0 }
    const walls: number[] = []
    // Interleaved, so a busy moment of the machine falls on both sessions alike.
    for (let r = 0; r < ROUNDS; r++) {
      quiet.push((await session(repo, env, tools, cli, 0)).proctor)
      const started = performance.now()
      const measured = await session(repo, env, tools, cli, dirFiles)
      walls.push(performance.now() - started)
      flood.push(measured.proctor)
      install.push(measured.agent)
      log = eventLog(repo)
    }
    const floodCpu = median(flood.map((u) => u.cpu_ms))
    const quietCpu = median(quiet.map((u) => u.cpu_ms))
    const costMs = floodCpu - quietCpu
    const peakMb = median(flood.map((u) => u.max_rss_mb))
    return {
      repo_files: repoFiles,
      ignored_dir_files: dirFiles,
      rounds: ROUNDS,
      generate_repo_ms: round(generateMs),
      proctor_cpu_ms: { with_ignored_dir: round(floodCpu), without: round(quietCpu) },
      proctor_peak_rss_mb: {
        with_ignored_dir: round(peakMb),
        without: round(median(quiet.map((u) => u.max_rss_mb))),
      },
      // The raw baseline: what the install itself spends (the agent's own process, in the same session).
      install_cpu_ms: round(median(install.map((u) => u.cpu_ms))),
      session_wall_ms: round(median(walls)),
      file_events_log: log,
      targets: {
        ignored_dir_cpu: {
          target: `<= ${CPU_TARGET_MS} ms`,
          value: round(costMs),
          ok: costMs <= CPU_TARGET_MS,
        },
        ignored_dir_peak_rss: {
          target: `<= ${RSS_TARGET_MB} MiB`,
          value: round(peakMb),
          ok: peakMb <= RSS_TARGET_MB,
        },
      },
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

interface Tools {
  /** `--import`ed into a node process: writes its own CPU and peak RSS to $PROCTOR_BENCH_USAGE at exit. */
  measure: string
  agent: string
  /** Each measured process writes `<usage>-<its script>.json`. */
  usage: string
}

function writeTools(work: string): Tools {
  const measure = path.join(work, 'measure.mjs')
  fs.writeFileSync(
    measure,
    [
      "import { readFileSync, writeFileSync } from 'node:fs'",
      "import { basename } from 'node:path'",
      // proctor passes its environment on: the agent, imported the same way, writes its own file.
      'const out = process.env.PROCTOR_BENCH_USAGE',
      // VmHWM, not getrusage's maxRSS: on Linux that one keeps across fork and exec the RSS of the process
      // that spawned this one (here the bench, large after generating the repository).
      'const peakMb = () => {',
      "  const hwm = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))",
      '  return hwm ? Number(hwm[1]) / 1024 : process.resourceUsage().maxRSS / 1024',
      '}',
      "if (out) process.on('exit', () => {",
      '  const cpu = process.cpuUsage()',
      '  const cpu_ms = (cpu.user + cpu.system) / 1000',
      '  let max_rss_mb',
      '  try {',
      '    max_rss_mb = peakMb()',
      '  } catch {',
      '    max_rss_mb = process.resourceUsage().maxRSS / 1024 // no /proc (macOS)',
      '  }',
      '  const usage = { cpu_ms, max_rss_mb }',
      "  writeFileSync(`${out}-${basename(process.argv[1] ?? 'node')}.json`, JSON.stringify(usage))",
      '})',
      '',
    ].join('\n'),
  )
  // The agent: waits for the watcher (its walk of the tree is done: the directory appears mid-session), then
  // installs `files` files the way pip lays out site-packages (100 per directory), and edits a tracked file.
  const agent = path.join(work, 'agent.mjs')
  fs.writeFileSync(
    agent,
    [
      "import fs from 'node:fs'",
      "import path from 'node:path'",
      'const [files, wait] = [Number(process.argv[2]), process.argv[3] === "wait"]',
      "const sessions = '.proctor/sessions'",
      'const watching = () => {',
      '  try {',
      '    for (const id of fs.readdirSync(sessions)) {',
      "      const log = path.join(sessions, id, 'file-events.jsonl')",
      '      if (fs.existsSync(log) && fs.readFileSync(log, "utf8").includes(\'"watching"\')) return true',
      '    }',
      '  } catch {}',
      '  return false',
      '}',
      'const deadline = Date.now() + 60_000',
      'while (wait && !watching() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))',
      "const site = '.venv/lib/python3.12/site-packages'",
      'for (let i = 0; i < files; i++) {',
      '  const dir = path.join(site, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`)',
      '  if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true })',
      '  fs.writeFileSync(path.join(dir, `m${i}.py`), `x = ${i}\\n`)',
      '}',
      "fs.appendFileSync('src/pkg0/mod0/file0.ts', '// edited\\n')",
      "console.log('agent: done')",
      '',
    ].join('\n'),
  )
  return { measure, agent, usage: path.join(work, 'usage') }
}

/** One supervised session: the figures of proctor's own process, and of the agent's. */
async function session(repo: string, env: NodeJS.ProcessEnv, tools: Tools, cli: string, files: number) {
  reset(repo, env)
  const measure = ['--import', pathToFileURL(tools.measure).href]
  const code = await run(
    process.execPath,
    [
      ...[...measure, cli, 'run', '--quiet', '--no-push', '--'],
      ...[process.execPath, ...measure, tools.agent, String(files), 'wait'],
    ],
    repo,
    { ...env, PROCTOR_BENCH_USAGE: tools.usage },
  )
  if (code !== 0) throw new Error(`proctor run exited ${code}`)
  return {
    proctor: readUsage(`${tools.usage}-cli.js.json`),
    agent: readUsage(`${tools.usage}-agent.mjs.json`),
  }
}

function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<number | null>((resolve) =>
    spawn(file, args, { cwd, env, stdio: 'ignore' }).on('close', (code) => resolve(code)),
  )
}

function readUsage(file: string): Usage {
  const usage = JSON.parse(fs.readFileSync(file, 'utf8')) as Usage
  fs.rmSync(file)
  return usage
}

/** The worktree as generated: no .venv, the tracked file as committed, no earlier session's files. */
function reset(repo: string, env: NodeJS.ProcessEnv): void {
  fs.rmSync(path.join(repo, '.venv'), { recursive: true, force: true })
  fs.rmSync(path.join(repo, '.proctor/sessions'), { recursive: true, force: true })
  execFileSync('git', ['checkout', '-q', '--', 'src/pkg0/mod0/file0.ts'], { cwd: repo, env })
}

function eventLog(repo: string): { bytes: number; lines: number; ignored_dir_lines: number } {
  const sessions = path.join(repo, '.proctor/sessions')
  const id = fs.readdirSync(sessions)[0]!
  const text = fs.readFileSync(path.join(sessions, id, 'file-events.jsonl'), 'utf8')
  const lines = text.split('\n').filter(Boolean)
  return {
    bytes: Buffer.byteLength(text),
    lines: lines.length,
    ignored_dir_lines: lines.filter((l) => l.includes('"ignoredDir"')).length,
  }
}

/**
 * Source-like files, 100 per directory, deterministic; `.venv/` ignored as a Python project does. Written as
 * one pack through fast-import and checked out, not hashed into 100k loose objects: half the file creations.
 */
function generateRepo(dir: string, count: number, env: NodeJS.ProcessEnv): void {
  fs.mkdirSync(dir, { recursive: true })
  const git = (args: string[], input?: Buffer): void =>
    void execFileSync('git', args, {
      cwd: dir,
      env,
      stdio: [input ? 'pipe' : 'ignore', 'ignore', 'pipe'],
      input,
    })
  git(['init', '-q', '-b', 'main'])
  git(['config', 'gc.auto', '0'])
  const line = 'export const value = compute(alpha, beta, gamma) // generated line of code\n'
  const files: [string, string][] = [['.gitignore', 'node_modules/\n.venv/\n__pycache__/\n']]
  for (let i = 0; i < count; i++) {
    const sub = `src/pkg${Math.floor(i / 1000)}/mod${Math.floor(i / 100) % 10}`
    files.push([`${sub}/file${i}.ts`, `// file ${i}\n${line.repeat(1 + (i % 20))}`])
  }
  const stream: string[] = []
  files.forEach(([, content], i) =>
    stream.push(`blob\nmark :${i + 1}\ndata ${Buffer.byteLength(content)}\n${content}\n`),
  )
  stream.push('commit refs/heads/main\ncommitter bench <bench@example.com> 0 +0000\ndata 10\ngenerated\n')
  files.forEach(([file], i) => stream.push(`M 100644 :${i + 1} ${file}\n`))
  git(['fast-import', '--quiet'], Buffer.from(stream.join('') + '\n'))
  // The worktree and index written from it; the index's stat data settled, as in a clone worked in.
  git(['reset', '-q', '--hard'])
  git(['status', '--porcelain'])
}

function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('GIT_') || key.startsWith('GITHUB_')) delete env[key]
  delete env.CI
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  }
}

function timedSync(fn: () => void): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

const round = (n: number): number => Math.round(n * 10) / 10

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(await runIgnoredDirsBench(), null, 2) + '\n')
}
