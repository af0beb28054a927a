import { catastrophicRegex } from './regex-safety-BsAHGJak.js';
const v8 = process.getBuiltinModule("node:v8");
import './commonjs-helpers-Bgu_3bK-.js';

/**
 * Common interactive prompts, answered so an unattended session does not hang on them. Enabling the
 * preset is the user's consent to approve: every answer is recorded as an event, and policy checks and
 * checkpoints still apply to what the agent does next. Patterns are anchored at the end of the line,
 * where a prompt waits for input, so a log line that merely mentions "[y/N]" does not fire.
 */
const prompts = [
    {
        name: 'preset:y/N',
        match: String.raw `\[y/N\]\s*[:?>]?\s*$`,
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        name: 'preset:Y/n',
        match: String.raw `\[Y/n\]\s*[:?>]?\s*$`,
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        name: 'preset:(y/n)',
        match: String.raw `\(y/n\)\s*[:?>]?\s*$`,
        flags: 'i',
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        name: 'preset:allow-action',
        match: String.raw `Allow this action\?`,
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        // Claude Code and Codex show a menu under this question with "Yes" highlighted: Enter picks it.
        name: 'preset:proceed',
        match: String.raw `Do you want to proceed\?`,
        kind: 'approval_request',
        respond: { send: '\r' },
    },
];
const presets = { prompts };
function presetRules(names) {
    return [...new Set(names)].flatMap((name) => presets[name] ?? []);
}

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
/** Characters of one line given to a rule; the rest of a longer line is not matched. */
const MAX_MATCH_INPUT = 4096;
/** A single match slower than this is cut off (worker) or noticed (here), and disables its rule. */
const SLOW_MATCH_MS = 100;
/** How long a worker may take to start, and to pick up a request, before its patterns run here. */
const WORKER_START_MS = 5_000;
/** V8's flag for "run with the linear engine" (only with --enable-experimental-regexp-engine). */
const LINEAR_FLAG = 'l';
let fallbackEnabled = false;
let linearCheck = true;
/**
 * Turns on V8's fallback to its linear engine (idempotent; applies to every later match), and its `l`
 * flag, used only to ask V8 whether it can run a pattern linearly.
 */
function enableLinearFallback() {
    if (fallbackEnabled)
        return;
    v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    v8.setFlagsFromString('--enable-experimental-regexp-engine');
    fallbackEnabled = true;
    try {
        new RegExp('a', LINEAR_FLAG);
    }
    catch {
        linearCheck = false; // this V8 has no `l` flag: judge by syntax (linearBySyntax)
    }
}
enableLinearFallback();
const linearCache = new WeakMap();
/**
 * Whether `regex` is matched on this thread: V8 can run it in linear time (so the excessive-backtracks
 * fallback covers it), or it is a preset (prepareRegexes).
 */
