const fs__default = process.getBuiltinModule("node:fs"); const { openSync, readSync, closeSync, mkdirSync, existsSync, lstatSync, readlinkSync, statSync, readdirSync, readFileSync } = process.getBuiltinModule("node:fs");
import { ConfigError } from './errors-lvn-GX78.js';
const path = process.getBuiltinModule("node:path"); const { join, dirname, basename, resolve, relative } = process.getBuiltinModule("node:path");
const os = process.getBuiltinModule("node:os"); const { constants, hostname } = process.getBuiltinModule("node:os");
const { spawnSync, spawn } = process.getBuiltinModule("node:child_process");
import { CliExit, ExitCode, exitCodeOf } from './exit-DPvLwpPv.js';

// Random hex for ids and tokens (some are secrets: the redacting writer's stop token, a run's token), from the
// system's CSPRNG. Read from /dev/urandom where there is one rather than through node:crypto: loading crypto
// (and, imported as an ES module, building its namespace) was ~5 ms of CPU before every agent's spawn, and
// nothing else proctor does before it needs crypto.
/** `bytes` random bytes as lower-case hex. */
function randomHex(bytes) {
    return randomBytes(bytes).toString('hex');
}
function randomBytes(bytes) {
    const out = Buffer.alloc(bytes);
    try {
        const fd = openSync('/dev/urandom', 'r');
        try {
            let read = 0;
            while (read < bytes) {
                const n = readSync(fd, out, read, bytes - read, null);
                if (n <= 0)
                    throw new Error('short read');
                read += n;
            }
            return out;
        }
        finally {
            closeSync(fd);
        }
    }
    catch {
        // No /dev/urandom (Windows): the same CSPRNG through crypto.
        return process.getBuiltinModule('node:crypto').randomBytes(bytes);
    }
}

// Files in places the agent can write (.proctor/, the repository's proctor.yml): opened so that nothing
// there can block proctor or redirect its writes. A FIFO blocks a plain open() until somebody opens the
// other end (forever, if the agent never does), a symlink sends a write wherever the agent likes, and
// /dev/zero never ends a read. So: every open is non-blocking and followed by fstat (a regular file or
// an error naming the path), writes go to a fresh exclusive temp file renamed over the target (rename
// replaces a FIFO or a symlink itself, never what it points to), and reads are capped.
const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY } = fs__default.constants;
/** A file proctor could not read or write, with the path and what to do in the message. */
class FileError extends Error {
    path;
    code;
    constructor(path, message, code) {
        super(message);
        this.path = path;
        this.code = code;
        this.name = 'FileError';
    }
}
/** What a path is, in words, for messages ("a FIFO", "a directory"). */
function describeKind(stats) {
    if (stats.isFile())
        return 'a regular file';
    if (stats.isDirectory())
        return 'a directory';
    if (stats.isFIFO())
        return 'a FIFO (named pipe)';
    if (stats.isSymbolicLink())
        return 'a symbolic link';
    if (stats.isCharacterDevice())
        return 'a character device';
    if (stats.isBlockDevice())
        return 'a block device';
    if (stats.isSocket())
        return 'a socket';
    return 'not a regular file';
}
/** The one-line reason for an fs error: "no space left on device (ENOSPC)" rather than a stack. */
function describeFsError(error) {
    const e = error;
    const words = {
        ENOSPC: 'no space left on device',
        EDQUOT: 'disk quota exceeded',
        EACCES: 'permission denied',
        EPERM: 'operation not permitted',
        EROFS: 'read-only file system',
        ENOENT: 'no such file or directory',
        ELOOP: 'too many levels of symbolic links (a symlink loop, or a symlink where none is allowed)',
        EISDIR: 'is a directory',
        ENOTDIR: 'a parent is not a directory',
        ENXIO: 'a FIFO with no reader',
        EIO: 'input/output error',
    };
    if (e?.code && words[e.code])
        return `${words[e.code]} (${e.code})`;
    return (e?.message ?? String(error)).split('\n')[0];
}
/**
 * Reads `path` (symlinks followed: a proctor.yml may be a link) without blocking on a FIFO or device and
 * without reading more than `maxBytes`. Throws FileError when it is missing, not a regular file, too
 * large or unreadable.
 */
function readRegularFile(path, maxBytes) {
    let fd;
    try {
        fd = fs__default.openSync(path, O_RDONLY | O_NONBLOCK);
    }
    catch (error) {
        throw new FileError(path, `cannot open ${path}: ${describeFsError(error)}`, error.code);
    }
    try {
        const stats = fs__default.fstatSync(fd);
        if (!stats.isFile())
            throw new FileError(path, `${path} is ${describeKind(stats)}, not a regular file`);
        if (stats.size > maxBytes)
            throw new FileError(path, `${path} is ${stats.size} bytes, more than the ${maxBytes} proctor reads`);
        // Read up to one byte past the cap: a file that grows while it is read is still refused. The buffer
        // starts at the file's size (a cap may be large: an index), growing only if the file does.
        let buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1);
        let length = 0;
        for (;;) {
            if (length === buffer.length) {
                const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
                buffer.copy(larger, 0, 0, length);
                buffer = larger;
            }
            const n = fs__default.readSync(fd, buffer, length, buffer.length - length, null);
            if (n === 0)
                break;
            length += n;
            if (length > maxBytes)
                throw new FileError(path, `${path} is more than the ${maxBytes} bytes proctor reads`);
        }
        return buffer.subarray(0, length);
    }
    catch (error) {
        if (error instanceof FileError)
            throw error;
        throw new FileError(path, `cannot read ${path}: ${describeFsError(error)}`, error.code);
    }
    finally {
        fs__default.closeSync(fd);
    }
}
/**
 * Replaces `path` with `data` atomically: a fresh temp file beside it (O_EXCL, random name: nothing the
 * agent planted is opened), then rename over the target, which replaces a FIFO or a symlink there instead
 * of opening it. A reader sees the old file or the whole new one, never a torn or empty one. On failure
 * (a full disk) the temp file is removed and a FileError names the path and the reason.
 */
function writeFileAtomic(path, data, mode = 0o644) {
    const temp = join(dirname(path), `.${basename(path)}.${randomHex(6)}.tmp`);
    let fd = null;
    try {
        fd = fs__default.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, mode);
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        let offset = 0;
        while (offset < bytes.length)
            offset += fs__default.writeSync(fd, bytes, offset, bytes.length - offset);
        fs__default.closeSync(fd);
        fd = null;
        fs__default.renameSync(temp, path);
    }
    catch (error) {
        if (fd !== null)
            fs__default.closeSync(fd);
        fs__default.rmSync(temp, { force: true });
        throw new FileError(path, `cannot write ${path}: ${describeFsError(error)}`, error.code);
    }
}
/**
 * Opens `path` for appending (created if missing; emptied first with `truncate`) without following a
 * symlink and without blocking on a FIFO; anything there that is not a regular file is replaced by an
 * empty one first. Returns the fd.
 */
function openAppendRegular(path, opts = {}) {
    const flags = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | (opts.truncate ? O_TRUNC : 0);
    let stats = null;
    try {
        stats = fs__default.lstatSync(path);
    }
    catch {
        // Nothing there yet.
    }
    if (stats && !stats.isFile())
        writeFileAtomic(path, '');
    let fd;
    try {
        fd = fs__default.openSync(path, flags, 0o644);
    }
    catch (error) {
        throw new FileError(path, `cannot open ${path}: ${describeFsError(error)}`, error.code);
    }
    // Swapped between the lstat and the open: refuse rather than write into whatever it is.
    const opened = fs__default.fstatSync(fd);
    if (!opened.isFile()) {
        fs__default.closeSync(fd);
        throw new FileError(path, `${path} is ${describeKind(opened)}, not a regular file`);
    }
    return fd;
}

// Durations ("500ms", "30s", "10m", "1h", "1h30m") and sizes ("512", "5MiB", "1.5MB") as users write them.
const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
/** Parses a duration into milliseconds; a bare number is seconds. Returns an error message on failure. */
function parseDuration(input) {
    if (typeof input === 'number') {
        return Number.isFinite(input) && input >= 0
            ? Math.round(input * 1000)
            : `expected a non-negative duration, got ${input}`;
    }
    const text = input.trim();
    if (/^\d+(\.\d+)?$/.test(text))
        return Math.round(Number(text) * 1000);
    let total = 0;
    DURATION_PART.lastIndex = 0;
    let consumed = 0;
    while (consumed < text.length) {
        DURATION_PART.lastIndex = consumed;
        const m = DURATION_PART.exec(text);
        if (!m)
            return `"${input}" is not a duration; write it like 500ms, 30s, 10m, 1h or 1h30m`;
        total += Number(m[1]) * DURATION_UNITS[m[2]];
        consumed = DURATION_PART.lastIndex;
    }
    if (text.length === 0)
        return 'expected a duration like 30s or 10m, got an empty string';
    return Math.round(total);
}
const SIZE_UNITS = {
    b: 1,
    kb: 1000,
    mb: 1000 ** 2,
    gb: 1000 ** 3,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
    k: 1024,
    m: 1024 ** 2,
    g: 1024 ** 3,
};
/** Parses a size into bytes; a bare number is bytes. Returns an error message on failure. */
function parseSize(input) {
    if (typeof input === 'number') {
        return Number.isFinite(input) && input >= 0
            ? Math.floor(input)
            : `expected a non-negative size, got ${input}`;
    }
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(input);
    const unit = m ? (m[2] ?? '').toLowerCase() || 'b' : '';
    if (!m || !(unit in SIZE_UNITS)) {
        return `"${input}" is not a size; write it like 512KiB, 5MiB or 1GB (KiB/MiB/GiB are powers of 1024)`;
    }
    return Math.floor(Number(m[1]) * SIZE_UNITS[unit]);
}
function formatDuration(ms) {
    if (ms < 1000)
        return `${Math.round(ms)}ms`;
    if (ms < 60_000)
        return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
    const m = Math.floor(ms / 60_000);
    const s = Math.round((ms % 60_000) / 1000);
    if (m < 60)
        return s ? `${m}m${s}s` : `${m}m`;
    const h = Math.floor(m / 60);
    return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
}
function formatSize(bytes) {
    if (bytes < 1024)
        return `${bytes} B`;
    if (bytes < 1024 ** 2)
        return `${(bytes / 1024).toFixed(1)} KiB`;
    if (bytes < 1024 ** 3)
        return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
    return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** How a stop hook ended, in one word. */
function hookWord(result) {
    if (result.timed_out)
        return 'timed out';
    return HOOK_WORDS[result.verdict];
}
const HOOK_WORDS = {
    allow: 'passed',
    block: 'blocked',
    error: 'hook error',
};
/** The icon beside a hook word where markdown renders it (comment, job summary). */
const HOOK_ICON = {
    passed: '✅',
    blocked: '❌',
    'hook error': '⚠️',
    'timed out': '⏱️',
};
/**
 * The icon of a violation's severity wherever markdown shows one (a table row, a checkpoint's count): the
 * same as a blocked hook's for an error, since an error-level violation blocks like one.
 */
const SEVERITY_ICON = {
    info: 'ℹ️',
    warning: '⚠️',
    error: '❌',
    critical: '🛑',
};
const SEVERITY_RANK = ['info', 'warning', 'error', 'critical'];
/** The worst of some severities (a checkpoint's violations), or undefined for none. */
function worstSeverity(severities) {
    let worst;
    for (const s of severities)
        if (worst === undefined || SEVERITY_RANK.indexOf(s) > SEVERITY_RANK.indexOf(worst))
            worst = s;
    return worst;
}
/**
 * The part of a failed hook's reason that says what failed: its lines up to the first blank line (the
 * failure lines src/hooks/verdict.ts puts first), without the "End of its output" tail the check run keeps.
 */
function reasonHead(text) {
    return text.split(/\n[ \t]*\n/, 1)[0].trim();
}
/** The first line of a reason that says something, trimmed; undefined when there is none. */
function firstLine(text) {
    return text
        ?.split('\n')
        .find((line) => line.trim())
        ?.trim();
}
/**
 * What the worktree already held when the session started, never the agent's (report.baseline): "3 files
 * were already changed before the session; not judged".
 */
function describePreExisting(count) {
    return `${count} file${count === 1 ? ' was' : 's were'} already changed before the session; not judged`;
}
/**
 * A session's or batch's model usage in one line, the same in every rendering: "12.3k tokens in (8.0k
 * cached) · 1.1k out · ≈ $0.04 (estimate)"; "cost unknown" when a model has no price; undefined when no usage
 * is known.
 */
function describeUsage(usage) {
    if (!usage || usage.tokens === 0)
        return undefined;
    const split = usage.input_tokens + usage.output_tokens;
    const unsplit = usage.tokens - split;
    const parts = [];
    if (split > 0) {
        const cached = usage.cached_input_tokens ? ` (${formatTokens(usage.cached_input_tokens)} cached)` : '';
        parts.push(`${formatTokens(usage.input_tokens)} tokens in${cached}`, `${formatTokens(usage.output_tokens)} out`);
    }
    // Codex's "tokens used N" does not say which were input and which output.
    if (unsplit > 0)
        parts.push(`${formatTokens(unsplit)} ${split > 0 ? 'more ' : ''}tokens (in and out not told apart)`);
    parts.push(usage.cost_usd === null ? 'cost unknown' : `≈ ${formatUsd(usage.cost_usd)} (estimate)`);
    return parts.join(' · ');
}
/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.50M". */
function formatTokens(n) {
    if (n < 1000)
        return String(n);
    if (n < 1_000_000)
        return `${(n / 1000).toFixed(1)}k`;
    return `${(n / 1_000_000).toFixed(2)}M`;
}
/** $12.34, $0.04; below a cent two significant digits ($0.0014), below a hundredth of a cent "< $0.0001". */
function formatUsd(usd) {
    if (usd === 0)
        return '$0.00';
    if (usd >= 0.01)
        return `$${usd.toFixed(2)}`;
    if (usd < 0.0001)
        return '< $0.0001';
    return `$${Number(usd.toPrecision(2))}`;
}
/** Why a file was left out of a checkpoint, in the words every rendering uses (CheckpointRecord.skipped_reasons). */
function skipReasonWord(reason) {
    switch (reason) {
        case 'size':
            return 'over max_file_size';
        case 'lfs':
            return 'LFS-tracked';
        case 'forbidden':
            return 'forbidden area';
        case 'secret':
            return 'holds a secret';
        case 'unrecordable':
            return 'git could not record it';
        default:
            return reason;
    }
}

// Where things are: the repository root, and proctor's own state in `.proctor/` at that root. This module
// is the one place that knows the layout; everything else asks it for a path. `.proctor/` holds a
// `.gitignore` of `*` (as pytest does for its cache) so the state never shows in `git status` and never
// enters a checkpoint. See docs/architecture.md ("State on disk").
/** The name of proctor's state directory at the repository root (and what checkpoints never include). */
const STATE_DIR_NAME = '.proctor';
/**
 * The nearest directory at or above `cwd` that holds `.git` (a directory, or a file in worktrees and
 * submodules). Found with fs, not git, so it works before git is even looked at.
 */
function findRepoRoot(cwd) {
    let dir = resolve(cwd);
    for (;;) {
        if (existsSync(join(dir, '.git')))
            return dir;
        const parent = dirname(dir);
        if (parent === dir)
            return null;
        dir = parent;
    }
}
/** Creates (idempotently) `.proctor/` with its `.gitignore`, under the repo root or `base` outside a repo. */
function ensureStateDir(base) {
    const root = findRepoRoot(base) ?? resolve(base);
    const state = join(root, STATE_DIR_NAME);
    mkdirSync(join(state, 'sessions'), { recursive: true });
    mkdirSync(join(state, 'runs'), { recursive: true });
    const ignore = join(state, '.gitignore');
    // lstat: a FIFO or symlink the agent put there is replaced (writeFileAtomic), never opened or followed.
    if (!isNonEmptyFile(ignore))
        writeFileAtomic(ignore, '# proctor state: never tracked\n*\n');
    return { root, state, sessions: join(state, 'sessions'), runs: join(state, 'runs') };
}
function sessionDir(dirs, sessionId) {
    const dir = join(dirs.sessions, sessionId);
    mkdirSync(dir, { recursive: true });
    return dir;
}
/** `.proctor/sessions` under a repository root (nothing is created). */
function sessionsPath(root) {
    return join(root, STATE_DIR_NAME, 'sessions');
}
/** `.proctor/sessions/<id>` under a repository root (nothing is created). */
function sessionPath(root, sessionId) {
    return join(sessionsPath(root), sessionId);
}
/** `.proctor/worktrees`: where batches keep their git worktrees (nothing is created). */
function worktreesPath(root) {
    return join(root, STATE_DIR_NAME, 'worktrees');
}
/**
 * A folder under `.proctor/` for state that is not a session's (native adapters' rounds), created the one
 * way the session creates `.proctor/` (with its `.gitignore` of `*`).
 */
async function proctorStateDir(cwd, ...sub) {
    const dir = join(ensureStateDir(cwd).state, ...sub);
    // fs.promises read when called, not imported: loading node:fs/promises (and the readline it loads) is
    // a cost every command importing this module would pay, `checkpoints create` included.
    await fs__default.promises.mkdir(dir, { recursive: true });
    return dir;
}
function isNonEmptyFile(path) {
    try {
        const stats = lstatSync(path);
        return stats.isFile() && stats.size > 0;
    }
    catch {
        return false;
    }
}

var layout = /*#__PURE__*/Object.freeze({
    __proto__: null,
    STATE_DIR_NAME: STATE_DIR_NAME,
    ensureStateDir: ensureStateDir,
    findRepoRoot: findRepoRoot,
    proctorStateDir: proctorStateDir,
    sessionDir: sessionDir,
    sessionPath: sessionPath,
    sessionsPath: sessionsPath,
    worktreesPath: worktreesPath
});

// Where a project's tests and test-runner configs live, by default (`policy.tests`): the one copy, which
// defaults.ts holds and the schema takes from there. The tests_weakened constraint
// (src/policy/tests-weakened/) judges the files these globs match.
const TEST_LANGUAGES = ['javascript', 'python', 'go', 'rust', 'java'];
const JS = '{js,jsx,ts,tsx,mjs,cjs,mts,cts}';
const TEST_FILE_DEFAULTS = {
    javascript: [
        `**/*.{test,spec}.${JS}`,
        `**/__tests__/**/*.${JS}`,
        `**/test/**/*.${JS}`,
        `**/tests/**/*.${JS}`,
    ],
    python: ['**/test_*.py', '**/*_test.py', '**/tests/**/*.py', '**/test/**/*.py'],
    go: ['**/*_test.go'],
    // Rust's unit tests live beside the code (`#[cfg(test)] mod tests`): a .rs file is judged only when one
    // of its versions holds a test attribute.
    rust: ['**/*.rs'],
    java: ['**/src/test/**/*.java', '**/*Test.java', '**/*Tests.java', '**/*IT.java'],
    configs: [
        '**/vitest.config.*',
        '**/vitest.workspace.*',
        '**/vite.config.*',
        '**/jest.config.*',
        '**/.mocharc*',
        '**/karma.conf.*',
        '**/playwright.config.*',
        '**/.c8rc*',
        '**/.nycrc*',
        '**/package.json',
        '**/pytest.ini',
        '**/conftest.py',
        '**/.coveragerc',
        '**/pyproject.toml',
        '**/setup.cfg',
        '**/tox.ini',
        '**/codecov.yml',
        '**/.codecov.yml',
        '**/.config/nextest.toml',
        '**/tarpaulin.toml',
        '**/.tarpaulin.toml',
        '**/pom.xml',
        '**/build.gradle',
        '**/build.gradle.kts',
    ],
};
/** A fresh copy (sessions may change their config's lists). */
function testFileDefaults() {
    return Object.fromEntries(Object.entries(TEST_FILE_DEFAULTS).map(([k, v]) => [k, [...v]]));
}

const DEFAULTS = {
    agent: {
        pty: true,
        adapter: 'generic',
        env: {},
        env_passthrough: [],
        cols: 120,
        rows: 40,
        typing: { paste: 'auto', submit_delay: 50, confirm_timeout: 5000, submit_attempts: 3 },
    },
    timeouts: { total: 1800000, idle: 600000, grace: 5000 },
    output: { transcript_max: 67108864, passthrough: true },
    detect: [],
    detect_presets: [],
    checkpoints: {
        enabled: true,
        branch: 'proctor/{session}',
        interval: 30000,
        max_changes: 50,
        min_interval: 5000,
        push: 'auto',
        remote: 'origin',
        push_timeout: 60000,
        max_file_size: 5242880,
        pause_agent: true,
        on_events: ['completion'],
        push_on_pre_push: false,
        push_ci_changes: false,
        max_failures: 3,
    },
    policy: {
        allowed_areas: [],
        forbidden_areas: [],
        protected_areas: [],
        secret_allowed_paths: [],
        violation_severity: 'warning',
        severities: {},
        revert_on_violation: false,
        allow_new_executables: true,
        git_tamper: 'undo',
        tests: testFileDefaults(),
    },
    stop_hooks: [],
    max_stop_rounds: 3,
    hooks: {},
    hooks_async_pool_size: 10,
    hooks_async_shutdown_grace: 5000,
    hooks_async_drain_timeout: 30000,
    pricing: {},
    batch: { concurrency: 4, keep_worktrees: false, tasks: [] },
    github: {
        comment: 'sticky',
        checks: true,
        key: '{workflow}/{job}',
        fail_on: 'block',
        publish: 'each',
        trigger: { phrase: ['@proctor', '/proctor'], label: 'proctor' },
    },
    model_api: { proxy: false, retries: 3 },
    budget: { warn_at: 0.8 },
};
/**
 * A fresh copy of the default at `path` (`['agent']`, `['agent', 'typing', 'paste']`): what schema.ts gives
 * for a key a file leaves out (typed there: this module's type comes from the schema). Fresh, since zod
 * copies an object default only one level deep and sessions change their lists.
 */
function defaultAt(path) {
    let value = DEFAULTS;
    for (const key of path) {
        if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key))
            throw new Error(`config/defaults.ts has no default for ${path.join('.')}`);
        value = value[key];
    }
    return typeof value === 'object' ? structuredClone(value) : value;
}
/** A fresh copy of the default config (callers may change theirs). */
function defaultConfig() {
    return structuredClone(DEFAULTS);
}

// Finds proctor.yml (repository root, or the current directory outside a repository) and loads it.
const CONFIG_FILE_NAMES = ['proctor.yml', 'proctor.yaml'];
/**
 * The config file proctor reads by default, or null if there is none. A name that exists in any form
 * (a dangling symlink, a directory, a FIFO) is the user's config: it is returned, and reading it says
 * what is wrong with it, rather than proctor quietly running on the defaults.
 */
function findConfigFile(cwd) {
    const dir = findRepoRoot(cwd) ?? resolve(cwd);
    const found = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => exists(file));
    if (found.length > 1) {
        throw fileProblem(found[0], cwd, `both ${CONFIG_FILE_NAMES.join(' and ')} exist in ${dir}`, 'keep one of them');
    }
    return found[0] ?? null;
}
async function loadConfig(opts) {
    const file = opts.file !== undefined
        ? opts.bytes
            ? resolve(opts.cwd, opts.file)
            : explicitFile(opts.file, opts.cwd)
        : opts.skipSearch
            ? null
            : findConfigFile(opts.cwd);
    // The parser (yaml, zod) is loaded only when there is something to parse: without a file or a preset
    // the defaults need neither, and `proctor run` starts its agent that much sooner.
    if (file === null && !opts.preset?.preset) {
        return { config: defaultConfig(), file: null, source: 'defaults', warnings: [] };
    }
    const { readConfig, neededChecks, validateConfig } = await import('./parse-core-D3LlV8ZY.js');
    const hint = opts.file !== undefined
        ? 'give -c the path of a proctor.yml file'
        : 'make it a regular YAML file, or remove it to use the defaults';
    const text = file === null
        ? ''
        : opts.bytes
            ? configText$1(opts.bytes, file, opts.cwd)
            : readConfigText(file, opts.cwd, hint);
    const read = readConfig(text, file === null ? 'defaults' : displayName(file, opts.cwd));
    const checks = await loadChecks(neededChecks(read.raw, opts.preset));
    const { config, warnings } = validateConfig(read, checks, opts.preset);
    if (file === null)
        return { config, file: null, source: 'defaults', warnings: [] };
    return { config, file, source: 'file', warnings };
}
/**
 * The code the checks of this file need, and only that: the detector (with safe-regex2) for detect
 * rules, the policy compiler for a policy, the agent presets for a preset, the branch names for
 * checkpoints.branch, the area compiler for a hook's gate_files. A file without them loads none (`proctor checkpoints create` needs no detector).
 */
async function loadChecks(needed) {
    const [presets, regex, detect, policy, refs$1, areas] = await Promise.all([
        needed.preset ? import('./apply-CCjnMq1E.js') : undefined,
        needed.detect ? import('./regex-safety-BsAHGJak.js') : undefined,
        needed.detect ? import('./detect-BBMe2jVM.js') : undefined,
        needed.policy ? import('./evaluate-DoW4VY95.js').then(function (n) { return n.u; }) : undefined,
        needed.branch ? Promise.resolve().then(function () { return refs; }) : undefined,
        needed.gateFiles ? import('./areas-BPhpJk9z.js').then(function (n) { return n.a; }) : undefined,
    ]);
    return {
        applyAgentPreset: presets?.applyAgentPreset,
        catastrophicRegex: regex?.catastrophicRegex,
        compileRule: detect?.compileRule,
        DetectRuleError: detect?.DetectRuleError,
        checkPolicyConfig: policy?.checkPolicyConfig,
        remoteBranchFor: refs$1?.remoteBranchFor,
        compileAreas: areas?.compileAreas,
    };
}
function explicitFile(given, cwd) {
    const file = resolve(cwd, given);
    if (!exists(file)) {
        throw fileProblem(file, cwd, 'config file not found', 'check the path given with -c, or leave -c out to use proctor.yml at the repository root');
    }
    return file;
}
/** Generous for any real proctor.yml; a cap, so that /dev/zero or a huge file cannot stall a start. */
const MAX_CONFIG_BYTES = 1 << 20;
/**
 * The text of a config file: a readable regular file (a symlink to one is fine) of valid UTF-8, read
 * without blocking on a FIFO or device and capped at MAX_CONFIG_BYTES. Anything else is a ConfigError
 * naming the file (and, for bad UTF-8, the line, column and byte offset).
 */
