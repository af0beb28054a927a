const { setTimeout } = process.getBuiltinModule("node:timers/promises");
import { i as isProctorCheck, C as CiReader, c as classifyTrouble } from './ci-status-D4rz8FqB.js';
import { f as formatDuration, G as Git } from './checkpoints-create-CJcO-Brq.js';
import { r as shellQuote } from './evaluate-DoW4VY95.js';
import { stripControl, createSanitizer } from './sanitize-C-XaPVOa.js';
import { t as tailOf, c as cap, F as FAILURE_TAIL_BYTES, a as FAILURE_TAIL_LINES } from './stop-hooks-BJdq3XY7.js';
import { c as changedWorkflowDefinitions } from './ci-workflows-DbwWjxKE.js';
import './client-DS6gKtGk.js';




import './index-BLCY1uhR.js';














import './commonjs-helpers-Bgu_3bK-.js';










import './context-D-q0CQle.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';
import './areas-BPhpJk9z.js';
import './secret-forms-Ct3YzP3D.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';

import './yaml-DFf8_hI8.js';



// The `ci-checks` stop hook's judgement of one read of a commit's CI, and the reason sent back to the agent.
// Pure: the hook (ci-checks.ts) reads GitHub and waits; this decides and words.
/** A check run's conclusions that branch protection counts as passing. */
const PASSING = new Set(['success', 'neutral', 'skipped']);
/** Latest check run per name and latest status per context, proctor's own left out. */
function currentChecks(runs, statuses) {
    const latest = new Map();
    for (const run of runs) {
        if (isProctorCheck(run.name))
            continue;
        const seen = latest.get(run.name);
        if (!seen || run.id > seen.id)
            latest.set(run.name, run);
    }
    const checks = [...latest.values()].map((run) => ({
        name: run.name,
        kind: 'check run',
        state: run.status !== 'completed' ? 'pending' : PASSING.has(run.conclusion ?? '') ? 'pass' : 'fail',
        detail: run.status !== 'completed' ? run.status : (run.conclusion ?? 'no conclusion'),
        run,
        description: run.title,
    }));
    for (const status of statuses) {
        if (isProctorCheck(status.context) || latest.has(status.context))
            continue;
        checks.push({
            name: status.context,
            kind: 'status',
            state: status.state === 'success' ? 'pass' : status.state === 'pending' ? 'pending' : 'fail',
            detail: status.state,
            run: null,
            description: status.description,
        });
    }
    return checks.sort((a, b) => a.name.localeCompare(b.name));
}
/**
 * `watched`: the names that must pass (required or configured); null: every check on the commit. A watched
 * name with no check run or status yet is pending: CI may not have picked the commit up.
 */
function judgeChecks(checks, watched) {
    const byName = new Map(checks.map((c) => [c.name, c]));
    const relevant = watched ? watched.map((name) => byName.get(name) ?? name) : [...checks];
    const out = { failing: [], pending: [], passing: [] };
    for (const check of relevant) {
        if (typeof check === 'string')
            out.pending.push(`${check} (not reported yet)`);
        else if (check.state === 'fail')
            out.failing.push(check);
        else if (check.state === 'pending')
            out.pending.push(`${check.name} (${check.detail})`);
        else
            out.passing.push(check);
    }
    return out;
}
/** Annotations quoted per failing check. */
const MAX_ANNOTATIONS = 10;
/**
 * The reason sent back to the agent: which checks failed on which commit, their annotations and log tails,
 * and what is still pending. Escape sequences and controls removed; at most MAX_REASON_CHARS characters,
 * the log tails sharing the budget of one failed hook's output (FAILURE_TAIL_LINES / FAILURE_TAIL_BYTES).
 */
function failureReason(o) {
    const share = Math.max(1, o.details.length);
    const lines = [
        `CI failed on ${o.sha.slice(0, 12)} (pushed to ${o.branch}; checks: ${o.watchedFrom}): ${o.details.map((d) => d.check.name).join(', ')}`,
    ];
    for (const { check, annotations, log } of o.details) {
        lines.push(`- ${check.name} (${check.kind}, ${check.detail})${check.description ? `: ${check.description}` : ''}`);
        for (const a of annotations)
            lines.push(`  ${a.path}:${a.line}: ${a.level ?? 'note'}: ${a.title ? `${a.title}: ` : ''}${a.message}`.replace(/\n+/g, ' '));
        if (log && 'text' in log) {
            const tail = tailOf(stripTimestamps(stripControl(log.text)), Math.floor(FAILURE_TAIL_LINES / share), Math.floor(FAILURE_TAIL_BYTES / share)).trim();
            if (tail)
                lines.push('  log (last lines):', ...tail.split('\n').map((line) => `    ${line}`));
        }
        else if (log)
            lines.push(`  (${log.unavailable})`);
    }
    if (o.pending.length)
        lines.push(`still pending: ${o.pending.join(', ')}`);
    return cap(stripControl(lines.join('\n')));
}
/** Actions prefixes every log line with its time (`2026-01-01T00:00:00.1234567Z `): noise to the agent. */
function stripTimestamps(text) {
    return text.replace(/^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/gm, '');
}

