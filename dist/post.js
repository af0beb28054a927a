import { g as getState, i as info, s as setSecret, w as warning } from './chunks/core-BEMhgLMH.js';
const { existsSync, lstatSync } = process.getBuiltinModule("node:fs");
import { j as ensureStateDir, l as loadConfig, h as defaultConfig, a as readRegularFile, k as checkpointRef } from './chunks/checkpoints-create-962SFfGz.js';
const { join } = process.getBuiltinModule("node:path");
import { r as reconcileOrphans } from './chunks/registry-caN18YUy.js';
import { W as Workspace, a as listCheckpoints } from './chunks/workspace-2mMvt_Y6.js';
import { p as parseSessionReport } from './chunks/aggregate-BpBGDoRt.js';
import { R as ReportBuilder } from './chunks/agent-env-BXlKKXmg.js';
import { S as STATE, r as readInputs, a as applyInputs, G as GitHubReporter, b as actionClient, w as warnPersistedCredentials, t as tokenRepository, p as pushCredential, g as gitServerUrl } from './chunks/hygiene-BjeuPFxZ.js';
import { readActionsContext, linksFor } from './chunks/context-DzEiupI6.js';
import { createSanitizer } from './chunks/sanitize-CyIpIJ19.js';
import './chunks/platform-DawMwuj3.js';



















import './chunks/commonjs-helpers-Bgu_3bK-.js';













import './chunks/errors-lvn-GX78.js';


import './chunks/exit-FJ5r--ZY.js';
import './chunks/words-CtdohSJZ.js';
import './chunks/markdown-D5-25geG.js';
import './chunks/agent-exit-dlhdSguX.js';

// The action's post step (`post-if: always()`). When the main step was killed before it finished
// (cancellation past the grace, an OOM kill), this reaps the agent it left, pushes the checkpoints that
// were not pushed yet, and finishes the comment and check runs as cancelled. Otherwise it does nothing.
// The work main left is judged by the same policy as in a session: the final checkpoint's diff and the
// session's cumulative diff, so a forbidden file written just before the kill still fails the policy check.
async function post(env = process.env) {
    if (getState(STATE.finished) === 'true')
        return 0;
    const sessionId = getState(STATE.sessionId);
    const cwd = getState(STATE.cwd);
    if (!sessionId || !cwd || !existsSync(cwd))
        return 0;
    process.chdir(cwd);
    info(`proctor: the main step did not finish session ${sessionId}; cleaning up`);
    const dirs = ensureStateDir(cwd);
    for (const orphan of await reconcileOrphans(dirs.state, { graceMs: 1_000 })) {
        info(`proctor: stopped ${orphan.label} (pid ${orphan.pid}) left by the main step: ${orphan.action}`);
    }
    const inputs = readInputs(env);
    // A config that broke since main read it must not stop the cleanup: fall back to the defaults.
    const loaded = await loadConfig({ cwd, file: inputs.configGiven ? inputs.config : undefined }).catch(() => null);
    const config = applyInputs(loaded?.config ?? defaultConfig(), inputs);
    // The agent job of the two-job layout never pushes or publishes, not even from the post step.
    if (inputs.handoff)
        config.checkpoints.push = 'never';
    const workspace = Workspace.find(cwd);
    const sessionDir = join(dirs.sessions, sessionId);
    // Only a regular file is a report main wrote (atomically): a FIFO or link there is the agent's.
    const reportExists = isRegularFile(join(sessionDir, 'report.json'));
    // Without report.json main died before its final checkpoint: save the agent's last work first.
    const violations = workspace && !reportExists && config.checkpoints.enabled
        ? await finalCheckpoint(workspace, sessionId, config)
        : [];
    const pushed = workspace
        ? await pushLeftovers(workspace, sessionId, config, await postPushCredential(workspace, config, inputs.githubToken, env))
        : null;
    const report = await reportOf(workspace, cwd, sessionId, sessionDir, pushed, violations);
    try {
        const ctx = readActionsContext(env);
        const token = inputs.githubToken;
        if (token)
            setSecret(token);
        const reporter = new GitHubReporter({
            octokit: actionClient(token, ctx.apiUrl, env),
            token,
            context: ctx,
            key: getState(STATE.key) || sessionId,
            sessionId,
            comment: config.github.comment,
            checks: config.github.checks,
            sanitizer: createSanitizer({ secrets: [token].filter(Boolean) }),
            links: linksFor(ctx),
            ...(inputs.handoff ? { readOnly: true } : {}),
            onError: (error) => warning(`proctor: GitHub ${error.operation} failed: ${error.message}`),
            onNote: (message) => info(`proctor: ${message}`),
        });
        const adopted = await reporter.adoptOpenChecks();
        if (adopted.length)
            info(`proctor: completing check runs left open: ${adopted.join(', ')}`);
        await reporter.finish(report);
    }
    catch (error) {
        warning(`proctor: could not finish the GitHub report: ${error.message}`);
    }
    return 0;
}
/**
 * Checkpoints what main left and returns the policy's verdict on the session's work: this checkpoint's
 * diff and the cumulative one, or (nothing new since main's last checkpoint) the cumulative diff alone.
 */
