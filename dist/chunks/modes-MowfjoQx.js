import { i as info, n as notice, e as error, w as warning, s as setSecret, a as setFailed, b as startGroup, c as endGroup, d as saveState } from './core-BQDBS6n7.js';
const { resolve, join, basename, dirname } = process.getBuiltinModule("node:path");
import { c as StickyComment, d as loadActionConfig, b as actionClient, e as writeOutputs, C as CheckRuns, m as mergeHookResults, v as verifiedPolicySummary, f as appendJobSummary, g as recordFailure, I as InputError, a as applyInputs, h as downloadReportArtifacts, i as downloadArtifacts, A as ARTIFACT_ENV, s as stageUpload, D as DefaultArtifactClient, k as uploadSanitizer, w as warnPersistedCredentials, o as collectHandoffs, q as gateSpec, p as pushCredentialFor, t as rejected, x as judgeDiff, y as claimedSeq, z as sessionReport, n as notPushed, B as findJobUrl, G as GitHubReporter, E as uploadSessionArtifact, F as writeJudgedOutputs, u as unpushable, H as agentCommand, S as STATE, J as ciOf, K as uploadHandoff, r as readInputs, L as withholdRunnerSecrets, M as stepOutputProblem } from './state-B5RqQYN4.js';
import { a as agentEnvironment, w as withSecretsInEnv, b as sanitizeRefPart, m as makeSessionId } from './git-blockers-Dy_7XOmu.js';
import { t as triggerOf, r as replyOf, h as helpText } from './trigger-BvHsmMSw.js';
import { str, get, readEventPayload, readActionsContext, canWrite, linksFor, expandKey } from './context-D-q0CQle.js';
import { a as remoteBranchFor, l as loadConfig, d as defaultConfig, e as ensureStateDir, G as Git, c as checkpointRef, W as Workspace, b as describeSnapshotProgress, f as formatDuration, g as firstLine, h as hookWord } from './checkpoints-create-CJcO-Brq.js';
import { d as describeError } from './client-DS6gKtGk.js';
import { createSanitizer } from './sanitize-C-XaPVOa.js';
const fs = process.getBuiltinModule("node:fs");
const { readFileSync, mkdirSync, writeFileSync, existsSync } = process.getBuiltinModule("node:fs");
const { tmpdir } = process.getBuiltinModule("node:os");
import { ConfigError } from './errors-lvn-GX78.js';
import { a as aggregateReports, p as parseSessionReport } from './aggregate-Bb_hkxeJ.js';
import { L as LifecycleHooks } from './payloads-CTBGsIwZ.js';
import { m as makeBatchId, b as batchCompletePayload } from './batch-s510Ff5y.js';
import { r as renderBatchComment, a as renderBatchSummary, b as batchCheckTitle } from './markdown-VfhSNKQ7.js';
import { u as usageOutputs } from './summary-BBJud0Oe.js';
import { f as failsPolicyCheck } from './evaluate-DoW4VY95.js';
import { r as runSession, w as withDeadline } from './session-BRW2EmEt.js';
import { b as baseBranchOf } from './ci-status-D4rz8FqB.js';
import { commandWithTask, taskEnv } from './task-Dn2G6N_O.js';
import { RedactingWriter } from './redacting-writer-DmbOT4Cm.js';
import { r as runStopHooks } from './stop-hooks-BJdq3XY7.js';
import './platform-BNvMv0jG.js';





import './index-BLCY1uhR.js';














import './commonjs-helpers-Bgu_3bK-.js';













import './known-CWjnSJ5I.js';
import './secret-forms-Ct3YzP3D.js';
import './areas-BPhpJk9z.js';
import './yaml-DFf8_hI8.js';


import './trusted-DrLCbFJn.js';





import './debug-qx8tbv42.js';







import './history-DPG0N69n.js';

import './exit-DPvLwpPv.js';
import './events-C_YfI5y8.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';
import './agent-exit-dlhdSguX.js';
import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';


import './feedback-CO8PHFfu.js';

/** The actor's permission on the repository ('none' when GitHub knows no such collaborator). */
async function actorPermission(octokit, owner, repo, username) {
    try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
        const level = data.role_name || data.permission;
        return ['admin', 'maintain', 'write', 'triage', 'read'].find((l) => l === level) ?? 'none';
    }
    catch (error) {
        if (error && typeof error === 'object' && 'status' in error && error.status === 404)
            return 'none';
        throw error;
    }
}
/** admin, maintain and write may trigger a session; triage, read and strangers may not. */
function canTrigger(level) {
    return level === 'admin' || level === 'maintain' || level === 'write';
}

async function refuseTask(task, via, options) {
    const { octokit, ctx } = options;
    if (task.authorIsBot)
        return { message: `${task.author} is a bot; bots do not start sessions (${via})`, exitCode: 0 };
    const level = await actorPermission(octokit, ctx.owner, ctx.repo, task.author).catch((error) => new Error(`could not check ${task.author}'s permission: ${error.message}`));
    if (level instanceof Error)
        return { message: level.message, exitCode: 1 };
    if (!canTrigger(level))
        return { message: `${task.author} does not have write access to ${ctx.owner}/${ctx.repo}`, exitCode: 1 };
    if (options.oneJob && ctx.pr) {
        const fork = ctx.pr.headSha !== null ? ctx.pr.fork : await isFork(octokit, ctx, ctx.pr.number);
        if (fork !== false)
            return {
                message: fork === true
                    ? `pull request #${ctx.pr.number} comes from a fork; a task on it needs the two-job layout (proctor init --trigger mention)`
                    : `could not tell whether pull request #${ctx.pr.number} comes from a fork: ${fork}`,
                exitCode: 1,
            };
    }
    return null;
}
/** A comment's payload does not say where the PR's head lives: GitHub does. A string: why it could not tell. */
async function isFork(octokit, ctx, number) {
    try {
        const { data } = await octokit.rest.pulls.get({ owner: ctx.owner, repo: ctx.repo, pull_number: number });
        const head = data.head.repo?.full_name;
        return !head || head.toLowerCase() !== `${ctx.owner}/${ctx.repo}`.toLowerCase();
    }
    catch (error) {
        return error.message;
    }
}
/**
 * The one permission check for the later jobs of a conversation (verify, publish): whatever the event
 * kind (a comment, a review comment, a review, a label), the person who asked must pass refuseTask
 * again with this job's token. Null: go on (no task in the event, or its author may give one).
 */
async function refuseEventTrigger(options) {
    const trigger = triggerOf(options.eventName, options.payload, options.settings);
    // A reply without the phrase may be a session's continue (src/action/reply.ts): its author is held to
    // the same rule without reading the conversation first (this job may have no token to read it with).
    const reply = trigger.kind === 'task' ? null : replyOf(options.eventName, options.payload, options.settings);
    const asked = trigger.kind === 'task'
        ? { task: trigger.task, via: trigger.via }
        : reply && { task: reply.task, via: `a reply on pull request #${reply.pr}` };
    if (!asked)
        return null;
    return refuseTask(asked.task, asked.via, { octokit: options.octokit, ctx: options.ctx, oneJob: false });
}

function renderConversation(state, options) {
    const md = (text, max) => options.sanitizer.forMarkdown(text, max);
    const last = state.rounds[state.rounds.length - 1];
    const heading = last
        ? `### 💬 proctor · round ${last.round} ${last.status === null ? 'running' : `${md(last.status, 30)} · ${md(last.verdict ?? '—', 30)}`}`
        : '### 💬 proctor';
    const lines = [options.marker, heading, ''];
    if (state.session || state.branch)
        lines.push(`<sub>${state.session ? `session \`${md(state.session, 200)}\`` : ''}${state.branch ? ` · branch \`${md(state.branch, 250)}\`` : ''}` +
            `${state.checkpoints.length ? ` · ${state.checkpoints.length} checkpoints` : ''}${state.promotable ? ' · ready to promote' : ''}</sub>`, '');
    if (state.rounds.length) {
        lines.push('| round | asked | by | status | verdict | last checkpoint |', '| --- | --- | --- | --- | --- | --- |');
        for (const r of state.rounds) {
            const asked = `${r.kind === 'task' ? '' : `${r.kind}: `}${r.text}`;
            const link = r.url && /^https:\/\/[^\s()<>]+$/.test(r.url) ? r.url : null;
            const by = link ? `[${md(`@${r.author}`, 100)}](<${link}>)` : md(`@${r.author}`, 100);
            const at = r.head ? `\`${r.head.slice(0, 12)}\` (${state.checkpoints.indexOf(r.head) + 1})` : '—';
            lines.push(`| ${r.round} | ${md(asked, 300)} | ${by} | ${r.status === null ? '🔄 running' : md(r.status, 30)} | ${md(r.verdict ?? '—', 30)} | ${at} |`);
        }
        lines.push('');
    }
    if (state.log.length) {
        lines.push('<details><summary>Commands</summary>', '');
        for (const entry of state.log)
            lines.push(`- ${md(`@${entry.author}`, 100)}: \`${md(entry.said, 200)}\` → ${md(entry.answer, 500)}`);
        lines.push('', '</details>', '');
    }
    lines.push('<sub>`/proctor continue <feedback>` · `retry` · `stop` · `restore <n>` · `promote` · `help`</sub>', options.block);
    return lines.join('\n');
}

/** The sticky comment's key: one conversation per issue or pull request. */
const CONVERSATION_KEY = 'conversation';
const STATE_OPEN = '<!-- proctor:state ';
const STATE_CLOSE = ' -->';
/** A round's text kept in the state (the agent of the next round gets it summarized). */
const TEXT_MAX = 2000;
function emptyConversation() {
    return {
        v: 1,
        session: null,
        branch: null,
        tip: null,
        promotable: false,
        target: null,
        checkpoints: [],
        rounds: [],
        log: [],
    };
}
/** The hidden block that carries the state (base64 JSON: no `-->` can end it early). */
function stateBlock(state) {
    return `${STATE_OPEN}${Buffer.from(JSON.stringify(state), 'utf8').toString('base64')}${STATE_CLOSE}`;
}
/** The state in a comment body, or null when there is none or it does not hold together. */
function parseConversation(body) {
    const start = body.indexOf(STATE_OPEN);
    if (start < 0)
        return null;
    const end = body.indexOf(STATE_CLOSE, start + STATE_OPEN.length);
    if (end < 0)
        return null;
    let raw;
    try {
        raw = JSON.parse(Buffer.from(body.slice(start + STATE_OPEN.length, end), 'base64').toString('utf8'));
    }
    catch {
        return null;
    }
    return checked(raw);
}
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const s = (v, max = 300) => (typeof v === 'string' ? v.slice(0, max) : null);
const sha = (v) => (typeof v === 'string' && SHA.test(v) ? v : null);
const arr = (v) => (Array.isArray(v) ? v : []);
function checked(raw) {
    if (!raw || typeof raw !== 'object')
        return null;
    const o = raw;
    if (o.v !== 1)
        return null;
    const rounds = arr(o.rounds).flatMap((r, i) => {
        if (!r || typeof r !== 'object')
            return [];
        const x = r;
        const kind = x.kind === 'continue' || x.kind === 'retry' ? x.kind : 'task';
        return [
            {
                round: i + 1,
                kind,
                text: s(x.text, TEXT_MAX) ?? '',
                author: s(x.author, 100) ?? 'unknown',
                url: s(x.url),
                run: s(x.run, 30),
                base: sha(x.base),
                status: s(x.status, 30),
                verdict: s(x.verdict, 30),
                head: sha(x.head),
                agentSession: s(x.agentSession, 200),
            },
        ];
    });
    return {
        v: 1,
        session: s(o.session, 200),
        branch: s(o.branch, 250),
        tip: sha(o.tip),
        promotable: o.promotable === true,
        target: s(o.target, 250),
        checkpoints: arr(o.checkpoints).flatMap((c) => sha(c) ?? []),
        rounds,
        log: arr(o.log).flatMap((l) => {
            const x = (l ?? {});
            const answer = s(x.answer, 500);
            return answer === null
                ? []
                : [{ author: s(x.author, 100) ?? 'unknown', said: s(x.said, 200) ?? '', answer }];
        }),
    };
}
/** A round asked for (running from now on). */
function withRound(state, round) {
    const rounds = [
        ...state.rounds,
        {
            ...round,
            text: round.text.slice(0, TEXT_MAX),
            round: state.rounds.length + 1,
            status: null,
            verdict: null,
            head: null,
            agentSession: null,
        },
    ];
    return { ...state, rounds: rounds.slice(-30), promotable: false };
}
/** A command answered: kept in the comment's log. */
function withAnswer(state, entry) {
    return { ...state, log: [...state.log, { ...entry, said: entry.said.slice(0, 200) }].slice(-30) };
}
/**
 * The last round's result from its report: status, verdict, its checkpoints added to the session's list,
 * the branch it was pushed to. `promotable` only when the gates allowed AND the commit was pushed.
 */
