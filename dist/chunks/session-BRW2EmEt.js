const path = process.getBuiltinModule("node:path"); const { join, dirname, basename, resolve } = process.getBuiltinModule("node:path");
import { i as isReadByGit, f as findBlocker, d as describeBlocker, s as scanForBlocker, a as agentEnvironment, b as sanitizeRefPart, m as makeSessionId, p as pricerFor, R as ReportBuilder } from './git-blockers-Dy_7XOmu.js';
import { r as reconcileOrphans, p as pruneFinished, l as liveSessions, R as RUN_TOKEN_ENV } from './registry-DMAlOnZf.js';
import { a1 as STATE_DIR_NAME, L as splitNul, a4 as openAppendRegular, M as readGitDirs, a5 as globalConfigFiles, o as readRegularFile, W as Workspace, a6 as resolveOpening, V as skipReasonWord, x as GitError, R as describePreExisting, f as formatDuration, e as ensureStateDir, a7 as sessionDir, a8 as removeStaleRepoIndexes, w as writeFileAtomic, J as randomHex, $ as findRepoRoot } from './checkpoints-create-CJcO-Brq.js';
import { L as LifecycleHooks, l as lifecycleExtra } from './payloads-CTBGsIwZ.js';
import { d as describeCommand } from './run-hook-DNdEhNsA.js';
import { M as MAX_PRE_EXISTING_LISTED, U as UsageMeter } from './summary-BBJud0Oe.js';
const fs__default = process.getBuiltinModule("node:fs"); const { readdirSync, openSync, constants, readSync, closeSync, realpathSync, existsSync } = process.getBuiltinModule("node:fs");
const os = process.getBuiltinModule("node:os"); const { homedir } = process.getBuiltinModule("node:os");
import { S as SpawnError, s as spawnManaged, l as loadNodePty } from './process-oa2MkSfe.js';
import { ExitCode } from './exit-DPvLwpPv.js';
const { EventEmitter } = process.getBuiltinModule("node:events");
const { spawn } = process.getBuiltinModule("node:child_process");
import { Detector, compileRules, decodeKeys, AGENT_ERROR_KIND, agentErrorReason } from './detect-BBMe2jVM.js';
import { stripTerminal } from './sanitize-C-XaPVOa.js';
const { "setTimeout": setTimeout$1 } = process.getBuiltinModule("node:timers/promises");
import { t as typedNotice } from './feedback-CO8PHFfu.js';

const anyLimit = (b) => b !== undefined && (b.usd !== undefined || b.tokens !== undefined || b.requests !== undefined);
/** Whether proctor.yml sets any budget limit, for the session or the batch. */
function hasBudget(config) {
    return anyLimit(config.budget) || anyLimit(config.budget.batch);
}
/** proctor.yml's limits (`budget`, or `budget.batch`) as a Budget takes them. */
function limitsOf(b, warnAt) {
    return { usd: b?.usd ?? null, tokens: b?.tokens ?? null, requests: b?.requests ?? null, warn_at: warnAt };
}
class Budget {
    #limits;
    #meter;
    #pricer;
    #key;
    #warned = false;
    constructor(limits, tally) {
        this.#limits = limits;
        this.#meter = tally.meter;
        this.#pricer = tally.pricer;
        this.#key = tally.key ?? 'budget';
    }
    /** Whether any limit is set: without one the proxy only meters. */
    get active() {
        const l = this.#limits;
        return l.usd !== null || l.tokens !== null || l.requests !== null;
    }
    /**
     * The state after `totals`: spent once a limit is reached (no further request may start), a warning the
     * first time a limit's warn_at share is crossed, else ok. A USD limit counts only while every request's
     * model has a known price (cost_usd not null): a session is never stopped on a guessed cost. Asked
     * `beforeCall`, the calls still in flight count as requests (they are spent, only not yet added).
     */
    check(beforeCall = false) {
        if (!this.active)
            return { kind: 'ok' };
        const totals = this.#meter.totals(this.#pricer);
        const measures = this.#measures(totals);
        const pending = beforeCall ? this.#meter.inFlight : 0;
        const spent = measures.find((m) => m.used + (m.name === 'requests' ? pending : 0) >= m.limit);
        if (spent)
            return {
                kind: 'spent',
                reason: `budget reached: ${spent.show(spent.used)} of ${spent.show(spent.limit)} (${this.#key}.${spent.name})`,
            };
        if (this.#warned)
            return { kind: 'ok' };
        const near = measures.find((m) => m.used >= m.limit * this.#limits.warn_at);
        if (near) {
            this.#warned = true;
            return {
                kind: 'warn',
                reason: `${Math.round((near.used / near.limit) * 100)}% of the budget used: ${near.show(near.used)} of ${near.show(near.limit)} (${this.#key}.${near.name})`,
            };
        }
        return { kind: 'ok' };
    }
    #measures(totals) {
        const l = this.#limits;
        const out = [];
        if (l.tokens !== null)
            out.push({
                name: 'tokens',
                limit: l.tokens,
                used: totals.input_tokens + totals.output_tokens,
                show: (n) => `${n} tokens`,
            });
        if (l.requests !== null)
            out.push({ name: 'requests', limit: l.requests, used: totals.requests, show: (n) => `${n} requests` });
        if (l.usd !== null && this.#pricer && totals.cost_usd !== null)
            out.push({ name: 'usd', limit: l.usd, used: totals.cost_usd, show: (n) => `$${n.toFixed(2)}` });
        return out;
    }
}

// SIGINT/SIGTERM to proctor: finalize once (stop the agent, last checkpoint, report), whatever
// else arrives meanwhile. The runner's cancel sends SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s
// after that, so repeats must never restart or abort the finalizer.
/**
 * Installs SIGINT/SIGTERM listeners. The first signal runs `handler(signal)` once; later ones are
 * reported to `onRepeat` and otherwise ignored (installing a listener also stops Node's default
 * exit on that signal). Exit codes (130 / 143) are the caller's. Returns an uninstall function.
 */
function installShutdownSignals(handler, options = {}) {
    let first;
    const listeners = new Map();
    for (const signal of ['SIGINT', 'SIGTERM']) {
        const listener = () => {
            if (first !== undefined) {
                options.onRepeat?.(signal);
                return;
            }
            first = signal;
            handler(signal).catch((error) => options.onError?.(error, signal));
        };
        listeners.set(signal, listener);
        process.on(signal, listener);
    }
    return () => {
        for (const [signal, listener] of listeners)
            process.off(signal, listener);
        listeners.clear();
    };
}
/** The conventional exit code for a process ended by `signal` (128 + signal number). */
function exitCodeForSignal(signal) {
    return signal === 'SIGINT' ? 130 : 143;
}

// Whether an agent CLI can still resume one of its own sessions on this machine: each CLI keeps its
// conversations as files under its home, and a CI job on a fresh machine has none of them. Asked before a
// continuation passes `{agent_session}` (src/session/resume.ts): resuming an id the CLI does not have fails
// the round (Claude: "No conversation found", Codex: no thread, Gemini: "Invalid session identifier"),
// where a fresh agent told about the earlier rounds can go on. Where each CLI keeps them (checked against the
// pinned releases by test/e2e/agents-resume.test.ts):
// - Claude Code: `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<project>/<id>.jsonl`
// - Codex: `$CODEX_HOME` (default `~/.codex`) `/sessions/<yyyy>/<mm>/<dd>/rollout-<time>-<id>.jsonl`
// - Gemini CLI: `$GEMINI_CLI_HOME` (default `~`) `/.gemini/tmp/<project>/chats/session-<time>-<id[0,8]>.json[l]`,
//   the full id inside
// - Copilot CLI: `$COPILOT_HOME` (default `~/.copilot`) `/session-state/<id>/` (events.jsonl inside)
/**
 * An id as the CLIs make them (UUIDs, thread ids): nothing that could walk out of a directory or pass for
 * an option when it follows `--resume` on a command line. The id comes from the agent's side.
 */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,127}$/;
function isAgentSessionId(id) {
    return SAFE_ID.test(id);
}
/**
 * Whether the CLI behind `adapter` keeps session `id` where it would look for it, for the user in `env`.
 * null: proctor cannot tell (a generic agent): a continuation then trusts the id.
 */
function agentSessionStored(adapter, id, env) {
    if (adapter === 'generic')
        return null;
    if (!SAFE_ID.test(id))
        return false;
    const home = env.HOME || homedir();
    switch (adapter) {
        case 'claude': {
            const projects = join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects');
            return dirs(projects).some((project) => names(join(projects, project)).includes(`${id}.jsonl`));
        }
        case 'codex': {
            const sessions = join(env.CODEX_HOME || join(home, '.codex'), 'sessions');
            const suffix = `-${id}.jsonl`;
            return walk$1(sessions, 3).some((name) => name.endsWith(suffix));
        }
        case 'gemini': {
            const tmp = join(env.GEMINI_CLI_HOME || home, '.gemini', 'tmp');
            const short = id.slice(0, 8);
            return dirs(tmp).some((project) => {
                const chats = join(tmp, project, 'chats');
                return names(chats)
                    .filter((name) => name.startsWith('session-') && /\.jsonl?$/.test(name))
                    .filter((name) => name.replace(/\.jsonl?$/, '').endsWith(`-${short}`))
                    .some((name) => head(join(chats, name)).includes(`"${id}"`));
            });
        }
        case 'copilot':
            return dirs(join(env.COPILOT_HOME || join(home, '.copilot'), 'session-state')).includes(id);
    }
}
function names(dir) {
    try {
        return readdirSync(dir);
    }
    catch {
        return [];
    }
}
function dirs(dir) {
    try {
        return readdirSync(dir, { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => entry.name);
    }
    catch {
        return [];
    }
}
/** File names `depth` directory levels below `dir` (Codex's year/month/day). */
function walk$1(dir, depth) {
    if (depth === 0)
        return names(dir);
    return dirs(dir).flatMap((sub) => walk$1(join(dir, sub), depth - 1));
}
/**
 * The first 8 KiB of a file (the session's id is in its first record); never blocks on a FIFO. Not
 * readRegularFile: a long conversation is over any cap, and only its head is needed.
 */
function head(path) {
    let fd = null;
    try {
        fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
        const buffer = Buffer.alloc(8192);
        const read = readSync(fd, buffer, 0, buffer.length, 0);
        return buffer.subarray(0, read).toString('utf8');
    }
    catch {
        return '';
    }
    finally {
        if (fd !== null)
            closeSync(fd);
    }
}

// Watches a worktree for the checkpoint triggers: one non-recursive fs.watch (one inotify watch) per
// directory, nothing per file. The triggers only need "which paths changed" (git decides what changed
// at checkpoint time), so no stat of every file is kept. Measured on a 10,000-file tree: chokidar's
// initial scan took seconds and about 110 MiB; this walk takes a fraction of a second and a few MiB, and
// it runs in the background (it yields between directories), so it never delays the agent.
// A directory that appears later is asked about first (ignoredAmong: one git check-ignore for the directories
// seen together): one git ignores (a `.venv/` from pip, a `target/`) is reported once and never descended
// into, so a 100,000-file install costs one event, not a watch per directory and an event per file. That is
// safe whatever the patterns say: git cannot re-include a file whose parent directory is excluded.
/** Events handled together (one lstat each, at once): bounds the memory of a flood in a watched directory. */
const BATCH = 1000;
class TreeWatcher {
    options;
    watchers = new Map();
    /**
     * The inode each watched directory had when its watch began: a directory removed and made again under the
     * same name in one batch of events is a new directory the old watch does not see into.
     */
    inodes = new Map();
    /** Directories that appeared ignored: reported once, never watched; forgotten when they go. */
    skipped = new Set();
    pending = [];
    draining = null;
    closed = false;
    constructor(options) {
        this.options = options;
    }
    /** Watches every directory under the root; resolves when the walk is done (or the watcher closed). */
    async start() {
        await this.watchTree([''], false);
    }
    /** Resolves once every event received so far has been classified and reported (onEvent). */
    async settled() {
        while (this.draining)
            await this.draining;
    }
    close() {
        this.closed = true;
        this.pending = [];
        for (const watcher of this.watchers.values())
            watcher.close();
        this.watchers.clear();
    }
    /**
     * Watch `dirs` and every directory below them, a level at a time; with `report` they are new (created
     * late): their files are reported, and each level's directories are asked about in one batch first.
     */
    async watchTree(dirs, report) {
        let level = dirs;
        while (level.length > 0 && !this.closed) {
            const next = [];
            for (const current of level) {
                if (this.closed)
                    return;
                // skipped: found ignored meanwhile (an event for it was handled while this walk was under way).
                if (this.watchers.has(current) || this.skipped.has(current) || !this.watch(current))
                    continue;
                let entries;
                try {
                    entries = await fs__default.promises.readdir(this.abs(current), { withFileTypes: true });
                }
                catch {
                    continue; // gone again, or unreadable: nothing to watch there
                }
                for (const entry of entries) {
                    const rel = current ? `${current}/${entry.name}` : entry.name;
                    if (this.options.ignored(rel))
                        continue;
                    if (entry.isDirectory())
                        next.push(rel);
                    else if (report)
                        this.options.onEvent('add', rel);
                }
            }
            level = report ? await this.admit(next) : next;
        }
    }
    /** Of directories that appeared, the ones to walk; the ignored ones are reported once and skipped. */
    async admit(dirs) {
        if (dirs.length === 0)
            return dirs;
        const ignored = await this.ignoredAmong(dirs);
        const walk = [];
        for (const dir of dirs) {
            if (this.closed)
                break;
            if (ignored.has(dir)) {
                this.skipped.add(dir);
                this.options.onEvent('ignoredDir', dir);
            }
            else {
                this.options.onEvent('addDir', dir);
                walk.push(dir);
            }
        }
        return walk;
    }
    /** A failed question is answered "none ignored": the directory is watched, as before the question. */
    async ignoredAmong(dirs) {
        if (!this.options.ignoredAmong)
            return new Set();
        return this.options.ignoredAmong(dirs).catch(() => new Set());
    }
    watch(dir) {
        if (this.closed)
            return false;
        // Before the watch: a directory swapped in after this lstat has another inode than the one noted here.
        // (The root is followed: the repository may be reached through a symlink.)
        let stat;
        try {
            stat = (dir ? fs__default.lstatSync : fs__default.statSync)(this.abs(dir), { throwIfNoEntry: false });
        }
        catch {
            return false; // unreadable: nothing to watch there
        }
        if (!stat?.isDirectory())
            return false;
        this.inodes.set(dir, { ino: stat.ino, birth: stat.birthtimeMs });
        try {
            const watcher = fs__default.watch(this.abs(dir), { persistent: true }, (type, name) => {
                const rel = name ? (dir ? `${dir}/${name.toString()}` : name.toString()) : dir;
                if (rel && !this.options.ignored(rel))
                    this.enqueue(type, rel);
            });
            watcher.on('error', (error) => {
                this.forget(dir);
                if (error.code !== 'ENOENT')
                    this.options.onError(error);
            });
            this.watchers.set(dir, watcher);
            return true;
        }
        catch (error) {
            this.inodes.delete(dir);
            // ENOSPC (inotify limit) or a directory that vanished: counting is a hint, checkpoints still see it.
            if (error.code !== 'ENOENT')
                this.options.onError(error);
            return false;
        }
    }
    /** Events are classified in arrival order, in batches, so the log keeps their order (add before unlink). */
    enqueue(type, rel) {
        this.pending.push({ type, rel });
        this.draining ??= this.drain().finally(() => (this.draining = null));
    }
    async drain() {
        while (this.pending.length > 0 && !this.closed) {
            const batch = this.pending.splice(0, BATCH);
            const stats = await Promise.all(batch.map(({ rel }) => fs__default.promises.lstat(this.abs(rel)).catch(() => null)));
            if (this.closed)
                return;
            const appeared = new Set();
            batch.forEach(({ type, rel }, i) => {
                const stat = stats[i];
                if (!stat?.isDirectory() || this.skipped.has(rel))
                    return;
                // Another directory than the one watched (removed and made again): its watches see nothing of this one.
                // Its inode may be reused at once; its birth time tells them apart where the file system keeps one,
                // else any name created or removed in its parent ('rename') that is a directory now is taken as new.
                const known = this.inodes.get(rel);
                const same = known?.ino === stat.ino && (known.birth > 0 ? known.birth === stat.birthtimeMs : type !== 'rename');
                if (this.watchers.has(rel) && same)
                    return;
                this.forget(rel);
                appeared.add(rel);
            });
            // One question for all the directories of the batch, before any of them is watched or walked.
            const ignored = appeared.size > 0 ? await this.ignoredAmong([...appeared]) : new Set();
            if (this.closed)
                return;
            const walk = [];
            batch.forEach(({ type, rel }, i) => {
                const stat = stats[i];
                if (!stat) {
                    if (this.watchers.has(rel)) {
                        this.forget(rel);
                        this.options.onEvent('unlinkDir', rel);
                    }
                    else if (this.skipped.delete(rel)) {
                        this.options.onEvent('unlinkDir', rel);
                    }
                    else {
                        this.options.onEvent('unlink', rel);
                    }
                }
                else if (stat.isDirectory()) {
                    if (!appeared.delete(rel))
                        return; // watched, skipped, or handled earlier in this batch
                    if (ignored.has(rel)) {
                        this.skipped.add(rel);
                        this.options.onEvent('ignoredDir', rel);
                    }
                    else {
                        this.options.onEvent('addDir', rel);
                        walk.push(rel);
                    }
                }
                else {
                    this.skipped.delete(rel); // an ignored directory replaced by a file: the file is reported
                    this.options.onEvent(type === 'rename' ? 'add' : 'change', rel);
                }
            });
            if (walk.length > 0)
                await this.watchTree(walk, true);
        }
    }
    /** Stop watching a directory that is gone, and everything that was below it. */
    forget(dir) {
        for (const [key, watcher] of this.watchers) {
            if (key === dir || key.startsWith(`${dir}/`)) {
                watcher.close();
                this.watchers.delete(key);
                this.inodes.delete(key);
            }
        }
        for (const key of this.skipped)
            if (key.startsWith(`${dir}/`))
                this.skipped.delete(key);
    }
    abs(rel) {
        return rel ? path.join(this.options.root, rel) : this.options.root;
    }
}

// When to take a checkpoint: every `interval`, after `max_changes` distinct paths changed (a watcher
// counts them; git decides what actually changed when the checkpoint runs), on detector
// events, at the end (`final`) and on demand (`manual`). Every file event goes to an audit log;
// a directory git ignores is one line there, never entered.
// Never watched at any depth (git records no path through a `.git`; node_modules is checked by quietSince).
// proctor's state is only the root's `.proctor/`: a `src/.proctor/` is the agent's, and git records it.
const ALWAYS_IGNORED = new Set(['.git', 'node_modules']);
class CheckpointTriggers {
    options;
    watcher = null;
    timer = null;
    changed = new Set();
    unchecked = new Set();
    checking = null;
    inFlight = null;
    log = null;
    ignoredDirs = new Set();
    stopped = false;
    /** The final checkpoint is queued: interval and change triggers no longer fire. */
    ending = false;
    watching = Promise.resolve();
    /** The walk of the tree is done and no watch failed: a change anywhere git looks is an event. */
    walked = false;
    blind = false;
    /** Events on paths a checkpoint may record, since the watcher started. */
    events = 0;
    /** node_modules directories the watcher skips that were not known to be ignored when it started. */
    unverified = new Set();
    /** Directories found ignored when they appeared (ignoredDir), skipped while they exist. */
    skippedLate = new Set();
    /**
     * Ignore and attribute files the watcher saw created or changed (git opens them as it walks): checked
     * before each checkpoint, so a FIFO planted there fails it before git blocks on it (git-blockers.ts).
     */
    readByGit = new Set();
    constructor(options) {
        this.options = options;
    }
    /** Distinct paths changed since the last checkpoint started (as the watcher saw them). */
    get pendingChanges() {
        return this.changed.size;
    }
    /** Resolves when the file events seen so far have been counted (ignore checks done). */
    async counted() {
        while (this.checking)
            await this.checking;
    }
    /**
     * Start the interval timer and launch the watcher. It does not wait for the watcher's walk of the
     * tree, which grows with the repository: the agent starts at once, and a change made before the walk
     * reached its directory is still in the next checkpoint (git decides what changed; the watcher only
     * counts towards `max_changes`). `ready()` waits for the walk.
     */
    start() {
        if (this.options.eventLogPath) {
            this.log = openEventLog(this.options.eventLogPath);
        }
        if (this.options.intervalMs > 0) {
            this.timer = setInterval(() => void this.fire('interval'), this.options.intervalMs);
            this.timer.unref();
        }
        if (this.options.maxChanges > 0 || this.log) {
            this.watching = this.startWatcher().catch((error) => this.writeLog({ event: 'watch_error', path: '', message: String(error) }));
        }
    }
    /** Resolves once the watcher has walked the tree (or gave up); events from then on are counted. */
    ready() {
        return this.watching;
    }
    /** A detector event (e.g. completion) asks for a checkpoint. */
    event(name) {
        return this.fire('event', name);
    }
    manual() {
        return this.fire('manual');
    }
    /**
     * Taken right before a checkpoint lists the worktree, once the events of every change made before it
     * have been counted (else a change the listing sees would count as one made after it).
     */
    async mark() {
        if (this.walked && !this.blind)
            await this.settled();
        return { walked: this.walked && !this.blind && !this.stopped, events: this.events };
    }
    /**
     * Whether the worktree holds nothing new for a checkpoint since `mark` was taken: the watcher had walked
     * the whole tree by then, no watch failed, and it has seen no change since on a path a checkpoint could
     * record (events still queued in the kernel or being classified are waited for). Every directory it skips
     * (node_modules, and the ones git ignored at the start or when they appeared) is checked to be ignored by
     * git still, as a whole (ignoredAsWholes): one the checkpoints record a file in, or one a .gitignore edit
     * un-ignored, would hide changes from the watcher. False whenever in doubt: the caller then lists the tree.
     */
    async quietSince(mark) {
        if (!mark.walked || this.blind || this.stopped)
            return false;
        await this.settled();
        if (this.stopped || this.blind || this.events !== mark.events)
            return false;
        // Every directory the watcher does not enter must still be ignored by git as a whole: one the agent
        // un-ignored (a .gitignore edit) holds changes git records and no watch saw. One that is gone hides none.
        // .git and proctor's own state are never recorded, whatever git says of them.
        const skipped = [...new Set([...this.ignoredDirs, ...this.skippedLate, ...this.unverified])].filter((dir) => !dir.split('/').some((part, i) => part === '.git' || (i === 0 && part === STATE_DIR_NAME)) &&
            fs__default.lstatSync(path.join(this.options.root, dir), { throwIfNoEntry: false }) !== undefined);
        if (skipped.length === 0)
            return true;
        return this.ignoredAsWholes(skipped);
    }
    /**
     * Take the final checkpoint (always, even if one is running) and stop watching. The final one is queued
     * before waiting for a triggered one, so a checkpoint still waiting out min_interval gives way to it
     * instead of holding the end of the session. No trigger fires from now on, but the watcher stays open
     * until the final checkpoint is done: it tells that checkpoint whether anything changed (quietSince).
     */
    async final() {
        this.changed.clear();
        this.ending = true;
        // A walk still under way cannot vouch for the tree: it is abandoned now, as stop() did here before, so a
        // short session's final checkpoint does not share the machine with the rest of the walk.
        if (!this.walked)
            this.watcher?.close();
        const final = this.options.take('final');
        await final.catch(() => undefined);
        await this.stop();
        return final;
    }
    /** Stop timers and the watcher; idempotent. */
    async stop() {
        if (this.stopped)
            return;
        this.stopped = true;
        if (this.timer)
            clearInterval(this.timer);
        this.timer = null;
        // Closing mid-walk abandons the rest of it: a short session never pays for the whole tree.
        this.watcher?.close();
        this.watcher = null;
        await this.watching;
        await this.checking;
        await this.inFlight?.catch(() => undefined);
        const log = this.log;
        this.log = null;
        if (log && !log.destroyed)
            await new Promise((resolve) => log.end(resolve));
    }
    fire(trigger, detail) {
        // An interval or change trigger while one is running would only produce an empty checkpoint.
        if (this.inFlight && (trigger === 'interval' || trigger === 'changes'))
            return this.inFlight;
        if (this.ending && (trigger === 'interval' || trigger === 'changes'))
            return Promise.resolve();
        this.changed.clear();
        const run = this.options
            .take(trigger, detail)
            .catch((error) => this.options.onError?.(error, trigger))
            .finally(() => {
            if (this.inFlight === run)
                this.inFlight = null;
        });
        this.inFlight = run;
        return run;
    }
    async startWatcher() {
        this.ignoredDirs = new Set(await this.ignoredDirsListed());
        if (this.stopped)
            return;
        const watcher = new TreeWatcher({
            root: this.options.root,
            ignored: (rel) => this.isIgnored(rel),
            ignoredAmong: (dirs) => this.ignoredAmong(dirs),
            onEvent: (event, rel) => this.onFileEvent(event, rel),
            onError: (error) => {
                this.blind = true;
                this.writeLog({ event: 'watch_error', path: '', message: String(error) });
            },
        });
        this.watcher = watcher;
        await watcher.start();
        // Not when final() abandoned the walk (ending): then it never reached the whole tree.
        if (!this.stopped && !this.ending)
            this.walked = true;
        // The audit log starts here, not at the agent's start (the walk waits out its first burst of output):
        // say so in the log itself, so that a change missing before this line is not read as no change.
        if (this.walked)
            this.writeLog({ event: 'watching', path: '' });
    }
    onFileEvent(event, file) {
        this.writeLog({ event, path: file });
        // An ignored directory is one line, whatever it holds: nothing in it is watched, counted or read by git.
        if (event === 'ignoredDir') {
            this.skippedLate.add(file);
            return;
        }
        if (event === 'unlinkDir')
            this.skippedLate.delete(file);
        if (!this.options.unrecorded?.(file))
            this.events++;
        if (event !== 'unlink' && isReadByGit(file))
            this.readByGit.add(file);
        if (event === 'addDir' || event === 'unlinkDir' || this.stopped || this.options.maxChanges <= 0)
            return;
        this.unchecked.add(file);
        this.checking ??= new Promise((resolve) => setImmediate(resolve)).then(() => this.countUnchecked());
    }
    /** Count a batch of changed paths, minus those .gitignore covers (e.g. a build dir created later). */
    async countUnchecked() {
        const batch = [...this.unchecked];
        this.unchecked.clear();
        let ignored = new Set();
        try {
            if (this.options.git && !this.gitWouldBlock(batch))
                ignored = await this.options.git.checkIgnore(batch);
        }
        catch {
            // Counting is only a hint; git decides at checkpoint time.
        }
        this.checking = null;
        if (this.unchecked.size > 0)
            this.checking = this.countUnchecked();
        if (this.stopped)
            return;
        for (const file of batch)
            if (!ignored.has(file))
                this.changed.add(file);
        if (this.changed.size >= this.options.maxChanges)
            void this.fire('changes');
    }
    writeLog(entry) {
        this.log?.write(JSON.stringify({ at: new Date().toISOString(), ...entry }) + '\n');
    }
    /**
     * A FIFO where git reads (git-blockers.ts): the watcher's own git calls are only hints, so they are left
     * out rather than held until their deadline (the checkpoint fails and says why). Asked about `paths`, git
     * reads the .gitignore of every directory above each: one planted in the same instant as they appeared is
     * not in readByGit yet (its event may come after theirs).
     */
    gitWouldBlock(paths = []) {
        const read = new Set(this.readByGit);
        for (const rel of paths) {
            let at = path.posix.dirname(rel);
            while (at !== '.' && !read.has(`${at}/.gitignore`)) {
                read.add(`${at}/.gitignore`);
                at = path.posix.dirname(at);
            }
        }
        return findBlocker(this.options.root, read) !== null;
    }
    /** `rel` is a POSIX path relative to the root; one lookup per component, however many dirs are ignored. */
    isIgnored(rel) {
        if (rel === '')
            return false;
        const parts = rel.split('/');
        if (parts[0] === STATE_DIR_NAME || parts.some((part) => ALWAYS_IGNORED.has(part))) {
            this.noteSkipped(parts);
            return true;
        }
        return this.underIgnoredDir(parts);
    }
    /** Whether a path (split at `/`) is an ignored directory or under one: one Set lookup per component. */
    underIgnoredDir(parts) {
        if (this.ignoredDirs.size === 0)
            return false;
        let prefix = '';
        for (const part of parts) {
            prefix = prefix ? `${prefix}/${part}` : part;
            if (this.ignoredDirs.has(prefix))
                return true;
        }
        return false;
    }
    /**
     * Which of these new directories git ignores: one `check-ignore` for all of them. A path without a slash
     * is matched as what it is on disk (a directory), so `build/` and `.venv/` patterns match and `out/*`
     * does not make `out` itself ignored — git's own rule for whether it descends.
     */
    async ignoredAmong(dirs) {
        if (!this.options.git || this.gitWouldBlock(dirs))
            return new Set();
        return this.options.git.checkIgnore(dirs);
    }
    /**
     * Two turns of the event loop (each polls for I/O, so an inotify event the kernel queued before this call
     * has reached the watcher), then every event received is classified and counted.
     */
    async settled() {
        for (let turn = 0; turn < 2; turn++)
            await new Promise((resolve) => setImmediate(resolve));
        await this.watcher?.settled();
    }
    /**
     * A node_modules directory is never watched, ignored by git or not: one git does not ignore (committed
     * dependencies) is a place where changes go unseen, checked by quietSince.
     */
    noteSkipped(parts) {
        const at = parts.indexOf('node_modules');
        if (at < 0 || parts.includes('.git') || parts[0] === STATE_DIR_NAME)
            return;
        const dir = parts.slice(0, at + 1).join('/');
        if (this.unverified.has(dir))
            return;
        if (this.underIgnoredDir(dir.split('/')))
            return;
        this.unverified.add(dir);
    }
    /**
     * Whether git ignores each of these directories as a whole: its .gitignore rules exclude the directory
     * (so git never looks inside for untracked files) and the checkpoints record nothing in it (a tracked file
     * is compared whatever the rules say). Neither reads the 100k-entry index (a `check-ignore` of the rules
     * and an `ls-tree` of the latest checkpoint's tree, side by side): ~5 ms where an `ls-files` of the
     * directories against the private index took ~25. False when either cannot tell.
     */
    async ignoredAsWholes(dirs) {
        const git = this.options.git;
        if (!git || !this.options.recordedAmong || this.gitWouldBlock(dirs))
            return false;
        const [ignored, recorded] = await Promise.all([
            git.checkIgnore(dirs).catch(() => null),
            this.options.recordedAmong(dirs).catch(() => null),
        ]);
        if (!ignored || !recorded)
            return false;
        return dirs.every((d) => ignored.has(d) && !recorded.has(d));
    }
    /**
     * Directories .gitignore excludes right now as a whole (e.g. dist/, build/; without their `/`), so the
     * watcher never descends; none on failure.
     */
    async ignoredDirsListed() {
        if (!this.options.git || this.gitWouldBlock())
            return [];
        try {
            const indexFile = this.options.indexFile?.();
            const result = await this.options.git.raw(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], indexFile ? { indexFile } : {});
            return splitNul(result.stdout)
                .filter((p) => p.endsWith('/'))
                .map((p) => p.slice(0, -1));
        }
        catch {
            return [];
        }
    }
}
/**
 * The audit log, opened so that a FIFO or symlink the agent put at its path cannot block or redirect it
 * (openAppendRegular); a log that cannot be opened or written (a full disk) is given up, never a crash.
 */
function openEventLog(file) {
    let fd;
    try {
        fs__default.mkdirSync(path.dirname(file), { recursive: true });
        fd = openAppendRegular(file);
    }
    catch {
        return null;
    }
    const log = fs__default.createWriteStream('', { fd });
    log.on('error', () => log.destroy());
    return log;
}

// The repository's own machinery: what git itself runs or trusts. An agent that plants
// `.git/hooks/post-checkout`, sets `core.fsmonitor` or adds a `filter.*.clean` gets a program run by the
// user's next git command (or by proctor's own plumbing), outside every checkpoint and every diff. This
// records that machinery when the session starts and tells what changed since, and can put it back.
//
// Recorded: the repository's config files (`config`, and `config.worktree` of a linked worktree),
// everything under `hooks/`, `info/attributes` and `info/exclude` (bytes and mode), and the effective
// values of the keys that make git run a program or fetch credentials, from every scope (a change in
// the global config is reported; it cannot be undone from here).
/**
 * Keys whose value makes git run a program, read other config, hand out credentials or send a fetch or
 * push somewhere else (url.*.insteadOf), watched in every scope.
 */
const SENSITIVE_KEYS_SOURCE = '^(core\\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy|attributesfile|excludesfile|alternaterefscommand)|include\\..*|includeif\\..*|filter\\..*|diff\\.external|diff\\..*\\.(textconv|command)|merge\\..*\\.driver|credential\\..*|url\\..*\\.(insteadof|pushinsteadof)|pager\\..*|protocol\\.(.*\\.)?allow|remote\\..*\\.(uploadpack|receivepack|vcs)|gpg\\.(.*\\.)?program|sequence\\.editor|uploadpack\\.packobjectshook)$';
const SENSITIVE_KEYS = new RegExp(SENSITIVE_KEYS_SOURCE);
/**
 * Keys of the repository's config files that git writes in ordinary work and that run nothing: the
 * upstream of a branch (`git push -u`, `git branch --set-upstream-to`, `git checkout --track`). A change
 * to only these is accepted (it becomes the recorded state); any other key changed with them is tamper.
 */
const BENIGN_KEY = /^branch\..+\.(remote|merge)$/;
/** The hooks directory is small (git's samples are ~25 KiB); a runaway one is not copied in full. */
const MAX_RECORDED_BYTES = 8 * 1024 * 1024;
class GitMachinery {
    git;
    root;
    files;
    dirs;
    singles;
    configs;
    effective;
    sources;
    constructor(git, root, 
    /** Absolute path → recorded state (absent paths are not in the map). */
    files, 
    /** Directories walked for files (hooks/): a file there that was not recorded is new. */
    dirs, 
    /** Single files watched (config, info/*): absent at the start is recorded as absent. */
    singles, configs, effective, 
    /** The files the effective values came from, with their stat (see configSources). */
    sources) {
        this.git = git;
        this.root = root;
        this.files = files;
        this.dirs = dirs;
        this.singles = singles;
        this.configs = configs;
        this.effective = effective;
        this.sources = sources;
    }
    /** Records the machinery of the repository `git` runs in. */
    static async record(git) {
        // The effective values need no paths: read side by side with the rest (this runs before the agent
        // starts, so its git processes are waited for by the agent's spawn).
        // The listing the runner's isolation read (the same command, made at its first call): no process more.
        const pendingListing = git
            .startupConfig()
            .then((listed) => (listed === null ? listConfig(git) : listConfig(git, listed)));
        pendingListing.catch(() => undefined);
        // The dirs from `.git` itself when `git` runs at a worktree's top level (a session's runner does).
        const onDisk = readGitDirs(git.cwd);
        const out = onDisk
            ? [git.cwd, onDisk.commonDir, onDisk.gitDir]
            : (await git.raw(['rev-parse', '--show-toplevel', '--git-common-dir', '--git-dir'])).stdout.split('\n');
        const root = out[0];
        const common = path.resolve(git.cwd, out[1]);
        const own = path.resolve(git.cwd, out[2]);
        const configFiles = [path.join(common, 'config')];
        if (own !== common)
            configFiles.push(path.join(own, 'config.worktree'));
        const singles = [...configFiles, path.join(common, 'info/attributes'), path.join(common, 'info/exclude')];
        const dirs = [path.join(common, 'hooks')];
        const files = new Map();
        let budget = MAX_RECORDED_BYTES;
        for (const file of [...singles, ...dirs.flatMap((d) => walk(d))]) {
            const state = readState(file);
            if (!state)
                continue;
            budget -= state.data.length;
            if (budget < 0)
                break;
            files.set(file, state);
        }
        // The repository's config file is read from the same listing as the effective values (one process);
        // a config.worktree, which that listing may not include, on its own.
        const listing = await pendingListing;
        const configs = new Map();
        for (const file of configFiles) {
            const listed = file === configFiles[0] ? listing.files.get(realpath(file)) : undefined;
            configs.set(file, listed && (listed.size > 0 || !nonEmpty(file)) ? listed : await configEntries(git, file));
        }
        return new GitMachinery(git, root, files, dirs, singles, configs, listing.effective, listing.sources);
    }
    /**
     * The value git uses for `key` (lower-case, e.g. `core.attributesfile`) from every scope but the command
     * line, as recorded at the start: the last one, as `git config --get` answers; null when unset. Only
     * for the keys this recording watches (SENSITIVE_KEYS).
     */
    recordedValue(key) {
        const values = this.effective.get(key);
        return values && values.length > 0 ? values[values.length - 1] : null;
    }
    /**
     * What differs from the recording, in a stable order. Between checkpoints (`full` false) the effective
     * values are read again only when a file they came from, a global or system config file, or an include
     * target changed (stat); `full` (the session's end) always reads them.
     */
    async changes(options = {}) {
        const changes = [];
        const current = new Set([...this.singles, ...this.dirs.flatMap((d) => walk(d))]);
        for (const file of [...new Set([...this.files.keys(), ...current])].sort()) {
            const before = this.files.get(file) ?? null;
            const now = current.has(file) ? readState(file) : null;
            if (sameState(before, now))
                continue;
            if (now && (await this.acceptBenign(file, now)))
                continue;
            changes.push(await this.describe(file, before, now));
        }
        // Effective values changed with no change to a recorded file: another scope (global, an include).
        const configChanged = changes.some((c) => this.configs.has(this.absolute(c.file)));
        if (!configChanged && (options.full || configSources(this.sourceFiles()) !== this.sources)) {
            const listing = await listConfig(this.git);
            const effective = listing.effective;
            for (const line of diffEntries(this.effective, effective)) {
                const key = line.key;
                changes.push({
                    file: `git config ${key}`,
                    what: `git config ${key} ${line.text} outside the repository's .git/config (global or system config)`,
                    suggestion: `Remove ${key} from the config file that sets it (git config --show-origin --get-all ${key}).`,
                    undoable: false,
                });
            }
        }
        return changes;
    }
    /** The files named in the recorded sources signature. */
    sourceFiles() {
        return this.sources === ALWAYS
            ? []
            : this.sources.split('\n').map((line) => line.slice(0, line.lastIndexOf('\t')));
    }
    /** Puts every recorded file back (and removes files that were added); returns what was restored. */
    undo(changes) {
        const done = [];
        for (const change of changes) {
            if (!change.undoable)
                continue;
            const file = this.absolute(change.file);
            const before = this.files.get(file) ?? null;
            fs__default.rmSync(file, { recursive: true, force: true });
            if (before) {
                fs__default.mkdirSync(path.dirname(file), { recursive: true });
                if (before.symlink)
                    fs__default.symlinkSync(before.data.toString('utf8'), file);
                else {
                    // Written next to it and renamed: a git command reading the config never sees half a file.
                    const temp = `${file}.proctor-restore`;
                    fs__default.writeFileSync(temp, before.data, { mode: before.mode & 0o7777 });
                    fs__default.chmodSync(temp, before.mode & 0o7777);
                    fs__default.renameSync(temp, file);
                }
            }
            done.push(change.file);
        }
        return done;
    }
    /** A config file whose only changes are BENIGN_KEY entries: record it as it is now and report nothing. */
    async acceptBenign(file, now) {
        const recorded = this.configs.get(file);
        if (!recorded || now.symlink)
            return false;
        const entries = await configEntries(this.git, file);
        if (!diffEntries(recorded, entries).every((d) => BENIGN_KEY.test(d.key)))
            return false;
        this.files.set(file, now);
        this.configs.set(file, entries);
        return true;
    }
    async describe(file, before, now) {
        const name = this.display(file);
        const base = { file: name, undoable: true };
        const recorded = this.configs.get(file);
        if (recorded) {
            const entries = now ? await configEntries(this.git, file) : new Map();
            const lines = diffEntries(recorded, entries).map((d) => `${d.key} ${d.text}`);
            const what = lines.length
                ? `${name} was changed: ${lines.slice(0, 8).join('; ')}${lines.length > 8 ? `; and ${lines.length - 8} more` : ''}`
                : `${name} was ${now ? (before ? 'rewritten' : 'created') : 'deleted'}`;
            return {
                ...base,
                what,
                suggestion: `Leave the repository's git config alone; proctor restores ${name} as it was when the session started.`,
            };
        }
        const inHooks = this.dirs.some((d) => file.startsWith(`${d}${path.sep}`));
        const state = now ? (before ? 'modified' : 'added') : 'deleted';
        const what = inHooks
            ? `${name} was ${state} in the repository's hooks directory${now ? ': git runs it on the user’s next matching git command' : ''}`
            : `${name} was ${state}`;
        return {
            ...base,
            what,
            suggestion: inHooks
                ? `Do not install git hooks; ${now && !before ? `delete ${name}` : `restore ${name}`}.`
                : `Leave ${name} as it was; proctor restores it.`,
        };
    }
    /** `.git/hooks/x` for files in the repository's own git dir; the absolute path otherwise. */
    display(file) {
        const rel = path.relative(this.root, file);
        return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
    }
    absolute(name) {
        return path.isAbsolute(name) ? name : path.join(this.root, name);
    }
}
/** More than any config file or hook holds; a larger one reads as changed. */
const MACHINERY_MAX_BYTES = 16 * 1024 * 1024;
function readState(file) {
    let stat;
    try {
        stat = fs__default.lstatSync(file);
    }
    catch {
        return null;
    }
    if (stat.isSymbolicLink())
        return { data: Buffer.from(fs__default.readlinkSync(file), 'utf8'), mode: 0, symlink: true };
    if (!stat.isFile())
        return null;
    try {
        // Non-blocking: swapped for a FIFO since the lstat, it reads as changed instead of holding proctor.
        return { data: readRegularFile(file, MACHINERY_MAX_BYTES), mode: stat.mode, symlink: false };
    }
    catch {
        return { data: Buffer.alloc(0), mode: stat.mode, symlink: false };
    }
}
function sameState(a, b) {
    if (a === null || b === null)
        return a === b;
    return a.symlink === b.symlink && (a.mode & 0o777) === (b.mode & 0o777) && a.data.equals(b.data);
}
/** Files and links below `dir` (not directories), depth-limited. */
function walk(dir, depth = 0) {
    let entries;
    try {
        entries = fs__default.readdirSync(dir, { withFileTypes: true });
    }
    catch {
        return [];
    }
    const out = [];
    for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (depth < 4)
                out.push(...walk(full, depth + 1));
        }
        else
            out.push(full);
    }
    return out;
}
/** Every entry of one config file, key → values in order (empty when it does not exist). */
async function configEntries(git, file) {
    if (!fs__default.existsSync(file))
        return new Map();
    const result = await git.raw(['config', '--file', file, '--no-includes', '-z', '--list'], {
        okExitCodes: [1, 3],
    });
    return parseEntries(result.stdout.split('\0'));
}
/**
 * Every config entry git sees, in one process: the effective values of the sensitive keys from every
 * scope but the command line (proctor's own `-c core.hooksPath=/dev/null`, `-c core.fsmonitor=false` would
 * hide the user's), the entries of each file by its real path, and the signature of the files they came
 * from (configSources).
 */
