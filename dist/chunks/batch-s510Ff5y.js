const { existsSync, readdirSync, rmSync, mkdirSync, cpSync, renameSync, writeFileSync } = process.getBuiltinModule("node:fs");
const { join, resolve } = process.getBuiltinModule("node:path");
import { s as startCheckpointReads, e as exitCodeForSignal, r as runSession, B as Budget, l as limitsOf } from './session-BRW2EmEt.js';
import { U as UsageMeter } from './summary-BBJud0Oe.js';
import { b as sanitizeRefPart, m as makeSessionId, a as agentEnvironment, p as pricerFor } from './git-blockers-Dy_7XOmu.js';
import { a as aggregateReports } from './aggregate-Bb_hkxeJ.js';
import { L as LifecycleHooks } from './payloads-CTBGsIwZ.js';
import { _ as pLimit, $ as findRepoRoot, G as Git, a0 as worktreesPath, a1 as STATE_DIR_NAME, a2 as readDetachedHead, o as readRegularFile, a3 as sessionPath, w as writeFileAtomic, e as ensureStateDir, f as formatDuration } from './checkpoints-create-CJcO-Brq.js';
const { mkdir, rm, readdir } = process.getBuiltinModule("node:fs/promises");
import { r as reconcileOrphans } from './registry-DMAlOnZf.js';

// The batch's task pool: at most `concurrency` tasks in flight, taken in order (p-limit, the same limiter
// the git runner uses). Once `signal` aborts, the tasks not yet taken are handed to `skip` instead of being
// started (the running ones finish on their own terms: they watch the same signal).
async function runPool(opts) {
    const limit = pLimit(Math.max(1, opts.concurrency));
    await Promise.all(Array.from({ length: opts.count }, (_, index) => limit(async () => (opts.signal.aborted ? opts.skip(index) : await opts.run(index)))));
}

/** A batch that cannot start: no repository, no commits, no tasks. Exit code 2 (usage). */
class BatchError extends Error {
    exitCode = 2;
    constructor(message) {
        super(message);
        this.name = 'BatchError';
    }
}
function tasksFromConfig(config) {
    return config.batch.tasks.map((task, index) => {
        let command;
        if (task.command && task.command.length > 0)
            command = { file: task.command[0], args: task.command.slice(1) };
        else if (task.shell)
            command = { shell: task.shell };
        // The config loader rejects this already; a config built in code might not have been through it.
        else
            throw new BatchError(`batch.tasks[${index}] (${task.name}) needs a command or a shell`);
        return {
            name: task.name,
            command,
            role: task.role ?? null,
            ...(task.timeout !== undefined ? { timeoutMs: task.timeout } : {}),
        };
    });
}
/**
 * `--task name=command`: everything after the first `=` is one shell string (run by /bin/sh -c), so
 * `--task lint='npm run lint -- --fix'` works as typed.
 */
function parseTaskFlag(value) {
    const eq = value.indexOf('=');
    const name = eq > 0 ? value.slice(0, eq).trim() : '';
    const shell = eq > 0 ? value.slice(eq + 1).trim() : '';
    if (!name || !shell) {
        throw new BatchError(`--task ${JSON.stringify(value)}: expected name=command, e.g. --task tests='npm test' ` +
            '(the command after = is run by /bin/sh -c)');
    }
    return { name, command: { shell }, role: null };
}
/** `<batch>-<index>-<name>`: unique within the batch even when names repeat, and valid in a git ref. */
function childSessionId(batchId, index, name) {
    return sanitizeRefPart(`${batchId}-${index}-${sanitizeRefPart(name)}`);
}
/** PROCTOR_BATCH_ID if set; else like a session id (run/attempt/job in CI, a timestamp locally). */
function makeBatchId(env) {
    const explicit = env.PROCTOR_BATCH_ID?.trim();
    if (explicit)
        return sanitizeRefPart(explicit);
    // PROCTOR_SESSION_ID names one session; every child of a batch gets its own id instead.
    return makeSessionId({ ...env, PROCTOR_SESSION_ID: undefined });
}
/** The child's own config: the task's timeout replaces timeouts.total. */
function childConfig(config, task) {
    const next = structuredClone(config);
    if (task.timeoutMs !== undefined)
        next.timeouts.total = task.timeoutMs;
    return next;
}

