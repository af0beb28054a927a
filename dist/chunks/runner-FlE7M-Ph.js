import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import path from 'node:path';
import { spawnSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';

/*
How it works:
`this.#head` is an instance of `Node` which keeps track of its current value and nests another instance of `Node` that keeps the value that comes after it. When a value is provided to `.enqueue()`, the code needs to iterate through `this.#head`, going deeper and deeper to find the last value. However, iterating through every single item is slow. This problem is solved by saving a reference to the last value as `this.#tail` so that it can reference it to add a new value.
*/

class Node {
	value;
	next;

	constructor(value) {
		this.value = value;
	}
}

class Queue {
	#head;
	#tail;
	#size;

	constructor() {
		this.clear();
	}

	enqueue(value) {
		const node = new Node(value);

		if (this.#head) {
			this.#tail.next = node;
			this.#tail = node;
		} else {
			this.#head = node;
			this.#tail = node;
		}

		this.#size++;
	}

	dequeue() {
		const current = this.#head;
		if (!current) {
			return;
		}

		this.#head = this.#head.next;
		this.#size--;

		// Clean up tail reference when queue becomes empty
		if (!this.#head) {
			this.#tail = undefined;
		}

		return current.value;
	}

	peek() {
		if (!this.#head) {
			return;
		}

		return this.#head.value;

		// TODO: Node.js 18.
		// return this.#head?.value;
	}

	clear() {
		this.#head = undefined;
		this.#tail = undefined;
		this.#size = 0;
	}

	get size() {
		return this.#size;
	}

	* [Symbol.iterator]() {
		let current = this.#head;

		while (current) {
			yield current.value;
			current = current.next;
		}
	}

	* drain() {
		while (this.#head) {
			yield this.dequeue();
		}
	}
}

function pLimit(concurrency) {
	let rejectOnClear = false;

	if (typeof concurrency === 'object') {
		({concurrency, rejectOnClear = false} = concurrency);
	}

	validateConcurrency(concurrency);

	if (typeof rejectOnClear !== 'boolean') {
		throw new TypeError('Expected `rejectOnClear` to be a boolean');
	}

	const queue = new Queue();
	let activeCount = 0;

	const resumeNext = () => {
		// Process the next queued function if we're under the concurrency limit
		if (activeCount < concurrency && queue.size > 0) {
			activeCount++;
			queue.dequeue().run();
		}
	};

	const next = () => {
		activeCount--;
		resumeNext();
	};

	const run = async (function_, resolve, arguments_) => {
		// Execute the function and capture the result promise
		const result = (async () => function_(...arguments_))();

		// Resolve immediately with the promise (don't wait for completion)
		resolve(result);

		// Wait for the function to complete (success or failure)
		// We catch errors here to prevent unhandled rejections,
		// but the original promise rejection is preserved for the caller
		try {
			await result;
		} catch {}

		// Decrement active count and process next queued function
		next();
	};

	const enqueue = (function_, resolve, reject, arguments_) => {
		const queueItem = {reject};

		// Queue the internal resolve function instead of the run function
		// to preserve the asynchronous execution context.
		new Promise(internalResolve => { // eslint-disable-line promise/param-names
			queueItem.run = internalResolve;
			queue.enqueue(queueItem);
		}).then(run.bind(undefined, function_, resolve, arguments_)); // eslint-disable-line promise/prefer-await-to-then

		// Start processing immediately if we haven't reached the concurrency limit
		if (activeCount < concurrency) {
			resumeNext();
		}
	};

	const generator = (function_, ...arguments_) => new Promise((resolve, reject) => {
		enqueue(function_, resolve, reject, arguments_);
	});

	Object.defineProperties(generator, {
		activeCount: {
			get: () => activeCount,
		},
		pendingCount: {
			get: () => queue.size,
		},
		clearQueue: {
			value() {
				if (!rejectOnClear) {
					queue.clear();
					return;
				}

				const abortError = AbortSignal.abort().reason;

				while (queue.size > 0) {
					queue.dequeue().reject(abortError);
				}
			},
		},
		concurrency: {
			get: () => concurrency,

			set(newConcurrency) {
				validateConcurrency(newConcurrency);
				concurrency = newConcurrency;

				queueMicrotask(() => {
					// eslint-disable-next-line no-unmodified-loop-condition
					while (activeCount < concurrency && queue.size > 0) {
						resumeNext();
					}
				});
			},
		},
		map: {
			async value(iterable, function_) {
				const promises = [];

				try {
					Array.from(iterable, (value, index) => {
						const promise = generator(function_, value, index);
						promises.push(promise);
						return promise;
					});
				} catch (error) {
					// The iterable threw, so `Promise.all` never observes the already scheduled promises. Observe them here to avoid unhandled rejections.
					for (const promise of promises) {
						promise.catch(() => {}); // eslint-disable-line promise/prefer-await-to-then
					}

					throw error;
				}

				return Promise.all(promises);
			},
		},
	});

	return generator;
}

function validateConcurrency(concurrency) {
	if (!((Number.isInteger(concurrency) || concurrency === Number.POSITIVE_INFINITY) && concurrency > 0)) {
		throw new TypeError('Expected `concurrency` to be a number from 1 and up');
	}
}

// A token for one git command, never for the repository: actions/checkout's default stores its token in
// .git/config (`http.<url>.extraheader`), where anything running in the worktree (the agent, a stop hook
// running the agent's code) reads it. proctor instead hands its token to the single push or fetch that
// needs it, as GIT_CONFIG_* environment entries of that process (not argv, which every process can read).
/** Config entries that send `token` as GitHub expects it (HTTP Basic, user x-access-token) to `url`'s host. */
function tokenHeaderConfig(url, token) {
    let origin;
    try {
        origin = new URL(url).origin;
    }
    catch {
        return [];
    }
    if (!/^https?:/.test(origin))
        return [];
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    return [[`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
/** GIT_CONFIG_COUNT/KEY/VALUE entries appended after those `base` already has. */
function configEnv(base, entries) {
    if (entries.length === 0)
        return {};
    const first = Number(base.GIT_CONFIG_COUNT) || 0;
    const env = { GIT_CONFIG_COUNT: String(first + entries.length) };
    entries.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${first + i}`] = key;
        env[`GIT_CONFIG_VALUE_${first + i}`] = value;
    });
    return env;
}
/** `http.<url>.extraheader` entries of the repository's config: a persisted credential the agent can read. */
function persistedCredentialKeys(configList) {
    return configList
        .split('\0')
        .map((entry) => entry.slice(0, entry.indexOf('\n') === -1 ? entry.length : entry.indexOf('\n')))
        .filter((key) => /^http\..*\.extraheader$/i.test(key) || /^http\.extraheader$/i.test(key));
}