function withReport(state, report) {
    const rounds = [...state.rounds];
    const last = rounds[rounds.length - 1];
    const head = report.checkpoints[report.checkpoints.length - 1]?.sha ?? null;
    // The seam for the agent CLI's own resume: a report field the presets may fill (absent today).
    const agentSession = s(report.agent_session_id, 200);
    if (last)
        rounds[rounds.length - 1] = {
            ...last,
            status: report.status,
            verdict: report.verdict,
            head: sha(head),
            agentSession,
            base: last.base ?? sha(report.baseline?.commit ?? null),
        };
    const known = new Set(state.checkpoints);
    const added = report.checkpoints.flatMap((c) => (sha(c.sha) && !known.has(c.sha) ? [c.sha] : []));
    const pushed = report.pushed?.ok === true && report.pushed.sha === head ? report.pushed.branch : null;
    return {
        ...state,
        session: report.session_id,
        branch: pushed ?? state.branch,
        tip: pushed !== null ? sha(head) : state.tip,
        promotable: report.verdict === 'allow' && report.status === 'completed' && pushed !== null,
        checkpoints: [...state.checkpoints, ...added],
        rounds,
    };
}
/** What the next round's agent reads about the earlier ones (a fresh agent has no memory of them). */
function summaryForAgent(state) {
    const lines = state.rounds.map((r) => `- round ${r.round} (${r.kind}, @${r.author}): ${r.status ?? 'running'}${r.verdict ? `, ${r.verdict}` : ''}` +
        `${r.head ? `, ended at ${r.head.slice(0, 12)}` : ''}: ${oneLine(r.text, 300)}`);
    return lines.join('\n');
}
function oneLine(text, max) {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
/** The conversation's sticky comment on an issue or pull request, and the state it holds. */
class ConversationComment {
    options;
    comment;
    constructor(options) {
        this.options = options;
        this.comment = new StickyComment({
            octokit: options.octokit,
            owner: options.ctx.owner,
            repo: options.ctx.repo,
            issueNumber: options.issueNumber,
            key: CONVERSATION_KEY,
            mode: 'sticky',
            token: options.token,
            minEditIntervalMs: 0,
        });
    }
    /** The state proctor last wrote here; null when this conversation has none yet. */
    async read() {
        const found = await this.comment.find();
        return found?.body ? parseConversation(found.body) : null;
    }
    /** Writes the state and its rendering (creates the comment the first time). */
    async write(state) {
        await this.comment.publish(() => renderConversation(state, {
            marker: this.comment.marker,
            sanitizer: this.options.sanitizer,
            block: stateBlock(state),
        }), { final: true });
        return this.comment.url;
    }
}

async function cancelRun(octokit, where, runId) {
    await octokit.rest.actions.cancelWorkflowRun({ ...where, run_id: runId });
}
/** The kept branch for a tip a restore moves away from: later checkpoints stay reachable there. */
function keptBranch(session, tip) {
    return `proctor-kept/${session}/${tip.slice(0, 12)}`;
}
/**
 * Moves `branch` to `to`, first keeping its current tip under keptBranch(). Returns the old tip and the
 * kept branch (null when the branch already was at `to`). A kept branch that exists already (the same tip
 * kept before) is fine.
 */
async function moveBranch(octokit, where, options) {
    const { data } = await octokit.rest.git.getRef({ ...where, ref: `heads/${options.branch}` });
    const from = data.object.sha;
    if (from === options.to)
        return { from, kept: null };
    const kept = keptBranch(options.session, from);
    try {
        await octokit.rest.git.createRef({ ...where, ref: `refs/heads/${kept}`, sha: from });
    }
    catch (error) {
        // 422 "Reference already exists": kept by an earlier restore from this very tip.
        if (!(error && typeof error === 'object' && 'status' in error && error.status === 422))
            throw error;
    }
    await octokit.rest.git.updateRef({ ...where, ref: `heads/${options.branch}`, sha: options.to, force: true });
    return { from, kept };
}
/** Opens a pull request from `head` into `base`, or updates the open one; its number and whether it is new. */
async function promote(octokit, where, options) {
    const { data: open } = await octokit.rest.pulls.list({
        ...where,
        head: `${where.owner}:${options.head}`,
        state: 'open',
        per_page: 1,
    });
    const existing = open[0];
    if (existing) {
        const { data } = await octokit.rest.pulls.update({
            ...where,
            pull_number: existing.number,
            title: options.title,
            body: options.body,
        });
        return { number: data.number, url: data.html_url, created: false };
    }
    const { data } = await octokit.rest.pulls.create({
        ...where,
        head: options.head,
        base: options.base,
        title: options.title,
        body: options.body,
    });
    return { number: data.number, url: data.html_url, created: true };
}

/** A new task from the conversation: round 1 of a new session, recorded at once (what `stop` cancels). */
async function beginTask(task, options) {
    if (task.issueNumber === null)
        return null;
    const conversation = commentOf(task.issueNumber, options);
    // Begun already by this run's acknowledge job (a one-job workflow has none; it begins the round itself).
    const before = await conversation.read();
    const last = before?.rounds[before.rounds.length - 1];
    if (last && last.status === null && last.run === options.ctx.runId)
        return null;
    const state = withRound({ ...emptyConversation(), target: targetOf(options) }, { kind: 'task', text: task.text, author: task.author, url: task.url, run: options.ctx.runId, base: null });
    return conversation.write(state);
}
async function answerCommand(task, command, options) {
    const none = (log, exitCode = 0) => ({
        log,
        outputs: { task: 'false', command: command.verb },
        exitCode,
    });
    const { octokit, ctx } = options;
    const where = { owner: ctx.owner, repo: ctx.repo };
    if (task.issueNumber === null)
        return none('the command names no issue or pull request to act on');
    const issue = task.issueNumber;
    const reply = async (text) => {
        await octokit.rest.issues.createComment({ ...where, issue_number: issue, body: text });
    };
    if (command.verb === 'help') {
        await reply(helpText(options.phrase, command.problem && options.sanitizer.forMarkdown(command.problem, 200)));
        return none(`answered with the help text${command.problem ? ` (${command.problem})` : ''}`);
    }
    const conversation = commentOf(issue, options);
    const read = await conversation.read();
    // The state names the branch restore force-moves: only the session's own checkpoint branch counts
    // (never `main`, whatever the comment's hidden block says).
    const state = read && { ...read, branch: ownBranch(read, options.branchTemplate) };
    const last = state?.rounds[state.rounds.length - 1];
    if (!state || !last) {
        await reply(`proctor: there is no session on this conversation yet; start one with \`${options.phrase} <task>\`.`);
        return none(`/proctor ${command.verb}: no session on #${issue}`);
    }
    const said = task.text.split('\n', 1)[0];
    const answer = async (text, next = state) => {
        await conversation.write(withAnswer(next, { author: task.author, said, answer: text }));
    };
    const running = last.status === null;
    switch (command.verb) {
        case 'stop': {
            const run = Number(last.run);
            if (!running || !Number.isSafeInteger(run) || run <= 0) {
                await answer(`nothing to stop: round ${last.round} is not running`);
                return none(`/proctor stop: round ${last.round} is not running`);
            }
            const failed = await cancelRun(octokit, where, run).then(() => null, (error) => describeError(error));
            if (failed) {
                await answer(`could not cancel run ${run}: ${failed.message} (the acknowledge job needs actions: write)`);
                return none(`/proctor stop: could not cancel run ${run}: ${failed.message}`, 1);
            }
            const rounds = state.rounds.map((r) => r === last ? { ...r, status: 'interrupted', verdict: 'block' } : r);
            await answer(`cancelled round ${last.round} (workflow run ${run})`, { ...state, rounds });
            return none(`/proctor stop: cancelled workflow run ${run} (round ${last.round})`);
        }
        case 'restore': {
            const n = command.checkpoint;
            const sha = state.checkpoints[n - 1];
            if (running || !state.branch || !state.session || !sha) {
                const why = running
                    ? `round ${last.round} is still running (\`${options.phrase} stop\` first)`
                    : !state.branch || !state.session
                        ? 'the session has no pushed checkpoint branch'
                        : `there is no checkpoint ${n} (the session has ${state.checkpoints.length})`;
                await answer(`not restored: ${why}`);
                return none(`/proctor restore ${n}: ${why}`, 1);
            }
            const moved = await moveBranch(octokit, where, {
                branch: state.branch,
                to: sha,
                session: state.session,
            }).catch((error) => describeError(error));
            if ('message' in moved) {
                await answer(`not restored: ${moved.message} (the acknowledge job needs contents: write)`);
                return none(`/proctor restore ${n}: ${moved.message}`, 1);
            }
            const text = moved.kept
                ? `moved ${state.branch} back to checkpoint ${n} (${sha.slice(0, 12)}); the later checkpoints stay on ${moved.kept}`
                : `${state.branch} already is at checkpoint ${n}`;
            // Gates were judged on the old tip: a promote needs a round that passes on this one.
            await answer(text, { ...state, tip: sha, promotable: state.promotable && !moved.kept });
            return none(`/proctor restore ${n}: ${text}`);
        }
        case 'promote': {
            if (running || !state.promotable || !state.branch) {
                const why = running
                    ? `round ${last.round} is still running`
                    : `round ${last.round} ${last.status ?? 'running'} with the verdict ${last.verdict ?? '—'}` +
                        `${state.branch ? '' : ' and pushed no checkpoint branch'}: promote needs a round whose gates passed and whose commit was pushed`;
                await answer(`not promoted: ${why}`);
                return none(`/proctor promote: ${why}`, 1);
            }
            const base = state.target ?? targetOf(options);
            if (!base) {
                await answer('not promoted: no branch to open the pull request against');
                return none('/proctor promote: no target branch', 1);
            }
            const first = state.rounds[0];
            const pr = await promote(octokit, where, {
                head: state.branch,
                base,
                title: `proctor: ${first.text.replace(/\s+/g, ' ').slice(0, 70)}`,
                body: `Promoted from ${state.session ? `session \`${state.session}\`` : 'a proctor session'} on #${issue} ` +
                    `(${state.rounds.length} round${state.rounds.length === 1 ? '' : 's'}; the gates passed on the last).`,
            }).catch((error) => describeError(error));
            if ('message' in pr) {
                await answer(`not promoted: ${pr.message} (the acknowledge job needs pull-requests: write)`);
                return none(`/proctor promote: ${pr.message}`, 1);
            }
            const text = `${pr.created ? 'opened' : 'updated'} pull request #${pr.number} from ${state.branch} into ${base}`;
            await answer(text);
            return {
                ...none(`/proctor promote: ${text}`),
                outputs: { task: 'false', command: 'promote', 'pull-request': String(pr.number) },
            };
        }
        case 'continue':
        case 'retry': {
            const base = command.verb === 'continue' ? state.tip : last.base;
            const why = running
                ? `round ${last.round} is still running (\`${options.phrase} stop\` first)`
                : !state.session
                    ? 'the last round left no session to continue'
                    : command.verb === 'continue' && (!state.branch || !state.tip)
                        ? `round ${last.round} pushed no checkpoint branch to continue from (its gates failed?): \`${options.phrase} retry\`, or a new task`
                        : !base
                            ? `round ${last.round} recorded no commit it started from`
                            : null;
            if (why || !base) {
                await answer(`not started: ${why}`);
                return none(`/proctor ${command.verb}: ${why}`, 1);
            }
            const text = command.verb === 'continue' ? command.feedback : last.text;
            const next = withRound(state, {
                kind: command.verb,
                text,
                author: task.author,
                url: task.url,
                run: ctx.runId,
                base,
            });
            const round = next.rounds.length;
            await answer(`round ${round} (${command.verb}) starts from ${base.slice(0, 12)}`, next);
            return {
                log: `/proctor ${command.verb}: round ${round} of session ${state.session} starts from ${base}`,
                outputs: {
                    task: 'true',
                    command: command.verb,
                    ref: base,
                    'session-id': state.session,
                    round: String(round),
                },
                exitCode: 0,
            };
        }
    }
}
/** The branch the state names, if it is the session's own under `checkpoints.branch` (never `main`). */
function ownBranch(state, template) {
    if (!state.branch || !state.session)
        return null;
    try {
        return remoteBranchFor(template, state.session) === state.branch ? state.branch : null;
    }
    catch {
        return null;
    }
}
function commentOf(issueNumber, options) {
    return new ConversationComment({
        octokit: options.octokit,
        ctx: options.ctx,
        issueNumber,
        token: options.token,
        sanitizer: options.sanitizer,
    });
}
/** Where a promoted pull request goes: the PR's own head branch, else the repository's default branch. */
function targetOf(options) {
    return (options.ctx.pr?.headRef ??
        str(get(options.payload, 'pull_request', 'head', 'ref')) ??
        str(get(options.payload, 'repository', 'default_branch')));
}

