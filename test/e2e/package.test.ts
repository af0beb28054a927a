// Day one, as a new user lives it and as the README's install section says: pack the package, install
// the tarball into an empty prefix with no registry but a loopback one that knows only husky, then in a
// fresh git repository run `proctor --help`, `proctor init --agent claude-code` (which installs husky
// from that registry), `proctor config validate`, and a `git push` that the generated husky hook blocks
// because `npm test` fails. The tarball must need nothing else: everything proctor runs is in dist/.
import { execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import actionValidator from '@action-validator/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNpmRegistry, type NpmRegistry } from '../servers/npm-registry.js'

const root = resolve(import.meta.dirname, '../..')
const work = mkdtempSync(join(tmpdir(), 'proctor-package-'))
const prefix = join(work, 'prefix')
const project = join(work, 'project')
const remote = join(work, 'remote.git')
let registry: NpmRegistry
let tarball = ''
let packed: { files: { path: string }[]; size: number; unpackedSize: number }

/** The newest modification time under a directory. */
function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir).map((name) => {
      const full = join(dir, name)
      const stat = statSync(full)
      return stat.isDirectory() ? newest(full) : stat.mtimeMs
    }),
  )
}

/** A user's shell: the installed prefix and Node on PATH, nothing of this repository's node_modules. */
const env: NodeJS.ProcessEnv = {
  PATH: [
    join(prefix, 'bin'),
    dirname(process.execPath),
    ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules')),
  ].join(delimiter),
  HOME: join(work, 'home'),
  npm_config_cache: join(work, 'npm-cache'),
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Day One',
  GIT_AUTHOR_EMAIL: 'day-one@example.com',
  GIT_COMMITTER_NAME: 'Day One',
  GIT_COMMITTER_EMAIL: 'day-one@example.com',
  TERM: 'dumb',
}

interface Ran {
  status: number | null
  stdout: string
  stderr: string
}

/** Asynchronous on purpose: the loopback registry answers from this process's event loop. */
function run(command: string, args: string[], cwd = project, extraEnv: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
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

beforeAll(async () => {
  // dist/ is what ships: build it when the sources are newer (CI builds it before the tests).
  if (
    !existsSync(join(root, 'dist/cli.js')) ||
    newest(join(root, 'src')) > statSync(join(root, 'dist/cli.js')).mtimeMs
  ) {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
  }
  mkdirSync(env.HOME!, { recursive: true })
  registry = await startNpmRegistry([join(root, 'node_modules/husky')], work)
  env.npm_config_registry = registry.url

  const out = execFileSync('npm', ['pack', root, '--pack-destination', work, '--ignore-scripts', '--json'], {
    env,
    encoding: 'utf8',
  })
  const [info] = JSON.parse(out) as [typeof packed & { filename: string }]
  packed = info
  tarball = join(work, info.filename)
}, 600_000)

afterAll(async () => {
  await registry?.close()
  rmSync(work, { recursive: true, force: true })
})

describe('the npm package', () => {
  it('holds only what runs, and is small', () => {
    const paths = packed.files.map((file) => file.path)
    const allowed =
      /^(dist\/|schema\/|hooks\/|action\.yml$|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/
    expect(paths.filter((path) => !allowed.test(path))).toEqual([])
    for (const needed of [
      'dist/cli.js',
      'dist/index.js',
      'dist/post.js',
      'dist/THIRD_PARTY_NOTICES.txt',
      'dist/node_modules/@lydell/node-pty/package.json',
      'dist/node_modules/@lydell/node-pty-linux-x64/pty.node',
      'schema/proctor.schema.json',
      'hooks/pre-push',
      'action.yml',
      'LICENSE',
      'README.md',
    ]) {
      expect(paths, needed).toContain(needed)
    }
    expect(packed.size).toBeLessThan(5 * 1024 ** 2)
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(manifest.private).toBeUndefined()
    expect(manifest.dependencies ?? {}).toEqual({})
  })

  it('installs offline from the tarball alone; init, config validate and a push the hook blocks work', async () => {
    // Install: nothing but the tarball (the registry is never asked).
    await ok(run('npm', ['install', '--global', '--prefix', prefix, tarball], work))
    expect(registry.requests).toEqual([])
    expect(await ok(run('proctor', ['--help'], work))).toMatch(/init[\s\S]*check/)

    // A fresh project whose tests fail, pushing to a local bare remote.
    mkdirSync(project)
    await ok(run('git', ['init', '-q', '-b', 'main', '.']))
    await ok(run('git', ['init', '-q', '--bare', remote], work))
    await ok(run('git', ['remote', 'add', 'origin', remote]))
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify(
        { name: 'day-one', version: '1.0.0', scripts: { test: "echo 'sum: expected 5, got 4' >&2; exit 1" } },
        null,
        2,
      ) + '\n',
    )
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n')

    const init = await ok(run('proctor', ['init', '--agent', 'claude-code']))
    expect(init).toContain('wrote proctor.yml')
    expect(init).toContain('wrote .husky/pre-push')
    expect(init).toContain('wrote .github/workflows/proctor.yml')
    expect(init).toContain('installed husky@^9 into devDependencies')
    expect(init).toContain('husky is set up')
    expect(registry.requests).toContain('/husky')
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>
      scripts: Record<string, string>
    }
    expect(Object.keys(manifest.devDependencies)).toEqual(['husky'])
    expect(manifest.scripts.prepare).toBe('husky')
    expect(await ok(run('git', ['config', 'core.hooksPath']))).toBe('.husky/_\n')

    expect(await ok(run('proctor', ['config', 'validate']))).toContain('proctor.yml')
    const workflow = readFileSync(join(project, '.github/workflows/proctor.yml'), 'utf8')
    expect(actionValidator.validateWorkflow(workflow).errors).toEqual([])
    expect(await ok(run('proctor', ['hooks', 'doctor']))).not.toContain('git pre-push')

    await ok(run('git', ['add', '-A']))
    await ok(run('git', ['commit', '-q', '-m', 'proctor init']))
    const push = await run('git', ['push', 'origin', 'main'])
    expect(push.status, push.stderr).not.toBe(0)
    expect(push.stderr).toContain('sum: expected 5, got 4')
    expect(await ok(run('git', ['ls-remote', remote]))).toBe('')

    // The same push goes through once skipped on purpose: the hook, not something else, blocked it.
    const skipped = await run('git', ['push', 'origin', 'main'], project, { PROCTOR_SKIP: '1' })
    expect(skipped.status, skipped.stderr).toBe(0)
    expect(await ok(run('git', ['ls-remote', remote]))).toContain('refs/heads/main')
  }, 300_000)

  it('runs with npx from the tarball in a fresh directory', async () => {
    const fresh = join(work, 'npx-fresh')
    mkdirSync(fresh)
    await ok(run('git', ['init', '-q', '.'], fresh))
    expect(await ok(run('npx', ['--yes', '--package', tarball, '--', 'proctor', '--help'], fresh))).toContain(
      'init',
    )
    const init = await ok(
      run(
        'npx',
        ['--yes', '--package', tarball, '--', 'proctor', 'init', '--agent', 'codex', '--no-install'],
        fresh,
      ),
    )
    expect(init).toContain('wrote proctor.yml')
    expect(readFileSync(join(fresh, 'proctor.yml'), 'utf8')).toContain('codex')
  }, 300_000)
})
