// Detectors: rules from proctor.yml (and the opt-in presets) matched against what the agent shows,
// raising one event per appearance of a match, each with the response the rule asks for.
import type { Config, DetectRule } from '../config/schema.js'
import { catastrophicRegex } from '../config/regex-safety.js'
import { presetRules, type PresetName } from './presets.js'
import { boundedExec, prepareRegexes, SLOW_MATCH_MS } from './safe-regex.js'
import type { RenderedScreen, TextLine } from './screen.js'

export type ResponseType = 'send' | 'deny' | 'stop' | 'notify'

export interface DetectionResponse {
  type: ResponseType
  /** For send and deny: the exact text to type into the agent (escapes such as \r already decoded). */
  text?: string
}

export interface DetectionEvent {
  /** Rule name; presets are named "preset:…". */
  rule: string
  kind: string
  /** The line the match was found on (trimmed, at most MAX_EVENT_TEXT characters around the match). */
  text: string
  /** The matched part of the line. */
  match: string
  /** What the rule's named group `reason` matched, when it has one: the words an agent_error reports. */
  reason?: string
  response: DetectionResponse
  /** When the match was seen (the pipeline's clock; Date.now() by default). */
  at: number
  /** 1 for the rule's first appearance, 2 for the second... */
  fire: number
  /** 1 for the first answer to this appearance, 2 when it is answered again (respond.retry_after)... */
  attempt: number
  preset: boolean
}

export interface CompiledRule {
  name: string
  kind: string
  regex: RegExp
  response: DetectionResponse
  maxFires: number | null
  preset: boolean
  /**
   * respond.delay: ms an appearance must stay on screen before it is answered (0: at once); for a completion,
   * ms it must stay on screen with the agent idle before it counts.
   */
  delayMs: number
  /** respond.retry_after: ms after an answer before answering the same appearance again (null: never). */
  retryAfterMs: number | null
  /** Answers per appearance, the first included. */
  maxAttempts: number
}

/** A rule of this kind says the agent is busy: it gates completions and is never reported itself. */
export const WORKING_KIND = 'working'
export const COMPLETION_KIND = 'completion'
/**
 * A rule of this kind recognises the agent giving up on a failure of its own (the model API refused: a bad
 * key, a rate limit or overload it stopped retrying, no network). The session ends failed with the agent's
 * own words as its reason, whether proctor stops the agent or it exits by itself.
 */
export const AGENT_ERROR_KIND = 'agent_error'
const MAX_REASON = 300

/**
 * The session's reason for an agent_error event: the rule's `reason` group, else the whole match, on one
 * line, at most MAX_REASON long.
 */
export function agentErrorReason(event: Pick<DetectionEvent, 'match' | 'reason'>): string {
  const words = (event.reason ?? event.match).replace(/\s+/g, ' ').trim()
  return `${AGENT_ERROR_KIND}: ${words.length > MAX_REASON ? `${words.slice(0, MAX_REASON - 1)}…` : words}`
}

/** A detect rule that cannot be used, with what to change. */
export class DetectRuleError extends Error {
  constructor(
    message: string,
    readonly rule: string,
  ) {
    super(message)
    this.name = 'DetectRuleError'
  }
}

const DEFAULT_DENY_TEXT = 'n\r'
const MAX_EVENT_TEXT = 1000

/**
 * Decodes the escapes people write for keys when YAML did not already: \r (Enter), \n, \t, \e or \x1b
 * (Escape), \xHH, \uHHHH and \\. Text with no backslash is returned as is.
 */
export function decodeKeys(text: string): string {
  if (!text.includes('\\')) return text
  return text.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))/gs, (whole, hex2, hex4, ch: string) => {
    if (hex2) return String.fromCharCode(parseInt(hex2, 16))
    if (hex4) return String.fromCharCode(parseInt(hex4, 16))
    const simple: Record<string, string> = { r: '\r', n: '\n', t: '\t', e: '\x1b', '\\': '\\', '0': '\0' }
    return simple[ch] ?? whole
  })
}

/**
 * The one response a rule asks for. `notify` may accompany another action (every event is recorded
 * anyway); two actions (send and stop, say) are ambiguous, so they are refused.
 */
