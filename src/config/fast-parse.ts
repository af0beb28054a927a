// The common proctor.yml validated without zod. Building the zod schema and running it for the first time
// cost ~35 ms of CPU (more than anything else `proctor run` does before its agent starts, yaml included);
// most files set a few scalars, lists, detect rules and stop hooks, which a table and a small interpreter
// check in well under a millisecond. The answer is a Config only when it is certain: valid by the same
// rules, with nothing to warn about. For anything else — a problem, a warning, a preset, a key this table
// does not cover — it answers null and parse.ts (zod) decides, with its messages and their positions.
//
// The table mirrors schema.ts, the single source of truth: test/unit/config-fast-path.test.ts checks both
// against each other on thousands of generated files (every answer here must equal zod's), and checks
// that each field below has the kind, limits and default the schema gives it.
import { LineCounter, parseDocument } from 'yaml'
import type { Config } from './schema.js'
import { defaultConfig } from './defaults.js'
import { crossCheck } from './cross-checks.js'
import { semanticProblems } from './semantic-checks.js'
import { parseDuration, parseSize } from '../util/units.js'
import { chosenPreset, type PresetChoice } from '../agents/presets/apply.js'

/** One kind of value, as schema.ts declares it. */
export type Spec =
  | { k: 'bool' }
  | { k: 'int'; min?: number; max?: number }
  | { k: 'enum'; values: readonly string[] }
  | { k: 'duration'; min?: number; max?: number }
  | { k: 'size' }
  | { k: 'string'; min?: number; pattern?: RegExp }
  | { k: 'array'; of: Spec; min?: number }
  | { k: 'record'; of: Spec }
  /** The first option that accepts the value wins (zod's union). */
  | { k: 'either'; options: readonly Spec[] }
  | { k: 'object'; fields: readonly Field[] }
  /** A key this table leaves to zod whenever it is present. */
  | { k: 'zod' }

/**
 * A key of an object, in the schema's order (zod builds its output in that order). `fallback` is the
 * value when the key is absent (the schema's default); without one the key is optional and left out,
 * unless it is `required`.
 */
export interface Field {
  key: string
  spec: Spec
  fallback?: () => unknown
  required?: boolean
}

/** The marker of a value this table does not decide. */
const UNDECIDED = Symbol('undecided')
type Out = unknown | typeof UNDECIDED

const bool: Spec = { k: 'bool' }
const str: Spec = { k: 'string' }
const nonEmpty: Spec = { k: 'string', min: 1 }
const strings: Spec = { k: 'array', of: str }
const argv: Spec = { k: 'array', of: nonEmpty, min: 1 }
const command: Spec = { k: 'either', options: [argv, nonEmpty] }
const duration = (min?: number, max?: number): Spec => ({ k: 'duration', min, max })
const int = (min?: number, max?: number): Spec => ({ k: 'int', min, max })
const oneOf = (...values: string[]): Spec => ({ k: 'enum', values })
const severity = oneOf('info', 'warning', 'error', 'critical')
const field = (key: string, spec: Spec, fallback?: unknown): Field =>
  fallback === undefined ? { key, spec } : { key, spec, fallback: () => structuredClone(fallback) }
const need = (key: string, spec: Spec): Field => ({ key, spec, required: true })
/** A section whose default is the section of the default config (DEFAULTS in defaults.ts). */
const section = (key: keyof Config, spec: Spec): Field => ({
  key,
  spec,
  fallback: () => defaultConfig()[key],
})

const respond: Spec = {
  k: 'object',
  fields: [
    field('send', str),
    field('deny', bool),
    field('deny_text', str),
    field('stop', bool),
    field('notify', bool),
    field('delay', duration(undefined, 60_000)),
    field('retry_after', duration(100, 10 * 60_000)),
    field('max_attempts', int(1, 20)),
  ],
}

