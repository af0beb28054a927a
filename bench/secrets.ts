// The content scan's cost (issue 31): a checkpoint of a 1,000-file change — real TypeScript, this
// repository's own src/ cycled to 1,000 files, every one edited each round — taken by a store with the scan
// and by one without it, alternately in the same repository, both judging by the policy as a session does.
// Target: the scan adds under 20% to the checkpoint's time (it runs beside git's staging). Also the scan alone (a fresh scanner, so nothing
// is cached) and how many files the prefilter let through to secretlint.
// Run alone: node --import tsx bench/secrets.ts
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { configSchema } from '../src/config/schema.js'
import { registerKnownSecrets } from '../src/policy/secrets/known.js'
import { ContentScanner } from '../src/policy/secrets/scanner.js'
import { mayHoldToken } from '../src/policy/secrets/rules.js'
import { Workspace } from '../src/state/workspace.js'

const FILES = 1000
const ROUNDS = 7

export async function runSecretsBench(): Promise<Record<string, unknown>> {
  const root = path.resolve(import.meta.dirname, '..')
  // The common case, a change with no secret in it: sanitize.ts documents a credential in a URL
  // (`https://x-access-token:TOKEN@…`), which secretlint's basicauth rule reports; that line is left out, so
  // both stores record the same 1,000 files (a hit costs two more git calls, to put its entry back).
  const sources = listFiles(path.join(root, 'src')).map((f) =>
    fs.readFileSync(f, 'utf8').replace(/https:\/\/x-access-token:TOKEN@/g, 'https://'),
  )
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-bench-secrets-')))
  // The tokens a session in CI knows: the GitHub token, a model key.
  registerKnownSecrets({
    GITHUB_TOKEN: `ghs_${'x7Kd9Qm2Lp4Rt6Vw8Yz1Ab3Cd5Ef7Gh9Ij1Kl'}`,
    ANTHROPIC_API_KEY: `sk-ant-api03-${'Q'.repeat(40)}${'w9'.repeat(24)}AA`,
  })
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }
  for (const key of Object.keys(env))
    if (key.startsWith('GIT_') && !key.startsWith('GIT_CONFIG')) delete env[key]
  const git = (args: string[]) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: dir, env })
  git(['init', '-q'])
  const paths = Array.from({ length: FILES }, (_, i) => `src/m${Math.floor(i / 100)}/f${i}.ts`)
  const write = (round: number) =>
    paths.forEach((p, i) => {
      fs.mkdirSync(path.join(dir, path.dirname(p)), { recursive: true })
      fs.writeFileSync(path.join(dir, p), `${sources[i % sources.length]}\n// round ${round}\n`)
    })
  write(0)
  git(['add', '-A'])
  git(['commit', '-q', '-m', 'base'])
  const bytes = paths.reduce((n, p) => n + fs.statSync(path.join(dir, p)).size, 0)

  const workspace = Workspace.find(dir, env)!
  const config = configSchema.parse({})
  const scanned = await workspace.store('scan', config, { judge: true })
  const plain = await workspace.store('plain', config, { judge: true, scanner: () => null })
  const withScan: number[] = []
  const without: number[] = []
  const scanOnly: number[] = []
  let withheld = 0
  try {
    for (const store of [scanned, plain]) {
      write(-1)
      await store.createDetailed('manual') // warm: the store's opening and first index
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [store, times] of [
        [scanned, withScan],
        [plain, without],
      ] as const) {
        write(round * 2 + (times === without ? 1 : 0))
        const result = (await store.createDetailed('manual'))!
        const recorded = result.record.files_changed.length + result.record.skipped.length
        if (recorded !== FILES) throw new Error(`${recorded} of ${FILES} files were checkpointed or withheld`)
        if (store === scanned) withheld = result.record.skipped.length
        times.push(result.record.duration_ms!)
      }
      const scanner = new ContentScanner()
      const started = performance.now()
      for (const p of paths) {
        const file = path.join(dir, p)
        await scanner.scanFile(file, p, fs.statSync(file))
      }
      scanOnly.push(performance.now() - started)
    }
  } finally {
    await scanned.close()
    await plain.close()
  }
  const prefiltered = paths.filter((p) => mayHoldToken(fs.readFileSync(path.join(dir, p), 'utf8'))).length
  fs.rmSync(dir, { recursive: true, force: true })
  const withMs = median(withScan)
  const withoutMs = median(without)
  // What the scan adds to a checkpoint's time: it runs while git stages the files, so this is less than the
  // scan alone (scan_only_ms, the CPU it takes), which is reported beside it.
  const overhead = (withMs - withoutMs) / withMs
  return {
    files: FILES,
    bytes,
    rounds: ROUNDS,
    checkpoint_with_scan_ms: round1(withMs),
    checkpoint_without_scan_ms: round1(withoutMs),
    scan_only_ms: round1(median(scanOnly)),
    scan_only_share: round3(median(scanOnly) / withMs),
    files_to_secretlint: prefiltered,
    files_withheld: withheld,
    targets: {
      scan_share_of_checkpoint: { target: '< 0.2', value: round3(overhead), ok: overhead < 0.2 },
    },
  }
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? listFiles(full) : e.name.endsWith('.ts') ? [full] : []
  })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const round1 = (n: number) => Math.round(n * 10) / 10
const round3 = (n: number) => Math.round(n * 1000) / 1000

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await runSecretsBench(), null, 2))
}