async function listConfig(git, listed) {
    const stdout = listed ??
        (await git.raw(['config', '--show-scope', '--show-origin', '-z', '--list'], { okExitCodes: [1] })).stdout;
    const fields = stdout.split('\0');
    const kept = [];
    const byFile = new Map();
    const origins = new Set();
    let conditional = false;
    for (let i = 0; i + 2 < fields.length; i += 3) {
        const [scope, origin, record] = [fields[i], fields[i + 1], fields[i + 2]];
        if (scope === 'command')
            continue;
        const newline = record.indexOf('\n');
        const key = newline < 0 ? record : record.slice(0, newline);
        if (SENSITIVE_KEYS.test(key))
            kept.push(record);
        if (!origin.startsWith('file:')) {
            conditional = true; // a blob or stdin origin: nothing to stat
            continue;
        }
        const file = realpath(path.resolve(git.cwd, origin.slice('file:'.length)));
        origins.add(file);
        byFile.set(file, [...(byFile.get(file) ?? []), record]);
        if (/^include(if\..*)?\.path$/i.test(key) && newline >= 0) {
            if (/^includeif\.onbranch:/i.test(key))
                conditional = true; // follows HEAD, not a file
            const target = record.slice(newline + 1).replace(/^~(?=\/)/, os.homedir());
            origins.add(path.resolve(path.dirname(file), target));
        }
    }
    const files = new Map([...byFile].map(([file, records]) => [file, parseEntries(records)]));
    const sources = conditional
        ? ALWAYS
        : configSources([...origins, ...globalConfigFiles((key) => git.envValue(key))]);
    return { effective: parseEntries(kept), files, sources };
}
/** A sources signature that never matches: the effective values are read at every check. */
const ALWAYS = '\0always';
/** Path, size, times and inode of each file (or absent), one per line: equal only if none changed. */
function configSources(files) {
    return [...new Set(files)]
        .sort()
        .map((file) => {
        try {
            const st = fs__default.statSync(file);
            return `${file}\t${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
        }
        catch {
            return `${file}\tabsent`;
        }
    })
        .join('\n');
}
function realpath(file) {
    try {
        return fs__default.realpathSync(file);
    }
    catch {
        return file;
    }
}
function nonEmpty(file) {
    try {
        return fs__default.statSync(file).size > 0;
    }
    catch {
        return false;
    }
}
/** `key\nvalue` records (git config -z) → key → values. */
function parseEntries(records) {
    const map = new Map();
    for (const record of records) {
        if (record === '')
            continue;
        const newline = record.indexOf('\n');
        const key = newline < 0 ? record : record.slice(0, newline);
        const value = newline < 0 ? '(no value)' : record.slice(newline + 1);
        map.set(key, [...(map.get(key) ?? []), value]);
    }
    return map;
}
function diffEntries(before, after) {
    const out = [];
    for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        const a = before.get(key) ?? [];
        const b = after.get(key) ?? [];
        if (a.length === b.length && a.every((v, i) => v === b[i]))
            continue;
        const show = (values) => values.map((v) => JSON.stringify(v.slice(0, 200))).join(', ');
        const text = a.length === 0
            ? `set to ${show(b)}`
            : b.length === 0
                ? `removed (was ${show(a)})`
                : `changed from ${show(a)} to ${show(b)}`;
        out.push({ key, text });
    }
    return out;
}

// Waiting with a limit: cancellation windows and reporting budgets must not be outlived by a slow promise.
/** The promise's value, or `fallback()` once `ms` have passed. The promise itself is not cancelled. */
async function withDeadline(promise, ms, fallback) {
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(() => resolve(fallback()), Math.max(0, ms))));
    try {
        return await Promise.race([promise, late]);
    }
    finally {
        clearTimeout(timer);
    }
}

// The session's side of checkpoints: a CheckpointStore with policy on every diff, the triggers that
// decide when, and the push queue. Without a git repository (or with checkpoints.enabled: false) every
// method is a no-op, so the session reads the same either way.
/**
 * Starts the reads start() would make for `sessionId` in `cwd`; null outside a repository. Read-only: if
 * the session does not use them (checkpoints off, a session_start hook that may change the repository
 * runs first, orphans were reaped), nothing is left behind.
 */
function startCheckpointReads(cwd, sessionId, options = {}) {
    const workspace = Workspace.find(cwd);
    if (!workspace)
        return null;
    const objects = resolveOpening(workspace.git, sessionId);
    const machinery = GitMachinery.record(workspace.git);
    // Awaited by start(), if at all: never an unhandled rejection meanwhile.
    objects.catch(() => undefined);
    machinery.catch(() => undefined);
    return { cwd, sessionId, workspace, objects, machinery, pristine: options.pristine === true };
}
/** The key a violation is reported under: each (constraint, file) once per session. */
const keyOf = (v) => `${v.constraint}\0${v.file}`;
class SessionCheckpoints {
    o;
    /** Set by start() in a repository with checkpoints on: every method below does its work. */
    active = false;
    /** Created when it opens (launch), after the agent's spawn. */
    store = null;
    /**
     * The policy's code (its glob matcher among it), loaded for the store (launch) or the first machinery
     * check, whichever is first: not before the agent's spawn. Every violation comes from it, so while it is
     * not loaded there is none to judge.
     */
    policy = null;
    policyLoaded = null;
    triggers = null;
    push = null;
    root = null;
    git = null;
    running = false;
    opening = Promise.resolve();
    /** Starts the watcher and opens the store; set by start(), run once (see start()). */
    launch = null;
    /** Every violation reported so far, by key; `resolved` is kept up to date at each checkpoint. */
    reported = new Map();
    records = [];
    /** What the session's work holds now: the cumulative diff's violations at the latest checkpoint. */
    current = [];
    /** Warnings already sent back to the agent (by key). */
    delivered = new Set();
    machinery = null;
    machineryQueue = Promise.resolve();
    /** git_tamper violations still standing (policy.git_tamper: report), by what changed. */
    tamper = new Map();
    consecutiveFailures = 0;
    totalFailures = 0;
    lastFailure = null;
    fatalReason = null;
    /** What the watcher had seen when the checkpoint being taken listed the worktree. */
    listingMark = null;
    /**
     * The same at the latest checkpoint that succeeded: if the watcher saw nothing since, the worktree holds
     * nothing that checkpoint did not record, and the final one has nothing to list (see take).
     */
    recordedMark = null;
    constructor(o) {
        this.o = o;
    }
    async start() {
        const { config, report } = this.o;
        if (!config.checkpoints.enabled)
            return;
        const begun = this.o.reads;
        const reads = begun && begun.cwd === this.o.cwd && begun.sessionId === this.o.sessionId ? begun : null;
        const workspace = reads ? reads.workspace : Workspace.find(this.o.cwd);
        if (!workspace) {
            report.event('warning', 'not inside a git repository: checkpoints are off for this session');
            return;
        }
        this.root = workspace.root;
        const git = workspace.git;
        this.git = git;
        // Reading the baseline is bounded like the agent's attempt (agentRunning moves the end at the spawn): a
        // FIFO the user left where git reads must not hold the start for the per-call limit (git/deadline.ts).
        git.deadline.endBy(Date.now() + config.timeouts.total + config.timeouts.grace);
        // Before the agent starts, side by side: the commit its work is judged against (the store opens only
        // after the spawn, when the agent may already have moved HEAD), and what the repository's own
        // machinery looks like untouched.
        // The same cat-file also resolves what the store needs to open (HEAD's tree, a resumed chain), so
        // opening it after the spawn starts no git process for that.
        const [objects, machinery] = await Promise.all([
            reads ? reads.objects : resolveOpening(git, this.o.sessionId),
            config.policy.git_tamper === 'off' ? null : reads ? reads.machinery : GitMachinery.record(git),
        ]);
        const head = objects.startCommit;
        this.machinery = machinery;
        this.active = true;
        // The store is created before the agent's spawn, to record the baseline (below). The policy's code it
        // weighs paths and judges checkpoints by (the withheld forbidden areas, the glob matcher) loads only when
        // there is a changed path to weigh: a clean worktree spawns the agent without it.
        const openStore = async () => {
            return workspace.store(this.o.sessionId, config, {
                ...(head ? { baseCommit: head } : {}),
                resolved: objects,
                // The recording read core.attributesFile from every scope already: no `git config` at open.
                ...(machinery ? { attributesFile: machinery.recordedValue('core.attributesfile') } : {}),
                hiddenPaths: this.o.hiddenPaths,
                // The session judges each checkpoint itself: it tracks what is resolved and what the agent heard.
                validate: (ctx) => this.validate(ctx),
                notice: (level, message) => {
                    report.event(level === 'warning' ? 'warning' : 'checkpoint', message);
                    this.o.onNotice?.(message);
                },
                onProgress: (progress) => this.o.onProgress?.(progress),
                onListing: async () => {
                    this.listingMark = (await this.triggers?.mark()) ?? null;
                },
                // Freezing the agent only makes sense while it runs; between rounds there is nothing to pause.
                pauser: config.checkpoints.pause_agent
                    ? { pause: () => this.running && this.o.pauser.pause(), resume: () => this.o.pauser.resume() }
                    : undefined,
            });
        };
        const triggers = new CheckpointTriggers({
            root: this.root,
            git,
            intervalMs: config.checkpoints.interval,
            maxChanges: config.checkpoints.max_changes,
            take: (trigger, detail) => this.take(trigger, detail),
            eventLogPath: join(this.o.sessionDir, 'file-events.jsonl'),
            onError: (error, trigger) => report.event('error', `checkpoint (${trigger}) failed: ${error.message}`),
            unrecorded: (rel) => this.o.hiddenPaths?.has(join(workspace.root, rel)) === true,
            indexFile: () => this.store?.privateIndexPath || undefined,
            recordedAmong: (dirs) => this.store?.recordedAmong(dirs) ?? Promise.resolve(null),
        });
        // The watcher's scan and the push queue do not delay the agent: the scan grows with the repository, and
        // each git process forks proctor (a synchronous ~1 ms per 50 MB of RSS, far more on a busy machine), so
        // they start once the agent has been spawned (agentRunning) and its first burst of output is over, or at
        // the first checkpoint or the end if that comes first. Only reading the baseline precedes the spawn (it
        // must: the agent could change the tree). A checkpoint (and the end of the session) waits for the store;
        // a store that cannot open fails its checkpoints, which the session counts like any other failure.
        this.triggers = triggers;
        // The baseline, before the agent runs: the worktree as the user left it, which every checkpoint, the
        // policy and a revert compare with (issue 27). It is the store's first snapshot, taken now instead of at
        // the first checkpoint; a clean worktree costs one listing. A store that cannot open or record it fails
        // the session's checkpoints (judging the agent against HEAD would blame it for the user's work).
        let worktreeRead = () => undefined;
        const read = new Promise((resolve) => (worktreeRead = resolve));
        // A batch child's worktree was checked out at the base by proctor a moment ago: its baseline is the base,
        // and the store opens after the spawn, as before (the batch reads ahead so that no git process runs
        // between a task's start and its agent's).
        const pristine = reads?.pristine === true;
        const record = async () => {
            const store = await openStore();
            this.store = store;
            const blocker = findBlocker(workspace.root);
            if (blocker) {
                const message = `could not record the session's baseline: ${describeBlocker(blocker)}`;
                report.event('error', message);
                throw new Error(message);
            }
            if (pristine) {
                await store.open();
                report.baseline({ commit: store.baseline, pre_existing_count: 0, pre_existing: [] });
                return store;
            }
            const baseline = await store.recordBaseline(worktreeRead).catch((failure) => {
                const error = this.explain(failure);
                const message = `could not record the session's baseline (the worktree as you left it), so no checkpoint can ` +
                    `judge the agent's work: ${error.message}`;
                report.event('error', message);
                throw new Error(message, { cause: error });
            });
            report.baseline({
                commit: baseline.commit,
                pre_existing_count: baseline.preExisting.length,
                pre_existing: baseline.preExisting.slice(0, MAX_PRE_EXISTING_LISTED),
            });
            if (baseline.preExisting.length) {
                report.event('checkpoint', describePreExisting(baseline.preExisting.length), {
                    name: '0',
                    data: { sha: baseline.commit, count: baseline.preExisting.length },
                });
            }
            return store;
        };
        let recording = null;
        if (!pristine) {
            recording = record();
            this.opening = recording.then(() => undefined);
            this.opening.catch(() => undefined);
            // The agent waits only until the worktree has been read; the baseline's commit and refs follow
            // meanwhile (every checkpoint waits for them).
            await Promise.race([read, this.opening.catch(() => undefined)]);
        }
        this.launch = () => {
            this.launch = null;
            triggers.start();
            this.opening = (recording ?? record()).then(async (store) => {
                // The agent runs: what judging its first checkpoint needs (the policy's code, the content scan)
                // loads now, so that checkpoint (often the one at its exit) does not wait for it.
                void store.warm();
                this.loadPolicy()
                    .then((policy) => policy.prepareJudge(config.policy))
                    .catch(() => undefined);
                this.push = await workspace.pushQueue(this.o.sessionId, config, {
                    base: store.base,
                    baseline: store.baseline,
                    // Only checkpoints this session wrote are pushed (schedule(sha)), never what the ref holds.
                    written: store.latest,
                    mode: this.pushMode(),
                    ...(this.o.pushSecretConfig ? { secretConfig: this.o.pushSecretConfig } : {}),
                });
            });
            this.opening.catch(() => undefined);
        };
    }
    /** `auto` pushes in CI only: a laptop session keeps its checkpoints local unless told `always`. */
    pushMode() {
        const mode = this.o.config.checkpoints.push;
        const inCi = this.o.env.CI === 'true' || this.o.env.GITHUB_ACTIONS === 'true';
        return mode === 'auto' && !inCi ? 'never' : mode;
    }
    /**
     * The agent started (or ended). The store and the watcher launch now, or once `launchWhen` resolves
     * (the session passes the end of the agent's first burst of output: their git processes would stall the
     * reading of it); a checkpoint or the end launches them earlier if it comes first.
     */
    agentRunning(running, launchWhen) {
        this.running = running;
        // proctor's git calls end when the attempt is due to be over (its total timeout, then grace), so no git
        // the agent can block (a FIFO where git reads) outlasts that (git/deadline.ts).
        const { total, grace } = this.o.config.timeouts;
        if (running)
            this.git?.deadline.endBy(Date.now() + total + grace);
        if (launchWhen)
            void launchWhen.then(() => this.launch?.());
        else
            this.launch?.();
    }
    /**
     * SIGTERM or SIGINT: the runner's cancel window is short, so every git call of the session ends within
     * `ms` (a call started later still gets the deadline's floor: the final checkpoint).
     */
    interrupted(ms) {
        this.git?.deadline.shorten(Date.now() + ms);
    }
    /** A detector event listed in checkpoints.on_events. */
    onEvent(kind) {
        this.triggers?.event(kind).catch(() => undefined);
    }
    /**
     * Takes a checkpoint now and waits for it (before stop hooks, so they see the latest work). Urgent: it
     * never sleeps out min_interval, and a triggered checkpoint still waiting gives way to it.
     */
    async settle(trigger) {
        if (!this.active)
            return;
        try {
            await this.take(trigger, undefined, true);
        }
        catch (error) {
            this.o.report.event('error', `checkpoint (${trigger}) failed: ${error.message}`);
        }
    }
    /**
     * Pushes checkpoint `sha` now and waits (the `ci-checks` stop hook): the remote commit and branch, or
     * why not. Outside CI, `checkpoints.push: auto` does not push, so this says so.
     */
    async pushCheckpoint(sha) {
        await this.opening.catch(() => undefined);
        if (!this.push)
            return {
                ok: false,
                reason: 'checkpoints are not pushed in this session (no git repository, or checkpoints are off)',
            };
        if (this.pushMode() === 'never')
            return {
                ok: false,
                reason: this.o.config.checkpoints.push === 'never'
                    ? 'pushing is off (checkpoints.push: never)'
                    : 'checkpoints.push is auto, which pushes only in CI',
            };
        const pushed = await this.push.pushOf(sha);
        return pushed.ok ? { ...pushed, branch: this.push.branch } : pushed;
    }
    latest() {
        return this.records[this.records.length - 1] ?? null;
    }
    /**
     * The error/critical violations the session's work holds now (the policy gate): from the cumulative
     * diff of the latest checkpoint, plus git machinery changes that were not undone.
     */
    blocking() {
        const policy = this.policyLoaded;
        // Every violation comes from the policy's code, so without it there is none; were one there anyway, the
        // gate blocks on it rather than let it through unjudged.
        if (!policy)
            return [...this.current, ...this.tamper.values()];
        return [...this.current, ...this.tamper.values()].filter((v) => policy.atLeast(v.severity, 'error'));
    }
    /** Warnings the work holds now that the agent has not been told yet; marked told. */
    takeWarnings() {
        const policy = this.policyLoaded;
        if (!policy)
            return [];
        const fresh = this.current.filter((v) => policy.notifiesAgent(v) && !policy.atLeast(v.severity, 'error') && !this.delivered.has(keyOf(v)));
        for (const v of fresh)
            this.delivered.add(keyOf(v));
        return fresh;
    }
    /** Why the session must end errored: too many failed checkpoints in a row, or none ever succeeded. */
    failure() {
        if (this.fatalReason)
            return this.fatalReason;
        if (this.active && this.totalFailures > 0 && this.records.length === 0) {
            return `no checkpoint succeeded (${this.totalFailures} failed; last error: ${this.lastFailure ?? 'unknown'})`;
        }
        return null;
    }
    /**
     * Final checkpoint, final push (or bundle), and the private index is removed. `pushDeadlineMs` bounds the
     * push while proctor itself is being cancelled: report.json must be written before the runner's SIGKILL,
     * and the action's post step (or `proctor checkpoints push`) pushes what is left.
     */
    async finish(pushDeadlineMs) {
        if (!this.active || !this.triggers)
            return;
        this.launch?.();
        try {
            await this.opening;
        }
        catch (error) {
            await this.triggers.stop();
            // No final checkpoint without a store, but the machinery is still checked (and undone) at the end.
            await this.checkMachinery(true);
            const explained = this.explain(error);
            this.noteFailure(explained);
            throw explained;
        }
        if (!this.push)
            return;
        try {
            await this.triggers.final();
        }
        finally {
            const flush = this.push.flush();
            let pushed = pushDeadlineMs === undefined
                ? await flush
                : await withDeadline(flush, pushDeadlineMs, () => ({
                    ...this.push.state,
                    ok: false,
                    reason: `the push did not finish within ${pushDeadlineMs} ms of the cancellation; run \`proctor checkpoints push\``,
                }));
            if (this.o.config.checkpoints.push === 'auto' && this.pushMode() === 'never') {
                pushed = {
                    ...pushed,
                    reason: 'checkpoints.push is auto, which pushes only in CI; set it to always to push from here',
                };
            }
            const moved = this.push.refMoved;
            if (moved)
                await this.reportRefMoved(moved);
            if (this.records.length > 0 || pushed.ok || moved) {
                this.o.report.push(pushed);
                this.o.report.event('push', pushed.ok ? `pushed to ${pushed.remote} ${pushed.branch}` : `not pushed: ${pushed.reason}`, {
                    data: { ...pushed },
                });
            }
            await this.store?.close();
        }
    }
    async take(trigger, detail, urgent = false) {
        if (!this.active)
            return null;
        // The machinery first: a planted filter or fsmonitor must be gone before git reads the worktree. The
        // final check reads every scope's config again; earlier ones only when a config file changed.
        // The final one may need no listing (unchangedSinceRecorded, below): finding that out reads no file git
        // would hand to a program (the ignore rules and the object store, with proctor's own config), so it runs
        // beside the machinery check, and a tamper that check finds still makes the final one list.
        const quiet = trigger === 'final' ? this.unchangedSinceRecorded().catch(() => false) : null;
        await this.checkMachinery(trigger === 'final');
        this.launch?.();
        let result;
        try {
            await this.opening;
            // Prevention where it is cheap: a FIFO in a usual place, or one the watcher saw created, fails the
            // checkpoint before git blocks on it.
            const blocker = this.root ? findBlocker(this.root, this.triggers?.readByGit ?? []) : null;
            if (blocker)
                throw new Error(`checkpoint not taken: ${describeBlocker(blocker)}`);
            // The session's end right after a checkpoint (the agent's exit): the watcher saw nothing change since
            // that checkpoint listed the worktree, so it holds everything there is and the final one is empty
            // without listing the tree again. A git_tamper change still standing (an exclude rule) may make git
            // see the same tree differently: then it lists.
            if (quiet && (await quiet) && this.tamper.size === 0) {
                this.store?.nothingMoreToRecord();
                return null;
            }
            this.listingMark = null;
            // (opened: the store is there)
            result = await this.store.createDetailed(trigger, { urgent });
            this.recordedMark = this.listingMark ?? this.recordedMark;
        }
        catch (error) {
            this.recordedMark = null;
            const explained = this.explain(error);
            this.noteFailure(explained);
            throw explained;
        }
        this.consecutiveFailures = 0;
        if (!result)
            return null;
        const record = result.record;
        this.records.push(record);
        this.o.report.checkpoint(record);
        this.o.report.event('checkpoint', `checkpoint ${record.seq} (${trigger}${detail ? `: ${detail}` : ''}): ${record.files_changed.length} file(s)`, {
            name: String(record.seq),
            data: { sha: record.sha, ref: record.ref, skipped: record.skipped },
        });
        if (record.skipped.length) {
            this.o.report.event('checkpoint_skipped', `left out of checkpoint ${record.seq}: ${record.skipped
                .map((p) => record.skipped_reasons?.[p] ? `${p} (${skipReasonWord(record.skipped_reasons[p])})` : p)
                .join(', ')}`);
        }
        this.o.lifecycle
            .fire('checkpoint', {
            seq: record.seq,
            sha: record.sha,
            ref: record.ref,
            trigger,
            files_changed: record.files_changed,
        })
            .catch(() => undefined);
        for (const violation of result.violations) {
            this.o.lifecycle.fire('violation', { ...violation }).catch(() => undefined);
        }
        const reverted = await this.revert(result.violations, this.store.revertSource);
        if (reverted.length) {
            this.current = this.current.filter((v) => !reverted.includes(v.file));
            this.markResolved();
        }
        this.push?.schedule(record.sha);
        this.o.onChange();
        return record;
    }
    async unchangedSinceRecorded() {
        const mark = this.recordedMark;
        if (!mark || !this.triggers || this.tamper.size > 0)
            return false;
        return this.triggers.quietSince(mark);
    }
    /**
     * revert_on_violation: the files behind critical violations go back to their state at the baseline (as
     * the user left them, withheld files included: `source` is the store's revertSource), never to HEAD. The
     * checkpoint keeps what the agent did — the audit trail — and the next checkpoint records the revert.
     */
    async revert(violations, source) {
        let target = source;
        const { filesToRevert } = await this.loadPolicy();
        const paths = filesToRevert(violations, this.o.config.policy);
        if (paths.length === 0 || !this.git)
            return [];
        try {
            // An unborn HEAD and a clean worktree: the baseline is empty, so the agent's files go.
            target ??= await this.git.emptyTree();
            // Loaded the first time a session reverts, not before its agent starts.
            const { revertPaths } = await import('./restore-CDzHXXAt.js');
            const done = await revertPaths(this.git, target, paths);
            for (const v of violations)
                if (paths.includes(v.file))
                    v.reverted = true;
            this.o.report.event('revert', `reverted ${paths.length} file(s) with critical violations: ${paths.join(', ')}`, {
                data: { ...done, to: target },
            });
            return paths;
        }
        catch (error) {
            this.o.report.event('error', `revert of ${paths.join(', ')} failed: ${error.message}`);
            return [];
        }
    }
    /**
     * A git call killed at its deadline most likely met a file that blocks it: the error then names the file
     * and the fix ("a FIFO (named pipe) at sub/.gitignore blocks git …; remove it"), and later checkpoints
     * check that path before they run git.
     */
    explain(error) {
        let timedOut = null;
        for (let e = error; e instanceof Error; e = e.cause) {
            if (e instanceof GitError && e.timedOut)
                timedOut = e;
        }
        if (!timedOut || !this.root)
            return error;
        const blocker = scanForBlocker(this.root, this.triggers?.readByGit ?? []);
        if (!blocker)
            return error;
        this.triggers?.readByGit.add(blocker.path);
        const message = `${describeBlocker(blocker)} (${timedOut.message.split('\n')[0]})`;
        return new Error(message, { cause: error });
    }
    noteFailure(error) {
        this.consecutiveFailures++;
        this.totalFailures++;
        this.lastFailure = error.message;
        const max = this.o.config.checkpoints.max_failures;
        if (this.consecutiveFailures > max && !this.fatalReason) {
            this.fatalReason = `checkpoints failed ${this.consecutiveFailures} times in a row (checkpoints.max_failures: ${max}); last error: ${this.lastFailure}`;
            this.o.report.event('error', this.fatalReason);
            this.o.onFatal?.(this.fatalReason);
        }
    }
    /** Compares the repository's machinery with the recording; one check at a time. Never throws. */
    checkMachinery(full = false) {
        const run = this.machineryQueue.then(() => this.compareMachinery(full));
        this.machineryQueue = run.catch(() => undefined);
        return run.catch((error) => {
            this.o.report.event('error', `could not check the repository's git config and hooks: ${error.message}`);
        });
    }
    async compareMachinery(full) {
        if (!this.machinery)
            return;
        const changes = await this.machinery.changes({ full });
        const { compilePolicy, notifiesAgent } = await this.loadPolicy();
        const severity = compilePolicy(this.o.config.policy).severityOf('git_tamper');
        const now = new Map(changes.map((c) => [`${c.file}\0${c.what}`, c]));
        for (const [key, v] of this.tamper) {
            if (!now.has(key)) {
                v.resolved = true;
                this.tamper.delete(key);
            }
        }
        for (const [key, change] of now) {
            if (this.tamper.has(key))
                continue;
            const v = {
                checkpoint: this.store?.latestSeq || null,
                file: change.file,
                constraint: 'git_tamper',
                severity,
                message: change.what,
                suggestion: change.suggestion,
            };
            this.tamper.set(key, v);
            this.o.report.violation(v);
            this.o.report.event('violation', `${v.severity}: ${v.file}: ${v.message}`, {
                name: v.constraint,
                data: { notify_agent: notifiesAgent(v) },
            });
            this.o.lifecycle.fire('violation', { ...v }).catch(() => undefined);
        }
        if (this.o.config.policy.git_tamper !== 'undo' || changes.length === 0)
            return;
        const undone = this.machinery.undo(changes);
        for (const [key, change] of now) {
            if (!undone.includes(change.file))
                continue;
            const v = this.tamper.get(key);
            v.reverted = true;
            v.resolved = true;
            this.tamper.delete(key);
        }
        if (undone.length) {
            this.o.report.event('revert', `restored the repository's git machinery: ${undone.join(', ')}`, {
                data: { files: undone },
            });
        }
    }
    /**
     * Something other than proctor moved the session's checkpoint ref (the agent, or a daemon it left behind):
     * a git_tamper violation that stands to the end (nothing puts the ref back, and nothing more was pushed).
     */
    async reportRefMoved(moved) {
        const { compilePolicy, notifiesAgent } = await this.loadPolicy();
        const v = {
            checkpoint: this.store?.latestSeq || null,
            file: moved.ref,
            constraint: 'git_tamper',
            severity: compilePolicy(this.o.config.policy).severityOf('git_tamper'),
            message: `${moved.ref} was ${moved.expected ? `moved off checkpoint ${moved.expected.slice(0, 12)}, the last one proctor wrote` : 'written although proctor wrote no checkpoint there'} (${moved.found ? `to ${moved.found.slice(0, 12)}, a commit proctor never judged` : 'deleted'}) by something other than proctor; nothing more was pushed`,
            suggestion: "nothing but proctor may write refs/proctor/*; the agent's last judged checkpoint is in this report",
        };
        this.tamper.set(`${moved.ref}\0moved`, v);
        this.o.report.violation(v);
        this.o.report.event('violation', `${v.severity}: ${v.file}: ${v.message}`, {
            name: v.constraint,
            data: { notify_agent: notifiesAgent(v) },
        });
        this.o.lifecycle.fire('violation', { ...v }).catch(() => undefined);
    }
    loadPolicy() {
        return (this.policy ??= import('./index-rlrk8lKr.js').then((policy) => (this.policyLoaded = policy)));
    }
    /** Reported violations the work no longer holds are resolved; ones it holds again are not. */
    markResolved() {
        const holds = new Set(this.current.map(keyOf));
        for (const [key, v] of this.reported)
            v.resolved = !holds.has(key);
    }
    /** Policy on this checkpoint's diff and on the cumulative diff; each (file, constraint) is reported once. */
    async validate(ctx) {
        const policy = this.o.config.policy;
        const worktree = this.root ?? this.o.cwd;
        const { evaluateCheckpointScopes, notifiesAgent, testsWeakened } = await this.loadPolicy();
        const found = evaluateCheckpointScopes({
            seq: ctx.seq,
            files: ctx.files,
            cumulative: ctx.cumulative,
            withheld: ctx.withheld,
            worktree,
            policy,
        });
        // Tests are judged on the session's whole work: a test removed in one checkpoint and put back in the next
        // weakened nothing.
        const weakened = await testsWeakened(this.git, ctx.cumulative, ctx.seq, policy);
        found.cumulative.push(...weakened);
        found.all.push(...weakened);
        // Its message is a count that moves (3 → 2, then 3 → 0): the report keeps the latest, not the first.
        for (const v of weakened) {
            const seen = this.reported.get(keyOf(v));
            if (seen)
                Object.assign(seen, { message: v.message, suggestion: v.suggestion, line: v.line });
        }
        this.current = found.cumulative;
        const fresh = found.all.filter((v) => {
            const key = keyOf(v);
            if (this.reported.has(key))
                return false;
            this.reported.set(key, v);
            return true;
        });
        this.markResolved();
        if (fresh.length) {
            this.o.report.violation(...fresh);
            for (const v of fresh) {
                this.o.report.event('violation', `${v.severity}: ${v.file || '(whole diff)'}: ${v.message}`, {
                    name: v.constraint,
                    data: { notify_agent: notifiesAgent(v) },
                });
            }
        }
        return fresh;
    }
}

