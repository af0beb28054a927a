import { s as spawnManaged, S as SpawnError } from './process-oa2MkSfe.js';

function toCommandSpec(command) {
    if (typeof command === 'string')
        return { shell: command };
    const [file, ...args] = command;
    if (file === undefined)
        throw new Error('a hook command must not be an empty list');
    return { file, args };
}
/** A short, readable form for lines like "tests (npm test)"; never used to run anything. */
function describeCommand(command) {
    if (typeof command === 'string')
        return command;
    return command.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
}

// Runs one hook process through the supervisor: JSON on stdin, own process group, output captured (capped),
// a timeout that stops the group (SIGTERM → grace → SIGKILL). Never throws: a hook that cannot start is an outcome.
/** Hooks may print a lot (a test runner's log); keep enough for a reason and a JSON answer. */
const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;
function startHookProcess(options) {
    const started = performance.now();
    const stdout = new CappedText(MAX_HOOK_OUTPUT_BYTES);
    const stderr = new CappedText(MAX_HOOK_OUTPUT_BYTES);
    let child;
    try {
        child = spawnManaged({
            command: options.command,
            cwd: options.cwd,
            env: options.env,
            mode: 'pipe',
            stdin: options.stdin,
            graceMs: options.graceMs,
            label: options.label,
            ...(options.registry ? { registry: { ...options.registry, role: 'hook' } } : {}),
            onOutput: (chunk, stream) => {
                ;
                (stream === 'stderr' ? stderr : stdout).push(chunk);
                options.onOutput?.(chunk, stream);
            },
        });
    }
    catch (error) {
        const message = error instanceof SpawnError || error instanceof Error ? error.message : String(error);
        const run = {
            exitCode: null,
            signal: null,
            timedOut: false,
            stoppedBy: null,
            stdout: '',
            stderr: '',
            durationMs: performance.now() - started,
            spawnError: `${options.label} could not start: ${message}`,
        };
        return { process: null, done: Promise.resolve(run) };
    }
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        void child.stop('timeout');
    }, options.timeoutMs);
    const done = child.exited.then((exit) => {
        clearTimeout(timer);
        return {
            exitCode: exit.exitCode,
            signal: exit.signal,
            timedOut: timedOut || exit.stoppedBy === 'timeout',
            stoppedBy: exit.stoppedBy,
            stdout: stdout.text(),
            stderr: stderr.text(),
            durationMs: performance.now() - started,
        };
    });
    return { process: child, done };
}
/** Keeps the first `limit` bytes; the rest is counted, not stored. */
class CappedText {
    limit;
    chunks = [];
    kept = 0;
    dropped = 0;
    constructor(limit) {
        this.limit = limit;
    }
    push(chunk) {
        const room = this.limit - this.kept;
        if (room <= 0) {
            this.dropped += chunk.length;
            return;
        }
        const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
        this.chunks.push(Buffer.from(part));
        this.kept += part.length;
        this.dropped += chunk.length - part.length;
    }
    text() {
        const body = Buffer.concat(this.chunks).toString('utf8');
        return this.dropped > 0 ? `${body}\n… (${this.dropped} more bytes not kept)` : body;
    }
}

export { describeCommand as d, startHookProcess as s, toCommandSpec as t };
