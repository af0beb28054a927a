const { relative } = process.getBuiltinModule("node:path");
import { G as Git, o as readRegularFile, N as MAX_CONFIG_BYTES } from './checkpoints-create-CJcO-Brq.js';

import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';

// proctor.yml as a commit holds it, for where the working tree's copy cannot be trusted: the agent runs as the
// same user and can rewrite the file — between the action's main step and its post step, or between a
// session's rounds. A commit is content-addressed: what it holds is what the maintainers committed.
async function configAtCommit(file, rev, cwd) {
    const git = new Git({ cwd });
    if ((await git.revParse(`${rev}^{commit}`)) === null)
        return { kind: 'unknown' };
    // `rev:./path` is the path relative to the current directory, as git resolves it.
    const [bytes] = await git.readBlobs([`${rev}:./${relative(cwd, file)}`]);
    return bytes ? { kind: 'file', bytes } : { kind: 'none' };
}
/**
 * Whether the working tree's config file is not what `rev` holds: changed, added or removed. False when the
 * commit is not here (nothing to compare with).
 */
async function configDiffers(file, rev, cwd) {
    const committed = await configAtCommit(file, rev, cwd);
    if (committed.kind === 'unknown')
        return false;
    const worktree = readIfRegular(file);
    return committed.kind === 'none' ? worktree !== null : !worktree?.equals(committed.bytes);
}
/** The file's bytes when it is a regular file proctor would read, else null (missing, a FIFO, too large). */
function readIfRegular(file) {
    try {
        return readRegularFile(file, MAX_CONFIG_BYTES + 1);
    }
    catch {
        return null;
    }
}

export { configAtCommit, configDiffers, readIfRegular };
