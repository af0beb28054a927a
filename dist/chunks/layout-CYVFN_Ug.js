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

export { STATE_DIR_NAME as S, sessionDir as a, sessionPath as b, ensureStateDir as e, findRepoRoot as f, proctorStateDir as p, sessionsPath as s, worktreesPath as w };