const completed = (verdict, reason, cause) => ({
    status: 'completed',
    verdict,
    exitCode: verdict === 'allow' ? 0 : 1,
    signal: null,
    reason,
    ...(cause ? { cause } : {}),
});
const interrupted = (signal) => ({
    status: 'interrupted',
    verdict: 'block',
    exitCode: exitCodeForSignal(signal),
    signal,
    reason: `interrupted by ${signal}`,
});
const errored = (reason, exitCode = 1) => ({
    status: 'errored',
    verdict: 'block',
    exitCode,
    signal: null,
    reason,
});
const failed = (reason, signal = null) => ({
    status: 'failed',
    verdict: 'block',
    exitCode: 1,
    signal,
    reason,
});
/**
 * The metering proxy's stop: a spent budget ends the session like a timeout (status budget, its own exit
 * code); a model API that refused the key or kept failing, like a detector's stop (failed, with the reason).
 */
function endingOfProxyStop(stop) {
    if (stop.kind === 'budget')
        return { ...failed(stop.reason), status: 'budget', exitCode: ExitCode.budget };
    return failed(stop.reason);
}
/** A session that threw (the spawn failed, a hook could not start...): errored, or interrupted if a signal came. */
function endingOfError(error, interruptedBy) {
    const message = error.message;
    return interruptedBy
        ? { ...interrupted(interruptedBy), reason: message }
        : errored(message, error instanceof SpawnError ? 2 : 1);
}
/** The ending an agent run decides by itself (signal, timeout, detector, failure), or null: ask the stop hooks. */
function endingOfAttempt(attempt, interruptedBy, config) {
    const exit = attempt.exit;
    if (interruptedBy || exit.cause === 'signal')
        return interrupted(interruptedBy ?? 'SIGINT');
    // The agent said why it gave up (before any timeout could): that, not its exit code, is the reason.
    if (attempt.agentError)
        return failed(attempt.agentError);
    if (exit.cause === 'timeout') {
        return {
            ...failed(`total timeout of ${formatDuration(config.timeouts.total)} reached`),
            status: 'timeout',
            exitCode: 124,
        };
    }
    if (exit.cause === 'idle_timeout') {
        return {
            ...failed(`no output for ${formatDuration(config.timeouts.idle)} (idle timeout)`),
            status: 'timeout',
            exitCode: 124,
        };
    }
    // Stop hooks already ran while an interactive agent was still on screen.
    if (attempt.decided)
        return completed(attempt.decided.verdict, attempt.decided.reason, attempt.decided.cause);
    if (exit.cause === 'detector')
        return failed(attempt.stopReason ?? 'stopped by a detector rule');
    if (exit.exitCode !== 0) {
        return exit.signal
            ? failed(`the agent was killed by ${exit.signal}`, exit.signal)
            : failed(`the agent exited with code ${exit.exitCode}`);
    }
    return null;
}
/**
 * The ending once the final checkpoint is in: checkpoints that failed beyond max_failures (or never
 * succeeded) make the session errored; unresolved error/critical violations make an allow a block.
 */
