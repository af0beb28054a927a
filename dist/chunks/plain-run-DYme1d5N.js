import { r as readPlainArgs } from './checkpoints-create-CJcO-Brq.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';

// `proctor run`'s options, the one table of them (RUN_OPTIONS): commander's `run` command is built from it
// (commands/run.ts) and main.ts reads a plain `proctor run` with it, without commander — commander's
// module, program and parse were ~10 ms of CPU before every agent's spawn.
// A module of its own, apart from run.ts: main.ts imports it, and rollup gives each module the CLI's entry
// imports a chunk of its own together with what that module imports statically (rollup.config.mjs) —
// run.ts's would be the whole session.
/** `proctor run`'s options, in `--help` order. */
const RUN_OPTIONS = [
    {
        long: 'config',
        short: 'c',
        value: 'file',
        help: 'config file (default: proctor.yml at the repository root)',
    },
    {
        long: 'agent',
        value: 'preset',
        help: "the agent CLI's preset ({presets}): its detectors, typing and Stop-hook wiring",
    },
    { long: 'shell', value: 'command', help: 'run the agent through /bin/sh -c instead of an argv' },
    { long: 'timeout', value: 'duration', help: 'total timeout, e.g. 30m (overrides timeouts.total)' },
    {
        long: 'idle-timeout',
        value: 'duration',
        help: 'stop when the agent prints nothing for this long (overrides timeouts.idle)',
    },
    { long: 'no-pty', help: 'run the agent with pipes instead of a pseudo-terminal' },
    { long: 'json', help: 'print the report as JSON instead of the summary' },
    { long: 'session', value: 'id', help: 'session id (default: generated; in CI: run id, attempt and job)' },
    { long: 'no-checkpoints', help: 'do not record checkpoints' },
    { long: 'no-push', help: 'keep checkpoints local' },
    { long: 'quiet', short: 'q', help: 'do not echo the agent output' },
    {
        long: 'task',
        value: 'text',
        help: 'the task, as a comment would give it in CI: {task} in the agent command (one argument) and PROCTOR_TASK',
    },
    {
        long: 'continue',
        value: 'session',
        help: "the next round of a session that ended, --task as the feedback: the agent's own session resumed by id where its CLI still has it, else a fresh agent told what the earlier rounds did",
    },
];
/**
 * The arguments after `run` as commander would hand them to the action, when they are the plain ones
 * (readPlainArgs), then `--` and the agent's argv (or nothing). main.ts runs such a `proctor run` without
 * commander; anything else (an operand before `--` among it) is null and goes through commander.
 */
function plainRunArgs(args) {
    const read = readPlainArgs(args, RUN_OPTIONS, true);
    return read && { argv: read.argv, flags: read.options };
}
/** The run command's module (the session, the config loader), loaded once the arguments are known to be plain. */
const loadRunCommand = () => import('./run-BgTlgjFw.js');

export { RUN_OPTIONS, loadRunCommand, plainRunArgs };
