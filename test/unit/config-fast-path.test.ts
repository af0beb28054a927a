// proctor.yml's fast path (src/config/fast-parse.ts) decides the common file without zod. It may leave any
// file to zod, but whatever it decides must be exactly what zod decides: the same config (same keys, same
// order, same values), for a file zod accepts without a warning. Checked here on generated files built from
// the fast path's own table, with values around every limit and invalid ones mixed in, and on the examples.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { FAST_SCHEMA, fastParse, type Spec } from '../../src/config/fast-parse.js'
import { parseConfigText } from '../../src/config/parse.js'

const root = path.resolve(import.meta.dirname, '../..')

function full(text: string): { config: unknown; warnings: string[] } | 'error' {
  try {
    return parseConfigText(text, 'proctor.yml')
  } catch {
    return 'error'
  }
}

/** Deterministic, so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ms = (d: string | number) =>
  typeof d === 'number'
    ? d * 1000
    : d.endsWith('ms')
      ? parseInt(d)
      : d.endsWith('m')
        ? parseInt(d) * 60_000
        : parseInt(d) * 1000
const INTS = [-1, 0, 1, 2, 3, 4, 5, 9, 10, 11, 19, 20, 21, 50, 64, 65, 99, 100, 101, 499, 500, 501, 999]
const MORE_INTS = [1000, 1001, 2 ** 31, 2 ** 53, 1.5, 3.0]
const DURATIONS = ['0s', '1', 0, 1, 2, 0.05, '1ms', '99ms', '100ms', '2s', '2001ms', '60s', '61s', '10m']
const MORE_DURATIONS = ['11m', '30m', '1h', '1h30m', 'abc', -1, '', ' 5s ', '5 s', 600, 601]
const SIZES = ['5MiB', '512KiB', '1GB', 0, 512, 1.5, 'x', '-1', '', '1 MB']
const STRINGS = ['', 'a', 'npm test', 'with space', 'a=b', 'Name.ok-1', '-bad', 'imsu', 'g', 'policy', 'x']
const STRINGS2 = ['proctor/{session}', 'proctor/..', 'src/**', '**', '/abs', 'Do you want', '(a+)+$', '[']

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)]!
}

const inRange = (n: number, spec: { min?: number; max?: number }) =>
  (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max)

/**
 * A value for `spec`: mostly of its kind, sometimes of another one. `tame` values keep to the table's
 * limits (most files are valid), the others probe them.
 */
function generate(spec: Spec, rnd: () => number, tame: boolean, depth = 0): unknown {
  if (tame) {
    switch (spec.k) {
      case 'int':
        return pick(rnd, [...INTS.filter((n) => inRange(n, spec)), spec.min ?? 0])
      case 'duration':
        return pick(
          rnd,
          ['1s', '5s', '30s', '100ms', 2, '1m'].filter((d) => inRange(ms(d), spec)),
        )
      case 'size':
        return pick(rnd, ['5MiB', 512, '1GB'])
      case 'string':
        return spec.pattern ? pick(rnd, ['Name.ok-1', 'tests', 'i']) : pick(rnd, ['x', 'npm test', 'src/**'])
      case 'enum':
        return pick(rnd, spec.values)
    }
  }
  if (!tame && rnd() < 0.04) return pick(rnd, [null, 'yes', 1, true, [], {}, 'bogus'])
  const generate_ = (child: Spec) => generate(child, rnd, tame, depth + 1)
  switch (spec.k) {
    case 'bool':
      return rnd() < 0.5
    case 'int':
      return pick(rnd, rnd() < 0.8 ? INTS : MORE_INTS)
    case 'enum':
      return rnd() < 0.9 ? pick(rnd, spec.values) : 'bogus'
    case 'duration':
      return pick(rnd, rnd() < 0.8 ? DURATIONS : MORE_DURATIONS)
    case 'size':
      return pick(rnd, SIZES)
    case 'string':
      return pick(rnd, rnd() < 0.7 ? STRINGS : STRINGS2)
    case 'array':
      return Array.from({ length: Math.floor(rnd() * 3) }, () => generate_(spec.of))
    case 'record': {
      const out: Record<string, unknown> = {}
      for (let i = Math.floor(rnd() * 3); i > 0; i--)
        out[pick(rnd, ['A', 'PATH', 'forbidden_area', 'file_size'])] = generate_(spec.of)
      return out
    }
    case 'either':
      return generate_(pick(rnd, spec.options))
    case 'zod':
      return pick(rnd, [{}, { concurrency: 2 }, { stop: [{ command: 'true' }] }, []])
    case 'object': {
      const out: Record<string, unknown> = {}
      // Required fields (a detect rule's name and match, a stop hook's name and command) are usually given.
      const chance = depth === 0 ? 0.3 : 0.45
      for (const f of spec.fields) {
        if (rnd() < (f.required ? 0.95 : chance)) out[f.key] = generate_(f.spec)
      }
      if (!tame && rnd() < 0.03) out.bogus_key = 1
      return out
    }
  }
}

/** A valid value of `spec` (an object with its required fields). */
function tameValue(spec: Spec): unknown {
  return generate(spec, () => 0, true)
}