function finalEnding(ending, checkpoints, wasInterrupted) {
    const failure = checkpoints.failure();
    if (failure && !wasInterrupted)
        return errored(failure);
    if (ending.verdict !== 'allow')
        return ending;
    const open = checkpoints.blocking();
    if (open.length === 0)
        return ending;
    const files = [...new Set(open.map((v) => v.file || '(whole diff)'))];
    return completed('block', `policy: ${open.length} unresolved error/critical violation(s) at the end: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ', …' : ''}`);
}

/** While a signal is being handled the agent gets less grace: the runner's cancel window is 7.5 s in all. */
const INTERRUPT_GRACE_MS = 2_500;
class Halts {
    report;
    /** The first SIGINT/SIGTERM (or abort): the agent and the hooks are stopped; finishing goes on. */
    signal = null;
    /** Checkpoints failed beyond checkpoints.max_failures: the agent is stopped, the session ends errored. */
    fatal = null;
    /** The metering proxy ended the session: the budget is spent or the model API refused the key or kept failing. */
    proxyStop = null;
    /** The agent run going on now, if any: what a halt stops. */
    run = null;
    /** Aborted by a signal: the stop hooks running now are stopped too. */
    hooks = new AbortController();
    /** Set once the session's checkpoints exist; a signal may come before. */
    cutGitShort = () => undefined;
    constructor(report) {
        this.report = report;
    }
    interrupt(signal) {
        if (this.signal)
            return;
        this.signal = signal;
        this.report.event('signal', `received ${signal}: stopping the agent and finishing the session`);
        this.hooks.abort();
        this.cutGitShort();
        void this.run?.stop('signal', INTERRUPT_GRACE_MS);
    }
    /** A git blocked on something the agent planted must not outlast the cancel window either. */
    onInterrupt(cutGitShort) {
        this.cutGitShort = cutGitShort;
        if (this.signal)
            cutGitShort();
    }
    checkpointsFailed(reason) {
        this.fatal ??= reason;
        void this.run?.stop('requested');
    }
    proxyStopped(stop) {
        this.proxyStop ??= stop;
        this.report.event(stop.kind === 'budget' ? 'budget' : 'error', stop.reason);
        void this.run?.stop('requested');
    }
    /** The ending a halt decided (a signal first), or null: the session goes on. */
    pending() {
        if (this.signal)
            return interrupted(this.signal);
        if (this.fatal)
            return errored(this.fatal);
        if (this.proxyStop)
            return endingOfProxyStop(this.proxyStop);
        return null;
    }
    /**
     * Interrupts on SIGINT/SIGTERM to this process (the CLI: `handleSignals`) and on `signal`'s abort
     * (batches, tests); returns the undo.
     */
    listen(handleSignals, signal) {
        const uninstall = handleSignals
            ? installShutdownSignals(async (received) => this.interrupt(received))
            : () => undefined;
        const onAbort = () => this.interrupt(signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
        if (signal?.aborted)
            onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        return () => {
            uninstall();
            signal?.removeEventListener('abort', onAbort);
        };
    }
}

// The shared context of one session: what every room of it reads (the config, the agent's environment, the
// report builder, the lifecycle hooks, the checkpoints, what halts it, the round it is in), opened once by
// openSession before anything of the user's runs. Opening it reaps what a crashed proctor left, so the
// agent never writes next to a stale one.
async function openSession(opts) {
    const { config } = opts;
    // Tokens and step files never reach the agent or a hook (docs/action.md#what-the-agent-can-see).
    const env = agentEnvironment(opts.env ?? process.env, config.agent.env_passthrough);
    const dirs = ensureStateDir(opts.cwd);
    // Orphans are reaped before the agent starts (a crashed session's agent must not write into this one);
    // pruning old run records and the stale-index sweep are housekeeping, after the spawn.
    const reaped = await reconcileOrphans(dirs.state, {
        graceMs: Math.min(config.timeouts.grace, 2_000),
        prune: false,
    });
    const sessionId = opts.sessionId ? sanitizeRefPart(opts.sessionId) : makeSessionId(env);
    const dir = sessionDir(dirs, sessionId);
    const mode = config.agent.pty ? 'pty' : 'pipe';
    const usage = { meter: opts.usage ?? new UsageMeter(), pricer: opts.pricer ?? pricerFor(config) };
    const report = openReport(opts, { sessionId, dir, mode, usage });
    const progress = () => opts.listener?.progress?.(report.snapshot());
    await recordContinuation(opts, report);
    recordReaped(report, reaped);
    const lifecycle = new LifecycleHooks({
        hooks: config.hooks,
        poolSize: config.hooks_async_pool_size,
        shutdownGraceMs: config.hooks_async_shutdown_grace,
        sessionId,
        cwd: opts.cwd,
        env,
        onWarning: (message, data) => report.event('warning', message, data ? { data } : {}),
        registryDir: dirs.state,
    });
    const halts = new Halts(report);
    const unlisten = halts.listen(opts.installSignalHandlers, opts.signal);
    const hiddenPaths = new Set();
    const parts = { env, sessionId, dir, report, lifecycle, hiddenPaths, progress };
    const checkpoints = openCheckpoints(opts, halts, reaped.length > 0, parts);
    halts.onInterrupt(() => checkpoints.interrupted(INTERRUPT_GRACE_MS));
    let sweep = null;
    let stopRound = null;
    const firstRound = opts.continuing?.firstRound ?? 1;
    const ctx = {
        opts,
        config,
        env,
        registryDir: dirs.state,
        sessionId,
        dir,
        mode,
        firstRound,
        round: firstRound,
        usage,
        report,
        lifecycle,
        checkpoints,
        halts,
        hiddenPaths,
        progress,
        housekeeping: () => (sweep ??= new Promise((resolve) => setImmediate(resolve))
            .then(() => pruneFinished(dirs.state))
            .then(() => removeStaleRepoIndexes(opts.cwd, liveSessions(dirs.state), sessionId))
            .catch(() => [])),
        // The one deferred import of the stop round: its code (the stop hooks' runner, the policy gate, how the
        // agent is sent back, the rounds' summary) loads at the first stop, ~20 ms kept off the agent's start.
        stopRound: () => (stopRound ??= import('./stop-round-DFk0p3rd.js').then((m) => new m.StopRound(ctx))),
        unlisten,
    };
    return ctx;
}
/** The session's report builder, its first event recorded and its events passed on to the listener. */
function openReport(opts, o) {
    const report = new ReportBuilder({
        sessionId: o.sessionId,
        command: commandArgv(opts.command),
        cwd: opts.cwd,
        mode: o.mode,
        transcriptPath: join(o.dir, 'transcript.log'),
        ci: opts.ci,
        ...o.usage,
    });
    if (opts.listener?.event)
        report.onEvent = (event) => opts.listener?.event?.(event);
    report.event('session_start', `session ${o.sessionId} started: ${describeCommand('shell' in opts.command ? opts.command.shell : commandArgv(opts.command))}`);
    return report;
}
/** The session's checkpoints: they pause the running agent while they snapshot, and halt it past max_failures. */
function openCheckpoints(opts, halts, reapedAny, o) {
    const { config } = opts;
    return new SessionCheckpoints({
        config,
        cwd: opts.cwd,
        sessionId: o.sessionId,
        sessionDir: o.dir,
        report: o.report,
        lifecycle: o.lifecycle,
        hiddenPaths: o.hiddenPaths,
        pauser: {
            pause: () => halts.run?.pause(),
            resume: () => halts.run?.resume(),
        },
        onChange: o.progress,
        env: o.env,
        ...(opts.pushSecretConfig ? { pushSecretConfig: opts.pushSecretConfig } : {}),
        onFatal: (reason) => halts.checkpointsFailed(reason),
        onNotice: (message) => opts.listener?.notice?.(message),
        onProgress: (progress) => opts.listener?.checkpointProgress?.(progress),
        // Reads begun before the session are of the repository as it is before the agent starts only when
        // nothing ran since: no orphan was reaped (it may have written until then) and no session_start hook
        // runs before the checkpoints start (it may commit or change the git config).
        reads: !reapedAny && !config.hooks.session_start?.length ? opts.checkpointReads : null,
    });
}
/** A later round of a session that ended: the earlier rounds stay in this report, and the agent's own session. */
async function recordContinuation(opts, report) {
    if (!opts.continuing)
        return;
    // Deferred: resume.ts (with the trigger's text cleaning it imports) costs ~15 ms to load, and only
    // `proctor run --continue` reads it.
    const { earlierResults } = await import('./resume-DcL9gF2f.js');
    for (const result of earlierResults(opts.continuing))
        report.stopHook(result);
    const { agent_session_id: agentSession } = opts.continuing.previous;
    if (typeof agentSession === 'string' && isAgentSessionId(agentSession))
        report.agentSession(agentSession);
    const firstRound = opts.continuing.firstRound;
    report.event('continue', `round ${firstRound}: continuing after ${firstRound - 1} earlier round(s)`);
}
function recordReaped(report, reaped) {
    for (const orphan of reaped) {
        report.event('warning', `reconciled a run left by a crashed proctor: ${orphan.label} pid ${orphan.pid} (${orphan.action})`, {
            data: { ...orphan },
        });
    }
}
/** Fires a lifecycle hook event; its failures are its own warnings and never end a session. */
async function fire(lifecycle, event, extra) {
    try {
        await lifecycle.fire(event, extra);
    }
    catch {
        // Lifecycle hooks report their own failures as warnings; they never end a session.
    }
}
function commandArgv(command) {
    return 'shell' in command ? ['/bin/sh', '-c', command.shell] : [command.file, ...command.args];
}

// The end of every session, however it ended: the proxy closed, the agent's hook settings put back, the
// final checkpoint and push (bounded after a signal), `session_end`, the async hooks drained, report.json.
// Never throws: whatever fails is an event in the report.
/** ...and the final push gets this long before report.json is written anyway. */
const INTERRUPT_PUSH_DEADLINE_MS = 3_000;
async function finishSession(ctx, decided, work) {
    const { report, halts, checkpoints, config } = ctx;
    await releaseAgentSide(ctx, work);
    await ctx.housekeeping();
    try {
        await checkpoints.finish(halts.signal ? INTERRUPT_PUSH_DEADLINE_MS : undefined);
    }
    catch (error) {
        report.event('error', `final checkpoint failed: ${error.message}`);
    }
    const ending = finalEnding(decided, checkpoints, halts.signal !== null);
    const { status, verdict, exitCode, reason } = ending;
    report.finish({ ...ending, outputTail: work.outputTail, transcript: work.transcript });
    report.event('session_end', `session ended: ${status}, verdict ${verdict}`);
    await fire(ctx.lifecycle, 'session_end', lifecycleExtra.session_end({ status, verdict, exit_code: exitCode, reason }));
    // Async hooks (session_end's webhook) finish before proctor exits; after a signal the runner's cancel
    // window leaves no time, so they are stopped at once (with a warning).
    await ctx.lifecycle.drain(halts.signal ? 0 : config.hooks_async_drain_timeout);
    ctx.unlisten();
    const final = report.snapshot();
    const reportPath = join(ctx.dir, 'report.json');
    const reportError = saveReport(reportPath, final);
    // A session whose report could not be saved has not passed: its verdict would be lost with it.
    return { report: final, reportPath, exitCode: reportError && exitCode === 0 ? 1 : exitCode, reportError };
}
/** The metering proxy closed, the agent's hook settings restored, the native hook's relay closed. */
async function releaseAgentSide(ctx, work) {
    const { report } = ctx;
    await work.modelProxy?.close().catch(() => undefined);
    await (work.native?.restore() ?? Promise.resolve([]))
        .then((changed) => {
        for (const file of changed)
            report.event('warning', `the agent changed ${file}, which proctor wrote for its Stop hook; the original was put back`);
    })
        .catch((error) => report.event('error', `could not restore the agent's hook settings: ${error.message}`));
    await work.nativeStops?.close().catch(() => undefined);
}
/**
 * Writes report.json through a temp file and a rename (writeFileAtomic): a FIFO or symlink the agent put
 * at the path is replaced, not opened, and a full disk leaves no torn file. Returns the one-line problem.
 */
function saveReport(path, report) {
    try {
        writeFileAtomic(path, JSON.stringify(report, null, 2) + '\n');
        return undefined;
    }
    catch (error) {
        return `${error.message}; proctor exits 1 because the report is lost (the summary above is all that remains): free the space or fix the path and run again`;
    }
}

// Adding proctor's flags to an agent's command without repeating the user's: a CLI such as Codex 0.169.0
// refuses a flag given twice ("--dangerously-bypass-hook-trust cannot be used multiple times", exit 2), and
// users were told to pass that flag themselves before proctor did. A flag the command already has — alone,
// or with the same value — is left out; everything else is appended in order.
/** `args` read as flags: an argument that does not start with "-" is the value of the flag before it. */
function flagsOf(args) {
    const flags = [];
    for (const arg of args) {
        const last = flags.at(-1);
        if (!arg.startsWith('-') && last && last.value === undefined)
            last.value = arg;
        else
            flags.push({ name: arg });
    }
    return flags;
}
/** Whether the user's argv already holds `flag` (with the same value when it has one; `--x=v` counts). */
function given(argv, flag) {
    return argv.some((arg, i) => flag.value === undefined
        ? arg === flag.name || arg.startsWith(`${flag.name}=`)
        : (arg === flag.name && argv[i + 1] === flag.value) || arg === `${flag.name}=${flag.value}`);
}
/** The part of `wanted` the user's `argv` does not already have. */
function mergeFlags(argv, wanted) {
    const added = [];
    const present = [];
    for (const flag of flagsOf(wanted)) {
        if (given(argv, flag))
            present.push(flag.name);
        else
            added.push(flag.name, ...(flag.value === undefined ? [] : [flag.value]));
    }
    return { added, present };
}
/** The added flags in one short line: long values (a hook's TOML or JSON) are cut after their key. */
function describeFlags(args) {
    return flagsOf(args)
        .map(({ name, value }) => {
        if (value === undefined)
            return name;
        if (value.length <= 40)
            return `${name} ${value}`;
        const key = /^[\w.-]+=/.exec(value)?.[0];
        return `${name} ${key ? `${key}…` : '…'}`;
    })
        .join(' ');
}

// Agents with their own hook systems (Claude Code, Codex, Gemini CLI) get proctor wired into their Stop
// hook, so a block happens inside the agent's own loop. This prepares the agent command, its environment and
// any settings file for one session, and puts every touched file back afterwards.
/** How an agent's hook can start this very proctor: PROCTOR_BIN, else the running CLI script (dist/cli.js). */
function proctorInvocation(env = process.env) {
    if (env.PROCTOR_BIN)
        return [env.PROCTOR_BIN];
    const script = process.argv[1] ?? '';
    // Inside the action the running file is dist/index.js; the CLI sits next to it.
    const sibling = join(dirname(script), 'cli.js');
    const cli = basename(script) === 'cli.js' || !existsSync(sibling) ? script : sibling;
    return [process.execPath, ...process.execArgv, cli];
}
async function prepareNativeHooks(config, command, cwd, configFile, env, target) {
    const adapterName = config.agent.adapter;
    if (adapterName === 'generic') {
        return {
            command,
            active: false,
            env: {},
            files: [],
            summary: '',
            wire: (other) => other,
            restore: async () => [],
        };
    }
    // The adapters' code (their settings files, fs/promises) only for an agent that has one: a generic
    // agent's session does not load it before the spawn.
    const { installNativeHooks, nativeAdapters, nativeHookCommand, shellQuote } = await import('./index-DtPt7qSS.js');
    const adapter = nativeAdapters[adapterName];
    const slowest = Math.max(60_000, ...config.stop_hooks.map((h) => h.timeout));
    const setup = adapter.setup({
        hookCommand: nativeHookCommand(proctorInvocation(env), adapterName, configFile ?? undefined, target),
        timeoutMs: slowest + 30_000,
    });
    const installed = await installNativeHooks(setup, cwd);
    // A flag the command already has is not given again (Codex exits 2 on a repeated flag).
    const merged = (other) => mergeFlags('shell' in other ? other.shell.split(/\s+/) : other.args, setup.args);
    const wire = (other) => {
        const { added } = merged(other);
        if (added.length === 0)
            return other;
        return 'shell' in other
            ? { shell: `${other.shell} ${added.map(shellQuote).join(' ')}` }
            : { file: other.file, args: [...other.args, ...added] };
    };
    const { added, present } = merged(command);
    return {
        command: wire(command),
        summary: [
            added.length ? `added ${describeFlags(added)}` : '',
            installed.paths.length ? `merged its hook into ${installed.paths.join(', ')}` : '',
            present.length ? `already given: ${present.join(' ')}` : '',
        ]
            .filter(Boolean)
            .join('; '),
        active: true,
        env: setup.env,
        // The real path: the checkpoint store compares against the repository root git reports.
        files: installed.paths.map((path) => join(realpathSync(cwd), path)),
        wire,
        restore: () => installed.restore(),
    };
}

// The total timeout's backstop. proctor's own timer cannot fire while proctor is stopped, and the agent is
// proctor's child: `kill -STOP $PPID` stops it, and nothing would ever continue it. The watchdog is a
// tiny `sh` in its own session (so neither the agent's group nor its terminal reaches it), started
// before the agent (an agent can stop proctor before its spawn call has even returned). It sleeps until
// the deadline, then sends proctor SIGCONT every 200 ms: proctor's overdue timer fires at once and stops
// the agent the usual way. When proctor has not finished the run by the deadline plus the grace and a
// margin (an agent that stops proctor again and again), it SIGKILLs the agent's processes itself:
// - the group proctor names on its stdin, right after the spawn;
// - every process whose environment holds the run's token (PROCTOR_RUN_TOKEN, given before the spawn),
//   found in /proc. An agent that stops proctor at once often does so before proctor has named the
//   group, and a stopped proctor then runs a few microseconds per SIGCONT: it may never get to say it.
//   The token also finds what left the group (its own setsid). No /proc (macOS): the named group only.
// It ends when proctor closes its stdin (the run finished, or proctor died: the pipe closes either way),
// taking its sleeps along (`kill -KILL 0`: it leads its own group).
//
// What it cannot do: the agent runs as the same user and can signal any of that user's processes; an
// agent that looks for the watchdog (`pkill -STOP sh`) can stop it too, and one that rewrites its own
// environment is not found by its token. It defeats the stop of the parent, not an adversary with the
// same uid: for that, run the agent as another user or in a container.
//
// It is not spawned through spawnManaged: it is not a supervised command (no output, no run record an
// agent could forge, no group for proctor to stop: closing its stdin ends it).
/** Seconds between SIGCONTs once the deadline has passed. */
const TICK_S = 0.2;
/** After the deadline plus the grace, how long proctor still gets before the watchdog kills the group. */
const BACKSTOP_MARGIN_MS = 5_000;
// $1 proctor's pid, $2 seconds to the deadline, $3 seconds to the backstop, $4 the environment entry that
// marks the agent's processes (empty: none); the group's id on stdin. A process found by $4 is killed with
// its group when it leads one (`kill -- -p` fails for a mere member, which is then killed alone).
const SCRIPT = [
    `( sleep "$2"; while kill -0 "$1" 2>/dev/null; do kill -CONT "$1" 2>/dev/null; sleep ${TICK_S}; done ) &`,
    'if [ -n "$4" ]; then ( sleep "$3"',
    '  for f in $(grep -lzxF -e "$4" /proc/[0-9]*/environ 2>/dev/null); do',
    '    p=${f#/proc/}; p=${p%/environ}',
    '    kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null',
    '  done ) & fi',
    'if read -r g; then ( sleep "$3"; kill -KILL -- "-$g" 2>/dev/null ) & fi',
    'cat >/dev/null',
    'kill -KILL 0',
].join('\n');
/**
 * Starts the watchdog for proctor (this process): SIGCONT from `deadlineMs` from now, the SIGKILL of the
 * agent's processes (its group, and what carries `runToken`) `graceMs` + a margin after that. Null when it
 * cannot be started (no /bin/sh): the timeout then works as it always did, by proctor's own timer.
 */
function startWatchdog(opts) {
    const seconds = (ms) => (ms / 1000).toFixed(3);
    let child;
    try {
        child = spawn('/bin/sh', [
            '-c',
            SCRIPT,
            'proctor-watchdog',
            String(process.pid),
            seconds(opts.deadlineMs),
            seconds(opts.deadlineMs + opts.graceMs + BACKSTOP_MARGIN_MS),
            opts.runToken ? `${RUN_TOKEN_ENV}=${opts.runToken}` : '',
        ], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    }
    catch {
        return null;
    }
    child.on('error', () => undefined);
    const stdin = child.stdin;
    stdin?.on('error', () => undefined);
    // Neither the process nor the pipe may keep proctor alive: it exits when it is done, and so the pipe
    // closes and the watchdog goes.
    child.unref();
    stdin?.unref?.();
    return {
        agentGroup(pgid) {
            if (Number.isInteger(pgid) && pgid > 1)
                stdin?.write(`${pgid}\n`);
        },
        stop() {
            stdin?.destroy();
        },
    };
}

// The agent's supervised run: one spawnManaged process plus the limits around it (total time,
// idle time, output size). Every way of ending — exit, timeout, idle, cap, a signal to proctor —
// funnels into the process's single `exited` promise, so the run finalizes exactly once and the
// first stop cause is the one recorded.
/** What write() answers once the session is decided. */
const DECIDED = 'the session is decided: nothing more is typed into the agent';
class AgentRun extends EventEmitter {
    options;
    /** Resolves once with the run's end (after the 'exit' event). Pending until start() succeeds. */
    finished;
    resolveFinished;
    child;
    totalTimer;
    idleTimer;
    /** performance.now() of the latest output, or of the (re)start of the idle clock. */
    lastActivity = 0;
    paused = false;
    ended = false;
    outputBytes = 0;
    capReached = false;
    startedAt = new Date();
    startedMs = 0;
    watchdog = null;
    isDecided = false;
    constructor(options) {
        super();
        this.options = options;
        this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    }
    /** Spawns the agent. Throws SpawnError (nothing spawned) for a bad command; attach listeners first. */
    start() {
        if (this.child)
            throw new Error('AgentRun.start() called twice');
        this.startedAt = new Date();
        this.startedMs = performance.now();
        const total = this.options.totalTimeoutMs ?? 0;
        // Before the spawn: the agent can stop proctor (`kill -STOP $PPID`) before spawnManaged returns, and
        // the timer below cannot fire while proctor is stopped.
        // The token is decided here so the watchdog knows it before the agent exists.
        const runToken = this.options.spawn.runToken ?? randomHex(16);
        this.watchdog =
            total > 0 ? startWatchdog({ deadlineMs: total, graceMs: this.options.spawn.graceMs, runToken }) : null;
        let child;
        try {
            child = spawnManaged({
                ...this.options.spawn,
                runToken,
                onOutput: (chunk, stream) => this.onOutput(chunk, stream),
                reuseOutputBuffer: true,
            });
        }
        catch (error) {
            this.watchdog?.stop();
            throw error;
        }
        this.child = child;
        this.watchdog?.agentGroup(child.pgid);
        this.emit('spawn', { pid: child.pid, pgid: child.pgid, mode: child.mode });
        if (total > 0) {
            this.totalTimer = setTimeout(() => {
                if (this.ended)
                    return;
                this.emit('timeout', { limitMs: total });
                void this.stop('timeout');
            }, total);
        }
        this.armIdle();
        void child.exited.then((exit) => this.finalize(exit));
        return this;
    }
    get pid() {
        return this.child?.pid;
    }
    /**
     * Bytes for the agent (an answer, typed text); resolves with whether they reached it. Once the session
     * is decided only `final` bytes (agent.quit) go through: a dialog the agent draws while it is being
     * ended (Claude Code's API-key dialog after a timeout) is never answered, whoever asks.
     */
    write(data, { final = false } = {}) {
        if (!this.child)
            return Promise.resolve({ delivered: false, reason: 'the agent has not started' });
        if (this.isDecided && !final)
            return Promise.resolve({ delivered: false, reason: DECIDED });
        return this.child.write(data);
    }
    /** The session is decided: from now on only agent.quit is typed, and the run is about to end. */
    decide() {
        if (this.isDecided)
            return;
        this.isDecided = true;
        this.emit('decided');
    }
    get decided() {
        return this.isDecided;
    }
    /** Freezes the agent's whole group (around a checkpoint); the idle clock stops too. */
    pause() {
        if (!this.child || this.ended || this.paused)
            return;
        this.paused = true;
        clearTimeout(this.idleTimer);
        this.idleTimer = undefined;
        this.child.pause();
    }
    resume() {
        if (!this.child || !this.paused)
            return;
        this.paused = false;
        this.child.resume();
        this.armIdle();
    }
    resize(cols, rows) {
        this.child?.resize(cols, rows);
    }
    /** Stops the agent's group (TERM → grace → KILL). The first cause wins; later calls share its result. */
    async stop(cause, graceMs) {
        if (!this.child)
            throw new Error('AgentRun.stop() before start()');
        this.decide();
        this.paused = false;
        void this.child.stop(cause, graceMs);
        return this.finished;
    }
    onOutput(chunk, stream) {
        this.outputBytes += chunk.length;
        this.lastActivity = performance.now();
        this.options.output?.write(chunk, stream);
        if (this.listenerCount('output') > 0)
            this.emit('output', Buffer.from(chunk), stream);
        const cap = this.options.outputCapBytes;
        if (cap !== undefined && !this.capReached && this.outputBytes > cap) {
            this.capReached = true;
            this.emit('output_cap', { limitBytes: cap, bytes: this.outputBytes });
            void this.stop('output_cap');
        }
    }
    /**
     * Starts the idle clock now. Output does not touch the timer (pushing a timer back on every chunk
     * costs measurably in a flood): it only notes the time, and the timer, when it fires, waits out what
     * is left since the latest output.
     */
    armIdle() {
        const idle = this.options.idleTimeoutMs ?? 0;
        if (idle <= 0 || this.ended)
            return;
        this.lastActivity = performance.now();
        clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => this.checkIdle(idle), idle);
    }
    checkIdle(idle) {
        this.idleTimer = undefined;
        if (this.ended || this.paused)
            return;
        const quietFor = performance.now() - this.lastActivity;
        if (quietFor < idle) {
            this.idleTimer = setTimeout(() => this.checkIdle(idle), Math.ceil(idle - quietFor));
            return;
        }
        this.emit('idle_timeout', { limitMs: idle });
        void this.stop('idle_timeout');
    }
    /**
     * Killed by a signal after the total deadline, before proctor's own overdue timer could fire: proctor was
     * stopped past the deadline and the watchdog's backstop killed the agent (on resuming, proctor may see the
     * exit before the timer). The run is then a timeout.
     */
    killedPastDeadline(exit, total) {
        return (exit.stoppedBy === null &&
            exit.signal !== null &&
            total > 0 &&
            performance.now() - this.startedMs >= total);
    }
    async finalize(exit) {
        this.ended = true;
        this.watchdog?.stop();
        clearTimeout(this.totalTimer);
        clearTimeout(this.idleTimer);
        try {
            await this.options.output?.flush?.();
        }
        catch {
            // A failing consumer must not keep the run from finishing; it reports its own errors.
        }
        const total = this.options.totalTimeoutMs ?? 0;
        const overdue = this.killedPastDeadline(exit, total);
        if (overdue)
            this.emit('timeout', { limitMs: total });
        const endedAt = new Date();
        const result = {
            ...exit,
            cause: overdue ? 'timeout' : exit.stoppedBy,
            startedAt: this.startedAt,
            endedAt,
            durationMs: Math.round(performance.now() - this.startedMs),
            outputBytes: this.outputBytes,
        };
        try {
            this.emit('exit', result);
        }
        finally {
            this.resolveFinished(result);
        }
    }
}

// Capture of the agent's raw output: the full transcript on disk (capped) and a bounded in-memory tail.
function transcriptCapNote(maxBytes, dropped) {
    return `\n[proctor: transcript capped at ${maxBytes} bytes; ${dropped} bytes dropped]\n`;
}
/**
 * A PTY delivers a few KB per read; one disk write per read costs more than everything else proctor
 * does with the bytes. Chunks are copied into one block of TRANSCRIPT_BLOCK_BYTES that goes to disk when
 * full, or FLUSH_MS after its first byte so interactive output reaches the file promptly. 256 KiB rather
 * than 64: writing 26 MB to the page cache took 12-20 ms of system time in 64 KiB writes and 9-14 ms in
 * 256 KiB ones (larger ones gained nothing more).
 */
const TRANSCRIPT_BLOCK_BYTES = 256 * 1024;
const FLUSH_MS = 20;
/**
 * The full raw byte stream, in order, to one file.
 *
 * Blocks are written synchronously. A write to the page cache takes microseconds, which is less than
 * handing it to the thread pool costs, and it keeps memory flat: an asynchronous stream queues every
 * byte the disk has not taken yet (tens of MB in a flood) unless the producer honours backpressure,
 * whereas a blocking write simply delays the next read of the PTY, so a disk that falls behind slows
 * the agent down instead of growing proctor. Nothing is queued beyond the one block.
 */
class Transcript extends EventEmitter {
    path;
    maxBytes;
    fd = null;
    written = 0;
    droppedBytes = 0;
    error = null;
    closing = null;
    block;
    blockUsed = 0;
    /** performance.now() when the block took its first byte. */
    blockStarted = 0;
    flushTimer = null;
    /** Throws when the directory cannot be created; a file that cannot be opened is reported by close(). */
    constructor(filePath, maxBytes) {
        super();
        if (!Number.isFinite(maxBytes) || maxBytes < 0) {
            throw new RangeError(`transcript cap must be a non-negative number of bytes, got ${maxBytes}`);
        }
        this.path = filePath;
        this.maxBytes = maxBytes;
        this.block = Buffer.allocUnsafeSlow(Math.min(TRANSCRIPT_BLOCK_BYTES, Math.max(1, maxBytes)));
        fs__default.mkdirSync(path.dirname(filePath), { recursive: true });
        try {
            // A rerun of a session id finds the file the last run's agent could replace: never open a FIFO
            // (that blocks) or follow a symlink there (openAppendRegular).
            this.fd = openAppendRegular(filePath, { truncate: true });
        }
        catch (err) {
            // An unwritable transcript must not take the session down: remember why and keep going without it.
            this.fail(err);
        }
    }
    get bytes() {
        return this.written;
    }
    get dropped() {
        return this.droppedBytes;
    }
    get capped() {
        return this.droppedBytes > 0;
    }
    /** Bytes accepted but not yet handed to the file (at most one block). */
    get pendingBytes() {
        return this.blockUsed;
    }
    /** Appends a chunk (up to the cap). The chunk is copied or written at once, never kept. */
    write(chunk) {
        if (this.closing)
            return;
        const room = this.maxBytes - this.written;
        if (chunk.length > room) {
            const wasCapped = this.capped;
            this.droppedBytes += chunk.length - Math.max(room, 0);
            if (!wasCapped)
                this.emit('capped', this.maxBytes);
            if (room <= 0)
                return;
            chunk = chunk.subarray(0, room);
        }
        this.written += chunk.length;
        if (this.fd === null || chunk.length === 0)
            return;
        if (this.blockUsed + chunk.length > this.block.length)
            this.writeBlock();
        if (chunk.length >= this.block.length) {
            // Larger than a block: straight to the file, no copy.
            this.writeAll(chunk);
            return;
        }
        if (this.blockUsed === 0)
            this.blockStarted = performance.now();
        this.block.set(chunk, this.blockUsed);
        this.blockUsed += chunk.length;
        if (this.blockUsed === this.block.length)
            this.writeBlock();
        else if (!this.flushTimer)
            this.armFlush(FLUSH_MS);
    }
    /**
     * One timer for as long as blocks keep filling, not one per block: when it fires it writes a block
     * that has waited FLUSH_MS, or waits out what is left for the current one.
     */
    armFlush(ms) {
        this.flushTimer = setTimeout(() => {
            this.flushTimer = null;
            if (this.blockUsed === 0)
                return;
            const waited = performance.now() - this.blockStarted;
            if (waited < FLUSH_MS - 1)
                this.armFlush(FLUSH_MS - waited);
            else
                this.writeBlock();
        }, ms);
        this.flushTimer.unref();
    }
    /** Hands the collected block to the file. */
    writeBlock() {
        if (this.blockUsed === 0)
            return;
        const used = this.blockUsed;
        this.blockUsed = 0;
        this.writeAll(this.block.subarray(0, used));
    }
    writeAll(data) {
        if (this.fd === null)
            return;
        try {
            let offset = 0;
            while (offset < data.length)
                offset += fs__default.writeSync(this.fd, data, offset, data.length - offset);
        }
        catch (err) {
            this.fail(err);
        }
    }
    fail(err) {
        this.error ??= `cannot write transcript ${this.path}: ${err.message}`;
        if (this.fd !== null) {
            try {
                fs__default.closeSync(this.fd);
            }
            catch {
                // Already failing; the first error is the one reported.
            }
            this.fd = null;
        }
    }
    /** Appends the cap note when capped, flushes and closes the file. Idempotent. */
    close() {
        if (!this.closing) {
            if (this.flushTimer)
                clearTimeout(this.flushTimer);
            this.flushTimer = null;
            this.writeBlock();
            if (this.capped)
                this.writeAll(Buffer.from(transcriptCapNote(this.maxBytes, this.droppedBytes)));
            if (this.fd !== null) {
                try {
                    fs__default.closeSync(this.fd);
                }
                catch (err) {
                    this.fail(err);
                }
                this.fd = null;
            }
            this.closing = Promise.resolve({
                path: this.path,
                bytes: this.written,
                capped: this.capped,
                dropped: this.droppedBytes,
                error: this.error,
            });
        }
        return this.closing;
    }
}

/**
 * xterm is loaded on first use: loading it costs a pipe session (which never renders) about 6 MB of
 * memory, and its peak while streaming has a 100 MiB budget (docs/benchmarks.md). It is a chunk of its
 * own in the bundled CLI, imported by loadRenderer(); a RenderedScreen constructed before it is loaded
 * starts loading it and holds the output until then, so a PTY agent is spawned without waiting for
 * xterm's ~15 ms of evaluation.
 */
let xtermModule;
let loading;
/** Loads xterm for RenderedScreen (once; later calls share the first). */
async function loadRenderer() {
    await xterm();
}
function xterm() {
    loading ??= import('./xterm-headless-DzDeNUIE.js').then(function (n) { return n.x; }).then((loaded) => {
        xtermModule = loaded.default ?? loaded;
        return xtermModule;
    });
    return loading;
}
/**
 * xterm throws once 50 MB are queued unparsed. Well before that, chunks are left out of the rendering
 * (the transcript keeps them): detection on a screen that is megabytes behind is meaningless anyway.
 */
const MAX_UNPARSED_BYTES = 16 * 1024 * 1024;
/**
 * Rendering costs more CPU per byte than reading the PTY. In a flood (more than FEED_BUDGET bytes
 * within FEED_WINDOW_MS) only the last FLOOD_TAIL bytes of it are rendered, when it pauses or every
 * FLOOD_RENDER_MS: everything before would have scrolled off the screen before the next detection scan
 * anyway, and the transcript keeps every byte. Interactive output never comes close to this rate. Once a
 * window had to be thinned, the next ones get no budget of their own (only their tail is rendered) until
 * output slows down: a budget rendered at the start of every window of a flood is scrolled away unseen.
 */
const FEED_WINDOW_MS = 50;
const FEED_BUDGET = 64 * 1024;
/**
 * Of a window's budget, this much is rendered once the output pauses (FEED_PAUSE_MS); the rest waits for
 * the window's end and is rendered in full then if the window stayed within its budget (a large redraw
 * of a TUI, 50 ms late at most), or only as a flood's tail if it did not: rendering the whole budget of a
 * flood's first window at once was half of what xterm parsed of a 25 MB stream.
 */
const FEED_AT_ONCE = 16 * 1024;
/**
 * What comes at once is rendered when the output has paused this long, not as it comes: a flood never
 * pauses, so it is known as one (over its budget) before xterm parses any of it. At the start of a
 * stream xterm's code is cold, and rendering the first 16 KB of a flood as it came kept proctor from
 * reading for ~45 ms on Node 20 (no compile cache there) and ~20 ms on Node 24, while the agent waited
 * on a full terminal. A TUI writes a frame in one go, so a frame waits just this long; detection waits
 * for 10 ms of quiet after it anyway (OutputPipeline).
 */
const FEED_PAUSE_MS = 4;
/**
 * What is rendered of a thinned flood at the end of a window: several screenfuls (a 40x120 screen of
 * text is under 5 KB, and well under 16 with colours), from a line start. xterm parses about 4 MB/s,
 * so each KB rendered of a flood is a quarter of a millisecond the agent's output waits. Of plain text
 * (no ESC) only the last lines anything reads are rendered (REPORTED_LINES or the screen's rows): they
 * alone decide what the screen shows, and 16 KB of 80-column lines is five times that.
 */
const FLOOD_TAIL = 16 * 1024;
/**
 * Once a flood is being thinned, its tail is rendered when the output pauses for FLOOD_QUIET_MS, or every
 * FLOOD_RENDER_MS while it goes on: in between the screen only scrolls, and a prompt cannot be waiting
 * for its answer while output pours past it, so the pause is what matters. Rendering a tail every window
 * made xterm the costliest part of a flood; with 32 KB every 250 ms it still parsed ~160 KB of a 25 MB
 * stream, ~100 KB with 16 KB every 500 ms.
 */
const FLOOD_QUIET_MS = 15;
const FLOOD_RENDER_MS = 500;
/** Switches between the normal and the alternate screen; the last one in skipped bytes is replayed. */
const SCREEN_SWITCHES = ['\x1b[?1049h', '\x1b[?1049l', '\x1b[?1047h', '\x1b[?1047l', '\x1b[?47h', '\x1b[?47l'];
/** Every switch starts with CSI ?, so one backward search finds the candidates. */
const PRIVATE_CSI = Buffer.from('\x1b[?', 'latin1');
const LONGEST_SWITCH = Math.max(...SCREEN_SWITCHES.map((s) => s.length));
/**
 * The last screen switch in bytes that are skipped. This runs over every byte of a flood, so it makes
 * one backward pass (searching for each switch separately made it the costliest step of a flood).
 */
function lastScreenSwitch(bytes) {
    // Most of a flood has no escape at all: one byte search (memchr) settles it.
    if (bytes.indexOf(0x1b) === -1)
        return null;
    let at = bytes.lastIndexOf(PRIVATE_CSI);
    while (at !== -1) {
        const text = bytes.toString('latin1', at, at + LONGEST_SWITCH);
        const found = SCREEN_SWITCHES.find((seq) => text.startsWith(seq));
        if (found)
            return found;
        at = at === 0 ? -1 : bytes.lastIndexOf(PRIVATE_CSI, at - 1);
    }
    return null;
}
/** Where to start rendering a thinned flood: after a line break, so no character or sequence is cut. */
function tailStart(bytes, keep) {
    const from = bytes.length - keep;
    const nl = bytes.indexOf(0x0a, from);
    return nl === -1 || nl === bytes.length - 1 ? from : nl + 1;
}
/**
 * Where the last `lines` lines of `bytes` begin (after the LF before them); when it holds fewer, the
 * first line start, as tailStart.
 */
function lastLinesStart(bytes, lines) {
    let at = bytes.length;
    for (let i = 0; i < lines; i++) {
        const nl = at === 0 ? -1 : bytes.lastIndexOf(0x0a, at - 1);
        if (nl === -1)
            return tailStart(bytes, bytes.length);
        at = nl;
    }
    return at + 1;
}
function asBuffer(chunk) {
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}
/**
 * The last `capacity` bytes of a flood, in one buffer allocated once. Chunks are read into a reused buffer
 * (reuse-read.ts), so what a view keeps is copied; a ring copies each byte once and allocates nothing,
 * where keeping a copy of every chunk of a flood would allocate megabytes that only wait to be collected.
 * `onDrop` sees every byte that falls out of it, in order: `source[start, end)`, which began at byte
 * `offset` of everything pushed (no view is allocated for it: a flood drops bytes at every chunk).
 */
class TailRing {
    capacity;
    onDrop;
    buffer = null;
    /** Where the next byte goes. */
    end = 0;
    held = 0;
    constructor(capacity, onDrop) {
        this.capacity = capacity;
        this.onDrop = onDrop;
    }
    /** Bytes pushed so far (the offset after the last one). */
    pushed = 0;
    dropped = 0;
    get length() {
        return this.held;
    }
    push(chunk) {
        const bytes = asBuffer(chunk);
        const cap = this.capacity;
        const buffer = (this.buffer ??= Buffer.allocUnsafeSlow(cap));
        this.pushed += bytes.length;
        if (bytes.length >= cap) {
            this.dropOldest(this.held);
            const head = bytes.length - cap;
            if (head > 0) {
                this.onDrop(bytes, 0, head, this.dropped);
                this.dropped += head;
            }
            buffer.set(head > 0 ? bytes.subarray(head) : bytes, 0);
            this.end = 0;
            this.held = cap;
            return;
        }
        this.dropOldest(this.held + bytes.length - cap);
        const first = Math.min(bytes.length, cap - this.end);
        buffer.set(first < bytes.length ? bytes.subarray(0, first) : bytes, this.end);
        if (first < bytes.length)
            buffer.set(bytes.subarray(first), 0);
        this.end = (this.end + bytes.length) % cap;
        this.held += bytes.length;
    }
    /** The bytes held, oldest first, in a buffer of their own; the ring is empty afterwards. */
    take() {
        const out = Buffer.allocUnsafe(this.held);
        if (this.held > 0) {
            const [start, first] = this.oldest(this.held);
            out.set(this.buffer.subarray(start, start + first), 0);
            if (first < this.held)
                out.set(this.buffer.subarray(0, this.held - first), first);
        }
        this.clear();
        return out;
    }
    clear() {
        this.end = 0;
        this.held = 0;
        // What was held is gone too: offsets of later drops go on from the end of it.
        this.dropped = this.pushed;
    }
    dropOldest(count) {
        if (count <= 0)
            return;
        const [start, first] = this.oldest(count);
        this.onDrop(this.buffer, start, start + first, this.dropped);
        if (first < count)
            this.onDrop(this.buffer, 0, count - first, this.dropped + first);
        this.dropped += count;
        this.held -= count;
    }
    /** Where the oldest byte is, and how many of the oldest `count` lie before the end of the buffer. */
    oldest(count) {
        const start = (this.end - this.held + this.capacity) % this.capacity;
        return [start, Math.min(count, this.capacity - start)];
    }
}
/**
 * Reports and stop hooks read the last 40 lines; the transcript has everything else. Each scrollback
 * line is a live object of 12 bytes per column, and filling 1000 of them in a flood made the screen
 * the largest part of proctor's memory (about 10 MB more peak RSS than 200 lines).
 */
const DEFAULT_SCROLLBACK = 200;
/** The most lines anything reads back from the screen: the reports' and stop hooks' tail (tailText(40)). */
const REPORTED_LINES = 40;
/** A headless xterm fed with the raw PTY output. */
class RenderedScreen {
    kind = 'screen';
    cols;
    rows;
    /** Null until xterm is loaded; output written meanwhile waits in `early`. */
    term = null;
    early = null;
    earlyBytes = 0;
    ready = null;
    scrollback;
    onParsed;
    unparsedBytes = 0;
    pendingWrites = 0;
    waiters = [];
    skipped = 0;
    disposed = false;
    windowStart = -Infinity;
    fedInWindow = 0;
    /** The last window was thinned: until a quiet window, only tails are rendered. */
    thinning = false;
    thinned = false;
    /** The end of a flood, waiting to be rendered. */
    held = new TailRing(FLOOD_TAIL, (source, start, end, offset) => {
        this.skipped += end - start;
        this.thinned = true;
        this.droppedSinceRelease = true;
        // Only bytes of a chunk that held an ESC can hold a screen switch.
        if (offset < this.escapesBefore) {
            this.heldSwitch = lastScreenSwitch(source.subarray(start, end)) ?? this.heldSwitch;
        }
    });
    /** Every ESC pushed into `held` lies before this offset of it. */
    escapesBefore = 0;
    /** Bytes fell out of the ring since the last render: the held tail starts somewhere in a line. */
    droppedSinceRelease = false;
    /** This window's output beyond FEED_AT_ONCE, while it is within FEED_BUDGET (see FEED_AT_ONCE). */
    burst = null;
    burstBytes = 0;
    burstEscape = false;
    /** performance.now() of the latest chunk into `burst`, and the timer that waits for a pause after it. */
    lastBurst = 0;
    pauseTimer = null;
    heldSwitch = null;
    heldTimer = null;
    /** While thinning: renders the held tail once the output pauses (FLOOD_QUIET_MS after lastHeld). */
    quietTimer = null;
    lastHeld = 0;
    trimmed = 0;
    trimSource = null;
    trimSubscription = null;
    constructor(opts) {
        this.cols = opts.cols;
        this.rows = opts.rows;
        this.onParsed = opts.onParsed;
        this.scrollback = opts.scrollback ?? DEFAULT_SCROLLBACK;
        if (xtermModule) {
            this.term = this.open(xtermModule);
            return;
        }
        // xterm is read, compiled and evaluated from the next turn on (unless loadRenderer() started it
        // already): whatever runs synchronously after this constructor (the session spawns its agent) does
        // not wait for it. The output until then is rendered once it is here.
        this.early = [];
        this.ready = new Promise((resolve) => setImmediate(resolve)).then(xterm).then((module) => {
            const early = this.early ?? [];
            this.early = null;
            this.earlyBytes = 0;
            if (this.disposed)
                return;
            this.term = this.open(module);
            for (const chunk of early)
                this.write(chunk);
        }, () => {
            // Not renderable (a broken install): the transcript keeps the output; the screen stays empty.
            this.skipped += this.earlyBytes;
            this.early = null;
        });
    }
    open(module) {
        return new module.Terminal({
            cols: this.cols,
            rows: this.rows,
            scrollback: this.scrollback,
            allowProposedApi: true,
        });
    }
    get flooding() {
        return this.thinning || this.thinned;
    }
    /** Bytes left out of the rendering (flood thinning, or xterm too far behind). */
    get skippedBytes() {
        return this.skipped;
    }
    /** Follows a PTY resize so the rendering wraps where the agent's terminal does. */
    resize(cols, rows) {
        if (this.disposed || (cols === this.cols && rows === this.rows))
            return;
        // Held output was written before the resize, so it is rendered at the old size.
        this.releaseHeld();
        this.cols = cols;
        this.rows = rows;
        this.term?.resize(cols, rows);
    }
    /** Which buffer is showing: full-screen TUIs switch to the alternate one (no scrollback). */
    get bufferType() {
        return this.term?.buffer.active.type ?? 'normal';
    }
    write(chunk, hasEscape) {
        if (this.disposed || chunk.length === 0)
            return;
        if (this.early) {
            // Bounded like xterm's own queue (MAX_UNPARSED_BYTES); beyond it the rendering skips, as in a flood.
            if (this.earlyBytes + chunk.length > MAX_UNPARSED_BYTES)
                this.skipped += chunk.length;
            else {
                // The chunk is only lent (OutputPipeline.write): what waits is a copy.
                this.early.push(Buffer.from(chunk));
                this.earlyBytes += chunk.length;
            }
            return;
        }
        if (!this.term) {
            this.skipped += chunk.length;
            return;
        }
        const now = performance.now();
        if (now - this.windowStart >= FEED_WINDOW_MS && this.held.length === 0 && this.burstBytes === 0) {
            // A whole window went by without output to hold: whatever flood there was is over.
            this.windowStart = now;
            this.fedInWindow = 0;
            this.thinning = false;
        }
        const budget = this.thinning ? 0 : FEED_BUDGET;
        if (this.held.length === 0 && this.fedInWindow + this.burstBytes + chunk.length <= budget) {
            // The chunk is only lent (OutputPipeline.write): it waits in the screen's own buffer, up to
            // FEED_AT_ONCE of it for a pause, the rest for the window's end.
            this.burst ??= Buffer.allocUnsafeSlow(FEED_BUDGET);
            this.burst.set(chunk, this.burstBytes);
            this.burstBytes += chunk.length;
            this.burstEscape ||= hasEscape ?? asBuffer(chunk).indexOf(0x1b) !== -1;
            this.lastBurst = now;
            if (this.fedInWindow + this.burstBytes <= FEED_AT_ONCE && !this.pauseTimer)
                this.armPause(FEED_PAUSE_MS);
            // Output that never pauses (a progress bar redrawn every few ms) is rendered at the window's end.
            if (!this.heldTimer)
                this.armHeldTimer(FEED_WINDOW_MS, now);
            return;
        }
        if (!this.thinning) {
            // Over budget: a flood. Its tail is rendered when it pauses or FLOOD_RENDER_MS on, not at the end of
            // this window: the code xterm runs is still cold at the start of a stream (and tens of ms per 16 KB).
            this.thinning = true;
            if (this.heldTimer)
                clearTimeout(this.heldTimer);
            this.heldTimer = null;
        }
        if (this.burstBytes > 0) {
            // What waited is the start of the flood.
            const burst = this.burst.subarray(0, this.burstBytes);
            this.burstBytes = 0;
            const escape = this.burstEscape;
            this.burstEscape = false;
            this.hold(burst, now, escape);
        }
        this.hold(chunk, now, hasEscape ?? asBuffer(chunk).indexOf(0x1b) !== -1);
    }
    /** `chunk` must be the screen's own: xterm parses it later. */
    feed(chunk) {
        this.fedInWindow += chunk.length;
        if (this.unparsedBytes + chunk.length > MAX_UNPARSED_BYTES) {
            this.skipped += chunk.length;
            return;
        }
        this.unparsedBytes += chunk.length;
        this.pendingWrites++;
        this.term.write(chunk, () => {
            this.followTrims();
            this.unparsedBytes -= chunk.length;
            this.pendingWrites--;
            if (this.pendingWrites === 0)
                this.releaseWaiters();
            this.onParsed?.();
        });
    }
    flush() {
        if (this.early && this.ready)
            return this.ready.then(() => this.flush());
        this.releaseHeld();
        if (this.pendingWrites === 0 || this.disposed)
            return Promise.resolve();
        return new Promise((resolve) => this.waiters.push(resolve));
    }
    /** Over budget in this window: keep the end of the output for the window's end, FLOOD_TAIL at most. */
    hold(chunk, now, hasEscape) {
        if (hasEscape)
            this.escapesBefore = this.held.pushed + chunk.length;
        this.held.push(chunk);
        this.lastHeld = now;
        if (!this.heldTimer)
            this.armHeldTimer(this.thinning ? FLOOD_RENDER_MS : FEED_WINDOW_MS, now);
        // Not pushed back per chunk (re-arming a timer thousands of times a second costs measurably): when
        // it fires, it waits out what is left of the pause since the latest chunk.
        if (this.thinning && !this.quietTimer)
            this.armQuiet(FLOOD_QUIET_MS);
    }
    /**
     * Renders what the window may render at once (FEED_AT_ONCE) once the output paused for FEED_PAUSE_MS.
     * Not pushed back per chunk: when it fires, it waits out what is left of the pause.
     */
    armPause(ms) {
        this.pauseTimer = setTimeout(() => {
            this.pauseTimer = null;
            if (this.burstBytes === 0 || this.disposed)
                return;
            const quietFor = performance.now() - this.lastBurst;
            if (quietFor < FEED_PAUSE_MS) {
                this.armPause(Math.max(1, FEED_PAUSE_MS - quietFor));
                return;
            }
            const count = Math.min(this.burstBytes, FEED_AT_ONCE - this.fedInWindow);
            if (count <= 0)
                return;
            const data = Buffer.from(this.burst.subarray(0, count));
            this.burst.copyWithin(0, count, this.burstBytes);
            this.burstBytes -= count;
            this.feed(data);
        }, ms);
        this.pauseTimer.unref();
    }
    /** Renders what waits at the end of the window (`window` ms after it began). */
    armHeldTimer(window, now) {
        this.heldTimer = setTimeout(() => this.releaseHeld(), Math.max(1, window - (now - this.windowStart)));
        this.heldTimer.unref();
    }
    armQuiet(ms) {
        this.quietTimer = setTimeout(() => {
            this.quietTimer = null;
            const quietFor = performance.now() - this.lastHeld;
            if (quietFor < FLOOD_QUIET_MS)
                this.armQuiet(Math.max(1, FLOOD_QUIET_MS - quietFor));
            else
                this.releaseHeld();
        }, ms);
        this.quietTimer.unref();
    }
    /** Renders the tail of what was held (from a line start), after the last screen switch it skipped. */
    releaseHeld() {
        if (this.heldTimer) {
            clearTimeout(this.heldTimer);
            this.heldTimer = null;
        }
        if (this.quietTimer) {
            clearTimeout(this.quietTimer);
            this.quietTimer = null;
        }
        if (this.pauseTimer) {
            clearTimeout(this.pauseTimer);
            this.pauseTimer = null;
        }
        if (this.disposed)
            return;
        if (this.burstBytes > 0) {
            // The window stayed within its budget: all of it is rendered.
            const data = Buffer.from(this.burst.subarray(0, this.burstBytes));
            this.burstBytes = 0;
            this.burstEscape = false;
            this.windowStart = performance.now();
            this.fedInWindow = 0;
            this.feed(data);
            return;
        }
        if (this.held.length === 0)
            return;
        // No ESC in what is held: plain text, whose last lines alone decide what the screen shows.
        const plain = this.escapesBefore <= this.held.pushed - this.held.length;
        const data = this.held.take();
        // What fell out of the ring began a line (or a sequence): render from the next line start, and of
        // plain text only the lines anything reads back (the screen, REPORTED_LINES) and two more.
        const start = !this.droppedSinceRelease
            ? 0
            : plain
                ? lastLinesStart(data, Math.max(this.rows, REPORTED_LINES) + 2)
                : tailStart(data, data.length);
        this.droppedSinceRelease = false;
        if (start > 0) {
            this.skipped += start;
            this.heldSwitch = lastScreenSwitch(data.subarray(0, start)) ?? this.heldSwitch;
        }
        this.thinning = this.thinned || start > 0;
        this.thinned = false;
        const prefix = this.heldSwitch;
        this.heldSwitch = null;
        this.windowStart = performance.now();
        this.fedInWindow = 0;
        if (prefix)
            this.feed(Buffer.from(prefix, 'latin1'));
        this.feed(data.subarray(start));
    }
    /** The logical lines on the visible screen, for matching. */
    screenLines() {
        this.followTrims();
        if (!this.term)
            return [];
        const buffer = this.term.buffer.active;
        const top = buffer.baseY;
        const trimmed = buffer.type === 'normal' ? this.trimmed : 0;
        const out = [];
        for (let row = 0; row < this.rows; row++) {
            const line = buffer.getLine(top + row);
            if (!line)
                break;
            const text = line.translateToString(true);
            const last = out[out.length - 1];
            if (line.isWrapped && last)
                last.text += text;
            else
                out.push({ text, line: top + row + trimmed, row });
        }
        for (const l of out)
            l.text = l.text.trimEnd();
        return out;
    }
    visibleLines() {
        if (!this.term)
            return Array.from({ length: this.rows }, () => '');
        const buffer = this.term.buffer.active;
        const lines = [];
        for (let row = 0; row < this.rows; row++) {
            lines.push(buffer
                .getLine(buffer.baseY + row)
                ?.translateToString(true)
                .trimEnd() ?? '');
        }
        return lines;
    }
    visibleText() {
        return this.visibleLines().join('\n');
    }
    tailText(lines) {
        if (!this.term)
            return '';
        const buffer = this.term.buffer.active;
        let end = buffer.baseY + this.rows;
        while (end > 0 &&
            !buffer
                .getLine(end - 1)
                ?.translateToString(true)
                .trim())
            end--;
        const out = [];
        for (let y = Math.max(0, end - Math.max(0, lines)); y < end; y++) {
            out.push(buffer.getLine(y)?.translateToString(true).trimEnd() ?? '');
        }
        return out.join('\n');
    }
    dispose() {
        if (this.disposed)
            return;
        this.disposed = true;
        if (this.heldTimer)
            clearTimeout(this.heldTimer);
        if (this.quietTimer)
            clearTimeout(this.quietTimer);
        if (this.pauseTimer)
            clearTimeout(this.pauseTimer);
        this.held.clear();
        this.burstBytes = 0;
        this.early = null;
        this.trimSubscription?.dispose();
        this.term?.dispose();
        this.releaseWaiters();
    }
    /**
     * Counts lines trimmed off the top of the normal buffer once the scrollback is full, so line
     * identities stay put while content scrolls. xterm's public API has no trim event; its buffer's
     * internal one is used when present (a terminal reset replaces the buffer, so it is re-attached).
     * Without it, identities are exact until the scrollback fills.
     */
    followTrims() {
        const lines = this.term?._core?.buffers?.normal?.lines;
        if (!lines || lines === this.trimSource || typeof lines.onTrim !== 'function')
            return;
        this.trimSubscription?.dispose();
        this.trimSource = lines;
        this.trimSubscription = lines.onTrim((n) => (this.trimmed += n));
    }
    releaseWaiters() {
        const waiters = this.waiters;
        this.waiters = [];
        for (const resolve of waiters)
            resolve();
    }
}
/** An escape sequence still open at the end of a chunk: kept for the next chunk. */
const OPEN_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|\]|[PX^_][^\x1b]*(?:\x1b)?|[ -/]*)?$/;
/** An unterminated OSC/DCS longer than this is garbage, not a sequence worth waiting for. */
const MAX_OPEN_ESCAPE = 4096;
/**
 * Pipe output is split into lines as it comes, up to FLOOD_BUDGET_BYTES per FLOOD_WINDOW_MS (the rate
 * OutputPipeline.calm() calls a flood, as the PTY screen's budget); beyond that (and in every window after
 * one that went beyond it) only the last FLOOD_TAIL_BYTES are: decoding and splitting 25 MB of a build log
 * line by line cost proctor more CPU than reading it, which slowed the agent writing it to a quarter of a
 * plain pipe's speed. Every line split is also matched against every rule: with 256 KB budgets and 64 KB
 * tails, the lines of a 25 MB flood's first window and tails were a tenth of proctor's CPU for it.
 */
