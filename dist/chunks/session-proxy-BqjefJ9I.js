import { e as withholdVariables } from './git-blockers-Dy_7XOmu.js';
import { J as randomHex } from './checkpoints-create-CJcO-Brq.js';
import { r as registerKnownSecrets } from './known-CWjnSJ5I.js';
import { h as hasBudget, B as Budget, l as limitsOf } from './session-BRW2EmEt.js';
const { readFileSync } = process.getBuiltinModule("node:fs");
const { "Agent": Agent$1, createServer, "request": request$1 } = process.getBuiltinModule("node:http");
const { Agent, request } = process.getBuiltinModule("node:https");
const { StringDecoder } = process.getBuiltinModule("node:string_decoder");
import './summary-BBJud0Oe.js';

import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';
import './secret-forms-Ct3YzP3D.js';
import './registry-DMAlOnZf.js';
import './payloads-CTBGsIwZ.js';
import './events-C_YfI5y8.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';



import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';
import './commonjs-helpers-Bgu_3bK-.js';

import './sanitize-C-XaPVOa.js';

import './feedback-CO8PHFfu.js';

const anthropic = {
    defaultUpstream: 'https://api.anthropic.com',
    keyEnv: ['ANTHROPIC_API_KEY'],
    baseUrlEnv: ['ANTHROPIC_BASE_URL'],
    keyHeaders: ['x-api-key', 'authorization'],
    keyQuery: false,
    metered: (method, path) => method === 'POST' && /\/v1\/messages$/.test(path),
    free: (method, path) => method === 'POST' && /\/v1\/messages\/count_tokens$/.test(path),
    errorBody: (status, message) => JSON.stringify({
        type: 'error',
        error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message },
    }),
};
const openai = {
    defaultUpstream: 'https://api.openai.com/v1',
    // Codex reads CODEX_API_KEY in exec mode and OPENAI_API_KEY otherwise.
    keyEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
    baseUrlEnv: ['OPENAI_BASE_URL'],
    keyHeaders: ['authorization'],
    keyQuery: false,
    // Codex compacts a long conversation remotely (/responses/compact): a model call too.
    metered: (method, path) => method === 'POST' && /\/(responses|responses\/compact|chat\/completions)$/.test(path),
    free: () => false,
    errorBody: (status, message) => JSON.stringify({
        error: { message, type: status === 401 ? 'invalid_api_key' : 'invalid_request_error', code: null },
    }),
    // Codex 0.169 ignores OPENAI_BASE_URL, and its built-in provider tries a WebSocket first (the proxy speaks
    // HTTP): a provider of proctor's own, chosen with -c, sends Responses requests over HTTP to the proxy.
    agentArgs: (executable, proxyUrl) => /(^|\/)codex$/.test(executable)
        ? [
            ['model_provider', 'proctor'],
            ['model_providers.proctor.name', 'proctor'],
            ['model_providers.proctor.base_url', proxyUrl],
            ['model_providers.proctor.wire_api', 'responses'],
            ['model_providers.proctor.env_key', 'OPENAI_API_KEY'],
        ].flatMap(([key, value]) => ['-c', `${key}=${JSON.stringify(value)}`])
        : [],
};
const gemini = {
    defaultUpstream: 'https://generativelanguage.googleapis.com',
    // Not GOOGLE_API_KEY: Vertex AI reads it, and Vertex ignores GOOGLE_GEMINI_BASE_URL.
    keyEnv: ['GEMINI_API_KEY'],
    baseUrlEnv: ['GOOGLE_GEMINI_BASE_URL'],
    keyHeaders: ['x-goog-api-key'],
    keyQuery: true,
    metered: (method, path) => method === 'POST' && /:(generateContent|streamGenerateContent)$/.test(path),
    free: (method, path) => method === 'POST' && /:countTokens$/.test(path),
    elsewhere: (env) => /^(true|1)$/i.test(env.GOOGLE_GENAI_USE_VERTEXAI ?? '')
        ? 'Vertex AI (GOOGLE_GENAI_USE_VERTEXAI) is not reached through GOOGLE_GEMINI_BASE_URL'
        : null,
    errorBody: (status, message) => JSON.stringify({
        error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT' },
    }),
};
const API_SPECS = { anthropic, openai, gemini };

