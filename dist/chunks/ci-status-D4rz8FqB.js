import { d as describeError } from './client-DS6gKtGk.js';
import { readEventPayload } from './context-D-q0CQle.js';

/** The branch a pull request (or a comment on one) targets, from the event payload; else null. */
function baseBranchOf(eventPath) {
    let payload;
    try {
        payload = readEventPayload(eventPath);
    }
    catch {
        return null;
    }
    const pr = (payload?.pull_request ?? null);
    return typeof pr?.base?.ref === 'string' && pr.base.ref ? pr.base.ref : null;
}
class CiReader {
    gh;
    /** The latest rate-limit window seen: requests left, and when it resets (epoch ms). */
    rate = null;
    /** Ends the requests under way (the deadline, a shutdown): a stalled request must not outlast either. */
    signal;
    constructor(gh) {
        this.gh = gh;
    }
    get base() {
        return {
            owner: this.gh.owner,
            repo: this.gh.repo,
            ...(this.signal ? { request: { signal: this.signal } } : {}),
        };
    }
    /** The branch whose requirements count: the configured or pull request's, else the default branch. */
    async targetBranch(configured) {
        if (configured)
            return configured;
        if (this.gh.branch)
            return this.gh.branch;
        const repo = await this.call(() => this.gh.octokit.rest.repos.get(this.base));
        return repo.default_branch;
    }
    /**
     * The status checks `branch` requires, from its classic protection (in the branch itself, readable with
     * `contents: read`) and its rulesets; null when neither could be read. proctor's own checks are left out:
     * this session decides them, so waiting for them could never end.
     */
    async requiredChecks(branch) {
        const names = new Set();
        const sources = [];
        const protection = await this.call(() => this.gh.octokit.rest.repos.getBranch({ ...this.base, branch })).catch(unreadable);
        if (protection) {
            const required = protection.protection?.required_status_checks;
            for (const context of required?.contexts ?? [])
                names.add(context);
            for (const check of required?.checks ?? [])
                names.add(check.context);
            if (required)
                sources.push('branch protection');
        }
        const rules = await this.call(() => this.gh.octokit.rest.repos.getBranchRules({ ...this.base, branch, per_page: 100 })).catch(unreadable);
        if (rules) {
            for (const rule of rules) {
                if (rule.type !== 'required_status_checks')
                    continue;
                const parameters = rule
                    .parameters;
                for (const check of parameters?.required_status_checks ?? [])
                    names.add(check.context);
                sources.push('rulesets');
            }
        }
        if (!protection && !rules)
            return null;
        return {
            names: [...names].filter((name) => !isProctorCheck(name)),
            source: `${[...new Set(sources)].join(' and ') || 'no required checks'} of ${branch}`,
        };
    }
    /** Every check run on `sha` (newest first, at most 1000) and the latest status of each context. */
    async commitChecks(sha) {
        const runs = [];
        for (let page = 1; page <= 10; page++) {
            const data = await this.call(() => this.gh.octokit.rest.checks.listForRef({ ...this.base, ref: sha, per_page: 100, page }));
            for (const run of data.check_runs)
                runs.push({
                    id: run.id,
                    name: run.name,
                    status: run.status,
                    conclusion: run.conclusion ?? null,
                    detailsUrl: run.details_url ?? null,
                    title: run.output?.title ?? null,
                    summary: run.output?.summary ?? null,
                });
            if (data.check_runs.length < 100 || runs.length >= data.total_count)
                break;
        }
        const combined = await this.call(() => this.gh.octokit.rest.repos.getCombinedStatusForRef({ ...this.base, ref: sha, per_page: 100 }));
        const statuses = combined.statuses.map((s) => ({
            context: s.context,
            state: s.state,
            description: s.description ?? null,
        }));
        return { runs, statuses };
    }
    /** The first `max` annotations of a check run; none when they cannot be read. */
    async annotations(checkRunId, max) {
        const data = await this.call(() => this.gh.octokit.rest.checks.listAnnotations({ ...this.base, check_run_id: checkRunId, per_page: max })).catch(() => []);
        return data.slice(0, max).map((a) => ({
            path: a.path,
            line: a.start_line,
            level: a.annotation_level ?? null,
            title: a.title ?? null,
            message: a.message ?? '',
        }));
    }
    /**
     * An Actions job's log (plain text; `actions: read`), or why it cannot be had. The job is named by the
     * check run's details URL (`…/actions/runs/<run>/job/<job>`): a check run of another app has none (null).
     */
    async jobLog(detailsUrl) {
        const job = /\/actions\/runs\/\d+\/job\/(\d+)/.exec(detailsUrl ?? '')?.[1];
        if (!job)
            return null;
        try {
            // Streamed, keeping only the end: a job's log can be any size (a test run printing gigabytes).
            const response = await this.gh.octokit.rest.actions.downloadJobLogsForWorkflowRun({
                ...this.base,
                job_id: Number(job),
                request: { ...(this.signal ? { signal: this.signal } : {}), parseSuccessResponseBody: false },
            });
            this.note(response.headers);
            const body = response.data;
            if (!body)
                return { text: '' };
            return { text: await streamTail(body, LOG_TAIL_BYTES) };
        }
        catch (error) {
            const { status } = describeError(error);
            return {
                unavailable: status === 403 || status === 404
                    ? 'log not readable (the workflow needs `permissions: actions: read`)'
                    : `log not readable (${status ?? 'network error'})`,
            };
        }
    }
    /** One request: its data, with the rate-limit headers noted (on errors too). */
    async call(request) {
        try {
            const response = await request();
            this.note(response.headers);
            return response.data;
        }
        catch (error) {
            const headers = error.response?.headers;
            if (headers)
                this.note(headers);
            throw error;
        }
    }
    note(headers) {
        const remaining = Number(headers['x-ratelimit-remaining']);
        const reset = Number(headers['x-ratelimit-reset']);
        if (Number.isFinite(remaining) && Number.isFinite(reset))
            this.rate = { remaining, resetAt: reset * 1000 };
    }
}
/** How much of the end of a job's log is kept: far more than a reason quotes, bounded whatever the log. */
const LOG_TAIL_BYTES = 64 * 1024;
/** The last `bytes` bytes of a stream, read to its end with no more than twice that held at once. */
async function streamTail(stream, bytes) {
    let kept = Buffer.alloc(0);
    for await (const chunk of stream) {
        kept = Buffer.concat([kept, chunk]);
        if (kept.length > 2 * bytes)
            kept = kept.subarray(kept.length - bytes);
    }
    const tail = kept.length > bytes ? kept.subarray(kept.length - bytes) : kept;
    // A cut through a multi-byte character leaves replacement characters at the start: drop them.
    return tail.toString('utf8').replace(/^\uFFFD+/, '');
}
/** Not readable with this token (403) or not there (404): null; anything else is tried again later. */
function unreadable(error) {
    const { status } = describeError(error);
    if (status === 403 || status === 404) {
        if (classifyTrouble(error).kind === 'rate-limit')
            throw error;
        return null;
    }
    throw error;
}
/** proctor's own check runs (`proctor / tests`): decided by the session itself, never CI it waits for. */
function isProctorCheck(name) {
    return /^proctor \/ /.test(name);
}
/**
 * A failed request, classified: a rate limit that outlasted the client's own waits (the poller sleeps
 * until the window resets), a passing trouble (5xx, network, a commit GitHub does not know yet), or one
 * no amount of waiting fixes (no permission, no such repository).
 */
function classifyTrouble(error, now = Date.now()) {
    const { status, message } = describeError(error);
    const headers = error.response?.headers ?? {};
    if (status === 403 || status === 429) {
        const retryAfter = Number(headers['retry-after']);
        if (Number.isFinite(retryAfter) && retryAfter > 0)
            return { kind: 'rate-limit', waitMs: retryAfter * 1000, message };
        if (String(headers['x-ratelimit-remaining']) === '0') {
            const reset = Number(headers['x-ratelimit-reset']) * 1000;
            return {
                kind: 'rate-limit',
                waitMs: Number.isFinite(reset) ? Math.max(0, reset - now) : 60_000,
                message,
            };
        }
        if (/rate limit/i.test(message))
            return { kind: 'rate-limit', waitMs: 60_000, message };
    }
    if (status === 401 || status === 403 || status === 404)
        return { kind: 'permanent', status, message };
    return { kind: 'transient', message: `${status ?? 'network error'}: ${message}` };
}

export { CiReader as C, baseBranchOf as b, classifyTrouble as c, isProctorCheck as i };
