// The one report model. Every rendering (terminal, report.json, job summary, PR comment, check runs)
// is a view of these types; renderers never compute, sinks never format.
const REPORT_SCHEMA_VERSION = 1;
/** At most this many pre-existing paths are listed in report.json (BaselineRecord.pre_existing). */
const MAX_PRE_EXISTING_LISTED = 1000;

class UsageMeter {
    #samples = [];
    #inFlight = 0;
    /**
     * Model calls forwarded and not yet added: a budget on requests counts them, so calls sent at once cannot
     * all pass a check made before any of them ended.
     */
    get inFlight() {
        return this.#inFlight;
    }
    /** One more call is in flight; the returned function (idempotent) ends that. */
    begin() {
        this.#inFlight++;
        let open = true;
        return () => {
            if (open)
                this.#inFlight--;
            open = false;
        };
    }
    add(sample) {
        this.#samples.push(sample);
    }
    samples() {
        return this.#samples;
    }
    totals(pricer, filter = () => true) {
        return totalsOf(this.#samples.filter(filter), pricer);
    }
}
function totalsOf(samples, pricer) {
    let cost = 0;
    const totals = { requests: 0, input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, tokens: 0 };
    for (const sample of samples) {
        totals.requests += sample.requests ?? 1;
        totals.input_tokens += sample.input_tokens;
        totals.output_tokens += sample.output_tokens;
        totals.cached_input_tokens += sample.cached_input_tokens;
        totals.tokens += sample.input_tokens + sample.output_tokens + (sample.unsplit_tokens ?? 0);
        const price = pricer ? pricer(sample) : null;
        cost = cost === null || price === null ? null : cost + price;
    }
    return { ...totals, cost_usd: samples.length === 0 ? 0 : cost };
}

/** The usage section, or undefined when no sample was recorded. */
function usageReport(all, pricer) {
    // The proxy saw every request on the wire: what the CLI printed about the same requests would count them twice.
    const proxy = all.some((s) => s.source === 'proxy');
    const samples = proxy ? all.filter((s) => s.source === 'proxy') : all;
    if (samples.length === 0)
        return undefined;
    const byModel = groupBy(samples, (s) => `${s.api}\u0000${s.model}`);
    const byRound = groupBy(samples, (s) => s.round);
    return {
        ...figures(samples, pricer),
        estimated: true,
        source: proxy ? 'proxy' : 'cli',
        by_model: [...byModel.values()].map((group) => ({
            api: group[0].api,
            model: group[0].model,
            ...figures(group, pricer),
        })),
        by_round: [...byRound.entries()]
            .sort(([a], [b]) => a - b)
            .map(([round, group]) => ({ round, ...figures(group, pricer) })),
    };
}
/** Figures summed over several (a batch's sessions); cost null when any is unknown. */
function sumFigures(parts) {
    const sum = {
        requests: 0,
        tokens: 0,
        input_tokens: 0,
        output_tokens: 0,
        cached_input_tokens: 0,
        cost_usd: 0,
    };
    for (const part of parts) {
        sum.requests += part.requests;
        sum.tokens += part.tokens;
        sum.input_tokens += part.input_tokens;
        sum.output_tokens += part.output_tokens;
        sum.cached_input_tokens += part.cached_input_tokens;
        sum.cost_usd = sum.cost_usd === null || part.cost_usd === null ? null : sum.cost_usd + part.cost_usd;
    }
    return { ...sum, cost_usd: sum.cost_usd === null ? null : roundUsd(sum.cost_usd) };
}
function figures(samples, pricer) {
    const t = totalsOf(samples, pricer);
    return {
        requests: t.requests,
        tokens: t.tokens,
        input_tokens: t.input_tokens,
        output_tokens: t.output_tokens,
        cached_input_tokens: t.cached_input_tokens,
        cost_usd: t.cost_usd === null ? null : roundUsd(t.cost_usd),
    };
}
/** To a millionth of a dollar: float sums of many small prices leave noise in the last digits. */
function roundUsd(usd) {
    return Math.round(usd * 1e6) / 1e6;
}
function groupBy(samples, key) {
    const groups = new Map();
    for (const s of samples) {
        const k = key(s);
        const group = groups.get(k);
        if (group)
            group.push(s);
        else
            groups.set(k, [s]);
    }
    return groups;
}
/**
 * The action's `tokens` and `cost-usd` step outputs: every token counted, and the estimated USD; each empty
 * when not known (no usage, or a model without a price).
 */
function usageOutputs(usage) {
    return {
        tokens: usage ? String(usage.tokens) : '',
        'cost-usd': usage && usage.cost_usd !== null ? String(usage.cost_usd) : '',
    };
}

/** How a stop hook ended, in one word. */
function hookWord(result) {
    if (result.timed_out)
        return 'timed out';
    return HOOK_WORDS[result.verdict];
}
const HOOK_WORDS = {
    allow: 'passed',
    block: 'blocked',
    error: 'hook error',
};
/** The icon beside a hook word where markdown renders it (comment, job summary). */
const HOOK_ICON = {
    passed: '✅',
    blocked: '❌',
    'hook error': '⚠️',
    'timed out': '⏱️',
};
/**
 * The icon of a violation's severity wherever markdown shows one (a table row, a checkpoint's count): the
 * same as a blocked hook's for an error, since an error-level violation blocks like one.
 */
const SEVERITY_ICON = {
    info: 'ℹ️',
    warning: '⚠️',
    error: '❌',
    critical: '🛑',
};
const SEVERITY_RANK = ['info', 'warning', 'error', 'critical'];
/** The worst of some severities (a checkpoint's violations), or undefined for none. */
function worstSeverity(severities) {
    let worst;
    for (const s of severities)
        if (worst === undefined || SEVERITY_RANK.indexOf(s) > SEVERITY_RANK.indexOf(worst))
            worst = s;
    return worst;
}
/**
 * The part of a failed hook's reason that says what failed: its lines up to the first blank line (the
 * failure lines src/hooks/verdict.ts puts first), without the "End of its output" tail the check run keeps.
 */
function reasonHead(text) {
    return text.split(/\n[ \t]*\n/, 1)[0].trim();
}
/** The first line of a reason that says something, trimmed; undefined when there is none. */
function firstLine(text) {
    return text
        ?.split('\n')
        .find((line) => line.trim())
        ?.trim();
}
/**
 * What the worktree already held when the session started, never the agent's (report.baseline): "3 files
 * were already changed before the session; not judged".
 */
function describePreExisting(count) {
    return `${count} file${count === 1 ? ' was' : 's were'} already changed before the session; not judged`;
}
/**
 * A session's or batch's model usage in one line, the same in every rendering: "12.3k tokens in (8.0k
 * cached) · 1.1k out · ≈ $0.04 (estimate)"; "cost unknown" when a model has no price; undefined when no usage
 * is known.
 */
function describeUsage(usage) {
    if (!usage || usage.tokens === 0)
        return undefined;
    const split = usage.input_tokens + usage.output_tokens;
    const unsplit = usage.tokens - split;
    const parts = [];
    if (split > 0) {
        const cached = usage.cached_input_tokens ? ` (${formatTokens(usage.cached_input_tokens)} cached)` : '';
        parts.push(`${formatTokens(usage.input_tokens)} tokens in${cached}`, `${formatTokens(usage.output_tokens)} out`);
    }
    // Codex's "tokens used N" does not say which were input and which output.
    if (unsplit > 0)
        parts.push(`${formatTokens(unsplit)} ${split > 0 ? 'more ' : ''}tokens (in and out not told apart)`);
    parts.push(usage.cost_usd === null ? 'cost unknown' : `≈ ${formatUsd(usage.cost_usd)} (estimate)`);
    return parts.join(' · ');
}
/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.50M". */
function formatTokens(n) {
    if (n < 1000)
        return String(n);
    if (n < 1_000_000)
        return `${(n / 1000).toFixed(1)}k`;
    return `${(n / 1_000_000).toFixed(2)}M`;
}
/** $12.34, $0.04; below a cent two significant digits ($0.0014), below a hundredth of a cent "< $0.0001". */
function formatUsd(usd) {
    if (usd === 0)
        return '$0.00';
    if (usd >= 0.01)
        return `$${usd.toFixed(2)}`;
    if (usd < 0.0001)
        return '< $0.0001';
    return `$${Number(usd.toPrecision(2))}`;
}
/** Why a file was left out of a checkpoint, in the words every rendering uses (CheckpointRecord.skipped_reasons). */
function skipReasonWord(reason) {
    switch (reason) {
        case 'size':
            return 'over max_file_size';
        case 'lfs':
            return 'LFS-tracked';
        case 'forbidden':
            return 'forbidden area';
        case 'secret':
            return 'holds a secret';
        case 'unrecordable':
            return 'git could not record it';
        default:
            return reason;
    }
}

export { HOOK_ICON as H, MAX_PRE_EXISTING_LISTED as M, REPORT_SCHEMA_VERSION as R, SEVERITY_ICON as S, UsageMeter as U, describePreExisting as a, formatUsd as b, sumFigures as c, describeUsage as d, firstLine as e, formatTokens as f, usageOutputs as g, hookWord as h, reasonHead as r, skipReasonWord as s, usageReport as u, worstSeverity as w };
