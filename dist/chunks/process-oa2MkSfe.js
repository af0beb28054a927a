const { isAbsolute, resolve, delimiter, join } = process.getBuiltinModule("node:path");
import { a9 as signalName, J as randomHex, aa as isOwnLiveChild, z as groupHasLiveMembers } from './checkpoints-create-CJcO-Brq.js';
import { e as ensureRunsDir, a as recordSpawn, b as recordExit, t as terminateGroup, s as signalTarget, R as RUN_TOKEN_ENV } from './registry-DMAlOnZf.js';
const { spawn } = process.getBuiltinModule("node:child_process");
const require$$0 = process.getBuiltinModule("node:net");
const { createRequire } = process.getBuiltinModule("node:module");
const { readSync, statSync, accessSync, constants } = process.getBuiltinModule("node:fs");

// Reading a child's output into one reused buffer. A socket that child_process or node-pty creates
// allocates a fresh Buffer for every read and passes it through the Readable machinery: in a 25 MB flood
// that is thousands of 64 KiB allocations that stay in the process until V8 collects them (tens of MB of
// peak RSS) and more CPU than proctor's own work on the bytes. Node's `onread` option reads into a
// buffer the caller owns instead, but only for a socket it constructs: so the handle of the socket
// child_process or node-pty made moves to a new socket built with it.
/** The reads' buffer: the most a pipe holds (64 KiB on Linux); a PTY read returns far less. */
const READ_BUFFER_BYTES = 64 * 1024;
/**
 * Moves the reading of `stream` to a new socket that reads into one buffer of READ_BUFFER_BYTES, and
 * returns it (it emits 'end', 'error' and 'close' as the old one would have; it never emits 'data').
 * Returns null — nothing changed, read `stream` as usual — when this Node's sockets do not expose what
 * this needs. Call synchronously after the spawn, before any read was delivered.
 */
function readIntoReusedBuffer(stream, opts) {
    const internals = stream;
    const handle = internals._handle;
    if (!handle || typeof handle.useUserBuffer !== 'function' || typeof handle.readStart !== 'function') {
        return null;
    }
    const buffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
    if (!opts.shareHandle)
        internals._handle = null;
    // The handle's reads now go to this socket (its onread and owner are replaced); if the old socket
    // already started reading, this one carries on, otherwise it starts.
    const options = {
        // A pipe or TTY handle, not the BoundSocket the typings name: the constructor takes any stream handle.
        handle: handle,
        readable: true,
        writable: false,
        onread: {
            buffer,
            callback: (bytes) => {
                opts.onData(buffer.subarray(0, bytes));
                // Keep reading: the consumer copies what it keeps, so the buffer is free again.
                return true;
            },
        },
    };
    return new require$$0.Socket(options);
}

// Pipe backend: child_process.spawn with `detached: true`, which on POSIX calls setsid() so the
// child leads its own session and process group (pgid === pid). stdout and stderr stay separate.
/**
 * A write is delivered once the kernel took it. A child that never reads fills the pipe (64 KiB on
 * Linux) and the write waits; after this long the answer counts as not delivered.
 */
