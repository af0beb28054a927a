import { ConfigError } from './errors-lvn-GX78.js';
import { l as loadConfig } from './checkpoints-create-CJcO-Brq.js';
import { p as parsePrePushLines, i as isDeletion, r as runStopHooks } from './stop-hooks-BJdq3XY7.js';
import { p as processHookIO } from './cli-io-CyKkUxyC.js';
import { f as formatStopHookLine } from './display-DkxjLBl3.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';




import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';


import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';

/** Thrown for a --hook name that is not configured (a usage error, exit 2). */
class UnknownHookError extends Error {
}
async function runCheck(options) {
    const { config } = options;
    const unknown = options.only.filter((name) => !config.stop_hooks.some((hook) => hook.name === name));
    if (unknown.length > 0) {
        const known = config.stop_hooks.map((hook) => hook.name).join(', ') || 'none';
        throw new UnknownHookError(`no stop hook named ${unknown.join(', ')} in proctor.yml (configured: ${known})`);
    }
    const hooks = options.only.length > 0
        ? config.stop_hooks.filter((hook) => options.only.includes(hook.name))
        : config.stop_hooks;
    if (hooks.length === 0)
        return { kind: 'nothing', message: 'no stop hooks configured in proctor.yml; nothing to check' };
    const pushedRefs = options.prePush ? parsePrePushLines(options.prePush.stdin) : [];
    if (options.prePush && pushedRefs.length > 0 && pushedRefs.every(isDeletion)) {
        return { kind: 'nothing', message: 'this push only deletes refs; nothing to check' };
    }
    const outcome = await runStopHooks({
        hooks,
        context: {
            session_id: options.env.PROCTOR_SESSION_ID ?? `check-${compactTimestamp(new Date())}`,
            cwd: options.cwd,
            stop_reason: options.prePush ? 'pre-push' : 'manual',
            final_text: '',
            rounds: 1,
            stop_hook_active: false,
            checkpoint: null,
            violations: [],
            pushed_refs: pushedRefs,
            remote: options.prePush?.remote
                ? { name: options.prePush.remote, url: options.prePush.url ?? options.prePush.remote }
                : null,
        },
        cwd: options.cwd,
        env: options.env,
        graceMs: config.timeouts.grace,
        round: 1,
        onResult: options.onResult,
        signal: options.signal,
    });
    return { kind: 'ran', outcome, pushedRefs };
}
function compactTimestamp(date) {
    return date
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
}

function registerCheckCommand(program, deps = {}, io = processHookIO) {
    return program
        .command('check')
        .description('run the stop hooks against the working tree (exit 0 allow, 1 block, 2 config error)')
        .argument('[remote]', 'with --pre-push: the remote name git passes to the hook')
        .argument('[url]', 'with --pre-push: the remote URL git passes to the hook')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--hook <name>', 'run only this stop hook (repeatable)', collect, [])
        .option('--pre-push', "run as git's pre-push hook: reads the pushed refs from stdin")
        .option('--json', 'print the result as JSON')
        .action(async (remote, url, flags) => {
        await check(flags, remote ?? null, url ?? null, deps, io);
    });
}
async function check(flags, remote, url, deps, io) {
    const env = io.env();
    const skip = skipReason(env, flags.prePush === true);
    if (skip) {
        io.stderr(`proctor check: skipped (${skip})\n`);
        return;
    }
    const cwd = io.cwd();
    let config;
    try {
        const loaded = await loadConfig({ file: flags.config, cwd });
        config = loaded.config;
        for (const warning of loaded.warnings)
            io.stderr(`proctor: warning: ${warning}\n`);
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
    const stdin = flags.prePush && !io.stdinIsTTY() ? await io.readStdin() : '';
    if (flags.prePush && !io.stdinIsTTY() && stdin.trim() === '') {
        io.stderr('proctor check: git has nothing to push; stop hooks not run\n');
        return;
    }
    // In a git hook, stdout belongs to git (git push --porcelain); githooks(5) says to report on stderr.
    const report = flags.prePush ? io.stderr : io.stdout;
    const width = Math.max(4, ...config.stop_hooks.map((hook) => hook.name.length));
    const abort = new AbortController();
    const onSignal = (signal) => abort.abort(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let result;
    try {
        result = await runCheck({
            config,
            cwd,
            env,
            only: flags.hook,
            prePush: flags.prePush ? { stdin, remote, url } : null,
            signal: abort.signal,
            onResult: flags.json ? undefined : (hook) => report(formatStopHookLine(hook, width)),
        });
    }
    catch (error) {
        if (error instanceof UnknownHookError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
    finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
    }
    if (abort.signal.aborted) {
        throw new CliExit(abort.signal.reason === 'SIGTERM' ? ExitCode.sigterm : ExitCode.sigint, 'proctor check: interrupted; stop hooks stopped');
    }
    if (result.kind === 'nothing') {
        if (flags.json)
            io.stdout(`${JSON.stringify({ verdict: 'allow', results: [], reasons: [], message: result.message })}\n`);
        else
            io.stderr(`proctor check: ${result.message}\n`);
        return;
    }
    const { outcome, pushedRefs } = result;
    if (flags.json) {
        const body = {
            verdict: outcome.verdict,
            stop_reason: flags.prePush ? 'pre-push' : 'manual',
            results: outcome.results,
            reasons: outcome.reasons,
            errors: outcome.errors,
            pushed_refs: pushedRefs,
        };
        io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    }
    else {
        const blocked = outcome.results.filter((hook) => hook.verdict === 'block').length;
        const errors = outcome.results.filter((hook) => hook.verdict === 'error' && !hook.advisory).length;
        const counts = [`${blocked} blocked`, errors > 0 ? `${errors} errored` : null].filter(Boolean).join(', ');
        report(`proctor check: ${outcome.verdict} (${outcome.results.length} hooks, ${counts})\n`);
    }
    if (outcome.verdict === 'block') {
        if (flags.prePush)
            io.stderr('proctor: push blocked by stop hooks (skip once with PROCTOR_SKIP=1 git push)\n');
        throw new CliExit(ExitCode.failed);
    }
    if (flags.prePush && config.checkpoints.push_on_pre_push) {
        if (!deps.pushCheckpoints) {
            // TODO(lead): wire the checkpoints push API (src/checkpoints/push.ts) through CheckDeps.pushCheckpoints.
            io.stderr('proctor: checkpoints.push_on_pre_push is set but this build cannot push checkpoints yet\n');
        }
        else {
            try {
                io.stderr(`proctor: ${await deps.pushCheckpoints({ cwd, config, remote })}\n`);
            }
            catch (error) {
                // Pushing checkpoints is a convenience; it never blocks the user's own push.
                io.stderr(`proctor: warning: could not push checkpoint branches: ${error.message}\n`);
            }
        }
    }
}
/** PROCTOR_SKIP=1 always skips; HUSKY=0 only for the git hook (CI often sets HUSKY=0 globally). */
function skipReason(env, prePush) {
    if (env.PROCTOR_SKIP === '1')
        return 'PROCTOR_SKIP=1';
    if (prePush && env.HUSKY === '0')
        return 'HUSKY=0';
    return null;
}
function collect(value, previous) {
    return [...previous, value];
}

export { registerCheckCommand, skipReason };