export function ruleResponse(rule: DetectRule): DetectionResponse {
  const r = rule.respond ?? {}
  const actions: ResponseType[] = []
  if (r.send !== undefined) actions.push('send')
  if (r.deny || r.deny_text !== undefined) actions.push('deny')
  if (r.stop) actions.push('stop')
  if (actions.length > 1) {
    throw new DetectRuleError(
      `detect rule "${rule.name}": respond has ${actions.join(' and ')}; a rule answers one way — ` +
        `keep one of send, deny or stop (write a second rule for a second action)`,
      rule.name,
    )
  }
  const type = actions[0] ?? 'notify'
  if (type === 'send') return { type, text: decodeKeys(r.send ?? '') }
  if (type === 'deny') return { type, text: decodeKeys(r.deny_text ?? DEFAULT_DENY_TEXT) }
  return { type }
}

export function compileRule(rule: DetectRule, preset = false): CompiledRule {
  const flags = rule.flags ?? ''
  if (/[^imsu]/.test(flags)) {
    throw new DetectRuleError(
      `detect rule "${rule.name}": flags "${flags}" — only i, m, s and u are allowed (g and y make matching stateful)`,
      rule.name,
    )
  }
  let regex: RegExp
  try {
    regex = new RegExp(rule.match, flags)
  } catch (err) {
    throw new DetectRuleError(
      `detect rule "${rule.name}": match ${JSON.stringify(rule.match)} is not a valid regular expression ` +
        `(${(err as Error).message}); escape characters such as [ ] ( ) ? * + with a backslash to match them literally`,
      rule.name,
    )
  }
  const unsafe = catastrophicRegex(rule.match, flags)
  if (unsafe)
    throw new DetectRuleError(
      `detect rule "${rule.name}": match ${unsafe.message}; ${unsafe.hint}`,
      rule.name,
    )
  if (regex.test('')) {
    throw new DetectRuleError(
      `detect rule "${rule.name}": match ${JSON.stringify(rule.match)} matches empty text, so it would fire on every line; make it require some text`,
      rule.name,
    )
  }
  return {
    name: rule.name,
    kind: rule.kind ?? 'approval_request',
    regex,
    response: ruleResponse(rule),
    maxFires: rule.max_fires ?? null,
    preset,
    delayMs: rule.respond?.delay ?? 0,
    retryAfterMs: rule.respond?.retry_after ?? null,
    maxAttempts: rule.respond?.max_attempts ?? (rule.respond?.retry_after !== undefined ? 3 : 1),
  }
}

/** The user's rules first, then the enabled presets. Throws DetectRuleError for the first bad rule. */
export function compileRules(
  rules: readonly DetectRule[],
  presets: readonly PresetName[] = [],
): CompiledRule[] {
  const names = new Set<string>()
  for (const rule of rules) {
    if (names.has(rule.name)) {
      throw new DetectRuleError(
        `detect rule "${rule.name}" is defined twice; give each rule its own name`,
        rule.name,
      )
    }
    names.add(rule.name)
  }
  return [
    ...rules.map((r) => compileRule(r, false)),
    ...presetRules(presets).map((r) => compileRule(r, true)),
  ]
}

/** One match on screen (rule, line identity, matched text) and what was done about it. */
interface Appearance {
  rule: number
  firstSeen: number
  /** Answers so far (0 while a delayed answer is pending, or a completion is held back). */
  attempts: number
  /** When it was first answered (or fired). */
  firstAnswer: number
  lastAttempt: number
  /** workingSeen and first answers given at the last answer: see movedOn(). */
  workingAtAttempt: number
  answersAtAttempt: number
  /** A completion that may no longer fire (seen while the agent had not worked since the last typing). */
  spent: boolean
}

/** The matches on screen at the last scan: rule, line identity and matched text. */
interface ScreenAppearances {
  buffer: 'normal' | 'alternate'
  keys: Map<string, Appearance>
  /** Which preset answered each line, so a growing line stays with it. */
  presetOnLine: Map<number, number>
}

interface Hit {
  rule: number
  match: RegExpExecArray
}

export interface DetectorStats {
  /** Fires per rule name. */
  fires: Record<string, number>
  /** Appearances ignored because the rule reached max_fires. */
  suppressed: number
}

