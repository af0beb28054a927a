// Checkpoints where users feel them (issue 35): a generated repository of 100k files (PROCTOR_BENCH_SCALE_FILES
// to change it) with an aged index, agents that install (an ignored node_modules/ package of 2,000 files) and
// edit, each measured against raw git plumbing on a warm private index in the same run, medians of
// interleaved rounds:
// - the wait from the agent's exit to proctor's exit (the built CLI, `proctor run`) against one warm raw
//   checkpoint of the same work (`git add -A` into a temp index, write-tree, commit-tree, update-ref);
// - a session's checkpoints with the policy's work (the per-checkpoint and cumulative diffs, the rules,
//   tests_weakened: the store as the session opens it, with its baseline recorded first) against the same
//   raw plumbing; the first checkpoint after the baseline apart from the steady ones.
// Run alone: node --import tsx bench/scale.ts
import { execFile, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { defaultConfig } from '../src/config/defaults.js'
import { Workspace } from '../src/state/workspace.js'

const FILES = Number(process.env.PROCTOR_BENCH_SCALE_FILES ?? 100_000)
/** Commits that age the index before the bench starts (each rewrites it, as a user's work does). */
const AGE_COMMITS = 8
const EDITS_PER_ROUND = 20
const INSTALLED_FILES = 2000
// Enough rounds that the medians hold on a shared 2-core machine, where one round's ratio swings 0.7–2×.
const SESSION_ROUNDS = 7
const STEADY_ROUNDS = 7
const TARGET = 1.2

export async function runScaleBench(): Promise<Record<string, unknown>> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(scratchRoot(), 'proctor-bench-scale-')))
  const [repo, raw, steady] = ['session', 'raw', 'steady'].map((name) => path.join(base, name)) as [
    string,
    string,
    string,
  ]
  const env = benchEnv()
  try {
    const setupStarted = performance.now()
    generateRepo(repo, FILES, env)
    // Each contender in its own copy with the same edits: whoever hashed a blob first would otherwise
    // write the objects for the others.
    for (const copy of [raw, steady]) execFileSync('cp', ['-a', repo, copy])
    await settleIndexes([repo, raw, steady], env)
    const setupMs = performance.now() - setupStarted
    process.stderr.write(`bench: scale: ${FILES} files set up in ${Math.round(setupMs / 1000)} s\n`)
    const files = execFileSync('git', ['ls-files', '-z'], {
      cwd: repo,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    })
      .split('\0')
      .filter((f) => f.endsWith('.ts'))
    let tick = 0
    const editsOf = (): string[] => {
      const chosen = Array.from(
        { length: EDITS_PER_ROUND },
        (_, i) => files[(tick * 7919 + i * 104729) % files.length]!,
      )
      tick++
      return chosen
    }
    const rawGit = rawRunner(raw, env)
    const rawIndex = path.join(raw, '.git', 'bench-raw-index')
    let rawParent = (await rawGit(['rev-parse', 'HEAD'])).trim()
    // Warm: seeded from the user's index (its stat data), then one `add -A` before anything is timed.
    fs.copyFileSync(path.join(raw, '.git', 'index'), rawIndex)
    await rawGit(['add', '-A'], rawIndex)
    const rawCheckpoint = async (): Promise<void> => {
      await rawGit(['add', '-A'], rawIndex)
      const tree = (await rawGit(['write-tree'], rawIndex)).trim()
      const commit = (await rawGit(['commit-tree', tree, '-p', rawParent, '-m', 'raw'])).trim()
      await rawGit(['update-ref', 'refs/bench/raw', commit])
      rawParent = commit
    }

    const steadyResult = await benchSteady(steady, raw, editsOf, rawCheckpoint, env)
    const exitResult = await benchExitWait(repo, raw, editsOf, rawCheckpoint, env)
    return {
      files: FILES,
      aged_by_commits: AGE_COMMITS,
      edits_per_round: EDITS_PER_ROUND,
      installed_files_per_round: INSTALLED_FILES,
      setup_ms: round1(setupMs),
      exit_wait: exitResult,
      checkpoints_with_policy: steadyResult,
      targets: {
        exit_wait_vs_raw_warm: {
          target: `<= ${TARGET}`,
          value: exitResult.ratio,
          ok: exitResult.ratio <= TARGET,
        },
        steady_with_policy_vs_raw_warm: {
          target: `<= ${TARGET}`,
          value: steadyResult.ratio,
          ok: steadyResult.ratio <= TARGET,
        },
        first_with_policy_vs_raw_warm: {
          target: `<= ${TARGET}`,
          value: steadyResult.first_ratio,
          ok: steadyResult.first_ratio <= TARGET,
        },
      },
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true })
  }
}

/**
 * Where the three copies go (about 1 GB at 100k files): PROCTOR_BENCH_SCALE_DIR, else /dev/shm where there is
 * one. On a disk shared with other jobs, writing and deleting 300k small files took minutes of the bench's
 * few; both contenders work on the same file system, so the ratios compare the same thing.
 */
