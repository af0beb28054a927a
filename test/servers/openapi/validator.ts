// Validates requests (method, path, path/query parameters, JSON body) and the fake server's own
// responses against GitHub's OpenAPI description (the trimmed copy in this folder), with ajv.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { TRIMMED_SPEC_FILE } from './operations.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

export interface Operation {
  operationId: string
  method: string
  template: string
  pathParams: Record<string, string | number>
  query: Record<string, string | number>
}

export type RequestCheck =
  { ok: true; operation: Operation } | { ok: false; status: 400 | 404 | 405 | 422; message: string }

interface Route {
  method: string
  template: string
  regex: RegExp
  names: string[]
  literalChars: number
  op: JsonObject
  params: JsonObject[]
}

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv

export function loadTrimmedSpec(): JsonObject {
  const here = dirname(fileURLToPath(import.meta.url))
  return JSON.parse(readFileSync(join(here, TRIMMED_SPEC_FILE), 'utf8')) as JsonObject
}

export class OpenApiValidator {
  private readonly ajv: Ajv
  private readonly routes: Route[] = []
  private readonly components: JsonObject
  private readonly cache = new Map<string, ValidateFunction>()

  constructor(spec: JsonObject = loadTrimmedSpec()) {
    this.components = spec.components as JsonObject
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true })
    addFormats(this.ajv)
    // Refs point at '#/components/...' of the spec document; register the components under an id.
    this.ajv.addSchema({ $id: 'gh', components: rewriteRefs(this.components) as JsonObject } as object)
    for (const [template, item] of Object.entries(spec.paths as JsonObject)) {
      const shared = ((item as JsonObject).parameters as JsonObject[] | undefined) ?? []
      for (const [method, op] of Object.entries(item as JsonObject)) {
        if (method === 'parameters') continue
        const names: string[] = []
        const source = template
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
            names.push(name)
            return '([^/]+)'
          })
        const opParams = ((op as JsonObject).parameters as JsonObject[] | undefined) ?? []
        this.routes.push({
          method: method.toUpperCase(),
          template,
          regex: new RegExp(`^${source}$`),
          names,
          literalChars: template.replace(/\{\w+\}/g, '').length,
          op: op as JsonObject,
          params: [...shared, ...opParams].map((p) => this.deref(p) as JsonObject),
        })
      }
    }
    // Most literal first, so /repos/{o}/{r}/check-runs beats a more generic template.
    this.routes.sort((a, b) => b.literalChars - a.literalChars)
  }

  checkRequest(method: string, url: URL, body: unknown): RequestCheck {
    const pathname = url.pathname
    const candidates = this.routes.filter((r) => r.regex.test(pathname))
    if (candidates.length === 0)
      return { ok: false, status: 404, message: `no such path in the GitHub REST API: ${pathname}` }
    const route = candidates.find((r) => r.method === method)
    if (!route) {
      const allowed = candidates.map((r) => r.method).join(', ')
      return {
        ok: false,
        status: 405,
        message: `${method} not allowed on ${candidates[0]!.template} (allowed: ${allowed})`,
      }
    }
    const id = route.op.operationId as string
    const match = route.regex.exec(pathname)!
    const pathParams: Record<string, string | number> = {}
    const query: Record<string, string | number> = {}
    const problems: string[] = []
    route.names.forEach((name, i) => {
      const spec = route.params.find((p) => p.in === 'path' && p.name === name)
      const raw = decodeURIComponent(match[i + 1]!)
      pathParams[name] = spec ? this.coerce(id, `path/${name}`, spec, raw, problems) : raw
    })
    for (const [name, raw] of url.searchParams) {
      const spec = route.params.find((p) => p.in === 'query' && p.name === name)
      if (!spec) {
        problems.push(`unknown query parameter "${name}" for ${id}`)
        continue
      }
      query[name] = this.coerce(id, `query/${name}`, spec, raw, problems)
    }
    for (const p of route.params) {
      if (p.required && p.in === 'query' && !url.searchParams.has(p.name as string))
        problems.push(`missing query parameter "${p.name}"`)
    }
    const requestBody = route.op.requestBody as JsonObject | undefined
    if (requestBody) {
      const schema = ((requestBody.content as JsonObject)?.['application/json'] as JsonObject | undefined)
        ?.schema
      if (body === undefined) {
        if (requestBody.required) problems.push(`${id} requires a JSON body`)
      } else if (schema) {
        const validate = this.compile(`${id}#body`, strictObjects(rewriteRefs(schema)))
        if (!validate(body)) problems.push(...this.errors(validate, 'body'))
      }
    } else if (body !== undefined && method !== 'GET') {
      problems.push(`${id} takes no request body`)
    }
    if (problems.length > 0) return { ok: false, status: 422, message: `${id}: ${problems.join('; ')}` }
    return { ok: true, operation: { operationId: id, method, template: route.template, pathParams, query } }
  }

  /** Errors of a response body against the operation's documented response for that status. */
  checkResponse(operationId: string, status: number, body: unknown): string[] {
    const route = this.routes.find((r) => r.op.operationId === operationId)
    if (!route) return [`unknown operation ${operationId}`]
    const responses = route.op.responses as JsonObject
    let response = this.deref(responses[String(status)] ?? null) as JsonObject | null
    // Any operation can answer 401/403/5xx without documenting it; those bodies are GitHub's basic error.
    if (!response && status >= 400)
      response = { content: { 'application/json': { schema: { $ref: '#/components/schemas/basic-error' } } } }
    if (!response) return [`${operationId} documents no ${status} response`]
    const schema = (
      (response.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined
    )?.schema
    if (!schema) return body === undefined || body === '' ? [] : [`${operationId} ${status} has no JSON body`]
    const validate = this.compile(`${operationId}#${status}`, rewriteRefs(schema))
    return validate(body) ? [] : this.errors(validate, `response ${status}`)
  }

  private coerce(
    id: string,
    where: string,
    param: JsonObject,
    raw: string,
    problems: string[],
  ): string | number {
    const schema = (param.schema as JsonObject | undefined) ?? {}
    const value: string | number = schema.type === 'integer' || schema.type === 'number' ? Number(raw) : raw
    const validate = this.compile(`${id}#${where}`, rewriteRefs(schema))
    if (!validate(value)) problems.push(...this.errors(validate, where))
    return value
  }

  private compile(key: string, schema: Json): ValidateFunction {
    let validate = this.cache.get(key)
    if (!validate) {
      validate = this.ajv.compile(schema as object)
      this.cache.set(key, validate)
    }
    return validate
  }

  private errors(validate: ValidateFunction, where: string): string[] {
    return (validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message ?? 'is invalid'}`)
  }

  private deref(value: Json): Json {
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.$ref === 'string') {
      const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(value.$ref) ?? []
      return this.deref(((this.components[kind!] as JsonObject | undefined)?.[name!] ?? null) as Json)
    }
    return value
  }
}

function rewriteRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(rewriteRefs)
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    if (key === 'discriminator') continue // ajv cannot use GitHub's `mapping`; oneOf alone decides
    out[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith('#/')
        ? `gh${child}`
        : rewriteRefs(child)
  }
  // OpenAPI 3.0 `nullable` + `enum`: GitHub's enums omit null, and ajv (rightly) wants it listed.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null]
  // `nullable` beside a oneOf and no type (a commit's author): ajv needs a type, so null becomes an option.
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _nullable, ...rest } = out
    return { anyOf: [{ type: 'null' }, rest] }
  }
  return out
}

/**
 * GitHub's schemas allow unknown properties; a typo in a request body would pass unnoticed. For request
 * bodies, objects that list their properties get `additionalProperties: false` unless they say otherwise.
 */
function strictObjects(value: Json): Json {
  if (Array.isArray(value)) return value.map(strictObjects)
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(child as JsonObject).map(([k, v]) => [k, strictObjects(v)]))
        : strictObjects(child)
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false
  return out
}
