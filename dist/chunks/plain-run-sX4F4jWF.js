import { r as readPlainArgs } from './checkpoints-create-CbqvXtdJ.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';

/** `proctor run`'s options, by how they are written, and the flag each sets. */
const RUN_OPTIONS = {
    values: new Map([
        ['-c', 'config'],
        ['--config', 'config'],
        ['--agent', 'agent'],
        ['--shell', 'shell'],
        ['--timeout', 'timeout'],
        ['--idle-timeout', 'idleTimeout'],
        ['--session', 'session'],
    ]),
    switches: new Map([
        ['-q', ['quiet', true]],
        ['--quiet', ['quiet', true]],
        ['--json', ['json', true]],
        ['--no-pty', ['pty', false]],
        ['--no-checkpoints', ['checkpoints', false]],
        ['--no-push', ['push', false]],
    ]),
    argv: true,
};
/**
 * The arguments after `run` as commander would hand them to the action, when they are the plain ones
 * (readPlainArgs), then `--` and the agent's argv (or nothing). main.ts runs such a `proctor run` without
 * commander; anything else (an operand before `--` among it) is null and goes through commander.
 */
function plainRunArgs(args) {
    const read = readPlainArgs(args, RUN_OPTIONS);
    if (!read)
        return null;
    // (RUN_OPTIONS gives each key the type RunFlags has for it.)
    return {
        argv: read.argv,
        flags: { pty: true, checkpoints: true, push: true, ...read.options },
    };
}
/** The run command's module (the session, the config loader), loaded once the arguments are known to be plain. */
const loadRunCommand = () => import('./run-DC0Qw9pT.js');

export { loadRunCommand, plainRunArgs };