/**
 * The trigger of an event, with a phrase-less reply on a session's pull request read as its continue.
 * Every job that acts on a conversation's round (acknowledge, the agent job, publish) asks this, so they
 * all agree on which session a reply continues.
 */
async function resolveTrigger(eventName, payload, options) {
    const trigger = triggerOf(eventName, payload, options.config.github.trigger);
    if (trigger.kind !== 'ignore')
        return trigger;
    const reply = replyOf(eventName, payload, options.config.github.trigger);
    if (!reply)
        return trigger;
    const not = (why) => ({
        kind: 'ignore',
        reason: `${trigger.reason}, and ${why}: a reply without it continues only the session whose checkpoint branch the pull request is`,
    });
    if (reply.conversationOn === null)
        return not(`pull request #${reply.pr} was not opened by \`/proctor promote\` (its description names no conversation)`);
    const state = await new ConversationComment({
        octokit: options.octokit,
        ctx: options.ctx,
        issueNumber: reply.conversationOn,
        token: options.token,
        sanitizer: options.sanitizer,
    })
        .read()
        .catch((error) => error);
    if (state instanceof Error)
        return not(`the conversation comment on #${reply.conversationOn} could not be read (${state.message})`);
    const branch = state && ownBranch(state, options.config.checkpoints.branch);
    if (!state?.session || !branch || branch !== reply.branch)
        return not(`the conversation on #${reply.conversationOn} records no session on the branch ${reply.branch}`);
    return {
        kind: 'task',
        via: `a reply on pull request #${reply.pr}, the checkpoint branch of session ${state.session}`,
        command: { verb: 'continue', feedback: reply.task.text },
        task: { ...reply.task, issueNumber: reply.conversationOn },
    };
}

async function acknowledge(octokit, owner, repo, target) {
    const request = { owner, repo, comment_id: target.commentId, content: 'eyes' };
    if (target.on === 'issue')
        await octokit.rest.reactions.createForIssueComment(request);
    else
        await octokit.rest.reactions.createForPullRequestReviewComment(request);
}

// `mode: acknowledge`: the first job of a comment- or label-triggered two-job workflow. It runs none of
// the agent's code and no agent: it decides whether the event gives proctor a task (the trigger phrase,
// the label), whether its author may give one (src/action/refuse-task.ts), and answers at once with an
// `eyes` reaction. Its exit code gates the agent job (`needs: acknowledge`); its `task` output says
// whether there is anything to do. The agent job checks again: it never trusts this job's word alone.
async function runAcknowledge(inputs, env) {
    const loaded = await loadActionConfig(inputs, env);
    if (!loaded)
        return 2;
    const { config, ctx } = loaded;
    const sanitizer = createSanitizer({ secrets: [inputs.githubToken].filter(Boolean) });
    const payload = readEventPayload(env.GITHUB_EVENT_PATH);
    const octokit = actionClient(inputs.githubToken, ctx.apiUrl, env);
    const trigger = await resolveTrigger(ctx.eventName, payload, {
        octokit,
        ctx,
        token: inputs.githubToken,
        sanitizer,
        config,
    });
    if (trigger.kind !== 'task') {
        info(`proctor: nothing to do: ${sanitizer.forLog(trigger.kind === 'ignore' ? trigger.reason : `${ctx.eventName ?? 'this event'} is not a comment or a label`)}`);
        writeOutputs({ task: 'false' });
        return 0;
    }
    const { task } = trigger;
    const refusal = await refuseTask(task, trigger.via, { octokit, ctx, oneJob: false });
    if (refusal) {
        const message = `proctor: ${sanitizer.forLog(refusal.message)}; the agent was not started`;
        if (refusal.exitCode === 0)
            notice(message);
        else
            error(message);
        writeOutputs({ task: 'false' });
        return refusal.exitCode;
    }
    if (task.reactTo)
        await acknowledge(octokit, ctx.owner, ctx.repo, task.reactTo).catch((error) => warning(`proctor: could not react to the comment: ${error.message}`));
    const options = {
        octokit,
        ctx,
        token: inputs.githubToken,
        sanitizer,
        payload,
        phrase: config.github.trigger.phrase[config.github.trigger.phrase.length - 1] ?? '/proctor',
        branchTemplate: config.checkpoints.branch,
    };
    if (trigger.command) {
        // A follow-up: answered here, in the job that runs no agent code (docs/github.md#the-conversation).
        const outcome = await answerCommand(task, trigger.command, options).catch((error) => ({
            log: `could not answer /proctor ${trigger.command.verb}: ${error.message}`,
            outputs: { task: 'false' },
            exitCode: 1,
        }));
        const line = `proctor: ${sanitizer.forLog(outcome.log)}`;
        if (outcome.exitCode === 0)
            info(line);
        else
            error(line);
        writeOutputs(outcome.outputs);
        return outcome.exitCode;
    }
    info(`proctor: task from ${sanitizer.forLog(task.author)} (${trigger.via}): the agent job may start`);
    // Round 1 of the conversation, recorded now: the run `/proctor stop` would cancel, before the agent starts.
    await beginTask(task, options).catch((error) => warning(`proctor: could not write the conversation comment: ${error.message}`));
    writeOutputs({ task: 'true' });
    return 0;
}

const BATCH_CHECK = 'batch';
function batchConclusion(batch) {
    return batch.verdict === 'allow' ? 'success' : 'failure';
}
class BatchReporter {
    options;
    errors = [];
    calls = {};
    constructor(options) {
        this.options = options;
    }
    async publish(batch) {
        const { options } = this;
        const onCall = (operation) => void (this.calls[operation] = (this.calls[operation] ?? 0) + 1);
        const summary = this.writeSummary(batch);
        let comment = null;
        if (options.prNumber !== null && options.comment !== 'off' && !options.readOnly) {
            comment = new StickyComment({
                octokit: options.octokit,
                owner: options.owner,
                repo: options.repo,
                issueNumber: options.prNumber,
                key: options.key,
                mode: options.comment,
                token: options.token,
                onCall,
                onError: (error) => this.fail('comment', error),
            });
            const { key, links, sanitizer } = options;
            await comment
                .publish((maxChars) => renderBatchComment(batch, { key, links, sanitizer, maxChars }), {
                final: true,
            })
                .catch((error) => this.fail('comment', error));
        }
        let checkConclusion = null;
        if (options.checks && options.headSha) {
            checkConclusion = batchConclusion(batch);
            const checks = new CheckRuns({
                octokit: options.octokit,
                owner: options.owner,
                repo: options.repo,
                headSha: options.headSha,
                sanitizer: options.sanitizer,
                detailsUrl: options.links.jobSummary,
                readOnly: options.readOnly ?? false,
                onCall,
                onError: (error) => this.fail('checks', error),
                ...(options.emit ? { emit: options.emit } : {}),
            });
            if (options.sessionChecks)
                await this.sessionChecks(checks, options.sessionChecks);
            await checks.conclude(BATCH_CHECK, checkConclusion, {
                title: batchCheckTitle(batch),
                summary: renderBatchSummary(batch, {
                    links: options.links,
                    sanitizer: options.sanitizer,
                    maxBytes: 60_000,
                }),
            });
        }
        return {
            commentUrl: comment?.url ?? null,
            checkConclusion,
            summary,
            errors: [...this.errors],
            calls: this.calls,
        };
    }
    /**
     * A session whose report is missing or malformed ran no hook that can be told: every hook check fails
     * for it, so a lost leg never passes a required check.
     */
    async sessionChecks(checks, sessions) {
        const { hooks, reports, lost } = sessions;
        for (const hook of hooks) {
            const per = [
                ...reports.map((report) => ({
                    session: report.session_id,
                    result: report.stop_hooks.filter((r) => r.name === hook).at(-1) ?? null,
                })),
                ...lost.map((session) => ({ session, result: null })),
            ];
            await checks.hookFinished(mergeHookResults(hook, per, per.length > 1, 'the hook has no result in this session'));
        }
        const violations = reports.flatMap((report) => report.violations);
        const by = `the ${reports.length} session report${reports.length === 1 ? '' : 's'} of this run`;
        await checks.policy(violations, verifiedPolicySummary(violations, reports.length, by));
    }
    writeSummary(batch) {
        const path = this.options.summaryPath === undefined ? process.env.GITHUB_STEP_SUMMARY : this.options.summaryPath;
        if (!path)
            return null;
        try {
            return appendJobSummary(renderBatchSummary(batch, { links: this.options.links, sanitizer: this.options.sanitizer }), path);
        }
        catch (error) {
            this.fail('summary', error);
            return null;
        }
    }
    fail(operation, error) {
        recordFailure(this.errors, operation, error, this.options);
    }
}

async function resolvePullRequest(options) {
    const { context: ctx } = options;
    if (ctx.pr)
        return { number: ctx.pr.number, headSha: ctx.pr.headSha, source: 'event' };
    const run = ctx.workflowRun;
    const candidates = [...new Set(options.claimed.filter((n) => Number.isInteger(n) && n > 0))];
    if (!run?.headSha || candidates.length === 0)
        return null;
    if (candidates.length > 1) {
        options.log?.(`reports name several pull requests (${candidates.join(', ')}); posting to none of them`);
        return null;
    }
    const number = candidates[0];
    try {
        options.onCall?.('pulls.get');
        const { data } = await options.octokit.rest.pulls.get({
            owner: ctx.owner,
            repo: ctx.repo,
            pull_number: number,
        });
        if (data.head.sha !== run.headSha) {
            options.log?.(`reports name pull request #${number}, but its head (${data.head.sha.slice(0, 12)}) is not the commit ` +
                `the triggering run built (${run.headSha.slice(0, 12)}); not commenting`);
            return null;
        }
        return { number, headSha: run.headSha, source: 'report' };
    }
    catch (error) {
        options.log?.(`could not confirm pull request #${number}: ${error.message}`);
        return null;
    }
}