const WRITE_DEADLINE_MS = 2_000;
function spawnPipe(opts) {
    const child = spawn(opts.file, opts.args, {
        cwd: opts.cwd,
        env: opts.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
    });
    const pid = child.pid;
    if (pid === undefined) {
        // The executable was checked before spawn, so this is a race (deleted meanwhile) or a limit
        // (EAGAIN: too many processes). The async 'error' event carries the details; the caller gets
        // a synchronous failure here so nothing half-started is left behind.
        child.on('error', () => undefined);
        throw new Error(`failed to start ${opts.file}: the system refused to create the process`);
    }
    const stdin = child.stdin;
    // A child that exits without reading its input must not crash us with EPIPE.
    stdin.on('error', () => undefined);
    if (opts.stdin !== undefined)
        stdin.end(opts.stdin);
    else if (!opts.keepStdinOpen)
        stdin.end();
    /** What is read: the stream itself, or the socket its handle moved to (opts.reuseBuffer). */
    const readers = [];
    const streamEnded = (stream, name) => new Promise((resolve) => {
        const reused = opts.reuseBuffer
            ? readIntoReusedBuffer(stream, { onData: (chunk) => opts.onOutput(chunk, name), shareHandle: false })
            : null;
        if (reused) {
            // The old socket has no handle left: closed now, it can never touch the pipe again.
            stream.destroy();
        }
        else {
            stream.on('data', (chunk) => opts.onOutput(chunk, name));
        }
        const reader = reused ?? stream;
        readers.push(reader);
        reader.on('error', () => resolve());
        reader.on('close', () => resolve());
    });
    const outputEnd = Promise.all([
        streamEnded(child.stdout, 'stdout'),
        streamEnded(child.stderr, 'stderr'),
    ]).then(() => undefined);
    const leaderExit = new Promise((resolve) => {
        child.on('error', () => resolve({ exitCode: null, signal: null }));
        child.on('exit', (code, signal) => resolve({ exitCode: signal ? null : code, signal }));
    });
    return {
        pid,
        leaderExit,
        outputEnd,
        abandonOutput() {
            for (const reader of readers)
                reader.destroy();
        },
        write(data) {
            if (!stdin.writable || stdin.writableEnded || stdin.destroyed) {
                return Promise.resolve({ delivered: false, reason: "the agent's stdin is closed" });
            }
            return new Promise((resolve) => {
                const timer = setTimeout(() => resolve({ delivered: false, reason: 'the agent is not reading its stdin (the pipe is full)' }), WRITE_DEADLINE_MS);
                stdin.write(enterAsNewline(data), (error) => {
                    clearTimeout(timer);
                    resolve(error
                        ? { delivered: false, reason: `the agent's stdin is closed (${errorCode(error)})` }
                        : { delivered: true });
                });
            });
        },
        resize: () => undefined,
    };
}
/**
 * "\r" (Enter, as `send: "y\r"` and the default `deny_text` type it) as "\n": in a PTY the terminal's line
 * discipline does that (ICRNL), so a line-reading agent sees the line end; over a pipe nothing would, and
 * the agent would wait for the rest of its line until the timeout. "\r\n" becomes one "\n".
 */
function enterAsNewline(data) {
    if (typeof data === 'string')
        return data.replace(/\r\n?/g, '\n');
    if (!data.includes(0x0d))
        return data;
    return Buffer.from(data.toString('latin1').replace(/\r\n?/g, '\n'), 'latin1');
}
function errorCode(error) {
    const code = error.code;
    return code ?? error.message;
}