/** Values at and around the limits of one leaf: the table's own, so a table looser than zod shows. */
function probes(spec: Spec): unknown[] {
  switch (spec.k) {
    case 'int': {
      const edges = [spec.min, spec.max].filter((n): n is number => n !== undefined)
      return [...edges.flatMap((n) => [n - 1, n, n + 1]), 0, 1, 7, 1.5, 2 ** 53, '3']
    }
    case 'duration': {
      const edges = [spec.min, spec.max].filter((n): n is number => n !== undefined)
      return [...edges.flatMap((n) => [`${n - 1}ms`, `${n}ms`, `${n + 1}ms`]), '0s', 1, '5m', '2h', -1, 'x']
    }
    case 'size':
      return ['5MiB', 0, 1.5, '1 KB', 'x', -1]
    case 'string':
      return ['', 'x', 'a b', 'a=b', '-x', 'imsu', 'g', 'policy', 'Name.ok-1']
    case 'enum':
      return [...spec.values, 'bogus', spec.values[0]!.toUpperCase()]
    case 'bool':
      return [true, false, 'true', 0, null]
    default:
      return []
  }
}

/** Files that set one leaf of the table (with whatever it sits in made valid), each probe in turn. */
function* oneLeafFiles(spec: Spec, wrap: (value: unknown) => unknown): Generator<unknown> {
  switch (spec.k) {
    case 'object':
      for (const f of spec.fields) {
        const base = Object.fromEntries(
          spec.fields.filter((g) => g.required && g.key !== f.key).map((g) => [g.key, tameValue(g.spec)]),
        )
        yield* oneLeafFiles(f.spec, (value) => wrap({ ...base, [f.key]: value }))
      }
      return
    case 'array':
      yield wrap([])
      yield* oneLeafFiles(spec.of, (value) => wrap([value]))
      return
    case 'record':
      yield* oneLeafFiles(spec.of, (value) => wrap({ A: value }))
      return
    case 'either':
      for (const option of spec.options) yield* oneLeafFiles(option, wrap)
      return
    case 'zod':
      return
    default:
      for (const value of probes(spec)) yield wrap(value)
  }
}

describe('proctor.yml fast path', () => {
  it('decides a file setting one key exactly when zod accepts it without a warning, at every limit', () => {
    let files = 0
    for (const value of oneLeafFiles(FAST_SCHEMA, (v) => v)) {
      const text = stringify(value)
      const fast = fastParse(text)
      const expected = full(text)
      files++
      if (expected === 'error' || expected.warnings.length > 0) {
        expect(fast, text).toBeNull()
        continue
      }
      expect(fast, text).not.toBeNull()
      expect(JSON.stringify(fast), text).toBe(JSON.stringify(expected.config))
    }
    expect(files).toBeGreaterThan(300)
  })

  it('decides only what zod decides the same way, on generated files', () => {
    const rnd = random(17)
    let decided = 0
    /** Files zod accepts without a warning that set neither lifecycle hooks nor batch tasks. */
    let total = 0
    for (let i = 0; i < 2000; i++) {
      const value = generate(FAST_SCHEMA, rnd, i % 2 === 0)
      const text = rnd() < 0.5 ? stringify(value) : stringify(value, { collectionStyle: 'flow' })
      const fast = fastParse(text)
      const expected = full(text)
      const plain = expected !== 'error' && expected.warnings.length === 0 && !/\b(hooks|batch):/.test(text)
      if (plain) total++
      if (fast === null) continue
      decided++
      expect(expected, text).not.toBe('error')
      if (expected === 'error') continue
      expect(expected.warnings, text).toEqual([])
      expect(JSON.stringify(fast), text).toBe(JSON.stringify(expected.config))
      expect(fast, text).toStrictEqual(expected.config)
    }
    // Not vacuous: most of the files zod accepts without a warning (hooks and batch aside) are decided
    // here; the rest are the ones the fast path gives up on, e.g. a duplicated detect rule name.
    expect(decided).toBeGreaterThan(total * 0.8)
    expect(decided).toBeGreaterThan(250)
  })

  it('decides the example files that have no lifecycle hooks or batch tasks, as zod does', () => {
    const dir = path.join(root, 'examples/configs')
    const decidable = ['minimal.yml', 'claude-code.yml', 'interactive-tui.yml']
    for (const name of decidable) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8')
      const fast = fastParse(text)
      expect(fast, name).not.toBeNull()
      const expected = full(text)
      expect(expected).not.toBe('error')
      if (expected !== 'error') expect(JSON.stringify(fast)).toBe(JSON.stringify(expected.config))
    }
    // The reference file sets lifecycle hooks and batch tasks: left to zod.
    expect(fastParse(fs.readFileSync(path.join(root, 'examples/proctor.yml'), 'utf8'))).toBeNull()
  })

  it('leaves to zod every file with a problem or a warning, and presets', () => {
    const undecided = [
      'timeouts: { total: 0s }\n', // below the minimum
      'timeouts: { totl: 5m }\n', // unknown key
      'agent: { command: [a], shell: b }\n', // cross-check
      'stop_hooks: [{ name: policy, command: x }]\n', // reserved name
      'stop_hooks: [{ name: a, command: x }, { name: a, command: y }]\n', // duplicate
      'detect: [{ name: a, match: "(a+)+$" }]\n', // catastrophic regex
      'detect: [{ name: a, match: "[" }]\n', // invalid regex
      'checkpoints: { branch: "proctor/.." }\n', // branch template the pusher refuses
      'hooks_async_pool_size: 500\n', // clamped with a warning
      'output: { buffer: 1MiB }\n', // deprecated, warned about
      'agent: { preset: claude-code }\n',
      'timeouts: { total: 5m }\ntimeouts: { idle: 5m }\n', // duplicate key
      'timeouts:\n\ttotal: 5m\n', // invalid YAML
      '- a\n- b\n', // not a mapping
      'timeouts: !!str 5m\n', // a tag: decided only by the full parser if at all
    ]
    for (const text of undecided) expect(fastParse(text), text).toBeNull()
    expect(fastParse('timeouts: { total: 5m }\n', { preset: 'codex' })).toBeNull()
  })
})
