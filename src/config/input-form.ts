// Turns parsed values (ms, bytes) back into what a user writes ("30m", "5MiB"), so that printed
// configs and schema defaults can be pasted into proctor.yml and mean the same thing.
import { z } from 'zod'
import { specialKind, unwrap } from './schema-walk.js'

type Schema = z.core.$ZodType

const DURATION_STEPS: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'm'],
  [1000, 's'],
]

/** The largest unit that divides exactly, so the text parses back to the same number of ms. */
export function durationText(ms: number): string {
  for (const [size, unit] of DURATION_STEPS) if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`
  return `${ms}ms`
}

const SIZE_STEPS: [number, string][] = [
  [1024 ** 3, 'GiB'],
  [1024 ** 2, 'MiB'],
  [1024, 'KiB'],
]

export function sizeText(bytes: number): string {
  for (const [size, unit] of SIZE_STEPS) if (bytes > 0 && bytes % size === 0) return `${bytes / size}${unit}`
  return `${bytes}`
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Converts a parsed value (or default) under `schema` back to its written form. */
export function toInputForm(schema: Schema, value: unknown): unknown {
  const kind = specialKind(schema)
  if (kind && typeof value === 'number') return kind === 'duration' ? durationText(value) : sizeText(value)
  const def = unwrap(schema)._zod.def as unknown as {
    type: string
    shape?: Record<string, Schema>
    element?: Schema
    valueType?: Schema
  }
  if (def.type === 'object' && isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        def.shape?.[key] ? toInputForm(def.shape[key], child) : child,
      ]),
    )
  }
  if (def.type === 'record' && isPlainObject(value) && def.valueType) {
    const valueType = def.valueType
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, toInputForm(valueType, child)]),
    )
  }
  if (def.type === 'array' && Array.isArray(value) && def.element) {
    const element = def.element
    return value.map((item) => toInputForm(element, item))
  }
  return value
}
