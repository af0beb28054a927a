// proctor's own package.json, read where it is installed: the one place that says which GitHub repository
// the action lives in and which version this is. Found by walking up from this module's file, which works
// the same for the sources (src/util/), the build (dist/chunks/, past dist/package.json, which only marks
// the build as ESM) and an installed package (node_modules/proctor/dist/chunks/). So a package published
// with a `repository` fills `uses: <owner>/<name>@v1` in by itself, and one without never makes one up.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROCTOR_VERSION } from './version.js'

export interface ProctorManifest {
  /** The npm name the package is published under. */
  name: string
  version: string
  /** `owner/name` of the GitHub repository package.json's `repository` names; null when it names none. */
  repository: string | null
  /** The package.json it was read from; null when none was found (a copy of dist/ alone). */
  path: string | null
}

/** A GitHub `owner/name`, as `uses:` and `github.repository` write it. */
const OWNER_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/

/**
 * `owner/name` of the GitHub repository a package.json `repository` field names, or null for anything
 * else (another host, a malformed value). Accepts what npm accepts for GitHub: `owner/name`,
 * `github:owner/name`, and a URL (`git+https://`, `https://`, `git://`, `git+ssh://git@`, `git@github.com:`)
 * as a string or as `{ "url": … }`, with or without `.git`.
 */
export function githubRepositoryOf(field: unknown): string | null {
  const raw =
    typeof field === 'string'
      ? field
      : typeof field === 'object' && field !== null && typeof (field as { url?: unknown }).url === 'string'
        ? (field as { url: string }).url
        : null
  if (raw === null) return null
  const value = raw.trim()
  const shorthand = /^(?:github:)?([^:/@#\s]+\/[^:/@#\s]+)$/.exec(value)?.[1]
  const url =
    /^(?:git\+)?(?:https?|git|ssh):\/\/(?:git@)?github\.com\/([^/#?\s]+\/[^/#?\s]+?)\/?(?:[#?].*)?$/i.exec(
      value,
    )?.[1] ?? /^git@github\.com:([^/#?\s]+\/[^/#?\s]+?)\/?$/i.exec(value)?.[1]
  const found = (shorthand ?? url)?.replace(/\.git$/, '')
  // GitHub has no repository named . or .. (and `uses: acme/..@v1` would mean a path).
  return found !== undefined && OWNER_NAME.test(found) && !/\/\.{1,2}$/.test(found) ? found : null
}

/** The homepage and bugs URLs package.json should carry for a GitHub `owner/name` (the release checks them). */
export function derivedLinks(repository: string): { homepage: string; bugs: string } {
  return {
    homepage: `https://github.com/${repository}#readme`,
    bugs: `https://github.com/${repository}/issues`,
  }
}

/** Reads a package.json's text into the manifest. */
export function manifestFrom(text: string, path: string | null): ProctorManifest {
  const pkg = JSON.parse(text) as { name?: unknown; version?: unknown; repository?: unknown }
  return {
    name: typeof pkg.name === 'string' ? pkg.name : 'proctor',
    version: typeof pkg.version === 'string' ? pkg.version : PROCTOR_VERSION,
    repository: githubRepositoryOf(pkg.repository),
    path,
  }
}

/**
 * The nearest package.json above `from` that declares the `proctor` binary, or null: dist/package.json
 * (no `bin`) and a stranger's package.json above a copied dist/ are passed by.
 */
export function findPackageJson(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json')
    try {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { bin?: unknown }
      if (typeof pkg.bin === 'object' && pkg.bin !== null && 'proctor' in pkg.bin) return candidate
    } catch {
      // No package.json here (or not JSON): keep walking up.
    }
    if (dirname(dir) === dir) return null
  }
}

let cached: ProctorManifest | undefined

/** proctor's package.json where it runs from; read once. Without one: no repository, PROCTOR_VERSION. */
export function proctorManifest(): ProctorManifest {
  if (cached) return cached
  const path = findPackageJson(dirname(fileURLToPath(import.meta.url)))
  cached = path
    ? manifestFrom(readFileSync(path, 'utf8'), path)
    : { name: 'proctor', version: PROCTOR_VERSION, repository: null, path: null }
  return cached
}
