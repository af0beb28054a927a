import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { join } from 'node:path';
import { G as Git } from './runner-Bvzwme2y.js';
import { a as listSessions, l as listCheckpoints, P as PushQueue } from './history-CMuI9Jgm.js';
import { e as ensureStateDir } from './state-dir-BicigC9J.js';
import 'node:util';
import './_commonjsHelpers-eQonu12B.js';
import 'tty';
import 'util';
import 'os';
import 'fs';
import 'node:child_process';
import 'node:events';
import 'node:fs';
import './load-Da5-Wslq.js';
import './errors-7nusPbhT.js';
import 'process';
import 'buffer';
import 'node:v8';
import 'node:worker_threads';

// checkpoints.push_on_pre_push: when the user pushes, their local checkpoint branches go along. The git
// runner pushes with --no-verify and hooks disabled, so this never re-enters the pre-push hook.
async function pushCheckpointsAlong(options) {
    const git = new Git({ cwd: options.cwd });
    const sessions = await listSessions(git);
    if (sessions.length === 0)
        return 'no checkpoint branches to push';
    const dirs = ensureStateDir(options.cwd);
    const lines = [];
    for (const { session } of sessions) {
        const first = (await listCheckpoints(git, session))[0];
        const queue = new PushQueue({
            git,
            session,
            remote: options.remote ?? options.config.checkpoints.remote,
            branchTemplate: options.config.checkpoints.branch,
            mode: 'always',
            sessionDir: join(dirs.sessions, session),
            base: first?.base ?? null,
        });
        queue.schedule();
        const record = await queue.flush();
        lines.push(record.ok
            ? `pushed checkpoints ${session} → ${record.branch}`
            : `checkpoints ${session} not pushed: ${record.reason}`);
    }
    return lines.join('\n');
}

export { pushCheckpointsAlong };