function readConfigText(file, cwd, hint) {
    let bytes;
    try {
        bytes = readRegularFile(file, MAX_CONFIG_BYTES);
    }
    catch (error) {
        const dangling = error.code === 'ENOENT' ? danglingLink(file) : null;
        const reason = dangling ?? error.message.replace(file, 'the config file');
        throw fileProblem(file, cwd, reason, hint);
    }
    return configText$1(bytes, file, cwd);
}
/** Bytes of a config file as text: valid UTF-8 within MAX_CONFIG_BYTES, else a ConfigError naming the file. */
function configText$1(bytes, file, cwd) {
    if (bytes.length > MAX_CONFIG_BYTES)
        throw fileProblem(file, cwd, `larger than ${MAX_CONFIG_BYTES} bytes`, 'keep proctor.yml under 1 MiB');
    const bad = firstInvalidUtf8(bytes);
    if (bad === null)
        return bytes.toString('utf8');
    const before = bytes.subarray(0, bad).toString('utf8');
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    return failUtf8(file, cwd, line, col, bad, bytes[bad]);
}
function failUtf8(file, cwd, line, col, offset, byte) {
    throw new ConfigError([
        {
            file: displayName(file, cwd),
            line,
            col,
            path: '',
            message: `invalid UTF-8 at byte offset ${offset} (byte 0x${byte.toString(16).padStart(2, '0')})`,
            hint: 'save the file as UTF-8',
        },
    ]);
}
/** The offset of the first byte that does not decode as UTF-8, or null when all of it does. */
function firstInvalidUtf8(bytes) {
    const valid = (end) => {
        try {
            // stream: an incomplete sequence at `end` is held back, not an error; only a bad byte is.
            new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: true });
            return true;
        }
        catch {
            return false;
        }
    };
    try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return null;
    }
    catch {
        // The whole file fails: the shortest failing prefix ends just past the first bad byte.
    }
    let failing = bytes.length + 1; // cut short at the very end
    if (!valid(bytes.length)) {
        let lo = 0;
        let hi = bytes.length;
        while (lo + 1 < hi) {
            const mid = (lo + hi) >> 1;
            if (valid(mid))
                lo = mid;
            else
                hi = mid;
        }
        failing = hi;
    }
    // The decoder fails at the byte that breaks a sequence; report where that sequence began.
    if (failing > bytes.length)
        return sequenceStart(bytes, bytes.length - 1);
    const at = failing - 1;
    const byte = bytes[at];
    // A byte that is fine by itself failed: it cut the sequence before it short.
    if (at > 0 && (byte < 0x80 || (byte >= 0xc2 && byte <= 0xf4)))
        return sequenceStart(bytes, at - 1);
    return at;
}
/** Back from `from` over continuation bytes (10xxxxxx) to the byte that led them. */
function sequenceStart(bytes, from) {
    let i = from;
    while (i > 0 && (bytes[i] & 0xc0) === 0x80)
        i--;
    return i;
}
/** The name used in messages: relative to where the user stands, so it can be clicked or copied. */
function displayName(file, cwd) {
    const rel = relative(resolve(cwd), file);
    return rel === '' ? file : rel;
}
function fileProblem(file, cwd, message, hint) {
    return new ConfigError([{ file: displayName(file, cwd), line: 0, col: 0, path: '', message, hint }]);
}
/** "is a symbolic link to <target>, which does not exist" for a dangling link, else null. */
function danglingLink(file) {
    try {
        if (!lstatSync(file).isSymbolicLink() || existsSync(file))
            return null;
        return `the config file is a symbolic link to ${readlinkSync(file)}, which does not exist`;
    }
    catch {
        return null;
    }
}
/** Anything at all at `path`, a dangling or looping symlink included. */
function exists(path) {
    try {
        lstatSync(path);
        return true;
    }
    catch {
        return false;
    }
}

var load = /*#__PURE__*/Object.freeze({
    __proto__: null,
    CONFIG_FILE_NAMES: CONFIG_FILE_NAMES,
    MAX_CONFIG_BYTES: MAX_CONFIG_BYTES,
    displayName: displayName,
    findConfigFile: findConfigFile,
    firstInvalidUtf8: firstInvalidUtf8,
    loadConfig: loadConfig
});

/*
How it works:
`this.#head` is an instance of `Node` which keeps track of its current value and nests another instance of `Node` that keeps the value that comes after it. When a value is provided to `.enqueue()`, the code needs to iterate through `this.#head`, going deeper and deeper to find the last value. However, iterating through every single item is slow. This problem is solved by saving a reference to the last value as `this.#tail` so that it can reference it to add a new value.
*/

class Node {
	value;
	next;

	constructor(value) {
		this.value = value;
	}
}

class Queue {
	#head;
	#tail;
	#size;

	constructor() {
		this.clear();
	}

	enqueue(value) {
		const node = new Node(value);

		if (this.#head) {
			this.#tail.next = node;
			this.#tail = node;
		} else {
			this.#head = node;
			this.#tail = node;
		}

		this.#size++;
	}

	dequeue() {
		const current = this.#head;
		if (!current) {
			return;
		}

		this.#head = this.#head.next;
		this.#size--;

		// Clean up tail reference when queue becomes empty
		if (!this.#head) {
			this.#tail = undefined;
		}

		return current.value;
	}

	peek() {
		if (!this.#head) {
			return;
		}

		return this.#head.value;

		// TODO: Node.js 18.
		// return this.#head?.value;
	}

	clear() {
		this.#head = undefined;
		this.#tail = undefined;
		this.#size = 0;
	}

	get size() {
		return this.#size;
	}

	* [Symbol.iterator]() {
		let current = this.#head;

		while (current) {
			yield current.value;
			current = current.next;
		}
	}

	* drain() {
		while (this.#head) {
			yield this.dequeue();
		}
	}
}

function pLimit(concurrency) {
	let rejectOnClear = false;

	if (typeof concurrency === 'object') {
		({concurrency, rejectOnClear = false} = concurrency);
	}

	validateConcurrency(concurrency);

	if (typeof rejectOnClear !== 'boolean') {
		throw new TypeError('Expected `rejectOnClear` to be a boolean');
	}

	const queue = new Queue();
	let activeCount = 0;

	const resumeNext = () => {
		// Process the next queued function if we're under the concurrency limit
		if (activeCount < concurrency && queue.size > 0) {
			activeCount++;
			queue.dequeue().run();
		}
	};

	const next = () => {
		activeCount--;
		resumeNext();
	};

	const run = async (function_, resolve, arguments_) => {
		// Execute the function and capture the result promise
		const result = (async () => function_(...arguments_))();

		// Resolve immediately with the promise (don't wait for completion)
		resolve(result);

		// Wait for the function to complete (success or failure)
		// We catch errors here to prevent unhandled rejections,
		// but the original promise rejection is preserved for the caller
		try {
			await result;
		} catch {}

		// Decrement active count and process next queued function
		next();
	};

	const enqueue = (function_, resolve, reject, arguments_) => {
		const queueItem = {reject};

		// Queue the internal resolve function instead of the run function
		// to preserve the asynchronous execution context.
		new Promise(internalResolve => { // eslint-disable-line promise/param-names
			queueItem.run = internalResolve;
			queue.enqueue(queueItem);
		}).then(run.bind(undefined, function_, resolve, arguments_)); // eslint-disable-line promise/prefer-await-to-then

		// Start processing immediately if we haven't reached the concurrency limit
		if (activeCount < concurrency) {
			resumeNext();
		}
	};

	const generator = (function_, ...arguments_) => new Promise((resolve, reject) => {
		enqueue(function_, resolve, reject, arguments_);
	});

	Object.defineProperties(generator, {
		activeCount: {
			get: () => activeCount,
		},
		pendingCount: {
			get: () => queue.size,
		},
		clearQueue: {
			value() {
				if (!rejectOnClear) {
					queue.clear();
					return;
				}

				const abortError = AbortSignal.abort().reason;

				while (queue.size > 0) {
					queue.dequeue().reject(abortError);
				}
			},
		},
		concurrency: {
			get: () => concurrency,

			set(newConcurrency) {
				validateConcurrency(newConcurrency);
				concurrency = newConcurrency;

				queueMicrotask(() => {
					// eslint-disable-next-line no-unmodified-loop-condition
					while (activeCount < concurrency && queue.size > 0) {
						resumeNext();
					}
				});
			},
		},
		map: {
			async value(iterable, function_) {
				const promises = [];

				try {
					Array.from(iterable, (value, index) => {
						const promise = generator(function_, value, index);
						promises.push(promise);
						return promise;
					});
				} catch (error) {
					// The iterable threw, so `Promise.all` never observes the already scheduled promises. Observe them here to avoid unhandled rejections.
					for (const promise of promises) {
						promise.catch(() => {}); // eslint-disable-line promise/prefer-await-to-then
					}

					throw error;
				}

				return Promise.all(promises);
			},
		},
	});

	return generator;
}

function validateConcurrency(concurrency) {
	if (!((Number.isInteger(concurrency) || concurrency === Number.POSITIVE_INFINITY) && concurrency > 0)) {
		throw new TypeError('Expected `concurrency` to be a number from 1 and up');
	}
}

// A token for one git command, never for the repository: actions/checkout's default stores its token in
// .git/config (`http.<url>.extraheader`), where anything running in the worktree (the agent, a stop hook
// running the agent's code) reads it. proctor instead hands its token to the single push or fetch that
// needs it, as GIT_CONFIG_* environment entries of that process (not argv, which every process can read).
/** Config entries that send `token` as GitHub expects it (HTTP Basic, user x-access-token) to `url`'s host. */
function tokenHeaderConfig(url, token) {
    let origin;
    try {
        origin = new URL(url).origin;
    }
    catch {
        return [];
    }
    if (!/^https?:/.test(origin))
        return [];
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    return [[`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
/** GIT_CONFIG_COUNT/KEY/VALUE entries appended after those `base` already has. */
function configEnv(base, entries) {
    if (entries.length === 0)
        return {};
    const first = Number(base.GIT_CONFIG_COUNT) || 0;
    const env = { GIT_CONFIG_COUNT: String(first + entries.length) };
    entries.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${first + i}`] = key;
        env[`GIT_CONFIG_VALUE_${first + i}`] = value;
    });
    return env;
}
/** `http.<url>.extraheader` entries of the repository's config: a persisted credential the agent can read. */
function persistedCredentialKeys(configList) {
    return configList
        .split('\0')
        .map((entry) => entry.slice(0, entry.indexOf('\n') === -1 ? entry.length : entry.indexOf('\n')))
        .filter((key) => /^http\..*\.extraheader$/i.test(key) || /^http\.extraheader$/i.test(key));
}
/**
 * Whether the credential entries of tokenHeaderConfig may go with a git talking to `url`: only to the
 * origin they were made for. A local path or file:// URL would hand them to the receiving repository's
 * hooks (git passes GIT_CONFIG_KEY_n/VALUE_n on to a local receive-pack), another host never gets them.
 */
function credentialFits(entries, url) {
    let origin;
    try {
        origin = new URL(url).origin;
    }
    catch {
        return false;
    }
    if (!/^https?:/.test(origin))
        return false;
    return entries.every(([key]) => key.toLowerCase() === `http.${origin}/.extraheader`.toLowerCase());
}

// When proctor's own git calls must be over. A git that reads the worktree can block forever in open():
// the agent can put a FIFO where git reads (`mkfifo .gitignore`), and git opens it without O_NONBLOCK. So
// every such call has a deadline (exec.ts kills git's process group at it): a cap per call, generous
// for a large repository on a slow disk, and the moment the session is due to be over (its total timeout
// plus grace, moved closer by SIGTERM), which a call started after it still gets a short floor past.
// Calls already running follow a moved end at once.
/**
 * Per call. The longest call is a first snapshot's `update-index`: under a second at 10,000 files here
 * (docs/benchmarks.md), so tens of seconds for 100,000 on a cold, slow disk; five minutes leaves room.
 */
const GIT_CALL_LIMIT_MS = 5 * 60_000;
/** What a call started at or after the session's end still gets: the final checkpoint's few quick calls. */
const GIT_FLOOR_MS = 2_000;
class GitDeadline {
    callMs;
    floorMs;
    end = null;
    watchers = new Set();
    constructor(callMs = GIT_CALL_LIMIT_MS, floorMs = GIT_FLOOR_MS) {
        this.callMs = callMs;
        this.floorMs = floorMs;
    }
    /** The epoch ms at which a call started at `startedAt` is killed. */
    killAt(startedAt) {
        const capped = startedAt + this.callMs;
        return this.end === null ? capped : Math.min(capped, Math.max(this.end, startedAt + this.floorMs));
    }
    /** The session must be over by `at` (epoch ms); null: no end, only the per-call cap. */
    endBy(at) {
        this.end = at;
        for (const watcher of this.watchers)
            watcher();
    }
    /** Moves the end closer (SIGTERM), never further. */
    shorten(at) {
        if (this.end === null || at < this.end)
            this.endBy(at);
    }
    /** Calls `changed` whenever the end moves; returns the unsubscribe. */
    watch(changed) {
        this.watchers.add(changed);
        return () => this.watchers.delete(changed);
    }
}

// The environment every git call runs with. Inherited variables that point git at another repository,
// index or object store are dropped: a hook or wrapper that exported them must never redirect our
// plumbing (or worse, make it write the user's index).
/** Inherited variables that redirect which repository, index or objects git uses, or how pathspecs parse. */
const REDIRECTING_GIT_VARS = [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_INDEX_VERSION',
    'GIT_OBJECT_DIRECTORY',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
    'GIT_QUARANTINE_PATH',
    'GIT_COMMON_DIR',
    'GIT_NAMESPACE',
    'GIT_CEILING_DIRECTORIES',
    'GIT_DISCOVERY_ACROSS_FILESYSTEM',
    'GIT_PREFIX',
    'GIT_TEMPLATE_DIR',
    'GIT_SHALLOW_FILE',
    'GIT_REPLACE_REF_BASE',
    'GIT_NO_REPLACE_OBJECTS',
    'GIT_GRAFT_FILE',
    // We build pathspecs with explicit magic; these would change how every one of them is read.
    'GIT_LITERAL_PATHSPECS',
    'GIT_GLOB_PATHSPECS',
    'GIT_NOGLOB_PATHSPECS',
    'GIT_ICASE_PATHSPECS',
    // Set by proctor per call, never inherited.
    'GIT_OPTIONAL_LOCKS',
    'GIT_TERMINAL_PROMPT',
];
const REDIRECTING = new Set(REDIRECTING_GIT_VARS);
/**
 * process.env minus the redirecting GIT_* variables, plus proctor's fixed settings. `GIT_OPTIONAL_LOCKS=0`
 * keeps read commands (status, diff) from refreshing and rewriting the user's index; `GIT_TERMINAL_PROMPT=0`
 * turns a credential prompt in CI into a fast failure instead of a hang.
 */
function sanitizedGitEnv(base = process.env) {
    const env = {};
    for (const [key, value] of Object.entries(base)) {
        if (value === undefined)
            continue;
        if (REDIRECTING.has(key.toUpperCase()))
            continue;
        env[key] = value;
    }
    env.GIT_OPTIONAL_LOCKS = '0';
    env.GIT_TERMINAL_PROMPT = '0';
    // Messages we classify (push rejections, missing remotes) must be in English.
    env.LC_ALL = 'C';
    env.LANGUAGE = 'C';
    return env;
}
/**
 * `-c` settings for every call. All are safe for commands that only read the user's repository:
 * they change how our own commits are made (no signing prompt, no hooks) and skip the fsmonitor
 * daemon, whose answers are about the user's index, not ours.
 */
const BASE_CONFIG = [
    'commit.gpgSign=false',
    'tag.gpgSign=false',
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    // `git log` would verify a signed commit with the repository's gpg.program.
    'log.showSignature=false',
    'core.quotePath=false',
    'advice.addEmbeddedRepo=false',
    'advice.detachedHead=false',
    'gc.auto=0',
    'maintenance.auto=false',
];
/**
 * Extra settings for calls on the private index only. They change the index FORMAT (untracked cache; the
 * split index, see the runner's invocation) or trust in stat data, so they are never applied where the
 * user's index could be written. On our private index they make it notice every edit: the untracked cache
 * (see the store's listing) trusts a directory whose stat data is unchanged, and an entry is trusted by its
 * stat data too, so both compare the ctime and every stat field, whatever the user's config says: an agent
 * can set a file's or a directory's mtime back after writing to it, but not its ctime.
 */
const PRIVATE_INDEX_CONFIG = [
    'core.untrackedCache=true',
    'core.trustctime=true',
    'core.checkStat=default',
    'core.ignoreStat=false',
    'index.skipHash=false',
];
const FALLBACK_IDENTITY = { name: 'proctor', email: 'proctor@localhost' };

/** The last few lines of a command's stderr, enough to see why it failed without flooding a log. */
function tail(text, maxLines = 12, maxChars = 2000) {
    const lines = text.trimEnd().split('\n');
    const kept = lines.slice(-maxLines).join('\n');
    return kept.length > maxChars ? kept.slice(-maxChars) : kept;
}
/** A git command that failed. The message names the command, how it ended and the end of its stderr. */
class GitError extends Error {
    args;
    cwd;
    exitCode;
    signal;
    stderr;
    /** Killed at its deadline: something held it (a FIFO where it reads, a slow mount, a dead network). */
    timedOut;
    constructor(details, summary) {
        const how = details.exitCode !== null
            ? `exit code ${details.exitCode}`
            : details.signal
                ? `signal ${details.signal}`
                : 'could not start';
        const stderrTail = tail(details.stderr);
        const head = summary ?? `git ${details.args.join(' ')} failed (${how}) in ${details.cwd}`;
        super(stderrTail ? `${head}\n${stderrTail}` : head, details.cause ? { cause: details.cause } : undefined);
        this.name = 'GitError';
        this.args = details.args;
        this.cwd = details.cwd;
        this.exitCode = details.exitCode;
        this.signal = details.signal;
        this.stderr = details.stderr;
        this.timedOut = details.timedOut === true;
    }
}
/** A compare-and-swap ref update lost: the ref no longer points where we expected. */
class RefMovedError extends GitError {
    ref;
    expected;
    constructor(ref, expected, details) {
        super(details, `${ref} moved: expected ${expected ?? 'no ref'}, but something else updated it; nothing was overwritten`);
        this.name = 'RefMovedError';
        this.ref = ref;
        this.expected = expected;
    }
}

// Starts one git process and returns its raw result: stdout as bytes, stderr as text, the real exit code.
// Deciding what a result means (which exit codes are answers) stays here too, so the runner only builds
// argv and environment. Plain node:child_process with an argv array (no shell), like the long-lived
// processes in stream.ts: no git library sits underneath (docs/architecture.md, "Running git", says why).
/** How long a timed-out git has to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/**
 * Process groups of gits with a deadline still running. They are not in proctor's group, so a Ctrl-C in the
 * terminal does not reach them: when proctor exits, whatever is left of them goes with it.
 */
const liveGroups = new Set();
let exitHook = false;
function trackGroup(pid) {
    liveGroups.add(pid);
    if (exitHook)
        return;
    exitHook = true;
    process.once('exit', () => {
        for (const group of liveGroups) {
            try {
                process.kill(-group, 'SIGKILL');
            }
            catch {
                // Already gone.
            }
        }
    });
}
function runGit(call) {
    const { cwd } = call;
    // spawn() reports a missing cwd as a missing binary (ENOENT either way): tell them apart first.
    if (!isDirectory$1(cwd))
        return Promise.reject(refused(call, 'the directory does not exist'));
    return new Promise((resolve, reject) => {
        const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
        // A call with a deadline leads its own process group: git hands the connection to children
        // (git-remote-https, ssh, pack-objects) that hold our pipes open, so killing git alone would leave them
        // running and 'close' would never come. At the deadline the whole group is signalled.
        const startedAt = Date.now();
        const killAt = () => Math.min(call.timeoutMs ? startedAt + call.timeoutMs : Infinity, call.deadline ? call.deadline.killAt(startedAt) : Infinity);
        const group = killAt() !== Infinity && process.platform !== 'win32';
        const child = spawn(call.binary, argv, {
            cwd,
            env: call.env,
            stdio: 'pipe',
            windowsHide: true,
            detached: group,
        });
        if (group && child.pid)
            trackGroup(child.pid);
        const stdout = [];
        const stderr = [];
        /** The limit git was killed at (ms after its start), once it was. */
        let timedOut = null;
        let settled = false;
        const signal = (sig) => {
            try {
                if (group && child.pid)
                    process.kill(-child.pid, sig);
                else
                    child.kill(sig);
            }
            catch {
                // Already gone.
            }
        };
        // SIGTERM first: git removes its lock files on the way out (a killed one would leave index.lock behind).
        let timer;
        const arm = () => {
            clearTimeout(timer);
            if (timedOut !== null)
                return;
            const at = killAt();
            if (at === Infinity)
                return;
            timer = setTimeout(() => {
                timedOut = at - startedAt;
                signal('SIGTERM');
                setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS).unref();
            }, Math.max(0, at - Date.now()));
        };
        arm();
        const unwatch = call.deadline?.watch(arm);
        const done = () => {
            clearTimeout(timer);
            unwatch?.();
        };
        child.stdout.on('data', (chunk) => {
            stdout.push(chunk);
            try {
                call.onStdout?.(chunk);
            }
            catch {
                // Progress is a courtesy: it never breaks the git call.
            }
        });
        child.stderr.on('data', (chunk) => stderr.push(chunk));
        child.on('error', (error) => {
            done();
            if (settled)
                return;
            settled = true;
            reject(couldNotStart(call, error));
        });
        // 'close', not 'exit': every byte of stdout/stderr has arrived by then.
        child.on('close', (code, signal) => {
            done();
            if (child.pid)
                liveGroups.delete(child.pid);
            if (settled)
                return;
            settled = true;
            const outcome = outcomeOf(call, Buffer.concat(stdout), Buffer.concat(stderr), code, signal, timedOut);
            if (outcome instanceof GitError)
                reject(outcome);
            else
                resolve(outcome);
        });
        // A command that fails before reading its stdin closes the pipe (EPIPE): its exit code tells the story.
        child.stdin.on('error', () => undefined);
        child.stdin.end(call.input ?? '');
    });
}
/**
 * runGit for a process with nothing else to do meanwhile (a one-shot `proctor checkpoints create`): git runs
 * to completion before this returns, with no pipes or streams on Node's side. A cold process pays several ms
 * of CPU to set up its first asynchronous child (sockets, stream machinery); a synchronous one costs a
 * fraction of that, and each later call about 1 ms less. Same results and errors as runGit; `onStdout`
 * sees the whole output at once.
 */
function runGitSync(call) {
    const { cwd } = call;
    if (!isDirectory$1(cwd))
        return Promise.reject(refused(call, 'the directory does not exist'));
    const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
    const startedAt = Date.now();
    const killAt = Math.min(call.timeoutMs ? startedAt + call.timeoutMs : Infinity, call.deadline ? call.deadline.killAt(startedAt) : Infinity);
    const result = spawnSync(call.binary, argv, {
        cwd,
        env: call.env,
        input: call.input ?? '',
        maxBuffer: Infinity,
        windowsHide: true,
        ...(killAt !== Infinity
            ? { timeout: Math.max(1, killAt - startedAt), killSignal: 'SIGTERM' }
            : {}),
    });
    if (result.error && result.pid === 0) {
        return Promise.reject(couldNotStart(call, result.error));
    }
    const stdout = result.stdout ?? Buffer.alloc(0);
    if (stdout.length > 0) {
        try {
            call.onStdout?.(stdout);
        }
        catch {
            // Progress is a courtesy: it never breaks the git call.
        }
    }
    const timedOut = result.error?.code === 'ETIMEDOUT';
    const outcome = outcomeOf(call, stdout, result.stderr ?? Buffer.alloc(0), result.status, result.signal, timedOut ? killAt - startedAt : null);
    return outcome instanceof GitError ? Promise.reject(outcome) : Promise.resolve(outcome);
}
/** What an exited git's status means, for both runGit and runGitSync: its result, or the error to raise. */
function outcomeOf(call, stdout, stderr, code, signal, 
/** The limit (ms after its start) a git killed at its deadline had; null when it was not killed. */
timedOutAfterMs) {
    const { args, cwd } = call;
    const err = stderr.toString('utf8');
    const details = { args, cwd, exitCode: code, signal, stderr: err };
    // Before the exit code: a git that caught SIGTERM may exit with an allowed code (128) as if it had an answer.
    if (timedOutAfterMs !== null)
        return new GitError({ ...details, timedOut: true }, `git ${args.join(' ')} timed out after ${timedOutAfterMs} ms and was killed`);
    if (code === 0 || (code !== null && call.okExitCodes?.includes(code))) {
        return { stdout, stderr: err, exitCode: code };
    }
    if (code === null)
        return new GitError(details, `git ${args.join(' ')} was killed by ${signal ?? 'a signal'} in ${cwd}`);
    return new GitError(details);
}
function isDirectory$1(path) {
    try {
        return statSync(path).isDirectory();
    }
    catch {
        return false;
    }
}
/** git was not started (its working directory is missing). */
function refused(call, why) {
    return new GitError({ args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '' }, `could not run git ${call.args.join(' ')} in ${call.cwd}: ${why}`);
}
/** The process never started (a missing or non-executable binary). */
function couldNotStart(call, cause) {
    const hint = cause.code === 'ENOENT' ? ` (is git installed and on PATH? looked for "${call.binary}")` : '';
    return new GitError({ args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause }, `could not run git ${call.args.join(' ')}: ${cause.message}${hint}`);
}