// PTY backend on @lydell/node-pty, loaded lazily so pipe-only users never load the native module.
//
// Tail loss (node-pty issues #72 and #726): on Node 20/22, libuv treats POLLHUP
// after a short read as EOF, so the master's stream 'end's while the kernel still holds the last
// few KB; node-pty then closes the fd. On Linux a pty master stays readable after the slave closes
// until its buffer is empty and only then fails with EIO. So whenever the stream is about to stop
// reading (premature 'end', or node-pty's 200 ms destroy after exit) we first read the master
// ourselves, synchronously, until EIO (nothing more will ever come) or EAGAIN (slave still open).
const notDelivered = { delivered: false, reason: 'the terminal has closed (the agent exited)' };
let nodePty;
/** Loads the native module on first use; throws an Error explaining how to fall back to pipes. */
function loadNodePty() {
    if (nodePty)
        return nodePty;
    try {
        nodePty = createRequire(import.meta.url)('@lydell/node-pty');
        return nodePty;
    }
    catch (error) {
        throw new Error(`PTY mode is unavailable on this machine (${error.message.split('\n')[0]}); ` +
            'run without a terminal with --no-pty or agent.pty: false in proctor.yml', { cause: error });
    }
}
const DRAIN_CHUNK = 64 * 1024;
function spawnPty(opts) {
    const pty = loadNodePty();
    const env = { ...opts.env };
    const term = pty.spawn(opts.file, opts.args, {
        name: env.TERM ?? 'xterm-256color',
        cols: opts.cols,
        rows: opts.rows,
        cwd: opts.cwd,
        env,
        // null: raw Buffers, so multi-byte characters split across reads are never mangled.
        encoding: null,
    });
    const internals = term;
    let masterDone = false;
    const deliver = (chunk) => {
        if (chunk.length > 0)
            opts.onOutput(chunk, 'pty');
    };
    const drainMaster = () => {
        const fd = internals._fd;
        if (masterDone || typeof fd !== 'number' || process.platform === 'win32')
            return;
        const buffer = Buffer.allocUnsafe(DRAIN_CHUNK);
        for (;;) {
            let n;
            try {
                n = readSync(fd, buffer, 0, DRAIN_CHUNK, null);
            }
            catch (error) {
                const code = error.code;
                // EAGAIN: the slave is still open elsewhere, nothing buffered right now; the stream keeps reading.
                if (code !== 'EAGAIN')
                    masterDone = true;
                return;
            }
            if (n === 0) {
                masterDone = true;
                return;
            }
            deliver(Buffer.from(buffer.subarray(0, n)));
        }
    };
    const socket = internals._socket;
    // node-pty's socket keeps the handle (input is written through it) and its 'error'/'close' handlers,
    // which end the terminal; the reads move to a socket of our own that forwards its end to it.
    // (POSIX only: the master is one fd there; Windows' conpty sockets are left as node-pty reads them.)
    const reader = opts.reuseBuffer && socket && process.platform !== 'win32'
        ? readIntoReusedBuffer(socket, { onData: deliver, shareHandle: true })
        : null;
    if (!reader) {
        term.onData((data) => deliver(typeof data === 'string' ? Buffer.from(data) : data));
    }
    if (socket) {
        (reader ?? socket).on('end', drainMaster);
        const destroy = socket.destroy.bind(socket);
        socket.destroy = (error) => {
            drainMaster();
            if (reader) {
                // node-pty gave up waiting for the end (200 ms after the exit): the reads stop too, and its
                // socket lets go of the handle the reader closed, or it would wait for that close forever.
                reader.destroy();
                socket._handle = null;
            }
            return destroy(error);
        };
    }
    if (reader && socket) {
        const destroyReader = reader.destroy.bind(reader);
        reader.destroy = (error) => {
            drainMaster();
            // Destroying closes the master: from now on its fd number may belong to another file.
            masterDone = true;
            return destroyReader(error);
        };
        // EIO (the terminal's last process closed it) or an end: node-pty's socket closes as it would have
        // when reading itself, without an error (its handler throws anything but EIO), and the exit follows.
        reader.on('error', () => undefined);
        reader.on('close', () => socket.destroy());
    }
    const leaderExit = new Promise((resolve) => {
        // node-pty fires onExit after its socket closed (or 200 ms after the exit), i.e. after output.
        term.onExit(({ exitCode, signal }) => {
            drainMaster();
            masterDone = true;
            const name = signal ? signalName(signal) : null;
            resolve(name ? { exitCode: null, signal: name } : { exitCode, signal: null });
        });
    });
    return {
        pid: term.pid,
        leaderExit,
        outputEnd: leaderExit.then(() => undefined),
        abandonOutput: () => undefined,
        write(data) {
            if (masterDone)
                return Promise.resolve(notDelivered);
            try {
                // The unix socket takes Buffers as they are (the typings say string); Windows needs text.
                const bytes = typeof data !== 'string' && process.platform === 'win32' ? data.toString('utf8') : data;
                term.write.call(term, bytes);
                return Promise.resolve({ delivered: true });
            }
            catch {
                // The terminal closed between the check and the write; writes after exit are no-ops.
                return Promise.resolve(notDelivered);
            }
        },
        resize(cols, rows) {
            if (masterDone)
                return;
            try {
                term.resize(cols, rows);
            }
            catch {
                // Resizing a terminal whose child just exited throws EBADF; nothing to resize any more.
            }
        },
    };
}