// mode: aggregate — one BatchReport out of many session reports (matrix jobs, or a fork PR's artifact
// in a trusted workflow_run), then one PR comment and one check run. Report files are untrusted data:
// they are parsed defensively (a malformed or missing one becomes an errored child with a problem, never
// a crash) and the PR they name is believed only once GitHub confirms it (resolvePullRequest).
async function runAggregate(inputs, env) {
    let config;
    let ctx;
    try {
        if (!inputs.reports && !inputs.artifactPattern) {
            throw new InputError('mode aggregate needs the reports input (globs of report.json files on disk) or artifact-pattern (artifacts to download)');
        }
        const file = inputs.configGiven || fs.existsSync(resolve(inputs.config)) ? inputs.config : undefined;
        const loaded = file ? await loadConfig({ file, cwd: process.cwd() }) : null;
        for (const warning$1 of loaded?.warnings ?? [])
            warning(`proctor.yml: ${warning$1}`);
        config = applyInputs(loaded?.config ?? defaultConfig(), inputs);
        ctx = readActionsContext(env);
    }
    catch (error$1) {
        const known = error$1 instanceof ConfigError || error$1 instanceof InputError;
        error(`proctor: ${known ? error$1.message : String(error$1)}`);
        return 2;
    }
    const token = inputs.githubToken;
    const sanitizer = createSanitizer({ secrets: [token].filter(Boolean) });
    const children = [];
    if (inputs.reports)
        children.push(...readReportGlobs(inputs.reports, process.cwd()));
    if (inputs.artifactPattern) {
        const dest = join(env.RUNNER_TEMP || tmpdir(), `proctor-artifacts-${process.pid}`);
        const downloaded = await downloadReportArtifacts({
            pattern: inputs.artifactPattern,
            dest,
            token,
            context: ctx,
        });
        children.push(...downloaded.problems.map((problem) => ({ source: inputs.artifactPattern, problem })));
        children.push(...downloaded.files.map(readReport));
    }
    const batch = aggregateReports(makeBatchId(env), children.length ? children : [noReports(inputs)]);
    const batchPath = writeBatch(batch, env);
    info(`proctor: aggregated ${batch.child_count} report(s): ${batch.completed_count} completed, ${batch.failed_count} failed, ` +
        `${batch.errored_count} errored, ${batch.interrupted_count} interrupted, ${batch.timeout_count} timeout → ${batch.verdict}`);
    for (const problem of batch.problems)
        warning(`proctor: ${sanitizer.forLog(`${problem.source}: ${problem.message}`)}`);
    await fireBatchComplete(config, batch, env);
    const octokit = actionClient(token, ctx.apiUrl, env);
    const readOnly = !canWrite(ctx) || !token;
    const target = readOnly
        ? null
        : await resolvePullRequest({
            octokit,
            context: ctx,
            claimed: children.flatMap((c) => (typeof c.report?.ci?.pr === 'number' ? [c.report.ci.pr] : [])),
            log: (m) => info(`proctor: ${sanitizer.forLog(m)}`),
        });
    const reporter = new BatchReporter({
        sessionChecks: sessionChecks(config, ctx, children, batch),
        octokit,
        token,
        owner: ctx.owner,
        repo: ctx.repo,
        prNumber: target?.number ?? null,
        headSha: target?.headSha ?? ctx.workflowRun?.headSha ?? ctx.sha,
        key: `${expandKey(config.github.key, ctx)}/batch`,
        comment: config.github.comment,
        checks: config.github.checks,
        sanitizer,
        links: linksFor(ctx),
        readOnly,
        onError: (e) => warning(`proctor: GitHub ${e.operation} failed (${e.status ?? 'network'}): ${e.message}`),
    });
    const published = await reporter.publish(batch);
    writeOutputs({
        verdict: batch.verdict,
        status: batchStatus(batch),
        'session-id': batch.batch_id,
        'child-count': batch.child_count,
        'completed-count': batch.completed_count,
        'failed-count': batch.failed_count,
        'errored-count': batch.errored_count,
        'interrupted-count': batch.interrupted_count,
        'timeout-count': batch.timeout_count,
        violations: batch.children.reduce((sum, c) => sum + c.violation_count, 0),
        'report-path': batchPath ?? '',
        'comment-url': published.commentUrl ?? '',
        ...usageOutputs(batch.usage),
    });
    if (config.github.fail_on === 'never')
        return 0;
    return batch.verdict === 'allow' ? 0 : 1;
}
/**
 * `github.publish: aggregate`: the sessions of this run wrote no check runs, so this job writes them
 * once for all. Not on `workflow_run`: those reports come from another run (a fork's, whose code wrote
 * them) and must never pass a required check; only `proctor / batch` is written then, as before.
 */
function sessionChecks(config, ctx, children, batch) {
    if (config.github.publish !== 'aggregate')
        return null;
    if (ctx.eventName === 'workflow_run') {
        warning('proctor: github.publish is aggregate, but on workflow_run the reports come from another run: ' +
            'no proctor / <hook> or proctor / policy check is written from them, only proctor / batch');
        return null;
    }
    const reports = children.flatMap((c) => (c.report ? [c.report] : []));
    const hooks = [
        ...new Set([
            ...config.stop_hooks.map((h) => h.name),
            ...reports.flatMap((r) => r.stop_hooks.map((h) => h.name)),
        ]),
    ];
    const lost = batch.children.filter((_, i) => !children[i]?.report).map((c) => c.name);
    return { hooks, reports, lost };
}
/** The batch's one-word status: completed when every child completed, else the most telling other one. */
function batchStatus(batch) {
    if (batch.interrupted_count)
        return 'interrupted';
    if (batch.timeout_count)
        return 'timeout';
    if (batch.errored_count)
        return 'errored';
    if (batch.failed_count)
        return 'failed';
    return batch.child_count > 0 ? 'completed' : 'errored';
}
/**
 * `reports`: globs or paths separated by newlines or commas, relative to the working directory. A pattern
 * that matches nothing becomes an errored child, so a matrix leg whose artifact went missing is seen.
 */
function readReportGlobs(patterns, cwd) {
    const list = patterns
        .split(/[\n,]/)
        .map((p) => p.trim())
        .filter(Boolean);
    const seen = new Set();
    const children = [];
    for (const pattern of list) {
        let files;
        try {
            files = expand(pattern, cwd);
        }
        catch (error) {
            children.push({ source: pattern, problem: error.message });
            continue;
        }
        if (files.length === 0) {
            children.push({ source: pattern, problem: `no report file matches "${pattern}" (in ${cwd})` });
            continue;
        }
        for (const file of files) {
            if (seen.has(file))
                continue;
            seen.add(file);
            children.push(readReport(file));
        }
    }
    return children;
}
function expand(pattern, cwd) {
    if (!/[*?[\]{}]/.test(pattern)) {
        const path = resolve(cwd, pattern);
        return [fs.existsSync(path) && fs.statSync(path).isDirectory() ? join(path, 'report.json') : path];
    }
    // fs.globSync is Node 22+; the action runs on node24. A CLI on Node 20 gets a clear message instead.
    if (typeof fs.globSync !== 'function') {
        throw new InputError(`the reports input uses a glob ("${pattern}"), which needs Node 22 or later`);
    }
    return fs
        .globSync(pattern, { cwd })
        .map((p) => resolve(cwd, p))
        .sort();
}
function readReport(path) {
    const name = basename(dirname(path));
    let text;
    try {
        text = readFileSync(path, 'utf8');
    }
    catch (error) {
        const code = error.code;
        return {
            source: path,
            name,
            problem: code === 'ENOENT' ? 'report file is missing' : `cannot read it: ${code ?? String(error)}`,
        };
    }
    const parsed = parseSessionReport(text);
    return typeof parsed === 'string'
        ? { source: path, name, problem: `malformed report: ${parsed}` }
        : { source: path, name: parsed.session_id, report: parsed };
}
function noReports(inputs) {
    const where = [
        inputs.reports && `reports "${inputs.reports}"`,
        inputs.artifactPattern && `artifacts "${inputs.artifactPattern}"`,
    ];
    return { source: 'aggregate', problem: `no session reports found (${where.filter(Boolean).join(', ')})` };
}
function writeBatch(batch, env) {
    try {
        const dir = join(env.RUNNER_TEMP || tmpdir(), 'proctor', batch.batch_id);
        mkdirSync(dir, { recursive: true });
        const path = join(dir, 'batch.json');
        writeFileSync(path, `${JSON.stringify(batch, null, 2)}\n`);
        return path;
    }
    catch (error) {
        warning(`proctor: could not write the batch report: ${error.message}`);
        return null;
    }
}
/** `subagent_batch_complete` fires once, when proctor.yml configures it; its failure never changes the verdict. */
async function fireBatchComplete(config, batch, env) {
    if (!config.hooks.subagent_batch_complete?.length)
        return;
    const hooks = new LifecycleHooks({
        hooks: config.hooks,
        poolSize: config.hooks_async_pool_size,
        shutdownGraceMs: config.hooks_async_shutdown_grace,
        sessionId: batch.batch_id,
        cwd: process.cwd(),
        // As every hook proctor starts: no runner tokens, no step files (docs/action.md#what-the-agent-can-see).
        env: agentEnvironment(env, config.agent.env_passthrough),
        onWarning: (message) => warning(`proctor: ${message}`),
    });
    try {
        for (const result of await hooks.fire('subagent_batch_complete', batchCompletePayload(batch))) {
            if (result.status !== 'ok' && result.status !== 'scheduled') {
                warning(`proctor: subagent_batch_complete hook ${result.name}: ${result.status}${result.message ? ` (${result.message})` : ''}`);
            }
        }
    }
    catch (error) {
        warning(`proctor: subagent_batch_complete hooks failed: ${error.message}`);
    }
    finally {
        await hooks.drain(config.hooks_async_drain_timeout);
    }
}

/**
 * The round this run is, from the conversation's state (the acknowledge job wrote it as running, with
 * this run's id). A string: why this run cannot continue anything.
 */
function continuationOf(state, command, task, runId) {
    const last = state?.rounds[state.rounds.length - 1];
    if (!state || !last || last.status !== null || last.run !== runId || last.kind !== command.verb)
        return (`no ${command.verb} round of this run in the conversation comment: \`/proctor ${command.verb}\` is ` +
            'answered by the acknowledge job (mode: acknowledge, proctor init --trigger mention), which records the round first');
    if (!state.session || !last.base)
        return 'the conversation names no session or start commit to continue';
    const earlier = { ...state, rounds: state.rounds.slice(0, -1) };
    const previous = earlier.rounds[earlier.rounds.length - 1];
    const what = command.verb === 'continue' ? last.text || 'Continue where the previous round stopped.' : last.text;
    const text = [
        what,
        '',
        `---`,
        `proctor: this is round ${last.round} (${command.verb}) of session ${state.session}. The worktree is where ` +
            `${command.verb === 'continue' ? 'the previous round left it' : 'the retried round started'}. Earlier rounds:`,
        summaryForAgent(earlier),
    ].join('\n');
    return {
        sessionId: state.session,
        round: last.round,
        base: last.base,
        task: { ...task, text },
        env: {
            PROCTOR_FEEDBACK: command.verb === 'continue' ? last.text : '',
            PROCTOR_CONVERSATION_ROUND: String(last.round),
            ...(previous?.agentSession ? { PROCTOR_RESUME_SESSION: previous.agentSession } : {}),
        },
    };
}
/** The round's result into the conversation comment (status, verdict, checkpoints, the pushed branch). */
async function recordRound(conversation, report, runId) {
    const state = await conversation.read();
    const last = state?.rounds[state.rounds.length - 1];
    // Only the running round this run was asked for: a report never rewrites another run's round.
    if (!state || !last || last.status !== null || last.run !== runId)
        return false;
    if (state.session && state.session !== report.session_id)
        return false;
    await conversation.write(withReport(state, report));
    return true;
}