// A long-lived git process spoken to through stdin/stdout: `update-ref --stdin` (one transaction per
// checkpoint) and `hash-object --stdin-paths` (one commit object per checkpoint). A session takes a
// checkpoint every few seconds, and each one-shot git call costs a fork of proctor itself — Node's spawn
// blocks the event loop for ~1 ms per 50 MB of proctor's memory, before git has even started — so the two
// calls that are the same every time are answered by one process each for the whole session.
//
// exec.ts runs every other git call and closes stdin once the input is written; a conversation needs the
// pipe kept open, so this module keeps its process, started from the invocation the runner built (same
// sanitized environment, same `-c` settings).
//
// The process is unref'd while idle, so a forgotten stream never keeps proctor alive; if proctor dies,
// git reads end-of-file and exits on its own.
/** How long `close()` waits for git to exit after end-of-file before killing it. */
const CLOSE_GRACE_MS = 2000;
/**
 * An answer that takes longer than this means git is stuck (these commands answer in milliseconds; a
 * ref lock is given up after 100 ms): git is killed and the caller falls back to one-shot calls.
 */
const ANSWER_TIMEOUT_MS = 30_000;
class GitStream {
    child;
    call;
    stdout = '';
    stderr = '';
    exited = null;
    exit;
    pending = null;
    queue = Promise.resolve();
    constructor(call) {
        this.call = call;
        const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
        this.child = spawn(call.binary, argv, { cwd: call.cwd, env: call.env, stdio: 'pipe' });
        this.child.stdout.setEncoding('utf8');
        this.child.stderr.setEncoding('utf8');
        this.child.stdout.on('data', (chunk) => {
            this.stdout += chunk;
            this.deliver();
        });
        this.child.stderr.on('data', (chunk) => {
            // Only the tail is kept for error messages.
            this.stderr = (this.stderr + chunk).slice(-8192);
        });
        // A write after git died is reported by the 'close' below, not as an unhandled EPIPE.
        this.child.stdin.on('error', () => undefined);
        this.exit = new Promise((resolve) => {
            const settle = (code, signal, what) => {
                if (this.exited)
                    return;
                this.exited = { code, signal };
                this.fail(this.failure(what));
                resolve();
            };
            // A git that cannot be started (ENOENT) may report only 'error'.
            this.child.on('error', (error) => {
                this.stderr += `${error.message}\n`;
                if (this.child.pid === undefined)
                    settle(null, null, 'could not start');
            });
            this.child.on('close', (code, signal) => settle(code, signal, 'exited'));
        });
        this.idle();
    }
    /** Whether the process is still there to take requests. */
    get alive() {
        return this.exited === null && !this.child.stdin.writableEnded;
    }
    /**
     * Write `input` and resolve with the next `lines` lines of output. Requests are answered in order; if
     * git exits first, rejects with a GitError carrying its exit code and stderr.
     */
    request(input, lines) {
        const run = this.queue.then(() => this.exchange(input, lines));
        this.queue = run.catch(() => undefined);
        return run;
    }
    /** End stdin and wait for git to exit (killed after a grace period if it does not). */
    async close() {
        await this.queue;
        if (this.exited)
            return;
        // Every handle must keep the loop alive until 'close': git may exit before its pipes reach end-of-file.
        this.busy();
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
        timer.unref();
        await this.exit;
        clearTimeout(timer);
    }
    exchange(input, lines) {
        if (!this.alive)
            return Promise.reject(this.failure('is not running'));
        this.busy();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), ANSWER_TIMEOUT_MS);
        return new Promise((resolve, reject) => {
            this.pending = { lines, resolve, reject };
            this.child.stdin.write(input);
            this.deliver();
        }).finally(() => {
            clearTimeout(timer);
            this.idle();
        });
    }
    deliver() {
        const pending = this.pending;
        if (!pending)
            return;
        const all = this.stdout.split('\n');
        if (all.length - 1 < pending.lines)
            return;
        this.pending = null;
        this.stdout = all.slice(pending.lines).join('\n');
        pending.resolve(all.slice(0, pending.lines));
    }
    fail(error) {
        const pending = this.pending;
        this.pending = null;
        pending?.reject(error);
    }
    failure(what) {
        const exited = this.exited ?? { code: null, signal: null };
        return new GitError({
            args: this.call.args,
            cwd: this.call.cwd,
            exitCode: exited.code,
            signal: exited.signal,
            stderr: this.stderr,
        }, `git ${this.call.args.join(' ')} ${what}` +
            (exited.code !== null ? ` (exit code ${exited.code})` : exited.signal ? ` (${exited.signal})` : '') +
            ` in ${this.call.cwd}`);
    }
    // While a request waits for its answer the process keeps proctor alive; while idle it does not.
    busy() {
        this.child.ref();
        socket(this.child.stdout).ref();
        socket(this.child.stderr).ref();
    }
    idle() {
        this.child.unref();
        for (const pipe of [this.child.stdin, this.child.stdout, this.child.stderr])
            socket(pipe).unref();
    }
}
/** A child's stdio pipes are sockets (typed as plain streams), which can be unref'd. */
function socket(pipe) {
    return pipe;
}

// Identity and liveness of processes and process groups, without scanning the process table.
// A pid alone is not an identity (pids are reused); pid + start time on this boot is.
let bootIdCache;
function linuxBootId() {
    if (bootIdCache === undefined) {
        try {
            bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
        }
        catch {
            bootIdCache = '';
        }
    }
    return bootIdCache;
}
/** Fields of /proc/<pid>/stat; the command name may hold spaces and ')' so split after the last ')'. */
function readLinuxStat(pid) {
    let text;
    try {
        text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    }
    catch {
        return null;
    }
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state); field N is rest[N - 3].
    const state = rest[0];
    const ppid = Number(rest[1]);
    const pgrp = Number(rest[2]);
    const startTicks = rest[19];
    if (state === undefined || startTicks === undefined)
        return null;
    return { state, ppid, pgrp, startTicks };
}
/**
 * A token that identifies the process `pid` for as long as it lives and never matches a later
 * process that reuses the pid. Linux: boot id + start time in clock ticks (field 22 of
 * /proc/<pid>/stat); elsewhere: `ps -o lstart=` (one-second resolution). Null when the process is gone.
 */
function processStartToken(pid) {
    if (!Number.isInteger(pid) || pid <= 0)
        return null;
    if (process.platform === 'linux') {
        const stat = readLinuxStat(pid);
        return stat ? `linux:${linuxBootId()}:${stat.startTicks}` : null;
    }
    const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
    const started = ps.status === 0 ? ps.stdout.trim() : '';
    return started ? `ps:${started}` : null;
}
/** Whether a process with this pid exists (zombies included; EPERM means it exists but isn't ours). */
function pidExists(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/** Whether `pid` is a live child of this process (where we can't tell: whether it exists). */
function isOwnLiveChild(pid) {
    if (process.platform !== 'linux')
        return pidExists(pid);
    const stat = readLinuxStat(pid);
    return stat !== null && stat.ppid === process.pid && stat.state !== 'Z' && stat.state !== 'X';
}
/** Whether any process (zombies included) is still in process group `pgid`. */
function groupExists(pgid) {
    return signalGroup(pgid, 0);
}
/**
 * Whether group `pgid` still has a member that is not a zombie. A killed grandchild stays a zombie
 * until init reaps it, which in containers can take seconds or never happen (no init), so
 * `kill(-pgid, 0)` alone would make every stop wait out its grace and report a needless SIGKILL.
 * On Linux the zombies are told apart by reading /proc — a read-only check: signals still only go
 * to the group id, never to pids found here.
 */
function groupHasLiveMembers(pgid) {
    if (!groupExists(pgid))
        return false;
    if (process.platform !== 'linux')
        return true;
    let entries;
    try {
        entries = readdirSync('/proc');
    }
    catch {
        return true;
    }
    for (const entry of entries) {
        const first = entry.charCodeAt(0);
        if (first < 48 || first > 57)
            continue;
        const stat = readLinuxStat(Number(entry));
        if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
            return true;
    }
    return false;
}
/**
 * Sends `signal` to every process in group `pgid`. Returns false when the group is empty (ESRCH).
 * Refuses pgid <= 1: `kill(-1)` would signal every process we may signal, `kill(0)` our own group.
 */
function signalGroup(pgid, signal) {
    if (!Number.isInteger(pgid) || pgid <= 1)
        throw new Error(`refusing to signal process group ${pgid}`);
    try {
        process.kill(-pgid, signal);
        return true;
    }
    catch (error) {
        const code = error.code;
        if (code === 'ESRCH')
            return false;
        // EPERM: some member is not ours (e.g. setuid); nothing more we may do to it.
        if (code === 'EPERM')
            return true;
        throw error;
    }
}
const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, num]) => [num, name]));
/** `15` → `'SIGTERM'`; unknown numbers map to null. */
function signalName(num) {
    return SIGNAL_NAMES.get(num) ?? null;
}
function hostName() {
    return hostname();
}
/**
 * The live (non-zombie) members of group `pgid`, read from /proc; null where /proc is not available.
 * Read-only: used to prove whose processes a group holds before it is signalled.
 */
function liveGroupMembers(pgid) {
    if (process.platform !== 'linux')
        return null;
    let entries;
    try {
        entries = readdirSync('/proc');
    }
    catch {
        return null;
    }
    const members = [];
    for (const entry of entries) {
        const first = entry.charCodeAt(0);
        if (first < 48 || first > 57)
            continue;
        const stat = readLinuxStat(Number(entry));
        if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
            members.push({ pid: Number(entry), startTicks: BigInt(stat.startTicks) });
    }
    return members;
}
/** Whether the process started with `NAME=value` in its environment (Linux /proc/<pid>/environ). */
function processEnvironmentHas(pid, entry) {
    try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry);
    }
    catch {
        return false;
    }
}
/** The current process group of `pid` (Linux: /proc; elsewhere `ps -o pgid=`); null when it is gone. */
function processGroupOf(pid) {
    if (process.platform === 'linux')
        return readLinuxStat(pid)?.pgrp ?? null;
    const ps = spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' });
    const pgid = Number(ps.stdout.trim());
    return ps.status === 0 && Number.isInteger(pgid) && pgid > 0 ? pgid : null;
}
/** The boot id and start ticks inside a Linux start token; null for other tokens. */
function parseLinuxStartToken(token) {
    const match = /^linux:([^:]*):(\d+)$/.exec(token ?? '');
    return match ? { boot: match[1], ticks: BigInt(match[2]) } : null;
}
function currentBootId() {
    return linuxBootId();
}

// What a checkpoint needs to know about a repository that git keeps in plain files, read without starting
// git: each git process forks proctor (tens of MB of page tables copied per fork), and a one-shot
// `proctor checkpoints create` or a batch child would otherwise start several just to ask where the git
// dir is or whether the user's index hides entries. Anything unusual returns null and the caller asks git.
// Every file here is one the agent can write (or replace with a FIFO): each is read with readRegularFile,
// which never blocks and refuses anything but a regular file.
/** More than any .git file, HEAD, config or packed-refs proctor reads this way should hold. */
const SMALL_FILE_BYTES = 16 * 1024 * 1024;
/** An index of a very large repository still fits; beyond it, git answers instead. */
const INDEX_BYTES = 1024 * 1024 * 1024;
function readSmall(file) {
    return readRegularFile(file, SMALL_FILE_BYTES).toString('latin1');
}
/**
 * The git dirs of the worktree whose top level is `root`, as `git rev-parse --git-dir --git-common-dir`
 * gives them; null when `.git` is neither a directory nor a `gitdir:` link, or the config moves the
 * worktree (core.worktree) or makes the repository bare: then only git can say.
 */
function readGitDirs(root) {
    try {
        const dotGit = path.join(root, '.git');
        const stat = fs__default.lstatSync(dotGit);
        let gitDir;
        if (stat.isDirectory())
            gitDir = dotGit;
        else if (stat.isFile()) {
            const match = /^gitdir: (.+)$/m.exec(readRegularFile(dotGit, SMALL_FILE_BYTES).toString('utf8'));
            if (!match)
                return null;
            gitDir = path.resolve(root, match[1].trim());
        }
        else
            return null;
        if (!fs__default.statSync(path.join(gitDir, 'HEAD')).isFile())
            return null;
        let commonDir = gitDir;
        try {
            commonDir = path.resolve(gitDir, readRegularFile(path.join(gitDir, 'commondir'), SMALL_FILE_BYTES).toString('utf8').trim());
        }
        catch {
            // No commondir: not a linked worktree.
        }
        for (const config of [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')]) {
            let text = '';
            try {
                text = readRegularFile(config, SMALL_FILE_BYTES).toString('utf8');
            }
            catch (error) {
                // Absent: nothing moves the worktree. Anything else (a FIFO, unreadable): only git can say.
                if (error.code === 'ENOENT')
                    continue;
                return null;
            }
            if (/^\s*worktree\s*=|^\s*bare\s*=\s*(true|yes|on|1)\s*$/im.test(text))
                return null;
        }
        return { gitDir, commonDir };
    }
    catch {
        return null;
    }
}
/** Extensions that change nothing about what the entries say (cache-tree, resolve-undo, offset tables). */
const PLAIN_EXTENSIONS = new Set(['TREE', 'REUC', 'EOIE', 'IEOT']);
/**
 * Reads the flags of every entry of an index file (versions 2 to 4) and its cache-tree root. `hashBytes`
 * is 20 for SHA-1 repositories, 32 for SHA-256. Null when the file is missing or not understood.
 */
function readIndexSummary(file, hashBytes) {
    let buf;
    try {
        buf = readRegularFile(file, INDEX_BYTES);
    }
    catch {
        return null;
    }
    if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC')
        return null;
    const version = buf.readUInt32BE(4);
    if (version < 2 || version > 4)
        return null;
    const count = buf.readUInt32BE(8);
    const end = buf.length - hashBytes;
    const flagsAt = 40 + hashBytes;
    let offset = 12;
    let hidden = false;
    let plain = true;
    for (let i = 0; i < count; i++) {
        if (offset + flagsAt + 2 > end)
            return null;
        const flags = buf.readUInt16BE(offset + flagsAt);
        let nameAt = offset + flagsAt + 2;
        if (flags & 0x8000)
            hidden = true;
        if (flags & 0x3000)
            plain = false; // a conflict stage
        if (flags & 0x4000) {
            if (version < 3)
                return null;
            const extended = buf.readUInt16BE(nameAt);
            if (extended & 0x4000)
                hidden = true; // skip-worktree
            if (extended & 0x2000)
                plain = false; // intent-to-add
            nameAt += 2;
        }
        if (version === 4) {
            while (nameAt < end && buf[nameAt] & 0x80)
                nameAt++;
            nameAt++;
        }
        const nul = buf.indexOf(0, nameAt);
        if (nul < 0 || nul >= end)
            return null;
        offset = version === 4 ? nul + 1 : offset + ((nameAt - offset + (nul - nameAt) + 8) & -8);
    }
    let tree = null;
    while (offset + 8 <= end) {
        const signature = buf.toString('latin1', offset, offset + 4);
        const size = buf.readUInt32BE(offset + 4);
        const data = offset + 8;
        if (data + size > end)
            return null;
        if (!PLAIN_EXTENSIONS.has(signature))
            plain = false;
        if (signature === 'TREE' && buf[data] === 0) {
            const newline = buf.indexOf(10, data + 1);
            const counts = newline > 0 ? buf.toString('latin1', data + 1, newline).split(' ') : [];
            const entries = Number(counts[0]);
            if (entries === count && newline + 1 + hashBytes <= data + size) {
                tree = buf.toString('hex', newline + 1, newline + 1 + hashBytes);
            }
        }
        offset = data + size;
    }
    if (offset !== end)
        return null;
    return { hidden, tree: plain ? tree : null, cacheTree: tree };
}
/**
 * Where git looks for global and system config, whether or not the files exist yet: `GIT_CONFIG_GLOBAL`
 * or ~/.gitconfig and $XDG_CONFIG_HOME/git/config; `GIT_CONFIG_SYSTEM` or the places distributions and
 * source builds (prefix /usr/local, Homebrew) compile the system file in, unless `GIT_CONFIG_NOSYSTEM`.
 * `env` is the environment git runs with.
 */
function globalConfigFiles(env) {
    const home = env('HOME') || os.homedir();
    const files = [];
    const global = env('GIT_CONFIG_GLOBAL');
    if (global !== undefined)
        files.push(global);
    else
        files.push(path.join(home, '.gitconfig'), path.join(env('XDG_CONFIG_HOME') || path.join(home, '.config'), 'git', 'config'));
    const noSystem = env('GIT_CONFIG_NOSYSTEM');
    if (!noSystem || /^(0|false|no|off)$/i.test(noSystem)) {
        const system = env('GIT_CONFIG_SYSTEM');
        files.push(...(system !== undefined
            ? [system]
            : ['/etc/gitconfig', '/usr/local/etc/gitconfig', '/opt/homebrew/etc/gitconfig']));
    }
    return files;
}
/**
 * Whether `ref` (a full name such as `refs/proctor/x`) may exist in the repository whose common dir is
 * `commonDir`: false only when the files backend certainly has it neither as a loose file nor in
 * packed-refs. A reftable repository, or anything unreadable, says it may (the caller then asks git).
 */
function refMayExist(commonDir, ref) {
    const missing = (error) => {
        const code = error.code;
        return code === 'ENOENT' || code === 'ENOTDIR';
    };
    try {
        fs__default.lstatSync(path.join(commonDir, 'reftable'));
        return true;
    }
    catch (error) {
        if (!missing(error))
            return true;
    }
    try {
        fs__default.lstatSync(path.join(commonDir, ref));
        return true;
    }
    catch (error) {
        if (!missing(error))
            return true;
    }
    let packed;
    try {
        packed = readSmall(path.join(commonDir, 'packed-refs'));
    }
    catch (error) {
        return !missing(error);
    }
    // "<oid> <ref>\n" lines; a ref name holds no space or newline.
    return packed.includes(` ${ref}\n`) || packed.endsWith(` ${ref}`);
}
/**
 * The commit a detached HEAD names (`<oid>` alone in `<gitDir>/HEAD`); null for a symbolic HEAD
 * (`ref: …`), a missing or unreadable file: then only git can say what HEAD is.
 */
function readDetachedHead(gitDir) {
    let text;
    try {
        text = readSmall(path.join(gitDir, 'HEAD')).trim();
    }
    catch {
        return null;
    }
    return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text) ? text : null;
}

// proctor's own git reads no configuration the agent could have written. The agent runs as the same user:
// it can write ~/.gitconfig, $XDG_CONFIG_HOME/git/config and the repository's .git/config at any moment, and
// a `filter.<x>.clean`, `core.fsmonitor`, `url.<x>.pushInsteadOf` or `core.sshCommand` there would make
// proctor's checkpoint or push run the agent's program (with a push token in its environment). Watching for
// such a change (checkpoints/git-machinery.ts) comes too late: the planted command runs before the check.
//
// So the config git reads is proctor's, race-free:
// - every call: GIT_CONFIG_NOSYSTEM=1 and GIT_CONFIG_GLOBAL=<proctor's file>, which holds only keys that
//   never name a program (identity, line endings, safe.directory...), copied once from the user's config at
//   the runner's first call — in a session, before the agent starts.
// - the user's global ignore and attributes files (core.excludesFile and core.attributesFile, or git's
//   defaults $XDG_CONFIG_HOME/git/ignore and .../attributes when unset) are files git reads live, outside
//   the repository: an agent writing `secrets/` there would hide its files from every checkpoint and the
//   policy. They are copied into the private directory at the same moment, and proctor's config names the
//   copies (/dev/null when there was none), so what is ignored stays what it was when the session started.
// - commands that read the worktree (add, status, ls-files, check-ignore, hash-object...) or talk to a remote
//   (push, fetch, ls-remote) run with GIT_DIR = a "shadow" git dir proctor made in a private temporary
//   directory: its `config` holds the repository format only, it has no hooks, its refs and packed-refs are
//   links to the repository's, its info/exclude and info/attributes links to the repository's (what is
//   ignored stays what it was), HEAD a copy refreshed per call; objects come from GIT_OBJECT_DIRECTORY, the
//   worktree from GIT_WORK_TREE, the user's index from GIT_INDEX_FILE. A driver named in .gitattributes but
//   defined in no config git reads does nothing, and a push names a URL, so no remote.*, url.* or credential.*
//   of the repository is consulted.
// - ref and object commands (update-ref, rev-parse, cat-file, rev-list, log, bundle...) keep the real GIT_DIR:
//   they need its refs and reflogs, and none of them starts a program from config once BASE_CONFIG's `-c`
//   settings (no hooks, no fsmonitor, no signature checks) take precedence over the repository's config.
// - `git config` and `git remote` read the user's real config: they are how proctor reports what the
//   repository is set to (the tamper check, a persisted credential), and they run nothing.
// The agent could still find and rewrite the private directory (same user); it is created with a random
// name, mode 0700, outside the repository, and removed when proctor exits. Before every call proctor checks
// that what git will read there is still what proctor wrote (the config files and copies byte for byte, the
// links' targets, no `commondir` redirecting the shadow), and refuses to run git when it is not: a planted
// filter or an emptied ignore copy ends the session as an error instead of running or hiding anything.
/**
 * Subcommands that read the worktree or a remote: run against the shadow git dir. Every command that writes
 * an index is among them: writing one re-hashes "racily clean" entries from the worktree, through the
 * clean filter (write-tree and read-tree do that too).
 */
const SHADOW_COMMANDS = new Set([
    'add',
    'read-tree',
    'write-tree',
    'rm',
    'update-index',
    'status',
    'diff',
    'diff-files',
    'diff-index',
    'ls-files',
    'check-ignore',
    'check-attr',
    'checkout-index',
    'hash-object',
    'commit-tree',
    'var',
    'push',
    'fetch',
    'ls-remote',
]);
/** Subcommands that show the user's own configuration (and run nothing): never isolated. */
const USER_VIEW_COMMANDS = new Set(['config', 'remote']);
/** How a call with these arguments (subcommand first, global options skipped) is run. */
function isolationMode(args) {
    const sub = args.find((arg) => !arg.startsWith('-'));
    if (sub === undefined)
        return 'real';
    if (USER_VIEW_COMMANDS.has(sub))
        return 'user';
    // `checkout <tree> -- <paths>` writes files (through smudge filters) and the index but never HEAD, so it
    // runs in the shadow; a checkout that moves HEAD would move only the shadow's copy, so proctor moves HEAD
    // with update-ref and writes the files with read-tree instead (action/verify.ts, batch/worktrees.ts).
    if (sub === 'checkout')
        return args.includes('--') ? 'shadow' : 'real';
    return SHADOW_COMMANDS.has(sub) ? 'shadow' : 'real';
}
/**
 * Keys copied from the user's config into proctor's: each changes how files are read, hashed or ignored, or
 * who a commit is by, and none names a program, a URL rewrite, a credential or a proxy.
 */
const TRUSTED_KEY = /^(user\.(name|email|useconfigonly)|(author|committer)\.(name|email)|core\.(autocrlf|eol|safecrlf|filemode|symlinks|ignorecase|precomposeunicode|protectntfs|protecthfs|checkstat|trustctime|excludesfile|attributesfile|bigfilethreshold|compression|loosecompression|longpaths|checkroundtripencoding)|i18n\.commitencoding|safe\.directory|http\.(sslcainfo|sslcapath|postbuffer|version)|protocol\.version)$/;
/** Repository-format keys of the repository's own config (local or worktree scope) the shadow must share. */
const FORMAT_KEY = /^(core\.repositoryformatversion|extensions\..+)$/;
/** Names that would make git read another directory's config in place of the shadow's. */
const REDIRECTS = ['commondir', 'config.worktree', 'gitdir'];
/** proctor's private directory no longer holds what proctor wrote: git is not run with it. */
class IsolationTamperedError extends Error {
    name = 'IsolationTamperedError';
}
const cleanups = [];
/** The global files copied at the start: the config key naming each, and git's default under XDG. */
const SNAPSHOT_FILES = [
    { key: 'core.excludesfile', name: 'ignore' },
    { key: 'core.attributesfile', name: 'attributes' },
];
/** The most of a global ignore or attributes file proctor copies (they are lists of patterns). */
const SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The isolation of the repository whose worktree holds `cwd`, read now (in a session: the runner's first
 * call, before the agent starts); null for a bare repository or outside one (no worktree to hash). It fails
 * closed: when it cannot be made (the config cannot be read, no private directory), it rejects, and so does
 * every call that needed it, rather than run with the repository's config.
 */
async function makeIsolation(cwd, run, env = (key) => process.env[key]) {
    try {
        return await isolate(cwd, run, env, readGitDirs(cwd));
    }
    catch (error) {
        throw new Error(`could not set up proctor's own git config: ${error.message}`, {
            cause: error,
        });
    }
}
/** `<tmp>/proctor-git-<pid>-XXXXXX`: the private directory of the process with that pid. */
const DIR_PREFIX = 'proctor-git-';
/**
 * The private directories of proctor processes that died without their exit handler (SIGKILL, OOM): each
 * holds the shared part of that process's split private indexes (as big as the repository's index). Only
 * this user's real directories are removed, and only when no process has the pid in their name. In the
 * background: a temporary directory can hold thousands of entries, and this runs before a session's agent
 * is spawned.
 */
