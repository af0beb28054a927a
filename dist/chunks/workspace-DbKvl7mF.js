import { m as checkpointRef, H as remoteBranchFor, I as credentialFits, J as GitError, f as formatDuration, K as CHECKPOINT_REF_PREFIX, L as splitNul, N as parseCheckpointMessage, i as findRepoRoot, G as Git, k as ensureStateDir, O as sessionDir, C as CheckpointStore, g as diffTrees, P as sessionPath } from './checkpoints-create-CbqvXtdJ.js';
const fs__default = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");

// The serial push queue: refs/proctor/<session> → the remote branch from the `branch` template.
// Fast-forward only: never --force, never --unshallow, so it works from a `fetch-depth: 1` clone. When
// someone else moved the branch, the remote tip is fetched with --depth=1 and the same trees are
// re-committed on top of it (local refs stay as they are). When pushing is impossible (no remote, no
// permission, a ruleset), the checkpoints stay local, the record says why, and a bundle is written.
/** Why a push can never succeed by retrying. */
const PERMANENT_FAILURES = [
    { pattern: /GH013|rule violations|ruleset/i, reason: 'a repository ruleset rejected the push' },
    { pattern: /protected branch hook declined|protected branch/i, reason: 'the branch is protected' },
    {
        pattern: /permission to .* denied|\b403\b|authentication failed|could not read username|terminal prompts disabled|invalid username or password|write access to repository not granted/i,
        reason: 'no permission to push (needs `permissions: contents: write`, or a token that may push)',
    },
    {
        pattern: /repository not found|does not appear to be a git repository|no such remote|not found/i,
        reason: 'the remote repository was not found',
    },
    { pattern: /pre-receive hook declined|hook declined/i, reason: 'a server-side hook declined the push' },
];
const DEFAULT_BACKOFF = [250, 500, 1000, 2000, 4000];
const DEFAULT_TIMEOUT_MS = 60_000;
/** The push ran out of checkpoints.push_timeout. */
class PushTimeout extends Error {
}
class PushQueue {
    branch;
    options;
    ref;
    pending = false;
    running = null;
    /** Last local checkpoint whose trees are on the remote, and the remote commit that carries them. */
    pushedLocal = null;
    pushedRemote = null;
    record;
    /** The checkpoint proctor wrote last (own-writes mode: PushQueueOptions.written given). */
    written;
    ownWrites;
    moved = null;
    constructor(options) {
        this.options = options;
        this.ref = checkpointRef(options.session);
        this.branch = remoteBranchFor(options.branchTemplate, options.session);
        this.ownWrites = options.written !== undefined;
        this.written = options.written ?? null;
        this.record = {
            ok: false,
            remote: null,
            branch: this.branch,
            sha: null,
            reason: 'nothing pushed yet',
            bundle: null,
        };
    }
    /** The outcome so far, for the report. */
    get state() {
        return { ...this.record };
    }
    /** `push: always` and the push failed: the report must show this as an error. */
    get failedRequired() {
        return this.options.mode === 'always' && !this.record.ok && this.pushedLocal === null;
    }
    /**
     * Something other than proctor moved refs/proctor/<session> off the checkpoint proctor wrote last; from
     * then on nothing more is pushed (own-writes mode only).
     */
    get refMoved() {
        return this.moved ? { ...this.moved } : null;
    }
    /**
     * Queue a push of checkpoint `sha`, which proctor just wrote (own-writes mode), or of what the ref holds.
     * Coalesces; never throws.
     */
    schedule(sha) {
        if (sha !== undefined)
            this.written = sha;
        if (this.options.mode === 'never' || this.moved)
            return;
        this.pending = true;
        this.running ??= this.drain().finally(() => {
            this.running = null;
        });
    }
    /**
     * The final push: waits for queued work, pushes what is left and, if the remote did not get
     * everything, writes the bundle. Never throws; the record says what happened.
     */
    async flush() {
        if (this.options.mode === 'never') {
            this.record = { ...this.record, ok: false, reason: 'pushing is off (checkpoints.push: never)' };
            return this.state;
        }
        this.flushDeadline = Date.now() + this.budget;
        this.schedule();
        while (this.running)
            await this.running;
        this.flushDeadline = Infinity;
        // A moved ref holds commits proctor never judged: no bundle of it either.
        if (this.moved)
            return this.state;
        const local = this.ownWrites ? this.written : await this.options.git.revParse(this.ref);
        if (!local || local === this.pushedLocal)
            return this.state;
        // The bundle is made of the ref: it must still be what proctor wrote.
        if (this.ownWrites && !(await this.refHolds(local)))
            return this.state;
        await this.writeBundle(local);
        return this.state;
    }
    /**
     * Pushes now and waits (the `ci-checks` stop hook): the remote commit that carries checkpoint `sha` —
     * `sha` itself, or its tree re-committed on a branch someone else moved — or why there is none. Only a
     * push of exactly `sha` counts: CI must run on the commit that was judged.
     */
    async pushOf(sha) {
        if (this.options.mode === 'never')
            return { ok: false, reason: 'pushing is off (checkpoints.push: never)' };
        this.schedule();
        while (this.running)
            await this.running;
        if (this.pushedLocal === sha && this.pushedRemote)
            return { ok: true, sha: this.pushedRemote };
        return {
            ok: false,
            reason: this.record.reason ??
                `the latest push carried ${this.pushedLocal?.slice(0, 12) ?? 'nothing'}, not checkpoint ${sha.slice(0, 12)}`,
        };
    }
    async drain() {
        while (this.pending) {
            this.pending = false;
            try {
                await this.pushLatest();
            }
            catch (error) {
                this.record = { ...this.record, ok: false, reason: `push failed: ${describe(error)}` };
            }
        }
    }
    /** checkpoints.push_timeout in ms. */
    get budget() {
        return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    }
    /** When the push under way must be over (Date.now() ms). */
    deadline = Infinity;
    /** When the final push (flush) must be over, whatever push was under way when it began. */
    flushDeadline = Infinity;
    /** Time left before the deadline, for the next network command; throws PushTimeout when none is. */
    remaining() {
        const left = this.deadline - Date.now();
        if (left <= 0)
            throw new PushTimeout();
        return left;
    }
    async pushLatest() {
        this.deadline = Math.min(Date.now() + this.budget, this.flushDeadline);
        try {
            await this.pushWithin();
        }
        catch (error) {
            const timedOut = isTimeout(error);
            if (!timedOut)
                throw error;
            this.record = {
                ...this.record,
                ok: false,
                reason: `push timed out after ${seconds(this.budget)} (checkpoints.push_timeout)`,
            };
        }
        finally {
            this.deadline = Infinity;
        }
    }
    async pushWithin() {
        const git = this.options.git;
        const local = this.ownWrites ? this.written : await git.revParse(this.ref);
        if (this.ownWrites && !(await this.refHolds(local)))
            return;
        if (!local || local === this.pushedLocal)
            return;
        const remoteUrl = await this.remoteExists();
        if (!remoteUrl) {
            this.record = {
                ...this.record,
                ok: false,
                remote: null,
                reason: `no remote named "${this.options.remote}"; checkpoints stay local`,
            };
            return;
        }
        this.record.remote = this.options.remote;
        const secret = this.options.secretConfig;
        if (secret && secret.length > 0 && !credentialFits(secret, remoteUrl)) {
            // The token was issued for another origin: pushing without it would fail, pushing with it could hand
            // it to whoever serves this URL (a local repository's hooks see it). Neither is a safe push.
            this.record = {
                ...this.record,
                ok: false,
                reason: `${describeUrl(remoteUrl)} is not on the host proctor's token is for: pushing there could hand the token to its hooks; checkpoints stay local`,
            };
            return;
        }
        const target = `refs/heads/${this.branch}`;
        const attempts = this.options.maxAttempts ?? 5;
        let candidate = this.pushedRemote && this.pushedRemote !== this.pushedLocal
            ? await this.replayOnto(this.pushedRemote, local)
            : local;
        for (let attempt = 1; attempt <= attempts; attempt++) {
            const outcome = await git.push(remoteUrl, [`${candidate}:${target}`], {
                timeoutMs: this.remaining(),
                ...(this.options.secretConfig ? { secretConfig: this.options.secretConfig } : {}),
            });
            if (outcome.ok) {
                this.pushedLocal = local;
                this.pushedRemote = candidate;
                this.record = { ...this.record, ok: true, sha: candidate, reason: null };
                return;
            }
            const permanent = classifyPermanent(outcome);
            if (permanent) {
                this.record = { ...this.record, ok: false, reason: `${permanent}: ${firstLine(outcome)}` };
                return;
            }
            const rejected = outcome.refs.find((r) => r.status === 'rejected');
            this.record = {
                ...this.record,
                ok: false,
                reason: rejected
                    ? `rejected (${rejected.summary}) after ${attempt} attempts`
                    : `push failed: ${firstLine(outcome)}`,
            };
            if (attempt === attempts)
                return;
            await this.backoff(attempt);
            if (rejected) {
                // Someone else moved the branch: build the same trees on top of their tip and try again.
                const tip = await this.fetchRemoteTip(remoteUrl, target);
                if (tip)
                    candidate = await this.replayOnto(tip, local);
            }
        }
    }
    /**
     * Own-writes mode: the ref must still hold `written`. If it does not, the queue stops for good and the
     * record says why: whoever moved it can move it again, and the chain behind it is no longer proctor's.
     * What is pushed is `written` itself (never the ref), so a move after this check changes nothing pushed.
     */
    async refHolds(written) {
        const found = await this.options.git.revParse(this.ref);
        if (found === written)
            return true;
        this.moved = { ref: this.ref, expected: written, found };
        const wrote = written
            ? `no longer holds checkpoint ${written.slice(0, 12)}, the last one proctor wrote`
            : 'holds a commit although proctor wrote no checkpoint there';
        const what = found ? `something else moved it to ${found.slice(0, 12)}` : 'something else deleted it';
        this.record = {
            ...this.record,
            ok: false,
            reason: `${this.ref} ${wrote} (${what}); nothing more is pushed`,
        };
        return false;
    }
    /** Re-commit each of our checkpoints not yet on the remote (same tree, same message) on top of `tip`. */
    async replayOnto(tip, local) {
        const git = this.options.git;
        const range = [local];
        const stop = this.pushedLocal ?? this.options.base;
        if (stop)
            range.push(`^${stop}`);
        const commits = (await git.raw(['rev-list', '--reverse', '--first-parent', ...range])).stdout
            .split('\n')
            .filter((line) => line !== '');
        let parent = tip;
        for (const commit of commits) {
            const tree = (await git.raw(['rev-parse', `${commit}^{tree}`])).stdout.trim();
            const message = (await git.raw(['log', '-1', '--format=%B', commit])).stdout;
            parent = await git.commitTree(tree, [parent], message);
        }
        return parent;
    }
    async fetchRemoteTip(url, target) {
        const git = this.options.git;
        const tracking = `refs/proctor-remote/${this.options.session}`;
        try {
            await git.fetch(url, [`+${target}:${tracking}`], {
                depth: 1,
                timeoutMs: this.remaining(),
                ...(this.options.secretConfig ? { secretConfig: this.options.secretConfig } : {}),
            });
        }
        catch (error) {
            if (isTimeout(error))
                throw new PushTimeout();
            return null;
        }
        return git.revParse(tracking);
    }
    /** The URL to push to: given, or fixed when the runner first read the config (see remoteUrl). */
    async remoteExists() {
        return this.options.remoteUrl ?? this.options.git.trustedPushUrl(this.options.remote);
    }
    async writeBundle(local) {
        const file = path.join(this.options.sessionDir, 'checkpoints.bundle');
        try {
            fs__default.mkdirSync(this.options.sessionDir, { recursive: true });
            const revs = [this.ref];
            const stop = this.options.base;
            if (stop && stop !== local)
                revs.push(`^${stop}`);
            await this.options.git.bundleCreate(file, revs);
            this.record = { ...this.record, bundle: file };
        }
        catch (error) {
            this.record = {
                ...this.record,
                reason: `${this.record.reason ?? ''}; bundle failed: ${describe(error)}`,
            };
        }
    }
    async backoff(attempt) {
        const steps = this.options.backoffMs ?? DEFAULT_BACKOFF;
        const base = steps[Math.min(attempt - 1, steps.length - 1)] ?? 0;
        const ms = base + Math.floor(Math.random() * (base / 2));
        // A wait that outlasts the deadline would only end in a timeout: end now.
        if (ms >= this.remaining())
            throw new PushTimeout();
        if (ms > 0)
            await (this.options.sleep ?? defaultSleep)(ms);
    }
}
function classifyPermanent(outcome) {
    if (outcome.refs.some((r) => r.status === 'rejected' && /non-fast-forward|fetch first|stale info/.test(r.summary))) {
        return null;
    }
    const text = `${outcome.stderr}\n${outcome.refs.map((r) => r.summary).join('\n')}`;
    return PERMANENT_FAILURES.find((f) => f.pattern.test(text))?.reason ?? null;
}
function firstLine(outcome) {
    const text = outcome.stderr
        .split('\n')
        .map((line) => line.trim())
        .find((line) => /error|fatal|denied|reject|remote:/i.test(line));
    return (text ??
        outcome.refs.find((r) => r.status === 'rejected')?.summary ??
        `git exited with ${outcome.exitCode}`);
}
function describe(error) {
    if (error instanceof GitError)
        return error.message.split('\n')[0] ?? error.message;
    return error instanceof Error ? error.message : String(error);
}
/** A URL for the report, without any credentials embedded in it. */
function describeUrl(url) {
    try {
        const parsed = new URL(url);
        parsed.username = '';
        parsed.password = '';
        return parsed.toString();
    }
    catch {
        return url;
    }
}
/** A deadline as the config would write it: `60s`, `1.5s`. */
function seconds(ms) {
    return ms % 1000 === 0 ? `${ms / 1000}s` : formatDuration(ms);
}
function defaultSleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
/**
 * The push's deadline ran out, or git was killed at its own: GitError.timedOut, never a match on the
 * message, whose stderr tail may quote curl's "Operation timed out after …" of a failure to retry.
 */
