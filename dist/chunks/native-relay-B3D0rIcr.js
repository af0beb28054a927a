const { readFile, mkdir, writeFile, rm, rmdir, mkdtemp } = process.getBuiltinModule("node:fs/promises");
const { join, dirname } = process.getBuiltinModule("node:path");
import { t as typedText } from './sanitize-uyCYM5tR.js';
import { A as proctorStateDir } from './checkpoints-create-DTLz9lEm.js';
import { r as runStopHooks } from './stop-hooks-BiG4SMI1.js';
const { createServer, createConnection } = process.getBuiltinModule("node:net");
const { tmpdir } = process.getBuiltinModule("node:os");

/** A reason typed into a TUI must stay one prompt: long enough to be useful, no keys smuggled in. */
const MAX_TYPED_CHARS = 4000;
function planContinuation(adapter, state) {
    if (adapter !== 'generic' && state.nativeHooks)
        return { kind: 'native' };
    if (state.running && state.mode === 'pty')
        return { kind: 'type-into-pty', text: typedPrompt(state.reasons) };
    if (state.continueCommand && state.continueCommand.length > 0) {
        return { kind: 'rerun', command: continueCommand(state.continueCommand, state.reasons, state.round) };
    }
    if (state.running) {
        return {
            kind: 'none',
            why: 'the agent runs without a terminal (pipe mode) and agent.continue is not set',
        };
    }
    return { kind: 'none', why: 'the agent has exited and agent.continue is not set in proctor.yml' };
}
/** The message the agent reads: which hooks blocked and why. */
function continuationMessage(reasons) {
    const body = reasons.length > 0 ? reasons.map((reason) => `- ${reason}`).join('\n') : '- (no reason given)';
    return `proctor: the stop hooks did not pass, so the task is not finished yet. Fix these and continue:\n${body}`;
}
/**
 * Text typed into an interactive agent: one line (a newline or ESC inside a reason could submit early or
 * press keys), capped, ending with Enter (\r).
 */
function typedPrompt(reasons) {
    return `${typedLine(reasons)}\r`;
}
/** typedPrompt without the Enter: the text proctor pastes before pressing Enter on its own. */
function typedLine(reasons) {
    return typedText(continuationMessage(reasons), MAX_TYPED_CHARS);
}
/** agent.continue with `{reason}`/`{round}` filled in; each template element stays exactly one argv element. */
function continueCommand(template, reasons, round) {
    const reason = continuationMessage(reasons);
    // One pass with a callback: a reason that itself contains "{round}" or "$&" stays literal.
    const argv = template.map((part) => part.replace(/\{(reason|round)\}/g, (_match, key) => (key === 'reason' ? reason : String(round))));
    const [file, ...args] = argv;
    if (file === undefined)
        throw new Error('agent.continue must not be empty');
    return { file, args };
}