// The batch's git worktrees: detached worktrees at the batch's base commit, under
// `.proctor/worktrees/<batch>/` (ignored by the `.proctor/.gitignore`, so the user's `git status` never
// shows them), made, recycled for the next task, and removed. Each worktree has its own `.proctor/`; a
// child's session state is moved back to the repository's `.proctor/sessions/` before its worktree is
// reset or removed, so reports outlive the worktrees.
/** The repository a batch runs in, or a BatchError saying how to get one. */
async function openBatchRepo(cwd, env) {
    const root = findRepoRoot(cwd);
    if (!root) {
        throw new BatchError(`proctor batch: ${cwd} is not inside a git repository. Each task runs in its own git worktree, ` +
            'so run the batch inside a repository (git init && git commit), or run one session with proctor run');
    }
    const git = new Git({ cwd: root, env });
    const base = await git.headCommit();
    if (!base) {
        throw new BatchError(`proctor batch: the repository at ${root} has no commits yet. Each task's worktree starts at HEAD, ` +
            'so commit first (git commit --allow-empty -m init)');
    }
    const dirty = (await git.statusZ({ untracked: 'normal' })).length;
    return { root, git, base, dirty, serial: serializer() };
}
function serializer() {
    let tail = Promise.resolve();
    return (work) => {
        const result = tail.then(work, work);
        tail = result.catch(() => undefined);
        return result;
    };
}
function worktreesDir(root, batchId) {
    return join(worktreesPath(root), batchId);
}
/**
 * A fresh worktree is made in two steps: `git worktree add --no-checkout` under the lock (fast: no files;
 * after it, the worktree exists and must be removed), then the checkout outside it, so the slow part —
 * writing every file — runs in parallel for concurrent tasks. This is what `git worktree add` does itself
 * (`reset --hard` in the new worktree), split in two. Files are written by `read-tree -u --reset`, which
 * the runner runs in its shadow git dir: a `filter.*.smudge` an earlier task's agent put in the shared
 * .git/config is never run (docs/checkpoints.md, "proctor's own git").
 */
async function registerWorktree(repo, dir) {
    await mkdir(join(dir, '..'), { recursive: true });
    await repo.serial(() => repo.git.raw(['worktree', 'add', '--quiet', '--no-checkout', '--detach', '--', dir, repo.base]));
}
async function checkoutWorktree(repo, dir) {
    await repo.git.at(dir).raw(['read-tree', '-u', '--reset', 'HEAD']);
}
/** The worktree's administrative directory, from its `.git` link (`gitdir: <path>`). */
function worktreeGitDir(dir) {
    // The task's agent had this worktree: its `.git` may be a FIFO now, which a plain read would block on.
    const link = readRegularFile(join(dir, '.git'), 64 * 1024).toString('utf8');
    const match = /^gitdir: (.+)$/m.exec(link);
    if (!match)
        throw new Error(`${join(dir, '.git')} is not a worktree link`);
    return resolve(dir, match[1].trim());
}
/**
 * State a task can leave in its worktree that a checkout and a clean do not undo: an operation in
 * progress, a sparse checkout, per-worktree config, initialized submodules, a lock. A worktree with any
 * of them is replaced.
 */
const UNRECYCLABLE = [
    'rebase-merge',
    'rebase-apply',
    'sequencer',
    'BISECT_LOG',
    'BISECT_START',
    'info/sparse-checkout',
    'config.worktree',
    'modules',
    'locked',
    'index.lock',
];
/** The files of an operation in progress that `git checkout` removes (git's remove_branch_state). */
const BRANCH_STATE = [
    'MERGE_HEAD',
    'MERGE_RR',
    'MERGE_MSG',
    'MERGE_MODE',
    'AUTO_MERGE',
    'SQUASH_MSG',
    'CHERRY_PICK_HEAD',
    'REVERT_HEAD',
];
/**
 * Makes a finished task's worktree indistinguishable from a fresh one for the next task: HEAD detached at
 * the base (the task may have committed or switched branches; branches it made stay, as they would),
 * every tracked file as in the base, and no untracked or ignored file left — its `.proctor/` (run records,
 * session state) included. Only what the task touched is rewritten. Throws when the worktree is not
 * plainly ours any more (its `.git` link replaced or gone: git would then find the main repository and
 * reset that), or holds state these commands do not undo; the caller then uses a fresh worktree.
 */
