// The published package fills in its own action owner and schema URL: pack a copy of the package root whose
// package.json names a (test-only) GitHub repository, install the tarball into an empty project with npm
// offline, and `npx proctor init` writes `uses: acme-test/proctor@v1` and a schema URL pinned to the
// package's version that the tarball really holds. A copy without `repository` writes the placeholder and
// says how to fill it in: the owner is never made up.
import { execFileSync, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const work = mkdtempSync(join(tmpdir(), 'proctor-package-repo-'))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  version: string
  files: string[]
}

/** A user's shell: Node on PATH, nothing of this repository's node_modules, npm's cache in the temp dir. */
const env: NodeJS.ProcessEnv = {
  PATH: [
    dirname(process.execPath),
    ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules')),
  ].join(delimiter),
  HOME: join(work, 'home'),
  npm_config_cache: join(work, 'npm-cache'),
  // Nothing is fetched: --offline, and a registry no one listens on should anything try.
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  GIT_CONFIG_NOSYSTEM: '1',
  TERM: 'dumb',
  NO_COLOR: '1',
}

function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir).map((name) => {
      const full = join(dir, name)
      const stat = statSync(full)
      return stat.isDirectory() ? newest(full) : stat.mtimeMs
    }),
  )
}

interface Ran {
  status: number | null
  stdout: string
  stderr: string
}

function run(command: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

async function ok(running: Promise<Ran>): Promise<string> {
  const result = await running
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0)
  return result.stdout
}

interface Packed {
  tarball: string
  paths: string[]
}

/** Packs a copy of the package root, its package.json changed by `npm pkg` with `pkgArgs` first. */
async function packCopy(label: string, pkgArgs: string[]): Promise<Packed> {
  const copy = join(work, `copy-${label}`)
  mkdirSync(copy)
  for (const entry of [...pkg.files, 'package.json']) {
    const from = join(root, entry)
    if (existsSync(from)) cpSync(from, join(copy, entry), { recursive: true })
  }
  await ok(run('npm', ['pkg', ...pkgArgs], copy))
  const out = await ok(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], copy))
  const [info] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }]
  // Both copies have the same name and version: keep each tarball under its own name.
  const tarball = join(work, `${label}-${info.filename}`)
  cpSync(join(work, info.filename), tarball)
  rmSync(join(work, info.filename))
  return { tarball, paths: info.files.map((file) => file.path) }
}

/** An empty project with the tarball installed offline, `proctor init` run in it; its workflow and config. */
async function initFrom(label: string, packed: Packed) {
  const project = join(work, `project-${label}`)
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `empty-${label}`, private: true }))
  await ok(run('git', ['init', '-q', '.'], project))
  await ok(run('npm', ['install', '--offline', '--save-dev', packed.tarball], project))
  const init = await ok(
    run('npx', ['--offline', 'proctor', 'init', '--agent', 'claude-code', '--no-install'], project),
  )
  return {
    init,
    workflow: readFileSync(join(project, '.github/workflows/proctor.yml'), 'utf8'),
    config: readFileSync(join(project, 'proctor.yml'), 'utf8'),
  }
}

const usesOf = (workflow: string): string[] => {
  const parsed = parseYaml(workflow) as { jobs: Record<string, { steps: { uses?: string }[] }> }
  return Object.values(parsed.jobs)
    .flatMap((job) => job.steps.map((step) => step.uses))
    .filter((uses): uses is string => uses !== undefined && uses.includes('proctor'))
}

const schemaUrlOf = (config: string): string =>
  /^# yaml-language-server: \$schema=(\S+)$/m.exec(config)?.[1] ?? '(no modeline)'

beforeAll(() => {
  // dist/ is what ships: build it when the sources are newer (CI builds it before the tests).
  if (
    !existsSync(join(root, 'dist/cli.js')) ||
    newest(join(root, 'src')) > statSync(join(root, 'dist/cli.js')).mtimeMs
  ) {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
  }
  mkdirSync(env.HOME!, { recursive: true })
}, 600_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('the published package names its own action and schema', () => {
  it('with a repository in package.json: uses: <owner>/<name>@v1 and a schema URL the tarball holds', async () => {
    const packed = await packCopy('named', [
      'set',
      'repository.url=git+https://github.com/acme-test/proctor.git',
    ])
    const { init, workflow, config } = await initFrom('named', packed)
    expect(init).toContain('wrote .github/workflows/proctor.yml')
    expect(init).not.toMatch(/OWNER/)
    expect(usesOf(workflow)).not.toEqual([])
    expect(new Set(usesOf(workflow))).toEqual(new Set(['acme-test/proctor@v1']))

    const url = schemaUrlOf(config)
    expect(url).toBe(`https://unpkg.com/${pkg.name}@${pkg.version}/schema/proctor.schema.json`)
    // The CDN serves the tarball's files under package/: the URL's path must be one of them.
    const path = new URL(url).pathname.replace(`/${pkg.name}@${pkg.version}/`, '')
    expect(packed.paths).toContain(path)
  }, 300_000)

  it('without a repository: the placeholder, and a note that says how to fill it in', async () => {
    const packed = await packCopy('unnamed', ['delete', 'repository', 'homepage', 'bugs'])
    const { init, workflow, config } = await initFrom('unnamed', packed)
    expect(new Set(usesOf(workflow))).toEqual(new Set(['OWNER/proctor@v1']))
    expect(init).toMatch(
      /note: .*names no GitHub repository\): replace OWNER .*proctor init --action <owner>\/proctor@v1 --force/,
    )
    expect(schemaUrlOf(config)).toBe(
      `https://unpkg.com/${pkg.name}@${pkg.version}/schema/proctor.schema.json`,
    )
  }, 300_000)
})