function runsLinearly(regex) {
    let linear = linearCache.get(regex);
    if (linear === undefined) {
        if (linearCheck) {
            try {
                new RegExp(regex.source, regex.flags + LINEAR_FLAG);
                linear = true;
            }
            catch {
                linear = false;
            }
        }
        else
            linear = linearBySyntax(regex);
        linearCache.set(regex, linear);
    }
    return linear;
}
/** Without V8's verdict: back-references, lookarounds and the i flag are what its linear engine cannot run. */
function linearBySyntax(regex) {
    return !regex.flags.includes('i') && !/\\[1-9]|\\k<|\(\?<?[=!]/.test(regex.source);
}
/**
 * Starts the worker for the patterns that need one, so that their first match does not wait for it.
 * Presets are proctor's own patterns (anchored on literal text, reviewed, tested): they always run here.
 */
function prepareRegexes(rules) {
    for (const rule of rules)
        if (rule.preset)
            linearCache.set(rule.regex, true);
    if (rules.some((r) => !runsLinearly(r.regex)))
        sandbox();
}
/** One bounded, timed match. `ms` above SLOW_MATCH_MS means the rule is too slow (and `match` is null). */
function boundedExec(regex, text) {
    const input = text.length > MAX_MATCH_INPUT ? text.slice(0, MAX_MATCH_INPUT) : text;
    if (!runsLinearly(regex)) {
        const result = sandbox().exec(regex, input);
        if (result)
            return result;
    }
    const started = performance.now();
    const match = regex.exec(input);
    return { match, ms: performance.now() - started };
}
// The worker: one request at a time through shared memory. Control words:
const STATE = 0; // IDLE → REQUEST (main) → RUNNING (worker) → DONE (worker) → IDLE (main)
const OP = 1; // COMPILE (text = source, FLAGS = flags) or EXEC (text = input)
const LENGTH = 2; // characters in text
const FLAGS = 3; // i m s u as bits
const RESULT = 4; // EXEC: match index, -1 no match, -2 error; COMPILE: 0 or -2
const RESULT_LENGTH = 5; // EXEC: length of the match
const READY = 6; // 1 once the worker runs
const CONTROL_BYTES = 32;
const IDLE = 0;
const REQUEST = 1;
const RUNNING = 2;
const DONE = 3;
const COMPILE = 1;
const EXEC = 2;
const FLAG_BITS = 'imsu';
/** Longest pattern source or input the shared buffer carries (UTF-16 code units). */
const TEXT_UNITS = 64 * 1024;
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
`;
/** A worker that runs one pattern at a time, synchronously, with a deadline. */
class RegexSandbox {
    ctrl;
    text;
    worker;
    /** The pattern the worker holds (it is recompiled when another one is asked for). */
    loaded = null;
    /** Ended (a request cut off, or the thread died): the next request starts a fresh worker. */
    broken = false;
    /** Workers cannot run here (this one never started or never answered): patterns run on the main thread. */
    unavailable = false;
    constructor() {
        const shared = new SharedArrayBuffer(CONTROL_BYTES + TEXT_UNITS * 2);
        this.ctrl = new Int32Array(shared, 0, CONTROL_BYTES / 4);
        this.text = new Uint16Array(shared, CONTROL_BYTES);
        // The worker runs nothing but RegExp: no environment, no stdin. node:worker_threads is loaded here, for
        // the first pattern that needs a worker, rather than with this module before every agent's spawn.
        const { Worker } = process.getBuiltinModule('node:worker_threads');
        this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: shared, env: {}, stdin: false });
        this.worker.unref();
        this.worker.on('error', () => (this.broken = true));
        this.worker.on('exit', () => (this.broken = true));
    }
    /** The match; null only when no worker could be started (then the caller matches here). */
    exec(regex, input) {
        if (this.unavailable || !this.ready())
            return null;
        const started = performance.now();
        const none = () => ({ match: null, ms: performance.now() - started });
        // Too long to pass (a 64 Ki-character pattern): never matched, rather than matched unbounded here.
        if (input.length > TEXT_UNITS || regex.source.length > TEXT_UNITS)
            return none();
        if (this.loaded !== regex) {
            let bits = 0;
            for (let b = 0; b < FLAG_BITS.length; b++)
                if (regex.flags.includes(FLAG_BITS[b]))
                    bits |= 1 << b;
            this.ctrl[FLAGS] = bits;
            const compiled = this.call(COMPILE, regex.source);
            if (compiled !== 'done')
                return this.stop(compiled, started);
            if (this.ctrl[RESULT] !== 0)
                return none();
            this.loaded = regex;
        }
        const outcome = this.call(EXEC, input);
        if (outcome !== 'done')
            return this.stop(outcome, started);
        const index = this.ctrl[RESULT];
        if (index < 0)
            return none(); // -1 no match, -2 the match threw (e.g. a stack overflow)
        const match = [input.slice(index, index + this.ctrl[RESULT_LENGTH])];
        match.index = index;
        match.input = input;
        return { match, ms: performance.now() - started };
    }
    /** Ends this worker after a request it did not answer in time; V8 interrupts the backtracking. */
    stop(outcome, started) {
        this.broken = true;
        void this.worker.terminate();
        if (outcome === 'lost') {
            this.unavailable = true;
            return null;
        }
        replaceSandbox(); // starts now, so the next pattern does not wait for a worker to start
        return { match: null, ms: Math.max(performance.now() - started, SLOW_MATCH_MS + 1) };
    }
    ready() {
        if (Atomics.load(this.ctrl, READY) === 1)
            return true;
        // Started at session start (prepareRegexes), so this wait is short or none.
        Atomics.wait(this.ctrl, READY, 0, WORKER_START_MS);
        if (Atomics.load(this.ctrl, READY) === 1)
            return true;
        this.broken = true;
        this.unavailable = true;
        void this.worker.terminate();
        return false;
    }
    /** One request: 'done', 'slow' (still running SLOW_MATCH_MS after pickup) or 'lost' (never picked up). */
    call(op, data) {
        for (let i = 0; i < data.length; i++)
            this.text[i] = data.charCodeAt(i);
        this.ctrl[OP] = op;
        this.ctrl[LENGTH] = data.length;
        Atomics.store(this.ctrl, STATE, REQUEST);
        Atomics.notify(this.ctrl, STATE);
        // The deadline counts from the worker's pickup: a busy machine delaying the thread is not a slow pattern.
        const sent = performance.now();
        let picked = null;
        for (;;) {
            const state = Atomics.load(this.ctrl, STATE);
            if (state === DONE) {
                Atomics.store(this.ctrl, STATE, IDLE);
                return 'done';
            }
            if (state === RUNNING && picked === null)
                picked = performance.now();
            const left = picked === null
                ? sent + WORKER_START_MS - performance.now()
                : picked + SLOW_MATCH_MS - performance.now();
            if (left <= 0)
                return picked === null ? 'lost' : 'slow';
            Atomics.wait(this.ctrl, STATE, state, left);
        }
    }
}
let current = null;
function replaceSandbox() {
    current = new RegexSandbox();
}
function sandbox() {
    // A worker that could not start is kept (unavailable): starting another would block again.
    if (current?.broken && !current.unavailable)
        current = null;
    current ??= new RegexSandbox();
    return current;
}

/** A rule of this kind says the agent is busy: it gates completions and is never reported itself. */
const WORKING_KIND = 'working';
const COMPLETION_KIND = 'completion';
/**
 * A rule of this kind recognises the agent giving up on a failure of its own (the model API refused: a bad
 * key, a rate limit or overload it stopped retrying, no network). The session ends failed with the agent's
 * own words as its reason, whether proctor stops the agent or it exits by itself.
 */
const AGENT_ERROR_KIND = 'agent_error';
const MAX_REASON = 300;
/**
 * The session's reason for an agent_error event: the rule's `reason` group, else the whole match, on one
 * line, at most MAX_REASON long.
 */
function agentErrorReason(event) {
    const words = (event.reason ?? event.match).replace(/\s+/g, ' ').trim();
    return `${AGENT_ERROR_KIND}: ${words.length > MAX_REASON ? `${words.slice(0, MAX_REASON - 1)}…` : words}`;
}
/** A detect rule that cannot be used, with what to change. */
class DetectRuleError extends Error {
    rule;
    constructor(message, rule) {
        super(message);
        this.rule = rule;
        this.name = 'DetectRuleError';
    }
}
const DEFAULT_DENY_TEXT = 'n\r';
const MAX_EVENT_TEXT = 1000;
/**
 * Decodes the escapes people write for keys when YAML did not already: \r (Enter), \n, \t, \e or \x1b
 * (Escape), \xHH, \uHHHH and \\. Text with no backslash is returned as is.
 */
function decodeKeys(text) {
    if (!text.includes('\\'))
        return text;
    return text.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))/gs, (whole, hex2, hex4, ch) => {
        if (hex2)
            return String.fromCharCode(parseInt(hex2, 16));
        if (hex4)
            return String.fromCharCode(parseInt(hex4, 16));
        const simple = { r: '\r', n: '\n', t: '\t', e: '\x1b', '\\': '\\', '0': '\0' };
        return simple[ch] ?? whole;
    });
}
/**
 * The one response a rule asks for. `notify` may accompany another action (every event is recorded
 * anyway); two actions (send and stop, say) are ambiguous, so they are refused.
 */
function ruleResponse(rule) {
    const r = rule.respond ?? {};
    const actions = [];
    if (r.send !== undefined)
        actions.push('send');
    if (r.deny || r.deny_text !== undefined)
        actions.push('deny');
    if (r.stop)
        actions.push('stop');
    if (actions.length > 1) {
        throw new DetectRuleError(`detect rule "${rule.name}": respond has ${actions.join(' and ')}; a rule answers one way — ` +
            `keep one of send, deny or stop (write a second rule for a second action)`, rule.name);
    }
    const type = actions[0] ?? 'notify';
    if (type === 'send')
        return { type, text: decodeKeys(r.send ?? '') };
    if (type === 'deny')
        return { type, text: decodeKeys(r.deny_text ?? DEFAULT_DENY_TEXT) };
    return { type };
}
function compileRule(rule, preset = false) {
    const flags = rule.flags ?? '';
    if (/[^imsu]/.test(flags)) {
        throw new DetectRuleError(`detect rule "${rule.name}": flags "${flags}" — only i, m, s and u are allowed (g and y make matching stateful)`, rule.name);
    }
    let regex;
    try {
        regex = new RegExp(rule.match, flags);
    }
    catch (err) {
        throw new DetectRuleError(`detect rule "${rule.name}": match ${JSON.stringify(rule.match)} is not a valid regular expression ` +
            `(${err.message}); escape characters such as [ ] ( ) ? * + with a backslash to match them literally`, rule.name);
    }
    const unsafe = catastrophicRegex(rule.match, flags);
    if (unsafe)
        throw new DetectRuleError(`detect rule "${rule.name}": match ${unsafe.message}; ${unsafe.hint}`, rule.name);
    if (regex.test('')) {
        throw new DetectRuleError(`detect rule "${rule.name}": match ${JSON.stringify(rule.match)} matches empty text, so it would fire on every line; make it require some text`, rule.name);
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
    };
}
/** The user's rules first, then the enabled presets. Throws DetectRuleError for the first bad rule. */
function compileRules(rules, presets = []) {
    const names = new Set();
    for (const rule of rules) {
        if (names.has(rule.name)) {
            throw new DetectRuleError(`detect rule "${rule.name}" is defined twice; give each rule its own name`, rule.name);
        }
        names.add(rule.name);
    }
    return [
        ...rules.map((r) => compileRule(r, false)),
        ...presetRules(presets).map((r) => compileRule(r, true)),
    ];
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
class Detector {
    rules;
    clock;
    fireCounts;
    suppressed = 0;
    appearances = { buffer: 'normal', keys: new Map(), presetOnLine: new Map() };
    /** Set when any rule is of the working kind: completions then need work since the last typing. */
    gatesCompletion;
    /** The agent was seen working since proctor last typed into it (or since the start). */
    workedSinceTyping = false;
    /** Completion line texts on screen when proctor last typed: a re-render of them is not new (no working rules). */
    staleCompletionTexts = new Set();
    workingSeq = 0;
    /** First answers given to any prompt (respond: send or deny), for movedOn(). */
    answersGiven = 0;
    /** The last screen scan saw a working line. */
    workingOnScreen = false;
    /**
     * Since when (clock ms) the screen has shown a completion that counts, with the agent idle, and when it
     * falls due (respond.delay); null while it does not. Kept across scans rather than per appearance: an
     * inline TUI redraws the same done line on new rows while it waits.
     */
    completionIdle = null;
    lastScreen = null;
    /** Per rule, the seq of the last line it fired on (line views). */
    lastLineFired;
    lastPresetLine = -1;
    lastPresetRule = -1;
    /** Rules disabled for taking too long on a line. */
    disabled = new Set();
    /** Told once per rule disabled for a slow match. */
    onSlowRule;
    constructor(rules, clock = Date.now) {
        // User rules are matched before presets (matchLine relies on this order).
        this.rules = [...rules.filter((r) => !r.preset), ...rules.filter((r) => r.preset)];
        this.clock = clock;
        this.fireCounts = rules.map(() => 0);
        this.lastLineFired = rules.map(() => -1);
        this.gatesCompletion = rules.some((r) => r.kind === WORKING_KIND);
        prepareRegexes(this.rules);
    }
    /** How many scans have seen the agent working (grows while it is busy): a sign it reacted to typing. */
    get workingSeen() {
        return this.workingSeq;
    }
    /** Whether the last screen scan showed the agent busy (a working line on screen). */
    get workingNow() {
        return this.workingOnScreen;
    }
    get hasWorkingRules() {
        return this.gatesCompletion;
    }
    /**
     * proctor is about to type into the agent: completions on screen now are old. With working rules a
     * completion counts again only once the agent has been seen working; without, a completion line whose
     * text was already on screen (a re-render of the transcript) does not count.
     */
    markTyped() {
        this.completionIdle = null;
        this.workedSinceTyping = false;
        this.staleCompletionTexts = new Set();
        const screen = this.lastScreen;
        if (!screen)
            return;
        for (const line of screen.screenLines()) {
            this.rules.forEach((rule, i) => {
                if (rule.kind === COMPLETION_KIND && this.exec(i, line.text) !== null)
                    this.staleCompletionTexts.add(line.text);
            });
        }
        for (const appearance of this.appearances.keys.values()) {
            if (this.rules[appearance.rule].kind === COMPLETION_KIND)
                appearance.spent = true;
        }
    }
    /**
     * When (clock ms) a delayed or repeated answer, or a completion held for its delay, falls due, so the
     * caller scans then; null: nothing pending.
     */
    nextDeadline() {
        let next = this.completionIdle?.due ?? null;
        for (const a of this.appearances.keys.values()) {
            const due = this.dueAt(a);
            if (due !== null && (next === null || due < next))
                next = due;
        }
        return next;
    }
    /**
     * When (clock ms) an answer to an appearance still on screen falls due: the first (respond.delay) or the
     * next (respond.retry_after); null when none is pending. The one place both the scans and nextDeadline()
     * take this from. (A completion's delay is completionIdle.)
     */
    dueAt(a) {
        const rule = this.rules[a.rule];
        if (a.spent)
            return null;
        if (a.attempts === 0)
            return isAnswer(rule) && rule.kind !== COMPLETION_KIND ? a.firstSeen + rule.delayMs : null;
        if (isAnswer(rule) && rule.retryAfterMs !== null && a.attempts < rule.maxAttempts && !this.movedOn(a))
            return a.lastAttempt + rule.retryAfterMs;
        return null;
    }
    static fromConfig(config, clock) {
        return new Detector(compileRules(config.detect, config.detect_presets), clock);
    }
    get isEmpty() {
        return this.rules.length === 0;
    }
    stats() {
        const fires = {};
        this.rules.forEach((r, i) => (fires[r.name] = this.fireCounts[i]));
        return { fires, suppressed: this.suppressed };
    }
    /**
     * Matches the visible screen; returns the new appearances as events, top to bottom, and answers due
     * again (respond.delay, respond.retry_after) for appearances still on screen.
     */
    scanScreen(screen) {
        this.lastScreen = screen;
        if (this.rules.length === 0)
            return [];
        const buffer = screen.bufferType;
        const previous = this.appearances.buffer === buffer ? this.appearances.keys : new Map();
        const presetOnLine = this.appearances.buffer === buffer ? this.appearances.presetOnLine : new Map();
        const current = new Map();
        const currentPresets = new Map();
        const at = this.clock();
        const hits = [];
        const workingLines = [];
        for (const screenLine of screen.screenLines()) {
            for (const hit of this.matchLine(screenLine.text, presetOnLine.get(screenLine.line))) {
                if (this.rules[hit.rule].kind === WORKING_KIND) {
                    workingLines.push(screenLine.line);
                    continue;
                }
                hits.push({
                    hit,
                    key: `${hit.rule}\0${screenLine.line}\0${hit.match[0]}`,
                    text: screenLine.text,
                    line: screenLine.line,
                });
                if (this.rules[hit.rule].preset)
                    currentPresets.set(screenLine.line, hit.rule);
            }
        }
        // On the normal buffer an inline TUI's screen reads in time order, top to bottom: it redraws below what
        // it drew before, and copies of earlier frames can stay above (Claude Code 2.1.197 leaves spinners and
        // answered dialogs of older frames on screen). So what sits above the lowest completion line was shown
        // before it: a spinner or a prompt there is a leftover, and a completion there is an older one.
        let latest = -Infinity;
        if (buffer === 'normal')
            for (const h of hits)
                if (this.rules[h.hit.rule].kind === COMPLETION_KIND)
                    latest = Math.max(latest, h.line);
        const working = workingLines.some((line) => line > latest);
        this.workingOnScreen = working;
        if (working) {
            this.workedSinceTyping = true;
            this.workingSeq++;
        }
        // An agent waiting on a dialog or an approval is not done, whatever old "done" line is still on screen.
        const waiting = hits.some(({ hit, line }) => line > latest &&
            (this.rules[hit.rule].kind === 'approval_request' || isAnswer(this.rules[hit.rule])));
        // Prompts answered and still on screen, by rule and matched text, with when they were first answered.
        // On the normal buffer, another line showing the same prompt since before that answer is a copy of it,
        // not a second prompt: Claude Code 2.1.197 can draw a dialog twice, one copy below the other, and the
        // Enter sent at the second copy landed in the next dialog. (A prompt shown after the answer is new.)
        const answered = new Map();
        if (buffer === 'normal')
            for (const { hit, key } of hits) {
                const a = previous.get(key);
                if (a && a.attempts > 0 && isAnswer(this.rules[hit.rule]))
                    answered.set(`${hit.rule}\0${hit.match[0]}`, a.firstAnswer);
            }
        const events = [];
        let completionPending = false;
        for (const { hit, key, text, line } of hits) {
            const rule = this.rules[hit.rule];
            const seen = previous.get(key);
            const appearance = seen ?? {
                rule: hit.rule,
                firstSeen: at,
                attempts: 0,
                firstAnswer: 0,
                lastAttempt: 0,
                workingAtAttempt: 0,
                answersAtAttempt: 0,
                spent: false,
            };
            current.set(key, appearance);
            if (appearance.spent)
                continue;
            if (rule.kind === COMPLETION_KIND && appearance.attempts === 0) {
                // An older completion: the lowest one speaks for the screen.
                if (line < latest)
                    continue;
                if (!this.completionCounts(text, working || waiting)) {
                    // Not yet: the agent has not worked since proctor typed (a re-render), or is still busy.
                    if (!this.gatesCompletion || !this.workedSinceTyping)
                        appearance.spent = true;
                    continue;
                }
                // respond.delay: done and idle for that long, so a frame caught half drawn (old done lines drawn,
                // the spinner below them not yet) is not taken for the end of the work.
                completionPending = true;
                const since = this.completionIdle?.since ?? at;
                this.completionIdle = { since, due: since + rule.delayMs };
                if (at < this.completionIdle.due)
                    continue;
            }
            if (appearance.attempts === 0) {
                const due = this.dueAt(appearance);
                if (due !== null && at < due)
                    continue;
                const prompt = `${hit.rule}\0${hit.match[0]}`;
                if (isAnswer(rule) && appearance.firstSeen <= (answered.get(prompt) ?? -Infinity)) {
                    appearance.spent = true;
                    continue;
                }
                const event = this.fire(hit, text, at, 1);
                appearance.firstAnswer = at;
                if (event && isAnswer(rule) && buffer === 'normal')
                    answered.set(prompt, at);
                appearance.attempts = 1;
                appearance.lastAttempt = at;
                if (event && isAnswer(rule))
                    this.answersGiven++;
                appearance.workingAtAttempt = this.workingSeq;
                appearance.answersAtAttempt = this.answersGiven;
                if (!event)
                    appearance.spent = true;
                else {
                    events.push(event);
                    if (rule.kind === COMPLETION_KIND)
                        this.completionFired(current);
                }
                continue;
            }
            const due = this.dueAt(appearance);
            if (due !== null && at >= due) {
                appearance.attempts++;
                appearance.lastAttempt = at;
                events.push(this.event(hit, text, at, this.fireCounts[hit.rule], appearance.attempts));
            }
        }
        if (!completionPending)
            this.completionIdle = null;
        // Only what is on screen now is remembered: whatever left comes back as a new appearance.
        this.appearances = { buffer, keys: current, presetOnLine: currentPresets };
        return events;
    }
    /**
     * The agent moved on since this appearance was last answered — it worked, or proctor answered another
     * prompt — so the line still on screen is a leftover, not a prompt that missed its answer: a TUI that
     * redraws over a closed dialog can leave its lines visible (Claude Code 2.1.197), and keys sent at such a
     * leftover land elsewhere (an Enter picks the next dialog's default, an Up recalls the last prompt).
     */
    movedOn(appearance) {
        return (this.workingSeq !== appearance.workingAtAttempt || this.answersGiven !== appearance.answersAtAttempt);
    }
    completionCounts(text, workingNow) {
        if (this.gatesCompletion)
            return this.workedSinceTyping && !workingNow;
        return !this.staleCompletionTexts.has(text);
    }
    /** One completion per stretch of work: the next needs the agent to work again. */
    completionFired(current) {
        this.completionIdle = null;
        if (!this.gatesCompletion)
            return;
        this.workedSinceTyping = false;
        for (const a of [...this.appearances.keys.values(), ...current.values()])
            if (this.rules[a.rule].kind === COMPLETION_KIND && a.attempts === 0)
                a.spent = true;
    }
    /** Matches lines from a LineView; each line fires a rule at most once. */
    scanLines(lines) {
        if (this.rules.length === 0)
            return [];
        const events = [];
        const at = this.clock();
        for (const line of lines) {
            const held = this.lastPresetLine === line.seq ? this.lastPresetRule : undefined;
            for (const hit of this.matchLine(line.text, held)) {
                if (this.lastLineFired[hit.rule] === line.seq)
                    continue;
                if (this.rules[hit.rule].kind === WORKING_KIND) {
                    this.lastLineFired[hit.rule] = line.seq;
                    this.workingSeq++;
                    continue;
                }
                const event = this.fire(hit, line.text, at);
                this.lastLineFired[hit.rule] = line.seq;
                if (this.rules[hit.rule].preset) {
                    this.lastPresetLine = line.seq;
                    this.lastPresetRule = hit.rule;
                }
                if (event)
                    events.push(event);
            }
        }
        return events;
    }
    /**
     * The rules that match one line: every user rule, then — only if no user rule matched — one preset.
     * A line a preset already answered (`heldPreset`) stays with that preset while it still matches, even
     * if the line grows to match an earlier preset; otherwise the first matching preset takes it.
     */
    matchLine(text, heldPreset) {
        const hits = [];
        let firstPreset = -1;
        for (let i = 0; i < this.rules.length; i++) {
            const rule = this.rules[i];
            if (rule.preset) {
                firstPreset = i;
                break;
            }
            const m = this.exec(i, text);
            if (m)
                hits.push({ rule: i, match: m });
        }
        if (hits.length > 0 || firstPreset === -1)
            return hits;
        if (heldPreset !== undefined) {
            const m = this.exec(heldPreset, text);
            if (m)
                return [{ rule: heldPreset, match: m }];
        }
        for (let i = firstPreset; i < this.rules.length; i++) {
            const m = this.exec(i, text);
            if (m)
                return [{ rule: i, match: m }];
        }
        return hits;
    }
    /**
     * Bounded, timed match (see safe-regex.ts); a rule too slow is disabled and reported. A slow match is
     * timed once more first: the clock also counts a garbage-collection pause or the process waiting for a
     * busy CPU (a 156 ms match of a trivial rule was seen beside two agents on a 2-core machine, and the
     * rule it disabled was the one that answered the next permission prompt), while a slow pattern is slow
     * again on the same line.
     */
    exec(rule, text) {
        if (this.disabled.has(rule))
            return null;
        const { match, ms } = boundedExec(this.rules[rule].regex, text);
        if (ms > SLOW_MATCH_MS) {
            const again = boundedExec(this.rules[rule].regex, text).ms;
            if (again > SLOW_MATCH_MS) {
                this.disabled.add(rule);
                this.onSlowRule?.(this.rules[rule].name, Math.min(ms, again));
            }
        }
        return match;
    }
    fire(hit, lineText, at, attempt = 1) {
        const rule = this.rules[hit.rule];
        if (rule.maxFires !== null && this.fireCounts[hit.rule] >= rule.maxFires) {
            this.suppressed++;
            return null;
        }
        const fire = ++this.fireCounts[hit.rule];
        return this.event(hit, lineText, at, fire, attempt);
    }
    event(hit, lineText, at, fire, attempt) {
        const rule = this.rules[hit.rule];
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
        };
    }
}
/** Rules that type something into the agent: the only ones delayed and repeated. */
function isAnswer(rule) {
    return rule.response.type === 'send' || rule.response.type === 'deny';
}
/** The matched line, trimmed; a very long line is cut to a window around the match. */
function excerpt(text, index, length) {
    const trimmed = text.trim();
    if (trimmed.length <= MAX_EVENT_TEXT)
        return trimmed;
    const start = Math.max(0, Math.min(index - (MAX_EVENT_TEXT - length) / 2, text.length - MAX_EVENT_TEXT));
    return text.slice(start, start + MAX_EVENT_TEXT).trim();
}

export { AGENT_ERROR_KIND, COMPLETION_KIND, DetectRuleError, Detector, WORKING_KIND, agentErrorReason, compileRule, compileRules, decodeKeys, ruleResponse };