function isTimeout(error) {
    return error instanceof PushTimeout || (error instanceof GitError && error.timedOut);
}

/** Every session with checkpoints in this repository, newest tip first. */
async function listSessions(git) {
    const out = (await git.raw([
        'for-each-ref',
        '--sort=-committerdate',
        '--format=%(objectname) %(refname)',
        '--',
        CHECKPOINT_REF_PREFIX,
    ])).stdout;
    return out
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
        const sha = line.slice(0, line.indexOf(' '));
        const ref = line.slice(line.indexOf(' ') + 1);
        return { session: ref.slice(CHECKPOINT_REF_PREFIX.length), ref, tip: sha };
    });
}
/** The checkpoints of one session, oldest first (walks first parents while they belong to the session). */
async function listCheckpoints(git, session) {
    const tip = await git.revParse(`${CHECKPOINT_REF_PREFIX}${session}^{commit}`);
    if (!tip)
        return [];
    const out = (await git.raw(['log', '-z', '--first-parent', '--format=%H%n%T%n%P%n%cI%n%B', tip])).stdout;
    const checkpoints = [];
    for (const record of splitNul(out)) {
        const info = parseLogRecord(record);
        if (!info || info.session !== session)
            break;
        checkpoints.push(info);
    }
    return checkpoints.reverse();
}
/** One commit as a checkpoint, or null when it is not one (no Proctor-Session trailer). */
async function readCheckpoint(git, sha) {
    const out = (await git.raw(['log', '-1', '--format=%H%n%T%n%P%n%cI%n%B', sha])).stdout;
    return parseLogRecord(out);
}
function parseLogRecord(record) {
    const [sha, tree, parents, date, ...body] = record.replace(/^\n/, '').split('\n');
    const parsed = parseCheckpointMessage(body.join('\n'));
    if (!sha || !tree || parsed.session === null || parsed.seq === null)
        return null;
    return {
        session: parsed.session,
        seq: parsed.seq,
        sha,
        tree,
        parent: parents ? (parents.split(' ')[0] ?? null) : null,
        base: parsed.base,
        trigger: parsed.trigger ?? 'unknown',
        violations: parsed.violations,
        skippedCount: parsed.skippedCount,
        skipped: parsed.skipped,
        subject: parsed.subject,
        createdAt: date ?? '',
    };
}
/**
 * Resolve what a user typed: `latest` (newest checkpoint of any session), `<session>@<seq>`,
 * `<session>@latest`, `@<seq>` (of the newest session), `<session>`, or a (short) commit id. Errors say
 * what exists instead.
 */
