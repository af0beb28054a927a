// Where `proctor init` learns the action's owner and the schema's version: the installed package.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultActionRef } from '../../src/init/action-ref.js'
import { schemaUrl } from '../../src/init/templates.js'
import {
  derivedLinks,
  findPackageJson,
  githubRepositoryOf,
  manifestFrom,
  proctorManifest,
} from '../../src/util/package-manifest.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("proctor's package.json", () => {
  it.each([
    ['acme/proctor', 'acme/proctor'],
    ['github:acme/proctor', 'acme/proctor'],
    ['git+https://github.com/acme/proctor.git', 'acme/proctor'],
    ['https://github.com/acme/proctor', 'acme/proctor'],
    ['https://github.com/acme/proctor/', 'acme/proctor'],
    ['git://github.com/acme/proctor.git', 'acme/proctor'],
    ['git+ssh://git@github.com/acme/proctor.git', 'acme/proctor'],
    ['git@github.com:acme/proctor.git', 'acme/proctor'],
    ['https://github.com/acme/proctor.js.git', 'acme/proctor.js'],
  ])('reads the GitHub repository %s as %s', (field, expected) => {
    expect(githubRepositoryOf(field)).toBe(expected)
    expect(githubRepositoryOf({ type: 'git', url: field })).toBe(expected)
  })

  it.each([
    undefined,
    null,
    '',
    42,
    {},
    'https://gitlab.com/acme/proctor.git',
    'gitlab:acme/proctor',
    'bitbucket:acme/proctor',
    'https://github.com.evil.example/acme/proctor',
    'https://github.com/acme',
    'https://github.com/acme/proctor/tree/main/sub',
    '-acme/proctor',
    'acme/proctor; rm -rf /',
    'acme/pro ctor',
    'acme/..',
    'https://github.com/acme/..',
    'acme/proctor\nmore',
  ])('names no repository for %j (never a guessed owner)', (field) => {
    expect(githubRepositoryOf(field)).toBeNull()
  })

  it('derives homepage and bugs from the repository', () => {
    expect(derivedLinks('acme/proctor')).toEqual({
      homepage: 'https://github.com/acme/proctor#readme',
      bugs: 'https://github.com/acme/proctor/issues',
    })
  })

  it('finds the package.json that declares the proctor binary, passing dist/package.json and others by', () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-manifest-'))
    dirs.push(root)
    const pkg = join(root, 'node_modules/proctor')
    mkdirSync(join(pkg, 'dist/chunks'), { recursive: true })
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'users-app', bin: { app: 'x.js' } }))
    writeFileSync(join(pkg, 'dist/package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'proctor', version: '1.2.3', bin: { proctor: 'dist/cli.js' } }),
    )
    expect(findPackageJson(join(pkg, 'dist/chunks'))).toBe(join(pkg, 'package.json'))
    // A copy of dist/ alone under someone else's project: no proctor package.json at all.
    rmSync(join(pkg, 'package.json'))
    expect(findPackageJson(join(pkg, 'dist/chunks'))).toBeNull()
  })

  it('fills the uses: line and the schema URL from the manifest, a placeholder without a repository', () => {
    const published = manifestFrom(
      JSON.stringify({
        name: 'proctor',
        version: '1.0.0',
        repository: { type: 'git', url: 'git+https://github.com/acme-test/proctor.git' },
      }),
      null,
    )
    expect(defaultActionRef(published.repository)).toBe('acme-test/proctor@v1')
    expect(schemaUrl(published)).toBe('https://unpkg.com/proctor@1.0.0/schema/proctor.schema.json')
    expect(defaultActionRef(null)).toBe('OWNER/proctor@v1')
    expect(schemaUrl({ name: '@acme/proctor', version: '2.0.0-rc.1' })).toBe(
      'https://unpkg.com/@acme/proctor@2.0.0-rc.1/schema/proctor.schema.json',
    )
  })

  it("is this checkout's package.json when run from the sources", () => {
    expect(proctorManifest().path).toBe(join(import.meta.dirname, '../../package.json'))
  })
})
