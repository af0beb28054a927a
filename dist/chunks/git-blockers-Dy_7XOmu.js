const fs__default = process.getBuiltinModule("node:fs"); const { readFileSync, openSync, readSync, writeSync, closeSync } = process.getBuiltinModule("node:fs");
import { U as UsageMeter, a as usageReport, R as REPORT_SCHEMA_VERSION } from './summary-BBJud0Oe.js';
import { J as randomHex, M as readGitDirs, i as describeKind } from './checkpoints-create-CJcO-Brq.js';
const path = process.getBuiltinModule("node:path");

// What the agent and its hooks may see of proctor's environment. An agent is untrusted code: the tokens
// the runner hands a JavaScript action (the github-token input, the artifact/cache runtime token, the
// OIDC request token) and the file commands that steer later steps must never reach it, whatever mode
// proctor runs in. Variables named in `agent.env_passthrough` are the user's explicit opt-in.
//
// Removing a variable from process.env is not enough on Linux: /proc/<pid>/environ shows the block the
// process was started with, and any process of the same user (the agent) can read it. So the action also
// overwrites those bytes in its own memory (withholdSecrets); the values live on only in the JS heap.
/**
 * Runner variables that are credentials, or addresses only useful with one: the action's inputs (the
 * github-token input among them), the Actions runtime token and its service URLs (artifacts, cache,
 * results), the OIDC token request, and the tokens proctor itself falls back to.
 */
const WITHHELD = [
    /^INPUT_/i,
    /^ACTIONS_RUNTIME_(TOKEN|URL)$/i,
    /^ACTIONS_ID_TOKEN_REQUEST_(TOKEN|URL)$/i,
    /^ACTIONS_(RESULTS|CACHE)_URL$/i,
    /^ACTIONS_CACHE_SERVICE_V2$/i,
    /^GITHUB_TOKEN$/i,
    /^GH_TOKEN$/i,
];
/**
 * File commands of the step: writing GITHUB_ENV or GITHUB_PATH changes every later step (NODE_OPTIONS...),
 * GITHUB_OUTPUT and GITHUB_STATE are proctor's own outputs and post-step state.
 */
const STEP_FILES = ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_OUTPUT', 'GITHUB_STATE'];
/** Whether `name` holds a runner credential (or the address of a service only a credential opens). */
function isRunnerSecret(name) {
    return WITHHELD.some((re) => re.test(name));
}
/** Whether `name` is withheld from the agent and its hooks unless passed through. */
function isWithheld(name) {
    return isRunnerSecret(name) || STEP_FILES.includes(name.toUpperCase());
}
/**
 * The environment the agent and every hook start from: `base` minus the withheld variables, except the
 * ones `passthrough` names (exact names, case-sensitive as the environment is).
 */
function agentEnvironment(base, passthrough = []) {
    const keep = new Set(passthrough);
    const env = {};
    for (const [name, value] of Object.entries(base)) {
        if (value === undefined)
            continue;
        if (isWithheld(name) && !keep.has(name))
            continue;
        env[name] = value;
    }
    return env;
}
/**
 * Takes every runner credential out of process.env (the step files stay: proctor writes its outputs and
 * state there; agentEnvironment keeps them from the agent) and overwrites its bytes in the environment block the
 * kernel shows as /proc/self/environ, so children (and anything of the same user) find nothing there.
 * The values are returned for proctor's own use (its GitHub client, the artifact upload). Idempotent.
 */
function withholdSecrets(env = process.env) {
    const values = {};
    for (const [name, value] of Object.entries(env)) {
        if (value === undefined || !isRunnerSecret(name))
            continue;
        values[name] = value;
        delete env[name];
    }
    const result = scrubStartupEnvironment(isRunnerSecret);
    return { values, scrubbed: result === null, problem: result };
}
/**
 * Takes the variables `names` out of process.env and out of the start-up environment block (as
 * withholdSecrets does for runner credentials), e.g. the model API key the metering proxy keeps from the
 * agent. Returns the values found, or why /proc/self/environ could not be scrubbed.
 */
