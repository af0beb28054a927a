import { o as readRegularFile } from './checkpoints-create-CJcO-Brq.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';

// The Actions environment as one typed value: repository, run, job and the pull request (from the event
// payload). Everything else in src/github/ takes this value instead of reading process.env itself.
class ContextError extends Error {
    name = 'ContextError';
}
/** Reads the Actions environment. Throws ContextError naming the missing variable and how to fix it. */
function readActionsContext(env = process.env) {
    const repository = env.GITHUB_REPOSITORY ?? '';
    const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository);
    if (!match) {
        throw new ContextError(repository
            ? `GITHUB_REPOSITORY must look like "owner/repo", got "${repository}"`
            : 'GITHUB_REPOSITORY is not set: run inside GitHub Actions, or set it (owner/repo) to report elsewhere');
    }
    const payload = readEventPayload(env.GITHUB_EVENT_PATH);
    const eventName = env.GITHUB_EVENT_NAME || null;
    return {
        owner: match[1],
        repo: match[2],
        serverUrl: trimSlash(env.GITHUB_SERVER_URL || 'https://github.com'),
        apiUrl: trimSlash(env.GITHUB_API_URL || 'https://api.github.com'),
        eventName,
        sha: env.GITHUB_SHA || null,
        runId: env.GITHUB_RUN_ID || null,
        runAttempt: Number(env.GITHUB_RUN_ATTEMPT) || 1,
        job: env.GITHUB_JOB || null,
        runnerName: env.RUNNER_NAME || null,
        workflow: env.GITHUB_WORKFLOW || null,
        actor: env.GITHUB_ACTOR || null,
        pr: pullRequestOf(payload, repository),
        commentAuthor: eventName === 'issue_comment' ? str(get(payload, 'comment', 'user', 'login')) : null,
        workflowRun: workflowRunOf(payload),
        refName: env.GITHUB_HEAD_REF || (env.GITHUB_REF_TYPE === 'tag' ? null : env.GITHUB_REF_NAME) || null,
    };
}
function workflowRunOf(payload) {
    const run = get(payload, 'workflow_run');
    const id = num(get(run, 'id'));
    if (id === null)
        return null;
    const prs = get(run, 'pull_requests');
    return {
        id,
        headSha: str(get(run, 'head_sha')),
        headRepository: str(get(run, 'head_repository', 'full_name')),
        pullRequests: Array.isArray(prs) ? prs.flatMap((pr) => num(get(pr, 'number')) ?? []) : [],
    };
}
/**
 * Why the event payload cannot be used, or null. The action asks before it loads @actions/github, whose
 * module-level `context` parses GITHUB_EVENT_PATH itself and would end the step with a stack trace.
 */
