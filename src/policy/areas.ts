// Area globs (allowed_areas, forbidden_areas, protected_areas, and a stop hook's gate_files) compiled once.
// Semantics, documented in docs/policy.md:
// - patterns are relative to the repository root ("./", "/./" and "//" are dropped; a leading "/" or a
//   "\\" separator is an error with the fix);
// - picomatch syntax with dotfiles included (`*`, `**`, `?`, `[abc]`, `{a,b}`);
// - a pattern that matches a directory covers everything under it, so `docs`, `docs/` and `docs/**`
//   are the same area (as in .gitignore);
// - a pattern starting with `!` carves an exception out of the list's other patterns.
import picomatch from 'picomatch'

export type AreaKey =
  | 'allowed_areas'
  | 'forbidden_areas'
  | 'protected_areas'
  | 'gate_files'
  | 'secret_allowed_paths'
  | `tests.${string}`

export class PolicyConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
    /** The section the key is in: `policy`, or `stop_hooks[<i>]` for a hook's gate_files. */
    section = 'policy',
  ) {
    super(`${section}.${key}: ${message}`)
    this.name = 'PolicyConfigError'
  }
}

export interface AreaMatcher {
  readonly key: AreaKey
  readonly empty: boolean
  /** The first positive pattern (as written) that covers `path`, unless an exception excludes it. */
  match(path: string): string | null
}

interface CompiledPattern {
  written: string
  test: (path: string) => boolean
}

/**
 * `section` is where the list is written, for errors: the policy's areas, or a stop hook's `gate_files`
 * (`stop_hooks[0]`), which are the same globs with the same meaning.
 */
export function compileAreas(key: AreaKey, patterns: readonly string[], section = 'policy'): AreaMatcher {
  const fail = (at: string, message: string) => new PolicyConfigError(at, message, section)
  const include: CompiledPattern[] = []
  const exclude: CompiledPattern[] = []
  patterns.forEach((written, index) => {
    const negated = written.startsWith('!')
    const body = normalizePattern(key, index, negated ? written.slice(1) : written, fail)
    const test = compilePattern(key, index, written, body, fail)
    ;(negated ? exclude : include).push({ written, test })
  })
  if (include.length === 0 && exclude.length > 0) {
    throw fail(
      key,
      `has only exceptions (patterns starting with "!"), so it matches nothing; add a pattern such as "**" for them to carve out of`,
    )
  }
  return {
    key,
    empty: include.length === 0,
    match(path) {
      const hit = include.find((p) => p.test(path))
      if (!hit || exclude.some((p) => p.test(path))) return null
      return hit.written
    },
  }
}

type Fail = (key: string, message: string) => Error

function normalizePattern(key: AreaKey, index: number, raw: string, fail: Fail): string {
  const where = `${key}[${index}]`
  // A backslash that escapes no glob character is a Windows separator, and would match nothing.
  if (/\\(?![*?[\]{}()!+@\\])/.test(raw)) {
    throw fail(
      where,
      `"${raw}" contains "\\"; paths use "/" between directories: did you mean "${raw.replace(/\\/g, '/')}"?`,
    )
  }
  if (raw.startsWith('/')) {
    throw fail(
      where,
      `"${raw}" is an absolute path; areas are inside the repository, relative to its root: did you mean "${raw.replace(/^\/+/, '')}"? (files outside the repository are never checkpointed or checked)`,
    )
  }
  // "secrets//**" and "secrets/./key" name what "secrets/**" and "secrets/key" name; git paths have
  // neither, so as written they would match nothing.
  let body = raw
    .split('/')
    .filter((part, at, parts) => part !== '.' && (part !== '' || at === parts.length - 1))
    .join('/')
  body = body.replace(/\/+$/, '')
  if (body === '' || body === '.') {
    throw fail(
      `${key}[${index}]`,
      `"${raw}" is empty or names the repository root; use "**" to mean every file`,
    )
  }
  if (body.split('/').includes('..')) {
    throw fail(
      `${key}[${index}]`,
      `"${raw}" contains ".."; patterns are relative to the repository root and cannot leave it`,
    )
  }
  return body
}

function compilePattern(
  key: AreaKey,
  index: number,
  written: string,
  body: string,
  fail: Fail,
): (path: string) => boolean {
  try {
    // `body/**` makes a pattern that names a directory cover its contents. `s` (dotAll): picomatch's
    // globstar is built from `.`, which would otherwise stop at a newline, so `secrets/**` would miss
    // "secrets/a\nb" while `*` matched it; git paths may hold any byte but NUL.
    return picomatch([body, `${body}/**`], { dot: true, flags: 's' })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw fail(`${key}[${index}]`, `"${written}" is not a valid glob: ${reason}`)
  }
}