function withholdVariables(names, env = process.env) {
    const values = {};
    for (const name of names) {
        const value = env[name];
        if (value === undefined)
            continue;
        values[name] = value;
        delete env[name];
    }
    return { values, problem: scrubStartupEnvironment((name) => names.includes(name)) };
}
/**
 * Sets `names` from `secrets` in process.env while `fn` runs (e.g. the artifact client reads
 * ACTIONS_RUNTIME_TOKEN there), then removes them again. Only for after the agent and hooks are gone.
 */
async function withSecretsInEnv(secrets, names, fn) {
    const set = [];
    for (const name of names) {
        const value = secrets.values[name];
        if (value !== undefined && process.env[name] === undefined) {
            process.env[name] = value;
            set.push(name);
        }
    }
    try {
        return await fn();
    }
    finally {
        for (const name of set)
            delete process.env[name];
    }
}
/**
 * Overwrites the `NAME=value` entries `withheld` names of the start-up environment block with NUL bytes, through
 * /proc/self/mem (a process may always write its own memory). Returns null on success, else why not.
 * process.env no longer points into those bytes once the variables were deleted (unsetenv).
 */
function scrubStartupEnvironment(withheld) {
    if (process.platform !== 'linux')
        return 'only Linux exposes a process environment this way';
    let fd = null;
    try {
        const stat = readFileSync('/proc/self/stat', 'utf8');
        // Fields after "(comm)": the first is field 3 (state); env_start and env_end are fields 50 and 51.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const start = Number(fields[50 - 3]);
        const end = Number(fields[51 - 3]);
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start)
            return 'the kernel does not report where the environment lives (/proc/self/stat)';
        fd = openSync('/proc/self/mem', 'r+');
        const block = Buffer.alloc(end - start);
        readSync(fd, block, 0, block.length, start);
        let offset = 0;
        while (offset < block.length) {
            let stop = block.indexOf(0, offset);
            if (stop === -1)
                stop = block.length;
            const entry = block.toString('latin1', offset, stop);
            const eq = entry.indexOf('=');
            const name = eq > 0 ? entry.slice(0, eq) : entry;
            if (withheld(name)) {
                writeSync(fd, Buffer.alloc(stop - offset), 0, stop - offset, start + offset);
            }
            offset = stop + 1;
        }
        return null;
    }
    catch (error) {
        return `could not overwrite the start-up environment: ${error.message}`;
    }
    finally {
        if (fd !== null)
            closeSync(fd);
    }
}

