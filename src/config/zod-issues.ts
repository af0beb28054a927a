// Turns zod's issues into messages a user can act on: what is expected here, what was written, and a
// did-you-mean where a close match exists.
import type { z } from 'zod'
import { allowedKeys, describeExpected, describeValue, keyPaths, schemaAt } from './schema-walk.js'
import { closest } from './suggest.js'

/** A problem before it is given a position in the file. */
export interface Problem {
  path: PropertyKey[]
  message: string
  hint?: string
  /** Point at the key rather than its value (unknown or conflicting keys). */
  atKey?: boolean
}

type Issue = z.core.$ZodIssue

// Words YAML 1.1 (and many habits) treat as booleans; YAML 1.2, which proctor reads, keeps them strings.
const YAML11_BOOLEANS = /^(y|yes|n|no|on|off)$/i

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

export function problemsFromZod(issues: readonly Issue[], raw: unknown, root: z.core.$ZodType): Problem[] {
  return issues.flatMap((issue) => problemsFromIssue(issue, raw, root))
}

function problemsFromIssue(issue: Issue, raw: unknown, root: z.core.$ZodType): Problem[] {
  const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))
  const value = valueAt(raw, path)
  const expected = (): string => {
    const schema = schemaAt(root, path)
    return schema ? describeExpected(schema) : 'something else'
  }
  switch (issue.code) {
    case 'unrecognized_keys': {
      const schema = schemaAt(root, path)
      const allowed = schema ? allowedKeys(schema) : []
      return issue.keys.map((key) => {
        const guess = closest(key, allowed)
        const elsewhere = guess ? undefined : keyElsewhere(root, key)
        let hint: string | undefined
        if (guess) hint = `did you mean "${guess}"?`
        else if (elsewhere) hint = `"${key}" belongs under ${elsewhere}`
        else if (allowed.length > 0) hint = `allowed keys: ${allowed.join(', ')}`
        return { path: [...path, key], message: `unknown key "${key}"`, hint, atKey: true }
      })
    }
    case 'invalid_union': {
      // A branch whose problems all lie deeper (e.g. a list whose items are wrong) matched the shape,
      // so its own problems say more than "expected a list of strings or a string".
      const deeper = issue.errors.find(
        (branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0),
      )
      if (value !== undefined && deeper) {
        return deeper.flatMap((inner) =>
          problemsFromIssue({ ...inner, path: [...path, ...inner.path] }, raw, root),
        )
      }
      return [typeMismatch(path, value, expected())]
    }
    case 'invalid_type':
      if (issue.expected === 'boolean' && typeof value === 'string' && YAML11_BOOLEANS.test(value)) {
        return [
          {
            ...typeMismatch(path, value, expected()),
            hint: `YAML 1.2 reads ${value} as a string; write true or false`,
          },
        ]
      }
      return [typeMismatch(path, value, expected())]
    case 'invalid_value': {
      const allowed = issue.values.map(String)
      const guess = typeof value === 'string' ? closest(value, allowed) : undefined
      return [
        {
          path,
          message: `expected one of ${allowed.join(', ')}, got ${describeValue(value)}`,
          hint: guess ? `did you mean "${guess}"?` : undefined,
        },
      ]
    }
    case 'too_small':
      return [{ path, message: tooSmall(issue, value) }]
    case 'too_big':
      return [{ path, message: tooBig(issue, value) }]
    case 'invalid_format':
      return [invalidFormat(path, issue, value)]
    case 'invalid_key':
      return [{ path, message: `invalid key: ${issue.message}` }]
    default:
      return [{ path, message: issue.message }]
  }
}

/** A key written at the wrong level (`interval:` at the top instead of under `checkpoints:`). */
function keyElsewhere(root: z.core.$ZodType, key: string): string | undefined {
  const homes = keyPaths(root)
    .filter((path) => path.split('.').pop() === key)
    .map((path) => path.slice(0, -key.length - 1))
  return homes.length > 0 ? homes.join(', ') : undefined
}

function typeMismatch(path: PropertyKey[], value: unknown, expected: string): Problem {
  if (value === undefined && path.length > 0) {
    return {
      path,
      message: `missing required key "${String(path[path.length - 1])}"`,
      hint: `expected ${expected}`,
    }
  }
  return { path, message: `expected ${expected}, got ${describeValue(value)}` }
}

function tooSmall(issue: z.core.$ZodIssueTooSmall, value: unknown): string {
  const min = Number(issue.minimum)
  if (issue.origin === 'string')
    return min === 1 ? 'must not be empty' : `must be at least ${min} characters long`
  if (issue.origin === 'array' || issue.origin === 'set')
    return min === 1 ? 'must not be empty' : `needs at least ${min} items`
  return `must be at least ${min}, got ${String(value)}`
}

function tooBig(issue: z.core.$ZodIssueTooBig, value: unknown): string {
  const max = Number(issue.maximum)
  if (issue.origin === 'string') return `must be at most ${max} characters long`
  if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${max} items`
  return `must be at most ${max}, got ${String(value)}`
}

function invalidFormat(
  path: PropertyKey[],
  issue: z.core.$ZodIssueInvalidStringFormat,
  value: unknown,
): Problem {
  const written = JSON.stringify(value)
  if (path[path.length - 1] === 'flags') {
    return {
      path,
      message: `${written} are not valid regular expression flags`,
      hint: 'use only i, m, s and u',
    }
  }
  if (issue.message.startsWith('Invalid string')) {
    const pattern = 'pattern' in issue ? ` ${String(issue.pattern)}` : ''
    return { path, message: `${written} does not match the expected format${pattern}` }
  }
  return { path, message: `${written} is not valid: ${issue.message}` }
}