async function finalCheckpoint(workspace, sessionId, config) {
    const store = await workspace.store(sessionId, config, { judge: true });
    try {
        await store.open();
        const result = await store.createDetailed('final');
        if (result) {
            const { record } = result;
            info(`proctor: final checkpoint ${record.seq} (${record.sha.slice(0, 12)}) of the work main left`);
            return result.violations;
        }
        return await workspace.standingViolations(store, config);
    }
    catch (error) {
        warning(`proctor: could not take the final checkpoint: ${error.message}`);
        return [];
    }
    finally {
        await store.close().catch(() => { });
    }
}
/** The token for the leftover push only, as main passes it (never when .git/config already holds one). */
async function postPushCredential(workspace, config, token, env) {
    if (!token || (await warnPersistedCredentials(workspace.root)))
        return undefined;
    const remote = await workspace.git.remoteUrl(config.checkpoints.remote).catch(() => null);
    let serverUrl = 'https://github.com';
    let repository = null;
    try {
        const ctx = readActionsContext(env);
        serverUrl = ctx.serverUrl;
        repository = tokenRepository(env, ctx);
    }
    catch {
        // No Actions context: the default server.
    }
    // The remote was read after the agent ran: the token goes only to the event's own repository.
    return pushCredential(remote, token, gitServerUrl(env, serverUrl), repository);
}
async function pushLeftovers(workspace, sessionId, config, secretConfig) {
    // The post step only runs in Actions, where `auto` means push.
    const record = await workspace.pushSession(sessionId, config, secretConfig ? { secretConfig } : {});
    if (!record)
        return null;
    info(record.ok
        ? `proctor: pushed checkpoints to ${record.branch}`
        : `proctor: checkpoints not pushed: ${record.reason}`);
    return record;
}
/** The report main wrote, else one rebuilt from the checkpoint ref: the session was interrupted. */
async function reportOf(workspace, cwd, sessionId, sessionDir, pushed, violations) {
    const path = join(sessionDir, 'report.json');
    if (isRegularFile(path)) {
        let text = '';
        try {
            // Never blocks on a FIFO the agent swapped in, nor reads without end.
            text = readRegularFile(path, REPORT_MAX_BYTES).toString('utf8');
        }
        catch {
            // Not readable as a report: rebuilt below like a missing one.
        }
        const parsed = parseSessionReport(text);
        if (typeof parsed !== 'string')
            return { ...parsed, pushed: pushed ?? parsed.pushed };
    }
    const checkpoints = workspace ? await listCheckpoints(workspace.git, sessionId).catch(() => []) : [];
    const first = checkpoints[0]?.createdAt;
    const report = new ReportBuilder({
        sessionId,
        command: [],
        cwd,
        mode: 'pty',
        transcriptPath: join(sessionDir, 'transcript.log'),
        ...(first ? { startedAt: new Date(first) } : {}),
    });
    for (const c of checkpoints) {
        report.checkpoint({
            seq: c.seq,
            sha: c.sha,
            ref: checkpointRef(sessionId),
            trigger: c.trigger,
            files_changed: [],
            violations: c.violations,
            skipped: c.skipped,
            created_at: c.createdAt,
        });
    }
    report.violation(...violations);
    if (pushed)
        report.push(pushed);
    report.finish({
        status: 'interrupted',
        verdict: 'block',
        exitCode: 143,
        signal: 'SIGKILL',
        reason: 'the main step was cancelled or killed before it could report; the post step finished the report',
        outputTail: '',
        transcript: { bytes: 0, capped: false },
    });
    return report.snapshot();
}
/** Far above any report a session writes (its events are capped): a larger file is not one. */
const REPORT_MAX_BYTES = 256 << 20;
function isRegularFile(path) {
    try {
        return lstatSync(path).isFile();
    }
    catch {
        return false;
    }
}

// Entry of the action's post step (action.yml `post: dist/post.js`, `post-if: always()`).
const code = await post();
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