// The built-in stop hook `uses: ci-checks`: the repository's own CI as the gate after the agent. It pushes
// the judged checkpoint through the session's push queue, waits (until the hook's timeout) for the checks
// the repository requires on that commit, and blocks with the failing ones' names, annotations and log
// tails. docs/hooks.md#the-prs-ci-as-a-stop-hook says where it can run and why a timeout is an error.
/** How long GitHub may take to answer past the deadline (the last read, made at the deadline itself). */
const LAST_READ_MS = 5_000;
/** Below this many requests left in the rate-limit window, the next read waits for the window to reset. */
const LOW_RATE_REMAINING = 50;
const NOT_HERE = 'ci-checks cannot run here: it pushes the checkpoint and reads GitHub, which only a session of the action in the one-job layout (mode: run) can, with a token that may push and read checks (docs/hooks.md#the-prs-ci-as-a-stop-hook); the verify job of the two-job layout, an agent job with handoff, a fork pull request, `proctor check` and `proctor run` have neither';
async function runCiChecks(o) {
    const error = (reason, timedOut = false) => ({
        verdict: 'error',
        reason: cap(reason),
        timedOut,
    });
    if (!o.builtins)
        return error(NOT_HERE);
    const checkpoint = o.context.checkpoint;
    if (!checkpoint)
        return error('no checkpoint to push: checkpoints are off, or the work could not be recorded');
    const deadline = Date.now() + o.hook.timeout;
    // CI runs the workflows of the commit it is given: one the agent rewrote would judge nothing. Asked
    // before the push, so such a checkpoint never reaches CI.
    const rewritten = await ciRewritten(o.context.cwd, o.builtins.baseline, checkpoint.sha);
    if (rewritten)
        return { verdict: rewritten.verdict, reason: cap(rewritten.reason), timedOut: false };
    const pushed = await o.builtins.push(checkpoint.sha);
    if (!pushed.ok)
        return error(`could not push checkpoint ${checkpoint.sha.slice(0, 12)} for CI: ${pushed.reason}`);
    const options = o.hook.with;
    const pollMs = options?.poll_interval ?? 15_000;
    const reader = new CiReader(o.builtins.github);
    const redact = createSanitizer({ secrets: [...(o.secrets ?? [])] }).redact;
    let watched = null;
    let lastTrouble;
    let quietPolls = 0;
    let pending = ['(nothing read yet)'];
    for (;;) {
        if (o.signal?.aborted)
            return error('stopped while waiting for CI (proctor is shutting down)');
        let waitMs = pollMs;
        // The read at the deadline still gets a moment to answer: a check that finished just then counts.
        const remaining = Math.max(0, deadline - Date.now()) + LAST_READ_MS;
        reader.signal = o.signal
            ? AbortSignal.any([o.signal, AbortSignal.timeout(remaining)])
            : AbortSignal.timeout(remaining);
        try {
            watched ??= await watchedChecks(reader, o.hook);
            const { runs, statuses } = await reader.commitChecks(pushed.sha);
            const checks = currentChecks(runs, statuses);
            const judged = judgeChecks(checks, watched.names);
            lastTrouble = null;
            pending = judged.pending;
            const seenAny = watched.names !== null || checks.length > 0;
            if (judged.failing.length > 0 && (judged.pending.length === 0 || Date.now() >= deadline)) {
                const details = await Promise.all(judged.failing.map(async (check) => ({
                    check,
                    annotations: check.run ? await reader.annotations(check.run.id, MAX_ANNOTATIONS) : [],
                    log: check.run ? await reader.jobLog(check.run.detailsUrl) : null,
                })));
                const reason = failureReason({
                    sha: pushed.sha,
                    branch: pushed.branch,
                    details,
                    pending: judged.pending,
                    watchedFrom: watched.from,
                });
                return { verdict: 'block', reason: redact(reason), timedOut: false };
            }
            // Every check is known up front when they are named; with "every check on the commit", one that a
            // slower workflow adds later would be missed, so all must look finished on two reads in a row.
            if (judged.pending.length === 0 && judged.failing.length === 0 && seenAny) {
                if (watched.names !== null || ++quietPolls >= 2)
                    return { verdict: 'allow', reason: null, timedOut: false };
            }
            else
                quietPolls = 0;
            if (!seenAny)
                pending = ['no check has been reported on the commit yet'];
        }
        catch (thrown) {
            if (o.signal?.aborted)
                return error('stopped while waiting for CI (proctor is shutting down)');
            const trouble = classifyTrouble(thrown);
            if (trouble.kind === 'permanent')
                return error(permanentReason(trouble.status, trouble.message));
            lastTrouble = trouble.message;
            if (trouble.kind === 'rate-limit')
                waitMs = Math.max(waitMs, trouble.waitMs);
        }
        const rate = reader.rate;
        if (rate && rate.remaining < LOW_RATE_REMAINING)
            waitMs = Math.max(waitMs, rate.resetAt - Date.now());
        const left = deadline - Date.now();
        if (left <= 0) {
            const what = `CI did not finish on ${pushed.sha.slice(0, 12)} within ${formatDuration(o.hook.timeout)} (the hook's timeout): still pending: ${pending.join(', ')}`;
            return error(redact(`${what}${lastTrouble ? `; last GitHub error: ${lastTrouble}` : ''}; the agent was not sent back (it cannot make CI finish)`), true);
        }
        try {
            await setTimeout(Math.min(waitMs, left), undefined, o.signal ? { signal: o.signal } : {});
        }
        catch {
            return error('stopped while waiting for CI (proctor is shutting down)');
        }
    }
}
/** How many changed paths a reason lists. */
const MAX_LISTED = 10;
/**
 * A block naming the workflow definitions the agent changed since the baseline (it can undo them), or an
 * error when that cannot be told (the user's to fix); null when CI is as the user left it.
 */