// The verify job's results as it hands them to the publish job (artifact `proctor-verify-<run>-<attempt>`,
// docs/action.md#two-job-layout). The verify job ran the agent's code, so the publish job reads this as
// a claim that can only make a check fail: a hook counts as passed only when GitHub's own record says the
// verify job succeeded AND this file says the hook allowed on the very commit publish computed itself.
const VERIFY_PREFIX = 'proctor-verify-';
const VERIFY_FILE = 'verify.json';
/** `proctor-verify-<run>-<attempt>`, with the matrix key when the verify job is a matrix leg. */
function verifyArtifactName(ctx, matrixKey) {
    const key = matrixKey ? `-${sanitizeRefPart(matrixKey)}` : '';
    return `${VERIFY_PREFIX}${ctx.runId || '0'}-${ctx.runAttempt}${key}`;
}
async function uploadVerifyResults(o) {
    if (!o.secrets.values.ACTIONS_RUNTIME_TOKEN)
        return 'no artifact service here (ACTIONS_RUNTIME_TOKEN unset): the publish job will find no results';
    const { root, files } = stageUpload(o.dir, o.results, o.sanitizer, [], VERIFY_FILE);
    try {
        await withSecretsInEnv(o.secrets, ARTIFACT_ENV, () => new DefaultArtifactClient().uploadArtifact(o.name, files, root, { retentionDays: 7 }));
    }
    catch (error) {
        return `could not upload the verify results ${o.name}: ${error.message}`;
    }
    info(`proctor: uploaded the verify results as artifact ${o.name} for the publish job`);
    return null;
}
/**
 * Publish side: the verify results of this run attempt, merged over the verify job's legs; per session
 * the entries of every leg. Untrusted: anything malformed is dropped (and can only make checks fail).
 */
async function downloadVerifyResults(o) {
    const base = `${VERIFY_PREFIX}${o.ctx.runId || '0'}-${o.ctx.runAttempt}`;
    const downloaded = await withSecretsInEnv(o.secrets, ARTIFACT_ENV, () => downloadArtifacts({ pattern: `${base}*`, dest: o.dest, token: o.token, context: o.ctx }));
    const sessions = new Map();
    const problems = [...downloaded.problems];
    // `<base>*` also matches attempt 1 of `-10`: only this attempt's name and its matrix legs count.
    const ours = downloaded.artifacts.filter((a) => a.name === base || a.name.startsWith(`${base}-`));
    for (const artifact of ours) {
        const file = join(artifact.dir, VERIFY_FILE);
        const parsed = existsSync(file) ? parseResults(readFileSync(file, 'utf8')) : null;
        if (!parsed) {
            problems.push(`artifact ${artifact.name} holds no readable ${VERIFY_FILE}`);
            continue;
        }
        for (const session of parsed.sessions)
            sessions.set(session.session_id, [...(sessions.get(session.session_id) ?? []), session]);
    }
    return { sessions, problems };
}
function parseResults(text) {
    let data;
    try {
        data = JSON.parse(text);
    }
    catch {
        return null;
    }
    const d = data;
    if (!d || d.schema !== 1 || !Array.isArray(d.sessions))
        return null;
    const sessions = d.sessions.filter((s) => !!s &&
        typeof s.session_id === 'string' &&
        (s.tested_sha === null || typeof s.tested_sha === 'string') &&
        (s.verdict === 'allow' || s.verdict === 'block') &&
        Array.isArray(s.stop_hooks) &&
        s.stop_hooks.every((h) => !!h && typeof h.name === 'string' && typeof h.verdict === 'string'));
    return { schema: 1, sessions };
}

const MAX_PAGES = 5;
/**
 * Reads the verify job's conclusion in this run attempt. A job still running is asked again (`tries`
 * times, `delayMs` apart: with `needs: verify` it has finished, but GitHub may record it a moment late).
 * Not found, unreadable or never completed: not a success (fail closed).
 */
async function readVerifyJob(o) {
    const tries = o.tries ?? 6;
    const fail = (said) => ({ success: false, said, startedAt: null });
    if (!o.ctx.runId || !/^\d+$/.test(o.ctx.runId))
        return fail('GITHUB_RUN_ID is not set: the verify job is unknown');
    for (let attempt = 1;; attempt++) {
        let jobs;
        try {
            jobs = await listJobs(o.octokit, o.ctx);
        }
        catch (error) {
            const { status, message } = describeError(error);
            const hint = status === 403 || status === 404 ? ' (the publish job needs `actions: read`)' : '';
            return fail(`could not read the run's jobs${hint}: ${status ?? 'network'} ${message}`);
        }
        const matching = jobs.filter((j) => j.name === o.name || j.name.startsWith(`${o.name} (`));
        if (matching.length === 0)
            return fail(`no job named "${o.name}" in run ${o.ctx.runId} attempt ${o.ctx.runAttempt} (input verify-job)`);
        const pending = matching.filter((j) => j.status !== 'completed');
        if (pending.length > 0 && attempt < tries) {
            await new Promise((r) => setTimeout(r, o.delayMs ?? 5_000));
            continue;
        }
        const startedAt = matching.map((j) => j.started_at).sort()[0] ?? null;
        const said = matching
            .map((j) => `${j.name}: ${j.status === 'completed' ? (j.conclusion ?? 'no conclusion') : j.status}`)
            .join(', ');
        const success = matching.every((j) => j.status === 'completed' && j.conclusion === 'success');
        return { success, said, startedAt };
    }
}
async function listJobs(octokit, ctx) {
    const jobs = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
        const { data } = await octokit.rest.actions.listJobsForWorkflowRunAttempt({
            owner: ctx.owner,
            repo: ctx.repo,
            run_id: Number(ctx.runId),
            attempt_number: ctx.runAttempt,
            per_page: 100,
            page,
        });
        jobs.push(...data.jobs);
        if (jobs.length >= data.total_count || data.jobs.length === 0)
            break;
    }
    return jobs;
}

// mode: publish — the last job of the two-job layout (docs/action.md#two-job-layout), the only one with
// write permissions. It runs NO code of the agent's: no stop hook, no lifecycle hook, nothing checked out
// of the agent's work. It takes the same handoffs the verify job took, checks each bundle the same way,
// computes the final checkpoint itself (its own fetch of the bundle into its own repository) and judges
// the policy on that diff from git objects (forbidden areas, gate files, max_file_size from blob sizes).
// The verify job's word is read from GitHub's record of its conclusion (jobs API) and from its results
// artifact; the artifact can make a check fail, never pass:
//   proctor / <hook>  success only if the verify job succeeded AND its results say the hook allowed in
//                     every session AND on the very commit computed here; else failure, saying why.
//   proctor / policy  this job's own evaluation.
//   the push          exactly the computed commit, only if the verify job succeeded and no error/critical
//                     violation concerns forbidden content or size (such content is never pushed).
async function runPublish(inputs, env, secrets) {
    const loaded = await loadActionConfig(inputs, env);
    if (!loaded)
        return 2;
    const { config, ctx, configPath } = loaded;
    const token = inputs.githubToken;
    const sanitizer = uploadSanitizer(token, secrets);
    const readOnly = !canWrite(ctx) || !token;
    const octokit = actionClient(token, ctx.apiUrl, env);
    const cwd = process.cwd();
    const dirs = ensureStateDir(cwd);
    const git = new Git({ cwd: dirs.root });
    const head = await git.revParse('HEAD^{commit}');
    if (!head) {
        error('proctor: mode publish needs a checkout of the commit the agent started from (no HEAD here)');
        return 2;
    }
    // The one check of refuse-task.ts, for every kind of trigger (comment, review comment, review, label).
    const payload = readEventPayload(env.GITHUB_EVENT_PATH);
    const refusal = await refuseEventTrigger({
        eventName: ctx.eventName,
        payload,
        settings: config.github.trigger,
        octokit: octokit,
        ctx,
    });
    if (refusal) {
        const message = `proctor: ${sanitizer.forLog(refusal.message)}; nothing was published`;
        if (refusal.exitCode === 0)
            notice(message);
        else
            error(message);
        return refusal.exitCode;
    }
    const persisted = await warnPersistedCredentials(cwd);
    if (readOnly)
        notice('proctor: read-only token (fork pull request): publishing into the job summary and an artifact only');
    const verifyJob = await readVerifyJob({ octokit, ctx, name: inputs.verifyJob });
    info(`proctor: the verify job as GitHub recorded it: ${sanitizer.forLog(verifyJob.said)}`);
    const results = await downloadVerifyResults({
        ctx,
        token,
        dest: join(env.RUNNER_TEMP || tmpdir(), `proctor-verify-${process.pid}`),
        secrets,
    });
    for (const problem of results.problems)
        warning(`proctor: verify results: ${sanitizer.forLog(problem)}`);
    const handoffs = await collectHandoffs(inputs, env, ctx, token, git, head, secrets, verifyJob.startedAt);
    const gate = gateSpec(dirs.root, configPath, config);
    const credential = persisted
        ? undefined
        : await pushCredentialFor(git, config.checkpoints.remote, token, env, ctx);
    const published = [];
    for (const result of handoffs) {
        const started = Date.now();
        if (!result.ok) {
            published.push({
                report: rejected(result, config, ctx, started, sanitizer.forLog),
                sha: null,
                rejected: true,
            });
            continue;
        }
        const handoff = result.handoff;
        const sha = handoff.tip ?? head;
        const { violations } = await judgeDiff({
            git,
            head,
            tip: sha,
            gate,
            config,
            worktree: dirs.root,
            checkpoint: claimedSeq(handoff),
        });
        const hooks = config.stop_hooks.map((hook) => hookResult(hook.name, sha, verifyJob, results.sessions.get(handoff.sessionId), results.problems));
        const reasons = [
            ...hooks.filter((h) => h.verdict !== 'allow').map((h) => `${h.name}: ${h.reason ?? 'failed'}`),
            ...(failsPolicyCheck(violations)
                ? ['error or critical policy violations (judged by the publish job)']
                : []),
        ];
        const report = sessionReport({
            handoff,
            verdict: reasons.length ? 'block' : 'allow',
            reason: reasons.length ? reasons.join('; ') : null,
            violations,
            stopHooks: hooks,
            ctx,
            started,
        });
        if (!readOnly && handoff.tip) {
            const why = pushRefusal(verifyJob, violations, hooks);
            report.pushed = why
                ? notPushed(config, handoff.sessionId, why)
                : await pushExactly(git, handoff.sessionId, handoff.tip, config, head, credential);
            info(report.pushed.ok
                ? `proctor: pushed ${report.pushed.sha ?? handoff.tip} (the handed-off ${handoff.tip}) to ${report.pushed.branch}`
                : `proctor: checkpoints not pushed: ${report.pushed.reason}`);
        }
        published.push({ report, sha, rejected: false });
    }
    const checkRunLinks = config.github.checks
        ? await publishChecks(published, config, ctx, octokit, sanitizer, readOnly)
        : [];
    let commentUrl = '';
    const links = linksFor(ctx);
    if (config.github.comment !== 'off' && ctx.pr && !readOnly) {
        const job = await findJobUrl(octokit, ctx);
        if (job.url)
            links.job = job.url;
    }
    // The task the agent job got, from the same event: the comment quotes it (on the issue, without a PR).
    const trigger = await resolveTrigger(ctx.eventName, payload, {
        octokit,
        ctx,
        token,
        sanitizer,
        config,
    });
    const task = trigger.kind === 'task' ? trigger.task : null;
    const baseKey = expandKey(config.github.key, ctx);
    for (const { report } of published) {
        const reporter = new GitHubReporter({
            octokit,
            token,
            context: ctx,
            key: published.length > 1 ? `${baseKey}/${report.session_id}` : baseKey,
            sessionId: report.session_id,
            comment: config.github.comment,
            checks: false,
            checkRunLinks,
            sanitizer,
            links,
            findJob: false,
            readOnly,
            task,
            issueNumber: task?.issueNumber ?? null,
            emit: (line) => process.stdout.write(line.endsWith('\n') ? line : line + '\n'),
            onError: (e) => warning(`proctor: GitHub ${e.operation} failed (${e.status ?? 'network'}): ${e.message}`),
        });
        const finished = await reporter.finish(report);
        commentUrl ||= finished.commentUrl ?? '';
        // The round's result in the conversation comment (docs/github.md#the-conversation): status, verdict,
        // the commit pushed here (only a pushed, passing round can be promoted or continued).
        if (task?.issueNumber != null && !readOnly && published.length === 1)
            await recordRound(new ConversationComment({ octokit, ctx, issueNumber: task.issueNumber, token, sanitizer }), report, ctx.runId).catch((error) => warning(`proctor: could not update the conversation comment: ${error.message}`));
        if (readOnly) {
            // A fork PR: the published report (never the agent's) travels on to a trusted workflow_run.
            await withSecretsInEnv(secrets, ARTIFACT_ENV, () => uploadSessionArtifact(report, writeReport(report, dirs.sessions), sanitizer));
        }
    }
    for (const secret of sanitizer.discovered())
        setSecret(secret);
    const { blocked } = writeJudgedOutputs(published, commentUrl);
    if (config.github.fail_on === 'never')
        return 0;
    return blocked ? 1 : 0;
}
/**
 * One hook in one session as published: allowed only when GitHub recorded the verify job's success and
 * every verify leg that judged this session says the hook allowed on `sha`.
 */