async function sweepDeadDirs() {
    const tmp = os.tmpdir();
    const uid = process.getuid?.();
    for (const name of await fs__default.promises.readdir(tmp)) {
        const pid = Number(/^proctor-git-(\d+)-/.exec(name)?.[1]);
        if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || pidExists(pid))
            continue;
        const dir = path.join(tmp, name);
        const stat = await fs__default.promises.lstat(dir).catch(() => null);
        if (!stat?.isDirectory() || (uid !== undefined && stat.uid !== uid))
            continue;
        await fs__default.promises.rm(dir, { recursive: true, force: true });
    }
}
async function isolate(cwd, run, env, known) {
    // One listing of the user's config, from every scope with includes, before the agent can change it.
    // The same listing (with origins) is what the tamper check records (Git.startupConfig): one process for both.
    const listing = run(['config', '--show-scope', '--show-origin', '-z', '--list'], [1]);
    listing.catch(() => undefined);
    let dirs = known ? { workTree: cwd, ...known } : null;
    if (!dirs) {
        // Exit 128: not a repository, or a bare one (no top level): nothing to isolate.
        const out = await run(['rev-parse', '--show-toplevel', '--git-dir', '--git-common-dir'], [128]);
        const [top, gitDir, commonDir] = out.split('\n');
        if (!top || !gitDir || !commonDir)
            return null;
        dirs = { workTree: top, gitDir: path.resolve(cwd, gitDir), commonDir: path.resolve(cwd, commonDir) };
    }
    const listed = await listing;
    const entries = parseListing(listed);
    if (cleanups.length === 0)
        sweepDeadDirs().catch(() => undefined);
    const dir = fs__default.mkdtempSync(path.join(os.tmpdir(), `${DIR_PREFIX}${process.pid}-`));
    if (cleanups.length === 0)
        process.once('exit', () => cleanups.forEach((d) => fs__default.rmSync(d, { recursive: true, force: true })));
    cleanups.push(dir);
    const shadowDir = path.join(dir, 'git');
    fs__default.mkdirSync(path.join(shadowDir, 'info'), { recursive: true });
    const written = { files: new Map(), links: new Map() };
    const write = (file, content, mode) => {
        const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
        fs__default.writeFileSync(file, bytes, mode === undefined ? {} : { mode });
        written.files.set(file, bytes);
    };
    const format = entries.filter((e) => FORMAT_KEY.test(e.key) && (e.scope === 'local' || e.scope === 'worktree'));
    write(path.join(shadowDir, 'config'), configText([...format, { scope: 'local', key: 'core.bare', value: 'false' }]));
    for (const [name, target] of [
        ['refs', path.join(dirs.commonDir, 'refs')],
        ['packed-refs', path.join(dirs.commonDir, 'packed-refs')],
        ['reftable', path.join(dirs.commonDir, 'reftable')],
        // A shallow clone's boundary; a depth-limited fetch replaces the link with the shadow's own file.
        ['shallow', path.join(dirs.commonDir, 'shallow')],
        ['info/exclude', path.join(dirs.commonDir, 'info', 'exclude')],
        ['info/attributes', path.join(dirs.commonDir, 'info', 'attributes')],
    ]) {
        fs__default.symlinkSync(target, path.join(shadowDir, name));
        // A depth-limited fetch may replace the shallow link with the shadow's own file: git's doing, not checked.
        if (name !== 'shallow')
            written.links.set(path.join(shadowDir, name), target);
    }
    const globalFile = path.join(dir, 'global');
    const trusted = entries.filter((e) => TRUSTED_KEY.test(e.key) && e.scope !== 'command');
    for (const { key, name } of SNAPSHOT_FILES) {
        const source = await snapshotSource(entries, key, name, dirs.workTree, env, run);
        const content = source === null ? null : readSnapshot(source);
        let copy = os.devNull;
        if (content !== null) {
            copy = path.join(dir, name);
            write(copy, content, 0o600);
        }
        trusted.push({ scope: 'global', key, value: copy });
    }
    write(globalFile, configText(trusted));
    const isolation = {
        shadowDir,
        globalFile,
        workTree: dirs.workTree,
        gitDir: dirs.gitDir,
        objectDir: path.join(dirs.commonDir, 'objects'),
        pushUrls: pushUrlsOf(entries),
        listing: listed,
        written,
    };
    syncHead(isolation);
    return isolation;
}
/**
 * The environment for a call in `mode` (see isolationMode); `base` is the runner's environment with the
 * call's own additions. The shadow's HEAD follows the repository's (the agent may commit or switch
 * branches); it is only a name to resolve through the linked refs.
 */
function isolatedEnv(isolation, mode, base) {
    if (mode === 'user')
        return base;
    if (isolation)
        assertUntouched(isolation);
    const env = {
        ...base,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: isolation?.globalFile ?? os.devNull,
    };
    if (mode === 'shadow' && isolation) {
        syncHead(isolation);
        env.GIT_DIR = isolation.shadowDir;
        env.GIT_WORK_TREE = isolation.workTree;
        env.GIT_OBJECT_DIRECTORY = isolation.objectDir;
        env.GIT_INDEX_FILE ??= path.join(isolation.gitDir, 'index');
    }
    return env;
}
/**
 * Throws IsolationTamperedError unless every file proctor wrote into its private directory holds its bytes,
 * every link points where proctor pointed it, and nothing redirects the shadow to another git dir. Read
 * without blocking (a FIFO planted there cannot stall proctor); a few small reads per git call.
 */
function assertUntouched(isolation) {
    const tampered = (what) => new IsolationTamperedError(`proctor's private git directory was changed by another process (${what}): refusing to run git with it`);
    for (const [file, bytes] of isolation.written.files) {
        let now;
        try {
            now = readRegularFile(file, bytes.length + 1);
        }
        catch {
            throw tampered(`${path.basename(file)} changed`);
        }
        if (!now.equals(bytes))
            throw tampered(`${path.basename(file)} rewritten`);
    }
    for (const [link, target] of isolation.written.links) {
        let now = null;
        try {
            now = fs__default.readlinkSync(link);
        }
        catch {
            // replaced by a file or removed
        }
        if (now !== target)
            throw tampered(`${path.relative(path.dirname(isolation.shadowDir), link)} relinked`);
    }
    for (const name of REDIRECTS) {
        if (fs__default.existsSync(path.join(isolation.shadowDir, name)))
            throw tampered(`${name} added`);
    }
}
/**
 * The file git would read for `key` (core.excludesFile or core.attributesFile) with the config as listed:
 * the last value from any scope git reads (as git takes it), `~/` and `~user/` expanded as git does and a
 * relative path taken from the worktree's top level (where git runs); unset, git's default
 * $XDG_CONFIG_HOME/git/<name> (or ~/.config/git/<name>). Null when there is none to read (no HOME).
 */
async function snapshotSource(entries, key, name, workTree, env, run) {
    const set = entries.filter((e) => e.key === key && e.scope !== 'command').at(-1);
    const home = env('HOME');
    if (!set) {
        const xdg = env('XDG_CONFIG_HOME');
        if (xdg)
            return path.join(xdg, 'git', name);
        return home ? path.join(home, '.config', 'git', name) : null;
    }
    let value = set.value;
    if (value === '')
        return null;
    if (value === '~' || value.startsWith('~/')) {
        if (!home)
            return null;
        value = path.join(home, value.slice(1));
    }
    else if (value.startsWith('~') || value.startsWith('%(prefix)/')) {
        // Another user's home, or git's install prefix: only git knows them. One call, at the start.
        value = (await run(['config', '--type=path', '--get', key], [1])).replace(/\n$/, '');
        if (value === '')
            return null;
    }
    return path.resolve(workTree, value);
}
/**
 * The content of the user's global ignore or attributes file as it is now; null when there is none. A file
 * that is not a regular one (/dev/null, which users set to mean "none") is read as none too: read without
 * blocking, so a FIFO there cannot hold proctor.
 */
function readSnapshot(file) {
    try {
        return readRegularFile(file, SNAPSHOT_MAX_BYTES);
    }
    catch (error) {
        if (!(error instanceof FileError))
            throw error;
        if (error.code === undefined && /not a regular file/.test(error.message))
            return null;
        // Missing, or unreadable: git warns and reads no patterns from it.
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EACCES')
            return null;
        throw error;
    }
}
const HEAD_FORMAT = /^(ref: refs\/[^\s]+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/;
function syncHead(isolation) {
    let head;
    try {
        // The agent can make .git/HEAD a FIFO: a blocking read here would stall proctor before any deadline.
        head = readRegularFile(path.join(isolation.gitDir, 'HEAD'), 4096).toString('utf8');
    }
    catch {
        head = '';
    }
    if (!HEAD_FORMAT.test(head))
        head = 'ref: refs/heads/proctor-unreadable-head\n';
    const file = path.join(isolation.shadowDir, 'HEAD');
    let current = '';
    try {
        current = fs__default.readFileSync(file, 'utf8');
    }
    catch {
        // first call
    }
    if (current !== head)
        fs__default.writeFileSync(file, head);
}
function parseListing(out) {
    const fields = out.split('\0');
    const entries = [];
    for (let i = 0; i + 2 < fields.length; i += 3) {
        const scope = fields[i];
        const record = fields[i + 2];
        const newline = record.indexOf('\n');
        entries.push({
            scope,
            key: (newline < 0 ? record : record.slice(0, newline)).toLowerCase(),
            value: newline < 0 ? 'true' : record.slice(newline + 1),
        });
    }
    return entries;
}
/** A config file holding `entries` (dotted keys; the last dot splits section and key). */
function configText(entries) {
    return entries
        .map(({ key, value }) => {
        const dot = key.lastIndexOf('.');
        const first = key.indexOf('.');
        const section = first === dot
            ? `[${key.slice(0, dot)}]`
            : `[${key.slice(0, first)} "${escape(key.slice(first + 1, dot))}"]`;
        return `${section}\n\t${key.slice(dot + 1)} = "${escape(value)}"\n`;
    })
        .join('');
}
function escape(text) {
    return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}
/**
 * Where `git push <remote>` would have gone with the config as it was read: the first pushurl, else the
 * first url; a url (not a pushurl) rewritten by the longest matching url.<base>.pushInsteadOf, and either by
 * the longest url.<base>.insteadOf otherwise, as git does.
 */
function pushUrlsOf(entries) {
    const urls = new Map();
    const insteadOf = [];
    const pushInsteadOf = [];
    for (const { key, value } of entries) {
        const remote = /^remote\.(.+)\.(url|pushurl)$/.exec(key);
        if (remote) {
            const item = urls.get(remote[1]) ?? {};
            item[remote[2]] ??= value;
            urls.set(remote[1], item);
            continue;
        }
        const rewrite = /^url\.(.+)\.(insteadof|pushinsteadof)$/.exec(key);
        if (rewrite)
            (rewrite[2] === 'insteadof' ? insteadOf : pushInsteadOf).push([value, rewrite[1]]);
    }
    const rewritten = (url, rules) => {
        let best = null;
        for (const rule of rules)
            if (url.startsWith(rule[0]) && (!best || rule[0].length > best[0].length))
                best = rule;
        return best ? best[1] + url.slice(best[0].length) : null;
    };
    const result = new Map();
    for (const [name, { url, pushurl }] of urls) {
        const chosen = pushurl
            ? (rewritten(pushurl, insteadOf) ?? pushurl)
            : url
                ? (rewritten(url, pushInsteadOf) ?? rewritten(url, insteadOf) ?? url)
                : null;
        if (chosen)
            result.set(name, chosen);
    }
    return result;
}

// Parsers for git's NUL-separated (-z) output. Paths are taken byte-for-byte as git prints them with -z:
// no quoting, so spaces, newlines, tabs, unicode and leading dashes come through intact.
/** Split -z output into fields, dropping the empty field after the final NUL. */
function splitNul(output) {
    if (output === '')
        return [];
    const fields = output.split('\0');
    if (fields[fields.length - 1] === '')
        fields.pop();
    return fields;
}
/** `git status --porcelain=v1 -z`: "XY path\0" and for renames/copies "XY new\0old\0". */
function parseStatusZ(output) {
    const fields = splitNul(output);
    const entries = [];
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        const xy = field.slice(0, 2);
        const entry = { xy, path: field.slice(3) };
        if (xy[0] === 'R' || xy[0] === 'C' || xy[1] === 'R' || xy[1] === 'C')
            entry.origPath = fields[++i];
        entries.push(entry);
    }
    return entries;
}
/**
 * Parses porcelain v2 -z: "# branch.oid <oid>|(initial)" headers, "1 XY sub mH mI mW hH hI path",
 * "2 XY sub mH mI mW hH hI Xscore path\0origPath", "u XY sub m1 m2 m3 mW h1 h2 h3 path", "? path".
 * X compares HEAD with the index and Y the index with the worktree ('.' = unchanged).
 */
function parseStatusV2Z(output) {
    const result = { head: null, staged: false, changed: [], untracked: [] };
    const fields = splitNul(output);
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        switch (field[0]) {
            case '#':
                if (field.startsWith('# branch.oid ') && field !== '# branch.oid (initial)')
                    result.head = field.slice(13);
                break;
            case '1':
            case '2': {
                if (field[2] !== '.')
                    result.staged = true;
                const path = afterSpaces(field, field[0] === '1' ? 8 : 9);
                if (field[3] !== '.')
                    result.changed.push(path);
                if (field[0] === '2')
                    i++; // the rename's source path
                break;
            }
            case 'u':
                result.staged = true;
                result.changed.push(afterSpaces(field, 10));
                break;
            case '?':
                result.untracked.push(field.slice(2));
                break;
        }
    }
    return result;
}
/** What follows the `count`-th space of `field` (a path may hold spaces itself). */
function afterSpaces(field, count) {
    let at = -1;
    for (let n = 0; n < count; n++)
        at = field.indexOf(' ', at + 1);
    return field.slice(at + 1);
}
/**
 * Output of `diff-tree -r -z --raw --numstat`: first every raw record (":mode mode sha sha S\0path\0"
 * plus "\0new" for renames), then every numstat record ("a\td\tpath\0", or "a\td\t\0old\0new\0" for
 * renames; "-" counts mean binary).
 */
function parseRawNumstatZ(output) {
    const fields = splitNul(output);
    const raw = [];
    const numstat = [];
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        if (field.startsWith(':')) {
            const [oldMode, newMode, oldSha, newSha, statusField] = field.slice(1).split(' ');
            const status = (statusField ?? '').charAt(0);
            const scoreText = (statusField ?? '').slice(1);
            const entry = {
                oldMode: oldMode,
                newMode: newMode,
                oldSha: oldSha,
                newSha: newSha,
                status,
                score: scoreText ? Number(scoreText) : null,
                path: fields[++i],
            };
            if (status === 'R' || status === 'C') {
                entry.oldPath = entry.path;
                entry.path = fields[++i];
            }
            raw.push(entry);
            continue;
        }
        const [added, deleted, path] = splitTabs(field);
        const entry = { added: count(added), deleted: count(deleted), path };
        if (path === '') {
            entry.oldPath = fields[++i];
            entry.path = fields[++i];
        }
        numstat.push(entry);
    }
    return { raw, numstat };
}
function splitTabs(field) {
    const first = field.indexOf('\t');
    const second = field.indexOf('\t', first + 1);
    return [field.slice(0, first), field.slice(first + 1, second), field.slice(second + 1)];
}
function count(text) {
    return text === '-' ? null : Number(text);
}
/** `git ls-files -s -z`: "mode sha stage\tpath\0". */
function parseLsFilesStageZ(output) {
    return splitNul(output).map((field) => {
        const tab = field.indexOf('\t');
        const [mode, sha, stage] = field.slice(0, tab).split(' ');
        return { mode: mode, sha: sha, stage: Number(stage), path: field.slice(tab + 1) };
    });
}
/** `git ls-tree -r -z --long`: "mode type sha size\tpath\0" (size "-" for trees and gitlinks). */
function parseLsTreeLongZ(output) {
    return splitNul(output).map((field) => {
        const tab = field.indexOf('\t');
        const [mode, type, sha, size] = field
            .slice(0, tab)
            .split(' ')
            .filter((part) => part !== '');
        return {
            mode: mode,
            type: type,
            sha: sha,
            size: size === '-' ? null : Number(size),
            path: field.slice(tab + 1),
        };
    });
}
/** `git check-attr -z <attr> -- paths`: "path\0attr\0value\0" triples. */
function parseCheckAttrZ(output) {
    const fields = splitNul(output);
    const values = new Map();
    for (let i = 0; i + 2 < fields.length; i += 3) {
        values.set(fields[i], fields[i + 2]);
    }
    return values;
}
/** `git push --porcelain`: lines "<flag>\t<from>:<to>\t<summary>" between "To <url>" and "Done". */
function parsePushPorcelain(output) {
    const results = [];
    for (const line of output.split('\n')) {
        const match = /^([ +\-*=!])\t([^\t]*)\t(.*)$/.exec(line);
        if (!match)
            continue;
        const [, flag, refs, summary] = match;
        const colon = refs.lastIndexOf(':');
        results.push({
            status: PUSH_FLAGS[flag],
            from: refs.slice(0, colon),
            to: refs.slice(colon + 1),
            summary: summary,
        });
    }
    return results;
}
const PUSH_FLAGS = {
    ' ': 'ok',
    '+': 'forced',
    '*': 'new',
    '-': 'deleted',
    '!': 'rejected',
    '=': 'up-to-date',
};

// THE one git runner: every git process proctor starts goes through `Git.exec` (one-shot calls) or
// `Git.stream` (the two long-lived processes a checkpointing session talks to, stream.ts). Argv arrays only (no
// shell), a sanitized environment, our `-c` settings, `GIT_INDEX_FILE` only per call for a private index,
// NUL-separated output, and errors that carry the argv, exit code and stderr tail.
//
// The process itself is started by exec.ts (node:child_process, argv array, stdin always closed, the
// result read on 'close' so every byte has arrived); the runner's limiter (p-limit) bounds how many run.
const ZERO_OID_SHA1 = '0000000000000000000000000000000000000000';
const ARG_CHUNK = 2000;
/**
 * Commands that talk to a remote: they have their own timeouts (checkpoints.push_timeout) and may
 * rightly take long on a slow network; the deadline (deadline.ts) is for calls that read the worktree.
 */