/** The date the built-in prices were checked. */
// Sources, read on PRICES_CHECKED:
// - Anthropic: the model catalog baked into the pinned Claude Code 2.1.330 (its `pricing_tiers`: input,
//   output, cache_write_5m, cache_read), which is also what its own total_cost_usd is computed from.
// - OpenAI and Google: GitHub's per-token price list for the models Copilot offers
//   (github/docs data/tables/copilot/models-and-pricing.yml, commit 024f6b0), which quotes the providers' list
//   prices; models it does not list (gpt-5, gpt-5.1 and their codex variants, the Gemini 2.5 family) at their
//   providers' pricing pages (developers.openai.com/api/docs/pricing, ai.google.dev/gemini-api/docs/pricing).
// Standard tier only: long-context tiers (OpenAI above 272K, Gemini Pro above 200K prompt tokens) and batch or
// priority processing are not modelled, so a cost from prompts that long is understated.
// Keys are model ids as the APIs name them; a dated snapshot (claude-sonnet-4-5-20250929,
// gpt-5-2025-08-07) is priced as its base id.
const p = (input, output, cached_input, cache_write) => cache_write === undefined ? { input, output, cached_input } : { input, output, cached_input, cache_write };
const BUILT_IN_PRICES = {
    // Anthropic (cached_input: cache_read; cache_write: the 5-minute cache write)
    'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
    'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
    'claude-haiku-5-5': p(0.1, 0.5, 0.01, 0.125),
    'claude-3-5-sonnet': p(3, 15, 0.3, 3.75),
    'claude-3-7-sonnet': p(3, 15, 0.3, 3.75),
    'claude-sonnet-4': p(3, 15, 0.3, 3.75),
    'claude-sonnet-4-0': p(3, 15, 0.3, 3.75),
    'claude-sonnet-4-5': p(3, 15, 0.3, 3.75),
    'claude-sonnet-4-6': p(3, 15, 0.3, 3.75),
    'claude-sonnet-5': p(2, 10, 0.2, 2.5),
    'claude-sonnet-5-5': p(2, 10, 0.1, 2.5),
    'claude-opus-4': p(15, 75, 1.5, 18.75),
    'claude-opus-4-0': p(15, 75, 1.5, 18.75),
    'claude-opus-4-1': p(15, 75, 1.5, 18.75),
    'claude-opus-4-5': p(5, 25, 0.5, 6.25),
    'claude-opus-4-6': p(5, 25, 0.5, 6.25),
    'claude-opus-4-7': p(5, 25, 0.5, 6.25),
    'claude-opus-4-8': p(5, 25, 0.5, 6.25),
    'claude-opus-5': p(5, 25, 0.5, 6.25),
    'claude-opus-5-5': p(4, 20, 0.2, 5),
    'claude-fable-5': p(10, 50, 1, 12.5),
    'claude-fable-5-1': p(10, 50, 0.25, 12.5),
    'claude-fable-5-2': p(8, 40, 0.2, 10),
    'claude-mythos-5': p(10, 50, 1, 12.5),
    'claude-mythos-5-1': p(10, 50, 0.25, 12.5),
    'claude-mythos-5-2': p(8, 40, 0.2, 10),
    // OpenAI
    'gpt-5': p(1.25, 10, 0.125),
    'gpt-5-codex': p(1.25, 10, 0.125),
    'gpt-5-mini': p(0.25, 2, 0.025),
    'gpt-5-nano': p(0.05, 0.4, 0.005),
    'gpt-5.1': p(1.25, 10, 0.125),
    'gpt-5.1-codex': p(1.25, 10, 0.125),
    'gpt-5.1-codex-max': p(1.25, 10, 0.125),
    'gpt-5.1-codex-mini': p(0.25, 2, 0.025),
    'gpt-5.2': p(1.75, 14, 0.175),
    'gpt-5.2-codex': p(1.75, 14, 0.175),
    'gpt-5.3-codex': p(1.75, 14, 0.175),
    'gpt-5.4': p(2.5, 15, 0.25),
    'gpt-5.4-mini': p(0.75, 4.5, 0.075),
    'gpt-5.4-nano': p(0.2, 1.25, 0.02),
    'gpt-5.5': p(5, 30, 0.5),
    'gpt-5.6-luna': p(0.2, 1.2, 0.02, 0.25),
    'gpt-5.6-sol': p(5, 30, 0.5, 6.25),
    'gpt-5.6-terra': p(2, 12, 0.2, 2.5),
    // Google
    'gemini-2.5-pro': p(1.25, 10, 0.125),
    'gemini-2.5-flash': p(0.3, 2.5, 0.03),
    'gemini-2.5-flash-lite': p(0.1, 0.4, 0.01),
    'gemini-3-pro-preview': p(2, 12, 0.2),
    'gemini-3.1-pro-preview': p(2, 12, 0.2),
    'gemini-3-flash-preview': p(0.5, 3, 0.05),
    'gemini-3.5-flash': p(1.5, 9, 0.15),
};
/** USD for one sample at a price (tokens not split into input and output: no cost). */
function costOf(sample, price) {
    if ((sample.unsplit_tokens ?? 0) > 0)
        return null;
    const cached = sample.cached_input_tokens;
    const written = sample.cache_write_input_tokens ?? 0;
    const plain = Math.max(0, sample.input_tokens - cached - written);
    const usd = plain * price.input +
        cached * (price.cached_input ?? price.input) +
        written * (price.cache_write ?? price.input) +
        sample.output_tokens * price.output;
    return usd / 1_000_000;
}
/**
 * The session's Pricer: proctor.yml's `pricing` first (the user's word), then what the agent CLI said its
 * usage cost (Claude Code prices from its own catalog, cache writes and long prompts included), then the
 * built-in table; null when none knows the model.
 */