// The hooks block shared by Claude Code, Codex and Gemini CLI settings: event → matcher groups → handlers.
// Merging is idempotent (our handler is added once) and keeps every hook the user already has.
function withStopHandler(existing, event, handler) {
    const root = isRecord(existing) ? { ...existing } : {};
    const hooks = isRecord(root.hooks) ? { ...root.hooks } : {};
    const groups = Array.isArray(hooks[event]) ? [...hooks[event]] : [];
    const already = groups.some((group) => isRecord(group) &&
        Array.isArray(group.hooks) &&
        group.hooks.some((h) => isRecord(h) && h.command === handler.command));
    if (!already)
        groups.push({ hooks: [handler] });
    hooks[event] = groups;
    root.hooks = hooks;
    return root;
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function stringField(payload, ...keys) {
    for (const key of keys) {
        const value = payload[key];
        if (typeof value === 'string')
            return value;
    }
    return null;
}

// Claude Code: `Stop` hook in settings JSON (passed with --settings, or .claude/settings.local.json); timeout in
// seconds; block = exit 0 + {"decision":"block","reason"}; input has stop_hook_active and last_assistant_message.
const claudeAdapter = {
    name: 'claude',
    stopEvent: 'Stop',
    setup({ hookCommand, timeoutMs, settingsFile }) {
        const handler = { type: 'command', command: hookCommand, timeout: Math.ceil(timeoutMs / 1000) };
        if (settingsFile) {
            return {
                adapter: 'claude',
                args: [],
                files: [
                    {
                        path: '.claude/settings.local.json',
                        merge: (existing) => withStopHandler(existing, 'Stop', handler),
                    },
                ],
                env: {},
            };
        }
        return {
            adapter: 'claude',
            args: ['--settings', JSON.stringify(withStopHandler(null, 'Stop', handler))],
            files: [],
            env: {},
        };
    },
    readInput(payload) {
        return {
            sessionId: stringField(payload, 'session_id'),
            stopHookActive: payload.stop_hook_active === true,
            finalText: stringField(payload, 'last_assistant_message') ?? '',
            cwd: stringField(payload, 'cwd'),
            promptKey: null,
        };
    },
    answer(decision) {
        if (decision.block)
            return {
                exitCode: 0,
                stdout: JSON.stringify({ decision: 'block', reason: decision.reason }),
                stderr: '',
            };
        return {
            exitCode: 0,
            stdout: decision.note ? JSON.stringify({ systemMessage: decision.note }) : '',
            stderr: '',
        };
    },
};

// Codex CLI: `Stop` hook (same shape as Claude Code; `timeout` in seconds — `timeoutSec` is ignored). Codex runs
// a project's .codex/hooks.json only when both the project and the hook are trusted, so proctor passes the hook
// on the command line instead (`-c hooks.Stop=[…]` plus `--dangerously-bypass-hook-trust`): it runs in an
// untrusted project and no file is written. Block = exit 0 + {"decision":"block","reason"} (reason must be
// non-empty; Codex sends it to the model as the next user message); empty stdout on exit 0 lets it stop.
/** A TOML basic string: JSON's escapes (\", \\, \n, \uXXXX) are all valid TOML. */
const tomlString = (value) => JSON.stringify(value);
const codexAdapter = {
    name: 'codex',
    stopEvent: 'Stop',
    setup({ hookCommand, timeoutMs }) {
        const timeout = Math.ceil(timeoutMs / 1000);
        const stop = `hooks.Stop=[{hooks=[{type="command",command=${tomlString(hookCommand)},timeout=${timeout}}]}]`;
        return {
            adapter: 'codex',
            args: ['-c', stop, '--dangerously-bypass-hook-trust'],
            files: [],
            env: {},
        };
    },
    readInput(payload) {
        return {
            sessionId: stringField(payload, 'session_id'),
            stopHookActive: payload.stop_hook_active === true,
            finalText: stringField(payload, 'last_assistant_message') ?? '',
            cwd: stringField(payload, 'cwd'),
            promptKey: stringField(payload, 'turn_id'),
        };
    },
    answer(decision) {
        if (decision.block) {
            const reason = decision.reason.trim() || 'proctor stop hooks blocked';
            return { exitCode: 0, stdout: JSON.stringify({ decision: 'block', reason }), stderr: '' };
        }
        // Codex's Stop output schema is strict; an allow is an empty stdout, the note goes to its log via stderr.
        return { exitCode: 0, stdout: '', stderr: decision.note ?? '' };
    },
};

// Gemini CLI: `AfterAgent` hook in .gemini/settings.json (timeout in milliseconds); {"decision":"deny","reason"}
// sends the reason back as a new prompt; input has stop_hook_active, prompt and prompt_response. Gemini loads a
// project's hooks only in a trusted folder, and its --skip-trust flag applies after settings are read, so the
// agent gets GEMINI_CLI_TRUST_WORKSPACE=true. Its stop_hook_active turns false again whenever the continuation
// used a tool; `prompt` stays the user's prompt across continuations, so it is what rounds are counted by.
const geminiAdapter = {
    name: 'gemini',
    stopEvent: 'AfterAgent',
    setup({ hookCommand, timeoutMs }) {
        const handler = {
            type: 'command',
            name: 'proctor-stop',
            command: hookCommand,
            timeout: timeoutMs,
        };
        return {
            adapter: 'gemini',
            args: [],
            files: [
                {
                    path: '.gemini/settings.json',
                    merge: (existing) => withStopHandler(existing, 'AfterAgent', handler),
                },
            ],
            env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        };
    },
    readInput(payload) {
        return {
            sessionId: stringField(payload, 'session_id'),
            stopHookActive: payload.stop_hook_active === true,
            finalText: stringField(payload, 'prompt_response') ?? '',
            cwd: stringField(payload, 'cwd'),
            promptKey: stringField(payload, 'prompt'),
        };
    },
    answer(decision) {
        if (decision.block)
            return {
                exitCode: 0,
                stdout: JSON.stringify({ decision: 'deny', reason: decision.reason }),
                stderr: '',
            };
        const body = { decision: 'allow' };
        if (decision.note)
            body.systemMessage = decision.note;
        return { exitCode: 0, stdout: JSON.stringify(body), stderr: '' };
    },
};

// The native adapters by name, the hook command they install, and installing/restoring their settings files.
const nativeAdapters = {
    claude: claudeAdapter,
    codex: codexAdapter,
    gemini: geminiAdapter,
};
function isNativeAdapterName(name) {
    return Object.hasOwn(nativeAdapters, name);
}
/**
 * The shell command an agent runs for its Stop hook. `proctor` is how to start proctor (e.g. ["proctor"], or
 * [node, /path/cli.js]); every element is single-quoted so paths with spaces or quotes survive the agent's shell.
 * Under `proctor run` the session is named in argv, not the environment: Gemini CLI strips a hook's
 * environment down to PATH, HOME and GEMINI_CLI_* whenever GITHUB_SHA is set (every Actions job).
 */
function nativeHookCommand(proctor, adapter, configFile, target) {
    const argv = [...proctor, 'hook', 'stop', '--adapter', adapter];
    if (configFile)
        argv.push('--config', configFile);
    if (target)
        argv.push('--session', target.session, '--socket', target.socket);
    return argv.map(shellQuote).join(' ');
}
function shellQuote(word) {
    return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
/** Merges the adapter's hook into its settings files under `cwd`; keep the handle and restore() in finally. */
async function installNativeHooks(setup, cwd) {
    const originals = [];
    for (const file of setup.files) {
        const path = join(cwd, file.path);
        // Bytes, not text: a user's file with a BOM or invalid UTF-8 is put back exactly as it was.
        const content = await readFile(path).catch(() => null);
        let existing = null;
        if (content !== null && content.toString('utf8').trim() !== '') {
            try {
                existing = JSON.parse(content.toString('utf8').replace(/^\uFEFF/, ''));
            }
            catch (error) {
                throw new Error(`${file.path} is not valid JSON (${error.message}); fix it so proctor can add its Stop hook`, { cause: error });
            }
        }
        const createdDir = await mkdir(dirname(path), { recursive: true });
        const written = `${JSON.stringify(file.merge(existing), null, 2)}\n`;
        originals.push({ file: file.path, path, content, written, createdDir });
        await writeFile(path, written);
    }
    return {
        paths: originals.map((original) => original.file),
        async restore() {
            const changed = [];
            for (const original of [...originals].reverse()) {
                const now = await readFile(original.path, 'utf8').catch(() => null);
                if (now !== original.written)
                    changed.push(original.file);
                if (original.content === null)
                    await rm(original.path, { force: true });
                else
                    await writeFile(original.path, original.content);
                // Only an empty directory proctor created goes; anything the agent put there stays.
                if (original.createdDir)
                    await rmdir(original.createdDir).catch(() => undefined);
            }
            return changed.reverse();
        },
    };
}

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

export { runNativeStop as a, nativeHookCommand as b, installNativeHooks as c, startNativeRelay as d, continuesBlockSequence as e, continuationMessage as f, planContinuation as g, isNativeAdapterName as i, nativeAdapters as n, parseNativeInput as p, relayNativeStop as r, shellQuote as s, typedLine as t };
