import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { mkdirSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve, join, dirname } from 'node:path';

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
    if (!existsSync(ignore) || statSync(ignore).size === 0)
        writeFileSync(ignore, '# proctor state: never tracked\n*\n');
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
    await mkdir(dir, { recursive: true });
    return dir;
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

export { STATE_DIR_NAME as S, findRepoRoot as a, sessionDir as b, formatSize as c, proctorStateDir as d, ensureStateDir as e, formatDuration as f, parseSize as g, sessionsPath as h, parseDuration as p, sessionPath as s, worktreesPath as w };