// The contract of the one process owner. Only src/supervisor/ starts, signals or reaps processes;
// hooks, sessions and batches go through `spawnManaged` (src/supervisor/process.ts).
/** Thrown before anything is spawned: the executable is missing or not executable. */
class SpawnError extends Error {
    command;
    code;
    constructor(message, command, code) {
        super(message);
        this.command = command;
        this.code = code;
        this.name = 'SpawnError';
    }
}

// Finds the executable before anything is spawned: node-pty never throws on a bad path (the child
// just prints "execvp(3) failed" and exits 1), so a typo must be caught here with a clear message.
const SHELL = '/bin/sh';
/** A readable rendering of an argv for humans (quoted where needed); never passed to a shell. */
function displayCommand(command) {
    if ('shell' in command)
        return command.shell;
    return [command.file, ...command.args].map(quoteForDisplay).join(' ');
}
function quoteForDisplay(word) {
    return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
function isExecutableFile(path) {
    let stat;
    try {
        stat = statSync(path);
    }
    catch {
        return 'missing';
    }
    if (stat.isDirectory())
        return 'directory';
    try {
        accessSync(path, constants.X_OK);
        return 'ok';
    }
    catch {
        return 'not-executable';
    }
}
/**
 * Resolves `command` to an absolute executable and argv. `{file}` with a slash is taken relative to
 * `cwd`; a bare name is searched in the child's PATH. `{shell}` runs `/bin/sh -c <string>`.
 * Throws SpawnError (ENOENT / EACCES / EINVAL) naming what is wrong and where to fix it.
 */
function resolveCommand(command, cwd, env, label = 'command') {
    const hint = label === 'agent' ? ' — check agent.command in proctor.yml' : '';
    if (!isCommandSpec(command)) {
        throw new SpawnError(`${label} command must be { file, args[] } or { shell }, got ${JSON.stringify(command)}${hint}`, command, 'EINVAL');
    }
    if (isExecutableFile(cwd) !== 'directory') {
        throw new SpawnError(`${label} working directory does not exist: ${cwd}`, command, 'ENOENT');
    }
    if ('shell' in command) {
        if (command.shell.trim() === '') {
            throw new SpawnError(`${label} shell command is empty${hint}`, command, 'EINVAL');
        }
        return { file: SHELL, args: ['-c', command.shell], display: command.shell };
    }
    if (command.file === '')
        throw new SpawnError(`${label} command is empty${hint}`, command, 'EINVAL');
    if (command.file.includes('\0') || command.args.some((arg) => arg.includes('\0'))) {
        throw new SpawnError(`${label} command contains a NUL byte${hint}`, command, 'EINVAL');
    }
    const display = displayCommand(command);
    if (command.file.includes('/')) {
        const path = isAbsolute(command.file) ? command.file : resolve(cwd, command.file);
        return { file: checkCandidate(path, command, label, hint), args: [...command.args], display };
    }
    const searchPath = env.PATH ?? process.env.PATH ?? '';
    const dirs = searchPath.split(delimiter).filter((dir) => dir !== '');
    let notExecutable;
    for (const dir of dirs) {
        const candidate = resolve(cwd, join(dir, command.file));
        const state = isExecutableFile(candidate);
        if (state === 'ok')
            return { file: candidate, args: [...command.args], display };
        if (state === 'not-executable')
            notExecutable ??= candidate;
    }
    if (notExecutable !== undefined) {
        throw new SpawnError(`${label} command is not executable: ${notExecutable} (chmod +x it, or run it through an interpreter)${hint}`, command, 'EACCES');
    }
    throw new SpawnError(`${label} command not found: ${command.file} (searched PATH: ${dirs.join(delimiter) || '(empty)'})${hint}`, command, 'ENOENT');
}
function checkCandidate(path, command, label, hint) {
    switch (isExecutableFile(path)) {
        case 'ok':
            return path;
        case 'missing':
            throw new SpawnError(`${label} command not found: ${path}${hint}`, command, 'ENOENT');
        case 'directory':
            throw new SpawnError(`${label} command is a directory, not a program: ${path}${hint}`, command, 'EACCES');
        case 'not-executable':
            throw new SpawnError(`${label} command is not executable: ${path} (chmod +x it, or run it through an interpreter)${hint}`, command, 'EACCES');
    }
}
function isCommandSpec(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const record = value;
    if ('shell' in record)
        return typeof record.shell === 'string';
    return (typeof record.file === 'string' &&
        Array.isArray(record.args) &&
        record.args.every((arg) => typeof arg === 'string'));
}

// spawnManaged: the one way proctor starts a process. The command is resolved before spawning,
// the child leads its own process group (PTY: session leader; pipes: detached), and the group is
// what we stop, pause and reap — so a grandchild can't outlive its agent.
const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 40;
/**
 * After the leader exited (and its group was dealt with), how long output may still take to end.
 * Only a process that escaped the group (its own setsid) can hold a pipe open longer than this.
 */
const OUTPUT_DRAIN_MS = 2000;
/**
 * Starts `opts.command` as the leader of a new process group. Throws SpawnError before anything is
 * spawned when the executable is missing or not executable, the cwd is missing, or PTY mode is
 * unavailable.
 */
function spawnManaged(opts) {
    const label = opts.label ?? 'command';
    if (!Number.isFinite(opts.graceMs) || opts.graceMs < 0) {
        throw new SpawnError(`${label}: graceMs must be a non-negative number, got ${opts.graceMs}`, opts.command, 'EINVAL');
    }
    if (opts.mode !== 'pty' && opts.mode !== 'pipe') {
        throw new SpawnError(`${label}: mode must be "pty" or "pipe", got ${String(opts.mode)}`, opts.command, 'EINVAL');
    }
    const resolved = resolveCommand(opts.command, opts.cwd, opts.env, label);
    if (opts.registry)
        ensureRunsDir(opts.registry.dir);
    const env = {};
    for (const [key, value] of Object.entries(opts.env))
        if (value !== undefined)
            env[key] = value;
    // PWD is the directory the process starts in, not proctor's: opencode (Bun) takes its project from PWD, and
    // with proctor's own it worked in proctor's directory instead of the session's (a batch worktree, a temp repo).
    env.PWD = resolve(opts.cwd);
    // The proof, after a crash, that a process group is this run's (see registry.ts).
    const runToken = opts.runToken ?? (opts.registry ? randomHex(16) : undefined);
    if (runToken)
        env[RUN_TOKEN_ENV] = runToken;
    const onOutput = opts.onOutput ?? (() => undefined);
    const adapterOptions = {
        file: resolved.file,
        args: resolved.args,
        cwd: opts.cwd,
        env,
        cols: opts.cols ?? DEFAULT_COLS,
        rows: opts.rows ?? DEFAULT_ROWS,
        stdin: opts.stdin,
        keepStdinOpen: opts.keepStdinOpen,
        onOutput,
        reuseBuffer: opts.reuseOutputBuffer === true,
    };
    let adapter;
    try {
        adapter = opts.mode === 'pty' ? spawnPty(adapterOptions) : spawnPipe(adapterOptions);
    }
    catch (error) {
        if (error instanceof SpawnError)
            throw error;
        throw new SpawnError(`${label}: ${error.message}`, opts.command, 'EINVAL');
    }
    let record;
    if (opts.registry) {
        try {
            record = recordSpawn(opts.registry.dir, {
                pid: adapter.pid,
                role: opts.registry.role,
                session: opts.registry.session,
                label,
                executable: resolved.file,
                token: runToken,
            });
        }
        catch {
            // The process runs either way; a missing record only weakens crash recovery.
        }
    }
    return new GroupLeader(adapter, opts.mode, opts.graceMs, (info) => {
        if (record && opts.registry) {
            try {
                recordExit(opts.registry.dir, record, info);
            }
            catch {
                // Best effort, as above.
            }
        }
    });
}
class GroupLeader {
    adapter;
    mode;
    graceMs;
    pid;
    pgid;
    exited;
    stopPromise;
    /** Set by stop(): resolves when the group is gone or was SIGKILLed; true if KILL was needed. */
    termination;
    stoppedBy = null;
    leaderGone = false;
    group;
    constructor(adapter, mode, graceMs, onExit) {
        this.adapter = adapter;
        this.mode = mode;
        this.graceMs = graceMs;
        this.pid = adapter.pid;
        this.pgid = adapter.pid;
        // Until the leader is reaped its pid can't be reused; the parent check guards the short time
        // between the reaping and our exit callback.
        this.group = { pgid: this.pgid, leaderAlive: () => !this.leaderGone && isOwnLiveChild(this.pid) };
        this.exited = this.finish().then((info) => {
            onExit(info);
            return info;
        }, 
        // finish() does not throw; this keeps the "never rejects" promise honest if it ever did.
        () => ({ exitCode: null, signal: null, stoppedBy: this.stoppedBy, killed: false }));
    }
    async finish() {
        const leader = await this.adapter.leaderExit;
        this.leaderGone = true;
        let killed = false;
        if (this.termination) {
            // stop() is in progress: members that outlived the leader get SIGKILL at the grace deadline.
            killed = await this.termination;
        }
        else if (groupHasLiveMembers(this.pgid)) {
            // The leader exited on its own but left members behind (a background job, a daemon that
            // stayed in the group). They belong to this run; stop them without holding up the result.
            void terminateGroup({ pgid: this.pgid }, this.graceMs);
        }
        await this.outputEndOrDrainDeadline();
        return { exitCode: leader.exitCode, signal: leader.signal, stoppedBy: this.stoppedBy, killed };
    }
    async outputEndOrDrainDeadline() {
        let timer;
        const deadline = new Promise((resolve) => {
            timer = setTimeout(() => {
                this.adapter.abandonOutput();
                resolve();
            }, this.graceMs + OUTPUT_DRAIN_MS);
        });
        await Promise.race([this.adapter.outputEnd, deadline]);
        clearTimeout(timer);
    }
    write(data) {
        if (this.leaderGone)
            return Promise.resolve({ delivered: false, reason: 'the agent has exited' });
        return this.adapter.write(data);
    }
    stop(cause, graceMs) {
        if (this.stopPromise)
            return this.stopPromise;
        if (this.leaderGone) {
            this.stopPromise = this.exited;
            return this.stopPromise;
        }
        this.stoppedBy = cause;
        this.termination = terminateGroup(this.group, Math.min(graceMs ?? this.graceMs, this.graceMs));
        this.stopPromise = this.exited;
        return this.stopPromise;
    }
    pause() {
        // Once stopping, the group must stay able to act on SIGTERM.
        if (!this.leaderGone && !this.termination)
            signalTarget(this.group, 'SIGSTOP');
    }
    resume() {
        if (!this.leaderGone)
            signalTarget(this.group, 'SIGCONT');
    }
    resize(cols, rows) {
        if (this.leaderGone)
            return;
        if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1) {
            throw new RangeError(`terminal size must be positive integers, got ${cols}x${rows}`);
        }
        this.adapter.resize(cols, rows);
    }
}

export { SpawnError as S, loadNodePty as l, spawnManaged as s };
