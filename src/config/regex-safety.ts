// Catastrophic-backtracking check for the regular expressions a config gives proctor (detect rules): one
// such rule, `(a+)+$`, froze the supervisor. safe-regex2 (the Fastify team's, plain JS) is the quick first
// look: a pattern without a quantifier inside a quantified group is let through at once. Its verdict on the
// rest is only a suspicion — it also flags `✻ \S+ for (\d+m )?\d+s`, whose optional group repeats at most
// once — so a suspected pattern is measured before it is refused: each repeated part of it is pumped
// (`prefix + body×n + a character that makes the match fail`, the input that makes a backtracking engine
// try every way of splitting the body), and a backtracking matcher over the pattern's syntax tree counts
// the steps a match takes. A pattern is refused only when those steps explode (over STEP_BUDGET on a line
// of a few dozen characters: exponential), or grow so fast with the line that a line of MAX_LINE characters
// would take more than PROJECTED_LIMIT steps (a high-degree polynomial). Counting steps, not timing V8,
// gives the same verdict on every machine, and V8 cannot be asked: proctor turns on its linear fallback
// for excessive backtracking (supervisor/safe-regex.ts), process-wide. That fallback and the worker's
// deadline still guard every match at run time.
import safeRegex from 'safe-regex2'
import ret, { types, type Root, type Set as SetToken, type Token } from 'ret'

// ret's CommonJS module is the tokenizer itself (what safe-regex2 calls); its typings call it a namespace.
const tokenize = ret as unknown as (pattern: string) => Root

/** Steps a single match may take on an attack line before the pattern is called exponential. */
const STEP_BUDGET = 200_000
/**
 * Steps for all the attacks on one pattern (under a second): a pattern no attack exploded within them is let through
 * (not proven to backtrack) and left to the run-time guards.
 */
const TOTAL_BUDGET = 1_000_000
/** How many times the repeated part is pumped: twice, to see how the steps grow. */
const PUMPS = [10, 20] as const
/** The longest line a rule is matched on (MAX_MATCH_INPUT in supervisor/safe-regex.ts). */
const MAX_LINE = 4096
/** Projected steps on a MAX_LINE line beyond which matching would take seconds or more. */
const PROJECTED_LIMIT = 1e9
/** Characters that end an attack line so that the match fails and every split is tried. */
const ENDINGS = [0x01, 0x21, 0x20] as const

type Node = Root | Token

export interface Catastrophe {
  message: string
  hint: string
}

/** Null when `pattern` is safe; otherwise why not (measured) and how to fix it. */
export function catastrophicRegex(pattern: string, flags = ''): Catastrophe | null {
  try {
    new RegExp(pattern, flags)
  } catch {
    return null // invalid patterns are reported on their own
  }
  if (safeRegex(pattern)) return null
  let root: Root
  try {
    root = tokenize(pattern)
  } catch {
    return null // syntax the tokenizer does not know (lookbehind): left to the run-time guards
  }
  const found = measure(root, flags.includes('i'))
  if (!found) return null
  return {
    message: `${JSON.stringify(pattern)} can backtrack catastrophically (measured: ${found})`,
    hint: 'drop the inner or the outer quantifier, e.g. write (a+)+$ as a+$ and (\\w+\\s?)+ as [\\w\\s]+',
  }
}

/** What makes `root` explode, in words, or null when no attack line does. */
function measure(root: Root, ignoreCase: boolean): string | null {
  let spent = 0
  for (const target of repetitions(root)) {
    const before = prefixTo(root, target) ?? []
    const pumps = new Map<string, number[]>()
    for (const body of [witness(target.value, false), witness(target.value, true)])
      if (body.length > 0) pumps.set(String.fromCharCode(...body), body)
    for (const body of pumps.values()) {
      for (const end of ENDINGS) {
        const line = (n: number) => [...before, ...Array.from({ length: n }, () => body).flat(), end]
        if (spent > TOTAL_BUDGET) return null
        const [short, long] = PUMPS.map((n) => steps(root, line(n), ignoreCase))
        spent += (short ?? STEP_BUDGET) + (long ?? STEP_BUDGET)
        const shown = (n: number) =>
          `${before.length ? `${JSON.stringify(String.fromCharCode(...before))} + ` : ''}` +
          `${JSON.stringify(String.fromCharCode(...body))} × ${n} + ${JSON.stringify(String.fromCharCode(end))}`
        if (short === null || long === null) {
          const n = short === null ? PUMPS[0] : PUMPS[1]
          return `more than ${STEP_BUDGET.toLocaleString('en-US')} backtracking steps on the ${line(n).length}-character line ${shown(n)}`
        }
        const degree = Math.log2(long / Math.max(short, 1))
        const projected = long * (MAX_LINE / line(PUMPS[1]).length) ** degree
        if (degree > 1.5 && projected > PROJECTED_LIMIT)
          return `its steps grow as n^${degree.toFixed(1)} on ${shown(PUMPS[1])}, about ${projected.toExponential(0)} on a ${MAX_LINE}-character line`
      }
    }
  }
  return null
}

/** Every quantifier that can repeat its body more than once, outermost first. */
function repetitions(node: Node): Extract<Token, { type: types.REPETITION }>[] {
  const found: Extract<Token, { type: types.REPETITION }>[] = []
  const walk = (n: Node) => {
    if (n.type === types.REPETITION) {
      if (n.max > 1) found.push(n)
      walk(n.value)
    }
    for (const child of children(n)) walk(child)
  }
  walk(node)
  return found
}

function children(n: Node): Token[] {
  if (n.type !== types.ROOT && n.type !== types.GROUP) return []
  return n.options ? n.options.flat() : (n.stack ?? [])
}

