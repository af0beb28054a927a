// Builds dist/: the rollup bundles, then vendors @lydell/node-pty with all six platform packages so the
// action runs on any hosted runner without `npm install`. Deterministic: pinned versions, integrity
// checked against package-lock.json, no .pdb files, spawn-helper kept executable.
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { NOTICES_FILE, NOTICES_SEPARATOR, notice } from './notices.mjs'

const root = new URL('..', import.meta.url).pathname
const final = join(root, 'dist')
// Build beside dist/ and swap at the end, so a test running the bundle never sees it half-written.
const dist = join(root, `.dist-build-${process.pid}`)
const platforms = ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64']

rmSync(dist, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [join(root, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.config.mjs', '--silent'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PROCTOR_BUILD_DIR: dist },
  },
)
chmodSync(join(dist, 'cli.js'), 0o755)

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
const vendorRoot = join(dist, 'node_modules/@lydell')
mkdirSync(vendorRoot, { recursive: true })

function copyPackage(from, to) {
  cpSync(from, to, {
    recursive: true,
    // Only the package itself: no debug symbols, no nested node_modules of its own.
    filter: (src) => {
      const rel = src.slice(from.length)
      return !rel.endsWith('.pdb') && !rel.split('/').includes('node_modules')
    },
  })
}

copyPackage(join(root, 'node_modules/@lydell/node-pty'), join(vendorRoot, 'node-pty'))

const cacheDir = join(root, 'node_modules/.cache/proctor-vendor')
mkdirSync(cacheDir, { recursive: true })
for (const platform of platforms) {
  const name = `@lydell/node-pty-${platform}`
  const entry = lock.packages[`node_modules/${name}`]
  if (!entry) throw new Error(`package-lock.json has no entry for ${name}; run npm install`)
  const installed = join(root, 'node_modules', name)
  let source = installed
  if (!existsSync(installed)) {
    // npm skips optional packages for other platforms: fetch the exact tarball the lock file pins.
    const tarball = join(cacheDir, `lydell-node-pty-${platform}-${entry.version}.tgz`)
    if (!existsSync(tarball)) {
      execFileSync('npm', ['pack', `${name}@${entry.version}`, '--pack-destination', cacheDir, '--silent'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      })
    }
    const digest = 'sha512-' + createHash('sha512').update(readFileSync(tarball)).digest('base64')
    if (digest !== entry.integrity)
      throw new Error(`${name}: integrity mismatch (${digest} != ${entry.integrity})`)
    source = join(cacheDir, `extract-${platform}`)
    rmSync(source, { recursive: true, force: true })
    mkdirSync(source, { recursive: true })
    execFileSync('tar', ['-xzf', tarball, '-C', source, '--strip-components=1'])
  }
  const target = join(vendorRoot, `node-pty-${platform}`)
  copyPackage(source, target)
  for (const file of walk(target)) {
    if (file.endsWith('spawn-helper')) chmodSync(file, 0o755)
    else if (!statSync(file).isDirectory()) chmodSync(file, 0o644)
  }
}

// node-pty is vendored, not bundled, so rollup-plugin-license never saw it: append its notices. The
// platform packages ship no licence file of their own; they are node-pty's prebuilt binaries, under its
// licence.
const ptyLicense = readFileSync(join(vendorRoot, 'node-pty', 'LICENSE'), 'utf8')
const vendoredNotices = ['node-pty', ...platforms.map((platform) => `node-pty-${platform}`)].map((dir) => {
  const manifest = JSON.parse(readFileSync(join(vendorRoot, dir, 'package.json'), 'utf8'))
  if (!manifest.license) throw new Error(`@lydell/${dir} declares no licence`)
  return notice({ ...manifest, licenseText: ptyLicense })
})
const noticesPath = join(dist, NOTICES_FILE)
writeFileSync(
  noticesPath,
  readFileSync(noticesPath, 'utf8').trimEnd() +
    NOTICES_SEPARATOR +
    vendoredNotices.join(NOTICES_SEPARATOR) +
    '\n',
)

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) yield* walk(full)
    else yield full
  }
}

// Marks dist/ as ESM even when copied away from the repository's package.json.
writeFileSync(join(dist, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n')

rmSync(final, { recursive: true, force: true })
renameSync(dist, final)
