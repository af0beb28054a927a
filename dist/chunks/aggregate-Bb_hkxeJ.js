import { R as REPORT_SCHEMA_VERSION, s as sumFigures } from './summary-BBJud0Oe.js';

// Builds one BatchReport out of session reports: from a local batch, from matrix jobs' artifacts, or from
// files given to `proctor report`. The five counters always partition the children exactly.
const STATUSES = ['completed', 'failed', 'errored', 'interrupted', 'timeout', 'budget'];
function aggregateReports(batchId, inputs, timing = {}) {
    const problems = [];
    const children = inputs.map((input, index) => {
        const report = input.report;
        if (!report) {
            if (input.problem)
                problems.push({ source: input.source, message: input.problem });
            return {
                task_index: index,
                name: input.name ?? input.source,
                role: input.role ?? null,
                status: input.status ?? 'errored',
                duration_ms: input.duration_ms ?? 0,
                summary: input.problem ?? 'no report',
                checkpoint_ref: null,
                violation_count: 0,
                report_path: null,
            };
        }
        const last = report.checkpoints[report.checkpoints.length - 1];
        return {
            task_index: index,
            name: input.name ?? report.session_id,
            role: input.role ?? null,
            status: STATUSES.includes(report.status) ? report.status : 'errored',
            duration_ms: report.duration_ms,
            summary: summarize(report),
            checkpoint_ref: last?.ref ?? null,
            violation_count: report.violations.length,
            report_path: input.source,
            ...(report.usage ? { usage: usageFigures(report.usage) } : {}),
        };
    });
    const count = (status) => children.filter((c) => c.status === status).length;
    const used = children.flatMap((c) => (c.usage ? [c.usage] : []));
    const starts = inputs.flatMap((i) => (i.report ? [Date.parse(i.report.started_at)] : []));
    const ends = inputs.flatMap((i) => (i.report ? [Date.parse(i.report.ended_at)] : []));
    const started = timing.started_at ??
        (starts.length ? new Date(Math.min(...starts)).toISOString() : new Date().toISOString());
    const ended = timing.ended_at ?? (ends.length ? new Date(Math.max(...ends)).toISOString() : started);
    const allowed = children.every((c) => c.status === 'completed') &&
        inputs.every((i) => !i.report || i.report.verdict === 'allow');
    return {
        schema: REPORT_SCHEMA_VERSION,
        batch_id: batchId,
        started_at: started,
        ended_at: ended,
        total_duration_ms: Math.max(0, Date.parse(ended) - Date.parse(started)),
        child_count: children.length,
        completed_count: count('completed'),
        failed_count: count('failed'),
        errored_count: count('errored'),
        interrupted_count: count('interrupted'),
        timeout_count: count('timeout'),
        verdict: allowed && children.length > 0 ? 'allow' : 'block',
        children,
        problems,
        ...(used.length ? { usage: { ...sumFigures(used), estimated: true, sessions: used.length } } : {}),
    };
}
/** A report's usage totals, read defensively: a report from another proctor may lack or mistype a field. */
function usageFigures(usage) {
    const n = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
    return {
        requests: n(usage.requests),
        tokens: n(usage.tokens),
        input_tokens: n(usage.input_tokens),
        output_tokens: n(usage.output_tokens),
        cached_input_tokens: n(usage.cached_input_tokens),
        cost_usd: typeof usage.cost_usd === 'number' && Number.isFinite(usage.cost_usd) ? usage.cost_usd : null,
    };
}
function summarize(report) {
    const parts = [`${report.status}, verdict ${report.verdict}`];
    if (report.checkpoints.length)
        parts.push(`${report.checkpoints.length} checkpoint(s)`);
    if (report.violations.length)
        parts.push(`${report.violations.length} violation(s)`);
    // Hooks that gated the last round: blocked, failed or could not run (advisory ones never gate).
    const blocked = report.stop_hooks.filter((h) => h.verdict !== 'allow' && !h.advisory && h.round === report.rounds);
    if (blocked.length)
        parts.push(`blocked by ${blocked.map((h) => h.name).join(', ')}`);
    if (report.reason && report.status !== 'completed')
        parts.push(report.reason);
    return parts.join('; ');
}
/** Reads a report.json text defensively: anything that isn't a schema-1 SessionReport is a problem, not a crash. */
function parseSessionReport(text) {
    let data;
    try {
        data = JSON.parse(text);
    }
    catch (error) {
        return `not JSON: ${error.message}`;
    }
    if (typeof data !== 'object' || data === null)
        return 'not a report object';
    const r = data;
    if (r.schema !== REPORT_SCHEMA_VERSION)
        return `unsupported report schema ${String(r.schema)} (expected ${REPORT_SCHEMA_VERSION})`;
    for (const key of ['session_id', 'status', 'verdict', 'started_at', 'ended_at']) {
        if (typeof r[key] !== 'string')
            return `field ${key} is missing or not a string`;
    }
    for (const key of ['events', 'checkpoints', 'violations', 'stop_hooks']) {
        if (!Array.isArray(r[key]))
            return `field ${key} is missing or not a list`;
    }
    if (typeof r.duration_ms !== 'number')
        return 'field duration_ms is missing or not a number';
    return r;
}

export { aggregateReports as a, parseSessionReport as p };