/** A shortest text `node` matches (`nonEmpty`: optional parts taken once), as UTF-16 code units. */
function witness(node: Node, nonEmpty: boolean): number[] {
  switch (node.type) {
    case types.CHAR:
      return [node.value]
    case types.SET: {
      const c = memberOf(node)
      return c === null ? [] : [c]
    }
    case types.REPETITION: {
      const once = witness(node.value, nonEmpty)
      const times = Math.max(node.min, nonEmpty ? 1 : 0)
      return Array.from({ length: times }, () => once).flat()
    }
    case types.GROUP:
    case types.ROOT: {
      if (node.type === types.GROUP && (node.followedBy || node.notFollowedBy)) return []
      if (node.options) {
        const all = node.options.map((option) => option.flatMap((t) => witness(t, nonEmpty)))
        return all.reduce((a, b) => (b.length < a.length ? b : a))
      }
      return (node.stack ?? []).flatMap((t) => witness(t, nonEmpty))
    }
    default:
      return []
  }
}

/** The text a match has consumed when it reaches `target` by the shortest way, or null if it never does. */
function prefixTo(node: Node, target: Token): number[] | null {
  if (node === target) return []
  if (node.type === types.REPETITION) return prefixTo(node.value, target)
  if (node.type !== types.ROOT && node.type !== types.GROUP) return null
  for (const sequence of node.options ?? [node.stack ?? []]) {
    const consumed: number[] = []
    for (const token of sequence) {
      const inner = prefixTo(token, target)
      if (inner) return [...consumed, ...inner]
      consumed.push(...witness(token, false))
    }
  }
  return null
}

const CANDIDATES = [0x61, 0x30, 0x20, 0x41, 0x5f, 0x2d, 0x2e, 0x21, 0x09, 0x7b, 0x2500]

/** A character the set matches (letters, digits, space first), or null. */
function memberOf(set: SetToken): number | null {
  const own = set.set.map((item) =>
    item.type === types.RANGE ? item.from : item.type === types.CHAR ? item.value : -1,
  )
  for (const c of [...CANDIDATES, ...own]) if (c >= 0 && inSet(set, c, false)) return c
  return null
}

function inSet(set: SetToken, c: number, ignoreCase: boolean): boolean {
  const has = set.set.some((item) => {
    if (item.type === types.SET) return inSet(item, c, ignoreCase)
    if (item.type === types.RANGE)
      return (c >= item.from && c <= item.to) || (ignoreCase && inRangeFolded(item.from, item.to, c))
    return same(item.value, c, ignoreCase)
  })
  return set.not ? !has : has
}

function inRangeFolded(from: number, to: number, c: number): boolean {
  const other = fold(c)
  return other !== c && other >= from && other <= to
}

function fold(c: number): number {
  const s = String.fromCharCode(c)
  const lower = s.toLowerCase()
  return (lower !== s ? lower : s.toUpperCase()).charCodeAt(0)
}

function same(a: number, b: number, ignoreCase: boolean): boolean {
  return a === b || (ignoreCase && fold(a) === b)
}

const isWord = (c: number | undefined) =>
  c !== undefined && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)

class OverBudget extends Error {}

/**
 * The steps a backtracking matcher takes to search `input` for `root` from every start (as RegExp.exec
 * does), or null beyond STEP_BUDGET. Back-references match empty text: such patterns run on the worker
 * with a deadline anyway.
 */
function steps(root: Root, input: number[], ignoreCase: boolean): number | null {
  let count = 0
  const n = input.length
  const tick = () => {
    if (++count > STEP_BUDGET) throw new OverBudget()
  }
  type Cont = (i: number) => boolean
  const sequence = (tokens: Token[], at: number, i: number, k: Cont): boolean => {
    tick()
    if (at === tokens.length) return k(i)
    return one(tokens[at]!, i, (j) => sequence(tokens, at + 1, j, k))
  }
  const group = (node: { options?: Token[][]; stack?: Token[] }, i: number, k: Cont): boolean =>
    node.options
      ? node.options.some((option) => sequence(option, 0, i, k))
      : sequence(node.stack ?? [], 0, i, k)
  const one = (token: Token, i: number, k: Cont): boolean => {
    tick()
    switch (token.type) {
      case types.CHAR:
        return i < n && same(token.value, input[i]!, ignoreCase) && k(i + 1)
      case types.SET:
        return i < n && inSet(token, input[i]!, ignoreCase) && k(i + 1)
      case types.POSITION: {
        const at =
          token.value === '^'
            ? i === 0
            : token.value === '$'
              ? i === n
              : (isWord(input[i - 1]) !== isWord(input[i])) === (token.value === 'b')
        return at && k(i)
      }
      case types.GROUP:
        if (token.followedBy || token.notFollowedBy) {
          const ahead = group(token, i, () => true)
          return ahead === Boolean(token.followedBy) && k(i)
        }
        return group(token, i, k)
      case types.REPETITION: {
        const repeat = (times: number, j: number): boolean => {
          tick()
          // Greedy: one more round first (a round that consumed nothing ends the loop), then what follows.
          if (
            times < token.max &&
            one(token.value, j, (m) => (m !== j || times < token.min) && repeat(times + 1, m))
          )
            return true
          return times >= token.min && k(j)
        }
        return repeat(0, i)
      }
      default:
        return k(i)
    }
  }
  try {
    for (let start = 0; start <= n; start++) if (group(root, start, () => true)) break
  } catch (error) {
    if (error instanceof OverBudget) return null
    throw error
  }
  return count
}
