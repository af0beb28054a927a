// Makes git run .husky/pre-push: husky v9 in devDependencies, `"prepare": "husky"` so a fresh clone
// sets it up on `npm install`, and one `husky` run now (it sets core.hooksPath to .husky/_). Anything it
// cannot do becomes a hint with the exact command.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnManaged } from '../supervisor/process.js'
import { SpawnError } from '../supervisor/types.js'

const HUSKY = 'husky@^9'
const MANUAL = `npm install --save-dev ${HUSKY} && npm pkg set scripts.prepare=husky && npx husky`
const OUTPUT_CAP = 64 * 1024

export async function setUpHusky(
  root: string,
  mode: 'install' | 'skip',
  env: Record<string, string | undefined>,
): Promise<string[]> {
  const manifestPath = join(root, 'package.json')
  if (!existsSync(manifestPath)) {
    return [
      'git runs .husky/pre-push only once husky is set up, and husky needs a package.json: run ' +
        `\`npm init -y && ${MANUAL}\`, or without npm: \`cp .husky/pre-push .git/hooks/pre-push\``,
    ]
  }
  if (mode === 'skip') return [`set up husky so git runs .husky/pre-push: \`${MANUAL}\``]

  const hints: string[] = []
  if (!existsSync(join(root, 'node_modules', 'husky', 'package.json'))) {
    const run = await runToEnd(['npm', 'install', '--save-dev', '--no-audit', '--no-fund', HUSKY], root, env)
    if (run.exitCode !== 0) {
      return [
        `installing husky failed (${run.describe}): run \`${MANUAL}\` yourself so git runs .husky/pre-push`,
      ]
    }
    hints.push(`installed ${HUSKY} into devDependencies`)
  }
  const prepare = ensurePrepareScript(manifestPath)
  if (prepare) hints.push(prepare)
  const husky = await runToEnd([join(root, 'node_modules', '.bin', 'husky')], root, env)
  if (husky.exitCode !== 0) {
    hints.push(`\`npx husky\` failed (${husky.describe}); run it yourself so git runs .husky/pre-push`)
  } else hints.push('husky is set up: git runs .husky/pre-push before every push')
  return hints
}

/** Adds `"prepare": "husky"` unless a prepare script exists; a hint when that one does not run husky. */
function ensurePrepareScript(manifestPath: string): string | null {
  const text = readFileSync(manifestPath, 'utf8')
  const manifest = JSON.parse(text) as { scripts?: Record<string, string> }
  const existing = manifest.scripts?.prepare
  if (existing !== undefined) {
    return existing.includes('husky')
      ? null
      : `package.json's prepare script does not run husky; add \`husky\` to it (e.g. "${existing} && husky") so a fresh clone sets up the hook`
  }
  manifest.scripts = { ...manifest.scripts, prepare: 'husky' }
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  '
  writeFileSync(manifestPath, JSON.stringify(manifest, null, indent) + (text.endsWith('\n') ? '\n' : ''))
  return 'added "prepare": "husky" to package.json, so a fresh clone sets up the hook on npm install'
}

interface RunOutcome {
  exitCode: number | null
  /** exit code and the last lines of output, for a hint. */
  describe: string
}

async function runToEnd(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<RunOutcome> {
  let output = ''
  try {
    const child = spawnManaged({
      command: { file: argv[0]!, args: argv.slice(1) },
      cwd,
      env,
      mode: 'pipe',
      graceMs: 2000,
      label: argv[0]!.split('/').pop(),
      onOutput: (chunk) => {
        output = (output + chunk.toString('utf8')).slice(-OUTPUT_CAP)
      },
    })
    const exit = await child.exited
    const last = output.trim().split('\n').slice(-3).join(' / ')
    return {
      exitCode: exit.exitCode,
      describe: `${argv.join(' ')} exited ${exit.exitCode ?? exit.signal}${last ? `: ${last}` : ''}`,
    }
  } catch (error) {
    if (error instanceof SpawnError) return { exitCode: null, describe: error.message }
    throw error
  }
}