const NETWORK_COMMANDS = new Set(['push', 'fetch', 'ls-remote', 'clone']);
class Git {
    cwd;
    binary;
    env;
    maxConcurrent;
    /** Bounds how many gits run at once; made at the first asynchronous call (see exec). */
    limiter;
    /** See GitRunnerOptions.synchronous. */
    synchronous;
    identity;
    emptyTreeSha;
    /** proctor's own config and shadow git dir (isolation.ts), made at the first call. */
    isolation;
    isolated = null;
    /** Isolations by directory, shared with the runners at() makes: one per worktree, not one per call. */
    isolations = new Map();
    /**
     * When every call but a network one is killed (deadline.ts): nothing the agent plants where git reads
     * may block proctor. Shared with the runners at() makes; a session moves its end.
     */
    deadline = new GitDeadline();
    constructor(options) {
        this.cwd = path.resolve(options.cwd);
        this.binary = options.binary ?? 'git';
        this.env = sanitizedGitEnv(options.env ?? process.env);
        this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 6);
        this.synchronous = options.synchronous === true;
    }
    /** A runner for another directory (a worktree, a bare remote) with the same settings. */
    at(cwd) {
        const other = new Git({
            cwd,
            binary: this.binary,
            maxConcurrent: this.maxConcurrent,
            env: {},
            synchronous: this.synchronous,
        });
        Object.assign(other.env, this.env);
        other.isolations = this.isolations;
        other.deadline = this.deadline;
        return other;
    }
    /** A variable of the environment git runs with (after sanitizing), e.g. GIT_CONFIG_GLOBAL. */
    envValue(key) {
        return this.env[key];
    }
    /** The escape hatch: any git command, text output. Throws GitError unless the exit code is 0 or allowed. */
    async raw(args, options = {}) {
        const result = await this.exec(args, options);
        return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, exitCode: result.exitCode };
    }
    /** Like raw, with stdout as bytes (blob contents). */
    async exec(args, options = {}) {
        // A synchronous runner's gits run one at a time by construction, each to completion inside this call:
        // the limiter would add nothing but its promise hops, and its cold first call was ~0.7 ms of a one-shot
        // `checkpoints create` before its first git.
        if (this.synchronous)
            return this.spawnGit(args, options);
        this.limiter ??= pLimit(this.maxConcurrent);
        return this.limiter(() => this.spawnGit(args, options));
    }
    // ---- repository facts -------------------------------------------------------------------------
    /** The commit/object a revision names, or null when it does not resolve. */
    async revParse(rev) {
        const result = await this.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], {
            okExitCodes: [1],
        });
        return result.exitCode === 0 ? result.stdout.trim() : null;
    }
    /** HEAD's commit, or null on an unborn branch. */
    headCommit() {
        return this.revParse('HEAD^{commit}');
    }
    async topLevel() {
        return (await this.raw(['rev-parse', '--show-toplevel'])).stdout.replace(/\n$/, '');
    }
    /** Absolute path of a file inside this worktree's git dir (`--git-path`, so linked worktrees work). */
    async gitPath(name) {
        const out = (await this.raw(['rev-parse', '--git-path', name])).stdout.replace(/\n$/, '');
        return path.resolve(this.cwd, out);
    }
    /** Absolute per-worktree git dir. */
    async gitDir() {
        const out = (await this.raw(['rev-parse', '--git-dir'])).stdout.replace(/\n$/, '');
        return path.resolve(this.cwd, out);
    }
    async isShallow() {
        return (await this.raw(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
    }
    /** The all-zero object id of this repository's hash algorithm (sha1 or sha256). */
    async zeroOid() {
        return '0'.repeat((await this.emptyTree()).length) || ZERO_OID_SHA1;
    }
    /** The id of the empty tree in this repository's hash algorithm. */
    emptyTree() {
        this.emptyTreeSha ??= this.raw(['hash-object', '-t', 'tree', '--stdin'], { input: '' }).then((r) => r.stdout.trim());
        return this.emptyTreeSha;
    }
    async remotes() {
        return (await this.raw(['remote'])).stdout.split('\n').filter((line) => line !== '');
    }
    async configGet(key) {
        const result = await this.raw(['config', '--get', '--', key], { okExitCodes: [1] });
        return result.exitCode === 0 ? result.stdout.replace(/\n$/, '') : null;
    }
    // ---- index and tree plumbing (always on a private index) --------------------------------------
    /** Load a tree into the private index: `--reset` keeps stat data of matching entries; null = empty. */
    async readTree(indexFile, treeish, options = {}) {
        const args = ['read-tree'];
        if (treeish === null)
            args.push('--empty');
        else {
            if (options.reset)
                args.push('--reset');
            args.push(treeish);
        }
        await this.raw(args, { indexFile });
    }
    /**
     * `add -A` of the whole worktree into the private index, honouring .gitignore. Excluded paths are
     * passed as literal exclude pathspecs through stdin, so no path is ever parsed as an option or glob.
     */
    async addAll(indexFile, options = {}) {
        const specs = [':(top)', ...(options.exclude ?? []).map((p) => `:(top,literal,exclude)${p}`)];
        await this.raw(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            indexFile,
            input: specs.join('\0') + '\0',
        });
    }
    /** Remove paths from the private index only (the files stay). */
    async removeCached(indexFile, paths) {
        if (paths.length === 0)
            return;
        await this.raw(['rm', '--cached', '-r', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            indexFile,
            input: paths.map((p) => `:(top,literal)${p}`).join('\0') + '\0',
        });
    }
    async writeTree(indexFile) {
        return (await this.raw(['write-tree'], { indexFile })).stdout.trim();
    }
    /** Create a commit object; identity falls back to proctor's only when the user has none. */
    async commitTree(tree, parents, message) {
        const args = ['commit-tree', '--no-gpg-sign'];
        for (const parent of parents)
            args.push('-p', parent);
        args.push('-F', '-', tree);
        if (!this.identity) {
            // Most users have an identity: try theirs first (git refuses to guess one under useConfigOnly, as
            // the probe does), and probe only when that fails, instead of two `git var` before every first commit.
            const first = await this.raw(args, {
                input: message,
                config: ['user.useConfigOnly=true'],
                okExitCodes: [128],
            });
            if (first.exitCode === 0)
                return first.stdout.trim();
        }
        const result = await this.raw(args, { input: message, env: await this.identityEnv() });
        return result.stdout.trim();
    }
    /**
     * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
     * Throws RefMovedError when someone else moved it.
     */
    async updateRefCas(ref, newSha, oldSha, reason = 'proctor') {
        // The all-zero id is as long as the new one (sha1 or sha256): no process to learn the hash algorithm.
        const expected = oldSha ?? '0'.repeat(newSha.length);
        const args = ['update-ref', '-m', reason, '--end-of-options', ref, newSha, expected];
        const result = await this.exec(args, { okExitCodes: [1, 128] });
        if (result.exitCode !== 0) {
            const details = { args, cwd: this.cwd, exitCode: result.exitCode, signal: null, stderr: result.stderr };
            const current = await this.revParse(ref);
            if (current !== oldSha)
                throw new RefMovedError(ref, oldSha, details);
            throw new GitError(details);
        }
    }
    async deleteRef(ref, oldSha) {
        const args = ['update-ref', '-d', '--end-of-options', ref];
        if (oldSha)
            args.push(oldSha);
        await this.raw(args);
    }
    /** Refs under a prefix with the objects they point at. */
    async forEachRef(prefix) {
        const out = (await this.raw(['for-each-ref', '--format=%(objectname) %(refname)', '--', prefix])).stdout;
        return out
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => ({ sha: line.slice(0, line.indexOf(' ')), ref: line.slice(line.indexOf(' ') + 1) }));
    }
    /** `ls-files -z` of the user's index (or a private one): tracked paths, or untracked with `others`. */
    async lsFiles(options = {}) {
        const args = ['ls-files', '-z', '--full-name'];
        if (options.others)
            args.push('--others');
        if (options.ignored)
            args.push('--ignored');
        if (options.excludeStandard)
            args.push('--exclude-standard');
        const call = {};
        if (options.indexFile)
            call.indexFile = options.indexFile;
        return splitNul((await this.raw(args, call)).stdout);
    }
    async lsFilesStage(indexFile) {
        const call = {};
        if (indexFile)
            call.indexFile = indexFile;
        return parseLsFilesStageZ((await this.raw(['ls-files', '-s', '-z', '--full-name'], call)).stdout);
    }
    /** Whether the index has assume-unchanged or skip-worktree entries (their stat data cannot be trusted). */
    async hasHiddenIndexEntries(indexFile) {
        const call = {};
        if (indexFile)
            call.indexFile = indexFile;
        const fields = splitNul((await this.raw(['ls-files', '-v', '-z'], call)).stdout);
        return fields.some((field) => /^[a-zS] /.test(field));
    }
    /**
     * The entries of `treeish`, or of the given paths (literal, from the top) in it, with mode, id and size:
     * every file below them, or with `recursive: false` git's listing without `-r` (a directory at the top is one
     * entry).
     */
    async lsTree(treeish, paths = [], options = {}) {
        const args = ['ls-tree', ...(options.recursive === false ? [] : ['-r'])];
        args.push('-z', '--long', '--full-tree', '--end-of-options', treeish);
        if (paths.length === 0)
            return parseLsTreeLongZ((await this.raw(args)).stdout);
        const entries = [];
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK).map((p) => `:(top,literal)${p}`);
            entries.push(...parseLsTreeLongZ((await this.raw([...args, '--', ...chunk])).stdout));
        }
        return entries;
    }
    /** Working-tree status without refreshing (or rewriting) the user's index. */
    async statusZ(options = {}) {
        const args = ['status', '--porcelain=v1', '-z', `--untracked-files=${options.untracked ?? 'all'}`];
        const result = await this.raw(args, { globalArgs: ['--no-optional-locks'] });
        return parseStatusZ(result.stdout);
    }
    /** Raw + numstat diff between two trees (or commits), renames detected. */
    async diffTreeZ(from, to, options = {}) {
        const args = [...diffTreeArgs(options), '--end-of-options', from, to];
        return parseRawNumstatZ((await this.raw(args)).stdout);
    }
    /**
     * diffTreeZ for several pairs of trees named by full object ids, in one process (`diff-tree --stdin`):
     * a checkpoint's diff since the previous one and since the baseline cost one git start, not two.
     */
    async diffTreesZ(pairs) {
        if (pairs.some((pair) => pair.some((id) => !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(id)))) {
            throw new Error(`diffTreesZ takes full object ids: ${pairs.flat().join(' ')}`);
        }
        const headers = pairs.map(([from, to]) => `${from} ${to}\n`);
        const { stdout } = await this.raw([...diffTreeArgs(), '--stdin'], { input: headers.join('') });
        // Each pair's output follows its line, echoed as given; a pair's -z output ends with a NUL. A path
        // cannot hold the next line: that would be a tree id naming a tree that holds the path itself.
        const sections = [];
        let at = 0;
        headers.forEach((header, i) => {
            if (!stdout.startsWith(header, at))
                throw new Error(`git diff-tree --stdin: unexpected output at ${at}`);
            at += header.length;
            const next = headers[i + 1];
            let end = stdout.length;
            if (next !== undefined) {
                end = stdout.startsWith(next, at) ? at : stdout.indexOf(`\0${next}`, at) + 1;
                if (end === 0)
                    throw new Error('git diff-tree --stdin: a pair is missing from its output');
            }
            sections.push(parseRawNumstatZ(stdout.slice(at, end)));
            at = end;
        });
        return sections;
    }
    /** Type and size of many objects in one process; null for objects that do not exist. */
    async catFileInfo(objects) {
        const info = new Map();
        if (objects.length === 0)
            return info;
        const unique = [...new Set(objects)];
        const result = await this.raw(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
            input: unique.join('\n') + '\n',
        });
        const lines = result.stdout.split('\n');
        unique.forEach((object, i) => {
            const parts = (lines[i] ?? '').split(' ');
            info.set(object, parts[1] === 'missing' || parts.length < 3 ? null : { type: parts[1], size: Number(parts[2]) });
        });
        return info;
    }
    /**
     * Commits named by revisions (e.g. `HEAD^{commit}`), read in one `cat-file --batch`: id, tree and
     * message of each; null for a revision that does not name a commit.
     */
    async readCommits(revs) {
        const result = await this.exec(['cat-file', '--batch'], { input: revs.join('\n') + '\n' });
        return parseBatchCommits(result.stdout, revs.length);
    }
    /**
     * The content of many blobs (object ids, or `<commit>:<path>` without a newline) in one `cat-file
     * --batch`; null for a name that is not a blob.
     */
    async readBlobs(revs) {
        if (revs.length === 0)
            return [];
        const result = await this.exec(['cat-file', '--batch'], { input: revs.join('\n') + '\n' });
        return parseBatch(result.stdout, revs.length).map((o) => (o?.type === 'blob' ? o.content : null));
    }
    async catFileSize(object) {
        return (await this.catFileInfo([object])).get(object)?.size ?? null;
    }
    async catFileBlob(object) {
        return (await this.exec(['cat-file', 'blob', object])).stdout;
    }
    /** The subset of `paths` that .gitignore (and info/exclude, core.excludesFile) ignores. */
    async checkIgnore(paths) {
        const ignored = new Set();
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK);
            const result = await this.raw(['check-ignore', '-z', '--no-index', '--stdin'], {
                input: chunk.join('\0') + '\0',
                okExitCodes: [1],
            });
            for (const p of splitNul(result.stdout))
                ignored.add(p);
        }
        return ignored;
    }
    /** The value of one attribute for each path ("unspecified", "set", "unset" or the value). */
    async checkAttr(attr, paths, indexFile) {
        const values = new Map();
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK);
            const call = { input: chunk.join('\0') + '\0' };
            if (indexFile)
                call.indexFile = indexFile;
            const result = await this.raw(['check-attr', '-z', '--stdin', attr], call);
            for (const [p, value] of parseCheckAttrZ(result.stdout))
                values.set(p, value);
        }
        return values;
    }
    /**
     * Write index entries to the worktree (all, or the given paths) without touching the user's index.
     * `asStored`: the blobs' bytes as they are, without core.autocrlf/core.eol conversion.
     */
    async checkoutIndex(indexFile, paths, options = {}) {
        const config = options.asStored ? ['core.autocrlf=false', 'core.eol=lf'] : [];
        if (paths === 'all') {
            await this.raw(['checkout-index', '-a', '-f'], { indexFile, config });
            return;
        }
        if (paths.length === 0)
            return;
        await this.raw(['checkout-index', '-f', '-z', '--stdin'], {
            indexFile,
            config,
            input: paths.join('\0') + '\0',
        });
    }
    // ---- network and sharing -----------------------------------------------------------------------
    /** Push refspecs; never forces. A rejection is an outcome (ok=false), not a throw. */
    async push(remote, refspecs, options = {}) {
        for (const spec of refspecs) {
            if (spec.startsWith('+'))
                throw new Error(`refusing to force-push ${spec}: proctor only fast-forwards`);
        }
        const args = [
            'push',
            '--porcelain',
            '--no-verify',
            ...(options.extraArgs ?? []),
            '--',
            remote,
            ...refspecs,
        ];
        const call = { okExitCodes: [1, 128] };
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (options.secretConfig)
            call.secretConfig = options.secretConfig;
        const result = await this.raw(args, call);
        const refs = parsePushPorcelain(result.stdout);
        const ok = result.exitCode === 0 && refs.every((r) => r.status !== 'rejected');
        return { ok, exitCode: result.exitCode, refs, stderr: result.stderr };
    }
    /** Fetch refspecs; with `depth` only that much history comes down (never unshallows). */
    async fetch(remote, refspecs, options = {}) {
        const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules'];
        if (options.depth)
            args.push(`--depth=${options.depth}`);
        args.push('--', remote, ...refspecs);
        const call = {};
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (options.secretConfig)
            call.secretConfig = options.secretConfig;
        return this.raw(args, call);
    }
    /** `git ls-remote` of one ref: its object id, or null when the remote lacks it. */
    async lsRemote(remote, ref, options = {}) {
        const call = {};
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        const out = (await this.raw(['ls-remote', '--', remote, ref], call)).stdout;
        const line = out.split('\n').find((l) => l.endsWith(`\t${ref}`));
        return line ? line.slice(0, line.indexOf('\t')) : null;
    }
    async bundleCreate(file, revs) {
        await this.raw(['bundle', 'create', '--quiet', file, ...revs]);
    }
    async worktreeAdd(dir, commitish, options = {}) {
        const args = ['worktree', 'add', '--quiet'];
        if (options.detach ?? true)
            args.push('--detach');
        args.push('--', dir, commitish);
        await this.raw(args);
    }
    async worktreeRemove(dir, options = {}) {
        const args = ['worktree', 'remove'];
        if (options.force)
            args.push('--force');
        args.push('--', dir);
        await this.raw(args);
    }
    // ---- internals ---------------------------------------------------------------------------------
    /**
     * Author/committer environment for our commits: the user's own identity when git has one (config or
     * GIT_AUTHOR_* / GIT_COMMITTER_*), else `proctor <proctor@localhost>`; a CI runner without
     * user.name must not make checkpoints fail.
     */
    async identityEnv() {
        return (await this.identityProbe()).env;
    }
    /**
     * Who our commits are by, as `git commit-tree` would write it: `Name <email>` per role, and the date
     * only when GIT_AUTHOR_DATE / GIT_COMMITTER_DATE pins it (otherwise each commit takes the time it is made).
     */
    async commitIdents() {
        return (await this.identityProbe()).idents;
    }
    identityProbe() {
        this.identity ??= (async () => {
            const env = {};
            const probe = (role, config, extra = {}) => this.raw(['var', `GIT_${role}_IDENT`], { config, env: extra, okExitCodes: [128, 1] });
            const idents = await Promise.all(['AUTHOR', 'COMMITTER'].map(async (role) => {
                let result = await probe(role, ['user.useConfigOnly=true']);
                if (result.exitCode !== 0) {
                    env[`GIT_${role}_NAME`] = FALLBACK_IDENTITY.name;
                    env[`GIT_${role}_EMAIL`] = FALLBACK_IDENTITY.email;
                    result = await probe(role, [], {
                        [`GIT_${role}_NAME`]: FALLBACK_IDENTITY.name,
                        [`GIT_${role}_EMAIL`]: FALLBACK_IDENTITY.email,
                    });
                }
                const line = result.stdout.trim();
                const match = /^(.* <[^<>]*>) (\d+ [+-]\d{4})$/.exec(line);
                if (result.exitCode !== 0 || !match) {
                    throw new GitError({
                        args: ['var', `GIT_${role}_IDENT`],
                        cwd: this.cwd,
                        exitCode: result.exitCode,
                        signal: null,
                        stderr: result.stderr,
                    }, `git var GIT_${role}_IDENT gave no usable identity ("${line}")`);
                }
                return { name: match[1], date: this.env[`GIT_${role}_DATE`] ? match[2] : null };
            }));
            return { env, idents: { author: idents[0], committer: idents[1] } };
        })();
        return this.identity;
    }
    /**
     * A long-lived git process for a request/answer conversation (`update-ref --stdin`,
     * `hash-object --stdin-paths`), with the same environment and settings as every other call.
     */
    stream(args, options = {}) {
        return new GitStream(this.invocation(args, options));
    }
    /**
     * Makes (once) the config and shadow git dir every later call runs with (isolation.ts), reading the
     * user's config now: a session calls this before its agent starts, so nothing the agent writes later is
     * ever read by proctor's git. Null for a bare repository or outside one.
     */
    isolate() {
        if (!this.isolation) {
            let shared = this.isolations.get(this.cwd);
            if (!shared) {
                shared = makeIsolation(this.cwd, async (args, okExitCodes) => {
                    const call = this.invocation(args, { okExitCodes: okExitCodes ?? [] }, 'user');
                    const result = await (this.synchronous ? runGitSync(call) : runGit(call));
                    return result.stdout.toString('utf8');
                }, (key) => this.env[key]);
                this.isolations.set(this.cwd, shared);
            }
            this.isolation = shared.then((isolation) => (this.isolated = isolation));
        }
        return this.isolation;
    }
    /**
     * `git config --show-scope --show-origin -z --list` as isolate() read it (the user's config before the
     * agent started, in a session); null without an isolation.
     */
    async startupConfig() {
        return (await this.isolate())?.listing ?? null;
    }
    /**
     * Where `git push <remote>` went with the config as it was when isolate() read it; `remote` itself when
     * it is a URL or a path; null when there was no such remote.
     */
    async trustedPushUrl(remote) {
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || path.isAbsolute(remote))
            return remote;
        const isolation = await this.isolate();
        return isolation?.pushUrls.get(remote) ?? null;
    }
    async spawnGit(args, options) {
        const mode = isolationMode(args);
        if (mode !== 'user')
            await this.isolate();
        const call = this.invocation(args, options, mode);
        return this.synchronous ? runGitSync(call) : runGit(call);
    }
    invocation(args, options, mode = isolationMode(args)) {
        let env = { ...this.env, ...options.env };
        if (options.indexFile)
            env.GIT_INDEX_FILE = options.indexFile;
        if (options.secretConfig)
            Object.assign(env, configEnv(env, options.secretConfig));
        // A stream is started synchronously: it has the isolation if a call has made it (a session's calls
        // before the agent do), else only the empty global config; its two commands run no program either way.
        env = isolatedEnv(this.isolated, mode, env);
        const call = {
            binary: this.binary,
            cwd: options.cwd ?? this.cwd,
            env,
            config: [
                ...BASE_CONFIG,
                ...(options.indexFile ? [...PRIVATE_INDEX_CONFIG, splitIndexSetting(mode, this.isolated)] : []),
                ...(options.config ?? []),
            ],
            argv: [...(options.globalArgs ?? []), ...args],
            args,
        };
        if (options.input !== undefined)
            call.input = options.input;
        if (options.okExitCodes)
            call.okExitCodes = options.okExitCodes;
        if (options.onStdout)
            call.onStdout = options.onStdout;
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (!NETWORK_COMMANDS.has(args[0] ?? ''))
            call.deadline = this.deadline;
        return call;
    }
}
/**
 * A private index is split (`core.splitIndex`): its 100k entries live in a shared index git writes once, and
 * each write of the index (a listing's refreshed stat data, a staging, write-tree's cache-tree) writes only
 * what changed since. At 100k files that made each write ~30 ms cheaper (three per checkpoint). git puts the
 * shared index in the git dir it runs with, so only where that is proctor's private directory (isolation.ts:
 * one per process, removed at its end, never the user's .git); a private index is never read by another
 * process (the store drops one a crashed proctor left).
 */
function splitIndexSetting(mode, isolation) {
    return `core.splitIndex=${mode === 'shadow' && isolation !== null}`;
}
/**
 * `cat-file --batch` output for `count` revisions: "<oid> <type> <size>\n<content>\n" for each object, or
 * "<rev> missing" / "<rev> ambiguous" (null). Sizes are in bytes, so the content is cut from the bytes.
 */
function parseBatch(out, count) {
    const objects = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
        const eol = out.indexOf(10, at);
        if (eol < 0) {
            objects.push(null);
            continue;
        }
        const [oid, type, sizeText] = out.toString('latin1', at, eol).split(' ');
        at = eol + 1;
        if (!oid || !type || !/^[0-9a-f]{40,64}$/.test(oid) || sizeText === undefined) {
            objects.push(null);
            continue;
        }
        const content = out.subarray(at, at + Number(sizeText));
        at += content.length + 1;
        objects.push({ oid, type, content });
    }
    return objects;
}
function parseBatchCommits(out, count) {
    return parseBatch(out, count).map((object) => {
        if (object?.type !== 'commit')
            return null;
        const text = object.content.toString('utf8');
        const tree = /^tree ([0-9a-f]{40,64})\n/.exec(text)?.[1];
        const body = text.indexOf('\n\n');
        return tree ? { oid: object.oid, tree, message: body < 0 ? '' : text.slice(body + 2) } : null;
    });
}
/** The diff-tree options every tree diff is read with (parseRawNumstatZ reads their output). */
function diffTreeArgs(options = {}) {
    return [
        'diff-tree',
        '-r',
        '-z',
        '--raw',
        '--numstat',
        '--no-abbrev',
        '--no-ext-diff',
        '--no-textconv',
        options.renames === false ? '--no-renames' : '-M',
    ];
}

// Names of proctor's refs and branches, checked before they reach git.
const CHECKPOINT_REF_PREFIX = 'refs/proctor/';
/**
 * A session id must be one safe ref component: letters, digits, `.`, `_`, `-` (CI ids such as
 * `12345-1-build` qualify). Throws an error that says what is wrong and how to fix it.
 */