// The environment every git call runs with. Inherited variables that point git at another repository,
// index or object store are dropped: a hook or wrapper that exported them must never redirect our
// plumbing (or worse, make it write the user's index).
/** Inherited variables that redirect which repository, index or objects git uses, or how pathspecs parse. */
const REDIRECTING_GIT_VARS = [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_INDEX_VERSION',
    'GIT_OBJECT_DIRECTORY',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
    'GIT_QUARANTINE_PATH',
    'GIT_COMMON_DIR',
    'GIT_NAMESPACE',
    'GIT_CEILING_DIRECTORIES',
    'GIT_DISCOVERY_ACROSS_FILESYSTEM',
    'GIT_PREFIX',
    'GIT_TEMPLATE_DIR',
    'GIT_SHALLOW_FILE',
    'GIT_REPLACE_REF_BASE',
    'GIT_NO_REPLACE_OBJECTS',
    'GIT_GRAFT_FILE',
    // We build pathspecs with explicit magic; these would change how every one of them is read.
    'GIT_LITERAL_PATHSPECS',
    'GIT_GLOB_PATHSPECS',
    'GIT_NOGLOB_PATHSPECS',
    'GIT_ICASE_PATHSPECS',
    // Set by proctor per call, never inherited.
    'GIT_OPTIONAL_LOCKS',
    'GIT_TERMINAL_PROMPT',
];
const REDIRECTING = new Set(REDIRECTING_GIT_VARS);
/**
 * process.env minus the redirecting GIT_* variables, plus proctor's fixed settings. `GIT_OPTIONAL_LOCKS=0`
 * keeps read commands (status, diff) from refreshing and rewriting the user's index; `GIT_TERMINAL_PROMPT=0`
 * turns a credential prompt in CI into a fast failure instead of a hang.
 */
function sanitizedGitEnv(base = process.env) {
    const env = {};
    for (const [key, value] of Object.entries(base)) {
        if (value === undefined)
            continue;
        if (REDIRECTING.has(key.toUpperCase()))
            continue;
        env[key] = value;
    }
    env.GIT_OPTIONAL_LOCKS = '0';
    env.GIT_TERMINAL_PROMPT = '0';
    // Messages we classify (push rejections, missing remotes) must be in English.
    env.LC_ALL = 'C';
    env.LANGUAGE = 'C';
    return env;
}
/**
 * `-c` settings for every call. All are safe for commands that only read the user's repository:
 * they change how our own commits are made (no signing prompt, no hooks) and skip the fsmonitor
 * daemon, whose answers are about the user's index, not ours.
 */
const BASE_CONFIG = [
    'commit.gpgSign=false',
    'tag.gpgSign=false',
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    'core.quotePath=false',
    'advice.addEmbeddedRepo=false',
    'advice.detachedHead=false',
    'gc.auto=0',
    'maintenance.auto=false',
];
/**
 * Extra settings for calls on the private index only. They change the index FORMAT (split index,
 * untracked cache) or trust in stat data (ignoreStat), so they are never applied where the user's
 * index could be written; on our private index they keep it one plain file that notices every edit.
 */
const PRIVATE_INDEX_CONFIG = [
    'core.splitIndex=false',
    'core.untrackedCache=false',
    'core.ignoreStat=false',
    'index.skipHash=false',
];
const FALLBACK_IDENTITY = { name: 'proctor', email: 'proctor@localhost' };

/** The last few lines of a command's stderr, enough to see why it failed without flooding a log. */
function tail(text, maxLines = 12, maxChars = 2000) {
    const lines = text.trimEnd().split('\n');
    const kept = lines.slice(-maxLines).join('\n');
    return kept.length > maxChars ? kept.slice(-maxChars) : kept;
}
/** A git command that failed. The message names the command, how it ended and the end of its stderr. */
class GitError extends Error {
    args;
    cwd;
    exitCode;
    signal;
    stderr;
    constructor(details, summary) {
        const how = details.exitCode !== null
            ? `exit code ${details.exitCode}`
            : details.signal
                ? `signal ${details.signal}`
                : 'could not start';
        const stderrTail = tail(details.stderr);
        const head = summary ?? `git ${details.args.join(' ')} failed (${how}) in ${details.cwd}`;
        super(stderrTail ? `${head}\n${stderrTail}` : head, details.cause ? { cause: details.cause } : undefined);
        this.name = 'GitError';
        this.args = details.args;
        this.cwd = details.cwd;
        this.exitCode = details.exitCode;
        this.signal = details.signal;
        this.stderr = details.stderr;
    }
}
/** A compare-and-swap ref update lost: the ref no longer points where we expected. */
class RefMovedError extends GitError {
    ref;
    expected;
    constructor(ref, expected, details) {
        super(details, `${ref} moved: expected ${expected ?? 'no ref'}, but something else updated it; nothing was overwritten`);
        this.name = 'RefMovedError';
        this.ref = ref;
        this.expected = expected;
    }
}