/**
 * Fires a rule once per appearance of its match. On a rendered screen an appearance is the rule, the
 * matched text and the line it sits on (followed through scrolling, so a matched line that scrolls up
 * does not fire again); it is forgotten as soon as a scan no longer sees it on the screen. So a prompt
 * redrawn in place fires once, and a prompt that goes and comes back fires again. On lines, each line
 * fires a rule at most once, including the unfinished last line.
 * Presets never compete with the user's rules: a line that a user rule matches is not offered to the
 * presets, and at most one preset answers a line.
 */
export class Detector {
  readonly rules: readonly CompiledRule[]
  private readonly clock: () => number
  private readonly fireCounts: number[]
  private suppressed = 0
  private appearances: ScreenAppearances = { buffer: 'normal', keys: new Map(), presetOnLine: new Map() }
  /** Set when any rule is of the working kind: completions then need work since the last typing. */
  private readonly gatesCompletion: boolean
  /** The agent was seen working since proctor last typed into it (or since the start). */
  private workedSinceTyping = false
  /** Completion line texts on screen when proctor last typed: a re-render of them is not new (no working rules). */
  private staleCompletionTexts = new Set<string>()
  private workingSeq = 0
  /** First answers given to any prompt (respond: send or deny), for movedOn(). */
  private answersGiven = 0
  /** The last screen scan saw a working line. */
  private workingOnScreen = false
  /**
   * Since when (clock ms) the screen has shown a completion that counts, with the agent idle, and when it
   * falls due (respond.delay); null while it does not. Kept across scans rather than per appearance: an
   * inline TUI redraws the same done line on new rows while it waits.
   */
  private completionIdle: { since: number; due: number } | null = null
  private lastScreen: RenderedScreen | null = null
  /** Per rule, the seq of the last line it fired on (line views). */
  private readonly lastLineFired: number[]
  private lastPresetLine = -1
  private lastPresetRule = -1
  /** Rules disabled for taking too long on a line. */
  private readonly disabled = new Set<number>()
  /** Told once per rule disabled for a slow match. */
  onSlowRule: ((rule: string, ms: number) => void) | undefined

  constructor(rules: readonly CompiledRule[], clock: () => number = Date.now) {
    // User rules are matched before presets (matchLine relies on this order).
    this.rules = [...rules.filter((r) => !r.preset), ...rules.filter((r) => r.preset)]
    this.clock = clock
    this.fireCounts = rules.map(() => 0)
    this.lastLineFired = rules.map(() => -1)
    this.gatesCompletion = rules.some((r) => r.kind === WORKING_KIND)
    prepareRegexes(this.rules)
  }

  /** How many scans have seen the agent working (grows while it is busy): a sign it reacted to typing. */
  get workingSeen(): number {
    return this.workingSeq
  }

  /** Whether the last screen scan showed the agent busy (a working line on screen). */
  get workingNow(): boolean {
    return this.workingOnScreen
  }

  get hasWorkingRules(): boolean {
    return this.gatesCompletion
  }

  /**
   * proctor is about to type into the agent: completions on screen now are old. With working rules a
   * completion counts again only once the agent has been seen working; without, a completion line whose
   * text was already on screen (a re-render of the transcript) does not count.
   */
  markTyped(): void {
    this.completionIdle = null
    this.workedSinceTyping = false
    this.staleCompletionTexts = new Set()
    const screen = this.lastScreen
    if (!screen) return
    for (const line of screen.screenLines()) {
      this.rules.forEach((rule, i) => {
        if (rule.kind === COMPLETION_KIND && this.exec(i, line.text) !== null)
          this.staleCompletionTexts.add(line.text)
      })
    }
    for (const appearance of this.appearances.keys.values()) {
      if (this.rules[appearance.rule]!.kind === COMPLETION_KIND) appearance.spent = true
    }
  }

  /**
   * When (clock ms) a delayed or repeated answer, or a completion held for its delay, falls due, so the
   * caller scans then; null: nothing pending.
   */
  nextDeadline(): number | null {
    let next: number | null = this.completionIdle?.due ?? null
    for (const a of this.appearances.keys.values()) {
      const due = this.dueAt(a)
      if (due !== null && (next === null || due < next)) next = due
    }
    return next
  }

