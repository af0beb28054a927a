import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { W as Workspace, l as listSessions } from './workspace-CJAuxeEJ.js';
import './runner-FlE7M-Ph.js';
import 'node:path';
import 'node:child_process';
import 'node:fs';
import './store-Dm3FM6sK.js';
import 'node:os';
import './units-B2PFpzl3.js';
import './refs-X9Bn9pnj.js';
import './layout-CYVFN_Ug.js';
import 'node:fs/promises';
import './evaluate-D8eBpjCm.js';
import './compile-CfUVcr6H.js';
import './commonjs-helpers-VjtyuPzv.js';

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
