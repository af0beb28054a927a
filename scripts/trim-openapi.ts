// Trims GitHub's OpenAPI description (@octokit/openapi, 13 MB) to the operations proctor uses and the
// components they reference, for the local GitHub API server's request validation.
//   node --import tsx scripts/trim-openapi.ts     (rewrites test/servers/openapi/api.github.com.trimmed.json)
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { OPERATIONS, TRIMMED_SPEC_FILE } from '../test/servers/openapi/operations.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
/** Prose and examples make up most of the file and play no part in validation. */
const DROP_KEYS = new Set([
  'description',
  'externalDocs',
  'example',
  'examples',
  'x-github',
  'x-octokit',
  'tags',
])

/** Path of the full description in the installed @octokit/openapi, or null when it is not installed. */
export function installedSpecPath(): string | null {
  try {
    const require = createRequire(import.meta.url)
    return join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json')
  } catch {
    return null
  }
}

export function trimOpenApi(spec: JsonObject, operationIds: readonly string[]): JsonObject {
  const wanted = new Set(operationIds)
  const paths: JsonObject = {}
  const found = new Set<string>()
  for (const [path, item] of Object.entries(spec.paths as JsonObject)) {
    const kept: JsonObject = {}
    for (const [method, op] of Object.entries(item as JsonObject)) {
      if (!METHODS.includes(method)) continue
      const id = (op as JsonObject).operationId as string
      if (!wanted.has(id)) continue
      found.add(id)
      kept[method] = strip(op)
    }
    if (Object.keys(kept).length > 0) {
      const shared = (item as JsonObject).parameters
      paths[path] = shared ? { parameters: strip(shared), ...kept } : kept
    }
  }
  const missing = [...wanted].filter((id) => !found.has(id))
  if (missing.length > 0) throw new Error(`operations not in the OpenAPI description: ${missing.join(', ')}`)

  // Follow $refs transitively so the result is self-contained.
  const all = spec.components as Record<string, JsonObject>
  const components: Record<string, JsonObject> = {}
  const queue = collectRefs(paths)
  const seen = new Set<string>()
  while (queue.length > 0) {
    const ref = queue.pop()!
    if (seen.has(ref)) continue
    seen.add(ref)
    const m = /^#\/components\/([^/]+)\/(.+)$/.exec(ref)
    if (!m) throw new Error(`unsupported $ref ${ref}`)
    const [, kind, name] = m as unknown as [string, string, string]
    const target = all[kind]?.[name]
    if (target === undefined) throw new Error(`dangling $ref ${ref}`)
    const stripped = strip(target)
    components[kind] ??= {}
    components[kind][name] = stripped
    queue.push(...collectRefs(stripped))
  }
  return {
    openapi: spec.openapi as string,
    info: {
      title: (spec.info as JsonObject).title as string,
      version: (spec.info as JsonObject).version as string,
    },
    paths: sortKeys(paths),
    components: sortKeys(Object.fromEntries(Object.entries(components).map(([k, v]) => [k, sortKeys(v)]))),
  }
}

function strip(value: Json): Json {
  if (Array.isArray(value)) return value.map(strip)
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    if (DROP_KEYS.has(key)) continue
    // `properties` maps names to schemas: a property may legitimately be called "description".
    out[key] = key === 'properties' ? mapValues(child as JsonObject, strip) : strip(child)
  }
  return out
}

function mapValues(obj: JsonObject, fn: (v: Json) => Json): JsonObject {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v)]))
}

function collectRefs(value: Json, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out)
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') out.push(child)
      else collectRefs(child, out)
    }
  }
  return out
}

function sortKeys(obj: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => a.localeCompare(b)))
}

export const TRIMMED_SPEC_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'servers',
  'openapi',
  TRIMMED_SPEC_FILE,
)

function main(): void {
  const source = installedSpecPath()
  if (!source) throw new Error('@octokit/openapi is not installed: run npm ci (it is a devDependency)')
  const spec = JSON.parse(readFileSync(source, 'utf8')) as JsonObject
  const trimmed = trimOpenApi(spec, OPERATIONS)
  writeFileSync(TRIMMED_SPEC_PATH, `${JSON.stringify(trimmed, null, 2)}\n`)
  console.log(
    `wrote ${TRIMMED_SPEC_PATH} (${OPERATIONS.length} operations, ${JSON.stringify(trimmed).length} characters)`,
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