async function ciRewritten(cwd, baseline, sha) {
    const unproven = 'ci-checks cannot tell whether the agent changed the CI workflows (which GitHub runs from the pushed commit)';
    if (baseline === undefined)
        return {
            verdict: 'error',
            reason: `${unproven}: the session recorded no baseline; ci-checks does not wait for CI on it`,
        };
    let changed;
    try {
        changed = await changedWorkflowDefinitions(new Git({ cwd }), baseline, sha);
    }
    catch (error) {
        return {
            verdict: 'error',
            reason: `${unproven}: ${stripControl(error.message.split('\n')[0] ?? '')}; ci-checks does not wait for CI on it`,
        };
    }
    if (changed.length === 0)
        return null;
    const listed = changed.slice(0, MAX_LISTED);
    const shown = `${listed.map((c) => stripControl(c.path)).join(', ')}${changed.length > MAX_LISTED ? `, … (${changed.length} in all)` : ''}`;
    const quote = (all) => all.map((c) => shellQuote(c.path)).join(' ');
    const restore = listed.filter((c) => !c.added);
    const remove = listed.filter((c) => c.added);
    const undo = [
        restore.length ? `git checkout ${baseline?.slice(0, 12) ?? 'HEAD'} -- ${quote(restore)}` : '',
        remove.length ? `rm -r -- ${quote(remove)}` : '',
    ]
        .filter(Boolean)
        .join('; ');
    return {
        verdict: 'block',
        reason: `CI's definition was changed since the session started: ${shown}. GitHub runs the workflows (and the ` +
            `local actions they use) of the pushed commit, so CI would judge the work by rules the agent wrote: ` +
            `ci-checks does not wait for CI on this checkpoint. Agent: undo those changes (${undo}), so CI runs the ` +
            `workflows as the user left them. User: if changing CI is the task, ci-checks cannot be its gate; ` +
            `review the workflow change yourself and judge the work with a command stop hook that runs the tests.`,
    };
}
/** The names to wait for: required by the branch, else configured, else every check on the commit (null). */
async function watchedChecks(reader, hook) {
    const branch = await reader.targetBranch(hook.with?.branch);
    const required = await reader.requiredChecks(branch);
    if (required && required.names.length > 0)
        return { names: required.names, from: `required by ${required.source}` };
    const configured = hook.with?.checks ?? [];
    if (configured.length > 0)
        return { names: configured, from: 'with.checks' };
    return { names: null, from: `every check on the commit (${branch} requires none that could be read)` };
}
function permanentReason(status, message) {
    const fix = status === 401
        ? 'the token was rejected'
        : status === 404
            ? 'the repository or commit is not visible to the token'
            : 'the token may not read them';
    return `cannot read the CI checks (${status} ${message}): ${fix}; the workflow needs \`permissions: checks: read, statuses: read\` (and \`actions: read\` for job logs)`;
}

export { runCiChecks };
