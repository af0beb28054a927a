const { writeFile, readFile, mkdtemp, rm } = process.getBuiltinModule("node:fs/promises");
const { join } = process.getBuiltinModule("node:path");
import { nativeAdapters } from './index-DtPt7qSS.js';
import { c as continuationMessage } from './continue-CWf2Yz5i.js';
import { ag as proctorStateDir } from './checkpoints-create-CJcO-Brq.js';
import { r as runStopHooks } from './stop-hooks-BJdq3XY7.js';
const { createServer, createConnection } = process.getBuiltinModule("node:net");
const { tmpdir } = process.getBuiltinModule("node:os");

// `proctor hook stop --adapter <name>` outside `proctor run`: called by an agent's own Stop hook that a user wired
// by hand. Runs proctor's stop hooks and answers in that agent's protocol. Consecutive blocks are counted per
// agent session in .proctor/native/ so the agent is sent back at most max_stop_rounds times; a new prompt
// (or, for agents that name none, stop_hook_active=false) starts a fresh count. Under `proctor run` the hook
// relays to the session instead (native-relay.ts).
/** The agent's hook JSON read through its adapter, or the non-blocking failure answer to give. */
function parseNativeInput(adapterName, text) {
    const adapter = nativeAdapters[adapterName];
    let payload;
    try {
        payload = JSON.parse(text);
    }
    catch {
        return {
            failure: failure(`expected ${adapter.stopEvent} hook JSON from ${adapterName} on stdin, got ${describeInput(text)}`),
        };
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
        return { failure: failure(`expected a JSON object from ${adapterName} on stdin`) };
    }
    return { input: adapter.readInput(payload) };
}
/**
 * Whether this stop continues the previous block sequence. A prompt key (Codex turn, Gemini prompt) decides
 * when the agent gives one — Gemini's stop_hook_active is false again after any tool use — else the flag.
 */
function continuesBlockSequence(input, previous) {
    if (!previous || previous.verdict !== 'block')
        return false;
    if (input.promptKey !== null)
        return input.promptKey === previous.promptKey;
    return input.stopHookActive;
}
async function runNativeStop(options) {
    const adapter = nativeAdapters[options.adapter];
    const parsed = parseNativeInput(options.adapter, options.input);
    if ('failure' in parsed)
        return parsed.failure;
    const { input } = parsed;
    const cwd = input.cwd ?? options.cwd;
    let config;
    try {
        config = await options.loadConfig(cwd);
    }
    catch (error) {
        return failure(error.message);
    }
    const agentSession = input.sessionId ?? 'unknown';
    const statePath = join(await proctorStateDir(cwd, 'native'), `${options.adapter}-${safeFileName(agentSession)}.json`);
    const previous = await readState(statePath);
    const continuing = continuesBlockSequence(input, previous ? { verdict: previous.verdict, promptKey: previous.prompt_key ?? null } : null);
    const blocks = continuing ? (previous?.blocks ?? 0) : 0;
    const rounds = (previous?.rounds ?? 0) + 1;
    const outcome = await runStopHooks({
        hooks: config.stop_hooks,
        context: {
            session_id: options.env.PROCTOR_SESSION_ID ?? `${options.adapter}-${agentSession}`,
            cwd,
            stop_reason: 'completed',
            final_text: input.finalText,
            rounds,
            stop_hook_active: input.stopHookActive,
            checkpoint: null,
            violations: [],
        },
        cwd,
        env: options.env,
        graceMs: config.timeouts.grace,
        round: blocks + 1,
    });
    // Hooks that could not run block the result, but the agent cannot fix proctor.yml: let it stop.
    const onlyErrors = outcome.verdict === 'block' && outcome.reasons.length === 0;
    const giveUp = outcome.verdict === 'block' && (blocks >= config.max_stop_rounds || onlyErrors);
    const state = {
        adapter: options.adapter,
        agent_session_id: agentSession,
        blocks: outcome.verdict === 'block' && !giveUp ? blocks + 1 : 0,
        prompt_key: input.promptKey,
        rounds,
        verdict: outcome.verdict,
        gave_up: giveUp,
        reasons: outcome.reasons,
        results: [...(previous?.results ?? []), ...outcome.results],
        updated_at: new Date().toISOString(),
    };
    await writeFile(statePath, `${JSON.stringify(state, null, 2)}\n`);
    if (outcome.verdict === 'allow')
        return adapter.answer({ block: false });
    if (onlyErrors) {
        const note = `proctor: stop hooks could not run (${outcome.errors.join('; ')}); letting the agent stop with verdict block`;
        return adapter.answer({ block: false, note });
    }
    if (giveUp) {
        const note = `proctor: stop hooks still block after ${config.max_stop_rounds} rounds (max_stop_rounds); letting the agent stop with verdict block`;
        return adapter.answer({ block: false, note });
    }
    return adapter.answer({ block: true, reason: continuationMessage(outcome.reasons) });
}
async function readState(path) {
    try {
        return JSON.parse(await readFile(path, 'utf8'));
    }
    catch {
        return null;
    }
}
/** A non-blocking hook error in every supported agent: exit 1, message on stderr. */
function failure(message) {
    return { exitCode: 1, stdout: '', stderr: `proctor hook stop: ${message}\n` };
}
function safeFileName(id) {
    return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'unknown';
}
function describeInput(text) {
    const trimmed = text.trim();
    if (trimmed === '')
        return 'nothing';
    return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed);
}