function pricerFor(config) {
    const overrides = config.pricing ?? {};
    return (sample) => {
        const override = lookup(baseId(sample.model), overrides) ?? lookup(sample.model.toLowerCase(), overrides);
        if (override)
            return costOf(sample, override);
        if (sample.reported_cost_usd !== undefined && Number.isFinite(sample.reported_cost_usd))
            return sample.reported_cost_usd;
        const builtIn = BUILT_IN_PRICES[undated(baseId(sample.model))];
        return builtIn ? costOf(sample, builtIn) : null;
    };
}
/** The id without a provider or path prefix ("models/gemini-2.5-pro", "openai/gpt-5"), lower-cased. */
function baseId(model) {
    return (model.split('/').pop() ?? model).trim().toLowerCase();
}
/** A dated snapshot's base id: "-20250929" or "-2025-08-07" at the end removed. */
function undated(id) {
    return id.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, '');
}
function lookup(id, overrides) {
    let best = null;
    for (const [pattern, price] of Object.entries(overrides)) {
        const key = pattern.toLowerCase();
        if (key === id)
            return price;
        if (!key.includes('*') || !globMatches(key, id))
            continue;
        // The most specific glob wins: the one with the most characters that are not wildcards.
        if (!best || key.replace(/\*/g, '').length > best.pattern.replace(/\*/g, '').length)
            best = { pattern: key, price };
    }
    return best?.price ?? null;
}
function globMatches(pattern, text) {
    const parts = pattern.split('*');
    const first = parts[0];
    const last = parts[parts.length - 1];
    if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last))
        return false;
    let at = first.length;
    for (const part of parts.slice(1, -1)) {
        const found = text.indexOf(part, at);
        if (found === -1 || found + part.length > text.length - last.length)
            return false;
        at = found + part.length;
    }
    return true;
}

