// Running detect rules so that no pattern can stall the supervisor (its timers, timeouts, signals all
// share this thread):
// - a pattern V8's linear-time engine can run is matched here, directly (the common case, ~1 µs a line):
//   any match of it that backtracks excessively is rerun by that engine (the flag below), so a pattern
//   like (a|a)*b that slipped past the load-time check costs milliseconds, not hours;
// - a pattern it cannot run (back-references such as \1, lookarounds, the i flag; V8's own verdict is
//   whether `new RegExp(source, flags + 'l')` compiles) can backtrack for hours on one line, and V8
//   cannot stop a match running on this thread. Such patterns are matched on a worker thread instead,
//   synchronously (Atomics.wait, ~10–60 µs a line measured): a match not done SLOW_MATCH_MS after the
//   worker picked it up is cut off (the worker is terminated, which interrupts the backtracking) and
//   reported as slow, and the caller disables the rule;
// - each line is matched on at most MAX_MATCH_INPUT characters, so a long line bounds the work.
// A worker with a deadline rather than vm.runInContext({ timeout }): that also interrupts a match, but
// starts a watchdog thread per call (85–1,300 µs a line measured on Node 20 and 24), on every line.
import v8 from 'node:v8'
import type { Worker } from 'node:worker_threads'

/** Characters of one line given to a rule; the rest of a longer line is not matched. */
export const MAX_MATCH_INPUT = 4096
/** A single match slower than this is cut off (worker) or noticed (here), and disables its rule. */
export const SLOW_MATCH_MS = 100
/** How long a worker may take to start, and to pick up a request, before its patterns run here. */
const WORKER_START_MS = 5_000

/** V8's flag for "run with the linear engine" (only with --enable-experimental-regexp-engine). */
const LINEAR_FLAG = 'l'

let fallbackEnabled = false
let linearCheck = true

/**
 * Turns on V8's fallback to its linear engine (idempotent; applies to every later match), and its `l`
 * flag, used only to ask V8 whether it can run a pattern linearly.
 */
export function enableLinearFallback(): void {
  if (fallbackEnabled) return
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks')
  v8.setFlagsFromString('--enable-experimental-regexp-engine')
  fallbackEnabled = true
  try {
    new RegExp('a', LINEAR_FLAG)
  } catch {
    linearCheck = false // this V8 has no `l` flag: judge by syntax (linearBySyntax)
  }
}

enableLinearFallback()

const linearCache = new WeakMap<RegExp, boolean>()

/**
 * Whether `regex` is matched on this thread: V8 can run it in linear time (so the excessive-backtracks
 * fallback covers it), or it is a preset (prepareRegexes).
 */
export function runsLinearly(regex: RegExp): boolean {
  let linear = linearCache.get(regex)
  if (linear === undefined) {
    if (linearCheck) {
      try {
        new RegExp(regex.source, regex.flags + LINEAR_FLAG)
        linear = true
      } catch {
        linear = false
      }
    } else linear = linearBySyntax(regex)
    linearCache.set(regex, linear)
  }
  return linear
}