// Starts one git process and returns its raw result: stdout as bytes, stderr as text, the real exit code.
// Deciding what a result means (which exit codes are answers) stays here too, so the runner only builds
// argv and environment. Plain node:child_process with an argv array (no shell), like the long-lived
// processes in stream.ts: no git library sits underneath (docs/architecture.md, "Running git", says why).
/** How long a timed-out git has to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;
function runGit(call) {
    const { cwd } = call;
    // spawn() reports a missing cwd as a missing binary (ENOENT either way): tell them apart first.
    if (!isDirectory(cwd))
        return Promise.reject(refused(call, 'the directory does not exist'));
    return new Promise((resolve, reject) => {
        const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
        const child = spawn(call.binary, argv, { cwd, env: call.env, stdio: 'pipe', windowsHide: true });
        const stdout = [];
        const stderr = [];
        let timedOut = false;
        let settled = false;
        // SIGTERM first: git removes its lock files on the way out (a killed one would leave index.lock behind).
        const timer = call.timeoutMs
            ? setTimeout(() => {
                timedOut = true;
                child.kill('SIGTERM');
                setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
            }, call.timeoutMs)
            : undefined;
        child.stdout.on('data', (chunk) => {
            stdout.push(chunk);
            try {
                call.onStdout?.(chunk);
            }
            catch {
                // Progress is a courtesy: it never breaks the git call.
            }
        });
        child.stderr.on('data', (chunk) => stderr.push(chunk));
        child.on('error', (error) => {
            clearTimeout(timer);
            if (settled)
                return;
            settled = true;
            reject(couldNotStart(call, error));
        });
        // 'close', not 'exit': every byte of stdout/stderr has arrived by then.
        child.on('close', (code, signal) => {
            clearTimeout(timer);
            if (settled)
                return;
            settled = true;
            const outcome = outcomeOf(call, Buffer.concat(stdout), Buffer.concat(stderr), code, signal, timedOut);
            if (outcome instanceof GitError)
                reject(outcome);
            else
                resolve(outcome);
        });
        // A command that fails before reading its stdin closes the pipe (EPIPE): its exit code tells the story.
        child.stdin.on('error', () => undefined);
        child.stdin.end(call.input ?? '');
    });
}
/**
 * runGit for a process with nothing else to do meanwhile (a one-shot `proctor checkpoints create`): git runs
 * to completion before this returns, with no pipes or streams on Node's side. A cold process pays several ms
 * of CPU to set up its first asynchronous child (sockets, stream machinery); a synchronous one costs a
 * fraction of that, and each later call about 1 ms less. Same results and errors as runGit; `onStdout`
 * sees the whole output at once.
 */
function runGitSync(call) {
    const { cwd } = call;
    if (!isDirectory(cwd))
        return Promise.reject(refused(call, 'the directory does not exist'));
    const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
    const result = spawnSync(call.binary, argv, {
        cwd,
        env: call.env,
        input: call.input ?? '',
        maxBuffer: Infinity,
        windowsHide: true,
        ...(call.timeoutMs ? { timeout: call.timeoutMs, killSignal: 'SIGTERM' } : {}),
    });
    if (result.error && result.pid === 0) {
        return Promise.reject(couldNotStart(call, result.error));
    }
    const stdout = result.stdout ?? Buffer.alloc(0);
    if (stdout.length > 0) {
        try {
            call.onStdout?.(stdout);
        }
        catch {
            // Progress is a courtesy: it never breaks the git call.
        }
    }
    const timedOut = result.error?.code === 'ETIMEDOUT';
    const outcome = outcomeOf(call, stdout, result.stderr ?? Buffer.alloc(0), result.status, result.signal, timedOut);
    return outcome instanceof GitError ? Promise.reject(outcome) : Promise.resolve(outcome);
}
/** What an exited git's status means, for both runGit and runGitSync: its result, or the error to raise. */
function outcomeOf(call, stdout, stderr, code, signal, timedOut) {
    const { args, cwd } = call;
    const err = stderr.toString('utf8');
    if (code === 0 || (code !== null && call.okExitCodes?.includes(code))) {
        return { stdout, stderr: err, exitCode: code };
    }
    const details = { args, cwd, exitCode: code, signal, stderr: err };
    if (timedOut)
        return new GitError(details, `git ${args.join(' ')} timed out after ${call.timeoutMs} ms and was killed`);
    if (code === null)
        return new GitError(details, `git ${args.join(' ')} was killed by ${signal ?? 'a signal'} in ${cwd}`);
    return new GitError(details);
}
function isDirectory(path) {
    try {
        return statSync(path).isDirectory();
    }
    catch {
        return false;
    }
}
/** git was not started (its working directory is missing). */
function refused(call, why) {
    return new GitError({ args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '' }, `could not run git ${call.args.join(' ')} in ${call.cwd}: ${why}`);
}
/** The process never started (a missing or non-executable binary). */
function couldNotStart(call, cause) {
    const hint = cause.code === 'ENOENT' ? ` (is git installed and on PATH? looked for "${call.binary}")` : '';
    return new GitError({ args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause }, `could not run git ${call.args.join(' ')}: ${cause.message}${hint}`);
}