async function resolveCheckpoint(git, id) {
    const sessions = await listSessions(git);
    if (id === 'latest') {
        const newest = sessions[0];
        if (!newest)
            throw new Error('there are no checkpoints in this repository yet (no refs/proctor/* refs)');
        return mustRead(git, newest.tip, id);
    }
    const at = id.lastIndexOf('@');
    // `@<seq>` alone, as `checkpoints list` prints it under each session: the newest session's.
    if (at === 0 && sessions.length === 0)
        throw new Error('there are no checkpoints in this repository yet (no refs/proctor/* refs)');
    if (at >= 0) {
        const session = at === 0 ? sessions[0].session : id.slice(0, at);
        const which = id.slice(at + 1);
        const chain = await listCheckpoints(git, session);
        if (chain.length === 0)
            throw new Error(`no session "${session}"; ${sessionHint(sessions)}`);
        if (which === 'latest')
            return chain[chain.length - 1];
        const found = /^\d+$/.test(which) ? chain.find((c) => c.seq === Number(which)) : undefined;
        if (!found) {
            throw new Error(`session "${session}" has no checkpoint ${which}; it has 1..${chain[chain.length - 1].seq}`);
        }
        return found;
    }
    const session = sessions.find((s) => s.session === id);
    if (session)
        return mustRead(git, session.tip, id);
    const sha = /^[0-9a-f]{4,64}$/i.test(id) ? await git.revParse(`${id}^{commit}`) : null;
    if (!sha) {
        throw new Error(`"${id}" is not a checkpoint: use <session>@<seq>, @<seq>, <session>, a commit id, or latest; ${sessionHint(sessions)}`);
    }
    return mustRead(git, sha, id);
}
async function mustRead(git, sha, id) {
    const info = await readCheckpoint(git, sha);
    if (!info)
        throw new Error(`${id} (${sha.slice(0, 12)}) is a commit but not a proctor checkpoint`);
    return info;
}
function sessionHint(sessions) {
    if (sessions.length === 0)
        return 'there are no sessions yet';
    const names = sessions.slice(0, 5).map((s) => s.session);
    return `sessions: ${names.join(', ')}${sessions.length > 5 ? ', ...' : ''} (see proctor checkpoints list)`;
}