  /**
   * When (clock ms) an answer to an appearance still on screen falls due: the first (respond.delay) or the
   * next (respond.retry_after); null when none is pending. The one place both the scans and nextDeadline()
   * take this from. (A completion's delay is completionIdle.)
   */
  private dueAt(a: Appearance): number | null {
    const rule = this.rules[a.rule]!
    if (a.spent) return null
    if (a.attempts === 0)
      return isAnswer(rule) && rule.kind !== COMPLETION_KIND ? a.firstSeen + rule.delayMs : null
    if (isAnswer(rule) && rule.retryAfterMs !== null && a.attempts < rule.maxAttempts && !this.movedOn(a))
      return a.lastAttempt + rule.retryAfterMs
    return null
  }

  static fromConfig(config: Pick<Config, 'detect' | 'detect_presets'>, clock?: () => number): Detector {
    return new Detector(compileRules(config.detect, config.detect_presets), clock)
  }

  get isEmpty(): boolean {
    return this.rules.length === 0
  }

  stats(): DetectorStats {
    const fires: Record<string, number> = {}
    this.rules.forEach((r, i) => (fires[r.name] = this.fireCounts[i]!))
    return { fires, suppressed: this.suppressed }
  }

  /**
   * Matches the visible screen; returns the new appearances as events, top to bottom, and answers due
   * again (respond.delay, respond.retry_after) for appearances still on screen.
   */
  scanScreen(screen: RenderedScreen): DetectionEvent[] {
    this.lastScreen = screen
    if (this.rules.length === 0) return []
    const buffer = screen.bufferType
    const previous =
      this.appearances.buffer === buffer ? this.appearances.keys : new Map<string, Appearance>()
    const presetOnLine =
      this.appearances.buffer === buffer ? this.appearances.presetOnLine : new Map<number, number>()
    const current = new Map<string, Appearance>()
    const currentPresets = new Map<number, number>()
    const at = this.clock()
    const hits: { hit: Hit; key: string; text: string; line: number }[] = []
    const workingLines: number[] = []
    for (const screenLine of screen.screenLines()) {
      for (const hit of this.matchLine(screenLine.text, presetOnLine.get(screenLine.line))) {
        if (this.rules[hit.rule]!.kind === WORKING_KIND) {
          workingLines.push(screenLine.line)
          continue
        }
        hits.push({
          hit,
          key: `${hit.rule}\0${screenLine.line}\0${hit.match[0]}`,
          text: screenLine.text,
          line: screenLine.line,
        })
        if (this.rules[hit.rule]!.preset) currentPresets.set(screenLine.line, hit.rule)
      }
    }
    // On the normal buffer an inline TUI's screen reads in time order, top to bottom: it redraws below what
    // it drew before, and copies of earlier frames can stay above (Claude Code 2.1.197 leaves spinners and
    // answered dialogs of older frames on screen). So what sits above the lowest completion line was shown
    // before it: a spinner or a prompt there is a leftover, and a completion there is an older one.
    let latest = -Infinity
    if (buffer === 'normal')
      for (const h of hits)
        if (this.rules[h.hit.rule]!.kind === COMPLETION_KIND) latest = Math.max(latest, h.line)
    const working = workingLines.some((line) => line > latest)
    this.workingOnScreen = working
    if (working) {
      this.workedSinceTyping = true
      this.workingSeq++
    }
    // An agent waiting on a dialog or an approval is not done, whatever old "done" line is still on screen.
    const waiting = hits.some(
      ({ hit, line }) =>
        line > latest &&
        (this.rules[hit.rule]!.kind === 'approval_request' || isAnswer(this.rules[hit.rule]!)),
    )
    // Prompts answered and still on screen, by rule and matched text, with when they were first answered.
    // On the normal buffer, another line showing the same prompt since before that answer is a copy of it,
    // not a second prompt: Claude Code 2.1.197 can draw a dialog twice, one copy below the other, and the
    // Enter sent at the second copy landed in the next dialog. (A prompt shown after the answer is new.)
    const answered = new Map<string, number>()
    if (buffer === 'normal')
      for (const { hit, key } of hits) {
        const a = previous.get(key)
        if (a && a.attempts > 0 && isAnswer(this.rules[hit.rule]!))
          answered.set(`${hit.rule}\0${hit.match[0]}`, a.firstAnswer)
      }
    const events: DetectionEvent[] = []
    let completionPending = false
    for (const { hit, key, text, line } of hits) {
      const rule = this.rules[hit.rule]!
      const seen = previous.get(key)
      const appearance: Appearance = seen ?? {
        rule: hit.rule,
        firstSeen: at,
        attempts: 0,
        firstAnswer: 0,
        lastAttempt: 0,
        workingAtAttempt: 0,
        answersAtAttempt: 0,
        spent: false,
      }
      current.set(key, appearance)
      if (appearance.spent) continue
      if (rule.kind === COMPLETION_KIND && appearance.attempts === 0) {
        // An older completion: the lowest one speaks for the screen.
        if (line < latest) continue
        if (!this.completionCounts(text, working || waiting)) {
          // Not yet: the agent has not worked since proctor typed (a re-render), or is still busy.
          if (!this.gatesCompletion || !this.workedSinceTyping) appearance.spent = true
          continue
        }
        // respond.delay: done and idle for that long, so a frame caught half drawn (old done lines drawn,
        // the spinner below them not yet) is not taken for the end of the work.
        completionPending = true
        const since = this.completionIdle?.since ?? at
        this.completionIdle = { since, due: since + rule.delayMs }
        if (at < this.completionIdle.due) continue
      }
      if (appearance.attempts === 0) {
        const due = this.dueAt(appearance)
        if (due !== null && at < due) continue
        const prompt = `${hit.rule}\0${hit.match[0]}`
        if (isAnswer(rule) && appearance.firstSeen <= (answered.get(prompt) ?? -Infinity)) {
          appearance.spent = true
          continue
        }
        const event = this.fire(hit, text, at, 1)
        appearance.firstAnswer = at
        if (event && isAnswer(rule) && buffer === 'normal') answered.set(prompt, at)
        appearance.attempts = 1
        appearance.lastAttempt = at
        if (event && isAnswer(rule)) this.answersGiven++
        appearance.workingAtAttempt = this.workingSeq
        appearance.answersAtAttempt = this.answersGiven
        if (!event) appearance.spent = true
        else {
          events.push(event)
          if (rule.kind === COMPLETION_KIND) this.completionFired(current)
        }
        continue
      }
      const due = this.dueAt(appearance)
      if (due !== null && at >= due) {
        appearance.attempts++
        appearance.lastAttempt = at
        events.push(this.event(hit, text, at, this.fireCounts[hit.rule]!, appearance.attempts))
      }
    }
    if (!completionPending) this.completionIdle = null
    // Only what is on screen now is remembered: whatever left comes back as a new appearance.
    this.appearances = { buffer, keys: current, presetOnLine: currentPresets }
    return events
  }