// A long-lived git process spoken to through stdin/stdout: `update-ref --stdin` (one transaction per
// checkpoint) and `hash-object --stdin-paths` (one commit object per checkpoint). A session takes a
// checkpoint every few seconds, and each one-shot git call costs a fork of proctor itself — Node's spawn
// blocks the event loop for ~1 ms per 50 MB of proctor's memory, before git has even started — so the two
// calls that are the same every time are answered by one process each for the whole session.
//
// exec.ts runs every other git call and closes stdin once the input is written; a conversation needs the
// pipe kept open, so this module keeps its process, started from the invocation the runner built (same
// sanitized environment, same `-c` settings).
//
// The process is unref'd while idle, so a forgotten stream never keeps proctor alive; if proctor dies,
// git reads end-of-file and exits on its own.
/** How long `close()` waits for git to exit after end-of-file before killing it. */
const CLOSE_GRACE_MS = 2000;
/**
 * An answer that takes longer than this means git is stuck (these commands answer in milliseconds; a
 * ref lock is given up after 100 ms): git is killed and the caller falls back to one-shot calls.
 */
const ANSWER_TIMEOUT_MS = 30_000;
class GitStream {
    child;
    call;
    stdout = '';
    stderr = '';
    exited = null;
    exit;
    pending = null;
    queue = Promise.resolve();
    constructor(call) {
        this.call = call;
        const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
        this.child = spawn(call.binary, argv, { cwd: call.cwd, env: call.env, stdio: 'pipe' });
        this.child.stdout.setEncoding('utf8');
        this.child.stderr.setEncoding('utf8');
        this.child.stdout.on('data', (chunk) => {
            this.stdout += chunk;
            this.deliver();
        });
        this.child.stderr.on('data', (chunk) => {
            // Only the tail is kept for error messages.
            this.stderr = (this.stderr + chunk).slice(-8192);
        });
        // A write after git died is reported by the 'close' below, not as an unhandled EPIPE.
        this.child.stdin.on('error', () => undefined);
        this.exit = new Promise((resolve) => {
            const settle = (code, signal, what) => {
                if (this.exited)
                    return;
                this.exited = { code, signal };
                this.fail(this.failure(what));
                resolve();
            };
            // A git that cannot be started (ENOENT) may report only 'error'.
            this.child.on('error', (error) => {
                this.stderr += `${error.message}\n`;
                if (this.child.pid === undefined)
                    settle(null, null, 'could not start');
            });
            this.child.on('close', (code, signal) => settle(code, signal, 'exited'));
        });
        this.idle();
    }
    /** Whether the process is still there to take requests. */
    get alive() {
        return this.exited === null && !this.child.stdin.writableEnded;
    }
    /**
     * Write `input` and resolve with the next `lines` lines of output. Requests are answered in order; if
     * git exits first, rejects with a GitError carrying its exit code and stderr.
     */
    request(input, lines) {
        const run = this.queue.then(() => this.exchange(input, lines));
        this.queue = run.catch(() => undefined);
        return run;
    }
    /** End stdin and wait for git to exit (killed after a grace period if it does not). */
    async close() {
        await this.queue;
        if (this.exited)
            return;
        // Every handle must keep the loop alive until 'close': git may exit before its pipes reach end-of-file.
        this.busy();
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
        timer.unref();
        await this.exit;
        clearTimeout(timer);
    }
    exchange(input, lines) {
        if (!this.alive)
            return Promise.reject(this.failure('is not running'));
        this.busy();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), ANSWER_TIMEOUT_MS);
        return new Promise((resolve, reject) => {
            this.pending = { lines, resolve, reject };
            this.child.stdin.write(input);
            this.deliver();
        }).finally(() => {
            clearTimeout(timer);
            this.idle();
        });
    }
    deliver() {
        const pending = this.pending;
        if (!pending)
            return;
        const all = this.stdout.split('\n');
        if (all.length - 1 < pending.lines)
            return;
        this.pending = null;
        this.stdout = all.slice(pending.lines).join('\n');
        pending.resolve(all.slice(0, pending.lines));
    }
    fail(error) {
        const pending = this.pending;
        this.pending = null;
        pending?.reject(error);
    }
    failure(what) {
        const exited = this.exited ?? { code: null, signal: null };
        return new GitError({
            args: this.call.args,
            cwd: this.call.cwd,
            exitCode: exited.code,
            signal: exited.signal,
            stderr: this.stderr,
        }, `git ${this.call.args.join(' ')} ${what}` +
            (exited.code !== null ? ` (exit code ${exited.code})` : exited.signal ? ` (${exited.signal})` : '') +
            ` in ${this.call.cwd}`);
    }
    // While a request waits for its answer the process keeps proctor alive; while idle it does not.
    busy() {
        this.child.ref();
        socket(this.child.stdout).ref();
        socket(this.child.stderr).ref();
    }
    idle() {
        this.child.unref();
        for (const pipe of [this.child.stdin, this.child.stdout, this.child.stderr])
            socket(pipe).unref();
    }
}
/** A child's stdio pipes are sockets (typed as plain streams), which can be unref'd. */
function socket(pipe) {
    return pipe;
}

// Parsers for git's NUL-separated (-z) output. Paths are taken byte-for-byte as git prints them with -z:
// no quoting, so spaces, newlines, tabs, unicode and leading dashes come through intact.
/** Split -z output into fields, dropping the empty field after the final NUL. */
function splitNul(output) {
    if (output === '')
        return [];
    const fields = output.split('\0');
    if (fields[fields.length - 1] === '')
        fields.pop();
    return fields;
}
/** `git status --porcelain=v1 -z`: "XY path\0" and for renames/copies "XY new\0old\0". */
function parseStatusZ(output) {
    const fields = splitNul(output);
    const entries = [];
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        const xy = field.slice(0, 2);
        const entry = { xy, path: field.slice(3) };
        if (xy[0] === 'R' || xy[0] === 'C' || xy[1] === 'R' || xy[1] === 'C')
            entry.origPath = fields[++i];
        entries.push(entry);
    }
    return entries;
}
/**
 * Output of `diff-tree -r -z --raw --numstat`: first every raw record (":mode mode sha sha S\0path\0"
 * plus "\0new" for renames), then every numstat record ("a\td\tpath\0", or "a\td\t\0old\0new\0" for
 * renames; "-" counts mean binary).
 */