function assertSessionId(session) {
    const problem = !session
        ? 'it is empty'
        : session.length > 200
            ? 'it is longer than 200 characters'
            : !/^[A-Za-z0-9._-]+$/.test(session)
                ? 'it may only contain letters, digits, ".", "_" and "-"'
                : session.startsWith('.') || session.startsWith('-')
                    ? 'it may not start with "." or "-"'
                    : session.includes('..') || session.endsWith('.lock') || session.endsWith('.')
                        ? 'it may not contain ".." or end with "." or ".lock"'
                        : null;
    if (problem) {
        throw new Error(`invalid session id ${JSON.stringify(session)}: ${problem}; use e.g. "run-42-1-build"`);
    }
}
function checkpointRef(session) {
    assertSessionId(session);
    return `${CHECKPOINT_REF_PREFIX}${session}`;
}
/** The remote branch for a session from the `checkpoints.branch` template (`{session}` placeholder). */
function remoteBranchFor(template, session) {
    assertSessionId(session);
    const branch = template.replaceAll('{session}', session).replace(/^refs\/heads\//, '');
    if (!branch ||
        /(^|\/)\.|\.\.|[\s~^:?*[\\]|@\{|\/\/|\/$|\.lock(\/|$)/.test(branch) ||
        branch.startsWith('-') ||
        branch.endsWith('.')) {
        throw new Error(`checkpoints.branch ${JSON.stringify(template)} gives the invalid branch name ${JSON.stringify(branch)}; ` +
            'use something like "proctor/{session}"');
    }
    return branch;
}
/**
 * The local-only copy of a session's baseline with the files withheld from its checkpoints (forbidden
 * areas) as the user left them: outside refs/proctor/, so no push, bundle or fetch refspec of proctor's
 * ever names it.
 */
function localBaselineRef(session) {
    assertSessionId(session);
    return `refs/proctor-local/${session}`;
}

var refs = /*#__PURE__*/Object.freeze({
    __proto__: null,
    CHECKPOINT_REF_PREFIX: CHECKPOINT_REF_PREFIX,
    assertSessionId: assertSessionId,
    checkpointRef: checkpointRef,
    localBaselineRef: localBaselineRef,
    remoteBranchFor: remoteBranchFor
});

// Private index files left by sessions that crashed (SIGKILL, OOM): <git dir>/proctor/index-<session>,
// its .commit/.lock/.owner companions, and the throwaway indexes of `checkpoints` commands, restores and
// baselines. Each is as big as the repository's index, so they are removed when nobody can be using them
// any more. Liveness is decided by the owner, never by the file's age: a session's index is a copy of the
// user's index with its mtime kept (see store.ts, copyUserIndex), so an index of a live session can look
// hours old, and removing it made checkpoint 1 record every other file as deleted (issue 27).
/** The companion of a session's private index that names the process using it: `<index>.owner`. */
function ownerFileOf(indexFile) {
    return `${indexFile}.owner`;
}
/**
 * Claims a session's private index for this process, before the index is created: the sweep of another
 * proctor then leaves it alone for as long as this process lives (the pid and its start time).
 */
function claimIndex(indexFile) {
    // Under .git, where the agent may have planted a link or a FIFO at this name: replaced, never written through.
    writeFileAtomic(ownerFileOf(indexFile), `${process.pid} ${processStartToken(process.pid) ?? ''}\n`);
}
/** Whether the process named by an index's owner file still lives (the same process, not a reused pid). */
function ownerAlive(ownerFile) {
    let text;
    try {
        text = readRegularFile(ownerFile, 256).toString('utf8');
    }
    catch {
        return false;
    }
    const [pidText, token] = text.trim().split(' ');
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0)
        return false;
    if (pid === process.pid)
        return true;
    if (!pidExists(pid))
        return false;
    return !token || processStartToken(pid) === token;
}
/**
 * Deletes private index files in `dir` (the `proctor/` directory under the git dir) that no live
 * process owns: session indexes whose session is not in `liveSessions` (nor `ownSession`) and whose owner
 * file names no live process, and per-process indexes (`cli-<pid>`, `restore-<pid>-…`,
 * `restore-index-<pid>-…`, `baseline-<pid>-…`) whose process is gone. Returns the names removed.
 */
function removeStaleIndexes(dir, liveSessions, ownSession) {
    let names;
    try {
        names = fs__default.readdirSync(dir);
    }
    catch {
        return [];
    }
    const removed = [];
    for (const name of names) {
        const base = name.replace(/\.commit\.lock$/, '').replace(/\.(commit|lock|owner)$/, '');
        const session = /^index-(.+)$/.exec(base)?.[1];
        const pid = /^(?:cli|restore|restore-index|baseline)-(\d+)(?:-[0-9a-f]+)?$/.exec(base)?.[1];
        if (session === undefined && pid === undefined)
            continue;
        if (session !== undefined) {
            if (session === ownSession || liveSessions.has(session))
                continue;
            // Claimed before the index was created: an index without a live owner was left by a proctor that
            // is gone (or by one older than the claim, whose session is not live either).
            if (ownerAlive(path.join(dir, `${base}.owner`)))
                continue;
        }
        if (pid !== undefined && Number(pid) !== process.pid && pidExists(Number(pid)))
            continue;
        if (pid !== undefined && Number(pid) === process.pid)
            continue;
        const file = path.join(dir, name);
        try {
            fs__default.rmSync(file, { force: true });
            removed.push(name);
        }
        catch {
            // Gone meanwhile, or not ours to remove.
        }
    }
    return removed;
}
/** removeStaleIndexes for the repository at `cwd` (nothing outside a repository). */
async function removeStaleRepoIndexes(cwd, liveSessions, ownSession) {
    return removeStaleIndexes(await proctorGitPath(cwd), liveSessions, ownSession);
}
/**
 * `<git dir>/proctor`, read from `.git` (a directory, or the `gitdir:` link of a linked worktree such as a
 * batch child's) without starting git: each git process forks proctor, which blocks its event loop while
 * an agent's output waits to be read. Only an unusual layout asks git.
 */
async function proctorGitPath(cwd) {
    const root = findRepoRoot(cwd);
    const dirs = root ? readGitDirs(root) : null;
    if (dirs)
        return path.join(dirs.gitDir, 'proctor');
    return new Git({ cwd }).gitPath('proctor');
}

// Commit objects for one session through one long-lived `git hash-object -w -t commit --stdin-paths`
// (the way git-svn writes objects): the commit text is written to a scratch file, its path goes to git,
// the id comes back. The text is exactly what `git commit-tree` writes for an unsigned commit: tree,
// parents, author and committer as git itself resolves them (`git var`, config or GIT_AUTHOR_*, proctor's
// fallback identity when there is none), the current time in the local time zone unless GIT_*_DATE pins
// it, a blank line and the message. Any failure falls back to `git commit-tree` for the rest of the session.
class CommitWriter {
    git;
    scratchFile;
    now;
    /** undefined: not started yet; null: given up on, `commit-tree` from now on. */
    stream;
    constructor(git, 
    /** Where each commit's text is written for git to read (inside the git dir, owned by the session). */
    scratchFile, 
    /** Injected clock (tests); default Date.now. */
    now = Date.now) {
        this.git = git;
        this.scratchFile = scratchFile;
        this.now = now;
        // --stdin-paths reads one path per line.
        if (scratchFile.includes('\n'))
            this.stream = null;
    }
    /** Start git (and resolve the identity) ahead of the first commit, so its start-up overlaps other work. */
    prepare() {
        if (this.stream === null)
            return;
        this.git.commitIdents().catch(() => undefined);
        this.start();
    }
    start() {
        if (this.stream === undefined) {
            this.stream = this.git.stream(['hash-object', '-w', '-t', 'commit', '--no-filters', '--stdin-paths']);
        }
        return this.stream;
    }
    async commit(tree, parents, message) {
        if (this.stream === null)
            return this.git.commitTree(tree, parents, message);
        try {
            const idents = await this.git.commitIdents();
            const when = this.now();
            const lines = [`tree ${tree}`, ...parents.map((parent) => `parent ${parent}`)];
            lines.push(`author ${idents.author.name} ${idents.author.date ?? gitDate(when)}`);
            lines.push(`committer ${idents.committer.name} ${idents.committer.date ?? gitDate(when)}`);
            fs__default.writeFileSync(this.scratchFile, `${lines.join('\n')}\n\n${message}`);
            const stream = this.start();
            const [sha] = await stream.request(`${this.scratchFile}\n`, 1);
            if (sha && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha))
                return sha;
            throw new Error(`unexpected answer from git hash-object: ${sha ?? ''}`);
        }
        catch {
            const stream = this.stream;
            this.stream = null;
            void stream?.close();
            return this.git.commitTree(tree, parents, message);
        }
    }
    async close() {
        const stream = this.stream;
        if (stream) {
            this.stream = undefined;
            await stream.close();
        }
        fs__default.rmSync(this.scratchFile, { force: true });
    }
}
/** `<seconds> <+hhmm>` in the local time zone, as git writes dates in commit objects. */
function gitDate(ms) {
    const offset = -new Date(ms).getTimezoneOffset();
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
    return `${Math.floor(ms / 1000)} ${sign}${hhmm}`;
}

// Compare-and-swap ref updates for one session through one long-lived `git update-ref -z --stdin`: each
// update is its own transaction (start, update, prepare, commit), so a session's checkpoints move their
// ref without a git process each. git older than 2.27 (no transaction commands), or a stream that died
// for any reason other than a lost compare-and-swap, falls back to one `git update-ref` per update.
class RefUpdater {
    git;
    reason;
    /** undefined: not started yet; null: given up on, one-shot calls from now on. */
    stream;
    constructor(git, 
    /** The reflog message of every update (git takes one per process). */
    reason) {
        this.git = git;
        this.reason = reason;
    }
    /** Start git ahead of the first update, so its start-up overlaps other work. */
    prepare() {
        if (this.stream === null)
            return;
        this.start();
    }
    start() {
        if (this.stream === undefined)
            this.stream = this.git.stream(['update-ref', '-m', this.reason, '-z', '--stdin']);
        return this.stream;
    }
    /**
     * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
     * Throws RefMovedError when someone else moved it.
     */
    async updateCas(ref, newSha, oldSha) {
        if (this.stream === null)
            return this.git.updateRefCas(ref, newSha, oldSha, this.reason);
        const stream = this.start();
        const command = `start\0update ${ref}\0${newSha}\0${oldSha ?? '0'.repeat(newSha.length)}\0prepare\0commit\0`;
        try {
            const answers = await stream.request(command, 3);
            if (answers.join('\n') === 'start: ok\nprepare: ok\ncommit: ok')
                return;
            throw new Error(`unexpected answer from git update-ref --stdin: ${answers.join(' / ')}`);
        }
        catch (error) {
            // The stream is gone either way: a failed transaction ends the process.
            this.stream = undefined;
            const current = await this.git.revParse(ref);
            if (current === newSha)
                return; // committed before the answer was lost
            if (current !== oldSha) {
                const details = error instanceof GitError ? error : null;
                throw new RefMovedError(ref, oldSha, {
                    args: ['update-ref', '--stdin', ref],
                    cwd: this.git.cwd,
                    exitCode: details?.exitCode ?? null,
                    signal: details?.signal ?? null,
                    stderr: details?.stderr ?? '',
                });
            }
            // Not a lost race (old git, the process was killed): one-shot calls from now on.
            this.stream = null;
            return this.git.updateRefCas(ref, newSha, oldSha, this.reason);
        }
    }
    /** Let git exit; later updates start a new process. */
    async close() {
        const stream = this.stream;
        if (stream) {
            this.stream = undefined;
            await stream.close();
        }
    }
}

const SYMLINK_MODE = '120000';
const GITLINK_MODE = '160000';
const NULL_MODE = '000000';
/**
 * Every file that differs between `fromTree` and `toTree` (trees or commits; null `fromTree` = the empty
 * tree, i.e. everything is added). Renames are detected (status R with oldPath); copies are not.
 */
async function diffTrees(git, fromTree, toTree) {
    const from = fromTree ?? (await git.emptyTree());
    const diff = await git.diffTreeZ(from, toTree);
    return changedFiles(git, diff, await git.catFileInfo(newBlobsOf(diff.raw)));
}
/**
 * diffTrees for several pairs of trees named by full object ids, with one `diff-tree` and one `cat-file`
 * for them all (a checkpoint's diffs since the previous checkpoint and since the baseline).
 */
async function diffTreePairs(git, pairs) {
    const diffs = await git.diffTreesZ(pairs);
    const sizes = await git.catFileInfo(diffs.flatMap((diff) => newBlobsOf(diff.raw)));
    return Promise.all(diffs.map((diff) => changedFiles(git, diff, sizes)));
}
function newBlobsOf(raw) {
    return raw.filter((e) => e.newMode !== NULL_MODE && e.newMode !== GITLINK_MODE).map((e) => e.newSha);
}
async function changedFiles(git, { raw, numstat }, sizes) {
    const lines = new Map(numstat.map((n) => [n.path, n]));
    const files = [];
    for (const entry of raw) {
        const status = normalizeStatus(entry.status);
        const deleted = entry.newMode === NULL_MODE;
        const gitlink = entry.newMode === GITLINK_MODE || entry.oldMode === GITLINK_MODE;
        const counts = gitlink ? undefined : lines.get(entry.path);
        const file = {
            path: entry.path,
            status,
            oldMode: entry.oldMode === NULL_MODE ? null : entry.oldMode,
            newMode: deleted ? null : entry.newMode,
            size: deleted || entry.newMode === GITLINK_MODE ? null : (sizes.get(entry.newSha)?.size ?? null),
            linesAdded: counts?.added ?? null,
            linesDeleted: counts?.deleted ?? null,
        };
        if (entry.oldPath !== undefined)
            file.oldPath = entry.oldPath;
        if (entry.oldMode !== NULL_MODE)
            file.oldBlob = entry.oldSha;
        if (!deleted)
            file.newBlob = entry.newSha;
        if (entry.newMode === SYMLINK_MODE) {
            file.symlinkTarget = (await git.catFileBlob(entry.newSha)).toString('utf8');
        }
        files.push(file);
    }
    return files;
}
/** Trees hold no unmerged or unknown entries; a copy (never requested) would be an addition. */
function normalizeStatus(letter) {
    if (letter === 'A' || letter === 'M' || letter === 'D' || letter === 'T' || letter === 'R')
        return letter;
    if (letter === 'C')
        return 'A';
    return 'M';
}
/** Paths a change touches (both sides of a rename), for reports and restore. */
function touchedPaths(files) {
    const paths = [];
    for (const file of files) {
        if (file.oldPath !== undefined)
            paths.push(file.oldPath);
        paths.push(file.path);
    }
    return paths;
}

var diff = /*#__PURE__*/Object.freeze({
    __proto__: null,
    GITLINK_MODE: GITLINK_MODE,
    SYMLINK_MODE: SYMLINK_MODE,
    diffTreePairs: diffTreePairs,
    diffTrees: diffTrees,
    touchedPaths: touchedPaths
});

// The first checkpoint of a session records every changed or untracked, unignored file. In a repository
// whose .gitignore misses node_modules/ (or a build directory) that is thousands of files, hashed and
// committed for many seconds (13,711 files took 26 s on a loaded runner). Before it starts, say so, which
// directories hold the bulk, and the fix; while it works, how far along it is, at a bounded rate; when it
// ends, how long it took.
/** Above this many files the first checkpoint is worth a warning. */
const LARGE_FIRST_SNAPSHOT = 2000;
/** Spacing of the progress lines of a large first checkpoint. */
const SNAPSHOT_PROGRESS_INTERVAL_MS = 3000;
class FirstSnapshotWatch {
    notice;
    options;
    checked = false;
    started = null;
    count = 0;
    lastProgress = 0;
    threshold;
    now;
    constructor(notice, options = {}) {
        this.notice = notice;
        this.options = options;
        this.threshold = options.threshold ?? LARGE_FIRST_SNAPSHOT;
        this.now = options.now ?? Date.now;
    }
    /** Called with the paths about to be staged; acts on the session's first snapshot only. */
    begin(paths, seq) {
        if (this.checked || (!this.notice && !this.options.onProgress))
            return;
        this.checked = true;
        if (seq !== 0 || paths.length <= this.threshold)
            return;
        this.count = paths.length;
        this.started = this.now();
        this.lastProgress = this.started;
        this.notice?.('warning', largeSnapshotMessage(paths));
    }
    /** Whether a large first snapshot is being staged (its progress is worth counting). */
    get active() {
        return this.started !== null;
    }
    /**
     * `done` of the `total` files being staged (those begun with, less any left out) are hashed; passed
     * on when the interval since the last report is over.
     */
    progress(done, total = this.count) {
        const listener = this.options.onProgress;
        if (this.started === null || !listener)
            return;
        const now = this.now();
        if (now - this.lastProgress < (this.options.progressIntervalMs ?? SNAPSHOT_PROGRESS_INTERVAL_MS))
            return;
        this.lastProgress = now;
        try {
            listener({
                seq: 1,
                done: Math.min(done, total),
                total,
                elapsed_ms: now - this.started,
            });
        }
        catch {
            // A faulty listener must not break the checkpoint.
        }
    }
    /** Called once staging is over (or failed). */
    end() {
        if (this.started === null)
            return;
        const took = this.now() - this.started;
        this.started = null;
        this.notice?.('info', `first checkpoint: ${this.count.toLocaleString('en-US')} files read in ${formatDuration(took)}`);
    }
}
/** "checkpoint 1: 6,000 / 13,711 files (44%)": one progress line, for the CI log and the terminal. */
function describeSnapshotProgress(p) {
    const percent = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
    return `checkpoint ${p.seq}: ${p.done.toLocaleString('en-US')} / ${p.total.toLocaleString('en-US')} files (${percent}%)`;
}
/** The warning: how many files, the top-level directories holding most of them, and the fix. */
function largeSnapshotMessage(paths) {
    const byTop = new Map();
    for (const p of paths) {
        const slash = p.indexOf('/');
        const top = slash === -1 ? p : `${p.slice(0, slash)}/`;
        byTop.set(top, (byTop.get(top) ?? 0) + 1);
    }
    const biggest = [...byTop]
        .filter(([top]) => top.endsWith('/'))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 3);
    const where = biggest.length
        ? ` (${biggest.map(([top, n]) => `${top} ${n.toLocaleString('en-US')}`).join(', ')})`
        : '';
    const example = biggest[0]?.[0] ?? 'node_modules/';
    return (`the first checkpoint records ${paths.length.toLocaleString('en-US')} changed or untracked files that ` +
        `no .gitignore covers${where}; this can take a while. If they are not the agent's work, add them to ` +
        `.gitignore (e.g. \`echo ${example} >> .gitignore\`) or, for this clone only, to .git/info/exclude`);
}

// The checkpoint commit message: a subject, an optional body listing skipped files, and git trailers
// (`git interpret-trailers --parse` reads them), so a checkpoint describes itself without proctor's state.
const MAX_LISTED_SKIPS = 50;
const TRAILER = {
    session: 'Proctor-Session',
    seq: 'Proctor-Seq',
    base: 'Proctor-Base',
    baseline: 'Proctor-Baseline',
    trigger: 'Proctor-Trigger',
    violations: 'Proctor-Violations',
    skipped: 'Proctor-Skipped',
};
/** A trigger name as a single safe trailer token. */
function trailerToken(value) {
    return value.replace(/[^A-Za-z0-9._:-]+/g, '-').slice(0, 80) || 'unknown';
}
function formatCheckpointMessage(fields) {
    const trigger = trailerToken(fields.trigger);
    const noun = fields.filesChanged === 1 ? 'file' : 'files';
    const lines = [`proctor checkpoint ${fields.seq} (${trigger}): ${fields.filesChanged} ${noun}`, ''];
    if (fields.skipped.length > 0) {
        // JSON quoting keeps paths with newlines or odd characters on one line of the body.
        for (const skip of fields.skipped.slice(0, MAX_LISTED_SKIPS)) {
            const why = skip.reason === 'lfs'
                ? 'LFS-tracked'
                : skip.reason === 'unrecordable'
                    ? 'git could not record it (a nested repository without commits?)'
                    : skip.reason === 'forbidden'
                        ? `${skip.detail ?? 'in a forbidden area'}; its content stays out of checkpoints`
                        : skip.reason === 'secret'
                            ? `holds a secret (${skip.detail ?? 'content scan'}); its content stays out of checkpoints`
                            : `over max_file_size (${skip.size ?? '?'} bytes)`;
            lines.push(`Skipped ${JSON.stringify(skip.path)}: ${why}`);
        }
        if (fields.skipped.length > MAX_LISTED_SKIPS)
            lines.push(`... and ${fields.skipped.length - MAX_LISTED_SKIPS} more`);
        lines.push('');
    }
    lines.push(`${TRAILER.session}: ${fields.session}`, `${TRAILER.seq}: ${fields.seq}`, `${TRAILER.base}: ${fields.base ?? 'none'}`, ...(fields.baseline && fields.baseline !== fields.base
        ? [`${TRAILER.baseline}: ${fields.baseline}`]
        : []), `${TRAILER.trigger}: ${trigger}`, `${TRAILER.violations}: ${fields.violations}`, `${TRAILER.skipped}: ${fields.skipped.length}`);
    return lines.join('\n') + '\n';
}
/**
 * The baseline of the session checkpoint `sha` belongs to: itself when it is the baseline, else the one its
 * trailers name, else its base (the worktree was HEAD when the session started).
 */
function baselineOf(sha, parsed) {
    return parsed.trigger === 'baseline' ? sha : (parsed.baseline ?? parsed.base);
}
/** Read a checkpoint message back; tolerant of missing trailers (returns nulls). */
function parseCheckpointMessage(message) {
    const lines = message.replace(/\r\n/g, '\n').split('\n');
    const trailers = new Map();
    const skipped = [];
    for (const line of lines) {
        const trailer = /^(Proctor-[A-Za-z]+):\s*(.*)$/.exec(line);
        if (trailer)
            trailers.set(trailer[1], trailer[2].trim());
        const skip = /^Skipped ("(?:[^"\\]|\\.)*"):/.exec(line);
        if (skip) {
            try {
                skipped.push(JSON.parse(skip[1]));
            }
            catch {
                // A hand-edited message: keep going without that entry.
            }
        }
    }
    const number = (key) => {
        const value = trailers.get(key);
        return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
    };
    const base = trailers.get(TRAILER.base) ?? null;
    return {
        subject: lines[0] ?? '',
        session: trailers.get(TRAILER.session) ?? null,
        seq: number(TRAILER.seq),
        base: base === 'none' ? null : base,
        baseline: trailers.get(TRAILER.baseline) ?? null,
        trigger: trailers.get(TRAILER.trigger) ?? null,
        violations: number(TRAILER.violations) ?? 0,
        skippedCount: number(TRAILER.skipped) ?? skipped.length,
        skipped,
    };
}

// One session's checkpoints: snapshots of the worktree committed to refs/proctor/<session> through a
// private index. The user's index, HEAD, branches, stash and files are never written: every index
// operation sets GIT_INDEX_FILE to our own file, and refs are only created under refs/proctor/.
/** Triggers that may not wait for min_interval spacing (shutdown, the user, a restore). */
const URGENT_TRIGGERS = new Set(['final', 'manual', 'safety']);
/**
 * The listing of what differs in the worktree from the private index (changedPaths, openFromStatus):
 * `status` rather than `ls-files -m -o`, because status stats the index's entries on several threads
 * (preload), writes the stat data it refreshed back (a touched but unchanged file is read once, not at every
 * listing), and keeps git's untracked cache in the private index: a directory whose stat data (with its
 * ctime, which no process can set back: PRIVATE_INDEX_CONFIG trusts it) is unchanged since the last listing
 * is not read again. At 100k files that made the listing 230 → 135 ms. The cache serves `all` only when the
 * setting, not the command-line option, asks for it (listingOptions). Submodules are compared by their
 * commit only.
 */
const LISTING_ARGS = ['status', '--porcelain=v2', '-z', '--ignore-submodules=dirty', '--no-renames'];
/**
 * The listing's settings (`-c` through the runner, which puts it before the subcommand it isolates by) and,
 * when what it learnt is kept (`keep`), GIT_OPTIONAL_LOCKS back on, which the runner turns off (never write
 * the user's index): this index is proctor's own, and writing its refreshed stat data and untracked cache
 * is what makes the next listing cheap. A session's baseline keeps it (~6 ms at 10k files, ~30 at 100k,
 * before the agent's spawn: the first checkpoint after it then costs what later ones do, where it was up to
 * 1.4x at 100k); a listing that opens a store for one checkpoint (a one-shot `checkpoints create`) does not,
 * as it lists once.
 */
function listingOptions(keep) {
    const config = ['status.showUntrackedFiles=all'];
    return keep ? { config, env: { GIT_OPTIONAL_LOCKS: '1' } } : { config };
}
/**
 * What the store needs to open for `session`, from `start` (HEAD by default): one cat-file, which reads
 * both commits (their trees, and the chain tip's message that says where the chain stands).
 */