const FLOOD_WINDOW_MS = 50;
const FLOOD_BUDGET_BYTES = 64 * 1024;
/** The end of a flood the detector sees: a few hundred lines of a build log (at least 4 × maxLineChars). */
const FLOOD_TAIL_BYTES = 16 * 1024;
/**
 * Lines of a pipe session: UTF-8 decoded (invalid bytes become U+FFFD), escape sequences removed, the
 * last `keepLines` kept. A line that never ends (10 MB without a newline) keeps only its last
 * `maxLineChars` characters, so memory and matching stay bounded.
 */
class LineView {
    kind = 'lines';
    decoder = new TextDecoder('utf-8', { fatal: false });
    keepLines;
    maxLineChars;
    trackPending;
    maxPendingChars;
    pendingChars = 0;
    /** Ring of the last completed lines. */
    kept = [];
    keptStart = 0;
    pending = [];
    skipped = 0;
    current = '';
    currentTouched = false;
    carry = '';
    nextSeq = 0;
    /** Flood thinning (see write()): the current window, and whether this one or the last was a flood. */
    windowStart = -Infinity;
    windowBytes = 0;
    floodedNow = false;
    floodedLast = false;
    /** The end of a flood, waiting to be decoded. */
    deferred;
    /** The dropped bytes began a line: the next newline ends it, skipped. */
    lost = false;
    /** The decoder may hold part of a character (it decoded since it was last reset). */
    decoderUsed = false;
    constructor(opts = {}) {
        this.keepLines = Math.max(1, opts.keepLines ?? 500);
        this.maxLineChars = Math.max(80, opts.maxLineChars ?? 4096);
        this.trackPending = opts.trackPending ?? true;
        this.maxPendingChars = Math.max(this.maxLineChars, opts.maxPendingChars ?? 4 * 1024 * 1024);
        this.deferred = new TailRing(Math.max(FLOOD_TAIL_BYTES, 4 * this.maxLineChars), (source, start, end) => this.drop(source.subarray(start, end)));
    }
    get flooding() {
        return this.floodedLast || this.floodedNow;
    }
    /**
     * Completed lines never shown to the detector because it fell too far behind: exact when the detector
     * was slow, at least one per stretch of bytes a flood left out (those are never decoded, nor their
     * lines counted one by one).
     */
    get skippedLines() {
        this.settleFlood();
        return this.skipped;
    }
    write(chunk) {
        const now = performance.now();
        if (now - this.windowStart >= FLOOD_WINDOW_MS) {
            this.windowStart = now;
            this.windowBytes = 0;
            this.floodedLast = this.floodedNow;
            this.floodedNow = false;
            // Still flooding: what the last window left waiting stays there (the next bytes join it) until the
            // flood ends or the view is read, so a long flood is decoded once per detection scan at most.
            if (!this.floodedLast)
                this.settleFlood();
        }
        this.windowBytes += chunk.length;
        const budget = this.floodedLast ? 0 : FLOOD_BUDGET_BYTES;
        if (this.deferred.length === 0 && this.windowBytes <= budget) {
            this.process(chunk);
            return;
        }
        // A flood: the bytes wait, and only the last ring's worth of them is ever decoded and split into
        // lines (at the next window, or when anything reads the view); what falls out of the ring before that
        // is dropped. The transcript has every byte; the detector sees the end of the flood, where a prompt
        // would be.
        this.deferred.push(chunk);
    }
    /** Decodes what a flood left waiting: the end of its output. */
    settleFlood() {
        if (this.deferred.length === 0)
            return;
        let bytes = this.deferred.take();
        if (this.lost) {
            // The line the dropped bytes began: skipped to its end. A line with no end in sight keeps its end
            // (as any line longer than maxLineChars does), so a prompt at the end of a flood is still seen.
            this.lost = false;
            const nl = bytes.indexOf(0x0a);
            if (nl !== -1) {
                this.skipLines(1);
                bytes = bytes.subarray(nl + 1);
            }
        }
        if (bytes.length > 0)
            this.process(bytes);
    }
    /**
     * Bytes a flood left out, never decoded. A newline among them ended at least one line unseen: the line
     * numbers move on by one, not by the count (searching for every newline of 25 MB, a call per line,
     * cost more than everything else proctor does with the bytes; the numbers only have to tell lines
     * apart and keep their order). A newline byte is never part of a UTF-8 sequence, so none is missed.
     */
    drop(bytes) {
        this.floodedNow = true;
        // A line already ended in this gap: it moved the numbers on, and the rest of the gap is skipped to the
        // next newline after it anyway. Nothing more to look at until the flood's end is decoded.
        if (this.lost)
            return;
        const lineEnded = bytes.indexOf(0x0a) !== -1;
        this.skipLines(lineEnded ? 1 : 0);
        // The bytes after the last newline began a line whose start is gone: it is skipped to its end.
        if (lineEnded)
            this.lost = true;
    }
    /** `count` lines ended unseen; the line in progress (if any) is cut off. */
    skipLines(count) {
        this.current = '';
        this.currentTouched = false;
        this.carry = '';
        if (this.decoderUsed) {
            this.decoder.decode(); // drops a half-received character
            this.decoderUsed = false;
        }
        if (count === 0)
            return;
        this.nextSeq += count;
        this.skipped += count;
        // What is kept is the end of the output: lines from before the gap would read as if they led up to it.
        this.kept.length = 0;
        this.keptStart = 0;
    }
    process(chunk) {
        this.decoderUsed = true;
        let text = this.carry + this.decoder.decode(chunk, { stream: true });
        this.carry = '';
        const esc = text.lastIndexOf('\x1b');
        if (esc !== -1 && text.length - esc <= MAX_OPEN_ESCAPE) {
            const open = OPEN_ESCAPE.exec(text.slice(esc));
            if (open && open.index === 0) {
                this.carry = text.slice(esc);
                text = text.slice(0, esc);
            }
        }
        // "\r" may be the first half of "\r\n": wait for the next chunk to tell a line end from a return.
        if (text.endsWith('\r')) {
            this.carry = '\r' + this.carry;
            text = text.slice(0, -1);
        }
        this.consume(stripTerminal(text));
    }
    flush() {
        return Promise.resolve();
    }
    /** Lines the detector has not seen yet, then the current unfinished line (seen again until it ends). */
    takeLines() {
        this.settleFlood();
        const out = this.pending;
        this.pending = [];
        this.pendingChars = 0;
        if (this.current || this.currentTouched) {
            out.push({ seq: this.nextSeq, text: this.current, complete: false });
        }
        return out;
    }
    visibleLines() {
        this.settleFlood();
        const lines = this.keptLines();
        if (this.current)
            lines.push(this.current);
        return lines.map((l) => l.trimEnd());
    }
    visibleText() {
        return this.visibleLines().join('\n');
    }
    tailText(lines) {
        const all = this.visibleLines();
        while (all.length > 0 && all[all.length - 1] === '')
            all.pop();
        return all.slice(Math.max(0, all.length - Math.max(0, lines))).join('\n');
    }
    dispose() {
        this.pending = [];
        this.deferred.clear();
    }
    consume(text) {
        let start = 0;
        for (;;) {
            const nl = text.indexOf('\n', start);
            if (nl === -1)
                break;
            let end = nl;
            while (end > start && text.charCodeAt(end - 1) === 13)
                end--;
            this.appendToCurrent(text.slice(start, end));
            this.endLine();
            start = nl + 1;
        }
        if (start < text.length)
            this.appendToCurrent(text.slice(start));
    }
    appendToCurrent(piece) {
        // A carriage return starts the line over (progress bars); what was there is overwritten.
        const cr = piece.lastIndexOf('\r');
        if (cr !== -1) {
            this.current = '';
            piece = piece.slice(cr + 1);
        }
        this.currentTouched = true;
        this.current += piece.length > this.maxLineChars ? piece.slice(piece.length - this.maxLineChars) : piece;
        // Trim in halves so a long line costs amortized O(1) per character, not a copy per chunk.
        if (this.current.length > 2 * this.maxLineChars)
            this.current = this.current.slice(-this.maxLineChars);
    }
    endLine() {
        let line = this.current;
        if (line.length > this.maxLineChars)
            line = line.slice(-this.maxLineChars);
        this.current = '';
        this.currentTouched = false;
        const seq = this.nextSeq++;
        if (this.trackPending) {
            if (this.pendingChars > this.maxPendingChars)
                this.dropOlderHalf();
            this.pending.push({ seq, text: line, complete: true });
            this.pendingChars += line.length + 1;
        }
        if (this.kept.length < this.keepLines)
            this.kept.push(line);
        else {
            this.kept[this.keptStart] = line;
            this.keptStart = (this.keptStart + 1) % this.keepLines;
        }
    }
    /** Drops the older half at once: dropping one line at a time would be quadratic in a flood. */
    dropOlderHalf() {
        const drop = Math.ceil(this.pending.length / 2);
        for (let i = 0; i < drop; i++)
            this.pendingChars -= this.pending[i].text.length + 1;
        this.skipped += drop;
        this.pending = this.pending.slice(drop);
    }
    keptLines() {
        return [...this.kept.slice(this.keptStart), ...this.kept.slice(0, this.keptStart)];
    }
}

