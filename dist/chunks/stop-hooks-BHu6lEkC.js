import { s as startHookProcess, t as toCommandSpec, d as describeCommand } from './run-hook-CbMPOWb_.js';
import { createSanitizer, stripControl } from './sanitize-sKtkP4Sl.js';

/** The JSON a stop hook reads on stdin. `iterations` mirrors `rounds` for Aleph-style scripts. */
function stopPayload(context, round) {
    return {
        hook_event_name: 'stop',
        session_id: context.session_id,
        cwd: context.cwd,
        stop_reason: context.stop_reason,
        final_text: context.final_text,
        rounds: context.rounds,
        iterations: context.rounds,
        round,
        stop_hook_active: context.stop_hook_active,
        checkpoint: context.checkpoint,
        violations: context.violations,
        pushed_refs: context.pushed_refs ?? [],
        remote: context.remote ?? null,
    };
}
/** The same facts for scripts that do not parse JSON. */
function stopEnv(context, round, hookName) {
    return {
        PROCTOR_SESSION_ID: context.session_id,
        PROCTOR_HOOK_EVENT: 'stop',
        PROCTOR_HOOK_NAME: hookName,
        PROCTOR_STOP_REASON: context.stop_reason,
        PROCTOR_ROUND: String(round),
        PROCTOR_STOP_HOOK_ACTIVE: context.stop_hook_active ? '1' : '0',
        PROCTOR_CHECKPOINT_SHA: context.checkpoint?.sha ?? '',
        PROCTOR_CHECKPOINT_REF: context.checkpoint?.ref ?? '',
        PROCTOR_CWD: context.cwd,
    };
}
const ZERO_SHA = /^0+$/;
/** Parses git's pre-push stdin; blank lines are ignored and an empty stdin (nothing to push) is fine. */
function parsePrePushLines(text) {
    const refs = [];
    for (const line of text.split(/\r?\n/)) {
        const parts = line.trim().split(/\s+/);
        if (parts.length !== 4)
            continue;
        const [local_ref, local_sha, remote_ref, remote_sha] = parts;
        refs.push({ local_ref, local_sha, remote_ref, remote_sha });
    }
    return refs;
}
/** A deletion pushes nothing to check (`(delete)` with an all-zero local sha). */
function isDeletion(ref) {
    return ref.local_ref === '(delete)' || ZERO_SHA.test(ref.local_sha);
}

// How a finished stop hook's exit code and output become a verdict. Users reuse their Claude Code, Codex,
// Gemini CLI and Hermes hook scripts, so their JSON shapes are understood too (docs/hooks.md lists them).
// Fail closed: a hook that exits non-zero (`npm test` failing exits 1) has failed, and its output is what
// the agent needs to fix it; only a hook that could not run at all is an error, which the user must fix.
/** Reasons go back to the agent and into reports: long enough for a test summary, short enough to read. */
const MAX_REASON_CHARS = 4000;
/** How much of a failed hook's output its reason quotes: the end, where test runners summarize. */
const FAILURE_TAIL_LINES = 60;
const FAILURE_TAIL_BYTES = 4096;
function interpretStopHook(outcome) {
    const who = label(outcome);
    if (outcome.spawnError !== undefined) {
        return { verdict: 'error', reason: cap(`${outcome.spawnError}; fix its command in proctor.yml`) };
    }
    if (outcome.timedOut) {
        const limit = outcome.timeoutMs !== undefined ? ` after ${outcome.timeoutMs}ms` : '';
        return {
            verdict: 'error',
            reason: withTail(`${who} timed out${limit}; raise its timeout in proctor.yml or make it faster`, outcome.stderr),
        };
    }
    if (outcome.stoppedBy) {
        return { verdict: 'error', reason: `${who} was stopped (${outcome.stoppedBy}) before it finished` };
    }
    if (outcome.exitCode === 126 || outcome.exitCode === 127) {
        // The shell's "cannot execute" and "command not found": the hook never ran its check.
        const what = outcome.exitCode === 127 ? 'command not found' : 'command not executable';
        return {
            verdict: 'error',
            reason: withTail(`${who} could not run (exit ${outcome.exitCode}: ${what}); fix its command in proctor.yml`, outcome.stderr || outcome.stdout),
        };
    }
    if (outcome.exitCode === null) {
        return {
            verdict: 'fail',
            reason: failureReason(`${who} was killed by ${outcome.signal ?? 'a signal'}`, outcome),
        };
    }
    const json = parseJsonDecision(outcome.stdout);
    if (outcome.exitCode === 0) {
        if (json.decision === 'block')
            return { verdict: 'block', reason: cap(json.reason ?? 'blocked (no reason given)') };
        return { verdict: 'allow', reason: null };
    }
    if (outcome.exitCode === 2) {
        // Exit 2 always blocks (as in Claude Code): even an "approve" in the JSON cannot undo it.
        const reason = json.reason ?? nonEmpty(outcome.stderr) ?? nonEmpty(outcome.stdout) ?? 'exited 2 without a reason';
        return { verdict: 'block', reason: cap(reason) };
    }
    return { verdict: 'fail', reason: failureReason(`${who} exited ${outcome.exitCode}`, outcome) };
}
/** "tests (npm test)", or "the hook" when the caller did not say. */
function label(outcome) {
    if (outcome.name === undefined)
        return 'the hook';
    return outcome.command ? `${outcome.name} (${outcome.command})` : outcome.name;
}
/**
 * "<head>:" and the last lines of the hook's output (stdout, then stderr), redacted and stripped of
 * escape sequences — the part of a test run that says what failed.
 */