function scratchRoot(): string {
  const chosen = process.env.PROCTOR_BENCH_SCALE_DIR
  if (chosen) return chosen
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK)
    return '/dev/shm'
  } catch {
    return os.tmpdir()
  }
}

/**
 * The store as a session opens it (the policy judging each checkpoint, the baseline recorded first), one
 * checkpoint of EDITS_PER_ROUND edits per round against the warm raw checkpoint of the same edits.
 */
async function benchSteady(
  dir: string,
  raw: string,
  editsOf: () => string[],
  rawCheckpoint: () => Promise<void>,
  env: NodeJS.ProcessEnv,
): Promise<{ first_ms: number; first_raw_ms: number; first_ratio: number } & Timings> {
  const workspace = Workspace.find(dir, env)!
  const store = await workspace.store('bench-scale', defaultConfig(), { judge: true })
  await store.recordBaseline()
  // What a session loads once its agent runs (SessionCheckpoints' launch), before its first checkpoint.
  await store.warm()
  await import('../src/policy/index.js')
  const proctor: number[] = []
  const rawTimes: number[] = []
  let first = { proctor: 0, raw: 0 }
  try {
    for (let round = 0; round <= STEADY_ROUNDS; round++) {
      edit([dir, raw], editsOf(), round)
      const sides = [
        // Urgent: the work of a checkpoint, not min_interval's spacing between two.
        async () => proctor.push(await timed(() => store.createDetailed('bench', { urgent: true }))),
        async () => rawTimes.push(await timed(rawCheckpoint)),
      ]
      for (let i = 0; i < sides.length; i++) await sides[(round + i) % sides.length]!()
      if (round === 0) first = { proctor: proctor.pop()!, raw: rawTimes.pop()! }
    }
  } finally {
    await store.close()
  }
  return {
    first_ms: round1(first.proctor),
    first_raw_ms: round1(first.raw),
    first_ratio: round2(first.proctor / first.raw),
    ...timings(proctor, rawTimes),
  }
}

/**
 * `proctor run` (the built CLI) with an agent that installs a package into node_modules/, edits files and
 * exits, once its watcher has walked the tree (a real agent works far longer than that walk): the time from
 * the agent's exit (it writes the time last) to proctor's, against one warm raw checkpoint of the same work.
 */
async function benchExitWait(
  dir: string,
  raw: string,
  editsOf: () => string[],
  rawCheckpoint: () => Promise<void>,
  env: NodeJS.ProcessEnv,
): Promise<Timings & { exit_checkpoint_ms: number[]; checkpoints_per_session: number[] }> {
  const cli = path.resolve(import.meta.dirname, '../dist/cli.js')
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-bench-agent-'))
  const agent = path.join(scratch, 'agent.mjs')
  fs.writeFileSync(agent, AGENT)
  const proctor: number[] = []
  const rawTimes: number[] = []
  const exitCheckpoint: number[] = []
  const checkpoints: number[] = []
  try {
    for (let round = 0; round < SESSION_ROUNDS; round++) {
      const edits = editsOf()
      const session = async (): Promise<void> => {
        const stamp = path.join(scratch, `exit-${round}`)
        const work = path.join(scratch, `work-${round}.json`)
        fs.writeFileSync(work, JSON.stringify({ edits, round, installed: INSTALLED_FILES }))
        const closed = await new Promise<number>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [cli, 'run', '--quiet', '--no-push', '--', process.execPath, agent, work, stamp],
            { cwd: dir, env: { ...env, NO_COLOR: '1' }, stdio: 'ignore' },
          )
          child.on('error', reject)
          child.on('close', (code) =>
            code === 0 ? resolve(Date.now()) : reject(new Error(`proctor run exited ${code}`)),
          )
        })
        proctor.push(closed - Number(fs.readFileSync(stamp, 'utf8')))
        const report = latestReport(dir)
        exitCheckpoint.push(report.checkpoints.at(-1)?.duration_ms ?? NaN)
        checkpoints.push(report.checkpoints.length)
      }
      const rawSide = async (): Promise<void> => {
        install(raw, round)
        edit([raw], edits, round)
        rawTimes.push(await timed(rawCheckpoint))
      }
      const sides = [session, rawSide]
      for (let i = 0; i < sides.length; i++) await sides[(round + i) % sides.length]!()
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  return {
    ...timings(proctor, rawTimes),
    exit_checkpoint_ms: exitCheckpoint,
    checkpoints_per_session: checkpoints,
  }
}

/** The bench's agent: waits for proctor's watcher, installs, edits, writes the time, exits. */
const AGENT = `import fs from 'node:fs'
import path from 'node:path'
const [work, stamp] = process.argv.slice(2)
const { edits, round, installed } = JSON.parse(fs.readFileSync(work, 'utf8'))
const log = path.join('.proctor', 'sessions', process.env.PROCTOR_SESSION_ID, 'file-events.jsonl')
const watching = () => { try { return fs.readFileSync(log, 'utf8').includes('"watching"') } catch { return false } }
await new Promise((resolve) => {
  if (watching()) return resolve()
  const poll = setInterval(() => watching() && (clearInterval(poll), resolve()), 20)
})
${installSource('install')}
install('.', round, installed)
for (const file of edits) fs.appendFileSync(file, '// edit ' + round + '\\n')
fs.writeFileSync(stamp, String(Date.now()))
`

