/** A summary naming more models than this is not one a CLI printed: the rest are not counted. */
const MAX_MODELS = 50;
/** The usage samples the output's last usage summary gives, or none. */
function usageFromCliOutput(output, context) {
    return claudeResult(output, context) ?? geminiStats(output, context) ?? codexUsage(output, context) ?? [];
}
function sample(api, model, context, figures) {
    // The name is the agent's output: kept short and printable in report.json.
    const name = model.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 200) || 'unknown';
    return { api, model: name, round: context.round, source: 'cli', status: 200, at: context.at, ...figures };
}
function claudeResult(output, context) {
    const models = objectAfter(output, '"modelUsage":');
    if (!models)
        return null;
    const turns = numberAfter(output, '"num_turns":', output.lastIndexOf('"modelUsage":'));
    const samples = [];
    for (const [model, value] of Object.entries(models).slice(0, MAX_MODELS)) {
        if (!isObject(value))
            continue;
        const read = count(value.cacheReadInputTokens);
        const written = count(value.cacheCreationInputTokens);
        const cost = value.costUSD;
        samples.push(sample('anthropic', model, context, {
            input_tokens: count(value.inputTokens) + read + written,
            cached_input_tokens: read,
            cache_write_input_tokens: written,
            output_tokens: count(value.outputTokens),
            requests: 0,
            ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0
                ? { reported_cost_usd: cost }
                : {}),
        }));
    }
    // Claude counts turns, not requests per model: they are the main model's (the one that wrote the most).
    const main = samples.reduce((best, s) => (!best || s.output_tokens > best.output_tokens ? s : best), null);
    if (main)
        main.requests = turns ?? 1;
    return samples.length ? samples : null;
}
function geminiStats(output, context) {
    const stats = objectAfter(output, '"stats":');
    if (!stats || !isObject(stats.models))
        return null;
    const samples = [];
    for (const [model, value] of Object.entries(stats.models).slice(0, MAX_MODELS)) {
        if (!isObject(value) || !isObject(value.tokens))
            continue;
        const tokens = value.tokens;
        samples.push(sample('gemini', model, context, {
            input_tokens: count(tokens.prompt) + count(tokens.tool),
            cached_input_tokens: count(tokens.cached),
            // Thinking is billed as output.
            output_tokens: count(tokens.candidates) + count(tokens.thoughts),
            requests: isObject(value.api) ? count(value.api.totalRequests) : 1,
        }));
    }
    return samples.length ? samples : null;
}
function codexUsage(output, context) {
    const model = lastMatch(output, /^model: (\S+)\s*$/gm)?.[1] ?? modelFromArgv(context.argv) ?? 'codex';
    const turns = [...output.matchAll(/\{"type":"turn\.completed","usage":(\{[^{}]*\})\}/g)];
    if (turns.length) {
        const samples = turns.flatMap((match) => {
            const usage = parse(match[1]);
            if (!usage)
                return [];
            return [
                sample('openai', model, context, {
                    input_tokens: count(usage.input_tokens),
                    cached_input_tokens: count(usage.cached_input_tokens),
                    cache_write_input_tokens: count(usage.cache_write_input_tokens),
                    output_tokens: count(usage.output_tokens),
                    requests: 0,
                }),
            ];
        });
        return samples.length ? samples : null;
    }
    const exit = lastMatch(output, /Token usage: total=[\d,]+ input=(\d[\d,]*)(?: \(\+ (\d[\d,]*) cached\))? output=(\d[\d,]*)/g);
    if (exit) {
        const cached = exit[2] ? number(exit[2]) : 0;
        return [
            sample('openai', model, context, {
                input_tokens: number(exit[1]) + cached,
                cached_input_tokens: cached,
                output_tokens: number(exit[3]),
                requests: 0,
            }),
        ];
    }
    const used = lastMatch(output, /^tokens used:?[ \t]*\r?\n?[ \t]*(\d[\d,]*)[ \t]*\r?$/gm);
    if (!used)
        return null;
    return [
        sample('openai', model, context, {
            input_tokens: 0,
            cached_input_tokens: 0,
            output_tokens: 0,
            unsplit_tokens: number(used[1]),
            requests: 0,
        }),
    ];
}
/** The JSON object that follows the last occurrence of `key` (a pretty-printed or a one-line object). */
function objectAfter(text, key) {
    const at = text.lastIndexOf(key);
    if (at === -1)
        return null;
    const start = text.indexOf('{', at + key.length);
    if (start === -1 || text.slice(at + key.length, start).trim() !== '')
        return null;
    const end = closingBrace(text, start);
    return end === -1 ? null : parse(text.slice(start, end + 1));
}
/** Where the object opened at `start` closes, strings and their escapes skipped; -1 if it never does. */
function closingBrace(text, start) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            if (c === '\\')
                i++;
            else if (c === '"')
                inString = false;
        }
        else if (c === '"')
            inString = true;
        else if (c === '{')
            depth++;
        else if (c === '}' && --depth === 0)
            return i;
    }
    return -1;
}
function numberAfter(text, key, near) {
    const at = text.indexOf(key, Math.max(0, near));
    if (at === -1)
        return null;
    const match = /^\s*(\d+)/.exec(text.slice(at + key.length, at + key.length + 24));
    return match ? Number(match[1]) : null;
}
function parse(text) {
    try {
        const value = JSON.parse(text);
        return isObject(value) ? value : null;
    }
    catch {
        return null;
    }
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** A token count as printed: a non-negative safe integer, anything else 0. */
function count(value) {
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
/** "1,220" → 1220. */
function number(digits) {
    return Number(digits.replace(/,/g, ''));
}
function lastMatch(text, pattern) {
    let last = null;
    for (const match of text.matchAll(pattern))
        last = match;
    return last;
}
function modelFromArgv(argv) {
    if (!argv)
        return null;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if ((arg === '-m' || arg === '--model') && argv[i + 1])
            return argv[i + 1];
        if (arg.startsWith('--model='))
            return arg.slice('--model='.length);
    }
    return null;
}

export { usageFromCliOutput };