function failureReason(head, outcome) {
    const redact = createSanitizer({ secrets: [...(outcome.secrets ?? [])] }).redact;
    const output = [outcome.stdout, outcome.stderr]
        .map((text) => stripControl(text).trimEnd())
        .filter((text) => text.trim().length > 0)
        .join('\n');
    const shortHead = head.length > 300 ? `${head.slice(0, 300)}…` : head;
    // The whole reason stays under MAX_REASON_CHARS by shortening the tail's start, never its end.
    const budget = Math.min(FAILURE_TAIL_BYTES, MAX_REASON_CHARS - shortHead.length - 4);
    const tail = tailOf(redact(output), FAILURE_TAIL_LINES, budget).trim();
    return tail ? `${shortHead}: ${tail}` : `${shortHead} without output`;
}
/** The last `lines` lines, at most `bytes` bytes of UTF-8, cut at a line start where possible. */
function tailOf(text, lines, bytes) {
    let tail = text.replace(/^\n+/, '').split('\n').slice(-60).join('\n');
    const buffer = Buffer.from(tail, 'utf8');
    if (buffer.length > bytes) {
        tail = buffer
            .subarray(buffer.length - bytes)
            .toString('utf8')
            .replace(/^\uFFFD+/, '');
        const newline = tail.indexOf('\n');
        if (newline >= 0 && newline < tail.length - 1)
            tail = tail.slice(newline + 1);
        tail = `…\n${tail}`;
    }
    return tail;
}
/**
 * Reads a decision from stdout when it is one JSON object (leading whitespace allowed, as Claude Code does).
 * Accepted blocking shapes: {"decision":"block"|"deny", "reason"}, {"continue":false, "stopReason"},
 * {"action":"block"|"continue", "message"} (Hermes) and {"hookSpecificOutput":{"additionalContext"}} (Claude
 * Code's "keep going" feedback). {"decision":"approve"|"allow"} allows explicitly.
 */