// Under `proctor run`, an agent's own Stop hook (`proctor hook stop --socket …`) does not run the stop hooks
// itself: it hands the agent's hook JSON to the session over a Unix socket and prints the session's answer.
// The session then runs its stop hooks with its own environment (an agent may strip a hook's environment),
// checkpoints first, counts rounds in memory and records every result in its report — nothing the agent can
// write on disk decides the verdict. One JSON line each way.
/** Listens on a fresh socket in a private temp directory (short: Unix socket paths are capped near 104 bytes). */
async function startNativeRelay(handle) {
    const dir = await mkdtemp(join(tmpdir(), 'proctor-'));
    const socket = join(dir, 'stop.sock');
    // One stop at a time: a second hook call waits for the first answer instead of interleaving rounds.
    let queue = Promise.resolve();
    const server = createServer((connection) => {
        let buffered = '';
        connection.setEncoding('utf8');
        connection.on('error', () => undefined);
        connection.on('data', (chunk) => {
            buffered += chunk;
            const newline = buffered.indexOf('\n');
            if (newline < 0)
                return;
            const line = buffered.slice(0, newline);
            buffered = '';
            const answer = (queue = queue.then(() => answerLine(line, handle), () => answerLine(line, handle)));
            void answer.then((result) => connection.end(`${JSON.stringify(result)}\n`));
        });
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(socket, () => resolve());
    });
    return {
        socket,
        close: async () => {
            await new Promise((resolve) => server.close(() => resolve()));
            await rm(dir, { recursive: true, force: true });
        },
    };
}
async function answerLine(line, handle) {
    try {
        const request = JSON.parse(line);
        return await handle(request);
    }
    catch (error) {
        return { exitCode: 1, stdout: '', stderr: `proctor hook stop: ${error.message}\n` };
    }
}
/** The hook side: sends the request and returns the session's answer. */
function relayNativeStop(socket, request) {
    return new Promise((resolve) => {
        let text = '';
        const connection = createConnection(socket);
        connection.setEncoding('utf8');
        connection.on('connect', () => connection.write(`${JSON.stringify(request)}\n`));
        connection.on('data', (chunk) => (text += chunk));
        connection.on('error', (error) => resolve({
            exitCode: 1,
            stdout: '',
            stderr: `proctor hook stop: cannot reach proctor session ${request.session} at ${socket}: ${error.message}\n`,
        }));
        connection.on('end', () => {
            try {
                resolve(JSON.parse(text));
            }
            catch {
                resolve({
                    exitCode: 1,
                    stdout: '',
                    stderr: `proctor hook stop: proctor session ${request.session} gave no answer\n`,
                });
            }
        });
    });
}

export { runNativeStop as a, continuesBlockSequence as c, parseNativeInput as p, relayNativeStop as r, startNativeRelay as s };
