import { listSessions } from './history-DPG0N69n.js';
import { W as Workspace } from './checkpoints-create-CJcO-Brq.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';

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