function parseJsonDecision(stdout) {
    const text = stdout.trim();
    if (!text.startsWith('{'))
        return { decision: null, reason: null };
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        return { decision: null, reason: null };
    }
    if (!isRecord(value))
        return { decision: null, reason: null };
    const decision = typeof value.decision === 'string' ? value.decision.toLowerCase() : null;
    const action = typeof value.action === 'string' ? value.action.toLowerCase() : null;
    const reason = firstString(value.reason, value.message);
    if (value.continue === false) {
        return {
            decision: 'block',
            reason: firstString(value.stopReason, value.reason) ?? 'asked not to continue',
        };
    }
    if (decision === 'block' || decision === 'deny' || action === 'block' || action === 'continue') {
        return { decision: 'block', reason };
    }
    const specific = isRecord(value.hookSpecificOutput) ? value.hookSpecificOutput : null;
    const context = specific ? firstString(specific.additionalContext) : null;
    if (context !== null && decision !== 'approve' && decision !== 'allow')
        return { decision: 'block', reason: context };
    if (decision === 'approve' || decision === 'allow')
        return { decision: 'allow', reason };
    return { decision: null, reason };
}
function withTail(head, output) {
    const tail = lastLines(output);
    return cap(tail ? `${head}: ${tail}` : head);
}
function lastLines(text, count) {
    return text.trim().split(/\r?\n/).slice(-5).join('\n').trim();
}
function cap(text) {
    const trimmed = text.trim();
    if (trimmed.length <= MAX_REASON_CHARS)
        return trimmed;
    return `${trimmed.slice(0, MAX_REASON_CHARS)}… (${trimmed.length - MAX_REASON_CHARS} more characters)`;
}
function nonEmpty(text) {
    const trimmed = text.trim();
    return trimmed.length > 0 ? trimmed : null;
}
function firstString(...values) {
    for (const value of values)
        if (typeof value === 'string' && value.trim().length > 0)
            return value.trim();
    return null;
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function runStopHooks(options) {
    const stdin = `${JSON.stringify(stopPayload(options.context, options.round))}\n`;
    const running = [];
    const stopAll = () => {
        for (const hook of running)
            void hook.process?.stop('shutdown');
    };
    options.signal?.addEventListener('abort', stopAll, { once: true });
    try {
        const settled = await Promise.all(options.hooks.map(async (hook) => {
            options.onStart?.(hook.name);
            const started = startHookProcess({
                command: toCommandSpec(hook.command),
                cwd: options.cwd,
                env: { ...options.env, ...stopEnv(options.context, options.round, hook.name) },
                stdin,
                timeoutMs: hook.timeout,
                graceMs: options.graceMs,
                label: `stop hook ${hook.name}`,
                registry: options.registry,
                ...(options.onOutput
                    ? { onOutput: (chunk) => options.onOutput?.(hook.name, chunk) }
                    : {}),
            });
            running.push(started);
            if (options.signal?.aborted)
                void started.process?.stop('shutdown');
            const run = await started.done;
            const interpreted = interpretStopHook({
                ...run,
                timeoutMs: hook.timeout,
                name: hook.name,
                command: describeCommand(hook.command),
                secrets: knownSecrets(options.env),
            });
            const advisory = hook.advisory || (hook.on_error === 'allow' && interpreted.verdict !== 'block');
            const result = {
                name: hook.name,
                verdict: interpreted.verdict === 'fail' ? 'block' : interpreted.verdict,
                reason: interpreted.reason,
                exit_code: run.exitCode,
                duration_ms: Math.round(run.durationMs),
                round: options.round,
            };
            if (interpreted.verdict === 'fail' && advisory)
                result.verdict = 'error';
            if (run.timedOut)
                result.timed_out = true;
            if (advisory && result.verdict !== 'allow')
                result.advisory = true;
            options.onResult?.(result);
            return { result, failed: interpreted.verdict === 'fail' };
        }));
        const gating = settled.filter(({ result }) => result.verdict !== 'allow' && !result.advisory);
        return {
            verdict: gating.length > 0 ? 'block' : 'allow',
            results: settled.map(({ result }) => result),
            reasons: gating
                .filter(({ result }) => result.verdict === 'block')
                .map(({ result, failed }) => 
            // A failure's reason already starts with the hook's name and command.
            failed
                ? (result.reason ?? `${result.name} failed`)
                : `${result.name}: ${result.reason ?? 'blocked'}`),
            errors: gating
                .filter(({ result }) => result.verdict === 'error')
                .map(({ result }) => `${result.name}: ${result.reason ?? 'hook error'}`),
        };
    }
    finally {
        options.signal?.removeEventListener('abort', stopAll);
    }
}
/** Token values in the hooks' environment that must not be quoted back from their output. */
function knownSecrets(env) {
    return ['GITHUB_TOKEN', 'GH_TOKEN', 'INPUT_GITHUB-TOKEN', 'INPUT_GITHUB_TOKEN']
        .map((name) => env[name])
        .filter((value) => typeof value === 'string' && value.length > 0);
}

var stopHooks = /*#__PURE__*/Object.freeze({
    __proto__: null,
    runStopHooks: runStopHooks
});

export { isDeletion as i, parsePrePushLines as p, runStopHooks as r, stopHooks as s };