async function resolveOpening(git, session, start = 'HEAD') {
    const [startCommit, chainCommit] = await git.readCommits([
        `${start}^{commit}`,
        `${checkpointRef(session)}^{commit}`,
    ]);
    return {
        startCommit: startCommit?.oid ?? null,
        startTree: startCommit?.tree ?? null,
        chainCommit: chainCommit?.oid ?? null,
        chainTree: chainCommit?.tree ?? null,
        chainMessage: chainCommit?.message ?? null,
    };
}
class CheckpointStore {
    session;
    ref;
    options;
    git;
    /**
     * Created once the repository is known: one git process for the session's commit objects and one for
     * its ref updates, instead of a process for each per checkpoint.
     */
    commits;
    refs;
    /**
     * Commits this store has written. The first is made with one `commit-tree`, which is all a one-shot
     * `proctor checkpoints create` or a short session ever needs; the long-lived writer (and the identity
     * probe behind it) starts with the second. The ref updater's one process serves them all: it starts as
     * soon as a listing finds changes, so even the first update waits for no git start-up.
     */
    commitsMade = 0;
    /**
     * The first checkpoint's listing when the store opened with it (see openFromStatus); taken by that
     * checkpoint only.
     */
    earlyListing;
    root = '';
    indexFile = '';
    userIndex = '';
    baseCommit = null;
    /** Checkpoint 0 (recordBaseline) when the worktree differed from HEAD at the start; else baseCommit. */
    baselineCommit = null;
    /**
     * A local-only commit on refs/proctor-local/<session>: the baseline plus the withheld files' content as
     * the user left them, so a revert can give them back; never pushed. Null when nothing was withheld.
     */
    localBaseline = null;
    /** Withheld paths (forbidden areas) that were there at the baseline, with their blob ids. */
    baselineWithheld = new Map();
    /** Stat of a baseline-withheld file when its bytes last matched the baseline (unchangedSinceBaseline). */
    withheldVerified = new Map();
    preExisting = [];
    /**
     * Paths the baseline left out for their size, LFS or a secret, with their stat then: the user's, never
     * judged while the stat is the same (ctime: no write leaves it as it was). Any other such path is the
     * agent's and judged by path like any change, though its content is not recorded.
     */
    baselineLeftOut = new Map();
    /** The checkpoint being taken is the baseline (filesToSkip records what it leaves out as the user's). */
    takingBaseline = false;
    /** Paths kept skip-worktree in the private index (keepSkipWorktree) while their file is absent. */
    skipWorktree = new Set();
    /** recordBaseline's caller, told once the worktree has been read (the rest does not read it). */
    onBaselineRead;
    /** null (with headTree) until needed when the opening did not learn it (see startTreeNow). */
    baseTree = '';
    head = null;
    headTree = '';
    seq = 0;
    lastAt = null;
    queue = Promise.resolve();
    urgentQueued = 0;
    wakeSpacing = null;
    opened;
    filterAttributeFiles = false;
    /**
     * The private index holds exactly headTree (just seeded, or just committed). With nothing staged since,
     * `write-tree` would only confirm that, so an unchanged worktree costs the listing alone.
     */
    indexMatchesHead = false;
    /** A checkpoint is listing, staging or committing: the private index may be ahead of the chain's tip. */
    writing = false;
    /** See nothingMoreToRecord. */
    nothingLeft = false;
    /** Withheld paths of the latest checkpoint with their stat, so a new or changed one is a checkpoint. */
    withheldKey = '';
    /** .gitattributes text per directory; a checkpoint re-reads them (the agent may edit them). */
    attributesCache = new Map();
    firstSnapshot;
    constructor(options) {
        this.options = options;
        this.firstSnapshot = new FirstSnapshotWatch(options.notice, {
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
        });
        this.session = options.session;
        this.ref = checkpointRef(options.session);
        this.git = options.git;
    }
    /** The session's base commit (HEAD when the store opened, or the resumed chain's base); null if unborn. */
    get base() {
        return this.baseCommit;
    }
    /** The commit the agent's work is judged against (checkpoint 0, else the base); null if unborn. */
    get baseline() {
        return this.baselineCommit ?? this.baseCommit;
    }
    /**
     * What a path goes back to when proctor reverts it: the baseline, with the withheld files' content as the
     * user left them (the local-only commit) when there were any.
     */
    get revertSource() {
        return this.localBaseline ?? this.baseline;
    }
    /** The latest checkpoint commit of this session, if any. */
    get latest() {
        return this.head;
    }
    /** The sequence number of the latest checkpoint (0 before the first). */
    get latestSeq() {
        return this.seq;
    }
    get repoRoot() {
        return this.root;
    }
    get privateIndexPath() {
        return this.indexFile;
    }
    /** Find the repository, resume an existing chain and seed the private index. Idempotent. */
    open() {
        this.opened ??= this.doOpen(false);
        return this.opened;
    }
    /**
     * Take a checkpoint unless nothing changed since the previous one (then null). Serialized: concurrent
     * calls run one after another.
     */
    async create(trigger) {
        return (await this.createDetailed(trigger))?.record ?? null;
    }
    /**
     * Records the session's baseline, before the agent runs: the worktree as the user left it (HEAD plus
     * staged, unstaged and untracked files that are not ignored) as checkpoint 0 on the session's ref, with
     * HEAD as its parent; nothing when the worktree is HEAD. It is the store's first snapshot (the one the
     * first checkpoint took before), so it costs no second pass over the tree; every later checkpoint, its
     * diffs and the policy speak of the agent's changes since it. Forbidden-area files are withheld from it as
     * from every checkpoint, and kept on a local-only ref (refs/proctor-local/<session>) so a revert can give
     * them back. A resumed chain keeps the baseline its first session recorded. `onRead` is told once the
     * worktree has been read (its content is in the object store): what is left, the commit and the refs,
     * reads nothing the agent could change, so the agent may be spawned then.
     */
    recordBaseline(onRead) {
        this.onBaselineRead = onRead;
        const run = this.queue.then(async () => {
            this.opened ??= this.doOpen(!this.options.pauser, true);
            await this.opened;
            if (!this.head)
                await this.checkpoint('baseline', true).finally(() => (this.writing = false));
            return { commit: this.baseline, preExisting: [...this.preExisting] };
        });
        this.queue = run.catch(() => undefined);
        return run;
    }
    /**
     * `urgent` (implied by final, manual and safety) skips the min_interval wait: a caller that waits for
     * this checkpoint (the stop hooks need the agent's latest work) must not sleep out the spacing.
     */
    createDetailed(trigger, options = {}) {
        const urgent = options.urgent === true || URGENT_TRIGGERS.has(trigger);
        if (urgent) {
            // A checkpoint still waiting out min_interval would only record part of what the urgent one is
            // about to record: it gives way at once, so the end of a session never waits for the spacing.
            this.urgentQueued++;
            this.wakeSpacing?.();
        }
        const run = this.queue.then(() => {
            if (urgent)
                this.urgentQueued--;
            return this.checkpoint(trigger, urgent).finally(() => (this.writing = false));
        });
        this.queue = run.catch(() => undefined);
        return run;
    }
    /**
     * The session ends and nothing changed since the last checkpoint listed the worktree (the final one was
     * found needless): a triggered checkpoint still waiting out min_interval would record nothing, so it gives
     * way now, as to an urgent one, instead of holding the end of the session for the rest of the interval.
     */
    nothingMoreToRecord() {
        this.nothingLeft = true;
        this.wakeSpacing?.();
    }
    /**
     * Which of `dirs` (relative, POSIX) hold something the chain records: a path at or under one of them in
     * the latest checkpoint's tree, which is what the private index holds between checkpoints. A listing
     * compares every such entry with the worktree, whatever .gitignore says, so a directory git ignores can
     * still hold changes it records. Null when that cannot be told now (a checkpoint is under way, or the last
     * one did not finish): the caller then lists the worktree.
     */
    async recordedAmong(dirs) {
        if (!this.opened || this.writing || !this.indexMatchesHead)
            return null;
        await this.opened;
        if (this.writing || !this.indexMatchesHead)
            return null;
        const tree = await this.startTreeNow();
        const found = new Set();
        for (const { path: entry } of await this.git.lsTree(tree, dirs, { recursive: false })) {
            const owner = dirs.find((dir) => entry === dir || entry.startsWith(`${dir}/`));
            if (owner !== undefined)
                found.add(owner);
        }
        return found;
    }
    /**
     * Loads now what weighing a listing's paths needs (`prepare`: the policy's code and the content scan),
     * which the first listing with changes would otherwise wait for. Never rejects: that listing asks again.
     */
    async warm() {
        await this.options.prepare?.().catch(() => undefined);
    }
    /** Wait for queued checkpoints, then delete the private index (the commits and ref stay). */
    async close(options = {}) {
        await this.queue;
        await Promise.all([this.commits?.close(), this.refs?.close()]);
        if (!options.keepIndex && this.indexFile) {
            fs__default.rmSync(this.indexFile, { force: true });
            fs__default.rmSync(`${this.indexFile}.lock`, { force: true });
            fs__default.rmSync(ownerFileOf(this.indexFile), { force: true });
        }
    }
    // ---- opening -----------------------------------------------------------------------------------
    /**
     * `listing`: the store opens for a checkpoint that is about to list the worktree anyway (a one-shot
     * `checkpoints create`, a session's baseline, or a first checkpoint before anything opened the store), so
     * one `git status` may find HEAD and list the changes at once (see openFromStatus). `keep`: for a
     * session's baseline, whose store lists again (listingOptions).
     */
    async doOpen(listing, keep = false) {
        const indexName = this.options.indexName ?? `index-${this.session}`;
        const { root, userIndex, gitDir, commonDir, infoAttributes, configFiles } = await this.locate();
        this.root = root;
        this.git = this.options.git.at(this.root);
        this.refs = new RefUpdater(this.git, 'proctor checkpoint');
        this.userIndex = userIndex;
        this.indexFile = path.join(gitDir, 'proctor', indexName);
        this.commits = new CommitWriter(this.git, `${this.indexFile}.commit`);
        fs__default.mkdirSync(path.dirname(this.indexFile), { recursive: true });
        // An index and lock a crashed proctor of this same session left: nobody else uses this private index,
        // and it cannot be read (it is split, and its shared part was in that process's private git directory:
        // the runner's splitIndexSetting). The chain it staged for is on the ref; it is seeded again.
        fs__default.rmSync(`${this.indexFile}.lock`, { force: true });
        fs__default.rmSync(this.indexFile, { force: true });
        // Before the index exists: another proctor's sweep of stale indexes leaves it alone while we live.
        claimIndex(this.indexFile);
        // The identity probe and the empty tree are only needed at the first commit (see checkpoint()):
        // a session whose agent changes nothing never pays for them, and opening does not compete with them.
        // A new chain from HEAD: nothing but HEAD to resolve, which the status that lists the changes names.
        const newChainFromHead = listing &&
            !this.options.resolved &&
            this.options.baseCommit === undefined &&
            commonDir !== null &&
            !refMayExist(commonDir, this.ref);
        // Else one cat-file for the start commit, the chain tip and their trees (missing ones come back as
        // null), unless the caller resolved them before the agent's spawn; the attributes files alongside.
        const resolve = () => this.options.resolved ?? resolveOpening(this.git, this.session, this.options.baseCommit ?? 'HEAD');
        const [fromStatus, filters, resolved] = await Promise.all([
            newChainFromHead ? this.openFromStatus(keep) : null,
            this.globalAttributeFiles(infoAttributes, configFiles),
            newChainFromHead ? null : resolve(),
        ]);
        this.filterAttributeFiles = filters;
        if (fromStatus) {
            this.baseCommit = fromStatus.head;
            this.baseTree = fromStatus.tree;
            this.headTree = fromStatus.tree;
            if (fromStatus.listing) {
                // The copy of the user's index holds exactly HEAD's content: seeded, and the listing stands.
                this.earlyListing = fromStatus.listing;
                this.indexMatchesHead = true;
            }
            else {
                // The user staged something: the copy status read is already in place, with its mtime.
                await this.seedIndex({ copied: true });
            }
            return;
        }
        const objects = resolved ?? (await resolve());
        this.head = objects.chainCommit;
        if (this.head) {
            const parsed = parseCheckpointMessage(objects.chainMessage ?? '');
            this.seq = parsed.seq ?? 0;
            this.baseCommit = parsed.base;
            this.headTree = objects.chainTree;
            // A resumed chain keeps its first baseline: named by every later checkpoint, or the tip itself when
            // the chain holds nothing but the baseline.
            this.baselineCommit = baselineOf(this.head, parsed);
            this.baseTree =
                this.baselineCommit === this.head
                    ? this.headTree
                    : !this.baselineCommit
                        ? await this.git.emptyTree()
                        : this.baselineCommit === objects.startCommit && objects.startTree
                            ? objects.startTree
                            : await this.treeOf(this.baselineCommit);
            if (commonDir === null || refMayExist(commonDir, localBaselineRef(this.session))) {
                await this.readLocalBaseline();
            }
        }
        else {
            this.baseCommit = objects.startCommit;
            this.baseTree = objects.startTree ?? (await this.git.emptyTree());
            this.headTree = this.baseTree;
        }
        await this.seedIndex();
    }
    /**
     * Opens a new chain from HEAD with one `git status` on a copy of the user's index (mtime kept, as
     * seedIndex makes it), instead of a `cat-file` for HEAD and the chain and a listing after it: status
     * names HEAD's commit, says whether the index differs from HEAD anywhere, and lists what differs in the
     * worktree, as every later listing does (changedPaths). Its untracked cache and refreshed stat data stay
     * in the copy, so the next listing starts from them. When the index holds
     * HEAD's content (the user staged nothing), the copy is the seed and the listing is the first
     * checkpoint's; else `listing` is null and the caller seeds from HEAD. HEAD's tree is then the root of
     * the copy's cache-tree when valid (whatever extensions the file has), else null (resolved only if a
     * checkpoint needs it: startTreeNow). Null when this cannot be relied on (an index with assume-unchanged
     * or skip-worktree entries, which status would not look at, or one this reader does not understand; a
     * git without these options): the caller then opens as always.
     */
    async openFromStatus(keep) {
        const abandon = () => {
            fs__default.rmSync(this.indexFile, { force: true });
            return null;
        };
        try {
            this.copyUserIndex();
        }
        catch {
            return abandon();
        }
        // Read from the copy, not the user's file, which may have changed since. SHA-1, else SHA-256.
        let hashBytes = 20;
        let summary = readIndexSummary(this.indexFile, hashBytes);
        if (!summary)
            summary = readIndexSummary(this.indexFile, (hashBytes = 32));
        if (!summary || summary.hidden)
            return abandon();
        let status;
        try {
            await this.options.onListing?.();
            const result = await this.git.raw([...LISTING_ARGS, '--branch', '--no-ahead-behind'], {
                indexFile: this.indexFile,
                ...listingOptions(keep),
            });
            status = parseStatusV2Z(result.stdout);
        }
        catch {
            return abandon();
        }
        // The index was read with the wrong hash size after all.
        if (status.head !== null && status.head.length !== hashBytes * 2)
            return abandon();
        if (status.staged)
            return { head: status.head, tree: null, listing: null };
        return {
            head: status.head,
            tree: summary.cacheTree,
            listing: this.listingOf([
                ...status.changed.map((p) => ({ path: p, tracked: true })),
                ...status.untracked.map((p) => ({ path: p, tracked: false })),
            ]),
        };
    }
    /** A resumed chain's local-only baseline copy: which withheld paths it holds, and their blob ids. */
    async readLocalBaseline() {
        const local = await this.git.revParse(`${localBaselineRef(this.session)}^{commit}`);
        if (!local || !this.baseTree)
            return;
        this.localBaseline = local;
        const { raw } = await this.git.diffTreeZ(this.baseTree, local);
        for (const entry of raw)
            if (!/^0+$/.test(entry.newMode))
                this.baselineWithheld.set(entry.path, entry.newSha);
    }
    /**
     * Hashes what the baseline withholds (forbidden-area files as the user left them) into the object store,
     * before the agent runs: regular files only, as they are on disk (--no-filters), so each compares byte for
     * byte with the file later (unchangedSinceBaseline). Recorded on a ref by keepWithheldLocally.
     */
    async hashWithheld(withheld) {
        const files = withheld
            .filter((f) => f.newMode === '100644' || f.newMode === '100755')
            .filter((f) => !f.path.includes('\n'));
        if (files.length === 0)
            return [];
        const hashed = await this.git.raw(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
            input: files.map((f) => path.join(this.root, f.path)).join('\n') + '\n',
        });
        const ids = hashed.stdout.trim().split('\n');
        return files.map((f, i) => ({ path: f.path, mode: f.newMode, id: ids[i] }));
    }
    /**
     * Keeps the withheld files' blobs on a local-only ref: the baseline's tree plus those files, committed on
     * top of the baseline as refs/proctor-local/<session>. That ref is outside refs/proctor/, so no push or
     * bundle ever carries it, and it keeps the blobs from being pruned.
     */
    async keepWithheldLocally(blobs, baseline) {
        if (blobs.length === 0)
            return;
        const indexFile = path.join(path.dirname(this.indexFile), `baseline-${process.pid}-${randomHex(4)}`);
        try {
            fs__default.copyFileSync(this.indexFile, indexFile);
            await this.git.raw(['update-index', '-z', '--index-info'], {
                indexFile,
                input: blobs.map((b) => `${b.mode} ${b.id}\t${b.path}\0`).join(''),
            });
            const tree = await this.git.writeTree(indexFile);
            const message = `proctor baseline (local only): ${blobs.length} withheld file(s) as the user left them\n\n` +
                'Never pushed: proctor gives these back when it reverts a path to the baseline.\n';
            const commit = await this.git.commitTree(tree, [baseline], message);
            await this.git.raw(['update-ref', '-m', 'proctor baseline', localBaselineRef(this.session), commit]);
            this.localBaseline = commit;
            for (const b of blobs)
                this.baselineWithheld.set(b.path, b.id);
        }
        finally {
            fs__default.rmSync(indexFile, { force: true });
        }
    }
    /**
     * The tree the chain stands on (headTree), when the opening left it unknown (openFromStatus without a
     * valid cache-tree): HEAD's tree, or the empty tree on an unborn branch.
     */
    async startTreeNow() {
        if (this.headTree === null) {
            const tree = this.baseCommit ? await this.treeOf(this.baseCommit) : await this.git.emptyTree();
            this.headTree = tree;
            this.baseTree = tree;
        }
        return this.headTree;
    }
    /**
     * The worktree's top level, the user's index, the git dir and info/attributes: read from the files git
     * keeps them in when the layout is a plain one (readGitDirs), else from one `rev-parse` (`--git-path`
     * knows every layout).
     */
    async locate() {
        const cwd = this.options.git.cwd;
        // readGitDirs answers only for a worktree's top level (it reads `<cwd>/.git`): else rev-parse.
        const dirs = readGitDirs(cwd);
        if (dirs) {
            return {
                root: cwd,
                userIndex: path.join(dirs.gitDir, 'index'),
                gitDir: dirs.gitDir,
                commonDir: dirs.commonDir,
                infoAttributes: path.join(dirs.commonDir, 'info', 'attributes'),
                configFiles: [path.join(dirs.commonDir, 'config'), path.join(dirs.gitDir, 'config.worktree')],
            };
        }
        const paths = (await this.options.git.raw([
            'rev-parse',
            '--show-toplevel',
            '--git-path',
            'index',
            '--git-dir',
            '--git-path',
            'info/attributes',
        ])).stdout.split('\n');
        return {
            root: paths[0],
            userIndex: path.resolve(cwd, paths[1]),
            gitDir: path.resolve(cwd, paths[2]),
            commonDir: null,
            infoAttributes: path.resolve(cwd, paths[3]),
            configFiles: null,
        };
    }
    /**
     * Seed from a copy of the user's index (copyUserIndex) so its stat data is reused (only changed files
     * get hashed). `read-tree --reset` then drops what the user staged but did not commit, keeping matching
     * stat entries; it is skipped when the user's index records (in its cache-tree) that it holds exactly
     * the start tree, the common case of a user who staged nothing. Assume-unchanged or skip-worktree
     * entries, an index this reader does not understand, an unborn HEAD or a resumed chain take the plain
     * path. `copied`: openFromStatus made the copy already (and read it), so it is read and used as it is.
     */
    async seedIndex(options = {}) {
        const startTree = this.head ? this.headTree : this.baseCommit;
        // Any id of this repository gives the hash size (headTree is null when openFromStatus left it unknown).
        const known = this.headTree || this.baseCommit;
        const source = options.copied ? this.indexFile : this.userIndex;
        const summary = startTree !== null && known ? readIndexSummary(source, known.length / 2) : null;
        try {
            if (startTree !== null && summary && !summary.hidden) {
                if (!options.copied)
                    this.copyUserIndex();
                if (this.headTree === null || summary.tree !== this.headTree)
                    await this.git.readTree(this.indexFile, startTree, { reset: true });
                this.indexMatchesHead = true;
                return;
            }
        }
        catch {
            // A split or unreadable user index: fall through to a fresh index (slower first checkpoint only).
        }
        fs__default.rmSync(this.indexFile, { force: true });
        await this.git.readTree(this.indexFile, startTree);
        // A sparse index is one this reader does not understand (summary null): its entries are looked at too.
        if (!summary || summary.hidden)
            await this.keepSkipWorktree();
        this.indexMatchesHead = true;
    }
    /**
     * The user's skip-worktree entries whose file is absent (a sparse checkout's files outside the cone) stay
     * skip-worktree in the private index: absent by design, they are not deletions, so no checkpoint records
     * them as deleted and no pushed branch deletes them. One whose file is on disk is compared as any file
     * (a user's `--skip-worktree` over a local edit hides nothing from a checkpoint), and so is one that
     * appears later (revealSkipWorktree).
     */
    async keepSkipWorktree() {
        let listing;
        try {
            listing = await this.git.raw(['ls-files', '-z', '-t'], { indexFile: this.userIndex });
        }
        catch {
            return; // no user index git can read (unborn, damaged): nothing is skip-worktree
        }
        const absent = listing.stdout
            .split('\0')
            .filter((field) => field.startsWith('S ') && !onDisk(path.join(this.root, field.slice(2))))
            .map((field) => field.slice(2));
        if (absent.length === 0)
            return;
        await this.git.raw(['update-index', '-z', '--skip-worktree', '--stdin'], {
            indexFile: this.indexFile,
            input: absent.join('\0') + '\0',
        });
        this.skipWorktree = new Set(absent);
    }
    /**
     * A file written where a kept skip-worktree entry is (outside the sparse cone) is the agent's work: its
     * entry is compared again from then on, so git's listing sees it. One lstat per such entry per listing.
     */
    async revealSkipWorktree() {
        if (this.skipWorktree.size === 0)
            return;
        const appeared = [...this.skipWorktree].filter((p) => onDisk(path.join(this.root, p)));
        if (appeared.length === 0)
            return;
        await this.git.raw(['update-index', '-z', '--no-skip-worktree', '--stdin'], {
            indexFile: this.indexFile,
            input: appeared.join('\0') + '\0',
        });
        for (const p of appeared)
            this.skipWorktree.delete(p);
    }
    /**
     * The private index as a copy of the user's, with its mtime: git trusts an entry's stat data by comparing
     * it to the index file's own mtime (racy-git), and a fresh mtime would hide same-size edits made in the
     * same second.
     */
    copyUserIndex() {
        const stat = fs__default.statSync(this.userIndex);
        fs__default.copyFileSync(this.userIndex, this.indexFile);
        fs__default.utimesSync(this.indexFile, stat.atime, stat.mtime);
    }
    // ---- one checkpoint ----------------------------------------------------------------------------
    async checkpoint(trigger, urgent) {
        // With pause_agent the worktree is only read while the agent is paused (below), so the opening lists
        // nothing.
        this.opened ??= this.doOpen(!this.options.pauser);
        await this.opened;
        if (!(await this.waitForSpacing(urgent)))
            return null;
        this.writing = true;
        const startedAt = monotonicMs();
        const skipped = [];
        const withheld = [];
        this.attributesCache.clear();
        this.takingBaseline = trigger === 'baseline';
        const pauser = this.options.pauser;
        let staged;
        pauser?.pause();
        try {
            staged = await this.stageChanges(skipped, withheld);
        }
        finally {
            this.firstSnapshot.end();
            pauser?.resume();
        }
        // A withheld file is never staged, so the tree cannot show it: a change in what is withheld (a new
        // forbidden file, or one removed) is a checkpoint of its own, so policy sees it and the record lists it.
        // Sorted: the listing's order is git's, not a stable one to compare.
        // What the user left that no checkpoint can hold (over max_file_size, LFS, forbidden) is theirs even
        // when nothing else differs from HEAD and no checkpoint 0 is written.
        if (trigger === 'baseline')
            this.preExisting = [...new Set(skipped.map((f) => f.path))].sort();
        const withheldKey = withheld
            .map((f) => `${f.path}\0${f.status}\0${f.size}\0${f.newMode}`)
            .sort()
            .join('\0');
        const withheldChanged = withheldKey !== this.withheldKey;
        if (staged.length === 0 && this.indexMatchesHead && !withheldChanged)
            return null;
        this.indexMatchesHead = false;
        // From the second commit on: what the commit will need (started once per session), overlapping the
        // write-tree and the diffs. A synchronous runner (a one-shot create) starts no long-lived git: one
        // commit-tree and one update-ref.
        const streams = !this.git.synchronous;
        const plainCommit = this.commitsMade === 0 || !streams;
        if (!plainCommit) {
            this.commits.prepare();
            this.refs.prepare();
        }
        const baseline = trigger === 'baseline';
        const tree = await this.git.writeTree(this.indexFile);
        const headTree = await this.startTreeNow();
        if (tree === headTree && !withheldChanged) {
            this.indexMatchesHead = true;
            return null;
        }
        // The baseline's content is all in the object store now: the agent may start while it is committed.
        const keptBlobs = baseline ? await this.hashWithheld(withheld) : [];
        if (baseline)
            this.onBaselineRead?.();
        const seq = baseline ? 0 : this.seq + 1;
        // The detailed diffs cost two git processes each; they are only computed for the policy hook. The
        // baseline is the user's, never judged.
        let files = [];
        let cumulative = [];
        let violations = [];
        if (this.options.validate && !baseline) {
            const baseTree = this.baseTree;
            // Since the previous checkpoint and since the baseline: one diff-tree and one cat-file for both.
            if (headTree === baseTree)
                files = cumulative = await diffTrees(this.git, headTree, tree);
            else
                [files, cumulative] = (await diffTreePairs(this.git, [
                    [headTree, tree],
                    [baseTree, tree],
                ]));
            violations = await this.options.validate({ seq, files, cumulative, withheld, tree });
        }
        const changedPaths = this.options.validate && !baseline ? touchedPaths(files) : staged;
        const parent = this.head ?? this.baseCommit;
        const message = formatCheckpointMessage({
            session: this.session,
            seq,
            base: this.baseCommit,
            ...(baseline ? {} : { baseline: this.baselineCommit }),
            trigger,
            filesChanged: changedPaths.length,
            violations: violations.length,
            skipped,
            maxFileSize: this.options.maxFileSize,
        });
        const sha = plainCommit
            ? await this.git.commitTree(tree, parent ? [parent] : [], message)
            : await this.commits.commit(tree, parent ? [parent] : [], message);
        try {
            if (streams)
                await this.refs.updateCas(this.ref, sha, this.head);
            else
                await this.git.updateRefCas(this.ref, sha, this.head, 'proctor checkpoint');
        }
        catch (error) {
            if (error instanceof RefMovedError) {
                throw new Error(`checkpoint ${seq} of session ${this.session} was not recorded: ${this.ref} was moved by another ` +
                    'process (is a second proctor running with the same session id?). Nothing was overwritten; ' +
                    'use a distinct session id per run.', { cause: error });
            }
            throw error;
        }
        this.commitsMade++;
        this.head = sha;
        this.headTree = tree;
        this.withheldKey = withheldKey;
        if (baseline) {
            this.baselineCommit = sha;
            this.baseTree = tree;
            // What the baseline withheld is left out of later checkpoints as long as it is unchanged (filesToSkip).
            this.withheldKey = '';
            this.preExisting = [...new Set([...staged, ...skipped.map((f) => f.path)])].sort();
            await this.keepWithheldLocally(keptBlobs, sha);
        }
        this.indexMatchesHead = true;
        this.seq = seq;
        this.lastAt = this.now();
        const record = {
            seq,
            sha,
            ref: this.ref,
            trigger,
            files_changed: changedPaths,
            violations: violations.length,
            skipped: skipped.map((s) => s.path),
            skipped_reasons: Object.fromEntries(skipped.map((s) => [s.path, s.reason])),
            created_at: new Date().toISOString(),
            duration_ms: Math.round(monotonicMs() - startedAt),
        };
        return { record, tree, parent, files, cumulative, violations, skipped, withheld };
    }
    /**
     * Bring the private index up to date with the worktree. The listing finds what changed; only
     * those paths are hashed, with `update-index` (no second directory walk), minus files over
     * max_file_size, LFS-tracked files and .proctor/. If that fails (a path vanished or changed type
     * mid-way, a nested repository without commits), fall back to a whole-tree `add -A`, leaving out
     * nested repositories git cannot record.
     */
    async stageChanges(skipped, withheld) {
        const early = this.earlyListing;
        this.earlyListing = undefined;
        if (!early)
            await this.revealSkipWorktree();
        const { paths: changed, tracked } = early ?? (await this.changedPaths());
        this.firstSnapshot.begin(changed, this.seq);
        if (this.baselineWithheld.size > 0)
            withheld.push(...this.removedSinceBaseline(new Set(changed)));
        if (changed.length === 0)
            return [];
        const toScan = [];
        const exclude = [
            ...(await this.filesToSkip(changed, skipped, withheld, tracked, toScan)),
            ...this.hiddenRelative(),
        ];
        const excluded = new Set(exclude);
        const paths = changed.filter((p) => !excluded.has(p));
        if (paths.length === 0)
            return [];
        const scanning = this.scanContent(toScan, { skipped, withheld, tracked });
        // A failed staging must not leave the scan's promise unobserved.
        scanning.catch(() => undefined);
        const staged = await this.stagePaths(paths, exclude, skipped);
        const hits = await scanning;
        if (hits.length === 0)
            return staged;
        await this.unstage(hits);
        const found = new Set(hits);
        return staged.filter((p) => !found.has(p));
    }
    /** Stages `paths` (update-index; a whole-tree add -A without `exclude` when that fails). */
    async stagePaths(paths, exclude, skipped) {
        try {
            const staging = this.git.raw([
                'update-index',
                ...(this.firstSnapshot.active ? ['--verbose'] : []),
                '--add',
                '--remove',
                '--replace',
                '-z',
                '--stdin',
            ], { indexFile: this.indexFile, input: paths.join('\0') + '\0', ...this.progressCounter(paths.length) });
            // Something will most likely be committed: the ref updater's git starts while update-index works
            // (the runner spawns it on a later microtask; a spawn blocks this thread for a few ms), so its
            // start-up overlaps the staging, the tree and the commit instead of following them.
            if (!this.git.synchronous)
                setImmediate(() => this.refs?.prepare());
            await staging;
        }
        catch {
            try {
                await this.git.addAll(this.indexFile, { exclude: [STATE_DIR_NAME, ...exclude] });
            }
            catch (error) {
                const dirs = paths.filter((p) => isDirectory(path.join(this.root, p)));
                if (dirs.length === 0)
                    throw error;
                for (const dir of dirs)
                    skipped.push({ path: dir, reason: 'unrecordable' });
                await this.git.addAll(this.indexFile, { exclude: [STATE_DIR_NAME, ...exclude, ...dirs] });
                return paths.filter((p) => !dirs.includes(p));
            }
        }
        return paths;
    }
    /**
     * For a large first snapshot: `update-index --verbose` prints one line per path as it hashes it ("add
     * 'path'", "remove 'path'"), so counting lines as they come says how far along it is. A path holding a
     * newline could count twice; the watch caps the count at the total.
     */
    progressCounter(total) {
        if (!this.firstSnapshot.active)
            return {};
        let lines = 0;
        return {
            onStdout: (chunk) => {
                for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1))
                    lines++;
                this.firstSnapshot.progress(lines, total);
            },
        };
    }
    /**
     * Paths whose worktree state differs from the private index (modified, deleted, untracked), from one
     * `status` (LISTING_ARGS): a file whose stat data changed but whose size did not is compared by content
     * (as `git diff` does), so a touched but unchanged file is not counted as changed (and its new stat data
     * is written back, so it is not read again), and submodules are compared by their HEAD only.
     */
    async changedPaths() {
        await this.options.onListing?.();
        const listing = await this.git.raw(LISTING_ARGS, {
            indexFile: this.indexFile,
            ...listingOptions(!this.git.synchronous),
        });
        const status = parseStatusV2Z(listing.stdout);
        return this.listingOf([
            ...status.changed.map((p) => ({ path: p, tracked: true })),
            ...status.untracked.map((p) => ({ path: p, tracked: false })),
        ]);
    }
    /** A listing's paths, once each, without .proctor/ and the hidden paths. */
    listingOf(entries) {
        const paths = [];
        const tracked = new Set();
        const seen = new Set();
        for (const entry of entries) {
            // A nested repository is listed as a directory.
            const p = entry.path.replace(/\/$/, '');
            if (seen.has(p))
                continue;
            seen.add(p);
            if (p === STATE_DIR_NAME || p.startsWith(`${STATE_DIR_NAME}/`))
                continue;
            if (this.options.hiddenPaths?.has(path.join(this.root, p)))
                continue;
            paths.push(p);
            if (entry.tracked)
                tracked.add(p);
        }
        return { paths, tracked };
    }
    hiddenRelative() {
        return [...(this.options.hiddenPaths ?? [])].map((p) => path.relative(this.root, p));
    }
    /**
     * A file left out for its size, LFS or a secret: its content is not recorded, but it is still judged by
     * path (a 2 MB workflow under a protected area is a change there), unless it is the user's, as they left it.
     */
    leaveOut(p, stat, skip, into, secret) {
        into.skipped.push(skip);
        const key = statKey(stat);
        if (this.takingBaseline)
            this.baselineLeftOut.set(p, key);
        if (this.takingBaseline || this.baselineLeftOut.get(p) === key)
            return;
        const change = withheldChange(this.root, p, stat, into.tracked.has(p) || this.baselineLeftOut.has(p));
        if (secret)
            change.secret = secret;
        into.withheld.push(change);
    }
    /**
     * What the listing's paths leave out of the checkpoint (forbidden, over the size limit, LFS), and in
     * `toScan` the regular files the content scan has to read (scanContent).
     */
    async filesToSkip(paths, skipped, withheld, tracked, toScan) {
        const exclude = [];
        const present = [];
        const stats = new Map();
        await this.options.prepare?.();
        const withhold = this.options.withhold;
        const scanner = this.options.scanner?.() ?? null;
        const into = { skipped, withheld, tracked };
        const leaveOut = (p, stat, skip) => {
            exclude.push(p);
            this.leaveOut(p, stat, skip, into);
        };
        for (const p of paths) {
            let stat;
            try {
                stat = fs__default.lstatSync(path.join(this.root, p));
            }
            catch {
                continue; // deleted: nothing to hash (a deletion writes no content, so it is recorded)
            }
            const why = withhold?.(p) ?? null;
            if (why !== null && this.unchangedSinceBaseline(p, stat)) {
                // The user's, as they left it: never recorded and never judged, but still listed as skipped, so a
                // restore knows no checkpoint holds it and refuses to overwrite it.
                scanner?.forbid(path.join(this.root, p), p, stat);
                exclude.push(p);
                skipped.push({ path: p, reason: 'forbidden', detail: why });
                continue;
            }
            if (why !== null) {
                exclude.push(p);
                skipped.push({ path: p, reason: 'forbidden', detail: why });
                // A file the user had at the baseline is modified, not added, whether git tracks it or not.
                withheld.push(withheldChange(this.root, p, stat, tracked.has(p) || this.baselineWithheld.has(p)));
                // Its bytes are recognised wherever they reappear (a copy, a hard link).
                scanner?.forbid(path.join(this.root, p), p, stat);
                continue;
            }
            if (!stat.isFile())
                continue;
            present.push(p);
            stats.set(p, stat);
            if (stat.size > this.options.maxFileSize)
                leaveOut(p, stat, { path: p, reason: 'size', size: stat.size });
        }
        let candidates = present.filter((p) => !exclude.includes(p));
        if (candidates.length > 0 && this.attributesMayFilter(candidates)) {
            const filters = await this.git.checkAttr('filter', candidates, this.indexFile);
            for (const p of candidates) {
                if (filters.get(p) === 'lfs')
                    leaveOut(p, stats.get(p), { path: p, reason: 'lfs' });
            }
            candidates = candidates.filter((p) => !exclude.includes(p));
        }
        if (scanner)
            for (const p of candidates)
                toScan.push({ path: p, stat: stats.get(p) });
        return exclude;
    }
    /**
     * The content scan of the files about to be staged; runs while git stages them (its own process), so it
     * costs the checkpoint little time. Returns the paths holding a secret, each left out with its finding.
     */
    async scanContent(files, into) {
        const scanner = this.options.scanner?.() ?? null;
        if (!scanner || files.length === 0)
            return [];
        // git is spawned first (the runner does so on a later turn): the scan then runs beside it.
        await new Promise((resolve) => setImmediate(resolve));
        const hits = [];
        for (const { path: p, stat } of files) {
            const found = await scanner.scanFile(path.join(this.root, p), p, stat);
            if (!found)
                continue;
            hits.push(p);
            this.leaveOut(p, stat, { path: p, reason: 'secret', detail: `${found.what} (${found.rule})` }, into, found);
        }
        return hits;
    }
    /**
     * Puts the private index's entries of `paths` back to the tree the chain stands on (absent where it has
     * none): their content was staged beside the scan that found a secret in it. The blob git wrote is
     * referenced by no tree, commit or ref, so no push or bundle can carry it (gc prunes it).
     */
    async unstage(paths) {
        const headTree = await this.startTreeNow();
        const entries = await this.git.lsTree(headTree, paths);
        const kept = new Set(entries.map((e) => e.path));
        const none = '0'.repeat(headTree.length);
        const lines = [
            ...paths.filter((p) => !kept.has(p)).map((p) => `0 ${none}\t${p}\0`),
            ...entries.map((e) => `${e.mode} ${e.sha}\t${e.path}\0`),
        ];
        await this.git.raw(['update-index', '-z', '--index-info'], {
            indexFile: this.indexFile,
            input: lines.join(''),
        });
    }
    /**
     * Whether a withheld file still holds what it held at the baseline: its bytes hash to the blob the
     * baseline kept locally (git's blob id, computed here: the file is never handed to git again).
     */
    unchangedSinceBaseline(p, stat) {
        const kept = this.baselineWithheld.get(p);
        if (kept === undefined || !stat.isFile())
            return false;
        // Read again only when its stat changed since it last matched (ctime: no write leaves it as it was), so a
        // large forbidden file is not re-read at every checkpoint.
        const key = `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
        if (this.withheldVerified.get(p) === key)
            return true;
        try {
            // Non-blocking and capped at the size just seen: swapped for a FIFO, or grown, it is not unchanged.
            const content = readRegularFile(path.join(this.root, p), stat.size);
            // Not imported at the top: a session opens its store before the spawn, and node:crypto costs it there.
            const { createHash } = process.getBuiltinModule('node:crypto');
            const hash = createHash(kept.length === 64 ? 'sha256' : 'sha1');
            hash.update(`blob ${content.length}\0`);
            hash.update(content);
            if (hash.digest('hex') !== kept)
                return false;
            this.withheldVerified.set(p, key);
            return true;
        }
        catch {
            return false;
        }
    }
    /**
     * Baseline-withheld files the agent removed: the listing cannot show an untracked one, so it is described
     * from what the baseline kept (a tracked one is staged as a deletion and shows in the diff).
     */
    removedSinceBaseline(listed) {
        const removed = [];
        for (const p of this.baselineWithheld.keys()) {
            if (listed.has(p) || fs__default.existsSync(path.join(this.root, p)))
                continue;
            removed.push({
                path: p,
                status: 'D',
                oldMode: '100644',
                newMode: null,
                size: null,
                linesAdded: null,
                linesDeleted: null,
            });
        }
        return removed;
    }
    /**
     * Whether any attributes file that applies to these paths mentions `filter` (LFS is `filter=lfs`).
     * Reading a few small files is much cheaper than a `git check-attr` process per checkpoint.
     */
    attributesMayFilter(paths) {
        if (this.filterAttributeFiles)
            return true;
        const dirs = new Set();
        for (const p of paths) {
            let dir = path.posix.dirname(p);
            for (;;) {
                dirs.add(dir);
                if (dir === '.')
                    break;
                dir = path.posix.dirname(dir);
            }
        }
        for (const dir of dirs) {
            let text = this.attributesCache.get(dir);
            if (text === undefined) {
                try {
                    // Non-blocking: the agent may have made it a FIFO, which a plain read would wait on forever.
                    text = readText(path.join(this.root, dir, '.gitattributes'));
                }
                catch {
                    text = '';
                }
                this.attributesCache.set(dir, text);
            }
            if (/filter/.test(text))
                return true;
        }
        return false;
    }
    /** info/attributes, core.attributesFile or the default global file mentions a filter. */
    async globalAttributeFiles(infoAttributes, configFiles) {
        const candidates = [infoAttributes];
        const configured = this.options.attributesFile !== undefined
            ? this.options.attributesFile
            : configFiles && this.attributesFileUnset(configFiles)
                ? null
                : await this.git.configGet('core.attributesFile');
        if (configured)
            candidates.push(configured.replace(/^~(?=\/)/, os.homedir()));
        const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
        candidates.push(path.join(xdg, 'git', 'attributes'));
        return candidates.some((file) => {
            try {
                return /filter/.test(readText(file));
            }
            catch {
                return false;
            }
        });
    }
    /**
     * True when no config file git reads can set core.attributesFile: none of them (the repository's,
     * global, system) mentions `attributesfile` or an include, and no config comes from the environment.
     * Saves a one-shot `checkpoints create` its `git config` process; any doubt asks git.
     */
    attributesFileUnset(repositoryFiles) {
        const env = (key) => this.git.envValue(key);
        if (env('GIT_CONFIG_PARAMETERS') || env('GIT_CONFIG_COUNT'))
            return false;
        return [...repositoryFiles, ...globalConfigFiles(env)].every((file) => {
            let text;
            try {
                text = readText(file);
            }
            catch (error) {
                return error.code === 'ENOENT';
            }
            return !/attributesfile|include/i.test(text);
        });
    }
    /** Waits out min_interval for a non-urgent trigger; false when an urgent checkpoint came in meanwhile. */
    async waitForSpacing(urgent) {
        if (urgent)
            return true;
        if (this.urgentQueued > 0 || this.nothingLeft)
            return false;
        const min = this.options.minIntervalMs ?? 0;
        if (this.lastAt === null || min <= 0)
            return true;
        const wait = this.lastAt + min - this.now();
        if (wait > 0) {
            let timer;
            const woken = new Promise((resolve) => (this.wakeSpacing = resolve));
            const slept = this.options.sleep
                ? this.options.sleep(wait)
                : new Promise((resolve) => (timer = setTimeout(resolve, wait)));
            await Promise.race([slept, woken]);
            clearTimeout(timer);
            this.wakeSpacing = null;
        }
        return this.urgentQueued === 0 && !this.nothingLeft;
    }
    now() {
        return (this.options.now ?? Date.now)();
    }
    async treeOf(commit) {
        return (await this.git.raw(['rev-parse', '--verify', `${commit}^{tree}`])).stdout.trim();
    }
}
/**
 * A monotonic clock in ms. Not `performance.now()`: the first use of the `performance` global loads eight
 * of Node's perf modules (~1 ms), which a one-shot `checkpoints create` would pay for one duration.
 */
function monotonicMs() {
    return Number(process.hrtime.bigint()) / 1e6;
}
/** A withheld path described as a diff entry, from the disk (its content is never hashed into git). */
function withheldChange(root, p, stat, tracked) {
    const mode = stat.isSymbolicLink()
        ? '120000'
        : stat.isDirectory()
            ? '160000'
            : stat.mode & 0o111
                ? '100755'
                : '100644';
    const change = {
        path: p,
        status: tracked ? 'M' : 'A',
        // The previous mode is not read (that would need the index entry); a modification keeps its mode
        // here, so an unchanged executable bit is not reported as new.
        oldMode: tracked ? mode : null,
        newMode: mode,
        size: stat.isFile() ? stat.size : null,
        linesAdded: null,
        linesDeleted: null,
    };
    if (stat.isSymbolicLink()) {
        try {
            change.symlinkTarget = fs__default.readlinkSync(path.join(root, p), 'utf8');
        }
        catch {
            // Gone since the listing: the next checkpoint sees that.
        }
    }
    return change;
}
/** A file's identity and content as its stat shows it (ctime: no write leaves it unchanged). */
function statKey(stat) {
    return `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
}
/** Whether anything (a dangling symlink too) is at `file`. */
function onDisk(file) {
    try {
        fs__default.lstatSync(file);
        return true;
    }
    catch {
        return false;
    }
}
function isDirectory(file) {
    try {
        return fs__default.lstatSync(file).isDirectory();
    }
    catch {
        return false;
    }
}
/** More than any real attributes or config file; a larger one is read as empty (git still decides). */
const ATTRIBUTE_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** Attribute and config files proctor reads itself: a FIFO or device there never blocks it (safe-file.ts). */
function readText(file) {
    // How git is told there is no such file (GIT_CONFIG_GLOBAL=/dev/null): empty, as git reads it.
    if (file === '/dev/null')
        return '';
    return readRegularFile(file, ATTRIBUTE_FILE_MAX_BYTES).toString('utf8');
}

