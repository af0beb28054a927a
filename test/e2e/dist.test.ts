// dist/ is what the action runner executes: it must hold node-pty with its Linux and macOS packages, pinned
// to the lock file, without debug symbols, with macOS's spawn-helper executable — and run with no
// node_modules anywhere above it, as it does on a runner.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { isBuiltin } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const vendored = join(root, 'dist/node_modules/@lydell')
const platforms = ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64']

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}

describe('dist/', () => {
  it('vendors node-pty and its four Linux and macOS packages at the locked versions, no Windows ones', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>
    }
    const version = (dir: string) =>
      (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version
    expect(version(join(vendored, 'node-pty'))).toBe(lock.packages['node_modules/@lydell/node-pty']!.version)
    for (const platform of platforms) {
      const dir = join(vendored, `node-pty-${platform}`)
      expect(existsSync(dir), platform).toBe(true)
      expect(version(dir)).toBe(lock.packages[`node_modules/@lydell/node-pty-${platform}`]!.version)
    }
    expect(walk(vendored).filter((f) => f.endsWith('.pdb'))).toEqual([])
    // proctor refuses Windows (src/util/platform.ts), so its binaries would be dead weight.
    expect(readdirSync(vendored).filter((name) => name.includes('win32'))).toEqual([])
    for (const mac of ['darwin-arm64', 'darwin-x64']) {
      expect(statSync(join(vendored, `node-pty-${mac}`, 'spawn-helper')).mode & 0o111).not.toBe(0)
    }
  })

  it('runs a PTY session from a copy far away from any node_modules, as on a runner', () => {
    const away = mkdtempSync(join(tmpdir(), 'proctor-runner-'))
    try {
      cpSync(join(root, 'dist'), join(away, 'dist'), { recursive: true })
      const result = spawnSync(
        process.execPath,
        [join(away, 'dist/cli.js'), 'run', '--json', '--', 'sh', '-c', 'test -t 1 && echo on-a-tty'],
        {
          cwd: away,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: away },
        },
      )
      expect(result.status, result.stderr).toBe(0)
      const report = JSON.parse(result.stdout) as { mode: string; output_tail: string }
      expect(report.mode).toBe('pty')
      expect(report.output_tail).toContain('on-a-tty')
    } finally {
      rmSync(away, { recursive: true, force: true })
    }
  })
})

describe('dist/ start-up', () => {
  /** The dist files `file` imports, directly or not; with `dynamic`, also those it may import later. */
  const chunkGraph = (file: string, dynamic: boolean, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen
    seen.add(file)
    // Without comments: bundled code's JSDoc types say `import('./client.js')` too.
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    // Rollup writes every chunk import with its .js name.
    const imports = dynamic
      ? /(?:^import [^;]*?from |^import |\bimport\()'(\.[^']+\.js)'/gm
      : /^import (?:[^;]*? from )?'(\.[^']+\.js)'/gm
    for (const match of code.matchAll(imports)) chunkGraph(resolve(dirname(file), match[1]!), dynamic, seen)
    return seen
  }
  const builtinImports = (file: string): string[] =>
    [...readFileSync(file, 'utf8').matchAll(/^import (?:[^;]*? from )?'([^.'][^']*)'/gm)]
      .map((match) => match[1]!)
      .filter((id) => isBuiltin(id))

  it('the CLI imports no node builtin as an ES module: no facade runs fs.promises or util.TextDecoder', () => {
    const files = [...chunkGraph(join(root, 'dist/cli.js'), true)]
    expect(files.length).toBeGreaterThan(10)
    expect(files.flatMap((file) => builtinImports(file).map((id) => `${file}: ${id}`))).toEqual([])
  })

  it('`checkpoints create` loads its own chunk and the two every command loads, nothing else', () => {
    // (Node's loader spends about a millisecond on each file; a proctor.yml or forbidden_areas load more.)
    const cli = readFileSync(join(root, 'dist/cli.js'), 'utf8')
    const create = /import\('(\.\/chunks\/checkpoints-create-[^']+)'\)/.exec(cli)?.[1]
    expect(create).toBeDefined()
    const loaded = [...chunkGraph(join(root, 'dist', create!), false)].map((file) =>
      file.replace(/-[\w-]{8}\.js$/, ''),
    )
    expect(loaded.map((file) => file.slice(join(root, 'dist/chunks/').length)).sort()).toEqual([
      'checkpoints-create',
      'errors',
      'exit',
    ])
  })
})