  /**
   * The agent moved on since this appearance was last answered — it worked, or proctor answered another
   * prompt — so the line still on screen is a leftover, not a prompt that missed its answer: a TUI that
   * redraws over a closed dialog can leave its lines visible (Claude Code 2.1.197), and keys sent at such a
   * leftover land elsewhere (an Enter picks the next dialog's default, an Up recalls the last prompt).
   */
  private movedOn(appearance: Appearance): boolean {
    return (
      this.workingSeq !== appearance.workingAtAttempt || this.answersGiven !== appearance.answersAtAttempt
    )
  }

  private completionCounts(text: string, workingNow: boolean): boolean {
    if (this.gatesCompletion) return this.workedSinceTyping && !workingNow
    return !this.staleCompletionTexts.has(text)
  }

  /** One completion per stretch of work: the next needs the agent to work again. */
  private completionFired(current: Map<string, Appearance>): void {
    this.completionIdle = null
    if (!this.gatesCompletion) return
    this.workedSinceTyping = false
    for (const a of [...this.appearances.keys.values(), ...current.values()])
      if (this.rules[a.rule]!.kind === COMPLETION_KIND && a.attempts === 0) a.spent = true
  }

  /** Matches lines from a LineView; each line fires a rule at most once. */
  scanLines(lines: readonly TextLine[]): DetectionEvent[] {
    if (this.rules.length === 0) return []
    const events: DetectionEvent[] = []
    const at = this.clock()
    for (const line of lines) {
      const held = this.lastPresetLine === line.seq ? this.lastPresetRule : undefined
      for (const hit of this.matchLine(line.text, held)) {
        if (this.lastLineFired[hit.rule] === line.seq) continue
        if (this.rules[hit.rule]!.kind === WORKING_KIND) {
          this.lastLineFired[hit.rule] = line.seq
          this.workingSeq++
          continue
        }
        const event = this.fire(hit, line.text, at)
        this.lastLineFired[hit.rule] = line.seq
        if (this.rules[hit.rule]!.preset) {
          this.lastPresetLine = line.seq
          this.lastPresetRule = hit.rule
        }
        if (event) events.push(event)
      }
    }
    return events
  }