async function recycleWorktree(repo, lease) {
    let gitDir;
    try {
        gitDir = worktreeGitDir(lease.dir);
    }
    catch (error) {
        throw new Error(`its .git link is gone or broken (${error.message})`, { cause: error });
    }
    if (gitDir !== lease.gitDir)
        throw new Error(`its .git link points at ${gitDir}, not ${lease.gitDir}`);
    const left = UNRECYCLABLE.filter((name) => existsSync(join(gitDir, name)));
    if (left.length > 0)
        throw new Error(`the task left ${left.join(', ')} in ${gitDir}`);
    const git = repo.git.at(lease.dir);
    // `checkout --detach --force <base>` in two steps, so no smudge filter of the repository's config runs:
    // HEAD is moved only when the task moved it (one git process less in the common case).
    if (readDetachedHead(gitDir) !== repo.base) {
        await git.raw(['update-ref', '--no-deref', '-m', 'proctor: recycle', 'HEAD', repo.base]);
    }
    await git.raw(['read-tree', '-u', '--reset', repo.base]);
    // What checkout clears besides: a merge, cherry-pick or revert the task left half-done.
    for (const name of BRANCH_STATE)
        rmSync(join(gitDir, name), { force: true });
    await git.raw(['clean', '-ffdxq']);
}
/**
 * Removes a task's worktree (its checkpoints live on in refs). The files go first, in parallel with other
 * tasks and off the event loop; only git's own bookkeeping (`worktree remove`) takes the lock. Falls back
 * to delete + prune.
 */
async function removeWorktree(repo, dir) {
    await emptyExceptGitLink(dir);
    return repo.serial(async () => {
        try {
            await repo.git.worktreeRemove(dir, { force: true });
            return null;
        }
        catch (error) {
            await rm(dir, { recursive: true, force: true });
            try {
                await repo.git.raw(['worktree', 'prune']);
            }
            catch {
                // prune only tidies .git/worktrees/; a leftover entry is harmless and pruned by git itself later.
            }
            return error.message;
        }
    });
}
/** Deletes a worktree's files but keeps its `.git` link, so `git worktree remove` still recognizes it. */
async function emptyExceptGitLink(dir) {
    try {
        const entries = (await readdir(dir)).filter((entry) => entry !== '.git');
        await Promise.all(entries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));
    }
    catch {
        // Whatever is left, `git worktree remove --force` (or the fallback) deletes.
    }
}
/**
 * Worktrees left by a batch that never finished (proctor was SIGKILLed): their agents may still run, and
 * their run records live in the worktree's own `.proctor/runs`, which no later session looks at. Reaps
 * those orphans (the registry verifies each process's identity first) and returns the leftover dirs.
 */
async function reapLeftoverWorktrees(root, graceMs) {
    const base = worktreesPath(root);
    const leftovers = [];
    for (const batch of safeList(base)) {
        for (const task of safeList(join(base, batch))) {
            const dir = join(base, batch, task);
            leftovers.push(dir);
            const state = join(dir, STATE_DIR_NAME);
            if (existsSync(join(state, 'runs')))
                await reconcileOrphans(state, { graceMs }).catch(() => []);
        }
    }
    return leftovers;
}
function safeList(dir) {
    try {
        return readdirSync(dir);
    }
    catch {
        return [];
    }
}
/** Drops `.proctor/worktrees/<batch>/` once every worktree in it is gone. */
function removeEmptyWorktreesDir(dir) {
    try {
        if (existsSync(dir) && readdirSync(dir).length === 0)
            rmSync(dir, { recursive: true, force: true });
    }
    catch {
        // Left behind only if something else wrote there; nothing depends on it.
    }
}
/**
 * Moves (or, for a kept worktree, copies) a child's session directory from its worktree's `.proctor/`
 * to the repository's, and points the report's own file paths at the new place. Returns the new
 * report path and the report as written there.
 */
