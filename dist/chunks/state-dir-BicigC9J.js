import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { mkdirSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { g as findRepoRoot } from './load-Da5-Wslq.js';

// proctor's own state lives in `.proctor/` at the repository root. It holds a `.gitignore` of `*` (as
// pytest does for its cache) so the state never shows in `git status` and never enters a checkpoint.
const STATE_DIR_NAME = '.proctor';
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

export { STATE_DIR_NAME as S, ensureStateDir as e, sessionDir as s };