function parseRawNumstatZ(output) {
    const fields = splitNul(output);
    const raw = [];
    const numstat = [];
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        if (field.startsWith(':')) {
            const [oldMode, newMode, oldSha, newSha, statusField] = field.slice(1).split(' ');
            const status = (statusField ?? '').charAt(0);
            const scoreText = (statusField ?? '').slice(1);
            const entry = {
                oldMode: oldMode,
                newMode: newMode,
                oldSha: oldSha,
                newSha: newSha,
                status,
                score: scoreText ? Number(scoreText) : null,
                path: fields[++i],
            };
            if (status === 'R' || status === 'C') {
                entry.oldPath = entry.path;
                entry.path = fields[++i];
            }
            raw.push(entry);
            continue;
        }
        const [added, deleted, path] = splitTabs(field);
        const entry = { added: count(added), deleted: count(deleted), path };
        if (path === '') {
            entry.oldPath = fields[++i];
            entry.path = fields[++i];
        }
        numstat.push(entry);
    }
    return { raw, numstat };
}
function splitTabs(field) {
    const first = field.indexOf('\t');
    const second = field.indexOf('\t', first + 1);
    return [field.slice(0, first), field.slice(first + 1, second), field.slice(second + 1)];
}
function count(text) {
    return text === '-' ? null : Number(text);
}
/** `git ls-files -s -z`: "mode sha stage\tpath\0". */
function parseLsFilesStageZ(output) {
    return splitNul(output).map((field) => {
        const tab = field.indexOf('\t');
        const [mode, sha, stage] = field.slice(0, tab).split(' ');
        return { mode: mode, sha: sha, stage: Number(stage), path: field.slice(tab + 1) };
    });
}
/** `git ls-tree -r -z --long`: "mode type sha size\tpath\0" (size "-" for trees and gitlinks). */
function parseLsTreeLongZ(output) {
    return splitNul(output).map((field) => {
        const tab = field.indexOf('\t');
        const [mode, type, sha, size] = field
            .slice(0, tab)
            .split(' ')
            .filter((part) => part !== '');
        return {
            mode: mode,
            type: type,
            sha: sha,
            size: size === '-' ? null : Number(size),
            path: field.slice(tab + 1),
        };
    });
}
/** `git check-attr -z <attr> -- paths`: "path\0attr\0value\0" triples. */
function parseCheckAttrZ(output) {
    const fields = splitNul(output);
    const values = new Map();
    for (let i = 0; i + 2 < fields.length; i += 3) {
        values.set(fields[i], fields[i + 2]);
    }
    return values;
}
/** `git push --porcelain`: lines "<flag>\t<from>:<to>\t<summary>" between "To <url>" and "Done". */
function parsePushPorcelain(output) {
    const results = [];
    for (const line of output.split('\n')) {
        const match = /^([ +\-*=!])\t([^\t]*)\t(.*)$/.exec(line);
        if (!match)
            continue;
        const [, flag, refs, summary] = match;
        const colon = refs.lastIndexOf(':');
        results.push({
            status: PUSH_FLAGS[flag],
            from: refs.slice(0, colon),
            to: refs.slice(colon + 1),
            summary: summary,
        });
    }
    return results;
}
const PUSH_FLAGS = {
    ' ': 'ok',
    '+': 'forced',
    '*': 'new',
    '-': 'deleted',
    '!': 'rejected',
    '=': 'up-to-date',
};