function installSource(name: string): string {
  return `function ${name}(root, round, count) {
  const pkg = root + '/node_modules/pkg-' + round
  for (let i = 0; i < count; i++) {
    const dir = pkg + '/lib' + Math.floor(i / 100)
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(dir + '/m' + i + '.js', 'module.exports = ' + i + '\\n')
  }
}`
}

/** The same install as the agent's (installSource), on the raw side. */
function install(root: string, round: number): void {
  const pkg = path.join(root, 'node_modules', `pkg-${round}`)
  for (let i = 0; i < INSTALLED_FILES; i++) {
    const dir = path.join(pkg, `lib${Math.floor(i / 100)}`)
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, `m${i}.js`), `module.exports = ${i}\n`)
  }
}

function edit(roots: string[], files: string[], round: number): void {
  for (const root of roots)
    for (const file of files) fs.appendFileSync(path.join(root, file), `// edit ${round}\n`)
}

interface Timings {
  proctor_ms: number
  raw_warm_ms: number
  ratio: number
  ratio_per_round: number[]
}

function timings(proctor: number[], raw: number[]): Timings {
  return {
    proctor_ms: round1(median(proctor)),
    raw_warm_ms: round1(median(raw)),
    ratio: round2(median(proctor) / median(raw)),
    ratio_per_round: proctor.map((p, i) => round2(p / raw[i]!)),
  }
}

function latestReport(dir: string): { checkpoints: { duration_ms: number }[] } {
  const sessions = path.join(dir, '.proctor', 'sessions')
  const newest = fs
    .readdirSync(sessions)
    .map((id) => ({ id, at: fs.statSync(path.join(sessions, id)).mtimeMs }))
    .sort((a, b) => b.at - a.at)[0]!
  return JSON.parse(fs.readFileSync(path.join(sessions, newest.id, 'report.json'), 'utf8')) as {
    checkpoints: { duration_ms: number }[]
  }
}

/**
 * Source-like files, 100 per directory, 100 B to ~2 KiB (the cost at this scale is per file, not per
 * byte), deterministic; committed, then aged: AGE_COMMITS commits of 300 edits each rewrite the index.
 */
function generateRepo(dir: string, count: number, env: NodeJS.ProcessEnv): void {
  let seed = 35
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const line = 'export const value = compute(alpha, beta) // generated\n'
  const names: string[] = []
  for (let i = 0; i < count; i++) {
    const rel = path.join(
      'src',
      `pkg${Math.floor(i / 1000)}`,
      `mod${Math.floor(i / 100) % 10}`,
      `file${i}.ts`,
    )
    if (i % 100 === 0) fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true })
    const size = Math.floor(100 * Math.exp(random() * 3))
    fs.writeFileSync(path.join(dir, rel), `// file ${i}\n${line.repeat(Math.ceil(size / line.length))}`)
    names.push(rel)
  }
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n')
  const git = (args: string[]): void =>
    void execFileSync('git', args, { cwd: dir, env, stdio: 'ignore', maxBuffer: 1 << 28 })
  git(['init', '-q', '-b', 'main'])
  git(['config', 'gc.auto', '0'])
  git(['add', '-A'])
  git(['commit', '-q', '-m', 'generated'])
  for (let c = 0; c < AGE_COMMITS; c++) {
    for (let i = 0; i < 300; i++) {
      fs.appendFileSync(path.join(dir, names[Math.floor(random() * names.length)]!), `// aged ${c}\n`)
    }
    git(['commit', '-q', '-a', '-m', `aged ${c}`])
  }
  // One pack instead of 100k loose objects: the copies are made and removed in seconds.
  git(['repack', '-adq'])
  git(['prune-packed'])
}

/**
 * A copy's index names other inodes and change times than its files, and entries written in the index's
 * own second are racily clean: after the second is over, each index is refreshed and rewritten, so every
 * contender starts from the same clean state.
 */
async function settleIndexes(roots: string[], env: NodeJS.ProcessEnv): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1100))
  for (const root of roots) {
    execFileSync('git', ['update-index', '-q', '--refresh', '--force-write-index'], {
      cwd: root,
      env,
      stdio: 'ignore',
    })
  }
}

function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) if (key.startsWith('GIT_') || key.startsWith('GITHUB_')) delete env[key]
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

/** Plain execFile git: the raw plumbing baseline. */
function rawRunner(cwd: string, env: NodeJS.ProcessEnv) {
  return (args: string[], indexFile?: string): Promise<string> =>
    new Promise((resolve, reject) =>
      execFile(
        'git',
        args,
        { cwd, env: indexFile ? { ...env, GIT_INDEX_FILE: indexFile } : env, maxBuffer: 1 << 28 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    )
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

const round1 = (n: number): number => Math.round(n * 10) / 10
const round2 = (n: number): number => Math.round(n * 100) / 100

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runScaleBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