function collectChildSession(opts) {
    const from = sessionPath(opts.worktree, opts.sessionId);
    const to = sessionPath(opts.root, opts.sessionId);
    mkdirSync(join(to, '..'), { recursive: true });
    rmSync(to, { recursive: true, force: true });
    if (opts.keep)
        cpSync(from, to, { recursive: true });
    else {
        try {
            renameSync(from, to);
        }
        catch {
            cpSync(from, to, { recursive: true });
        }
    }
    const reportPath = join(to, 'report.json');
    // The report the session returned, not the file: the child's agent (or a process it left) can rewrite,
    // link or FIFO its session directory's report.json; the atomic write replaces whatever stands there.
    const report = relocate(opts.report, from, to);
    writeFileAtomic(reportPath, JSON.stringify(report, null, 2) + '\n');
    return { reportPath, report };
}
function relocate(report, from, to) {
    const move = (path) => (path.startsWith(from) ? to + path.slice(from.length) : path);
    const next = { ...report, transcript: { ...report.transcript, path: move(report.transcript.path) } };
    if (report.pushed?.bundle)
        next.pushed = { ...report.pushed, bundle: move(report.pushed.bundle) };
    return next;
}

class WorktreePool {
    o;
    idle = [];
    waiting = [];
    /** Worktrees that exist or are being made, reset or handed out (not those being removed). */
    alive = 0;
    handedOut = 0;
    spareMade = false;
    background = [];
    constructor(o) {
        this.o = o;
        // An abort wakes waiting tasks, which then find the signal aborted and give up.
        o.signal.addEventListener('abort', () => this.wake(Infinity), { once: true });
    }
    /**
     * A worktree at the base for task `index`: an idle recycled one, a fresh one while fewer than `size`
     * exist, or else the next one a finished task frees. Null when the batch was interrupted first; rejects
     * with git's reason when a fresh one could not be made (nothing is left behind then).
     */
    async acquire(index) {
        for (;;) {
            if (this.o.signal.aborted)
                return null;
            // The one idle longest first, so the worktrees take turns.
            const ready = this.idle.shift();
            if (ready)
                return this.handOut(ready);
            if (!this.o.recycle || this.alive < this.o.size) {
                return this.handOut(await this.fresh(index, index), index);
            }
            await new Promise((resolve) => this.waiting.push(resolve));
        }
    }
    /**
     * The task is done with its worktree (its session directory already moved out). Reset in the
     * background for the next task, or removed when no task will need it; `keep` leaves it in place.
     */
    release(lease, opts) {
        if (opts.keep)
            return;
        const more = this.handedOut < this.o.tasks && !this.o.signal.aborted;
        if (!this.o.recycle || !more) {
            this.alive--;
            this.track(this.remove(lease));
            this.wake(1);
            return;
        }
        this.track(recycleWorktree(this.o.repo, lease).then(() => {
            if (this.o.signal.aborted)
                return this.drop(lease);
            this.park(lease);
        }, (error) => {
            this.o.warn(`worktree ${lease.dir} could not be reset for the next task (${error.message}); using a fresh one`);
            return this.drop(lease);
        }));
    }
    /** Waits for every reset and removal under way, then removes the idle worktrees. */
    async close() {
        while (this.background.length > 0)
            await Promise.all(this.background.splice(0));
        await Promise.all(this.idle.splice(0).map((lease) => this.remove(lease)));
    }
    handOut(lease, freshFor) {
        this.handedOut++;
        if (freshFor !== undefined)
            this.maybeSpare();
        return lease;
    }
    /**
     * An idle worktree joins the queue; the reads of the task that will take it are begun. Tasks take
     * worktrees in their order and idle ones first come first served, so that task is the one after every
     * task handed a worktree so far and every one queued ahead of this one. Should another take it (an
     * interruption), the reads are for another session and that session makes its own.
     */
    park(lease) {
        const next = this.handedOut + this.idle.length;
        lease.reads = next < this.o.tasks ? (this.o.prepare?.(lease.dir, next) ?? null) : null;
        this.idle.push(lease);
        this.wake(1);
    }
    /**
     * Once the first wave has its worktrees, one more is made while those tasks run, if more tasks will
     * follow: a task that ends then hands the next one this spare at once, instead of making it wait for
     * its own worktree's reset, which becomes the next spare.
     */
    maybeSpare() {
        const spareFor = this.handedOut;
        if (this.spareMade || this.handedOut < this.o.size || spareFor >= this.o.tasks)
            return;
        this.spareMade = true;
        this.track(this.fresh(spareFor).then((lease) => {
            if (this.o.signal.aborted)
                return this.drop(lease);
            this.park(lease);
        }, () => undefined));
    }
    /** A new worktree for task `index`; with `readsFor`, that task's reads begin beside the checkout. */
    async fresh(index, readsFor) {
        const dir = this.o.dirFor(index);
        this.alive++;
        let registered = false;
        let reads = null;
        try {
            await registerWorktree(this.o.repo, dir);
            registered = true;
            // HEAD is set once git has registered the worktree, and the reads look at no file of its checkout:
            // they run beside it (started after it, which is what the task waits for).
            const checkout = checkoutWorktree(this.o.repo, dir);
            checkout.catch(() => undefined);
            if (readsFor !== undefined)
                reads = this.o.prepare?.(dir, readsFor) ?? null;
            await checkout;
            return { dir, gitDir: worktreeGitDir(dir), reads };
        }
        catch (error) {
            // Once git has registered it, it must go even though its checkout failed.
            if (registered)
                await this.remove({ dir, reads });
            this.alive--;
            this.wake(1);
            throw error;
        }
    }
    async drop(lease) {
        this.alive--;
        this.wake(1);
        await this.remove(lease);
    }
    /** Removes a worktree once the reads begun in it, if any, have ended (their git runs there). */
    async remove(lease) {
        const { dir, reads } = lease;
        lease.reads = null;
        if (reads)
            await Promise.allSettled([reads.objects, reads.machinery]);
        try {
            const problem = await removeWorktree(this.o.repo, dir);
            if (problem)
                this.o.warn(`worktree ${dir} was deleted by hand: ${problem}`);
        }
        catch (error) {
            this.o.warn(`could not remove worktree ${dir}: ${error.message}`);
        }
    }
    track(work) {
        this.background.push(work.catch(() => undefined));
    }
    wake(count) {
        for (let i = 0; i < count && this.waiting.length > 0; i++)
            this.waiting.shift()();
    }
}

