/** `proctor run`'s options that take a value, by how they are written. */
const VALUE_OPTIONS = new Map([
    ['-c', 'config'],
    ['--config', 'config'],
    ['--agent', 'agent'],
    ['--shell', 'shell'],
    ['--timeout', 'timeout'],
    ['--idle-timeout', 'idleTimeout'],
    ['--session', 'session'],
]);
/** Its switches: the flag each sets, and to what. */
const SWITCHES = new Map([
    ['-q', ['quiet', true]],
    ['--quiet', ['quiet', true]],
    ['--json', ['json', true]],
    ['--no-pty', ['pty', false]],
    ['--no-checkpoints', ['checkpoints', false]],
    ['--no-push', ['push', false]],
]);
/**
 * The arguments after `run` as commander would hand them to the action, when they are the plain ones: each
 * option at most once, written `-q`, `--name`, `--name value` or `--name=value`, then `--` and the agent's
 * argv (or nothing). main.ts runs such a `proctor run` without commander. Anything else — help, a typo, a short option with its value
 * attached, an operand before `--`, a separate value that looks like an option — is null: commander parses
 * and reports it as for every other command.
 */
function plainRunArgs(args) {
    const flags = { pty: true, checkpoints: true, push: true };
    const given = new Set();
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '--')
            return { argv: args.slice(i + 1), flags };
        const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
        const name = eq < 0 ? arg : arg.slice(0, eq);
        const switched = SWITCHES.get(name);
        if (switched) {
            if (eq >= 0 || given.has(name))
                return null;
            given.add(name);
            if (switched[1])
                flags[switched[0]] = true;
            else
                flags[switched[0]] = false;
            continue;
        }
        const key = VALUE_OPTIONS.get(name);
        if (key === undefined || given.has(key))
            return null;
        given.add(key);
        const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
        if (value === undefined || (eq < 0 && value.startsWith('-')))
            return null;
        flags[key] = value;
    }
    return { argv: [], flags };
}
/** The run command's module (the session, the config loader), loaded once the arguments are known to be plain. */
const loadRunCommand = () => import('./run-FjDEeJ6a.js');

export { loadRunCommand, plainRunArgs };