class Workspace {
    root;
    git;
    constructor(
    /** The repository root (the directory holding `.git`). */
    root, git) {
        this.root = root;
        this.git = git;
    }
    /** The repository around `cwd`, or null outside one. */
    static find(cwd, env) {
        const root = findRepoRoot(cwd);
        return root ? new Workspace(root, new Git({ cwd: root, ...(env ? { env } : {}) })) : null;
    }
    /** `.proctor/` at the repository root around `cwd` (or at `cwd` outside a repository), created. */
    static stateDirs(cwd) {
        return ensureStateDir(cwd);
    }
    /** `.proctor/sessions/<id>`, created. */
    sessionDir(sessionId) {
        return sessionDir(ensureStateDir(this.root), sessionId);
    }
    /**
     * A session's checkpoint store: config.checkpoints' size limit and spacing, the policy's forbidden areas
     * withheld, and (with `judge`) every checkpoint judged by the policy. `extras` override any of it. The
     * policy's code (its glob matcher among it) is loaded only when the store first has a changed path to
     * weigh or a checkpoint to judge: a session opens its store before its agent's spawn (to record the
     * baseline), and a clean worktree must not cost the spawn that load.
     */
    async store(sessionId, config, extras = {}) {
        const { judge, ...overrides } = extras;
        const policy = config.policy;
        let code;
        const load = () => (code ??= import('./index-DNzUMpeI.js'));
        let withhold;
        let scanner;
        return new CheckpointStore({
            git: this.git,
            session: sessionId,
            maxFileSize: config.checkpoints.max_file_size,
            minIntervalMs: config.checkpoints.min_interval,
            prepare: async () => {
                withhold ??= (await load()).forbiddenAreaOf(policy);
                scanner ??= await contentScanner(policy);
            },
            // Only asked after prepare (the store awaits it before it weighs any path).
            withhold: (path) => withhold(path),
            scanner: () => scanner ?? null,
            ...(judge
                ? {
                    validate: async (ctx) => {
                        const code = await load();
                        return [
                            ...code.evaluateCheckpoint({ ...ctx, worktree: this.root, policy }),
                            ...(await code.testsWeakened(this.git, ctx.cumulative, ctx.seq, policy)),
                        ];
                    },
                }
                : {}),
            ...overrides,
        });
    }
    /**
     * What the session's work holds against the policy at its latest checkpoint: the cumulative diff from
     * the session's base, judged as a whole (as the session's own gate judges it).
     */
    async standingViolations(store, config) {
        const latest = store.latest;
        if (!latest)
            return [];
        const { evaluatePolicy, testsWeakened } = await import('./index-DNzUMpeI.js');
        const files = await diffTrees(this.git, store.baseline, latest);
        return [
            ...evaluatePolicy({
                files,
                checkpoint: store.latestSeq,
                worktree: this.root,
                policy: config.policy,
                scope: 'cumulative',
            }),
            ...(await testsWeakened(this.git, files, store.latestSeq, config.policy)),
        ];
    }
    /** A session's push queue: config.checkpoints' remote, branch and mode, its bundle in the session dir. */
    async pushQueue(sessionId, config, options = {}) {
        const base = options.base !== undefined
            ? options.base
            : ((await listCheckpoints(this.git, sessionId).catch(() => []))[0]?.base ?? null);
        return new PushQueue({
            git: this.git,
            session: sessionId,
            remote: options.remote ?? config.checkpoints.remote,
            branchTemplate: config.checkpoints.branch,
            mode: options.mode ?? config.checkpoints.push,
            sessionDir: sessionPath(this.root, sessionId),
            base,
            timeoutMs: config.checkpoints.push_timeout,
            ...(options.remoteUrl ? { remoteUrl: options.remoteUrl } : {}),
            ...(options.secretConfig ? { secretConfig: options.secretConfig } : {}),
            ...(options.written !== undefined ? { written: options.written } : {}),
        });
    }
    /** Pushes a finished session's checkpoints now; null when it has none. */
    async pushSession(sessionId, config, options = {}) {
        const chain = await listCheckpoints(this.git, sessionId).catch(() => []);
        if (chain.length === 0)
            return null;
        const queue = await this.pushQueue(sessionId, config, { base: chain[0]?.base ?? null, ...options });
        return queue.flush();
    }
}
/** The content scan a store runs on every file it would record, with the policy's allowed paths. */
async function contentScanner(policy) {
    const [{ ContentScanner }, { compilePolicy }] = await Promise.all([
        import('./scanner-B8K_GPnv.js'),
        import('./evaluate-Dq6htf1L.js').then(function (n) { return n.q; }),
    ]);
    const allowed = compilePolicy(policy).secretAllowed;
    return new ContentScanner({ rulesSkip: (path) => allowed.match(path) !== null });
}

export { Workspace as W, listCheckpoints as a, contentScanner as c, listSessions as l, resolveCheckpoint as r };
