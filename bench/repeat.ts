// `npm run bench:repeat -- <runs> [suites…]`: the benchmark run several times in a row, each run a fresh
// process, and one table of which targets held in how many runs. A target counts as met only when it held
// in every run (issue 17): one lucky run on a shared machine proves nothing.
// Each run's figures are kept as bench/results/run-<k>.json; the table goes to bench/results/targets.md.
import { spawnSync } from 'node:child_process'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const out = join(root, 'bench/results')
const [first, ...rest] = process.argv.slice(2)
const runs = Number(first)
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(
    'usage: npm run bench:repeat -- <runs> [pty checkpoints hooks batch cli startup proxy secrets github scale]\n',
  )
  process.exit(2)
}

const outcomes: Map<string, (boolean | undefined)[]> = new Map()
for (let k = 1; k <= runs; k++) {
  process.stderr.write(`bench:repeat: run ${k} of ${runs}\n`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/run.ts'), ...rest], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (run.status !== 0) {
    process.stderr.write(`bench:repeat: run ${k} exited ${run.status ?? run.signal}\n`)
    process.exit(1)
  }
  const file = join(out, `run-${k}.json`)
  copyFileSync(join(out, 'latest.json'), file)
  const results = (JSON.parse(readFileSync(file, 'utf8')) as { results: Record<string, unknown> }).results
  const wanted = rest.length ? rest : Object.keys(results)
  for (const [path, ok] of targets(results, wanted)) {
    const row = outcomes.get(path) ?? Array<boolean | undefined>(runs).fill(undefined)
    row[k - 1] = ok
    outcomes.set(path, row)
  }
}

const lines = [
  '# Targets over repeated runs',
  '',
  `${runs} runs of \`npm run bench${rest.length ? ` -- ${rest.join(' ')}` : ''}\`, finished ${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}.`,
  'A target is met when it held in every run. Figures: bench/results/run-<k>.json.',
  '',
  `| target | ${Array.from({ length: runs }, (_, i) => `run ${i + 1}`).join(' | ')} | met |`,
  `| --- | ${'--- | '.repeat(runs)}--- |`,
]
for (const [path, row] of outcomes) {
  const held = row.filter((ok) => ok === true).length
  const cells = row.map((ok) => (ok === undefined ? '—' : ok ? 'yes' : 'no'))
  lines.push(`| ${path} | ${cells.join(' | ')} | ${held === runs ? 'met' : `${held} of ${runs}`} |`)
}
writeFileSync(join(out, 'targets.md'), lines.join('\n') + '\n')
process.stdout.write(lines.join('\n') + '\n')

/** Every boolean target verdict (a key `ok` or ending in `_ok`) in the chosen suites, by its path. */
function targets(results: Record<string, unknown>, suites: string[]): [string, boolean][] {
  const found: [string, boolean][] = []
  const walk = (value: unknown, path: string): void => {
    if (value === null || typeof value !== 'object') return
    for (const [key, inner] of Object.entries(value)) {
      const at = `${path}.${key}`
      if (typeof inner === 'boolean' && (key === 'ok' || key.endsWith('_ok'))) found.push([at, inner])
      else walk(inner, at)
    }
  }
  for (const suite of suites) walk(results[suite], suite)
  return found
}
