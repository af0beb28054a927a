import { g as getState, i as info, w as warning, s as setSecret } from './chunks/core-BQDBS6n7.js';
const { existsSync } = process.getBuiltinModule("node:fs");
const { join } = process.getBuiltinModule("node:path");
import { e as ensureStateDir, d as defaultConfig, W as Workspace, c as checkpointRef } from './chunks/checkpoints-create-CJcO-Brq.js';
import { r as reconcileOrphans } from './chunks/registry-DMAlOnZf.js';
import { S as STATE, r as readInputs, l as loadTrustedConfig, a as applyInputs, n as notPushed, G as GitHubReporter, b as actionClient, u as unpushable, j as judgeChain, w as warnPersistedCredentials, p as pushCredentialFor } from './chunks/state-B5RqQYN4.js';
import { listCheckpoints } from './chunks/history-DPG0N69n.js';
import { s as scanForBlocker, d as describeBlocker, R as ReportBuilder } from './chunks/git-blockers-Dy_7XOmu.js';
import { readActionsContext, linksFor } from './chunks/context-D-q0CQle.js';
import { createSanitizer } from './chunks/sanitize-C-XaPVOa.js';
import './chunks/platform-BNvMv0jG.js';





import './chunks/index-BLCY1uhR.js';














import './chunks/commonjs-helpers-Bgu_3bK-.js';













import './chunks/errors-lvn-GX78.js';


import './chunks/exit-DPvLwpPv.js';
import './chunks/client-DS6gKtGk.js';
import './chunks/markdown-VfhSNKQ7.js';
import './chunks/agent-exit-dlhdSguX.js';
import './chunks/known-CWjnSJ5I.js';
import './chunks/secret-forms-Ct3YzP3D.js';
import './chunks/evaluate-DoW4VY95.js';
import './chunks/areas-BPhpJk9z.js';
import './chunks/yaml-DFf8_hI8.js';


import './chunks/trusted-DrLCbFJn.js';





import './chunks/debug-qx8tbv42.js';







import './chunks/aggregate-Bb_hkxeJ.js';
import './chunks/summary-BBJud0Oe.js';

// The action's post step (`post-if: always()`). When the main step was killed before it finished
// (cancellation past the grace, an OOM kill), this reaps the agent it left, pushes the checkpoints that
// were not pushed yet, and finishes the comment and check runs as cancelled. Otherwise it does nothing.
// The work main left is judged by the same policy as in a session: the final checkpoint's diff and the
// session's cumulative diff, so a forbidden file written just before the kill still fails the policy check.
// Nothing in the session directory is trusted: the agent can write there (a report.json saying "allow",
// then SIGKILL main), so the post step re-judges from the checkpoint ref and never completes a check as
// success. The one thing it trusts is main's `finished` state, and a forged one only makes it do nothing:
// the checks main opened stay in progress and the policy check may be missing, both blocking a merge.
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
    // The event commit's config, not the working tree's (the agent ran since main read it and may have
    // rewritten it). A config that broke must not stop the cleanup: fall back to the defaults.
    const loaded = await loadTrustedConfig(inputs, env, cwd, (message) => warning(message)).catch(() => null);
    const config = applyInputs(loaded?.config ?? defaultConfig(), inputs);
    // The agent job of the two-job layout never pushes or publishes, not even from the post step.
    if (inputs.handoff)
        config.checkpoints.push = 'never';
    const workspace = Workspace.find(cwd);
    const sessionDir = join(dirs.sessions, sessionId);
    // Always, whatever report.json says (the agent may have written it): the agent's last work is saved and
    // the session's cumulative diff judged. After a main that took its own final checkpoint, nothing is new.
    const violations = workspace && config.checkpoints.enabled ? await finalCheckpoint(workspace, sessionId, config) : [];
    // The commit the run was triggered for (GITHUB_SHA), when this clone has it: the chain's messages are the
    // agent's to forge, so this, not their trailers, is what the chain is judged from.
    const eventCommit = workspace ? await trustedEventCommit(workspace, env.GITHUB_SHA) : null;
    const refusal = workspace ? await pushRefusal(workspace, sessionId, config, violations, eventCommit) : null;
    if (refusal)
        warning(`proctor: checkpoints not pushed: ${refusal}`);
    const pushed = !workspace
        ? null
        : refusal
            ? notPushed(config, sessionId, refusal)
            : await pushLeftovers(workspace, sessionId, config, await postPushCredential(workspace, config, inputs.githubToken, env), eventCommit);
    const report = await interruptedReport(workspace, cwd, sessionId, sessionDir, pushed, violations);
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
            publish: config.github.publish,
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
        // The agent may have left a FIFO where git reads (`mkfifo sub/.gitignore`): git would sit in open()
        // until its deadline. The post step runs once, so it walks the tree for one before any git reads it.
        const blocker = scanForBlocker(workspace.root);
        if (blocker)
            throw new Error(describeBlocker(blocker));
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
        const message = error.message;
        warning(`proctor: could not take the final checkpoint: ${message}`);
        // Fails closed: work that could not be judged must not pass the policy check as "no violations".
        return [
            {
                checkpoint: null,
                file: 'proctor-post-step',
                constraint: 'unjudged',
                severity: 'critical',
                message: `the work the main step left could not be checkpointed or judged: ${message}`,
                suggestion: 'Re-run the job; the checkpoint ref or the repository was changed in a way proctor cannot read',
            },
        ];
    }
    finally {
        await store.close().catch(() => { });
    }
}
/**
 * Why the work main left must not be pushed, or null. Main was killed, so nothing says which commits on
 * refs/proctor/<session> proctor wrote: the agent may have moved the ref to a chain of its own, whose middle
 * commit adds a key the last one deletes. Every commit from the session's base is judged for what is never
 * pushed (judge.ts, as the publish job does), and work that could not be judged is not pushed either.
 */