// A batch: several full supervised sessions (subagents), each in its own git worktree at the same base,
// at most `concurrency` at a time, then one BatchReport. Every task ends up as exactly one child with one
// of the five statuses — a crash, a worktree that could not be created, or a task never started because
// the batch was interrupted included — so completed + failed + errored + interrupted + timeout ==
// child_count, and `subagent_batch_complete` fires exactly once, whatever happened.
const NOT_STARTED = 'not started: the batch was interrupted';
async function runBatch(opts) {
    const env = { ...(opts.env ?? process.env) };
    const tasks = opts.tasks ?? tasksFromConfig(opts.config);
    if (tasks.length === 0) {
        throw new BatchError('proctor batch: no tasks. Add batch.tasks to proctor.yml (name plus command or shell for each) ' +
            "or give them on the command line: --task tests='npm test'");
    }
    const concurrency = opts.concurrency ?? opts.config.batch.concurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
        throw new BatchError(`proctor batch: concurrency must be a whole number of at least 1 (got ${concurrency})`);
    }
    const keep = opts.keepWorktrees ?? opts.config.batch.keep_worktrees;
    const repo = await openBatchRepo(opts.cwd, env);
    const batchId = opts.batchId ? sanitizeRefPart(opts.batchId) : makeBatchId(env);
    const state = ensureStateDir(repo.root);
    const batchDir = join(state.state, 'batches', batchId);
    mkdirSync(batchDir, { recursive: true });
    const say = (line) => opts.output?.write(`proctor batch: ${line}\n`);
    say(`${batchId}: ${tasks.length} task(s), ${Math.min(concurrency, tasks.length)} at a time, ` +
        `each in a worktree at ${repo.base.slice(0, 12)}`);
    if (repo.dirty > 0) {
        say(`note: ${repo.dirty} uncommitted change(s) in ${repo.root} are not part of the batch (tasks start at HEAD)`);
    }
    const leftovers = await reapLeftoverWorktrees(repo.root, Math.min(opts.config.timeouts.grace, 2_000));
    if (leftovers.length > 0) {
        say(`note: ${leftovers.length} worktree(s) of earlier batches are still in .proctor/worktrees/ ` +
            '(kept, or left by a batch that did not finish); remove them with git worktree remove --force <dir>');
    }
    const lifecycle = new LifecycleHooks({
        hooks: opts.config.hooks,
        poolSize: opts.config.hooks_async_pool_size,
        shutdownGraceMs: opts.config.hooks_async_shutdown_grace,
        sessionId: batchId,
        cwd: repo.root,
        // The same environment as a session's hooks and agent: no runner tokens, no step files.
        env: agentEnvironment(env, opts.config.agent.env_passthrough),
        onWarning: (message) => say(`warning: ${message}`),
    });
    // One controller for every child: the caller's abort (or signal) reaches them all with its reason.
    const abort = new AbortController();
    let interruptedBy = null;
    const onAbort = () => {
        interruptedBy = opts.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
        say(`received ${interruptedBy}: interrupting running tasks; queued tasks will not start`);
        abort.abort(interruptedBy);
    };
    if (opts.signal?.aborted)
        onAbort();
    else
        opts.signal?.addEventListener('abort', onAbort, { once: true });
    const started = new Date();
    const inputs = new Array(tasks.length);
    const worktrees = {};
    const wtRoot = worktreesDir(repo.root, batchId);
    // `concurrency` worktrees and a spare; a finished task's is reset for a later one (not with keep).
    const readAhead = readsAhead(opts.config);
    const worktreePool = new WorktreePool({
        repo,
        size: concurrency,
        tasks: tasks.length,
        recycle: !keep,
        dirFor: (index) => join(wtRoot, `${index}-${sanitizeRefPart(tasks[index].name)}`),
        signal: abort.signal,
        warn: (message) => say(`warning: ${message}`),
        ...(readAhead
            ? {
                prepare: (dir, index) => startCheckpointReads(dir, childSessionId(batchId, index, tasks[index].name), { pristine: true }),
            }
            : {}),
    });
    const child = new ChildRunner({
        opts,
        env,
        repo,
        batchId,
        keep,
        readAhead,
        signal: abort.signal,
        lifecycle,
        say,
        worktrees: worktreePool,
        usage: batchUsage(opts),
    });
    await runPool({
        count: tasks.length,
        concurrency,
        signal: abort.signal,
        run: async (index) => {
            const task = tasks[index];
            try {
                opts.onChildStart?.(task, index);
                const result = await child.run(task, index, tasks.length);
                inputs[index] = result.input;
                if (result.keptWorktree)
                    worktrees[index] = result.keptWorktree;
            }
            catch (error) {
                // Only a caller's callback can throw here; the child still counts, so the invariant holds.
                inputs[index] ??= erroredInput(task, `task ${task.name}: ${error.message}`);
            }
        },
        skip: (index) => {
            const task = tasks[index];
            inputs[index] = { source: task.name, name: task.name, role: task.role, status: 'interrupted' };
        },
    });
    opts.signal?.removeEventListener('abort', onAbort);
    await worktreePool.close();
    if (!keep)
        removeEmptyWorktreesDir(wtRoot);
    const batch = aggregateReports(batchId, inputs, {
        started_at: started.toISOString(),
        ended_at: new Date().toISOString(),
    });
    // Cancelled tasks have no report but are not problems with one: say why they have none.
    for (const entry of batch.children) {
        const input = inputs[entry.task_index];
        if (!input.report && !input.problem && input.status === 'interrupted')
            entry.summary = NOT_STARTED;
    }
    const reportPath = join(batchDir, 'batch.json');
    try {
        writeFileSync(reportPath, JSON.stringify(batch, null, 2) + '\n');
    }
    finally {
        await fireSafely(lifecycle, 'subagent_batch_complete', batchCompletePayload(batch));
        await finishHooks(lifecycle, opts.config, interruptedBy !== null);
    }
    say(`${batchId} done in ${formatDuration(batch.total_duration_ms)}: ${batch.completed_count} completed, ` +
        `${batch.failed_count} failed, ${batch.errored_count} errored, ${batch.interrupted_count} interrupted, ` +
        `${batch.timeout_count} timeout`);
    const exitCode = interruptedBy ? exitCodeForSignal(interruptedBy) : batch.verdict === 'allow' ? 0 : 1;
    return { batch, reportPath, exitCode, interruptedBy, worktrees };
}
/** The `subagent_batch_complete` hook payload's `extra` (the seed's contract, plus batch id and verdict). */
function batchCompletePayload(batch) {
    return {
        batch_id: batch.batch_id,
        child_count: batch.child_count,
        completed_count: batch.completed_count,
        failed_count: batch.failed_count,
        errored_count: batch.errored_count,
        interrupted_count: batch.interrupted_count,
        timeout_count: batch.timeout_count,
        total_duration_ms: batch.total_duration_ms,
        verdict: batch.verdict,
        children: batch.children.map(childPayload),
    };
}
function childPayload(c) {
    return {
        task_index: c.task_index,
        name: c.name,
        role: c.role,
        status: c.status,
        duration_ms: c.duration_ms,
        summary: c.summary,
        checkpoint_ref: c.checkpoint_ref,
        violation_count: c.violation_count,
        report_path: c.report_path,
    };
}
/** Runs one task from worktree to subagent_stop. Never throws: every failure becomes an errored child. */
class ChildRunner {
    c;
    constructor(c) {
        this.c = c;
    }
    async run(task, index, total) {
        const { c } = this;
        const sessionId = childSessionId(c.batchId, index, task.name);
        const label = `[${index + 1}/${total}] ${task.name}`;
        const began = Date.now();
        let input;
        let lease = null;
        try {
            lease = await c.worktrees.acquire(index);
        }
        catch (error) {
            input = erroredInput(task, `task ${task.name} could not get a worktree: ${error.message}`, began);
        }
        if (lease && c.signal.aborted) {
            c.worktrees.release(lease, { keep: false });
            lease = null;
        }
        if (lease) {
            c.say(`${label}: started (session ${sessionId})`);
            try {
                input = await this.session(task, index, sessionId, lease);
            }
            catch (error) {
                input = erroredInput(task, `task ${task.name} crashed: ${error.message}`, began);
            }
            // Its session state has been moved out: the worktree can be reset for the next task.
            c.worktrees.release(lease, { keep: c.keep });
        }
        // No worktree and no error: the batch was interrupted before this task could start.
        input ??= { source: task.name, name: task.name, role: task.role, status: 'interrupted' };
        const keptWorktree = lease && c.keep ? lease.dir : null;
        const entry = aggregateReports(c.batchId, [input]).children[0];
        entry.task_index = index;
        if (input.status === 'interrupted' && !input.report && !input.problem)
            entry.summary = NOT_STARTED;
        c.say(`${label}: ${entry.status} in ${formatDuration(entry.duration_ms)} — ${entry.summary}`);
        await fireSafely(c.lifecycle, 'subagent_stop', { batch_id: c.batchId, ...childPayload(entry) });
        try {
            c.opts.onChildEnd?.(entry);
        }
        catch (error) {
            c.say(`warning: onChildEnd failed for ${task.name}: ${error.message}`);
        }
        return { input, keptWorktree };
    }
    async session(task, index, sessionId, lease) {
        const { c } = this;
        const worktree = lease.dir;
        // Begun while the worktree waited for this task, or now: either way before the session's own setup,
        // so the git processes they start are not waited for after it.
        const checkpointReads = c.readAhead
            ? ((await readsStillTrue(lease, sessionId)) ??
                startCheckpointReads(worktree, sessionId, { pristine: true }))
            : null;
        const outcome = await runSession({
            config: childConfig(c.opts.config, task),
            command: task.command,
            cwd: worktree,
            sessionId,
            output: null,
            input: null,
            installSignalHandlers: false,
            signal: c.signal,
            env: {
                ...c.env,
                PROCTOR_BATCH_ID: c.batchId,
                PROCTOR_TASK_NAME: task.name,
                PROCTOR_TASK_INDEX: String(index),
            },
            ...(task.role ? { role: task.role } : {}),
            ...(c.opts.ci ? { ci: c.opts.ci } : {}),
            checkpointReads,
            batchUsage: c.usage,
        });
        try {
            const collected = collectChildSession({
                root: c.repo.root,
                worktree,
                sessionId,
                report: outcome.report,
                keep: c.keep,
            });
            return { source: collected.reportPath, name: task.name, role: task.role, report: collected.report };
        }
        catch (error) {
            // The session ended normally; only moving its files failed, so keep its outcome and say where it is.
            c.say(`warning: ${task.name}: could not move its report out of the worktree: ${error.message}`);
            return { source: outcome.reportPath, name: task.name, role: task.role, report: outcome.report };
        }
    }
}
/**
 * Whether a child's session can use checkpoint reads begun before it: only when it makes them (checkpoints
 * on, the machinery recorded) and nothing runs between its start and its agent's that may change what
 * they read (a session_start hook). The session itself also drops them when it reaped an orphan first.
 */