function eventPayloadProblem(env = process.env) {
    try {
        readEventPayload(env.GITHUB_EVENT_PATH);
        return null;
    }
    catch (error) {
        return error.message;
    }
}
/** The event payload (GITHUB_EVENT_PATH) as parsed JSON; `{}` without one. Throws ContextError. */
function readEventPayload(path) {
    if (!path)
        return {};
    let text;
    try {
        // Not blocking on a FIFO, nor reading a device forever: the payload is a regular file, well under this.
        text = readRegularFile(path, 64 << 20).toString('utf8');
    }
    catch (error) {
        throw new ContextError(`GITHUB_EVENT_PATH points to ${path}, which cannot be read: ${error.message}`);
    }
    try {
        return JSON.parse(text);
    }
    catch (error) {
        throw new ContextError(`GITHUB_EVENT_PATH (${path}) is not valid JSON: ${error.message}; ` +
            'the runner writes this file: unset GITHUB_EVENT_PATH or point it at the event payload');
    }
}
function pullRequestOf(payload, repository) {
    const pr = get(payload, 'pull_request');
    if (pr && typeof pr === 'object') {
        const number = num(get(pr, 'number'));
        if (number === null)
            return null;
        const headRepo = str(get(pr, 'head', 'repo', 'full_name'));
        const baseRepo = str(get(pr, 'base', 'repo', 'full_name')) ?? repository;
        return {
            number,
            headSha: str(get(pr, 'head', 'sha')),
            baseSha: str(get(pr, 'base', 'sha')),
            headRef: str(get(pr, 'head', 'ref')),
            fork: headRepo === null || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
        };
    }
    // A comment on a PR: the payload has the number but not the head; it is the base repo's own event.
    const issue = get(payload, 'issue');
    if (issue && get(issue, 'pull_request')) {
        const number = num(get(issue, 'number'));
        return number === null ? null : { number, headSha: null, baseSha: null, headRef: null, fork: false };
    }
    // workflow_run (the aggregate pattern): the triggering run's PR and head.
    const run = get(payload, 'workflow_run');
    if (run && typeof run === 'object') {
        const first = get(run, 'pull_requests', '0');
        const number = num(get(first, 'number'));
        if (number === null)
            return null;
        const headRepo = str(get(run, 'head_repository', 'full_name'));
        return {
            number,
            headSha: str(get(run, 'head_sha')),
            baseSha: str(get(first, 'base', 'sha')),
            headRef: str(get(run, 'head_branch')),
            fork: headRepo === null || headRepo.toLowerCase() !== repository.toLowerCase(),
        };
    }
    return null;
}
/** The commit check runs attach to: the PR head when known, else the workflow's commit. */
function checkRunSha(ctx) {
    return ctx.pr?.headSha ?? ctx.sha;
}
/** Fork PRs get a read-only token: proctor must not attempt writes there. */
function canWrite(ctx) {
    return !(ctx.pr?.fork ?? false) || ctx.eventName === 'workflow_run';
}
/** Expands `{workflow}`, `{job}`, `{run_id}`, `{pr}` in the comment key template (`github.key`). */
function expandKey(template, ctx) {
    const values = {
        workflow: ctx.workflow ?? 'workflow',
        job: ctx.job ?? 'job',
        run_id: ctx.runId ?? 'run',
        pr: ctx.pr ? String(ctx.pr.number) : 'none',
    };
    return template.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
}
/** Links into the repository on the GitHub web UI, for the markdown renderers. */
function linksFor(ctx) {
    const repo = `${ctx.serverUrl}/${encodeURIComponent(ctx.owner)}/${encodeURIComponent(ctx.repo)}`;
    const hex = (sha) => sha.replace(/[^0-9a-fA-F]/g, '');
    const path = (p) => p
        .split('/')
        .map((part) => encodeURIComponent(part).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
        .join('/');
    // Branch names keep their slashes; everything else in a segment is percent-encoded.
    const ref = (name) => name.split('/').map(encodeURIComponent).join('/');
    const base = ctx.pr?.headRef ?? ctx.refName ?? null;
    return {
        branch: (name) => {
            const compare = base ? `${repo}/compare/${ref(base)}...${ref(name)}` : `${repo}/compare/${ref(name)}`;
            return { tree: `${repo}/tree/${ref(name)}`, compare, createPullRequest: `${compare}?expand=1` };
        },
        commit: (sha) => `${repo}/commit/${hex(sha)}`,
        compare: (base, head) => `${repo}/compare/${hex(base)}...${hex(head)}`,
        file: (p, sha) => `${repo}/blob/${hex(sha)}/${path(p)}`,
        jobSummary: ctx.runId
            ? `${repo}/actions/runs/${encodeURIComponent(ctx.runId)}${ctx.runAttempt > 1 ? `/attempts/${ctx.runAttempt}` : ''}`
            : null,
    };
}
function trimSlash(url) {
    return url.replace(/\/+$/, '');
}
function get(value, ...keys) {
    let current = value;
    for (const key of keys) {
        if (current === null || typeof current !== 'object')
            return undefined;
        current = current[key];
    }
    return current;
}
function str(value) {
    return typeof value === 'string' && value !== '' ? value : null;
}
function num(value) {
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

export { ContextError, canWrite, checkRunSha, eventPayloadProblem, expandKey, get, linksFor, num, readActionsContext, readEventPayload, str };
