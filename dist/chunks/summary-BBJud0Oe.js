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

export { MAX_PRE_EXISTING_LISTED as M, REPORT_SCHEMA_VERSION as R, UsageMeter as U, usageReport as a, sumFigures as s, usageOutputs as u };