export const FAST_SCHEMA: Spec = {
  k: 'object',
  fields: [
    section('agent', {
      k: 'object',
      fields: [
        // agent.preset is applied beneath the file by parse.ts: never decided here (see fastParse).
        field('command', argv),
        field('shell', nonEmpty),
        field('pty', bool, true),
        field('continue', argv),
        field('adapter', oneOf('generic', 'claude', 'codex', 'gemini'), 'generic'),
        field('env', { k: 'record', of: str }, {}),
        field('env_passthrough', { k: 'array', of: { k: 'string', pattern: /^[^=\s]+$/ } }, []),
        field('cwd', str),
        field('cols', int(20, 1000), 120),
        field('rows', int(5, 500), 40),
        field(
          'typing',
          {
            k: 'object',
            fields: [
              field('paste', oneOf('auto', 'always', 'never'), 'auto'),
              field('submit_delay', duration(undefined, 2_000), 50),
              field('confirm_timeout', duration(100, 60_000), 5_000),
              field('submit_attempts', int(1, 10), 3),
            ],
          },
          { paste: 'auto', submit_delay: 50, confirm_timeout: 5_000, submit_attempts: 3 },
        ),
        field('quit', nonEmpty),
      ],
    }),
    section('timeouts', {
      k: 'object',
      fields: [
        field('total', duration(1), 30 * 60_000),
        field('idle', duration(1), 10 * 60_000),
        field('grace', duration(undefined, 60_000), 5_000),
      ],
    }),
    section('output', {
      k: 'object',
      // output.buffer (deprecated) is warned about by parse.ts: never decided here.
      fields: [field('transcript_max', { k: 'size' }, 64 * 1024 ** 2), field('passthrough', bool, true)],
    }),
    section('detect', {
      k: 'array',
      of: {
        k: 'object',
        fields: [
          need('name', nonEmpty),
          need('match', nonEmpty),
          field('flags', { k: 'string', pattern: /^[imsu]*$/ }),
          field('kind', nonEmpty, 'approval_request'),
          field('respond', respond, { notify: true }),
          field('max_fires', int(1)),
        ],
      },
    }),
    section('detect_presets', { k: 'array', of: oneOf('prompts') }),
    section('checkpoints', {
      k: 'object',
      fields: [
        field('enabled', bool, true),
        field('branch', nonEmpty, 'proctor/{session}'),
        field('interval', duration(), 30_000),
        field('max_changes', int(1), 50),
        field('min_interval', duration(), 5_000),
        field('push', oneOf('auto', 'always', 'never'), 'auto'),
        field('remote', nonEmpty, 'origin'),
        field('max_file_size', { k: 'size' }, 5 * 1024 ** 2),
        field('pause_agent', bool, true),
        field('on_events', strings, ['completion']),
        field('push_on_pre_push', bool, false),
        field('max_failures', int(0), 3),
      ],
    }),
    section('policy', {
      k: 'object',
      fields: [
        field('allowed_areas', strings, []),
        field('forbidden_areas', strings, []),
        field('protected_areas', strings, []),
        field('violation_severity', severity, 'warning'),
        field('severities', { k: 'record', of: severity }, {}),
        field('revert_on_violation', bool, false),
        field('max_file_size', { k: 'size' }),
        field('max_diff_size', { k: 'size' }),
        field('allow_new_executables', bool, true),
        field('git_tamper', oneOf('undo', 'report', 'off'), 'undo'),
      ],
    }),
    section('stop_hooks', {
      k: 'array',
      of: {
        k: 'object',
        fields: [
          need('name', { k: 'string', pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/ }),
          need('command', command),
          field('timeout', duration(), 10 * 60_000),
          field('on_error', oneOf('allow', 'block'), 'block'),
          field('advisory', bool, false),
        ],
      },
    }),
    section('max_stop_rounds', int(1, 20)),
    // Lifecycle hooks and batch tasks: left to zod (fewer files have them).
    section('hooks', { k: 'zod' }),
    // Values outside 1–100 are clamped by parse.ts with a warning: only those inside are decided here.
    section('hooks_async_pool_size', int(1, 100)),
    section('hooks_async_shutdown_grace', duration(undefined, 60_000)),
    section('hooks_async_drain_timeout', duration(undefined, 10 * 60_000)),
    section('batch', { k: 'zod' }),
    section('github', {
      k: 'object',
      fields: [
        field('comment', oneOf('sticky', 'new', 'off'), 'sticky'),
        field('checks', bool, true),
        field('key', nonEmpty, '{workflow}/{job}'),
        field('fail_on', oneOf('block', 'violation-error', 'never'), 'block'),
      ],
    }),
  ],
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The value as the schema outputs it, or UNDECIDED when it is invalid or not covered by the table. */
export function decide(spec: Spec, value: unknown): Out {
  switch (spec.k) {
    case 'zod':
      return UNDECIDED
    case 'bool':
      return typeof value === 'boolean' ? value : UNDECIDED
    case 'int':
      return Number.isSafeInteger(value) && inRange(value as number, spec) ? value : UNDECIDED
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : UNDECIDED
    case 'duration':
    case 'size': {
      if (typeof value !== 'string' && typeof value !== 'number') return UNDECIDED
      const parsed = spec.k === 'duration' ? parseDuration(value) : parseSize(value)
      return typeof parsed === 'number' && (spec.k === 'size' || inRange(parsed, spec)) ? parsed : UNDECIDED
    }
    case 'string':
      return typeof value === 'string' &&
        value.length >= (spec.min ?? 0) &&
        (!spec.pattern || spec.pattern.test(value))
        ? value
        : UNDECIDED
    case 'array': {
      if (!Array.isArray(value) || value.length < (spec.min ?? 0)) return UNDECIDED
      const out: unknown[] = []
      for (const item of value as unknown[]) {
        const decided = decide(spec.of, item)
        if (decided === UNDECIDED) return UNDECIDED
        out.push(decided)
      }
      return out
    }
    case 'record': {
      if (!isObject(value)) return UNDECIDED
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) {
        if (key === '__proto__') return UNDECIDED
        const decided = decide(spec.of, item)
        if (decided === UNDECIDED) return UNDECIDED
        out[key] = decided
      }
      return out
    }
    case 'either':
      for (const option of spec.options) {
        const decided = decide(option, value)
        if (decided !== UNDECIDED) return decided
      }
      return UNDECIDED
    case 'object': {
      if (!isObject(value)) return UNDECIDED
      // A key the table does not list: unknown to the schema (an error zod words) or not covered here.
      for (const key of Object.keys(value)) if (!spec.fields.some((f) => f.key === key)) return UNDECIDED
      const out: Record<string, unknown> = {}
      for (const f of spec.fields) {
        const given = value[f.key]
        if (given === undefined) {
          if (f.required) return UNDECIDED
          if (f.fallback) out[f.key] = f.fallback()
          continue
        }
        const decided = decide(f.spec, given)
        if (decided === UNDECIDED) return UNDECIDED
        out[f.key] = decided
      }
      return out
    }
  }
}

function inRange(n: number, spec: { min?: number; max?: number }): boolean {
  return (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max)
}

/**
 * proctor.yml text → the validated Config, when this table can decide it and zod would accept it without
 * a warning; null otherwise (then parse.ts decides). Never throws.
 */
export function fastParse(text: string, preset: PresetChoice = {}): Config | null {
  try {
    const doc = parseDocument(text, {
      lineCounter: new LineCounter(),
      uniqueKeys: true,
      strict: true,
      prettyErrors: true,
    })
    if (doc.errors.length > 0 || doc.warnings.length > 0) return null
    const raw: unknown = doc.toJS() ?? {}
    // A preset is applied beneath the file (parse.ts): that merge and its checks are zod's path.
    if (preset.preset !== undefined || chosenPreset(raw, preset) !== null) return null
    if (isObject(raw) && isObject(raw.agent) && raw.agent.preset !== undefined) return null
    const decided = decide(FAST_SCHEMA, raw)
    if (decided === UNDECIDED || crossCheck(raw).length > 0) return null
    const config = decided as Config
    const semantic = semanticProblems(config)
    if (semantic.problems.length > 0 || semantic.warnings.length > 0) return null
    return config
  } catch {
    return null
  }
}
