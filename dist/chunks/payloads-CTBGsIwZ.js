import { l as lifecycleEvents } from './events-C_YfI5y8.js';
import { s as startHookProcess, t as toCommandSpec, d as describeCommand } from './run-hook-DNdEhNsA.js';
import { f as formatDuration } from './checkpoints-create-CJcO-Brq.js';

/** Events whose hooks' answer matters, so they cannot run async (the config loader rejects it too). */
const EVENTS_NEEDING_AN_ANSWER = ['stop'];
const MIN_POOL_SIZE = 1;
const MAX_POOL_SIZE = 100;
class LifecycleHooks {
    options;
    poolSize;
    running = new Set();
    /** Async hooks running now, by process, with "<event> hook <name>" for warnings. */
    runningAsync = new Map();
    asyncDone = new Set();
    activeAsync = 0;
    shuttingDown = false;
    warn;
    constructor(options) {
        this.options = options;
        this.warn = options.onWarning ?? (() => { });
        this.poolSize = clampPoolSize(options.poolSize, this.warn);
    }
    /** How many hook processes are running right now (sync and async). */
    get runningCount() {
        return this.running.size;
    }
    async fire(event, extra, fireOptions = {}) {
        const entries = this.options.hooks[event] ?? [];
        if (entries.length === 0)
            return [];
        if (this.shuttingDown) {
            this.warn(`lifecycle hooks for ${event} not run: proctor is shutting down`, { event });
            return entries.map((entry, index) => skipped(event, hookName(event, entry, index), entry.async, 'shutting down'));
        }
        const payload = `${JSON.stringify({ hook_event_name: event, session_id: this.options.sessionId, cwd: this.options.cwd, extra })}\n`;
        return Promise.all(entries.map((entry, index) => {
            const name = hookName(event, entry, index);
            const runAsync = entry.async && !fireOptions.waitForAsync && !EVENTS_NEEDING_AN_ANSWER.includes(event);
            if (entry.async && EVENTS_NEEDING_AN_ANSWER.includes(event)) {
                this.warn(`hook ${name}: the ${event} event needs an answer, so it ran synchronously despite async: true`);
            }
            return runAsync
                ? this.schedule(event, name, entry, payload)
                : this.runSync(event, name, entry, payload);
        }));
    }
    /** Resolves when every async hook started so far has finished. */
    async settled() {
        while (this.asyncDone.size > 0)
            await Promise.all([...this.asyncDone]);
    }
    /**
     * The end of a session: async hooks already fired (session_end's among them) get up to `timeoutMs` to
     * finish; whatever still runs then is stopped (SIGTERM → grace → SIGKILL) with a warning naming it.
     */
    async drain(timeoutMs) {
        if (this.asyncDone.size > 0 && timeoutMs > 0) {
            let timer;
            const expired = await Promise.race([
                this.settled().then(() => false),
                new Promise((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
            ]);
            clearTimeout(timer);
            if (expired) {
                const names = [...this.runningAsync.values()];
                this.warn(`async hooks still running after hooks_async_drain_timeout (${formatDuration(timeoutMs)}): ${names.join(', ') || 'not started yet'}; stopping them (SIGTERM, then SIGKILL after ${formatDuration(this.options.shutdownGraceMs)})`, { hooks: names, drain_timeout_ms: timeoutMs });
            }
        }
        else if (this.asyncDone.size > 0) {
            const names = [...this.runningAsync.values()];
            this.warn(`async hooks stopped without a drain window: ${names.join(', ') || 'not started yet'}`, {
                hooks: names,
            });
        }
        await this.shutdown();
    }
    /** Stops every running hook group: SIGTERM, then SIGKILL after the shutdown grace. Later firings are dropped. */
    async shutdown() {
        this.shuttingDown = true;
        await Promise.all([...this.running].map((hook) => hook.process?.stop('shutdown')));
        await Promise.all([...this.running].map((hook) => hook.done));
        // Firings scheduled but not spawned yet see shuttingDown and end without starting anything.
        await this.settled();
    }
    start(event, name, entry, payload) {
        const started = startHookProcess({
            command: toCommandSpec(entry.command),
            cwd: this.options.cwd,
            env: {
                ...this.options.env,
                PROCTOR_SESSION_ID: this.options.sessionId,
                PROCTOR_HOOK_EVENT: event,
                PROCTOR_HOOK_NAME: name,
                PROCTOR_CWD: this.options.cwd,
            },
            stdin: payload,
            timeoutMs: entry.timeout,
            graceMs: this.options.shutdownGraceMs,
            ...(this.options.registryDir
                ? { registry: { dir: this.options.registryDir, session: this.options.sessionId } }
                : {}),
            label: `${event} hook ${name}`,
        });
        this.running.add(started);
        void started.done.then(() => this.running.delete(started));
        return started;
    }
    async runSync(event, name, entry, payload) {
        const run = await this.start(event, name, entry, payload).done;
        const result = toResult(event, name, entry.async, run);
        if (printsAsyncMarker(run.stdout)) {
            this.warn(`hook ${name} printed {"async": true} (Claude Code's background marker); proctor ran it synchronously — set async: true on the hook in proctor.yml instead`, { event, hook: name });
        }
        if (result.status !== 'ok')
            this.warn(`${event} hook ${name} failed: ${result.message}`, { event, hook: name });
        return result;
    }
    /**
     * Reserves a pool slot now and spawns on the next turn of the event loop, so the caller (the session's
     * event path) pays for a slot check, not for fork/exec. Saturation is decided here, synchronously.
     */
    schedule(event, name, entry, payload) {
        const began = performance.now();
        if (this.activeAsync >= this.poolSize) {
            const message = `async hook pool is full (${this.poolSize} running); dropped this firing`;
            this.warn(`${event} hook ${name}: ${message}`, { event, hook: name, pool_size: this.poolSize });
            return skipped(event, name, true, message);
        }
        this.activeAsync += 1;
        const finished = new Promise((resolve) => setImmediate(resolve))
            .then(async () => {
            if (this.shuttingDown)
                return;
            const started = this.start(event, name, entry, payload);
            this.runningAsync.set(started, `${event} hook ${name}`);
            const run = await started.done.finally(() => this.runningAsync.delete(started));
            const result = toResult(event, name, true, run);
            if (result.status !== 'ok' && !(this.shuttingDown && result.status === 'stopped')) {
                this.warn(`async ${event} hook ${name} failed: ${result.message}`, { event, hook: name });
            }
        })
            .finally(() => {
            this.activeAsync -= 1;
            this.asyncDone.delete(finished);
        });
        this.asyncDone.add(finished);
        return {
            event,
            name,
            async: true,
            status: 'scheduled',
            exit_code: null,
            duration_ms: performance.now() - began,
            stdout: '',
            stderr: '',
            message: null,
        };
    }
}
/** hooks_async_pool_size outside 1–100 is clamped with a warning, not rejected. */
function clampPoolSize(size, warn) {
    const whole = Number.isFinite(size) ? Math.round(size) : 10;
    const clamped = Math.min(MAX_POOL_SIZE, Math.max(MIN_POOL_SIZE, whole));
    if (clamped !== size)
        warn(`hooks_async_pool_size ${size} is outside ${MIN_POOL_SIZE}–${MAX_POOL_SIZE}; using ${clamped}`);
    return clamped;
}
function hookName(event, entry, index) {
    return entry.name ?? `${event}[${index}] ${describeCommand(entry.command)}`;
}
function isLifecycleEvent(value) {
    return lifecycleEvents.includes(value);
}
function printsAsyncMarker(stdout) {
    const text = stdout.trim();
    if (!text.startsWith('{'))
        return false;
    try {
        const value = JSON.parse(text);
        return typeof value === 'object' && value !== null && value.async === true;
    }
    catch {
        return false;
    }
}
function toResult(event, name, isAsync, run) {
    let status = 'ok';
    let message = null;
    if (run.spawnError !== undefined) {
        status = 'error';
        message = run.spawnError;
    }
    else if (run.timedOut) {
        status = 'timeout';
        message = 'timed out';
    }
    else if (run.stoppedBy !== null) {
        status = 'stopped';
        message = `stopped (${run.stoppedBy})`;
    }
    else if (run.exitCode !== 0) {
        status = 'error';
        const tail = run.stderr.trim().split('\n').slice(-3).join(' ').trim();
        message = `${run.exitCode === null ? `killed by ${run.signal}` : `exited with code ${run.exitCode}`}${tail ? `: ${tail}` : ''}`;
    }
    return {
        event,
        name,
        async: isAsync,
        status,
        exit_code: run.exitCode,
        duration_ms: Math.round(run.durationMs),
        stdout: run.stdout,
        stderr: run.stderr,
        message,
    };
}
function skipped(event, name, isAsync, message) {
    return {
        event,
        name,
        async: isAsync,
        status: 'dropped',
        exit_code: null,
        duration_ms: 0,
        stdout: '',
        stderr: '',
        message,
    };
}

const lifecycleExtra = {
    session_start: (command, cwd, mode) => ({ command, cwd, mode }),
    approval_request: (rule, text) => ({ rule, text }),
    /** Fired before the stop hooks run: what ended the round, not a verdict yet. */
    stop: (round, stopReason) => ({ round, stop_reason: stopReason }),
    session_end: (ending) => ({
        status: ending.status,
        verdict: ending.verdict,
        exit_code: ending.exit_code,
        reason: ending.reason,
    }),
};
function syntheticExtra(event) {
    switch (event) {
        case 'session_start':
            return lifecycleExtra.session_start(['example-agent', '--task', 'demo'], process.cwd(), 'pty');
        case 'checkpoint':
            return {
                seq: 1,
                sha: '0123456789abcdef0123456789abcdef01234567',
                ref: 'refs/proctor/test-session',
                trigger: 'manual',
                files_changed: ['src/example.ts'],
            };
        case 'violation':
            return {
                checkpoint: 1,
                file: '.github/workflows/ci.yml',
                constraint: 'protected_area',
                severity: 'error',
                message: '.github/workflows/ci.yml is in a protected area',
                suggestion: 'revert the change or ask a maintainer',
            };
        case 'approval_request':
            return lifecycleExtra.approval_request('approve-edit', 'Do you want to make this edit?');
        case 'stop':
            return lifecycleExtra.stop(1, 'completed');
        case 'session_end':
            return lifecycleExtra.session_end({ status: 'completed', verdict: 'allow', exit_code: 0, reason: null });
        case 'subagent_stop':
            return {
                task_index: 0,
                child_session_id: 'test-session-a',
                child_role: 'tester',
                child_status: 'completed',
                child_summary: 'all tests pass',
                duration_ms: 1200,
            };
        case 'subagent_batch_complete':
            return {
                child_count: 2,
                completed_count: 1,
                failed_count: 0,
                errored_count: 0,
                interrupted_count: 1,
                timeout_count: 0,
                total_duration_ms: 5000,
                children: [
                    {
                        task_index: 0,
                        role: 'tester',
                        status: 'completed',
                        duration_ms: 1200,
                        summary: 'all tests pass',
                    },
                    {
                        task_index: 1,
                        role: null,
                        status: 'interrupted',
                        duration_ms: 3800,
                        summary: 'stopped by SIGINT',
                    },
                ],
            };
    }
}

export { EVENTS_NEEDING_AN_ANSWER as E, LifecycleHooks as L, MIN_POOL_SIZE as M, MAX_POOL_SIZE as a, isLifecycleEvent as i, lifecycleExtra as l, syntheticExtra as s };