// THE one git runner: every git process proctor starts goes through `Git.exec` (one-shot calls) or
// `Git.stream` (the two long-lived processes a checkpointing session talks to, stream.ts). Argv arrays only (no
// shell), a sanitized environment, our `-c` settings, `GIT_INDEX_FILE` only per call for a private index,
// NUL-separated output, and errors that carry the argv, exit code and stderr tail.
//
// The process itself is started by exec.ts (node:child_process, argv array, stdin always closed, the
// result read on 'close' so every byte has arrived); the runner's limiter (p-limit) bounds how many run.
const ZERO_OID_SHA1 = '0000000000000000000000000000000000000000';
const ARG_CHUNK = 2000;
class Git {
    cwd;
    binary;
    env;
    maxConcurrent;
    limit;
    /** See GitRunnerOptions.synchronous. */
    synchronous;
    identity;
    emptyTreeSha;
    constructor(options) {
        this.cwd = path.resolve(options.cwd);
        this.binary = options.binary ?? 'git';
        this.env = sanitizedGitEnv(options.env ?? process.env);
        this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 6);
        this.limit = pLimit(this.maxConcurrent);
        this.synchronous = options.synchronous === true;
    }
    /** A runner for another directory (a worktree, a bare remote) with the same settings. */
    at(cwd) {
        const other = new Git({
            cwd,
            binary: this.binary,
            maxConcurrent: this.maxConcurrent,
            env: {},
            synchronous: this.synchronous,
        });
        Object.assign(other.env, this.env);
        return other;
    }
    /** A variable of the environment git runs with (after sanitizing), e.g. GIT_CONFIG_GLOBAL. */
    envValue(key) {
        return this.env[key];
    }
    /** The escape hatch: any git command, text output. Throws GitError unless the exit code is 0 or allowed. */
    async raw(args, options = {}) {
        const result = await this.exec(args, options);
        return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, exitCode: result.exitCode };
    }
    /** Like raw, with stdout as bytes (blob contents). */
    async exec(args, options = {}) {
        return this.limit(() => this.spawnGit(args, options));
    }
    // ---- repository facts -------------------------------------------------------------------------
    /** The commit/object a revision names, or null when it does not resolve. */
    async revParse(rev) {
        const result = await this.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], {
            okExitCodes: [1],
        });
        return result.exitCode === 0 ? result.stdout.trim() : null;
    }
    /** HEAD's commit, or null on an unborn branch. */
    headCommit() {
        return this.revParse('HEAD^{commit}');
    }
    async topLevel() {
        return (await this.raw(['rev-parse', '--show-toplevel'])).stdout.replace(/\n$/, '');
    }
    /** Absolute path of a file inside this worktree's git dir (`--git-path`, so linked worktrees work). */
    async gitPath(name) {
        const out = (await this.raw(['rev-parse', '--git-path', name])).stdout.replace(/\n$/, '');
        return path.resolve(this.cwd, out);
    }
    /** Absolute per-worktree git dir. */
    async gitDir() {
        const out = (await this.raw(['rev-parse', '--git-dir'])).stdout.replace(/\n$/, '');
        return path.resolve(this.cwd, out);
    }
    async isShallow() {
        return (await this.raw(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
    }
    /** The all-zero object id of this repository's hash algorithm (sha1 or sha256). */
    async zeroOid() {
        return '0'.repeat((await this.emptyTree()).length) || ZERO_OID_SHA1;
    }
    /** The id of the empty tree in this repository's hash algorithm. */
    emptyTree() {
        this.emptyTreeSha ??= this.raw(['hash-object', '-t', 'tree', '--stdin'], { input: '' }).then((r) => r.stdout.trim());
        return this.emptyTreeSha;
    }
    async remoteUrl(name) {
        const result = await this.raw(['remote', 'get-url', '--', name], { okExitCodes: [2, 128] });
        return result.exitCode === 0 ? result.stdout.trim() : null;
    }
    async remotes() {
        return (await this.raw(['remote'])).stdout.split('\n').filter((line) => line !== '');
    }
    async configGet(key) {
        const result = await this.raw(['config', '--get', '--', key], { okExitCodes: [1] });
        return result.exitCode === 0 ? result.stdout.replace(/\n$/, '') : null;
    }
    // ---- index and tree plumbing (always on a private index) --------------------------------------
    /** Load a tree into the private index: `--reset` keeps stat data of matching entries; null = empty. */
    async readTree(indexFile, treeish, options = {}) {
        const args = ['read-tree'];
        if (treeish === null)
            args.push('--empty');
        else {
            if (options.reset)
                args.push('--reset');
            args.push(treeish);
        }
        await this.raw(args, { indexFile });
    }
    /**
     * `add -A` of the whole worktree into the private index, honouring .gitignore. Excluded paths are
     * passed as literal exclude pathspecs through stdin, so no path is ever parsed as an option or glob.
     */
    async addAll(indexFile, options = {}) {
        const specs = [':(top)', ...(options.exclude ?? []).map((p) => `:(top,literal,exclude)${p}`)];
        await this.raw(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            indexFile,
            input: specs.join('\0') + '\0',
        });
    }
    /** Remove paths from the private index only (the files stay). */
    async removeCached(indexFile, paths) {
        if (paths.length === 0)
            return;
        await this.raw(['rm', '--cached', '-r', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            indexFile,
            input: paths.map((p) => `:(top,literal)${p}`).join('\0') + '\0',
        });
    }
    async writeTree(indexFile) {
        return (await this.raw(['write-tree'], { indexFile })).stdout.trim();
    }
    /** Create a commit object; identity falls back to proctor's only when the user has none. */
    async commitTree(tree, parents, message) {
        const args = ['commit-tree', '--no-gpg-sign'];
        for (const parent of parents)
            args.push('-p', parent);
        args.push('-F', '-', tree);
        if (!this.identity) {
            // Most users have an identity: try theirs first (git refuses to guess one under useConfigOnly, as
            // the probe does), and probe only when that fails, instead of two `git var` before every first commit.
            const first = await this.raw(args, {
                input: message,
                config: ['user.useConfigOnly=true'],
                okExitCodes: [128],
            });
            if (first.exitCode === 0)
                return first.stdout.trim();
        }
        const result = await this.raw(args, { input: message, env: await this.identityEnv() });
        return result.stdout.trim();
    }
    /**
     * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
     * Throws RefMovedError when someone else moved it.
     */
    async updateRefCas(ref, newSha, oldSha, reason = 'proctor') {
        // The all-zero id is as long as the new one (sha1 or sha256): no process to learn the hash algorithm.
        const expected = oldSha ?? '0'.repeat(newSha.length);
        const args = ['update-ref', '-m', reason, '--end-of-options', ref, newSha, expected];
        const result = await this.exec(args, { okExitCodes: [1, 128] });
        if (result.exitCode !== 0) {
            const details = { args, cwd: this.cwd, exitCode: result.exitCode, signal: null, stderr: result.stderr };
            const current = await this.revParse(ref);
            if (current !== oldSha)
                throw new RefMovedError(ref, oldSha, details);
            throw new GitError(details);
        }
    }
    async deleteRef(ref, oldSha) {
        const args = ['update-ref', '-d', '--end-of-options', ref];
        if (oldSha)
            args.push(oldSha);
        await this.raw(args);
    }
    /** Refs under a prefix with the objects they point at. */
    async forEachRef(prefix) {
        const out = (await this.raw(['for-each-ref', '--format=%(objectname) %(refname)', '--', prefix])).stdout;
        return out
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => ({ sha: line.slice(0, line.indexOf(' ')), ref: line.slice(line.indexOf(' ') + 1) }));
    }
    /** `ls-files -z` of the user's index (or a private one): tracked paths, or untracked with `others`. */
    async lsFiles(options = {}) {
        const args = ['ls-files', '-z', '--full-name'];
        if (options.others)
            args.push('--others');
        if (options.ignored)
            args.push('--ignored');
        if (options.excludeStandard)
            args.push('--exclude-standard');
        const call = {};
        if (options.indexFile)
            call.indexFile = options.indexFile;
        return splitNul((await this.raw(args, call)).stdout);
    }
    async lsFilesStage(indexFile) {
        const call = {};
        if (indexFile)
            call.indexFile = indexFile;
        return parseLsFilesStageZ((await this.raw(['ls-files', '-s', '-z', '--full-name'], call)).stdout);
    }
    /** Whether the index has assume-unchanged or skip-worktree entries (their stat data cannot be trusted). */
    async hasHiddenIndexEntries(indexFile) {
        const call = {};
        if (indexFile)
            call.indexFile = indexFile;
        const fields = splitNul((await this.raw(['ls-files', '-v', '-z'], call)).stdout);
        return fields.some((field) => /^[a-zS] /.test(field));
    }
    async lsTree(treeish, paths = []) {
        const args = ['ls-tree', '-r', '-z', '--long', '--full-tree', '--end-of-options', treeish];
        if (paths.length > 0)
            args.push('--', ...paths.map((p) => `:(top,literal)${p}`));
        return parseLsTreeLongZ((await this.raw(args)).stdout);
    }
    /** Working-tree status without refreshing (or rewriting) the user's index. */
    async statusZ(options = {}) {
        const args = ['status', '--porcelain=v1', '-z', `--untracked-files=${options.untracked ?? 'all'}`];
        const result = await this.raw(args, { globalArgs: ['--no-optional-locks'] });
        return parseStatusZ(result.stdout);
    }
    /** Raw + numstat diff between two trees (or commits), renames detected. */
    async diffTreeZ(from, to, options = {}) {
        const args = [
            'diff-tree',
            '-r',
            '-z',
            '--raw',
            '--numstat',
            '--no-abbrev',
            '--no-ext-diff',
            '--no-textconv',
        ];
        args.push(options.renames === false ? '--no-renames' : '-M');
        args.push('--end-of-options', from, to);
        return parseRawNumstatZ((await this.raw(args)).stdout);
    }
    /** Type and size of many objects in one process; null for objects that do not exist. */
    async catFileInfo(objects) {
        const info = new Map();
        if (objects.length === 0)
            return info;
        const unique = [...new Set(objects)];
        const result = await this.raw(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
            input: unique.join('\n') + '\n',
        });
        const lines = result.stdout.split('\n');
        unique.forEach((object, i) => {
            const parts = (lines[i] ?? '').split(' ');
            info.set(object, parts[1] === 'missing' || parts.length < 3 ? null : { type: parts[1], size: Number(parts[2]) });
        });
        return info;
    }
    /** Object ids for many revisions in one process (e.g. `HEAD^{tree}`); null for those that do not resolve. */
    async resolveObjects(revs) {
        const result = await this.raw(['cat-file', '--batch-check=%(objectname)'], {
            input: revs.join('\n') + '\n',
        });
        const lines = result.stdout.split('\n');
        return revs.map((_, i) => {
            const line = lines[i] ?? '';
            return /^[0-9a-f]{40,64}$/.test(line) ? line : null;
        });
    }
    async catFileSize(object) {
        return (await this.catFileInfo([object])).get(object)?.size ?? null;
    }
    async catFileBlob(object) {
        return (await this.exec(['cat-file', 'blob', object])).stdout;
    }
    /** The subset of `paths` that .gitignore (and info/exclude, core.excludesFile) ignores. */
    async checkIgnore(paths) {
        const ignored = new Set();
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK);
            const result = await this.raw(['check-ignore', '-z', '--no-index', '--stdin'], {
                input: chunk.join('\0') + '\0',
                okExitCodes: [1],
            });
            for (const p of splitNul(result.stdout))
                ignored.add(p);
        }
        return ignored;
    }
    /** The value of one attribute for each path ("unspecified", "set", "unset" or the value). */
    async checkAttr(attr, paths, indexFile) {
        const values = new Map();
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK);
            const call = { input: chunk.join('\0') + '\0' };
            if (indexFile)
                call.indexFile = indexFile;
            const result = await this.raw(['check-attr', '-z', '--stdin', attr], call);
            for (const [p, value] of parseCheckAttrZ(result.stdout))
                values.set(p, value);
        }
        return values;
    }
    /** Write index entries to the worktree (all, or the given paths) without touching the user's index. */
    async checkoutIndex(indexFile, paths) {
        if (paths === 'all') {
            await this.raw(['checkout-index', '-a', '-f'], { indexFile });
            return;
        }
        if (paths.length === 0)
            return;
        await this.raw(['checkout-index', '-f', '-z', '--stdin'], { indexFile, input: paths.join('\0') + '\0' });
    }
    // ---- network and sharing -----------------------------------------------------------------------
    /** Push refspecs; never forces. A rejection is an outcome (ok=false), not a throw. */
    async push(remote, refspecs, options = {}) {
        for (const spec of refspecs) {
            if (spec.startsWith('+'))
                throw new Error(`refusing to force-push ${spec}: proctor only fast-forwards`);
        }
        const args = [
            'push',
            '--porcelain',
            '--no-verify',
            ...(options.extraArgs ?? []),
            '--',
            remote,
            ...refspecs,
        ];
        const call = { okExitCodes: [1, 128] };
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (options.secretConfig)
            call.secretConfig = options.secretConfig;
        const result = await this.raw(args, call);
        const refs = parsePushPorcelain(result.stdout);
        const ok = result.exitCode === 0 && refs.every((r) => r.status !== 'rejected');
        return { ok, exitCode: result.exitCode, refs, stderr: result.stderr };
    }
    /** Fetch refspecs; with `depth` only that much history comes down (never unshallows). */
    async fetch(remote, refspecs, options = {}) {
        const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules'];
        if (options.depth)
            args.push(`--depth=${options.depth}`);
        args.push('--', remote, ...refspecs);
        const call = {};
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (options.secretConfig)
            call.secretConfig = options.secretConfig;
        return this.raw(args, call);
    }
    /** `git ls-remote` of one ref: its object id, or null when the remote lacks it. */
    async lsRemote(remote, ref, options = {}) {
        const call = {};
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        const out = (await this.raw(['ls-remote', '--', remote, ref], call)).stdout;
        const line = out.split('\n').find((l) => l.endsWith(`\t${ref}`));
        return line ? line.slice(0, line.indexOf('\t')) : null;
    }
    async bundleCreate(file, revs) {
        await this.raw(['bundle', 'create', '--quiet', file, ...revs]);
    }
    async worktreeAdd(dir, commitish, options = {}) {
        const args = ['worktree', 'add', '--quiet'];
        if (options.detach ?? true)
            args.push('--detach');
        args.push('--', dir, commitish);
        await this.raw(args);
    }
    async worktreeRemove(dir, options = {}) {
        const args = ['worktree', 'remove'];
        if (options.force)
            args.push('--force');
        args.push('--', dir);
        await this.raw(args);
    }
    // ---- internals ---------------------------------------------------------------------------------
    /**
     * Author/committer environment for our commits: the user's own identity when git has one (config or
     * GIT_AUTHOR_* / GIT_COMMITTER_*), else `proctor <proctor@localhost>`; a CI runner without
     * user.name must not make checkpoints fail.
     */
    async identityEnv() {
        return (await this.identityProbe()).env;
    }
    /**
     * Who our commits are by, as `git commit-tree` would write it: `Name <email>` per role, and the date
     * only when GIT_AUTHOR_DATE / GIT_COMMITTER_DATE pins it (otherwise each commit takes the time it is made).
     */
    async commitIdents() {
        return (await this.identityProbe()).idents;
    }
    identityProbe() {
        this.identity ??= (async () => {
            const env = {};
            const probe = (role, config, extra = {}) => this.raw(['var', `GIT_${role}_IDENT`], { config, env: extra, okExitCodes: [128, 1] });
            const idents = await Promise.all(['AUTHOR', 'COMMITTER'].map(async (role) => {
                let result = await probe(role, ['user.useConfigOnly=true']);
                if (result.exitCode !== 0) {
                    env[`GIT_${role}_NAME`] = FALLBACK_IDENTITY.name;
                    env[`GIT_${role}_EMAIL`] = FALLBACK_IDENTITY.email;
                    result = await probe(role, [], {
                        [`GIT_${role}_NAME`]: FALLBACK_IDENTITY.name,
                        [`GIT_${role}_EMAIL`]: FALLBACK_IDENTITY.email,
                    });
                }
                const line = result.stdout.trim();
                const match = /^(.* <[^<>]*>) (\d+ [+-]\d{4})$/.exec(line);
                if (result.exitCode !== 0 || !match) {
                    throw new GitError({
                        args: ['var', `GIT_${role}_IDENT`],
                        cwd: this.cwd,
                        exitCode: result.exitCode,
                        signal: null,
                        stderr: result.stderr,
                    }, `git var GIT_${role}_IDENT gave no usable identity ("${line}")`);
                }
                return { name: match[1], date: this.env[`GIT_${role}_DATE`] ? match[2] : null };
            }));
            return { env, idents: { author: idents[0], committer: idents[1] } };
        })();
        return this.identity;
    }
    /**
     * A long-lived git process for a request/answer conversation (`update-ref --stdin`,
     * `hash-object --stdin-paths`), with the same environment and settings as every other call.
     */
    stream(args, options = {}) {
        return new GitStream(this.invocation(args, options));
    }
    spawnGit(args, options) {
        const call = this.invocation(args, options);
        return this.synchronous ? runGitSync(call) : runGit(call);
    }
    invocation(args, options) {
        const env = { ...this.env, ...options.env };
        if (options.indexFile)
            env.GIT_INDEX_FILE = options.indexFile;
        if (options.secretConfig)
            Object.assign(env, configEnv(env, options.secretConfig));
        const call = {
            binary: this.binary,
            cwd: options.cwd ?? this.cwd,
            env,
            config: [...BASE_CONFIG, ...(options.indexFile ? PRIVATE_INDEX_CONFIG : []), ...(options.config ?? [])],
            argv: [...(options.globalArgs ?? []), ...args],
            args,
        };
        if (options.input !== undefined)
            call.input = options.input;
        if (options.okExitCodes)
            call.okExitCodes = options.okExitCodes;
        if (options.onStdout)
            call.onStdout = options.onStdout;
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        return call;
    }
}

export { Git as G, RefMovedError as R, GitError as a, persistedCredentialKeys as b, pLimit as p, splitNul as s, tokenHeaderConfig as t };
