// Reads the zod schema itself (not a copy of it) so messages, did-you-mean candidates and the printed
// config always follow the schema as it evolves.
import { z } from 'zod'

type Schema = z.core.$ZodType

/** The parts of zod's internal definitions we read; every field is optional because it depends on `type`. */
interface Def {
  type: string
  innerType?: Schema
  in?: Schema
  shape?: Record<string, Schema>
  element?: Schema
  options?: readonly Schema[]
  keyType?: Schema
  valueType?: Schema
  entries?: Record<string, string | number>
}

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def

const WRAPPERS = new Set(['default', 'optional', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional'])

/** The schema a wrapper (default, optional…) or a z.lazy link (schema.ts builds parts on first use) holds. */
function inner(schema: Schema): Schema | undefined {
  const def = defOf(schema)
  if (WRAPPERS.has(def.type)) return def.innerType
  if (def.type === 'lazy') return (schema._zod as unknown as { innerType: Schema }).innerType
  return undefined
}

export type SpecialKind = 'duration' | 'size'

/** duration() and size() in schema.ts describe themselves; that description is how we recognize them. */
export function specialKind(schema: Schema): SpecialKind | undefined {
  let current: Schema | undefined = schema
  while (current) {
    const description = z.globalRegistry.get(current)?.description ?? ''
    if (description.startsWith('A duration')) return 'duration'
    if (description.startsWith('A size')) return 'size'
    current = inner(current)
  }
  return undefined
}

/** Strips default/optional wrappers and lazy links and follows pipes to the schema that checks the input. */
export function unwrap(schema: Schema): Schema {
  let current = schema
  for (;;) {
    const def = defOf(current)
    const next = def.type === 'pipe' ? def.in : inner(current)
    if (!next) return current
    current = next
  }
}

/** The schema that validates the value at `path`, or undefined when the path leaves the schema. */
export function schemaAt(root: Schema, path: readonly PropertyKey[]): Schema | undefined {
  let current: Schema | undefined = root
  for (const key of path) {
    if (!current) return undefined
    current = childSchema(unwrap(current), key)
  }
  return current
}

function childSchema(schema: Schema, key: PropertyKey): Schema | undefined {
  const def = defOf(schema)
  switch (def.type) {
    case 'object':
      return typeof key === 'string' ? def.shape?.[key] : undefined
    case 'array':
      return typeof key === 'number' ? def.element : undefined
    case 'record':
      return def.valueType
    case 'union':
      for (const option of def.options ?? []) {
        const child = childSchema(unwrap(option), key)
        if (child) return child
      }
      return undefined
    default:
      return undefined
  }
}

/** The keys a mapping may hold: an object's fields, or the allowed keys of an enum-keyed record. */
export function allowedKeys(schema: Schema): string[] {
  const def = defOf(unwrap(schema))
  if (def.type === 'object') return Object.keys(def.shape ?? {})
  if (def.type === 'record' && def.keyType) return enumValues(def.keyType)
  return []
}

export function enumValues(schema: Schema): string[] {
  const def = defOf(unwrap(schema))
  return def.type === 'enum' ? Object.values(def.entries ?? {}).map(String) : []
}

const isInteger = (schema: Schema): boolean => (schema as { format?: unknown }).format === 'safeint'

/** What a user should write here, in words: "a list of strings", "one of auto, always, never". */
export function describeExpected(schema: Schema): string {
  const kind = specialKind(schema)
  if (kind === 'duration') return 'a duration like 30s or 10m'
  if (kind === 'size') return 'a size like 512KiB or 5MiB'
  const inner = unwrap(schema)
  const def = defOf(inner)
  switch (def.type) {
    case 'string':
      return 'a string'
    case 'number':
      return isInteger(inner) ? 'a whole number' : 'a number'
    case 'boolean':
      return 'true or false'
    case 'enum':
      return `one of ${enumValues(inner).join(', ')}`
    case 'array':
      return `a list of ${describePlural(def.element)}`
    case 'union':
      return (def.options ?? []).map(describeExpected).join(' or ')
    case 'object':
      return 'a mapping (key: value)'
    case 'record':
      return `a mapping of ${describePlural(def.valueType)}`
    default:
      return def.type
  }
}

function describePlural(schema: Schema | undefined): string {
  if (!schema) return 'values'
  const kind = specialKind(schema)
  if (kind) return `${kind}s`
  const inner = unwrap(schema)
  const def = defOf(inner)
  switch (def.type) {
    case 'string':
      return 'strings'
    case 'number':
      return isInteger(inner) ? 'whole numbers' : 'numbers'
    case 'boolean':
      return 'true/false values'
    case 'enum':
      return `values (${enumValues(inner).join(', ')})`
    case 'array':
      return 'lists'
    case 'object':
    case 'record':
      return 'mappings (key: value)'
    default:
      return 'values'
  }
}

/** What the user actually wrote, in the same words: "a number (5)", "a list". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value'
  if (Array.isArray(value)) return 'a list'
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`
    case 'number':
      return `a number (${value})`
    case 'boolean':
      return `${value}`
    case 'object':
      return 'a mapping'
    default:
      return typeof value
  }
}

/**
 * Every key path of a schema as the docs write it: `agent.command`, `detect[].respond.send`,
 * `hooks.<event>[].async` (records with enum keys are written `<event>`).
 */
export function keyPaths(schema: Schema, prefix = ''): string[] {
  const def = defOf(unwrap(schema))
  if (def.type === 'object') {
    return Object.entries(def.shape ?? {}).flatMap(([key, child]) => {
      const path = prefix ? `${prefix}.${key}` : key
      return [path, ...keyPaths(child, path)]
    })
  }
  if (def.type === 'array' && def.element) return keyPaths(def.element, `${prefix}[]`)
  if (def.type === 'record' && def.valueType && def.keyType && enumValues(def.keyType).length > 0) {
    return keyPaths(def.valueType, `${prefix}.<event>`)
  }
  return []
}