// Accumulates what happens during a session into the one SessionReport. The session owns one builder;
// sinks (terminal, files, GitHub) only ever see snapshots from `snapshot()`.
const MAX_EVENTS = 5_000;
class ReportBuilder {
    start;
    startedAtMs;
    events = [];
    droppedEvents = 0;
    checkpoints = [];
    baselineRecord;
    violations = [];
    stopHooks = [];
    rounds = 0;
    agentExit = null;
    pushed = null;
    agentSessionId = null;
    agentJobClaim = null;
    end = null;
    endedAtMs = null;
    /** Sees every event as it is recorded (a live log); a throwing listener cannot break the report. */
    onEvent = null;
    /** The session's one usage tally: the proxy and the CLI-output readers add to it, the report reads it. */
    usage;
    constructor(start) {
        this.start = start;
        this.startedAtMs = start.startedAt?.getTime() ?? Date.now();
        this.usage = start.meter ?? new UsageMeter();
    }
    get sessionId() {
        return this.start.sessionId;
    }
    elapsed() {
        return Date.now() - this.startedAtMs;
    }
    event(kind, message, extra = {}) {
        // The agent's own exit, kept apart from the events so that an event flood cannot drop it.
        if (kind === 'exit' && extra.data) {
            const { exit_code: code, signal } = extra.data;
            this.agentExit = {
                exit_code: typeof code === 'number' ? code : null,
                signal: typeof signal === 'string' ? signal : null,
            };
        }
        // A runaway detector must not grow the report without bound; the count of what was dropped stays visible.
        if (this.events.length >= MAX_EVENTS) {
            this.droppedEvents++;
            return;
        }
        const event = { at: this.elapsed(), kind, message, ...extra };
        this.events.push(event);
        try {
            this.onEvent?.(event);
        }
        catch {
            // A live log is a sink: it must not change what the report records.
        }
    }
    /**
     * Events another process recorded, at their own times (the agent job's, in the jobs that judge its
     * handoff): as they are, after the ones already recorded; that process capped them.
     */
    recorded(events) {
        this.events.push(...events);
    }
    checkpoint(record) {
        this.checkpoints.push(record);
    }
    baseline(record) {
        this.baselineRecord = record;
    }
    violation(...items) {
        this.violations.push(...items);
    }
    stopHook(result) {
        this.stopHooks.push(result);
    }
    round(n) {
        this.rounds = n;
    }
    /** The agent CLI's own session id (the last one its Stop hook named). */
    agentSession(id) {
        this.agentSessionId = id;
    }
    get lastAgentSession() {
        return this.agentSessionId;
    }
    /** What the agent job said about its own session, in a job that judged its handoff (shown, never a verdict). */
    agentJob(claim) {
        this.agentJobClaim = claim;
    }
    push(record) {
        this.pushed = record;
    }
    finish(end) {
        if (this.end)
            return;
        this.end = end;
        this.endedAtMs = Date.now();
    }
    snapshot() {
        const endedAt = this.endedAtMs ?? Date.now();
        const end = this.end;
        const events = this.droppedEvents
            ? [
                ...this.events,
                {
                    at: endedAt - this.startedAtMs,
                    kind: 'warning',
                    message: `${this.droppedEvents} more events were not recorded (limit ${MAX_EVENTS})`,
                },
            ]
            : [...this.events];
        const usage = usageReport(this.usage.samples(), this.start.pricer ?? pricerFor({}));
        return {
            schema: REPORT_SCHEMA_VERSION,
            session_id: this.start.sessionId,
            status: end?.status ?? 'errored',
            verdict: end?.verdict ?? 'block',
            exit_code: end?.exitCode ?? 1,
            signal: end?.signal ?? null,
            agent: this.agentExit ? { ...this.agentExit } : null,
            reason: end ? end.reason : 'session still running',
            ...(end?.cause ? { cause: end.cause } : {}),
            started_at: new Date(this.startedAtMs).toISOString(),
            ended_at: new Date(endedAt).toISOString(),
            duration_ms: endedAt - this.startedAtMs,
            command: this.start.command,
            cwd: this.start.cwd,
            mode: this.start.mode,
            events,
            checkpoints: [...this.checkpoints],
            ...(this.baselineRecord ? { baseline: { ...this.baselineRecord } } : {}),
            violations: [...this.violations],
            stop_hooks: [...this.stopHooks],
            rounds: this.rounds,
            pushed: this.pushed,
            transcript: {
                path: this.start.transcriptPath,
                bytes: end?.transcript.bytes ?? 0,
                capped: end?.transcript.capped ?? false,
            },
            output_tail: end?.outputTail ?? '',
            ...(this.agentSessionId ? { agent_session_id: this.agentSessionId } : {}),
            ...(this.start.ci ? { ci: this.start.ci } : {}),
            ...(this.agentJobClaim ? { agent_job: this.agentJobClaim } : {}),
            ...(usage ? { usage } : {}),
        };
    }
}

// Session ids name the checkpoint ref and branch, so they must be valid in a git ref and unique per run.
// In GitHub Actions they carry run id, attempt and job so re-runs and matrix jobs never collide.
function makeSessionId(env = process.env, now = new Date()) {
    const explicit = env.PROCTOR_SESSION_ID?.trim();
    if (explicit)
        return sanitizeRefPart(explicit);
    if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_RUN_ID) {
        const parts = [env.GITHUB_RUN_ID, env.GITHUB_RUN_ATTEMPT ?? '1', env.GITHUB_JOB ?? 'job'];
        if (env.PROCTOR_MATRIX_KEY)
            parts.push(env.PROCTOR_MATRIX_KEY);
        return sanitizeRefPart(parts.join('-'));
    }
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return `${stamp}-${randomHex(3)}`;
}
/** Keeps what `git check-ref-format` accepts in one component. */
function sanitizeRefPart(value) {
    const cleaned = value
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/\.{2,}/g, '.')
        .replace(/^[.-]+|[.-]+$/g, '')
        .replace(/\.lock$/i, '-lock')
        .slice(0, 100);
    return cleaned || 'session';
}