class Workspace {
    root;
    git;
    constructor(
    /** The repository root (the directory holding `.git`). */
    root, git) {
        this.root = root;
        this.git = git;
    }
    /**
     * The repository around `cwd`, or null outside one. `runner` sets how its git runs (`synchronous` for a
     * process with nothing else to do: see GitRunnerOptions).
     */
    static find(cwd, env, runner = {}) {
        const root = findRepoRoot(cwd);
        return root ? new Workspace(root, new Git({ ...runner, cwd: root, ...(env ? { env } : {}) })) : null;
    }
    /** `.proctor/` at the repository root around `cwd` (or at `cwd` outside a repository), created. */
    static stateDirs(cwd) {
        return ensureStateDir(cwd);
    }
    /** `.proctor/sessions/<id>`, created. */
    sessionDir(sessionId) {
        return sessionDir(ensureStateDir(this.root), sessionId);
    }
    /**
     * A session's checkpoint store: config.checkpoints' size limit and spacing, the policy's forbidden areas
     * withheld, and (with `judge`) every checkpoint judged by the policy. `extras` override any of it. The
     * policy's code (its glob matcher among it) is loaded only when the store first has a changed path to
     * weigh or a checkpoint to judge: a session opens its store before its agent's spawn (to record the
     * baseline), and a clean worktree must not cost the spawn that load.
     */
    async store(sessionId, config, extras = {}) {
        const { judge, ...overrides } = extras;
        const policy = config.policy;
        let code;
        const load = () => (code ??= import('./index-rlrk8lKr.js'));
        let withhold;
        let scanner;
        return new CheckpointStore({
            git: this.git,
            session: sessionId,
            maxFileSize: config.checkpoints.max_file_size,
            minIntervalMs: config.checkpoints.min_interval,
            prepare: async () => {
                // (A loaded config's policy has been checked: an empty forbidden_areas withholds nothing.)
                withhold ??= policy.forbidden_areas.length > 0 ? (await load()).forbiddenAreaOf(policy) : () => null;
                scanner ??= await contentScanner(policy);
                if (judge)
                    (await load()).prepareJudge(policy);
            },
            // Only asked after prepare (the store awaits it before it weighs any path).
            withhold: (path) => withhold(path),
            scanner: () => scanner ?? null,
            ...(judge
                ? {
                    validate: async (ctx) => {
                        const code = await load();
                        return [
                            ...code.evaluateCheckpoint({ ...ctx, worktree: this.root, policy }),
                            ...(await code.testsWeakened(this.git, ctx.cumulative, ctx.seq, policy)),
                        ];
                    },
                }
                : {}),
            ...overrides,
        });
    }
    /**
     * What the session's work holds against the policy at its latest checkpoint: the cumulative diff from
     * the session's base, judged as a whole (as the session's own gate judges it).
     */
    async standingViolations(store, config) {
        const latest = store.latest;
        if (!latest)
            return [];
        const [{ evaluatePolicy, testsWeakened }, { diffTrees }] = await Promise.all([
            import('./index-rlrk8lKr.js'),
            Promise.resolve().then(function () { return diff; }),
        ]);
        const files = await diffTrees(this.git, store.baseline, latest);
        return [
            ...evaluatePolicy({
                files,
                checkpoint: store.latestSeq,
                worktree: this.root,
                policy: config.policy,
                scope: 'cumulative',
            }),
            ...(await testsWeakened(this.git, files, store.latestSeq, config.policy)),
        ];
    }
    /** A session's push queue: config.checkpoints' remote, branch and mode, its bundle in the session dir. */
    async pushQueue(sessionId, config, options = {}) {
        const [{ PushQueue }, { listCheckpoints }] = await Promise.all([
            import('./push-BEy0WkCu.js'),
            import('./history-DPG0N69n.js'),
        ]);
        const base = options.base !== undefined
            ? options.base
            : ((await listCheckpoints(this.git, sessionId).catch(() => []))[0]?.base ?? null);
        return new PushQueue({
            git: this.git,
            session: sessionId,
            remote: options.remote ?? config.checkpoints.remote,
            branchTemplate: config.checkpoints.branch,
            mode: options.mode ?? config.checkpoints.push,
            sessionDir: sessionPath(this.root, sessionId),
            base,
            timeoutMs: config.checkpoints.push_timeout,
            pushCiChanges: config.checkpoints.push_ci_changes,
            ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
            ...(options.remoteUrl ? { remoteUrl: options.remoteUrl } : {}),
            ...(options.secretConfig ? { secretConfig: options.secretConfig } : {}),
            ...(options.written !== undefined ? { written: options.written } : {}),
        });
    }
    /** Pushes a finished session's checkpoints now; null when it has none. */
    async pushSession(sessionId, config, options = {}) {
        const { listCheckpoints } = await import('./history-DPG0N69n.js');
        const chain = await listCheckpoints(this.git, sessionId).catch(() => []);
        if (chain.length === 0)
            return null;
        const queue = await this.pushQueue(sessionId, config, { base: chain[0]?.base ?? null, ...options });
        return queue.flush();
    }
}
/** The content scan a store runs on every file it would record, with the policy's allowed paths. */
async function contentScanner(policy) {
    const { ContentScanner } = await import('./scanner-DrpsSTaG.js');
    // The glob matcher only for allowed paths there are (none by default): a one-shot create loads no more.
    if (policy.secret_allowed_paths.length === 0)
        return new ContentScanner({ rulesSkip: () => false });
    const { compilePolicy } = await import('./evaluate-DoW4VY95.js').then(function (n) { return n.u; });
    const allowed = compilePolicy(policy).secretAllowed;
    return new ContentScanner({ rulesSkip: (path) => allowed.match(path) !== null });
}

/** The key commander gives a row's option. */
function keyOf(row) {
    const name = row.long.startsWith('no-') ? row.long.slice(3) : row.long;
    return name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}
/** Adds `rows` to `command` in their order, each `{name}` in a help line filled from `fill`. */
function commanderOptions(command, rows, fill = {}) {
    for (const row of rows) {
        const flags = `${row.short ? `-${row.short}, ` : ''}--${row.long}${row.value ? ` <${row.value}>` : ''}`;
        command.option(flags, row.help.replace(/\{(\w+)\}/g, (text, name) => fill[name] ?? text));
    }
    return command;
}
/**
 * What the action gets before any option is read: each negation's key true (commander's default for a
 * `--no-x` option).
 */
function optionDefaults(rows) {
    const defaults = {};
    for (const row of rows)
        if (row.long.startsWith('no-'))
            defaults[keyOf(row)] = true;
    return defaults;
}
function plainSpec(rows) {
    const values = new Map();
    const switches = new Map();
    for (const row of rows) {
        const names = [`--${row.long}`, ...(row.short ? [`-${row.short}`] : [])];
        for (const name of names)
            if (row.value)
                values.set(name, keyOf(row));
            else
                switches.set(name, [keyOf(row), !row.long.startsWith('no-')]);
    }
    return { values, switches };
}
/**
 * `args` read by the table `rows`: each option at most once (a value option by its key, so `-c` and
 * `--config` are one), written `-x`, `--name`, `--name value` or `--name=value`; a separate value may not
 * look like an option ("-" alone is a value). With `argv`, `--` ends the options and the rest is the
 * command's argv; without it, `--` is commander's to read. Anything else — help, a typo, a short option with
 * its value attached, an operand where options are expected — is null. The options come over
 * optionDefaults, as commander hands them to the action.
 */
function readPlainArgs(args, rows, argv) {
    const spec = plainSpec(rows);
    const options = optionDefaults(rows);
    const done = (rest) => ({ options: options, argv: rest });
    const given = new Set();
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '--')
            return argv ? done(args.slice(i + 1)) : null;
        const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
        const name = eq < 0 ? arg : arg.slice(0, eq);
        const switched = spec.switches.get(name);
        if (switched) {
            if (eq >= 0 || given.has(name))
                return null;
            given.add(name);
            options[switched[0]] = switched[1];
            continue;
        }
        const key = spec.values.get(name);
        if (key === undefined || given.has(key))
            return null;
        given.add(key);
        const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
        if (value === undefined || (eq < 0 && value.length > 1 && value.startsWith('-')))
            return null;
        options[key] = value;
    }
    return done([]);
}

// `proctor checkpoints create`, apart from the other checkpoints commands: scripts run it once per
// checkpoint, so the whole process is its cost (issue 17: at most 1.2× raw plumbing plus a bare node start).
// main.ts runs it without commander when the arguments are the plain ones (plainCreateOptions), and it
// loads only the workspace's store (with git's runner) and the config loader: not the other subcommands,
// not the workspace's push and history code, and the policy's glob matcher only when policy.forbidden_areas
// is set and the worktree has changed paths to weigh.
/** `checkpoints create`'s options, the one table of them: commander's command (checkpoints.ts) and the plain reader. */
const CREATE_OPTIONS = [
    {
        long: 'session',
        value: 'id',
        help: 'append to this session (default: $PROCTOR_SESSION_ID, else a new manual-<time>)',
    },
    {
        long: 'config',
        short: 'c',
        value: 'file',
        help: 'the config file (default: proctor.yml at the repository root)',
    },
    { long: 'json', help: 'print the checkpoint record as JSON' },
];
const processIO = {
    cwd: () => process.cwd(),
    stdout: writeStdout,
};
/**
 * Writes to fd 1 at once, without process.stdout: a one-shot create prints one line, and creating the
 * stream (on a pipe, a net.Socket with the stream machinery behind it) and flushing it before the exit cost
 * the process 1–2 ms. Only when the descriptor is non-blocking and full (EAGAIN) does the rest go through
 * process.stdout, and the promise resolves once it is written.
 */
function writeStdout(text) {
    const bytes = Buffer.from(text);
    let written = 0;
    try {
        while (written < bytes.length)
            written += fs__default.writeSync(1, bytes, written);
        return;
    }
    catch (error) {
        if (error.code !== 'EAGAIN')
            throw error;
    }
    return new Promise((resolve, reject) => process.stdout.write(bytes.subarray(written), (error) => (error ? reject(error) : resolve())));
}
/**
 * The options of `checkpoints create <args>` when they are only the documented ones, each once
 * (readPlainArgs: `--session x`, `--session=x`, `-c x`, `--config x`, `--config=x`, `--json`); null for
 * anything else (help, an unknown option or argument, a missing value, a repeat, `--`, `-cp.yml`), which
 * commander then parses and reports as it always has.
 */
function plainCreateOptions(args) {
    return readPlainArgs(args, CREATE_OPTIONS, false)?.options ?? null;
}
/** Takes a checkpoint of the worktree now (trigger "manual") and prints it; nothing new if unchanged. */
async function createCheckpoint(opts, io = processIO) {
    // Nothing else happens in this process meanwhile: each git runs to completion (see runGitSync).
    const workspace = Workspace.find(io.cwd(), undefined, { synchronous: true });
    if (!workspace)
        throw new CliExit(ExitCode.usage, `${io.cwd()} is not inside a git repository; run proctor there`);
    let config;
    try {
        config = (await loadConfig({ file: opts.config, cwd: io.cwd() })).config;
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
    const session = opts.session ?? process.env.PROCTOR_SESSION_ID ?? manualSessionId();
    try {
        assertSessionId(session);
    }
    catch (error) {
        throw new CliExit(ExitCode.usage, error.message);
    }
    // Appending to a chain that exists (a session's, whose agent may be what runs this): the config read here
    // is the caller's to write (the worktree's proctor.yml, or -c), so it cannot widen the content scan
    // there — no secret_allowed_paths. A new chain (the user's own manual checkpoints) keeps them.
    // Read from disk (no git process: a one-shot create's are counted); when in doubt, it may exist.
    const dirs = readGitDirs(workspace.root);
    if (!dirs || refMayExist(dirs.commonDir, checkpointRef(session)))
        config = { ...config, policy: { ...config.policy, secret_allowed_paths: [] } };
    const store = await workspace.store(session, config, {
        // Withheld from it what policy.forbidden_areas names and every file the content scan finds a secret in,
        // as from a session's checkpoints: run from inside a session (PROCTOR_SESSION_ID), it adds to that
        // session's chain, which the session pushes.
        indexName: `cli-${process.pid}`,
    });
    try {
        const record = await store.create('manual');
        let output;
        if (opts.json)
            output = `${JSON.stringify(record, null, 2)}\n`;
        else if (!record)
            output = `nothing changed since the last checkpoint of ${session}; no checkpoint taken\n`;
        else {
            output = `${session}@${record.seq} ${record.sha.slice(0, 12)}: ${record.files_changed.length} file(s)\n`;
            for (const skipped of record.skipped) {
                const reason = record.skipped_reasons?.[skipped];
                output += `  skipped (${reason ? skipReasonWord(reason) : 'not recorded'}): ${skipped}\n`;
            }
        }
        await io.stdout(output);
    }
    finally {
        await store.close();
    }
}
function manualSessionId() {
    return `manual-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}`;
}

var checkpointsCreate = /*#__PURE__*/Object.freeze({
    __proto__: null,
    CREATE_OPTIONS: CREATE_OPTIONS,
    CliExit: CliExit,
    ConfigError: ConfigError,
    createCheckpoint: createCheckpoint,
    exitCodeOf: exitCodeOf,
    plainCreateOptions: plainCreateOptions
});

export { findRepoRoot as $, hostName as A, pidExists as B, processStartToken as C, liveGroupMembers as D, parseLinuxStartToken as E, currentBootId as F, Git as G, processEnvironmentHas as H, processGroupOf as I, randomHex as J, CHECKPOINT_REF_PREFIX as K, splitNul as L, readGitDirs as M, MAX_CONFIG_BYTES as N, formatSize as O, SEVERITY_ICON as P, HOOK_ICON as Q, describePreExisting as R, SYMLINK_MODE as S, TEST_LANGUAGES as T, worstSeverity as U, skipReasonWord as V, Workspace as W, reasonHead as X, formatTokens as Y, formatUsd as Z, pLimit as _, remoteBranchFor as a, worktreesPath as a0, STATE_DIR_NAME as a1, readDetachedHead as a2, sessionPath as a3, openAppendRegular as a4, globalConfigFiles as a5, resolveOpening as a6, sessionDir as a7, removeStaleRepoIndexes as a8, signalName as a9, isOwnLiveChild as aa, defaultAt as ab, parseSize as ac, commanderOptions as ad, createCheckpoint as ae, CREATE_OPTIONS as af, proctorStateDir as ag, displayName as ah, sessionsPath as ai, CheckpointStore as aj, GITLINK_MODE as ak, layout as al, load as am, checkpointsCreate as an, describeSnapshotProgress as b, checkpointRef as c, defaultConfig as d, ensureStateDir as e, formatDuration as f, firstLine as g, hookWord as h, describeKind as i, describeFsError as j, describeUsage as k, loadConfig as l, persistedCredentialKeys as m, diffTrees as n, readRegularFile as o, parseDuration as p, contentScanner as q, readPlainArgs as r, credentialFits as s, tokenHeaderConfig as t, baselineOf as u, parseCheckpointMessage as v, writeFileAtomic as w, GitError as x, signalGroup as y, groupHasLiveMembers as z };