/** One tally for the whole batch, and budget.batch kept on it (a budget without limits only counts). */
function batchUsage(opts) {
    const meter = new UsageMeter();
    const { budget } = opts.config;
    const tally = { meter, key: 'budget.batch', pricer: opts.pricer ?? pricerFor(opts.config) };
    return { meter, budget: new Budget(limitsOf(budget.batch, budget.warn_at), tally) };
}
function readsAhead(config) {
    return (config.checkpoints.enabled && config.policy.git_tamper !== 'off' && !config.hooks.session_start?.length);
}
/**
 * The reads begun for this task while its worktree waited (WorktreePool's prepare), if they still tell
 * what the task's agent will find: HEAD is the commit they resolved, and the repository's machinery is as
 * recorded (another task's agent may have changed the shared .git/config or hooks meanwhile, and a session
 * judges its own agent by what was there when it started). Null otherwise: the session reads again.
 */
async function readsStillTrue(lease, sessionId) {
    const reads = lease.reads;
    lease.reads = null;
    if (!reads || reads.sessionId !== sessionId || reads.cwd !== lease.dir)
        return null;
    try {
        const [objects, machinery] = await Promise.all([reads.objects, reads.machinery]);
        // A batch worktree's HEAD is detached at the commit its task starts from.
        const head = readDetachedHead(lease.gitDir);
        if (!objects.startCommit || head !== objects.startCommit)
            return null;
        if ((await machinery.changes()).length > 0)
            return null;
        return reads;
    }
    catch {
        return null;
    }
}
async function fireSafely(lifecycle, event, extra) {
    try {
        await lifecycle.fire(event, extra);
    }
    catch {
        // Lifecycle hooks report their own failures as warnings; they never change a batch's outcome.
    }
}
/**
 * Async hooks (a webhook post of the batch summary) get up to hooks_async_drain_timeout to finish on a
 * normal end; after an interruption the runner's cancel window is short, so they are stopped right away.
 */
async function finishHooks(lifecycle, config, interrupted) {
    await lifecycle.drain(interrupted ? 0 : config.hooks_async_drain_timeout);
}
/** A task that ended without a session report: errored, with what went wrong (and how long it took). */
function erroredInput(task, problem, began) {
    return {
        source: task.name,
        name: task.name,
        role: task.role,
        status: 'errored',
        problem,
        ...(began !== undefined ? { duration_ms: Date.now() - began } : {}),
    };
}

export { BatchError as B, batchCompletePayload as b, makeBatchId as m, parseTaskFlag as p, runBatch as r };