// Where the real model key stays readable by the agent whatever proctor does: in the environment of a
// process that started proctor and keeps running (`npx proctor run`, an npm script, a shell script that does
// more after it). proctor can scrub only its own /proc/<pid>/environ, but it can find these and say so
// before the agent starts (docs/agents.md#the-model-api-proxy).
/** How far up the process tree to look: a CI job is a handful of processes deep. */
const MAX_DEPTH = 32;
/**
 * proctor's ancestors (from `start`, its parent, up to init) whose environment, as the agent can read it in
 * /proc/<pid>/environ, holds one of `secrets` as a variable's value. Empty off Linux.
 */
function ancestorsHolding(secrets, start = process.ppid, proc = '/proc') {
    if (process.platform !== 'linux' || secrets.length === 0)
        return [];
    // Each entry is NAME=value NUL-terminated: the whole value, not a part of a longer one.
    const needles = secrets.filter((s) => s.length > 0).map((s) => Buffer.from(`=${s}\0`));
    const holders = [];
    let pid = start;
    for (let depth = 0; pid > 1 && depth < MAX_DEPTH; depth++) {
        const environ = read(`${proc}/${pid}/environ`);
        if (environ && needles.some((needle) => environ.includes(needle)))
            holders.push({ pid, name: read(`${proc}/${pid}/comm`)?.toString('utf8').trim() ?? '?' });
        const stat = read(`${proc}/${pid}/stat`)?.toString('utf8');
        // "pid (comm) state ppid …": the name may hold spaces and parentheses, so read after the last ')'.
        const parent = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
        if (!Number.isInteger(parent) || parent === pid)
            break;
        pid = parent;
    }
    return holders;
}
/** The warning for the report: which process, and what the user can do. */
function holderWarning(holder) {
    return (`model_api.proxy: the real model key is also in the environment of process ${holder.pid} (${holder.name}), ` +
        `which started proctor and is still running: the agent, as the same user, can read it in ` +
        `/proc/${holder.pid}/environ. Run proctor directly (exec it, or use the action), not under a wrapper that ` +
        `keeps the key (npx, an npm script, a shell that runs more after it)`);
}
function read(file) {
    try {
        return readFileSync(file);
    }
    catch {
        return null;
    }
}

// Reads a model call's usage from the API's own fields in the response the proxy is passing on, without
// holding the answer back: a server-sent-event stream is read event by event as its chunks go by; a JSON
// body (or Gemini's JSON-array stream) is copied aside, bounded, and parsed at its end.
//
// An answer cut off before its final usage (the agent hung up and the reading on reached its bounds) is
// charged what its usage said so far, raised to an estimate from what streamed: the generated text's bytes
// / 4 as output (and the request's bytes / 4 as the prompt when no usage was read at all), marked estimated.
//
// Tokens are counted one way for every API: `input_tokens` is the whole prompt, cached part included (the
// Anthropic API reports cache reads and cache writes beside its `input_tokens`, so they are added; OpenAI and
// Gemini already include them), `cached_input_tokens` the part read from the prompt cache, `output_tokens`
// everything generated (reasoning and thinking included).
/** Bytes per token of an estimate: a common rule of thumb for English text and code. */
const BYTES_PER_TOKEN = 4;
/**
 * The generated text in one streamed event or body: the string values of the fields the APIs stream text,
 * thinking and tool input in (Anthropic text/thinking/partial_json, OpenAI delta/content/arguments/refusal,
 * Gemini text), counted as written (JSON escapes included: close enough for an estimate).
 */