async function pushRefusal(workspace, sessionId, config, violations, 
/** trustedEventCommit's answer. */
eventCommit) {
    // A forbidden file main's final checkpoint skipped is a violation but not in any tree: what decides is
    // what the commits hold, judged below. Work that could not be judged at all is not pushed.
    const unjudged = violations.find((v) => v.constraint === 'unjudged');
    if (unjudged)
        return unjudged.message;
    try {
        const tip = await workspace.git.revParse(`${checkpointRef(sessionId)}^{commit}`);
        if (!tip)
            return null;
        // Judged from the event's commit when this clone has it (a base in the checkpoints' trailers could
        // be written to skip the commit that holds the key); else from the first checkpoint's base.
        const base = eventCommit ?? (await listCheckpoints(workspace.git, sessionId))[0]?.base ?? null;
        if (!base)
            return 'the checkpoint chain has no known base to judge it from';
        const chain = unpushable(await judgeChain({
            git: workspace.git,
            head: base,
            tip,
            config,
            worktree: workspace.root,
            checkpoint: null,
        }));
        return chain.length ? `${chain[0].message} (${chain.length} such violation(s))` : null;
    }
    catch (error) {
        return `the checkpoint chain could not be judged: ${error.message}`;
    }
}
/** The token for the leftover push only, as main passes it (never when .git/config already holds one). */
async function postPushCredential(workspace, config, token, env) {
    if (!token || (await warnPersistedCredentials(workspace.root)))
        return undefined;
    let ctx = null;
    try {
        ctx = readActionsContext(env);
    }
    catch {
        // No Actions context: the default server, any repository on it.
    }
    // The remote was read after the agent ran: the token goes only to the event's own repository.
    return pushCredentialFor(workspace.git, config.checkpoints.remote, token, env, ctx);
}
/** The commit `eventSha` names, when this clone has it; null otherwise. */
async function trustedEventCommit(workspace, eventSha) {
    return eventSha ? workspace.git.revParse(`${eventSha}^{commit}`).catch(() => null) : null;
}
async function pushLeftovers(workspace, sessionId, config, secretConfig, 
/** CI's definition as the run found it (trustedEventCommit), not as the chain's trailers say. */
eventCommit) {
    // The post step only runs in Actions, where `auto` means push.
    const record = await workspace.pushSession(sessionId, config, {
        ...(secretConfig ? { secretConfig } : {}),
        ...(eventCommit ? { baseline: eventCommit } : {}),
    });
    if (!record)
        return null;
    info(record.ok
        ? `proctor: pushed checkpoints to ${record.branch}`
        : `proctor: checkpoints not pushed: ${record.reason}`);
    return record;
}
/**
 * The session as the checkpoint ref records it, interrupted and blocking: never main's report.json, which
 * the agent could have written. Hook checks main completed stay as main completed them; open ones are
 * cancelled; the policy check comes from the violations judged here and on the ref's checkpoints.
 */
async function interruptedReport(workspace, cwd, sessionId, sessionDir, pushed, violations) {
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
        reason: 'the main step was cancelled or killed before it finished reporting; the post step re-judged the work it left',
        outputTail: '',
        transcript: { bytes: 0, capped: false },
    });
    return report.snapshot();
}

// Entry of the action's post step (action.yml `post: dist/post.js`, `post-if: always()`).
const code = await post();
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