function hookResult(name, sha, verifyJob, sessions, problems) {
    const base = { name, exit_code: null, duration_ms: 0, round: 1 };
    const said = (sessions ?? []).map((s) => s.stop_hooks.find((h) => h.name === name)?.reason).filter(Boolean);
    const reported = said.length ? ` The verify job reported: ${said.join('; ')}` : '';
    if (!verifyJob.success)
        return {
            ...base,
            verdict: 'block',
            reason: `the verify job did not succeed (GitHub recorded ${verifyJob.said}); its per-hook results come from a ` +
                `job that ran the agent's code and cannot say which hook passed.${reported}`,
        };
    if (!sessions?.length)
        return {
            ...base,
            verdict: 'block',
            reason: `no results of the verify job for this session${problems.length ? ` (${problems.join('; ')})` : ''}`,
        };
    for (const session of sessions) {
        if (session.tested_sha !== sha)
            return {
                ...base,
                verdict: 'block',
                reason: `the verify job tested ${session.tested_sha ?? 'no commit'}, not the handed-off checkpoint ${sha}`,
            };
        const hook = session.stop_hooks.find((h) => h.name === name);
        if (!hook || hook.verdict !== 'allow')
            return {
                ...base,
                verdict: 'block',
                reason: hook
                    ? (hook.reason ?? `the hook's verdict was ${hook.verdict}`)
                    : 'the hook did not run in the verify job',
            };
    }
    return { ...base, verdict: 'allow', reason: null };
}
/** Why the checkpoints must not be pushed, or null. */
function pushRefusal(verifyJob, violations, hooks) {
    if (!verifyJob.success)
        return `the verify job did not succeed (GitHub recorded ${verifyJob.said})`;
    const held = unpushable(violations);
    if (held.length)
        return `the checkpoints hold content the policy forbids (${held.map((v) => `${v.file}: ${v.constraint}`).join(', ')}); it is never pushed`;
    // Only a commit the verify job tested (and passed) is pushed: a handoff the verify job never saw (one
    // uploaded from inside it under another session's name) has no results here.
    const failed = hooks.filter((h) => h.verdict !== 'allow');
    if (failed.length)
        return `not every stop hook passed on this commit in the verify job (${failed.map((h) => h.name).join(', ')})`;
    return null;
}
/** Pushes refs/proctor/<session>, which this job fetched from the bundle itself, and checks it was `tip`. */
async function pushExactly(git, sessionId, tip, config, head, credential) {
    const local = await git.revParse(`${checkpointRef(sessionId)}^{commit}`);
    if (local !== tip)
        return notPushed(config, sessionId, `refs/proctor/${sessionId} is not the handed-off ${tip}; not pushed`);
    const workspace = Workspace.find(git.cwd);
    if (!workspace)
        throw new Error(`${git.cwd} is not inside a git repository`);
    workspace.sessionDir(sessionId);
    const queue = await workspace.pushQueue(sessionId, config, {
        base: head,
        // CI's definition as this job checked it out: the handed-off chain's trailers are the agent job's.
        baseline: head,
        // Exactly the tip that was judged, whatever the ref holds by the time the push runs.
        written: tip,
        mode: config.checkpoints.push === 'never' ? 'never' : 'always',
        ...(credential ? { secretConfig: credential } : {}),
    });
    return queue.flush();
}
/**
 * One `proctor / <hook>` per configured hook over every session (failed in any session: failure; the
 * text names each session), and one `proctor / policy` over all their violations.
 */
async function publishChecks(published, config, ctx, octokit, sanitizer, readOnly) {
    const sha = ctx.pr?.headSha ?? ctx.sha;
    if (!sha)
        return [];
    const checks = new CheckRuns({
        octokit,
        owner: ctx.owner,
        repo: ctx.repo,
        headSha: sha,
        sanitizer,
        detailsUrl: linksFor(ctx).jobSummary,
        readOnly,
        ...(published.length === 1 ? { externalId: published[0].report.session_id } : {}),
        emit: (line) => process.stdout.write(`${line}\n`),
        onError: (error) => warning(`proctor: GitHub checks failed: ${error.message}`),
    });
    for (const hook of config.stop_hooks) {
        const per = published.map(({ report }) => ({
            session: report.session_id,
            result: report.stop_hooks.find((r) => r.name === hook.name) ?? null,
        }));
        await checks.hookFinished(mergeHookResults(hook.name, per, published.length > 1, 'the hook did not run in the verify job'));
    }
    const violations = published.flatMap(({ report }) => report.violations);
    await checks.policy(violations, verifiedPolicySummary(violations, published.length));
    return checks.links();
}
function writeReport(report, sessionsDir) {
    const dir = join(sessionsDir, report.session_id);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'report.json');
    writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
    return path;
}

// The action's job log, read like a good CI tool: the agent's output (redacted, inside the runner's
// stop-commands), a collapsible group per stop hook with its output as it runs, one line per checkpoint
// and push, progress lines for a large first checkpoint, a heartbeat for long hooks, and a final verdict line with the reason. Everything untrusted is
// redacted and neutralized before it is written; annotations and groups go through @actions/core.
/** Output of a hook that is not the one shown live, kept until its group can be written (tail kept). */
const MAX_BUFFERED_CHARS = 256 * 1024;
class ActionLog {
    options;
    /** The agent's live output: redacted, commands neutralized, wrapped in stop-commands. */
    agentOutput;
    out;
    hooks = [];
    /** The hook whose group is open and whose output streams live. */
    live = null;
    liveWriter = null;
    heartbeat = null;
    constructor(options) {
        this.options = options;
        this.out = options.out ?? process.stdout;
        this.agentOutput = this.writer();
    }
    /** A plain log line (redacted, commands neutralized). */
    line(text) {
        this.out.write(`${this.options.sanitizer.forLog(text)}\n`);
    }
    hookStarted(name, round) {
        this.agentOutput.flush();
        const hook = {
            name,
            round,
            startedAt: Date.now(),
            buffered: [],
            bufferedChars: 0,
            result: null,
            shown: false,
        };
        this.hooks.push(hook);
        if (!this.live)
            this.open(hook);
        this.startHeartbeat();
    }
    /** Hooks run in parallel: one streams inside its open group, the others wait in a buffer for theirs. */
    hookOutput(name, chunk) {
        const hook = this.find(name);
        if (!hook)
            return;
        if (hook === this.live) {
            this.liveWriter?.write(chunk);
            return;
        }
        const text = Buffer.from(chunk).toString('utf8');
        hook.buffered.push(text);
        hook.bufferedChars += text.length;
        while (hook.bufferedChars > MAX_BUFFERED_CHARS && hook.buffered.length > 1)
            hook.bufferedChars -= hook.buffered.shift().length;
    }
    hookFinished(result) {
        const hook = this.find(result.name);
        if (!hook)
            return;
        hook.result = result;
        if (hook === this.live)
            this.closeLive();
        if (!this.hooks.some((h) => !h.result))
            this.stopHeartbeat();
    }
    /** Checkpoints, pushes and warnings as they happen: one line each. */
    event(event) {
        if (event.kind === 'checkpoint' || event.kind === 'push' || event.kind === 'checkpoint_skipped') {
            this.agentOutput.flush();
            const sha = typeof event.data?.sha === 'string' ? ` → ${event.data.sha.slice(0, 12)}` : '';
            this.line(`proctor: ${event.message}${event.kind === 'checkpoint' ? sha : ''}`);
        }
    }
    /** A large first checkpoint's progress: "checkpoint 1: 6,000 / 13,711 files (44%)". */
    checkpointProgress(progress) {
        this.line(`proctor: ${describeSnapshotProgress(progress)}`);
    }
    /**
     * The last line of the session: verdict, status, duration and the reason. A failing step also gets
     * `core.setFailed(reason)` (the error annotation on the run); a block that does not fail the step
     * (`fail-on: never`) and hook errors get warnings.
     */
    verdict(report, exitCode) {
        this.finishHooks();
        this.agentOutput.end();
        const s = this.options.sanitizer;
        // The session's reason already quotes the first blocking reasons; the hooks' own are the fallback.
        const reason = report.reason || blockReasons(report) || null;
        const rounds = report.rounds > 1 ? `, ${report.rounds} rounds` : '';
        const line = `proctor: verdict ${report.verdict} — session ${report.status} in ${formatDuration(report.duration_ms)}${rounds}${reason ? `: ${reason}` : ''}`;
        this.line(line);
        for (const hook of latestResults(report).filter((r) => r.verdict === 'error'))
            warning(s.forLog(`${hook.name}: ${hook.reason ?? 'hook error'}`), {
                title: `proctor / ${hook.name}`,
            });
        const why = s.forLog(reason ?? `session ${report.status}, verdict ${report.verdict}`);
        if (exitCode !== 0)
            setFailed(`proctor: ${why}`);
        else if (report.verdict === 'block')
            warning(`proctor: ${why}`, { title: 'proctor: blocked' });
    }
    writer() {
        return new RedactingWriter(this.out, this.options.sanitizer, { stopCommands: true });
    }
    find(name) {
        // The latest run of that hook (a hook runs once per round).
        for (let i = this.hooks.length - 1; i >= 0; i--)
            if (this.hooks[i].name === name)
                return this.hooks[i];
        return undefined;
    }
    open(hook) {
        this.live = hook;
        hook.shown = true;
        startGroup(`stop hook ${safe$1(hook.name)} (round ${hook.round})`);
        this.liveWriter = this.writer();
        for (const text of hook.buffered)
            this.liveWriter.write(text);
        hook.buffered = [];
        hook.bufferedChars = 0;
        if (hook.result)
            this.closeLive();
    }
    closeLive() {
        const hook = this.live;
        if (!hook)
            return;
        this.liveWriter?.end();
        this.liveWriter = null;
        if (hook.result)
            this.line(`proctor: stop hook ${hook.name}: ${describe(hook.result)}`);
        endGroup();
        this.live = null;
        // The next hook that started gets the group: its buffered output first, then live.
        const next = this.hooks.find((h) => !h.shown);
        if (next)
            this.open(next);
    }
    /** The session ended: any hook still without a group gets one now. */
    finishHooks() {
        this.stopHeartbeat();
        while (this.live)
            this.closeLive();
    }
    startHeartbeat() {
        const every = this.options.heartbeatMs ?? 30_000;
        if (this.heartbeat || every <= 0)
            return;
        this.heartbeat = setInterval(() => {
            const running = this.hooks.filter((h) => !h.result);
            if (running.length === 0)
                return;
            const parts = running.map((h) => `${h.name} ${formatDuration(Date.now() - h.startedAt)}`);
            this.line(`proctor: stop hooks still running: ${parts.join(', ')}`);
        }, every);
        this.heartbeat.unref();
    }
    stopHeartbeat() {
        if (this.heartbeat)
            clearInterval(this.heartbeat);
        this.heartbeat = null;
    }
}
function describe(result) {
    const took = formatDuration(result.duration_ms);
    const exit = result.exit_code === null ? '' : `, exit ${result.exit_code}`;
    const word = hookWord(result);
    if (word === 'timed out')
        return `timed out after ${took}`;
    if (word === 'passed')
        return `passed in ${took}${exit}`;
    const reason = firstLine(result.reason);
    return `${word} after ${took}${exit}${reason ? `: ${reason}` : ''}`;
}
function latestResults(report) {
    const round = Math.max(0, ...report.stop_hooks.map((r) => r.round));
    return report.stop_hooks.filter((r) => r.round === round);
}
/** "tests: 2 tests failed; lint: …" from the latest round's blocking hooks. */
function blockReasons(report) {
    if (report.verdict !== 'block')
        return null;
    const blocking = latestResults(report).filter((r) => r.verdict === 'block');
    if (blocking.length === 0)
        return null;
    return blocking.map((r) => `${r.name}: ${firstLine(r.reason) ?? 'blocked'}`).join('; ');
}
function safe$1(name) {
    return name.replace(/[^\w./-]/g, '_').slice(0, 100);
}