const TEXT_FIELDS = /"(?:text|thinking|partial_json|delta|content|arguments|refusal)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
/** A JSON body beyond this is passed on but not parsed for usage (model answers are far smaller). */
const JSON_COPY_MAX = 16 * 1024 ** 2;
const num = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
const obj = (value) => typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
function anthropicUsage(o) {
    // message_start carries the message with its usage; message_delta the running output count (and, in newer
    // API versions, the input counts again); a non-streamed answer is the message itself.
    const message = o.type === 'message_start' ? obj(o.message) : o.type === 'message' ? o : undefined;
    const usage = obj(message?.usage) ?? (o.type === 'message_delta' ? obj(o.usage) : undefined);
    const out = {};
    if (typeof message?.model === 'string')
        out.model = message.model;
    if (!usage)
        return out;
    if (o.type === 'message_delta' || o.type === 'message')
        out.final = true;
    const input = num(usage.input_tokens);
    const read = num(usage.cache_read_input_tokens);
    const written = num(usage.cache_creation_input_tokens);
    if (input !== undefined || read !== undefined || written !== undefined)
        out.input = (input ?? 0) + (read ?? 0) + (written ?? 0);
    if (read !== undefined)
        out.cached = read;
    if (written !== undefined)
        out.written = written;
    const output = num(usage.output_tokens);
    if (output !== undefined)
        out.output = output;
    return out;
}
function openaiUsage(o) {
    // Responses: response.completed (or .incomplete/.failed) carries the response; a non-streamed answer is
    // the response. Chat Completions: the usage object of the last chunk (stream_options.include_usage) or body.
    const response = typeof o.type === 'string' && o.type.startsWith('response.') ? obj(o.response) : o;
    const out = {};
    if (typeof response?.model === 'string')
        out.model = response.model;
    const usage = obj(response?.usage);
    if (!usage)
        return out;
    // Only the last event (or a whole body) carries usage: response.completed, the Chat Completions chunk.
    out.final = true;
    const input = num(usage.input_tokens) ?? num(usage.prompt_tokens);
    const output = num(usage.output_tokens) ?? num(usage.completion_tokens);
    const details = obj(usage.input_tokens_details) ?? obj(usage.prompt_tokens_details);
    if (input !== undefined)
        out.input = input;
    if (output !== undefined)
        out.output = output;
    const cached = num(details?.cached_tokens);
    if (cached !== undefined)
        out.cached = cached;
    return out;
}
function geminiUsage(o) {
    // Each streamed chunk carries the usage so far; the last one counts.
    const out = {};
    if (typeof o.modelVersion === 'string')
        out.model = o.modelVersion;
    const usage = obj(o.usageMetadata);
    if (!usage)
        return out;
    // Every chunk carries the usage so far; the one with a finishReason is the last.
    const candidates0 = Array.isArray(o.candidates) ? obj(o.candidates[0]) : undefined;
    if (typeof candidates0?.finishReason === 'string')
        out.final = true;
    const input = num(usage.promptTokenCount);
    const candidates = num(usage.candidatesTokenCount);
    const thoughts = num(usage.thoughtsTokenCount);
    if (input !== undefined)
        out.input = input;
    if (candidates !== undefined || thoughts !== undefined)
        out.output = (candidates ?? 0) + (thoughts ?? 0);
    const cached = num(usage.cachedContentTokenCount);
    if (cached !== undefined)
        out.cached = cached;
    return out;
}
const READERS = {
    anthropic: anthropicUsage,
    openai: openaiUsage,
    gemini: geminiUsage,
};
class UsageReader {
    #read;
    #sse;
    #decoder = new StringDecoder('utf8');
    #pending = '';
    #copied = 0;
    #overflow = false;
    #seen = false;
    #final = false;
    /** Bytes of generated text seen in the SSE events so far (for finishCut). */
    #text = 0;
    #usage = {
        model: null,
        input_tokens: 0,
        output_tokens: 0,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
    };
    constructor(api, contentType) {
        this.#read = READERS[api];
        this.#sse = /text\/event-stream/i.test(contentType ?? '');
    }
    /** One chunk of the response body, as it goes by. */
    feed(chunk) {
        if (this.#overflow)
            return;
        const text = this.#decoder.write(chunk);
        if (!this.#sse) {
            this.#copied += chunk.length;
            if (this.#copied > JSON_COPY_MAX) {
                this.#overflow = true;
                this.#pending = '';
                return;
            }
            this.#pending += text;
            return;
        }
        // Lines are cut out by position and the rest kept once per chunk: slicing the remainder per line
        // copied a 64 KiB chunk once for each of its events.
        const pending = this.#pending + text;
        let start = 0;
        let newline;
        while ((newline = pending.indexOf('\n', start)) !== -1) {
            this.#line(pending.slice(start, pending[newline - 1] === '\r' ? newline - 1 : newline));
            start = newline + 1;
        }
        this.#pending = pending.slice(start);
        // An event line longer than the cap is not usage: drop it rather than grow without bound.
        if (this.#pending.length > JSON_COPY_MAX)
            this.#pending = '';
    }
    /** The usage once the body ended, or null when the response carried none. */
    finish() {
        this.#pending += this.#decoder.end();
        if (this.#sse)
            this.#line(this.#pending.replace(/\r$/, ''));
        else if (!this.#overflow)
            this.#json(this.#pending);
        this.#pending = '';
        return this.#seen ? this.#usage : null;
    }
    /**
     * The usage of an answer cut off before it ended: as read, unless the API's final usage was never seen;
     * then output is at least the streamed text's bytes / 4, and a prompt with no usage read at all is
     * `requestBytes` / 4 (the request the API got whole). Marked estimated when an estimate raised a count.
     */
    finishCut(requestBytes) {
        // A JSON body cut short does not parse: its text is counted from the copy instead.
        const cutJson = !this.#sse && !this.#overflow ? this.#pending : '';
        const read = this.finish();
        if (this.#final && read)
            return read;
        const text = this.#sse ? this.#text : this.#overflow ? this.#copied : textBytes(cutJson);
        const usage = { ...this.#usage };
        const output = Math.ceil(text / BYTES_PER_TOKEN);
        const input = Math.ceil(requestBytes / BYTES_PER_TOKEN);
        if (output > usage.output_tokens) {
            usage.output_tokens = output;
            usage.estimated = true;
        }
        if (!read && input > usage.input_tokens) {
            usage.input_tokens = input;
            usage.estimated = true;
        }
        return usage;
    }
    #line(line) {
        if (!line.startsWith('data:'))
            return;
        // OpenAI's *.done events repeat the whole text its deltas streamed.
        if (!line.includes('.done"'))
            this.#text += textBytes(line);
        // Usage, and the model beside it, come only in events that name a usage field (usage, usageMetadata):
        // the content deltas between them are not parsed.
        if (!line.includes('"usage'))
            return;
        this.#json(line.slice(5).trim());
    }
    #json(text) {
        if (!text || (text[0] !== '{' && text[0] !== '['))
            return;
        let value;
        try {
            value = JSON.parse(text);
        }
        catch {
            return;
        }
        for (const item of Array.isArray(value) ? value : [value]) {
            const o = obj(item);
            if (o)
                this.#merge(this.#read(o));
        }
    }
    /** Later messages win field by field: streamed counts are running totals. */
    #merge(p) {
        if (p.model !== undefined)
            this.#usage.model = p.model;
        if (p.input !== undefined)
            this.#usage.input_tokens = p.input;
        if (p.output !== undefined)
            this.#usage.output_tokens = p.output;
        if (p.cached !== undefined)
            this.#usage.cached_input_tokens = p.cached;
        if (p.written !== undefined)
            this.#usage.cache_write_input_tokens = p.written;
        if (p.input !== undefined || p.output !== undefined)
            this.#seen = true;
        if (p.final)
            this.#final = true;
    }
}
function textBytes(text) {
    let bytes = 0;
    for (const match of text.matchAll(TEXT_FIELDS))
        bytes += match[1].length;
    return bytes;
}

// The metering proxy: a loopback HTTP server between one session's agent and its model API. The agent holds
// a per-session placeholder key and this server's base URL; the proxy holds the real key and adds it to
// what it forwards, only to the configured upstream (an origin fixed at start: no open proxy). Answers are
// passed on chunk by chunk as they arrive (streams are never buffered), and each model call's usage is read
// from the API's own fields on the way (usage-reader.ts) into the session's one tally. Before and after each
// call the budget is checked; a refused key or failures in a row end the session through `onStop`. An agent
// that hangs up mid-answer does not stop the API generating (and billing) it: the proxy reads the rest of the
// answer for its usage, bounded, and charges an estimate when that cannot be read.
/**
 * An answer the agent hung up on is read on this long, and this far, for its final usage (Anthropic's
 * message_delta, OpenAI's response.completed, Gemini's last chunk): long enough for a model to finish a
 * long answer, short enough that a stalled upstream does not hold the session.
 */
const DRAIN = { ms: 30_000, bytes: 16 * 1024 ** 2 };
/** Hop-by-hop headers (RFC 9110 7.6.1) and those the proxy sets itself. */
const DROPPED = new Set([
    'connection',
    'keep-alive',
    'proxy-authorization',
    'proxy-connection',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
    'host',
    'accept-encoding',
]);
/** A request body the proxy must read whole (to ask Chat Completions for its usage) is bounded. */
const REQUEST_BODY_MAX = 64 * 1024 ** 2;
async function startModelProxy(opts) {
    const spec = API_SPECS[opts.api];
    const upstream = new URL(opts.upstream);
    const basePath = upstream.pathname.replace(/\/+$/, '');
    const secure = upstream.protocol === 'https:';
    if (!secure && upstream.protocol !== 'http:')
        throw new Error(`model_api.upstream must be an http(s) URL, not ${upstream.protocol}`);
    const agent = secure ? new Agent({ keepAlive: true }) : new Agent$1({ keepAlive: true });
    const send = secure ? request : request$1;
    const placeholder = Buffer.from(opts.placeholder);
    let failuresInRow = 0;
    let stopped = false;
    /**
     * Why no further model call may be forwarded (the budget is spent, or the API kept failing): the agent is
     * being stopped, and a CLI retrying through the grace period must not spend on. Not after a refused key:
     * the API refuses those calls itself, and the CLI's own words for it stay what the agent sees.
     */
    let closed = null;
    const stop = (s, close = true) => {
        if (close)
            closed ??= s.reason;
        if (stopped)
            return;
        stopped = true;
        opts.onStop(s);
    };
    /** The key the request carries, and where (so the real one goes the same way). */
    const presented = (req, url) => {
        for (const name of spec.keyHeaders) {
            const raw = req.headers[name];
            if (typeof raw !== 'string')
                continue;
            return { where: name, value: name === 'authorization' ? raw.replace(/^Bearer\s+/i, '') : raw };
        }
        const query = spec.keyQuery ? url.searchParams.get('key') : null;
        return query === null ? null : { where: '?key', value: query };
    };
    const refuse = (res, status, message) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(spec.errorBody(status, message));
    };
    const handle = async (req, res) => {
        // Only origin-form targets ("/v1/messages"): an absolute URL would ask the proxy to go elsewhere.
        const target = req.url ?? '';
        if (!target.startsWith('/') || target.startsWith('//')) {
            refuse(res, 400, 'proctor model proxy: only requests to the model API are forwarded');
            return;
        }
        const url = new URL(target, 'http://proxy.invalid');
        const key = presented(req, url);
        if (!key || !sameSecret(Buffer.from(key.value), placeholder)) {
            refuse(res, 401, "proctor model proxy: this request does not carry the session's key");
            return;
        }
        const method = req.method ?? 'GET';
        const metered = spec.metered(method, url.pathname);
        if (!metered && !modelListing(method, url.pathname, req) && !spec.free(method, url.pathname)) {
            refuse(res, 404, `proctor model proxy: ${method} ${url.pathname} is not forwarded (only model calls, which are metered)`);
            return;
        }
        if (metered && closed !== null) {
            refuse(res, 400, `proctor: ${closed}; no further model requests in this session`);
            return;
        }
        if (metered) {
            const state = opts.budgets.map((budget) => budget.check(true)).find((s) => s.kind === 'spent');
            if (state?.kind === 'spent') {
                // Not a 429: the CLIs retry those. A 400 they show and give up on.
                refuse(res, 400, `proctor: ${state.reason}; no further model requests in this session`);
                stop({ kind: 'budget', reason: state.reason });
                return;
            }
            // Reserved until its sample is added (record), or the request fails before it is sent.
            const ends = [opts.meter, ...(opts.alsoMeters ?? [])].map((meter) => meter.begin());
            inFlight.set(req, () => {
                for (const end of ends)
                    end();
            });
        }
        const headers = {};
        for (const [name, value] of Object.entries(req.headers)) {
            if (value === undefined || DROPPED.has(name) || spec.keyHeaders.includes(name))
                continue;
            headers[name] = value;
        }
        // Usage is read from the body on the way: ask for it uncompressed.
        headers['accept-encoding'] = 'identity';
        if (key.where === 'authorization')
            headers.authorization = `Bearer ${opts.key}`;
        else if (key.where !== '?key')
            headers[key.where] = opts.key;
        if (key.where === '?key')
            url.searchParams.set('key', opts.key);
        const path = `${url.pathname}${url.search}`;
        // Chat Completions reports a stream's usage only when asked (stream_options.include_usage).
        let body = null;
        if (metered && opts.api === 'openai' && url.pathname.endsWith('/chat/completions')) {
            body = withStreamUsage(await readBody(req));
            headers['content-length'] = String(body.length);
        }
        const upstreamReq = send({
            protocol: upstream.protocol,
            hostname: upstream.hostname,
            port: upstream.port || (secure ? 443 : 80),
            method: req.method,
            path,
            headers,
            agent,
        });
        upstreamReq.setNoDelay(true);
        // What the agent sent, for an estimate of the prompt when an answer is cut off before its usage.
        let requestBytes = body?.length ?? 0;
        /** The agent hung up before the answer ended. */
        let agentLeft = false;
        /** ...after sending its whole request: the answer is read on (DRAIN) for its usage. */
        let drainOn = false;
        let answered = false;
        let recorded = false;
        /** Ends the reading on (set while it runs): called once the answer's sample is added. */
        let drained = () => { };
        const endCall = metered ? calls.begin(() => upstreamReq.destroy()) : () => { };
        const charge = (status, usage) => {
            if (recorded)
                return;
            recorded = true;
            record(status, usage, req);
            drained();
            endCall();
        };
        res.on('close', () => {
            if (res.writableFinished)
                return;
            agentLeft = true;
            // The API goes on generating an answer whose request it got whole, and bills it: read on for the
            // usage, bounded. A request cut off on its way is never answered: drop it.
            if (!metered || !req.complete || recorded) {
                upstreamReq.destroy();
                return;
            }
            drainOn = true;
            const deadline = setTimeout(() => upstreamReq.destroy(), drainLimits.ms);
            deadline.unref();
            drained = () => clearTimeout(deadline);
        });
        // The agent left before any answer: no API failure (the agent ended it, or the bounds of the reading on
        // did). A request the API got whole is charged, its prompt estimated; one cut on its way, nothing.
        upstreamReq.on('close', () => {
            if (metered && (agentLeft || closing) && !answered)
                charge(0, drainOn ? new UsageReader(opts.api, undefined).finishCut(requestBytes) : null);
        });
        upstreamReq.on('error', (error) => {
            if (res.headersSent || agentLeft || closing) {
                res.destroy();
                return;
            }
            refuse(res, 502, `proctor model proxy: the model API did not answer (${error.code ?? error.message})`);
            if (metered) {
                charge(0, null);
                failed(`model API unreachable (${error.code ?? error.message})`);
            }
        });
        upstreamReq.on('response', (upstreamRes) => {
            answered = true;
            const status = upstreamRes.statusCode ?? 0;
            if (!agentLeft) {
                const out = {};
                for (const [name, value] of Object.entries(upstreamRes.headers))
                    if (value !== undefined && !DROPPED.has(name))
                        out[name] = value;
                res.writeHead(status, upstreamRes.statusMessage, out);
                // The headers go now, not with the first chunk: a client waits for them to start reading.
                res.flushHeaders();
            }
            if (!metered) {
                upstreamRes.pipe(res);
                return;
            }
            // The verdict on the key comes with the status, before the agent has read the answer.
            if (status === 401 || status === 403)
                stop({ kind: 'api_failure', reason: `model API refused the key (${status})` }, false);
            const reader = new UsageReader(opts.api, upstreamRes.headers['content-type']);
            let readOn = 0;
            upstreamRes.on('data', (chunk) => {
                reader.feed(chunk);
                if (drainOn && (readOn += chunk.length) > drainLimits.bytes)
                    upstreamReq.destroy();
            });
            // Once the answer ended, or was cut off (the stream broke, or the reading on after the agent hung up
            // reached its bounds): what was streamed until then was spent. An answer that did not end is charged
            // what its usage said so far, raised to an estimate from what streamed (UsageReader.finishCut).
            const ended = () => {
                if (recorded)
                    return;
                charge(status, upstreamRes.complete ? reader.finish() : reader.finishCut(requestBytes));
                if (status === 429 || status >= 500)
                    failed(`model API failed ${failuresInRow + 1} times in a row (last: ${status})`);
                else if (status < 400)
                    failuresInRow = 0;
                afterCall();
            };
            upstreamRes.on('end', ended);
            upstreamRes.on('close', ended);
            if (agentLeft)
                upstreamRes.resume();
            else {
                upstreamRes.pipe(res);
                // A pipe stops when its destination closes: once the agent hung up, the answer is read on without it.
                res.on('close', () => {
                    if (drainOn)
                        setImmediate(() => upstreamRes.resume());
                });
            }
        });
        if (body)
            upstreamReq.end(body);
        else {
            req.pipe(upstreamReq);
            req.on('data', (chunk) => (requestBytes += chunk.length));
        }
    };
    const failed = (reason) => {
        failuresInRow++;
        if (failuresInRow > opts.retries)
            stop({ kind: 'api_failure', reason });
    };
    /** The in-flight reservation of each metered request, ended when its sample is added. */
    const inFlight = new WeakMap();
    const record = (status, usage, req) => {
        inFlight.get(req)?.();
        const sample = {
            api: opts.api,
            model: usage?.model ?? modelOfPath(req.url ?? '') ?? 'unknown',
            round: opts.round(),
            input_tokens: usage?.input_tokens ?? 0,
            output_tokens: usage?.output_tokens ?? 0,
            cached_input_tokens: usage?.cached_input_tokens ?? 0,
            ...(usage?.cache_write_input_tokens
                ? { cache_write_input_tokens: usage.cache_write_input_tokens }
                : {}),
            source: 'proxy',
            status,
            at: Date.now() - opts.startedAt,
            ...(usage?.estimated ? { estimated: true } : {}),
        };
        opts.meter.add(sample);
        for (const meter of opts.alsoMeters ?? [])
            meter.add(sample);
    };
    const afterCall = () => {
        for (const budget of opts.budgets) {
            const state = budget.check();
            if (state.kind === 'warn')
                opts.onWarning(state.reason);
            if (state.kind === 'spent')
                stop({ kind: 'budget', reason: state.reason });
        }
    };
    const drainLimits = opts.drain ?? DRAIN;
    const calls = new OpenCalls();
    /** close() was called: what is cut now is no failure of the API. */
    let closing = false;
    const sockets = new Set();
    const server = createServer((req, res) => {
        void handle(req, res).catch((error) => {
            inFlight.get(req)?.();
            if (!res.headersSent)
                refuse(res, 500, `proctor model proxy: ${error.message}`);
            else
                res.destroy();
        });
    });
    server.on('connection', (socket) => {
        socket.setNoDelay(true);
        socket.on('error', () => undefined);
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address();
    return {
        url: `http://127.0.0.1:${port}${basePath}`,
        // A little past the drain's deadline: a hang-up noticed only now still gets its full read on.
        settled: (signal) => calls.settled(drainLimits.ms + 1_000, signal),
        close: async () => {
            // The calls still open (answers read on after the agent hung up, those the agent has not yet been
            // seen to leave) are cut now and charged, before the session's tally is final.
            closing = true;
            calls.cutAll();
            await calls.settled(2_000);
            await new Promise((resolve) => {
                for (const socket of sockets)
                    socket.destroy();
                agent.destroy();
                server.close(() => resolve());
            });
        },
    };
}
/** The model calls forwarded and not yet charged (added to the tally). */
class OpenCalls {
    #open = new Set();
    #waiters = [];
    /** One more, cut short by `cut`; the returned function (idempotent) ends it. */
    begin(cut) {
        // A fresh function per call: the same `cut` twice is still two calls.
        const entry = () => cut();
        this.#open.add(entry);
        return () => {
            if (!this.#open.delete(entry))
                return;
            if (this.#open.size === 0)
                for (const wake of this.#waiters.splice(0))
                    wake();
        };
    }
    /** Cuts every open call: each ends once it is charged. */
    cutAll() {
        for (const cut of [...this.#open])
            cut();
    }
    /**
     * Resolves once no call is open, or after `ms`: an answer the agent hung up on ends by the drain's own
     * deadline; one a process the agent left behind still reads is not waited for past it.
     */
    settled(ms, signal) {
        if (this.#open.size === 0 || signal?.aborted)
            return Promise.resolve();
        return new Promise((resolve) => {
            const done = () => {
                clearTimeout(timer);
                signal?.removeEventListener('abort', done);
                resolve();
            };
            const timer = setTimeout(done, ms);
            timer.unref();
            signal?.addEventListener('abort', done, { once: true });
            this.#waiters.push(done);
        });
    }
}
/** Compares two secrets in time independent of where they differ. */
function sameSecret(a, b) {
    let diff = a.length ^ b.length;
    for (let i = 0; i < b.length; i++)
        diff |= (a[i] ?? 0) ^ b[i];
    return diff === 0;
}
/** Gemini names the model in the path: /v1beta/models/gemini-2.5-pro:streamGenerateContent. */
function modelOfPath(target) {
    const match = /\/models\/([^/:?]+):/.exec(target);
    return match ? decodeURIComponent(match[1]) : null;
}
function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        req.on('data', (chunk) => {
            size += chunk.length;
            if (size > REQUEST_BODY_MAX) {
                req.destroy();
                reject(new Error(`request body over ${REQUEST_BODY_MAX} bytes`));
                return;
            }
            chunks.push(chunk);
        });
        req.on('end', () => resolve(Buffer.concat(chunks)));
        req.on('error', reject);
    });
}
/** A streamed Chat Completions request, asked to end with its usage; anything else as it was. */
function withStreamUsage(body) {
    try {
        const parsed = JSON.parse(body.toString('utf8'));
        if (parsed.stream !== true)
            return body;
        const options = (parsed.stream_options ?? {});
        if (options.include_usage === true)
            return body;
        parsed.stream_options = { ...options, include_usage: true };
        return Buffer.from(JSON.stringify(parsed));
    }
    catch {
        return body;
    }
}
/**
 * The one read that is forwarded unmetered: the model list or one model's description (`…/models`,
 * `…/models/<id>`), which the CLIs ask for at start. Every other GET would read with the real key what the
 * key may read beyond model calls (the organization's message batches, stored responses, files), and a
 * method override would turn a GET into something else.
 */
function modelListing(method, path, req) {
    if (method !== 'GET' && method !== 'HEAD')
        return false;
    if (req.headers['x-http-method-override'] !== undefined)
        return false;
    return /^(?:\/[\w.-]+)*\/models(?:\/[\w.-]+)?\/?$/.test(path);
}

/** Keys already taken out of proctor's environment (a batch's later sessions need them too). */
const held = new Map();
/**
 * Starts the proxy when model_api.proxy is on and a key is there to hold; null (with the reason passed to
 * `onWarning`) when it is on but there is no key: the agent may sign in otherwise (Claude's OAuth token) and
 * talks to its API directly. A budget cannot be kept without the proxy: that is an error.
 */
async function startSessionProxy(opts) {
    const { config } = opts;
    const budgeted = hasBudget(config);
    if (!config.model_api.proxy) {
        if (budgeted)
            throw new Error('budget needs the metering proxy: set model_api.proxy: true and model_api.api (or use an agent preset)');
        return null;
    }
    const api = config.model_api.api;
    if (!api)
        throw new Error('model_api.proxy needs model_api.api: anthropic, openai or gemini (the agent presets set it)');
    const spec = API_SPECS[api];
    const elsewhere = spec.elsewhere?.(opts.base) ?? null;
    if (elsewhere) {
        const reason = `model_api.proxy: ${elsewhere}, so the agent talks to the model API directly (unmetered)`;
        if (budgeted)
            throw new Error(`${reason}; a budget needs the proxy`);
        opts.onWarning(reason);
        return null;
    }
    const taken = withholdVariables(spec.keyEnv, opts.base);
    if (opts.base !== process.env)
        withholdVariables(spec.keyEnv);
    for (const [name, value] of Object.entries(taken.values))
        held.set(name, value);
    // Out of every environment now, so the content scan would no longer see it there: a file the agent writes
    // with the key in it is still a secret_content violation (docs/policy.md).
    registerKnownSecrets(taken.values);
    const keyName = spec.keyEnv.find((name) => held.has(name));
    if (!keyName) {
        const reason = `model_api.proxy: no ${spec.keyEnv.join(' or ')} in the environment, so the agent talks to the model API directly (unmetered)`;
        if (budgeted)
            throw new Error(`${reason}; a budget needs the proxy`);
        opts.onWarning(reason);
        return null;
    }
    const upstream = config.model_api.upstream ??
        spec.baseUrlEnv.map((name) => opts.base[name]).find((value) => value) ??
        spec.defaultUpstream;
    const placeholder = `proctor-session-${randomHex(24)}`;
    const proxy = await startModelProxy({
        api,
        upstream,
        key: held.get(keyName),
        placeholder,
        retries: config.model_api.retries,
        meter: opts.meter,
        ...(opts.batch ? { alsoMeters: [opts.batch.meter] } : {}),
        budgets: [
            new Budget(limitsOf(config.budget, config.budget.warn_at), {
                meter: opts.meter,
                ...(opts.pricer ? { pricer: opts.pricer } : {}),
            }),
            ...(opts.batch ? [opts.batch.budget] : []),
        ],
        round: opts.round,
        startedAt: opts.startedAt,
        onWarning: opts.onBudgetWarning,
        onStop: opts.onStop,
    });
    // Every variable a CLI may read its key from holds the placeholder (Codex reads CODEX_API_KEY in exec mode,
    // OPENAI_API_KEY otherwise); every base-URL variable names the proxy.
    for (const name of spec.keyEnv) {
        if (held.has(name) || opts.agentEnv[name] !== undefined)
            opts.agentEnv[name] = placeholder;
    }
    for (const name of spec.baseUrlEnv)
        opts.agentEnv[name] = proxy.url;
    // A CLI told by arguments where its provider is reads the key from OPENAI_API_KEY (agentArgs).
    if (spec.agentArgs)
        opts.agentEnv[spec.keyEnv[0]] = placeholder;
    if (taken.problem && process.platform === 'linux')
        opts.onWarning(`the model key could not be removed from proctor's /proc environment: ${taken.problem}`);
    // A wrapper that started proctor keeps the key where the agent can read it: say so, it cannot be undone.
    for (const holder of ancestorsHolding([...new Set(held.values())]))
        opts.onWarning(holderWarning(holder));
    const command = (c) => 'shell' in c || !spec.agentArgs
        ? c
        : { file: c.file, args: [...c.args, ...spec.agentArgs(c.file, proxy.url)] };
    return { ...proxy, api, upstream, command };
}

export { startSessionProxy };
