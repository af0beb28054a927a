import { R as REPORT_SCHEMA_VERSION } from './words-CtdohSJZ.js';
import { c as randomHex, O as readGitDirs, P as describeKind } from './checkpoints-create-C5yHKgfN.js';
const fs__default = process.getBuiltinModule("node:fs"); const { readFileSync, openSync, readSync, writeSync, closeSync } = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");

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
    end = null;
    endedAtMs = null;
    /** Sees every event as it is recorded (a live log); a throwing listener cannot break the report. */
    onEvent = null;
    constructor(start) {
        this.start = start;
        this.startedAtMs = start.startedAt?.getTime() ?? Date.now();
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
        return {
            schema: REPORT_SCHEMA_VERSION,
            session_id: this.start.sessionId,
            status: end?.status ?? 'errored',
            verdict: end?.verdict ?? 'block',
            exit_code: end?.exitCode ?? 1,
            signal: end?.signal ?? null,
            agent: this.agentExit ? { ...this.agentExit } : null,
            reason: end ? end.reason : 'session still running',
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
            ...(this.start.ci ? { ci: this.start.ci } : {}),
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
    const result = scrubStartupEnvironment();
    return { values, scrubbed: result === null, problem: result };
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
 * Overwrites the withheld `NAME=value` entries of the start-up environment block with NUL bytes, through
 * /proc/self/mem (a process may always write its own memory). Returns null on success, else why not.
 * process.env no longer points into those bytes once the variables were deleted (unsetenv).
 */
function scrubStartupEnvironment() {
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
            if (isRunnerSecret(name)) {
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

export { ReportBuilder as R, scanForBlocker as a, agentEnvironment as b, withholdSecrets as c, describeBlocker as d, findBlocker as f, isReadByGit as i, makeSessionId as m, sanitizeRefPart as s, withSecretsInEnv as w };
