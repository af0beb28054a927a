import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { W as Workspace, b as listSessions } from './workspace-r5Zr2x3i.js';
import './runner-BWUXmy3c.js';
import 'node:path';
import 'node:child_process';
import 'node:fs';
import 'node:os';
import './units-uesZE-n4.js';
import 'node:fs/promises';
import './refs-MgMT0USI.js';
import './_commonjsHelpers-eQonu12B.js';

async function pushCheckpointsAlong(options) {
    const workspace = Workspace.find(options.cwd);
    const sessions = workspace ? await listSessions(workspace.git) : [];
    if (!workspace || sessions.length === 0)
        return 'no checkpoint branches to push';
    Workspace.stateDirs(options.cwd);
    const lines = [];
    for (const { session } of sessions) {
        const record = await workspace.pushSession(session, options.config, {
            mode: 'always',
            ...(options.remote !== null ? { remote: options.remote } : {}),
        });
        if (!record)
            continue;
        lines.push(record.ok
            ? `pushed checkpoints ${session} → ${record.branch}`
            : `checkpoints ${session} not pushed: ${record.reason}`);
    }
    return lines.join('\n');
}

export { pushCheckpointsAlong };
