import { s as startHookProcess, t as toCommandSpec, d as describeCommand } from './run-hook-DNdEhNsA.js';
import { createSanitizer, stripControl } from './sanitize-C-XaPVOa.js';

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

// The lines of a failed hook's output that say what failed. A plain `npm test` hook's output starts with
// npm's banner ("> shop@1.0.0 test") and ends with a summary; the failing assertion is in between. The
// reason sent to the agent, the check run's title and the PR comment lead with these lines, so a reviewer
// reads the failure first. Recognised: node:test (its spec reporter, and TAP `not ok`), vitest
// and jest, pytest, go test and cargo test; package-manager banners (npm, pnpm, yarn, bun) are dropped.
const MAX_LINES = 12;
const MAX_LINE_CHARS = 300;
/** Detail lines taken after a failure's heading (an assertion's message, expected/received). */
const MAX_DETAIL = 3;
/** Lines a package manager prints around a script: never what failed. */
const BANNER = [
    /^> \S+@\S* \S+$/, // npm: "> shop@1.0.0 test"
    /^npm (?:ERR!|error|warn|notice)\b/,
    /^\s*ELIFECYCLE\b|^\s*ERR_PNPM_\w+/,
    /^(?:yarn run v\d|info Visit https:\/\/yarnpkg\.com|error Command failed with exit code \d+\.?$|Done in [\d.]+s\.?$)/,
    /^error: script "[^"]+" exited with code \d+/, // bun
];
function isBannerLine(line, previous) {
    if (BANNER.some((re) => re.test(line)))
        return true;
    // npm's second banner line ("> vitest run") follows the first; yarn and bun echo "$ vitest run".
    if (previous !== undefined && /^> \S+@\S* \S+$/.test(previous) && /^> /.test(line))
        return true;
    return (/^\$ \S/.test(line) && (previous === undefined || previous.trim() === '' || /^yarn run v/.test(previous)));
}
/** Drops package-manager banner lines (and the blank lines they leave at the start). */
function withoutBanners(text) {
    const lines = text.split('\n');
    const kept = lines.filter((line, i) => !isBannerLine(line.trimEnd(), i > 0 ? lines[i - 1].trimEnd() : undefined));
    return kept.join('\n').replace(/^\s*\n/, '');
}
const indented = (line) => line === '' || /^\s/.test(line);
const RECOGNIZERS = [
    // TAP / node:test: "not ok 2 - name", then an indented YAML block whose error/expected/actual say why.
    { head: /^\s*not ok \d+\b(?!.*# (?:SKIP|TODO))/i, continues: indented, details: tapDetails },
    // node:test's spec reporter (Node 23+ on any stream): "✖ name (0.7ms)", listed again under "✖ failing
    // tests:" with the error indented below it.
    {
        head: /^\s*✖ (?!failing tests:$).+$/,
        continues: (line) => /^\s+\S/.test(line) && !/^\s+at /.test(line),
        render: (line) => line.trim().replace(/ \([\d.]+m?s\)$/, ''),
    },
    // vitest: "FAIL  cart.test.js > suite > name"; jest: "● suite › name" and its message, up to the code frame.
    { head: /^\s*FAIL\s+\S.*\s>\s.+$/ },
    {
        head: /^\s*● (?!Console\b).+$/,
        continues: (line) => indented(line) && !/^\s*>?\s*\d+ \|/.test(line) && !/^\s*● /.test(line),
    },
    // AssertionError lines (vitest, node:assert, chai) and jest's matcher line.
    { head: /^\s*(?:AssertionError\b|expect\(received\)).*$/ },
    // pytest: the short summary's "FAILED path::test - why", and the "E   " lines of each failure.
    { head: /^FAILED \S+::\S+.*$/, summary: true },
    { head: /^E {2,}\S.*$/ },
    // go test: "--- FAIL: TestX (0.00s)" and its indented "x_test.go:12: message" lines.
    { head: /^\s*--- FAIL: \S+.*$/, continues: (line) => /^\s{4,}\S/.test(line) },
    // cargo test: "thread 'tests::x' panicked at src/lib.rs:7:34:" then the message.
    {
        head: /^thread '[^']+'(?: \(\d+\))? panicked at .+$/,
        continues: (line) => line.trim() !== '' && !/^(?:stack backtrace:|note: )/.test(line),
    },
];
/** node:test's YAML: the `error:` text (inline or a block scalar), then expected and actual. */
function tapDetails(block) {
    const out = [];
    const field = (name) => block.find((line) => new RegExp(`^\\s+${name}: `).test(line));
    const error = block.findIndex((line) => /^\s+error: /.test(line));
    if (error >= 0) {
        const value = block[error].replace(/^\s+error: /, '').trim();
        if (/^[|>][-+]?$/.test(value)) {
            const depth = block[error].search(/\S/);
            for (const line of block.slice(error + 1)) {
                if (line.trim() !== '' && line.search(/\S/) <= depth)
                    break;
                if (line.trim() !== '')
                    out.push(line.trim());
            }
        }
        else
            out.push(unquote(value));
    }
    const expected = field('expected');
    const actual = field('actual');
    if (expected && actual)
        out.push(`${expected.trim()}, ${actual.trim()}`);
    return out;
}
function unquote(value) {
    return /^'.*'$/.test(value) ? value.slice(1, -1).replace(/''/g, "'") : value;
}
function summarizeFailure(output, cwd) {
    const lines = output.split('\n').map((line) => line.replace(/\r$/, '').trimEnd());
    const summaries = [];
    const others = [];
    const seen = new Set();
    const locations = [];
    const take = (text, into) => {
        const line = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
        if (seen.has(line))
            return;
        seen.add(line);
        into.push(line);
    };
    for (let i = 0; i < lines.length && seen.size < MAX_LINES * 2; i++) {
        const line = lines[i];
        const recognizer = RECOGNIZERS.find((r) => r.head.test(line));
        if (!recognizer)
            continue;
        const heading = recognizer.render ? recognizer.render(line) : line.trim();
        const block = [line];
        while (recognizer.continues && i + 1 < lines.length && recognizer.continues(lines[i + 1])) {
            block.push(lines[++i]);
        }
        const into = recognizer.summary ? summaries : others;
        take(heading, into);
        const details = recognizer.details
            ? recognizer.details(block)
            : block
                .slice(1)
                .map((l) => l.trim())
                .filter(Boolean);
        for (const detail of details.slice(0, MAX_DETAIL))
            take(`  ${detail}`, into);
        const where = locationIn(block, lines, i, cwd);
        if (where)
            locations.push({ ...where, message: heading });
    }
    return { lines: [...summaries, ...others].slice(0, MAX_LINES), locations: dedupeLocations(locations) };
}
/** Where a line names a file and line: "x.test.js:3:51", "(cart.test.js:2:51)", "test_cart.py:4:". */
const LOCATION = /(?:^|[\s('"❯])((?:\.{0,2}\/)?[\w@.+-][\w@.+/-]*\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|scala|c|cc|cpp|h|hpp)):(\d+)(?::\d+)?/;
/** The first file:line in a failure's block, or in the few lines after it (vitest's "❯ file:line"). */
function locationIn(block, lines, end, cwd) {
    const window = [...block, ...lines.slice(end + 1, end + 12)];
    for (const line of window) {
        const match = LOCATION.exec(line);
        if (!match)
            continue;
        const file = relative(match[1], cwd);
        if (file === null || file.startsWith('node:') || file.includes('node_modules/'))
            continue;
        return { file, line: Number(match[2]) };
    }
    return null;
}
function relative(file, cwd) {
    let path = file.replace(/^\.\//, '');
    if (path.startsWith('/')) {
        if (!cwd || !path.startsWith(`${cwd.replace(/\/+$/, '')}/`))
            return null;
        path = path.slice(cwd.replace(/\/+$/, '').length + 1);
    }
    return path.startsWith('../') ? null : path;
}
function dedupeLocations(locations) {
    const seen = new Set();
    return locations.filter((l) => {
        const key = `${l.file}:${l.line}`;
        if (seen.has(key))
            return false;
        seen.add(key);
        return true;
    });
}

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
            ...failureReason(`${who} was killed by ${outcome.signal ?? 'a signal'}`, outcome),
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
    return { verdict: 'fail', ...failureReason(`${who} exited ${outcome.exitCode}`, outcome) };
}
/** "tests (npm test)", or "the hook" when the caller did not say. */
function label(outcome) {
    if (outcome.name === undefined)
        return 'the hook';
    return outcome.command ? `${outcome.name} (${outcome.command})` : outcome.name;
}
/**
 * "<head>: <the lines that say what failed>", then the last lines of the hook's output (stdout, then
 * stderr) without package-manager banners, redacted and stripped of escape sequences. The first line is
 * what a check's title and the comment show, so it names the failure when a test runner's was recognised.
 */
function failureReason(head, outcome) {
    const redact = createSanitizer({ secrets: [...(outcome.secrets ?? [])] }).redact;
    const output = withoutBanners(redact([outcome.stdout, outcome.stderr]
        .map((text) => stripControl(text).trimEnd())
        .filter((text) => text.trim().length > 0)
        .join('\n')));
    const shortHead = head.length > 300 ? `${head.slice(0, 300)}…` : head;
    const failure = summarizeFailure(output, outcome.cwd);
    const failures = failure.lines.join('\n');
    const lead = failures ? `${shortHead}: ${failures}` : shortHead;
    // The whole reason stays under MAX_REASON_CHARS by shortening the tail's start, never its end.
    const budget = Math.min(FAILURE_TAIL_BYTES, MAX_REASON_CHARS - lead.length - 30);
    const tail = budget > 200 ? tailOf(output, FAILURE_TAIL_LINES, budget).trim() : '';
    const locations = failure.locations.length > 0 ? { locations: failure.locations } : {};
    if (!failures)
        return { reason: tail ? `${shortHead}: ${tail}` : `${shortHead} without output`, ...locations };
    return { reason: tail ? `${lead}\n\nEnd of its output:\n${tail}` : lead, ...locations };
}
/** The last `lines` lines, at most `bytes` bytes of UTF-8, cut at a line start where possible. */
function tailOf(text, lines, bytes) {
    let tail = text.replace(/^\n+/, '').split('\n').slice(-lines).join('\n');
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
/** A reason at most MAX_REASON_CHARS long, saying how much was cut. */
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

/**
 * The longest a stopped stop hook gets between SIGTERM and SIGKILL, whatever timeouts.grace says: a stop round
 * is what a user waits on at an interrupt, and a hook (unlike the agent) has no work to save.
 */
const STOP_HOOK_MAX_GRACE_MS = 2_500;
/** Runs the stop hooks (none configured: allow) — the one call a session's stop round and the verify job make. */
async function runStopHooks(options) {
    if (options.hooks.length === 0)
        return { verdict: 'allow', results: [], reasons: [], errors: [] };
    const graceMs = Math.min(options.graceMs, STOP_HOOK_MAX_GRACE_MS);
    const stdin = `${JSON.stringify(stopPayload(options.context, options.round))}\n`;
    const running = [];
    const stopAll = () => {
        for (const hook of running)
            void hook.process?.stop('shutdown');
    };
    options.signal?.addEventListener('abort', stopAll, { once: true });
    const runCommand = async (hook, command) => {
        const started = startHookProcess({
            command: toCommandSpec(command),
            cwd: options.cwd,
            env: { ...options.env, ...stopEnv(options.context, options.round, hook.name) },
            stdin,
            timeoutMs: hook.timeout,
            graceMs,
            label: `stop hook ${hook.name}`,
            registry: options.registry,
            ...(options.onOutput ? { onOutput: (chunk) => options.onOutput?.(hook.name, chunk) } : {}),
        });
        running.push(started);
        if (options.signal?.aborted)
            void started.process?.stop('shutdown');
        const run = await started.done;
        const interpreted = interpretStopHook({
            ...run,
            timeoutMs: hook.timeout,
            name: hook.name,
            command: describeCommand(command),
            secrets: knownSecrets(options.env),
            cwd: options.cwd,
        });
        return { interpreted, exitCode: run.exitCode, durationMs: run.durationMs, timedOut: run.timedOut };
    };
    try {
        const settled = await Promise.all(options.hooks.map(async (hook) => {
            options.onStart?.(hook.name);
            const ran = hook.command === undefined ? await runBuiltin(hook, options) : await runCommand(hook, hook.command);
            const { interpreted, exitCode, durationMs, timedOut } = ran;
            const advisory = hook.advisory || (hook.on_error === 'allow' && interpreted.verdict !== 'block');
            const result = {
                name: hook.name,
                verdict: interpreted.verdict === 'fail' ? 'block' : interpreted.verdict,
                reason: interpreted.reason,
                exit_code: exitCode,
                duration_ms: Math.round(durationMs),
                round: options.round,
            };
            if (interpreted.verdict === 'fail' && advisory)
                result.verdict = 'error';
            if (timedOut)
                result.timed_out = true;
            if (interpreted.locations)
                result.locations = interpreted.locations;
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
/** A built-in hook (`uses:`), in proctor's own process: it needs proctor's push and token, never a shell's. */
async function runBuiltin(hook, options) {
    const started = performance.now();
    // Loaded when a config uses it, like the rest of what only a stop needs.
    const { runCiChecks } = await import('./ci-checks-B-2keFZ-.js');
    // Never throws, like a hook process: anything unforeseen is this hook's error, not the session's end.
    const outcome = await runCiChecks({
        hook,
        context: options.context,
        builtins: options.builtins,
        ...(options.signal ? { signal: options.signal } : {}),
        secrets: knownSecrets(options.env),
    }).catch((error) => ({
        verdict: 'error',
        reason: `${hook.uses} failed: ${error instanceof Error ? error.message : String(error)}`,
        timedOut: false,
    }));
    return {
        interpreted: { verdict: outcome.verdict, reason: outcome.reason },
        exitCode: null,
        durationMs: performance.now() - started,
        timedOut: outcome.timedOut,
    };
}
/** Token values in the hooks' environment that must not be quoted back from their output. */
function knownSecrets(env) {
    return ['GITHUB_TOKEN', 'GH_TOKEN', 'INPUT_GITHUB-TOKEN', 'INPUT_GITHUB_TOKEN']
        .map((name) => env[name])
        .filter((value) => typeof value === 'string' && value.length > 0);
}

export { FAILURE_TAIL_BYTES as F, FAILURE_TAIL_LINES as a, cap as c, isDeletion as i, parsePrePushLines as p, runStopHooks as r, tailOf as t };