// The GitHub Action's `mode: run`: inputs → a supervised session → GitHub sinks (sticky comment, check
// runs, job summary, outputs; in the two-job layout's agent job, the handoff artifact instead).
// GitHub is a sink: if it is down or the token is read-only, the verdict and exit code stay the same.
/**
 * After a cancellation the runner sends SIGTERM 7.5 s and SIGKILL 10 s after SIGINT; reporting gets at
 * most this long, and never past SIGKILL (less a margin) counted from the first signal. What does not
 * fit is left to the post step.
 */
const FINISH_BUDGET_AFTER_SIGNAL_MS = 3_000;
const SIGKILL_AFTER_MS = 10_000;
const EXIT_MARGIN_MS = 700;
/**
 * Everything after the session that talks to GitHub (comment, check runs, artifact) shares this one
 * deadline (docs/github.md: nothing waits longer than 2 minutes); what does not fit is left to the post
 * step. `PROCTOR_REPORT_DEADLINE_MS` shortens it for the end-to-end tests.
 */
const REPORT_DEADLINE_MS = 120_000;
/**
 * `mode: run` (modes.ts): a comment's or a label's task, or the workflow's command, as one supervised
 * session, reported to GitHub.
 */
async function runMode(inputs, env, secrets) {
    const loaded = await loadActionConfig(inputs, env);
    if (!loaded)
        return 2;
    const { config, ctx } = loaded;
    // A comment or label not meant for proctor: one line, exit 0, nothing written anywhere.
    const payload = readEventPayload(env.GITHUB_EVENT_PATH);
    const sanitizer = createSanitizer({ secrets: [inputs.githubToken].filter(Boolean) });
    const octokit = actionClient(inputs.githubToken, ctx.apiUrl, env);
    const trigger = await resolveTrigger(ctx.eventName, payload, {
        octokit,
        ctx,
        token: inputs.githubToken,
        sanitizer,
        config,
    });
    if (trigger.kind === 'ignore') {
        // A label's name is anyone's text too: no workflow command gets through.
        info(`proctor: nothing to do: ${sanitizer.forLog(trigger.reason)}`);
        return 0;
    }
    const task = trigger.kind === 'task' ? trigger.task : null;
    // The agent job of the two-job layout publishes and pushes nothing; the publish job does.
    if (inputs.handoff)
        config.checkpoints.push = 'never';
    const command = safe(() => {
        const spec = agentCommand(inputs, config);
        return spec && commandWithTask(spec, task);
    });
    if (!command || command instanceof Error) {
        const message = command instanceof Error
            ? command.message
            : 'no agent command: set the command (or shell) input, or agent.command in proctor.yml';
        error(`proctor: ${message}`);
        return 2;
    }
    const readOnly = !canWrite(ctx) || inputs.handoff;
    const persisted = await warnPersistedCredentials(process.cwd());
    const pushSecretConfig = persisted
        ? undefined
        : await pushCredentialFor(new Git({ cwd: process.cwd() }), config.checkpoints.remote, inputs.githubToken, env, ctx);
    // A comment or a label can start an agent: only people who may write to the repository get to do that.
    if (task) {
        const refusal = await refuseTask(task, trigger.kind === 'task' ? trigger.via : '', {
            octokit,
            ctx,
            oneJob: !inputs.handoff,
        });
        if (refusal) {
            const message = `proctor: ${sanitizer.forLog(refusal.message)}; the agent was not started`;
            if (refusal.exitCode === 0)
                notice(message);
            else
                error(message);
            appendJobSummary(`### proctor\n\n${sanitizer.forMarkdown(message, 1000)}\n`);
            return refusal.exitCode;
        }
        info(`proctor: task from ${sanitizer.forLog(task.author)} (${trigger.kind === 'task' ? trigger.via : ''})`);
        // The first answer, before the slow part; the two-job agent job has no token to answer with.
        if (task.reactTo && !inputs.handoff && inputs.githubToken)
            await acknowledge(octokit, ctx.owner, ctx.repo, task.reactTo).catch((error) => warning(`proctor: could not react to the comment: ${error.message}`));
    }
    // A follow-up of a conversation (docs/github.md#the-conversation): the write commands were answered by
    // the acknowledge job; a continue or retry is the next round of the same session, from its commit.
    let continuation = null;
    const conversation = task?.issueNumber != null
        ? new ConversationComment({
            octokit,
            ctx,
            issueNumber: task.issueNumber,
            token: inputs.githubToken,
            sanitizer,
        })
        : null;
    const followUp = trigger.kind === 'task' ? (trigger.command ?? null) : null;
    if (task && conversation && followUp) {
        if (followUp.verb !== 'continue' && followUp.verb !== 'retry') {
            info(`proctor: /proctor ${followUp.verb} is answered by the acknowledge job (mode: acknowledge); no agent runs`);
            return 0;
        }
        const state = await conversation.read().catch((error) => error);
        const found = state instanceof Error
            ? `could not read the conversation comment: ${state.message} (the agent job needs issues: read and pull-requests: read)`
            : continuationOf(state, followUp, task, ctx.runId);
        if (typeof found === 'string') {
            error(`proctor: ${sanitizer.forLog(found)}; the agent was not started`);
            return 1;
        }
        const head = await new Git({ cwd: process.cwd() }).revParse('HEAD^{commit}');
        if (head !== found.base) {
            error(`proctor: round ${found.round} starts from ${found.base}, but the checkout is ${head ?? 'no commit'}: ` +
                "check out the acknowledge job's output ref (proctor init --trigger mention writes it); the agent was not started");
            return 2;
        }
        continuation = found;
        info(`proctor: round ${found.round} (${followUp.verb}) of session ${found.sessionId}, from ${found.base}`);
    }
    const agentTask = continuation?.task ?? task;
    const sessionCommand = continuation ? commandWithTask(agentCommand(inputs, config), agentTask) : command;
    if (inputs.handoff)
        notice('proctor: handoff: this job publishes and pushes nothing; the verify job re-runs the gates on the handed-off checkpoints');
    else if (readOnly)
        notice('proctor: pull request from a fork (read-only token): reporting to the job summary and an artifact only');
    const sessionId = makeSessionId(continuation ? { ...env, PROCTOR_SESSION_ID: continuation.sessionId } : env);
    const reporter = new GitHubReporter({
        octokit,
        token: inputs.githubToken,
        context: ctx,
        key: expandKey(config.github.key, ctx),
        sessionId,
        comment: config.github.comment,
        checks: config.github.checks,
        publish: config.github.publish,
        sanitizer,
        links: linksFor(ctx),
        readOnly,
        task,
        issueNumber: task?.issueNumber ?? null,
        onError: (error) => warning(`proctor: GitHub ${error.operation} failed (${error.status ?? 'network'}): ${error.message}`),
        onNote: (message) => info(`proctor: ${sanitizer.forLog(message)}`),
    });
    if (config.github.publish === 'aggregate' && !readOnly)
        info('proctor: github.publish is aggregate: this session writes no comment or check run; the mode: aggregate job publishes for every session of the run');
    saveState(STATE.sessionId, sessionId);
    saveState(STATE.cwd, process.cwd());
    saveState(STATE.key, expandKey(config.github.key, ctx));
    // Kept until exit (not `once`): the runner's SIGTERM after SIGINT must not kill reporting midway.
    let signalAt = null;
    const onSignal = () => void (signalAt ??= Date.now());
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // The agent's output goes to the job log line by line, redacted (tokens the runner does not know about).
    const log = new ActionLog({ sanitizer });
    const outcome = await runSession({
        config,
        command: sessionCommand,
        cwd: process.cwd(),
        sessionId,
        output: log.agentOutput,
        input: null,
        installSignalHandlers: true,
        env: { ...env, ...taskEnv(agentTask), ...continuation?.env },
        ...(pushSecretConfig ? { pushSecretConfig } : {}),
        // `uses: ci-checks` pushes and reads checks: only where this job may push (not a fork, not a handoff).
        ...(readOnly || !inputs.githubToken
            ? {}
            : {
                github: { octokit, owner: ctx.owner, repo: ctx.repo, branch: baseBranchOf(env.GITHUB_EVENT_PATH) },
            }),
        ci: ciOf(ctx),
        listener: {
            started: (report) => void reporter.start(report),
            progress: (report) => void reporter.progress(report),
            hookStarted: (name, round) => {
                log.hookStarted(name, round);
                void reporter.hookStarted(name);
            },
            hookFinished: (result) => {
                log.hookFinished(result);
                void reporter.hookFinished(result);
            },
            hookOutput: (name, chunk) => log.hookOutput(name, chunk),
            event: (event) => log.event(event),
            checkpointProgress: (progress) => log.checkpointProgress(progress),
        },
    });
    const report = outcome.report;
    const exitCode = exitCodeFor(report, outcome.exitCode, config.github.fail_on);
    saveState(STATE.reportPath, outcome.reportPath);
    // Token-shaped strings found so far: mask them in whatever this job prints from now on (each once).
    const masked = new Set();
    const maskDiscovered = () => {
        for (const secret of sanitizer.discovered()) {
            if (masked.has(secret))
                continue;
            masked.add(secret);
            setSecret(secret);
        }
    };
    maskDiscovered();
    // Outputs first: whatever GitHub's API does next, later steps get the verdict.
    const last = report.checkpoints[report.checkpoints.length - 1];
    const commentUrl = reporter.commentUrl;
    const outputsWritten = writeOutputs({
        verdict: report.verdict,
        status: report.status,
        'session-id': report.session_id,
        'checkpoint-ref': last?.ref ?? '',
        'checkpoint-sha': last?.sha ?? '',
        'checkpoint-count': report.checkpoints.length,
        violations: report.violations.length,
        'report-path': outcome.reportPath,
        'comment-url': commentUrl ?? '',
        ...usageOutputs(report.usage),
    });
    log.verdict(report, exitCode);
    const deadline = signalAt === null
        ? reportDeadline(env)
        : Math.min(FINISH_BUDGET_AFTER_SIGNAL_MS, signalAt + SIGKILL_AFTER_MS - EXIT_MARGIN_MS - Date.now());
    // What leaves the machine is redacted like the log, with every secret the runner gave this step.
    const uploads = uploadSanitizer(inputs.githubToken, secrets);
    const reporting = (async () => {
        const result = await reporter.finish(report);
        // The round's result in the conversation comment (the publish job does it in the two-job layout).
        if (conversation && !inputs.handoff && !readOnly)
            await recordRound(conversation, report, ctx.runId).catch((error) => warning(`proctor: could not update the conversation comment: ${error.message}`));
        if (inputs.handoff) {
            const problem = await uploadHandoff({
                cwd: process.cwd(),
                report,
                reportPath: outcome.reportPath,
                secrets,
                sanitizer: uploads,
            });
            if (problem)
                error(`proctor: ${problem}`);
        }
        else if (readOnly) {
            await withSecretsInEnv(secrets, ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'], () => uploadSessionArtifact(report, outcome.reportPath, uploads));
        }
        return result;
    })();
    const finished = await withDeadline(reporting, deadline, () => null);
    if (!finished)
        warning(`proctor: reporting to GitHub did not finish within ${formatDuration(deadline)}; the post step completes what it can`);
    maskDiscovered();
    // The comment may have been created only now; a later value of an output replaces the earlier one.
    if (finished?.commentUrl && finished.commentUrl !== commentUrl)
        writeOutputs({ 'comment-url': finished.commentUrl });
    // The post step has nothing left to do once main reported (unless reporting was cut short).
    if (finished)
        saveState(STATE.finished, 'true');
    // Outputs lost on the way (the file went away during the session) must not pass silently.
    if (!outputsWritten && env.GITHUB_OUTPUT && exitCode === 0)
        return 2;
    return exitCode;
}
function reportDeadline(env) {
    const ms = Number(env.PROCTOR_REPORT_DEADLINE_MS);
    return Number.isFinite(ms) && ms > 0 ? ms : REPORT_DEADLINE_MS;
}
/** fail-on: `block` follows the session's exit code; `violation-error` also fails on error/critical violations. */
function exitCodeFor(report, sessionExit, failOn) {
    if (report.status === 'interrupted')
        return sessionExit;
    if (failOn === 'never')
        return 0;
    if (failOn === 'violation-error' && sessionExit === 0 && failsPolicyCheck(report.violations))
        return 1;
    return sessionExit;
}
function safe(fn) {
    try {
        return fn();
    }
    catch (error) {
        return error;
    }
}

// mode: verify — the middle job of the two-job layout (docs/action.md#two-job-layout). The agent never ran
// here, but its code does: the stop hooks (`npm test`) import what it wrote. So this job holds NO write
// token: it writes nothing to GitHub and pushes nothing. For each handoff of the run's agent jobs (a
// matrix gives several) it applies the checkpoint bundle on its own checkout, resets the gate files,
// judges the diff by the policy and RUNS THE STOP HOOKS; its verdict and exit code (the job's conclusion,
// which GitHub records and nothing in the job can rewrite afterwards) include the policy. Its per-hook
// results go, redacted, to the artifact `proctor-verify-<run>-<attempt>` for the publish job, which can
// only make a check fail with them.
//
// The gate is defined by this checkout, not by the agent: proctor.yml is read before the bundle is applied,
// and what the stop hooks execute as judge (src/hooks/gate-files.ts: the files their commands name, the
// package scripts they run, the runners' configuration, `gate_files`) is put back to this checkout's
// version before they run (an agent that rewrote its test script to pass gets a critical violation and
// the original script).
async function runVerify(inputs, env, secrets) {
    // Read from this checkout BEFORE anything of the agent's is applied: the gate is not the agent's to edit.
    const loaded = await loadActionConfig(inputs, env);
    if (!loaded)
        return 2;
    const { config, ctx, configPath } = loaded;
    // The token is only read with here (the commenter's permission, artifacts of a workflow_run); whatever
    // permissions it has, nothing in this job writes with it.
    const token = inputs.githubToken;
    const sanitizer = uploadSanitizer(token, secrets);
    const cwd = process.cwd();
    const dirs = ensureStateDir(cwd);
    const git = new Git({ cwd: dirs.root });
    const head = await git.revParse('HEAD^{commit}');
    if (!head) {
        error('proctor: mode verify needs a checkout of the commit the agent started from (no HEAD here)');
        return 2;
    }
    // The one check of refuse-task.ts, for every kind of trigger (comment, review comment, review, label).
    const refusal = await refuseEventTrigger({
        eventName: ctx.eventName,
        payload: readEventPayload(env.GITHUB_EVENT_PATH),
        settings: config.github.trigger,
        octokit: actionClient(token, ctx.apiUrl, env),
        ctx,
    });
    if (refusal) {
        const message = `proctor: ${sanitizer.forLog(refusal.message)}; nothing was verified`;
        if (refusal.exitCode === 0)
            notice(message);
        else
            error(message);
        return refusal.exitCode;
    }
    await warnPersistedCredentials(cwd);
    notice("proctor: mode verify runs the stop hooks on the agent's code and writes nothing to GitHub: no check runs, " +
        "no comment, no push, whatever this job's permissions. A job with `mode: publish` (needs: verify; " +
        'contents/pull-requests/checks: write, actions: read) publishes; give this job `contents: read` only ' +
        '(examples/workflows/two-job.yml).');
    const handoffs = await collectHandoffs(inputs, env, ctx, token, git, head, secrets);
    const gate = gateSpec(dirs.root, configPath, config);
    const verified = [];
    for (const result of handoffs) {
        const started = Date.now();
        if (!result.ok) {
            verified.push({
                report: rejected(result, config, ctx, started, sanitizer.forLog),
                tested: null,
                rejected: true,
            });
            continue;
        }
        const report = await verifyOne({
            handoff: result.handoff,
            git,
            root: dirs.root,
            stateDir: dirs.state,
            head,
            gate,
            config,
            ctx,
            started,
        });
        verified.push({ report, tested: result.handoff.tip ?? head, rejected: false });
    }
    await restoreCheckout(git, head);
    // The job summary and annotations only (readOnly): this job holds no token that may write.
    const baseKey = expandKey(config.github.key, ctx);
    for (const { report } of verified) {
        const reporter = new GitHubReporter({
            octokit: actionClient('', ctx.apiUrl, env),
            token: '',
            context: ctx,
            key: verified.length > 1 ? `${baseKey}/${report.session_id}` : baseKey,
            sessionId: report.session_id,
            comment: 'off',
            checks: config.github.checks,
            sanitizer,
            links: linksFor(ctx),
            findJob: false,
            readOnly: true,
            emit: (line) => process.stdout.write(line.endsWith('\n') ? line : line + '\n'),
            onError: (e) => warning(`proctor: ${e.operation} failed: ${e.message}`),
        });
        await reporter.finish(report);
    }
    const problem = await uploadVerifyResults({
        results: { schema: 1, sessions: verified.map(resultOf) },
        name: verifyArtifactName(ctx, env.PROCTOR_MATRIX_KEY),
        dir: dirs.state,
        sanitizer,
        secrets,
    });
    if (problem)
        error(`proctor: ${problem}`);
    for (const secret of sanitizer.discovered())
        setSecret(secret);
    const { blocked } = writeJudgedOutputs(verified.map((v) => ({ report: v.report, sha: v.tested, rejected: v.rejected })), '');
    // `fail-on` does not apply here: this exit code becomes the job's conclusion, the one fact about this
    // job the publish job trusts (with `never`, code in this job could forge "all passed" in the results
    // artifact of a job that always succeeds). The verdict already holds the policy (error/critical
    // blocks); without results the publish job has nothing to pass either, so a failed upload fails too.
    if (config.github.fail_on === 'never' && blocked)
        notice('proctor: fail-on never does not apply to mode verify: its exit code is the gate the publish job reads');
    return blocked || problem ? 1 : 0;
}
function resultOf(v) {
    return {
        session_id: v.report.session_id,
        tested_sha: v.tested,
        rejected: v.rejected,
        verdict: v.report.verdict === 'allow' ? 'allow' : 'block',
        stop_hooks: v.report.stop_hooks.map((h) => ({ name: h.name, verdict: h.verdict, reason: h.reason })),
        violations: v.report.violations,
    };
}
/** Applies one session's checkpoints, judges the diff, runs the stop hooks here. */
async function verifyOne(o) {
    const { git, handoff, config } = o;
    const tip = handoff.tip ?? o.head;
    await checkoutDetached(git, tip);
    const { files, violations } = await judgeDiff({
        git,
        head: o.head,
        tip,
        gate: o.gate,
        config,
        worktree: o.root,
        checkpoint: claimedSeq(handoff),
        enforce: true,
    });
    const results = [];
    const outcome = await runStopHooks({
        hooks: config.stop_hooks,
        context: {
            session_id: handoff.sessionId,
            cwd: process.cwd(),
            stop_reason: 'verify',
            final_text: '',
            rounds: 1,
            stop_hook_active: false,
            checkpoint: handoff.tip
                ? {
                    ref: checkpointRef(handoff.sessionId),
                    sha: handoff.tip,
                    files_changed: files.map((f) => f.path),
                }
                : null,
            violations,
        },
        cwd: process.cwd(),
        // process.env no longer holds the runner's tokens (withheld at start); the hooks run the agent's code.
        env: agentEnvironment(process.env, config.agent.env_passthrough),
        graceMs: config.timeouts.grace,
        round: 1,
        registry: { dir: o.stateDir, session: handoff.sessionId },
        onResult: (result) => {
            results.push(result);
            info(`proctor: stop hook ${result.name} (verify job): ${result.verdict}${result.reason ? ` — ${result.reason}` : ''}`);
        },
    });
    // Like the agent job's verdict: a hook that blocks, or an error/critical violation, blocks.
    const policyBlocks = failsPolicyCheck(violations);
    const reasons = [
        ...(outcome.verdict === 'block'
            ? [`stop hooks blocked in the verify job: ${outcome.reasons.join('; ')}`]
            : []),
        ...(policyBlocks ? ['error or critical policy violations'] : []),
    ];
    return sessionReport({
        handoff,
        verdict: reasons.length ? 'block' : 'allow',
        reason: reasons.length ? reasons.join('; ') : null,
        violations,
        stopHooks: results.length ? results : outcome.results,
        ctx: o.ctx,
        started: o.started,
    });
}
/**
 * `checkout --force --detach <commit>` + `clean`, without porcelain checkout: the stop hooks run the agent's
 * code here and may have planted a smudge filter in .git/config; read-tree writes the files from proctor's
 * own git dir (src/git/isolation.ts), where no such filter is defined.
 */
async function checkoutDetached(git, commit) {
    await git.raw(['update-ref', '--no-deref', '-m', 'proctor: verify', 'HEAD', commit]);
    await git.raw(['read-tree', '-u', '--reset', commit]);
    await git.raw(['clean', '-fdq']);
}
async function restoreCheckout(git, head) {
    try {
        await checkoutDetached(git, head);
    }
    catch (error) {
        warning(`proctor: could not restore the checkout: ${error.message}`);
    }
}

// The GitHub Action's main step, before any mode: the inputs read, the runner's secrets withheld from the
// environment every mode's processes inherit, then the one mode the workflow asked for — `run` (run.ts),
// the two-job layout's `verify` and `publish` (docs/action.md#two-job-layout), `acknowledge`, `aggregate`.
async function main(env = process.env) {
    let inputs;
    let secrets;
    try {
        inputs = readInputs(env);
        if (inputs.githubToken)
            setSecret(inputs.githubToken);
        // Before anything else can start: no token stays in the environment the agent and hooks inherit.
        secrets = withholdRunnerSecrets([inputs.githubToken]);
        if (inputs.workingDirectory)
            process.chdir(resolve(inputs.workingDirectory));
        // Before an agent runs for nothing: later steps could not read its verdict.
        const outputs = stepOutputProblem(env.GITHUB_OUTPUT);
        if (outputs)
            throw new Error(outputs);
    }
    catch (error$1) {
        error(`proctor: ${error$1.message}`);
        return 2;
    }
    switch (inputs.mode) {
        case 'run':
            return runMode(inputs, env, secrets);
        case 'verify':
            return runVerify(inputs, env, secrets);
        case 'publish':
            return runPublish(inputs, env, secrets);
        case 'acknowledge':
            return runAcknowledge(inputs, env);
        case 'aggregate':
            return withSecretsInEnv(secrets, ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'], () => runAggregate(inputs, env));
        default:
            error(`proctor: input mode: expected run, acknowledge, verify, publish or aggregate, got "${inputs.mode}"`);
            return 2;
    }
}

export { main };