/** Without V8's verdict: back-references, lookarounds and the i flag are what its linear engine cannot run. */
function linearBySyntax(regex: RegExp): boolean {
  return !regex.flags.includes('i') && !/\\[1-9]|\\k<|\(\?<?[=!]/.test(regex.source)
}

/**
 * Starts the worker for the patterns that need one, so that their first match does not wait for it.
 * Presets are proctor's own patterns (anchored on literal text, reviewed, tested): they always run here.
 */
export function prepareRegexes(rules: readonly { regex: RegExp; preset: boolean }[]): void {
  for (const rule of rules) if (rule.preset) linearCache.set(rule.regex, true)
  if (rules.some((r) => !runsLinearly(r.regex))) sandbox()
}

/** One bounded, timed match. `ms` above SLOW_MATCH_MS means the rule is too slow (and `match` is null). */
export function boundedExec(regex: RegExp, text: string): { match: RegExpExecArray | null; ms: number } {
  const input = text.length > MAX_MATCH_INPUT ? text.slice(0, MAX_MATCH_INPUT) : text
  if (!runsLinearly(regex)) {
    const result = sandbox().exec(regex, input)
    if (result) return result
  }
  const started = performance.now()
  const match = regex.exec(input)
  return { match, ms: performance.now() - started }
}

// The worker: one request at a time through shared memory. Control words:
const STATE = 0 // IDLE → REQUEST (main) → RUNNING (worker) → DONE (worker) → IDLE (main)
const OP = 1 // COMPILE (text = source, FLAGS = flags) or EXEC (text = input)
const LENGTH = 2 // characters in text
const FLAGS = 3 // i m s u as bits
const RESULT = 4 // EXEC: match index, -1 no match, -2 error; COMPILE: 0 or -2
const RESULT_LENGTH = 5 // EXEC: length of the match
const READY = 6 // 1 once the worker runs
const CONTROL_BYTES = 32

const IDLE = 0
const REQUEST = 1
const RUNNING = 2
const DONE = 3
const COMPILE = 1
const EXEC = 2

const FLAG_BITS = 'imsu'
/** Longest pattern source or input the shared buffer carries (UTF-16 code units). */
const TEXT_UNITS = 64 * 1024

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads')
const ctrl = new Int32Array(workerData, 0, ${CONTROL_BYTES / 4})
const text = new Uint16Array(workerData, ${CONTROL_BYTES})
const read = (n) => {
  let s = ''
  for (let i = 0; i < n; i += 8192) s += String.fromCharCode.apply(null, text.subarray(i, Math.min(n, i + 8192)))
  return s
}
let regex = null
Atomics.store(ctrl, ${READY}, 1)
Atomics.notify(ctrl, ${READY})
for (;;) {
  const state = Atomics.load(ctrl, ${STATE})
  if (state !== ${REQUEST}) { Atomics.wait(ctrl, ${STATE}, state); continue }
  Atomics.store(ctrl, ${STATE}, ${RUNNING})
  Atomics.notify(ctrl, ${STATE})
  const input = read(ctrl[${LENGTH}])
  try {
    if (ctrl[${OP}] === ${COMPILE}) {
      let flags = ''
      for (let b = 0; b < ${FLAG_BITS.length}; b++) if (ctrl[${FLAGS}] & (1 << b)) flags += '${FLAG_BITS}'[b]
      regex = new RegExp(input, flags)
      ctrl[${RESULT}] = 0
    } else {
      const m = regex.exec(input)
      ctrl[${RESULT}] = m ? m.index : -1
      ctrl[${RESULT_LENGTH}] = m ? m[0].length : 0
    }
  } catch {
    ctrl[${RESULT}] = -2
  }
  Atomics.store(ctrl, ${STATE}, ${DONE})
  Atomics.notify(ctrl, ${STATE})
}
`

/** A worker that runs one pattern at a time, synchronously, with a deadline. */
class RegexSandbox {
  private readonly ctrl: Int32Array
  private readonly text: Uint16Array
  private readonly worker: Worker
  /** The pattern the worker holds (it is recompiled when another one is asked for). */
  private loaded: RegExp | null = null
  /** Ended (a request cut off, or the thread died): the next request starts a fresh worker. */
  broken = false
  /** Workers cannot run here (this one never started or never answered): patterns run on the main thread. */
  unavailable = false

  constructor() {
    const shared = new SharedArrayBuffer(CONTROL_BYTES + TEXT_UNITS * 2)
    this.ctrl = new Int32Array(shared, 0, CONTROL_BYTES / 4)
    this.text = new Uint16Array(shared, CONTROL_BYTES)
    // The worker runs nothing but RegExp: no environment, no stdin. node:worker_threads is loaded here, for
    // the first pattern that needs a worker, rather than with this module before every agent's spawn.
    const { Worker } = process.getBuiltinModule('node:worker_threads')
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: shared, env: {}, stdin: false })
    this.worker.unref()
    this.worker.on('error', () => (this.broken = true))
    this.worker.on('exit', () => (this.broken = true))
  }

  /** The match; null only when no worker could be started (then the caller matches here). */
  exec(regex: RegExp, input: string): { match: RegExpExecArray | null; ms: number } | null {
    if (this.unavailable || !this.ready()) return null
    const started = performance.now()
    const none = () => ({ match: null, ms: performance.now() - started })
    // Too long to pass (a 64 Ki-character pattern): never matched, rather than matched unbounded here.
    if (input.length > TEXT_UNITS || regex.source.length > TEXT_UNITS) return none()
    if (this.loaded !== regex) {
      let bits = 0
      for (let b = 0; b < FLAG_BITS.length; b++) if (regex.flags.includes(FLAG_BITS[b]!)) bits |= 1 << b
      this.ctrl[FLAGS] = bits
      const compiled = this.call(COMPILE, regex.source)
      if (compiled !== 'done') return this.stop(compiled, started)
      if (this.ctrl[RESULT] !== 0) return none()
      this.loaded = regex
    }
    const outcome = this.call(EXEC, input)
    if (outcome !== 'done') return this.stop(outcome, started)
    const index = this.ctrl[RESULT]!
    if (index < 0) return none() // -1 no match, -2 the match threw (e.g. a stack overflow)
    const match = [input.slice(index, index + this.ctrl[RESULT_LENGTH]!)] as unknown as RegExpExecArray
    match.index = index
    match.input = input
    return { match, ms: performance.now() - started }
  }

  /** Ends this worker after a request it did not answer in time; V8 interrupts the backtracking. */
  private stop(outcome: 'slow' | 'lost', started: number): { match: null; ms: number } | null {
    this.broken = true
    void this.worker.terminate()
    if (outcome === 'lost') {
      this.unavailable = true
      return null
    }
    replaceSandbox() // starts now, so the next pattern does not wait for a worker to start
    return { match: null, ms: Math.max(performance.now() - started, SLOW_MATCH_MS + 1) }
  }

  private ready(): boolean {
    if (Atomics.load(this.ctrl, READY) === 1) return true
    // Started at session start (prepareRegexes), so this wait is short or none.
    Atomics.wait(this.ctrl, READY, 0, WORKER_START_MS)
    if (Atomics.load(this.ctrl, READY) === 1) return true
    this.broken = true
    this.unavailable = true
    void this.worker.terminate()
    return false
  }

  /** One request: 'done', 'slow' (still running SLOW_MATCH_MS after pickup) or 'lost' (never picked up). */
  private call(op: number, data: string): 'done' | 'slow' | 'lost' {
    for (let i = 0; i < data.length; i++) this.text[i] = data.charCodeAt(i)
    this.ctrl[OP] = op
    this.ctrl[LENGTH] = data.length
    Atomics.store(this.ctrl, STATE, REQUEST)
    Atomics.notify(this.ctrl, STATE)
    // The deadline counts from the worker's pickup: a busy machine delaying the thread is not a slow pattern.
    const sent = performance.now()
    let picked: number | null = null
    for (;;) {
      const state = Atomics.load(this.ctrl, STATE)
      if (state === DONE) {
        Atomics.store(this.ctrl, STATE, IDLE)
        return 'done'
      }
      if (state === RUNNING && picked === null) picked = performance.now()
      const left =
        picked === null
          ? sent + WORKER_START_MS - performance.now()
          : picked + SLOW_MATCH_MS - performance.now()
      if (left <= 0) return picked === null ? 'lost' : 'slow'
      Atomics.wait(this.ctrl, STATE, state, left)
    }
  }
}

let current: RegexSandbox | null = null

function replaceSandbox(): void {
  current = new RegexSandbox()
}

function sandbox(): RegexSandbox {
  // A worker that could not start is kept (unavailable): starting another would block again.
  if (current?.broken && !current.unavailable) current = null
  current ??= new RegexSandbox()
  return current
}