// Files git opens as it reads the worktree (ignore and attribute files) that would block it: git opens
// them without O_NONBLOCK, so a FIFO the agent plants there (`mkfifo .gitignore`) holds git in open()
// until somebody writes to it, which nobody does. Checked before each checkpoint where it is cheap (a few
// lstat calls: the usual places and the ones the tree watcher saw created), and looked for in the whole
// tree after a git call timed out (git/deadline.ts), so the failure names the file and the fix.
/** Names git opens in every directory it walks. */
const READ_IN_EVERY_DIRECTORY = new Set(['.gitignore', '.gitattributes']);
/** The walk after a timeout stops after this many entries (about a second on a slow disk). */
const SCAN_LIMIT = 200_000;
/** Whether git opens `rel` (a POSIX path relative to the root) as it walks the worktree. */
function isReadByGit(rel) {
    return READ_IN_EVERY_DIRECTORY.has(path.posix.basename(rel));
}
/** "a FIFO (named pipe) at sub/.gitignore blocks git, which opens it to read it; remove it" */
function describeBlocker(blocker) {
    return `${blocker.kind} at ${blocker.path} blocks git, which opens it to read it; remove it`;
}
/**
 * The first of the usual places (the root's ignore and attribute files, .proctor/.gitignore, the git
 * dir's info/exclude and info/attributes) and `candidates` that would block git; null when none does.
 */
function findBlocker(root, candidates = []) {
    for (const rel of ['.gitignore', '.gitattributes', '.proctor/.gitignore', ...candidates]) {
        // In the worktree git does not follow a symlinked .gitignore or .gitattributes (it opens them with
        // O_NOFOLLOW), so lstat is what it sees.
        const kind = blockingKind(() => fs__default.lstatSync(path.join(root, rel)));
        if (kind)
            return { path: rel, kind };
    }
    const dirs = readGitDirs(root);
    for (const dir of dirs ? new Set([dirs.gitDir, dirs.commonDir]) : []) {
        for (const name of ['info/exclude', 'info/attributes']) {
            const file = path.join(dir, name);
            const kind = blockingKind(() => fs__default.statSync(file));
            if (kind)
                return { path: file, kind };
        }
    }
    return null;
}
/**
 * findBlocker, then a walk of the whole worktree (outside .git) for an ignore or attribute file that would
 * block git: after a git call timed out, to say why. Directory entries carry their type, so the walk
 * reads directories and stats nothing.
 */
function scanForBlocker(root, candidates = []) {
    const usual = findBlocker(root, candidates);
    if (usual)
        return usual;
    const pending = [''];
    let seen = 0;
    while (pending.length > 0 && seen < SCAN_LIMIT) {
        const dir = pending.pop();
        let entries;
        try {
            entries = fs__default.readdirSync(path.join(root, dir), { withFileTypes: true });
        }
        catch {
            continue;
        }
        for (const entry of entries) {
            seen++;
            const rel = dir ? `${dir}/${entry.name}` : entry.name;
            if (entry.isDirectory()) {
                if (entry.name !== '.git')
                    pending.push(rel);
            }
            else if (READ_IN_EVERY_DIRECTORY.has(entry.name) && !entry.isFile() && !entry.isSymbolicLink()) {
                const kind = blockingKind(() => fs__default.lstatSync(path.join(root, rel)));
                if (kind)
                    return { path: rel, kind };
            }
        }
    }
    return null;
}
/** What blocks an open() for reading (a FIFO, a device), in words; null for anything else or nothing. */
function blockingKind(stat) {
    let stats;
    try {
        stats = stat();
    }
    catch {
        return null;
    }
    return stats.isFIFO() || stats.isCharacterDevice() || stats.isBlockDevice() ? describeKind(stats) : null;
}

export { ReportBuilder as R, agentEnvironment as a, sanitizeRefPart as b, withholdSecrets as c, describeBlocker as d, withholdVariables as e, findBlocker as f, isReadByGit as i, makeSessionId as m, pricerFor as p, scanForBlocker as s, withSecretsInEnv as w };