// The output side of a supervised process: every raw chunk goes to the transcript, the in-memory tail
// and the rendered view; detectors run on the view, coalesced, and raise events. No processes here —
// the caller feeds chunks and acts on the events (send keys, stop...).
const DEFAULT_SETTLE_MS = 10;
const DEFAULT_MAX_DELAY_MS = 50;
/**
 * While the view is thinning a flood, a scan waits for the output to pause (settleMs), or this long: a
 * prompt cannot be waiting for an answer while the agent is still pouring out output, and a scan reads
 * (PTY) or decodes (pipe) the whole visible output. The pause at the flood's end is scanned as before.
 */
const FLOOD_MAX_DELAY_MS = 250;
/**
 * calm(): output counts as a flood while more than CALM_MAX_BYTES arrive per CALM_WINDOW_MS (about
 * 1.3 MB/s). A TUI redrawing its spinner or a model streaming text stays far below that; a build log
 * or `cat` of a large file is far above it.
 */
const CALM_WINDOW_MS = 50;
const CALM_MAX_BYTES = 64 * 1024;
/** How long the rate must have stayed below that. */
const CALM_SPAN_MS = 200;
/** A freshly started agent may take this long to print its first byte; silence before then is not calm. */
const CALM_FIRST_OUTPUT_MS = 250;
class OutputPipeline extends EventEmitter {
    mode;
    transcript;
    view;
    detector;
    clock;
    settleMs;
    maxDelayMs;
    timer = null;
    /** When the first change not yet scanned happened, and the latest one. */
    dirtySince = null;
    lastChange = 0;
    /** When the latest chunk arrived (performance.now()): the screen changes later, when xterm parsed it. */
    lastWrite = 0;
    lastOutput = null;
    totalBytes = 0;
    closing = null;
    deadlineTimer = null;
    paste = new BracketedPasteTracker();
    /** Throws DetectRuleError when a rule is unusable (bad regex, conflicting responses). */
    constructor(opts) {
        super();
        this.mode = opts.mode;
        this.clock = opts.clock ?? Date.now;
        this.settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
        this.maxDelayMs = Math.max(this.settleMs, opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
        this.detector = new Detector(compileRules(opts.rules ?? [], opts.presets ?? []), this.clock);
        this.detector.onSlowRule = (rule, ms) => this.emit('slow_rule', rule, ms);
        // The transcript may throw (its directory cannot be created): before anything needs disposing.
        this.transcript = new Transcript(opts.transcriptPath, opts.transcriptMax);
        this.transcript.on('capped', (max) => this.emit('capped', max));
        this.view =
            opts.mode === 'pty'
                ? new RenderedScreen({
                    cols: opts.cols ?? 120,
                    rows: opts.rows ?? 40,
                    // A PTY screen changes when xterm has parsed the bytes, not when they arrive.
                    onParsed: () => this.markDirty(),
                })
                : new LineView({ trackPending: !this.detector.isEmpty });
    }
    /** When the agent last produced output (clock ms), for idle timeouts; null before the first byte. */
    get lastOutputAt() {
        return this.lastOutput;
    }
    /** Bytes received so far (including any beyond the transcript cap). */
    get bytes() {
        return this.totalBytes;
    }
    /**
     * Takes one raw chunk, in arrival order. Every byte is on its way to disk when this returns (see
     * Transcript); the rendered screen may keep a reference to the chunk until it is parsed, so the
     * caller must not reuse the buffer. Chunks after close() are ignored.
     *
     * No copies and no per-chunk allocations here: in a flood this runs thousands of times a second,
     * and whatever it allocates is garbage the process carries until the next collection.
     */
    write(chunk) {
        if (this.closing || chunk.length === 0)
            return;
        this.totalBytes += chunk.length;
        this.lastOutput = this.clock();
        this.lastWrite = performance.now();
        this.transcript.write(chunk);
        // One search for ESC serves both: most of a flood has none.
        const hasEscape = chunk.indexOf(0x1b) !== -1;
        this.view.write(chunk, hasEscape);
        this.paste.write(chunk, hasEscape);
        if (this.view.kind === 'lines')
            this.markDirty();
    }
    /**
     * Resolves once the output is not a flood: when less than CALM_MAX_BYTES per CALM_WINDOW_MS came over
     * the last CALM_SPAN_MS, counting only time after the first byte (a process starting up is silent
     * before it floods) or after CALM_FIRST_OUTPUT_MS without one; at the latest after `maxMs`, or at
     * close().
     *
     * For work that can wait and would slow the reading down: every process proctor starts forks it, and a
     * fork of a process this size blocks its event loop for milliseconds (far longer on a busy machine)
     * while the agent's output piles up; the child processes then compete with the agent for the CPU.
     * Nothing per chunk: a timer compares byte counts. The span is several windows long because on a busy
     * machine the agent (or proctor) can go unscheduled for a window in the middle of a flood.
     */
    calm(maxMs) {
        return new Promise((resolve) => {
            const began = performance.now();
            const initial = this.totalBytes;
            /** [time, bytes so far] at each check, back to the newest one at least CALM_SPAN_MS old. */
            const samples = [[began, initial]];
            const check = () => {
                const now = performance.now();
                samples.push([now, this.totalBytes]);
                while (samples.length > 2 && now - samples[1][0] >= CALM_SPAN_MS)
                    samples.shift();
                const [since, bytesThen] = samples[0];
                const started = bytesThen > initial || since - began >= CALM_FIRST_OUTPUT_MS;
                const span = now - since;
                const calm = started &&
                    span >= CALM_SPAN_MS &&
                    (this.totalBytes - bytesThen) / span < CALM_MAX_BYTES / CALM_WINDOW_MS;
                if (calm || this.closing || now - began >= maxMs)
                    resolve();
                else
                    wait();
            };
            // Checked after the next poll for I/O: a timer runs before it, and after proctor itself went
            // unscheduled the output that piled up meanwhile would not be counted yet.
            const wait = () => {
                setTimeout(() => setImmediate(check), CALM_WINDOW_MS).unref();
            };
            wait();
        });
    }
    /** The agent has turned on bracketed paste (ESC[?2004h, not turned off since): pasted text is one input. */
    get bracketedPaste() {
        return this.paste.enabled;
    }
    /** proctor is about to type into the agent: completions already on screen are old (see Detector.markTyped). */
    markTyped() {
        this.detector.markTyped();
    }
    /** Resolves once everything written so far is rendered and has been through the detectors. */
    async flush() {
        await this.view.flush();
        this.scan();
    }
    /** Call when the PTY is resized: the rendered screen must match the agent's terminal. */
    resize(cols, rows) {
        if (this.view instanceof RenderedScreen)
            this.view.resize(cols, rows);
    }
    /** The last rendered lines of output (for reports and the stop hooks' final_text). Not sanitized. */
    tailText(lines = 40) {
        return this.view.tailText(lines);
    }
    /** Flushes, runs the detectors one last time, closes the transcript. Idempotent. */
    close() {
        this.closing ??= (async () => {
            if (this.deadlineTimer)
                clearTimeout(this.deadlineTimer);
            await this.view.flush();
            this.scan();
            const summary = await this.transcript.close();
            // The view stays readable after close: reports still ask for tailText().
            return summary;
        })();
        return this.closing;
    }
    markDirty() {
        if (this.detector.isEmpty)
            return;
        const now = performance.now();
        this.lastChange = now;
        if (this.dirtySince === null)
            this.dirtySince = now;
        if (!this.timer)
            this.schedule(this.settleMs);
    }
    schedule(ms) {
        this.timer = setTimeout(() => this.onTimer(), ms);
        // Pending detection must not keep a finished process alive.
        this.timer.unref();
    }
    /**
     * Debounce with a ceiling: one timer per quiet period, re-armed (not re-created per chunk) while
     * output keeps coming, so a fast stream costs a scan every maxDelayMs rather than one per chunk.
     */
    onTimer() {
        this.timer = null;
        if (this.dirtySince === null)
            return;
        const now = performance.now();
        // Quiet means no new output either: a thinned flood renders once a window, so the screen alone
        // would look settled between its renders.
        const quietFor = now - Math.max(this.lastChange, this.lastWrite);
        const waitedFor = now - this.dirtySince;
        const maxDelay = this.view.flooding ? Math.max(this.maxDelayMs, FLOOD_MAX_DELAY_MS) : this.maxDelayMs;
        if (quietFor < this.settleMs && waitedFor < maxDelay) {
            this.schedule(Math.min(this.settleMs - quietFor, maxDelay - waitedFor));
            return;
        }
        this.scan();
    }
    scan() {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = null;
        }
        this.dirtySince = null;
        if (this.detector.isEmpty)
            return;
        const view = this.view;
        const events = view instanceof RenderedScreen
            ? this.detector.scanScreen(view)
            : this.detector.scanLines(view.takeLines());
        for (const event of events)
            this.emit('event', event);
        this.scheduleDeadline();
        this.emit('scanned');
    }
    /** A delayed or repeated answer falls due even when the screen does not change: scan then. */
    scheduleDeadline() {
        if (this.deadlineTimer)
            clearTimeout(this.deadlineTimer);
        this.deadlineTimer = null;
        const due = this.detector.nextDeadline();
        if (due === null || this.closing)
            return;
        this.deadlineTimer = setTimeout(() => {
            this.deadlineTimer = null;
            if (!this.closing)
                this.scan();
        }, Math.max(1, due - this.clock()));
        this.deadlineTimer.unref();
    }
}
const PASTE_ON = Buffer.from('\x1b[?2004h', 'latin1');
const PASTE_OFF = Buffer.from('\x1b[?2004l', 'latin1');
const EMPTY = Buffer.alloc(0);
/** Follows DEC mode 2004 (bracketed paste) in the raw output, including a sequence split across chunks. */
class BracketedPasteTracker {
    enabled = false;
    tail = EMPTY;
    write(chunk, hasEscape = chunk.indexOf(0x1b) !== -1) {
        // No ESC in this chunk nor in the previous one's last bytes: no sequence can start or end here, and
        // a one-byte search (memchr) is far cheaper than two searches for a sequence over every chunk.
        if (!hasEscape && this.tail.indexOf(0x1b) === -1) {
            this.tail = EMPTY;
            return;
        }
        // Only the boundary needs a copy: the last bytes of the previous chunk and the first of this one.
        const edge = this.tail.length > 0 ? Buffer.concat([this.tail, chunk.subarray(0, PASTE_ON.length - 1)]) : null;
        let on = chunk.lastIndexOf(PASTE_ON);
        let off = chunk.lastIndexOf(PASTE_OFF);
        if (on === -1 && off === -1 && edge) {
            on = edge.lastIndexOf(PASTE_ON);
            off = edge.lastIndexOf(PASTE_OFF);
        }
        if (on !== -1 || off !== -1)
            this.enabled = on > off;
        this.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (PASTE_ON.length - 1))));
    }
}