  /**
   * The rules that match one line: every user rule, then — only if no user rule matched — one preset.
   * A line a preset already answered (`heldPreset`) stays with that preset while it still matches, even
   * if the line grows to match an earlier preset; otherwise the first matching preset takes it.
   */
  private matchLine(text: string, heldPreset: number | undefined): Hit[] {
    const hits: Hit[] = []
    let firstPreset = -1
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i]!
      if (rule.preset) {
        firstPreset = i
        break
      }
      const m = this.exec(i, text)
      if (m) hits.push({ rule: i, match: m })
    }
    if (hits.length > 0 || firstPreset === -1) return hits
    if (heldPreset !== undefined) {
      const m = this.exec(heldPreset, text)
      if (m) return [{ rule: heldPreset, match: m }]
    }
    for (let i = firstPreset; i < this.rules.length; i++) {
      const m = this.exec(i, text)
      if (m) return [{ rule: i, match: m }]
    }
    return hits
  }

  /**
   * Bounded, timed match (see safe-regex.ts); a rule too slow is disabled and reported. A slow match is
   * timed once more first: the clock also counts a garbage-collection pause or the process waiting for a
   * busy CPU (a 156 ms match of a trivial rule was seen beside two agents on a 2-core machine, and the
   * rule it disabled was the one that answered the next permission prompt), while a slow pattern is slow
   * again on the same line.
   */
  private exec(rule: number, text: string): RegExpExecArray | null {
    if (this.disabled.has(rule)) return null
    const { match, ms } = boundedExec(this.rules[rule]!.regex, text)
    if (ms > SLOW_MATCH_MS) {
      const again = boundedExec(this.rules[rule]!.regex, text).ms
      if (again > SLOW_MATCH_MS) {
        this.disabled.add(rule)
        this.onSlowRule?.(this.rules[rule]!.name, Math.min(ms, again))
      }
    }
    return match
  }

  private fire(hit: Hit, lineText: string, at: number, attempt = 1): DetectionEvent | null {
    const rule = this.rules[hit.rule]!
    if (rule.maxFires !== null && this.fireCounts[hit.rule]! >= rule.maxFires) {
      this.suppressed++
      return null
    }
    const fire = ++this.fireCounts[hit.rule]!
    return this.event(hit, lineText, at, fire, attempt)
  }

  private event(hit: Hit, lineText: string, at: number, fire: number, attempt: number): DetectionEvent {
    const rule = this.rules[hit.rule]!
    return {
      rule: rule.name,
      kind: rule.kind,
      text: excerpt(lineText, hit.match.index, hit.match[0].length),
      match: hit.match[0].slice(0, MAX_EVENT_TEXT),
      ...(hit.match.groups?.reason ? { reason: hit.match.groups.reason.slice(0, MAX_EVENT_TEXT) } : {}),
      response: { ...rule.response },
      at,
      fire,
      attempt,
      preset: rule.preset,
    }
  }
}

/** Rules that type something into the agent: the only ones delayed and repeated. */
function isAnswer(rule: CompiledRule): boolean {
  return rule.response.type === 'send' || rule.response.type === 'deny'
}

/** The matched line, trimmed; a very long line is cut to a window around the match. */
function excerpt(text: string, index: number, length: number): string {
  const trimmed = text.trim()
  if (trimmed.length <= MAX_EVENT_TEXT) return trimmed
  const start = Math.max(0, Math.min(index - (MAX_EVENT_TEXT - length) / 2, text.length - MAX_EVENT_TEXT))
  return text.slice(start, start + MAX_EVENT_TEXT).trim()
}
