import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { W as Workspace, b as listSessions } from './workspace-BEvStxgE.js';
import './runner-B-BgQHrS.js';
import 'node:path';
import 'node:child_process';
import 'node:fs';
import 'node:os';
import './units-B5hbnLVp.js';
import './refs-BmDgSsZw.js';
import './commonjs-helpers-eQonu12B.js';
import './layout-D1plT80L.js';
import 'node:fs/promises';

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
