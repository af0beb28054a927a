const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);

import { W as Workspace, l as listSessions } from './workspace-C3G6qXsn.js';
import './checkpoints-create-B5osVHqD.js';

import './errors-C8lIl8iI.js';




import './exit-DOW3voEl.js';
import './evaluate-DOzACHlU.js';
import './compile-euSnLuMI.js';
import './commonjs-helpers-BaR4b9kA.js';

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