// The last bytes of an agent's raw output, kept for the CLI-output usage readers (cli-output.ts): the CLIs
// print their usage summary last, and the transcript may have stopped at its cap long before. One buffer,
// allocated at the first byte; a write copies into it and allocates nothing.
const OUTPUT_TAIL_BYTES = 1024 * 1024;
class OutputTail {
    capacity;
    #buffer = null;
    #end = 0;
    #total = 0;
    constructor(capacity = OUTPUT_TAIL_BYTES) {
        this.capacity = capacity;
    }
    write(chunk) {
        const buffer = (this.#buffer ??= Buffer.allocUnsafe(this.capacity));
        this.#total += chunk.length;
        // The common case, a chunk that fits before the end, copies without making a view.
        if (chunk.length <= this.capacity - this.#end) {
            buffer.set(chunk, this.#end);
            this.#end = (this.#end + chunk.length) % this.capacity;
            return;
        }
        // Only the last `capacity` bytes of a chunk larger than the buffer can survive it.
        const data = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
        const first = this.capacity - this.#end;
        buffer.set(data.subarray(0, first), this.#end);
        buffer.set(data.subarray(first), 0);
        this.#end = data.length - first;
    }
    /** The kept bytes, oldest first, as text. */
    text() {
        const buffer = this.#buffer;
        if (!buffer)
            return '';
        if (this.#total < this.capacity)
            return buffer.toString('utf8', 0, this.#end);
        return Buffer.concat([buffer.subarray(this.#end), buffer.subarray(0, this.#end)]).toString('utf8');
    }
}

/** A summary naming more models than this is not one a CLI printed: the rest are not counted. */
const MAX_MODELS = 50;
/** The usage samples the output's last usage summary gives, or none. */
function usageFromCliOutput(output, context) {
    return claudeResult(output, context) ?? geminiStats(output, context) ?? codexUsage(output, context) ?? [];
}
function sample(api, model, context, figures) {
    // The name is the agent's output: kept short and printable in report.json.
    const name = model.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 200) || 'unknown';
    return { api, model: name, round: context.round, source: 'cli', status: 200, at: context.at, ...figures };
}
function claudeResult(output, context) {
    const models = objectAfter(output, '"modelUsage":');
    if (!models)
        return null;
    const turns = numberAfter(output, '"num_turns":', output.lastIndexOf('"modelUsage":'));
    const samples = [];
    for (const [model, value] of Object.entries(models).slice(0, MAX_MODELS)) {
        if (!isObject(value))
            continue;
        const read = count(value.cacheReadInputTokens);
        const written = count(value.cacheCreationInputTokens);
        const cost = value.costUSD;
        samples.push(sample('anthropic', model, context, {
            input_tokens: count(value.inputTokens) + read + written,
            cached_input_tokens: read,
            cache_write_input_tokens: written,
            output_tokens: count(value.outputTokens),
            requests: 0,
            ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0
                ? { reported_cost_usd: cost }
                : {}),
        }));
    }
    // Claude counts turns, not requests per model: they are the main model's (the one that wrote the most).
    const main = samples.reduce((best, s) => (!best || s.output_tokens > best.output_tokens ? s : best), null);
    if (main)
        main.requests = turns ?? 1;
    return samples.length ? samples : null;
}
function geminiStats(output, context) {
    const stats = objectAfter(output, '"stats":');
    if (!stats || !isObject(stats.models))
        return null;
    const samples = [];
    for (const [model, value] of Object.entries(stats.models).slice(0, MAX_MODELS)) {
        if (!isObject(value) || !isObject(value.tokens))
            continue;
        const tokens = value.tokens;
        samples.push(sample('gemini', model, context, {
            input_tokens: count(tokens.prompt) + count(tokens.tool),
            cached_input_tokens: count(tokens.cached),
            // Thinking is billed as output.
            output_tokens: count(tokens.candidates) + count(tokens.thoughts),
            requests: isObject(value.api) ? count(value.api.totalRequests) : 1,
        }));
    }
    return samples.length ? samples : null;
}
function codexUsage(output, context) {
    const model = lastMatch(output, /^model: (\S+)\s*$/gm)?.[1] ?? modelFromArgv(context.argv) ?? 'codex';
    const turns = [...output.matchAll(/\{"type":"turn\.completed","usage":(\{[^{}]*\})\}/g)];
    if (turns.length) {
        const samples = turns.flatMap((match) => {
            const usage = parse(match[1]);
            if (!usage)
                return [];
            return [
                sample('openai', model, context, {
                    input_tokens: count(usage.input_tokens),
                    cached_input_tokens: count(usage.cached_input_tokens),
                    cache_write_input_tokens: count(usage.cache_write_input_tokens),
                    output_tokens: count(usage.output_tokens),
                    requests: 0,
                }),
            ];
        });
        return samples.length ? samples : null;
    }
    const exit = lastMatch(output, /Token usage: total=[\d,]+ input=(\d[\d,]*)(?: \(\+ (\d[\d,]*) cached\))? output=(\d[\d,]*)/g);
    if (exit) {
        const cached = exit[2] ? number(exit[2]) : 0;
        return [
            sample('openai', model, context, {
                input_tokens: number(exit[1]) + cached,
                cached_input_tokens: cached,
                output_tokens: number(exit[3]),
                requests: 0,
            }),
        ];
    }
    const used = lastMatch(output, /^tokens used:?[ \t]*\r?\n?[ \t]*(\d[\d,]*)[ \t]*\r?$/gm);
    if (!used)
        return null;
    return [
        sample('openai', model, context, {
            input_tokens: 0,
            cached_input_tokens: 0,
            output_tokens: 0,
            unsplit_tokens: number(used[1]),
            requests: 0,
        }),
    ];
}
/** The JSON object that follows the last occurrence of `key` (a pretty-printed or a one-line object). */
function objectAfter(text, key) {
    const at = text.lastIndexOf(key);
    if (at === -1)
        return null;
    const start = text.indexOf('{', at + key.length);
    if (start === -1 || text.slice(at + key.length, start).trim() !== '')
        return null;
    const end = closingBrace(text, start);
    return end === -1 ? null : parse(text.slice(start, end + 1));
}
/** Where the object opened at `start` closes, strings and their escapes skipped; -1 if it never does. */
function closingBrace(text, start) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            if (c === '\\')
                i++;
            else if (c === '"')
                inString = false;
        }
        else if (c === '"')
            inString = true;
        else if (c === '{')
            depth++;
        else if (c === '}' && --depth === 0)
            return i;
    }
    return -1;
}
function numberAfter(text, key, near) {
    const at = text.indexOf(key, Math.max(0, near));
    if (at === -1)
        return null;
    const match = /^\s*(\d+)/.exec(text.slice(at + key.length, at + key.length + 24));
    return match ? Number(match[1]) : null;
}
function parse(text) {
    try {
        const value = JSON.parse(text);
        return isObject(value) ? value : null;
    }
    catch {
        return null;
    }
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** A token count as printed: a non-negative safe integer, anything else 0. */
function count(value) {
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
/** "1,220" → 1220. */
function number(digits) {
    return Number(digits.replace(/,/g, ''));
}
function lastMatch(text, pattern) {
    let last = null;
    for (const match of text.matchAll(pattern))
        last = match;
    return last;
}
function modelFromArgv(argv) {
    if (!argv)
        return null;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if ((arg === '-m' || arg === '--model') && argv[i + 1])
            return argv[i + 1];
        if (arg.startsWith('--model='))
            return arg.slice('--model='.length);
    }
    return null;
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** `text` must already be one line without control characters (see typedPrompt). */
async function typeAndSubmit(target, pipeline, text, typing, signal) {
    pipeline.markTyped();
    const bracketed = typing.paste === 'always' || (typing.paste === 'auto' && pipeline.bracketedPaste);
    target.write(bracketed ? `${PASTE_START}${text}${PASTE_END}` : text);
    await delay(typing.submit_delay, signal);
    const activity = () => (pipeline.detector.hasWorkingRules ? pipeline.detector.workingSeen : pipeline.bytes);
    let attempts = 0;
    while (attempts < typing.submit_attempts && !signal?.aborted && !target.decided) {
        const before = activity();
        attempts++;
        target.write('\r');
        if (await until(pipeline, () => activity() !== before, typing.confirm_timeout, signal))
            return { bracketed, attempts, reacted: true };
    }
    return { bracketed, attempts, reacted: false };
}
function delay(ms, signal) {
    if (ms <= 0 || signal?.aborted)
        return Promise.resolve();
    return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
    });
}
/** Resolves true as soon as `test` holds after a scan of the output, false after `timeoutMs`. */
function until(pipeline, test, timeoutMs, signal) {
    if (test())
        return Promise.resolve(true);
    return new Promise((resolve) => {
        const finish = (value) => {
            clearTimeout(timer);
            pipeline.off('scanned', check);
            signal?.removeEventListener('abort', abort);
            resolve(value);
        };
        const check = () => {
            if (test())
                finish(true);
        };
        const abort = () => finish(false);
        const timer = setTimeout(() => finish(test()), timeoutMs);
        pipeline.on('scanned', check);
        signal?.addEventListener('abort', abort, { once: true });
    });
}

// Ending an interactive agent once the session is decided. A TUI left at its prompt would wait until the
// total timeout, so proctor first asks it to exit the way a person would (agent.quit, e.g. "/exit" and
// Enter: the agent saves its session and restores the terminal), and stops it the hard way (SIGTERM, grace,
// SIGKILL) only if it is still running after `graceMs`.
async function quitAgent(target, keys, { submitDelayMs, graceMs }) {
    if (keys) {
        // A final Enter goes as its own write, like typed reasons: a TUI may take one long write for a paste.
        const enter = keys.length > 1 && keys.endsWith('\r');
        const text = enter ? keys.slice(0, -1) : keys;
        let delivered = (await target.write(text, { final: true })).delivered;
        if (delivered && enter) {
            await setTimeout$1(submitDelayMs);
            delivered = (await target.write('\r', { final: true })).delivered;
        }
        if (delivered && (await exitsWithin(target.finished, graceMs)))
            return { graceful: true };
    }
    void target.stop('requested');
    return { graceful: false };
}
function exitsWithin(finished, ms) {
    return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        void finished.then(() => {
            clearTimeout(timer);
            resolve(true);
        });
    });
}

/** How often an interactive agent the native hook let stop is checked for still showing itself busy. */
const SETTLE_CHECK_MS = 500;
class LiveStop {
    ctx;
    run;
    pipeline;
    native;
    /** The round, counted on when a block is typed into the agent. */
    round;
    /** The verdict the stop hooks gave while the agent still ran, if they did. */
    decided = null;
    ended = false;
    exited = false;
    evaluation = null;
    constructor(ctx, run, pipeline, 
    /** The agent's own Stop hook runs the stop hooks (agent.adapter): a completion on screen only ends it. */
    native) {
        this.ctx = ctx;
        this.run = run;
        this.pipeline = pipeline;
        this.native = native;
        this.round = ctx.round;
        void run.finished.then(() => (this.exited = true));
    }
    /** A stop is being decided now (the agent is not told anything else meanwhile). */
    get deciding() {
        return this.evaluation !== null;
    }
    /** The agent said it is done: decide, unless a decision is under way. */
    completion() {
        this.evaluation ??= this.onCompletion().finally(() => (this.evaluation = null));
    }
    /** Resolves once a decision under way has settled (the agent exited meanwhile). */
    async settled() {
        await this.evaluation;
    }
    /**
     * The agent's own hook let an interactive agent (one with agent.quit) stop: it is ended once the screen
     * stops showing it busy, whether or not its "done" line came before the hook answered (that line may be
     * drawn while the hook still runs, and is then not a new completion). Returns the unsubscribe.
     */
    watchNative() {
        const native = this.native;
        if (!native || !this.ctx.config.agent.quit)
            return () => undefined;
        return native.onSettle(() => {
            void (async () => {
                do {
                    await new Promise((resolve) => setTimeout(resolve, SETTLE_CHECK_MS));
                } while (!this.ended && !this.exited && native.settled && this.pipeline.detector.workingNow);
                const ending = native.settled && !this.exited ? native.ending() : null;
                if (ending)
                    await this.end(ending);
            })();
        });
    }
    async onCompletion() {
        if (this.native) {
            const ending = this.native.settled ? this.native.ending() : null;
            if (ending)
                await this.end(ending);
            return;
        }
        try {
            await this.decideOnScreen();
        }
        finally {
            this.ctx.progress();
        }
    }
    async decideOnScreen() {
        const stopRound = await this.ctx.stopRound();
        const { reasons, step } = await stopRound.decide({ round: this.round, finalText: this.pipeline.tailText(40), stopReason: 'completed' }, { running: true, nativeHooks: false });
        if (this.ctx.halts.signal)
            return;
        if (step.kind !== 'continue') {
            await this.end(step.kind === 'block'
                ? { verdict: 'block', reason: step.reason, ...(step.cause ? { cause: step.cause } : {}) }
                : { verdict: step.kind, reason: null });
            return;
        }
        this.round++;
        this.ctx.report.round(this.round);
        this.ctx.report.event('continue', `round ${this.round}: typing the stop hooks' reasons into the agent`, {
            data: { reasons },
        });
        await this.typeReasons(stopRound, reasons);
    }
    async typeReasons(stopRound, reasons) {
        const { config, report, halts } = this.ctx;
        const typed = await typeAndSubmit(this.run, this.pipeline, stopRound.typedLine(reasons), config.agent.typing, halts.hooks.signal);
        report.event(typed.reacted ? 'continue' : 'warning', typed.reacted
            ? `typed the reasons${typed.bracketed ? ' as a bracketed paste' : ''} and pressed Enter ` +
                `${typed.attempts === 1 ? 'once' : `${typed.attempts} times`}; the agent reacted`
            : `typed the reasons and pressed Enter ${typed.attempts} times, but the agent showed no activity`, { data: { ...typed } });
    }
    /** The session is decided while the agent still runs: ask it to exit (agent.quit), else stop it. */
    async end(verdict) {
        if (this.ended)
            return;
        this.ended = true;
        this.decided = verdict;
        this.run.decide();
        const { config, report } = this.ctx;
        const quit = await quitAgent(this.run, config.agent.quit ? decodeKeys(config.agent.quit) : undefined, {
            submitDelayMs: config.agent.typing.submit_delay,
            graceMs: config.timeouts.grace,
        });
        if (config.agent.quit)
            report.event(quit.graceful ? 'exit' : 'warning', quit.graceful
                ? `asked the agent to exit (agent.quit) and it did`
                : `the agent did not exit within ${formatDuration(config.timeouts.grace)} of agent.quit; stopping it`);
    }
}

class Responses {
    ctx;
    run;
    pipeline;
    live;
    /** Why a detector rule stopped the agent (respond: stop), for the session's reason. */
    stopReason = null;
    /** The agent gave up on a failure of its own (a detector rule of kind agent_error). */
    agentError = null;
    answers = new Set();
    constructor(ctx, run, pipeline, live) {
        this.ctx = ctx;
        this.run = run;
        this.pipeline = pipeline;
        this.live = live;
    }
    /** Resolves once every answer written so far has been delivered or refused. */
    async delivered() {
        await Promise.all([...this.answers]);
    }
    onDetection = (event) => {
        const { report, config, checkpoints } = this.ctx;
        const response = event.response;
        if (event.attempt > 1) {
            // The prompt is still on screen after the last answer (respond.retry_after): answer it again.
            if (response.text !== undefined)
                this.answer(event, response.text, `${response.type} again (attempt ${event.attempt}, the prompt is still on screen): ${JSON.stringify(response.text)}`);
            this.ctx.progress();
            return;
        }
        report.event(event.kind, event.text, { name: event.rule, data: { match: event.match, fire: event.fire } });
        if (event.kind === 'approval_request')
            void fire(this.ctx.lifecycle, 'approval_request', lifecycleExtra.approval_request(event.rule, event.text));
        if (config.checkpoints.on_events.includes(event.kind))
            checkpoints.onEvent(event.kind);
        if (event.kind === AGENT_ERROR_KIND)
            this.agentError ??= agentErrorReason(event);
        if ((response.type === 'send' || response.type === 'deny') && response.text !== undefined) {
            this.answer(event, response.text, `${response.type}: ${JSON.stringify(response.text)}`);
        }
        else if (response.type === 'stop') {
            this.stopReason = this.agentError ?? `stopped by detector rule "${event.rule}": ${event.text}`;
            report.event('response', 'stop the agent', { name: event.rule });
            void this.run.stop('detector');
            return;
        }
        else {
            report.event('response', 'notify', { name: event.rule });
        }
        if (event.kind === 'completion')
            this.live.completion();
        if (event.kind === 'idle' && this.ctx.mode === 'pty' && !this.live.deciding)
            void this.tellWarnings();
        this.ctx.progress();
    };
    /**
     * Recorded once the write settles: an answer that never reached the agent is not counted as one. The
     * first answer and its repeats (respond.retry_after) go the same way.
     */
    answer(event, text, what) {
        const data = { attempt: event.attempt, fire: event.fire };
        const written = this.run.write(text).then((result) => this.ctx.report.event('response', result.delivered ? what : `${what} — not delivered: ${result.reason}`, {
            name: event.rule,
            data: result.delivered ? { delivered: true, ...data } : { ...result, ...data },
        }));
        this.answers.add(written);
        void written.finally(() => this.answers.delete(written));
    }
    /**
     * An interactive agent waiting at its prompt (a detector rule of kind `idle`) hears the policy's
     * warnings about its work so far, typed in as one line; each warning once.
     */
    async tellWarnings() {
        const { checkpoints, halts, config, report } = this.ctx;
        await checkpoints.settle('event');
        if (halts.signal || this.live.deciding)
            return;
        const warnings = checkpoints.takeWarnings();
        if (warnings.length === 0)
            return;
        // Typed like the stop hooks' reasons (a bracketed paste when the agent asked for it, then Enter).
        const typed = await typeAndSubmit(this.run, this.pipeline, typedNotice(warnings).replace(/\r$/, ''), config.agent.typing, halts.hooks.signal);
        report.event('policy_notice', `told the agent about ${warnings.length} policy warning(s)`, {
            data: {
                violations: warnings.map((v) => ({ file: v.file, constraint: v.constraint })),
                typing: { ...typed },
            },
        });
    }
}

// One agent attempt: one process of the agent, from its spawn to its exit. It is spawned (PTY or pipe, with
// the session's timeouts), its output goes to the terminal, the transcript and the detectors, detections are
// answered (responses.ts), a stop on screen is decided while it runs (live-stop.ts), the user's keys reach an
// interactive agent; its exit is recorded and what it decided comes back for the rounds (rounds.ts).
/**
 * The longest the checkpoint machinery waits for the agent's first flood of output to end: changes made
 * meanwhile are in the next checkpoint all the same (git decides what changed), the watcher only counts.
 */
const LAUNCH_AFTER_FLOOD_MAX_MS = 5_000;
/** Runs the agent once (one process), answering detections, until it exits or is stopped. */
async function superviseAgent(ctx, plan) {
    const { report, mode } = ctx;
    const { pipeline, run, usageTail } = openAgentRun(ctx, plan.command);
    // The screen as it was when the session was decided: what the agent draws while being ended (Claude
    // Code redraws its API-key dialog on SIGTERM) is not what it ended on.
    let tailAtDecision = null;
    run.once('decided', () => (tailAtDecision = pipeline.tailText(40)));
    recordRunEvents(ctx, run, pipeline);
    const live = new LiveStop(ctx, run, pipeline, plan.native);
    const responses = new Responses(ctx, run, pipeline, live);
    const offSettle = live.watchNative();
    pipeline.on('event', responses.onDetection);
    const stopForwarding = forwardKeys(ctx, run);
    try {
        ctx.halts.run = run;
        run.start();
        if (mode === 'pty')
            loadRenderer().catch((error) => report.event('warning', `the terminal renderer did not load (${error.message}): detection sees no output; the transcript keeps it`));
        report.event('spawn', `agent started (pid ${run.pid}, ${mode})`, {
            data: { pid: run.pid, round: ctx.round },
        });
        // The checkpoint store, the watcher and the stale-index sweep start git processes; each forks proctor,
        // which stalls its reading. An agent that starts by flooding its output (a build log, a large file)
        // would wait on those stalls, so they start once the flood is over (docs/architecture.md).
        const calm = pipeline.calm(LAUNCH_AFTER_FLOOD_MAX_MS);
        ctx.checkpoints.agentRunning(true, calm);
        // The stop round's code loads while the agent works, not in the wait after its exit.
        void calm.then(() => {
            void ctx.housekeeping();
            ctx.stopRound().catch(() => undefined);
        });
        const exit = await run.finished;
        // The exit is recorded as it happened, before the checkpoints react to it (which may fork git).
        recordExit(report, exit);
        ctx.checkpoints.agentRunning(false);
        // A completion evaluation may still be running (the agent exited meanwhile): let it settle.
        await live.settled();
        const summary = await pipeline.close();
        if (!plan.metered)
            readCliUsage(usageTail, report, ctx.round, commandArgv(plan.command));
        await responses.delivered();
        return {
            exit,
            round: live.round,
            outputTail: tailAtDecision ?? pipeline.tailText(40),
            transcript: { bytes: summary.bytes, capped: summary.capped },
            decided: live.decided,
            stopReason: responses.stopReason,
            agentError: responses.agentError,
        };
    }
    finally {
        offSettle();
        stopForwarding();
    }
}
/** The agent's process (not started yet) and where its output goes. */
function openAgentRun(ctx, command) {
    const { config, opts, mode, report } = ctx;
    const transcriptPath = join(ctx.dir, ctx.round === 1 ? 'transcript.log' : `transcript.round-${ctx.round}.log`);
    // A pipe session never loads the terminal renderer (memory; see screen.ts). A PTY session's screen
    // loads it after the spawn (the constructor only starts the import) and renders the output that
    // came meanwhile then: the agent does not wait for xterm.
    const pipeline = new OutputPipeline({
        mode,
        cols: config.agent.cols,
        rows: config.agent.rows,
        transcriptPath,
        transcriptMax: config.output.transcript_max,
        rules: config.detect,
        presets: config.detect_presets,
    });
    // The CLI's own usage summary, printed last (usage/cli-output.ts), read when the process has ended.
    const usageTail = new OutputTail();
    const run = new AgentRun({
        spawn: {
            command,
            // agent.cwd is relative to the repository root (docs/configuration.md), wherever proctor was started.
            cwd: config.agent.cwd ? resolve(findRepoRoot(opts.cwd) ?? opts.cwd, config.agent.cwd) : opts.cwd,
            env: {
                ...ctx.env,
                ...config.agent.env,
                PROCTOR_SESSION_ID: ctx.sessionId,
                PROCTOR_ROUND: String(ctx.round),
            },
            mode,
            // Without a PTY the agent's stdin stays an open pipe when a detector may answer (respond: send or
            // deny), so the answer reaches it. Otherwise it is closed at spawn: CLIs such as `codex exec` and
            // `claude -p` read a piped stdin to its end before they start, and would wait forever.
            keepStdinOpen: pipeline.detector.rules.some((rule) => rule.response.type === 'send' || rule.response.type === 'deny'),
            cols: config.agent.cols,
            rows: config.agent.rows,
            graceMs: config.timeouts.grace,
            registry: { dir: ctx.registryDir, role: 'agent', session: ctx.sessionId },
            label: 'agent',
        },
        // The session's length, not each run's: a re-run gets what is left, so rounds sent back cannot add up
        // to max_stop_rounds × timeouts.total.
        totalTimeoutMs: Math.max(1, config.timeouts.total - report.elapsed()),
        idleTimeoutMs: config.timeouts.idle,
        output: {
            write: (chunk) => {
                pipeline.write(chunk);
                usageTail.write(chunk);
            },
            flush: () => pipeline.flush(),
        },
    });
    return { pipeline, run, usageTail };
}
/** The echo, and the report's entries for the transcript cap, slow detect rules and the timeouts. */
function recordRunEvents(ctx, run, pipeline) {
    const { report, config } = ctx;
    // Only with an echo: the run copies each chunk for its 'output' listeners.
    const echo = ctx.opts.output;
    if (echo)
        run.on('output', (chunk) => echo.write(chunk));
    pipeline.on('capped', (max) => report.event('output_capped', `transcript capped at ${max} bytes`));
    pipeline.on('slow_rule', (rule, ms) => report.event('detector', `warning: detect rule "${rule}" took ${Math.round(ms)} ms on one line; disabled`, {
        name: rule,
    }));
    run.on('timeout', () => report.event('timeout', `total timeout of ${formatDuration(config.timeouts.total)} reached`));
    run.on('idle_timeout', ({ limitMs }) => report.event('idle_timeout', `no output for ${formatDuration(limitMs)}`));
}
/** Forwards the user's keystrokes to an interactive PTY agent; returns the undo. */
function forwardKeys(ctx, run) {
    const input = ctx.mode === 'pty' ? ctx.opts.input : null;
    if (!input)
        return () => undefined;
    // A keystroke's delivery is not awaited: write() answers undelivered instead of rejecting.
    const forward = (data) => void run.write(data);
    const rawWasOn = input.isRaw;
    input.setRawMode?.(true);
    input.on('data', forward);
    input.resume();
    return () => {
        input.off('data', forward);
        input.setRawMode?.(rawWasOn);
        input.pause();
    };
}
function recordExit(report, exit) {
    report.event('exit', exit.cause
        ? `agent stopped (${exit.cause})${exit.killed ? ' with SIGKILL after the grace period' : ''}`
        : exit.signal
            ? `agent killed by ${exit.signal}`
            : `agent exited with code ${exit.exitCode}`, { data: { exit_code: exit.exitCode, signal: exit.signal, cause: exit.cause, killed: exit.killed } });
}
/**
 * The usage the agent CLI printed about itself, for a session without the metering proxy (with it, the proxy's
 * count is the only one: a summary the agent prints is its own word, even before its first proxied call).
 */
function readCliUsage(tail, report, round, argv) {
    if (report.usage.samples().some((s) => s.source === 'proxy'))
        return;
    for (const sample of usageFromCliOutput(tail.text(), { round, at: report.elapsed(), argv }))
        report.usage.add(sample);
}

// The session's metering proxy for the model APIs (model_api, budget; src/proxy/): started before anything
// that sees the agent's environment, since it swaps the model key there for its placeholder. Its stop (a
// spent budget, a refused key) halts the session.
/** Starts model_api's metering proxy for the session, or null when it is off. */
async function startModelApiProxy(ctx) {
    const { opts, config, report } = ctx;
    if (!config.model_api.proxy && !hasBudget(config))
        return null;
    // Deferred: the proxy (its server, the usage readers, the API table) costs 30–50 ms to load, and only a
    // session with model_api.proxy or a budget runs it.
    const { startSessionProxy } = await import('./session-proxy-BqjefJ9I.js');
    return startSessionProxy({
        config,
        base: opts.env ?? process.env,
        agentEnv: ctx.env,
        meter: ctx.usage.meter,
        pricer: ctx.usage.pricer,
        ...(opts.batchUsage ? { batch: opts.batchUsage } : {}),
        round: () => ctx.round,
        startedAt: Date.now(),
        onWarning: (reason) => report.event('warning', reason),
        onBudgetWarning: (reason) => report.event('budget', reason),
        onStop: (stop) => ctx.halts.proxyStopped(stop),
    });
}

// The session's rounds: what starts before the first (the metering proxy, `session_start`, the baseline
// checkpoint, the agent's own Stop hook wired to proctor), then one agent attempt per round until an ending:
// a halt (halts.ts), what the attempt decided by itself (endings.ts), or the stop round's step — stop, give
// up, or re-run agent.continue with the reasons.
function newWork() {
    return {
        modelProxy: null,
        nativeStops: null,
        native: null,
        outputTail: '',
        transcript: { bytes: 0, capped: false },
    };
}
/**
 * Everything before the first round; the agent has not been spawned when it returns. Returns the agent's
 * command with its native Stop hook wired (as given for a generic agent).
 */
async function beginSession(ctx, work) {
    const { opts, checkpoints, report } = ctx;
    // Before anything that sees the environment runs (session_start hooks, the agent): the model key is
    // swapped for the proxy's placeholder there.
    work.modelProxy = await startModelApiProxy(ctx);
    await fire(ctx.lifecycle, 'session_start', lifecycleExtra.session_start(commandArgv(opts.command), opts.cwd, ctx.mode));
    const starting = checkpoints.start();
    // A PTY agent needs node-pty's native module (~7 ms to load): loaded while the git processes the
    // checkpoints wait for run (`proctor run` started them before it read the config). If it cannot
    // load, the spawn says so.
    if (ctx.mode === 'pty') {
        try {
            loadNodePty();
        }
        catch {
            // reported by the spawn
        }
    }
    await starting;
    opts.listener?.started?.(report.snapshot());
    return wireNativeStop(ctx, work);
}
/** The agent's own Stop hook (agents/native) hands each stop to this session's stop round. */
async function wireNativeStop(ctx, work) {
    const { config, opts, report } = ctx;
    const adapter = config.agent.adapter;
    work.nativeStops =
        adapter === 'generic'
            ? null
            : // Deferred: the native adapters and their relay socket cost ~25 ms to load, and a generic agent
                // (no agent.adapter) never uses them.
                new (await import('./native-stop-_bC4O77j.js')).NativeStops({
                    adapter,
                    sessionId: ctx.sessionId,
                    maxStopRounds: config.max_stop_rounds,
                    report,
                    firstRound: () => ctx.round,
                    evaluate: (round, finalText) => ctx
                        .stopRound()
                        .then((stopRound) => stopRound.evaluate({ round, finalText, stopReason: 'native' }))
                        .finally(ctx.progress),
                });
    const target = await work.nativeStops?.start();
    const native = await prepareNativeHooks(config, opts.command, opts.cwd, opts.configFile ?? null, ctx.env, target);
    for (const file of native.files)
        ctx.hiddenPaths.add(file);
    Object.assign(ctx.env, native.env);
    work.native = native;
    if (native.active)
        report.event('session_start', `wired proctor into ${adapter}'s own Stop hook: ${native.summary}`);
    return native;
}
/** One agent attempt per round until the session has its ending. */
async function runRounds(ctx, work, native) {
    // The proxy's arguments (Codex's provider) go on every run, agent.continue's re-runs too.
    const pointed = (c) => work.modelProxy?.command(c) ?? c;
    let command = pointed(native.command);
    for (;;) {
        // Interrupted between rounds (e.g. during the stop hooks): no new agent run starts.
        const halted = ctx.halts.pending();
        if (halted)
            return halted;
        ctx.report.round(ctx.round);
        const attempt = await superviseAgent(ctx, {
            command,
            native: native.active ? work.nativeStops : null,
            metered: work.modelProxy !== null,
        });
        ctx.halts.run = null;
        // An answer the agent hung up on is still read for its usage: what it spent counts before the stop.
        if (attempt.exit.cause === null && !ctx.halts.signal)
            await work.modelProxy?.settled(ctx.halts.hooks.signal);
        keepAttempt(ctx, work, attempt);
        const ending = ctx.halts.pending() ?? endingOfAttempt(attempt, ctx.halts.signal, ctx.config);
        if (ending)
            return ending;
        // The agent's own Stop hook already ran the stop hooks; they are not run again.
        const nativeEnding = work.nativeStops?.ending();
        if (nativeEnding)
            return completed(nativeEnding.verdict, nativeEnding.reason);
        const next = await stopAfterExit(ctx, work, attempt);
        if (next.kind === 'halted')
            continue; // the top of the loop records the halt
        if (next.kind === 'end')
            return next.ending;
        ctx.round++;
        command = pointed(native.wire(next.command));
    }
}
function keepAttempt(ctx, work, attempt) {
    work.outputTail = attempt.outputTail;
    work.transcript = {
        bytes: work.transcript.bytes + attempt.transcript.bytes,
        capped: work.transcript.capped || attempt.transcript.capped,
    };
    ctx.round = attempt.round;
}
/** The agent finished by itself: the stop round decides whether it may stop. */
async function stopAfterExit(ctx, work, attempt) {
    const { report, halts } = ctx;
    const adapter = ctx.config.agent.adapter;
    const nativeActive = work.native?.active === true;
    if (nativeActive) {
        report.event('warning', `${adapter} never called proctor's Stop hook: proctor runs the stop hooks itself now that it exited`);
    }
    const stopRound = await ctx.stopRound();
    const { reasons, step } = await stopRound.decide({ round: ctx.round, finalText: attempt.outputTail, stopReason: 'completed' }, {
        running: false,
        nativeHooks: nativeActive && (work.nativeStops?.called ?? false),
        nativeNote: nativeActive ? `${adapter} never called proctor's Stop hook, and ` : '',
    });
    ctx.progress();
    if (halts.signal || halts.fatal)
        return { kind: 'halted' };
    if (step.kind !== 'continue') {
        const ending = completed(step.kind, step.kind === 'block' ? step.reason : null, step.kind === 'block' ? step.cause : undefined);
        return { kind: 'end', ending };
    }
    if (step.plan.kind !== 'rerun')
        throw new Error('unreachable: an exited agent is re-run');
    report.event('continue', `round ${ctx.round + 1}: re-running the agent with agent.continue`, {
        data: { reasons },
    });
    return { kind: 'rerun', command: step.plan.command };
}

// One supervised session: the agent under the supervisor, checkpoints and policy on its work, stop hooks
// deciding whether it may stop (and sending it back when they block), lifecycle hooks, and the report.
// This file is the table of contents; each room has one job (docs/architecture.md#the-sessions-rooms):
//   context.ts    the shared context, opened once: config, environment, report, hooks, checkpoints, halts
//   halts.ts      what halts a session from outside its rounds: signals, failing checkpoints, the proxy
//   rounds.ts     what starts before the first round, then one attempt per round until an ending
//   attempt.ts    one agent process, spawn to exit (responses.ts answers detections, live-stop.ts decides
//                 the stop of an agent that keeps running)
//   stop-round.ts THE stop round: stop hooks, policy gate, and the step after it (loaded at the first stop)
//   endings.ts    every way a session ends, as one named Ending
//   finish.ts     the end of every session: final checkpoint, push, session_end, report.json
// Every way a session can end — exit, timeout, a detector, SIGINT/SIGTERM, a throw — funnels into
// finishSession(), which never throws and leaves nothing running.
async function runSession(opts) {
    const ctx = await openSession(opts);
    const work = newWork();
    let ending;
    try {
        const native = await beginSession(ctx, work);
        ending = await runRounds(ctx, work, native);
    }
    catch (error) {
        ctx.report.event('error', error.message);
        ending = endingOfError(error, ctx.halts.signal);
    }
    return finishSession(ctx, ending, work);
}

export { Budget as B, isAgentSessionId as a, agentSessionStored as b, exitCodeForSignal as e, fire as f, hasBudget as h, installShutdownSignals as i, limitsOf as l, runSession as r, startCheckpointReads as s, withDeadline as w };
