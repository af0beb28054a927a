const { lstatSync } = process.getBuiltinModule("node:fs");
const { mkdir, rm, rmdir } = process.getBuiltinModule("node:fs/promises");
const { join, dirname } = process.getBuiltinModule("node:path");
import { w as writeFileAtomic, i as describeKind, o as readRegularFile } from './checkpoints-create-CJcO-Brq.js';
import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';

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

// GitHub Copilot CLI: `agentStop` hook. Copilot loads a repository's own hooks (.github/hooks/*.json) only in a
// trusted folder, and `--trust-folder` would also trust every skill, MCP server and hook the repository holds,
// so proctor hands its hook over as a session-only plugin instead (`--plugin-dir`, a directory under .proctor/,
// removed afterwards): plugin hooks run in an untrusted folder, nothing is written into the project and the
// folder's trust is left as it was (checked against 1.0.102, test/e2e/agents-copilot.test.ts). The plugin's
// hooks/hooks.json has the shape of .github/hooks/*.json: {"version":1,"hooks":{"agentStop":[{"type":"command",
// "bash":…,"timeoutSec":…}]}}. Input: sessionId, cwd, transcriptPath, stopReason and stop_hook_active (true on a
// stop that follows a block, also after the continuation used tools). Block = exit 0 +
// {"decision":"block","reason"} (Copilot sends the reason as the next user message and caps consecutive blocks
// itself); an empty stdout lets it stop.
/** The plugin directory, relative to the agent's working directory (Copilot resolves it there too). */
const COPILOT_PLUGIN_DIR = '.proctor/copilot-plugin';
const copilotAdapter = {
    name: 'copilot',
    stopEvent: 'agentStop',
    setup({ hookCommand, timeoutMs }) {
        const hooks = {
            version: 1,
            hooks: {
                agentStop: [{ type: 'command', bash: hookCommand, timeoutSec: Math.ceil(timeoutMs / 1000) }],
            },
        };
        const manifest = {
            name: 'proctor-stop',
            version: '1.0.0',
            description: "proctor's stop hooks as Copilot's agentStop hook, for one session",
        };
        return {
            adapter: 'copilot',
            args: ['--plugin-dir', COPILOT_PLUGIN_DIR],
            // Proctor's files, whatever a stale copy held: the hook command names this session's socket.
            files: [
                { path: `${COPILOT_PLUGIN_DIR}/plugin.json`, merge: () => manifest },
                { path: `${COPILOT_PLUGIN_DIR}/hooks/hooks.json`, merge: () => hooks },
            ],
            env: {},
        };
    },
    readInput(payload) {
        return {
            sessionId: stringField(payload, 'sessionId', 'session_id'),
            stopHookActive: payload.stop_hook_active === true || payload.stopHookActive === true,
            // Copilot sends no final text (it is in the transcript file, transcriptPath).
            finalText: '',
            cwd: stringField(payload, 'cwd'),
            promptKey: null,
        };
    },
    answer(decision) {
        if (decision.block) {
            const reason = decision.reason.trim() || 'proctor stop hooks blocked';
            return { exitCode: 0, stdout: JSON.stringify({ decision: 'block', reason }), stderr: '' };
        }
        return { exitCode: 0, stdout: '', stderr: decision.note ?? '' };
    },
};

// The native adapters by name, the hook command they install, and installing/restoring their settings files.
const nativeAdapters = {
    claude: claudeAdapter,
    codex: codexAdapter,
    gemini: geminiAdapter,
    copilot: copilotAdapter,
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
        const content = readSettingsFile(path, file.path);
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
        // Through a fresh file renamed over the target: a symlink planted there is replaced, never followed.
        writeFileAtomic(path, written);
    }
    return {
        paths: originals.map((original) => original.file),
        async restore() {
            const changed = [];
            for (const original of [...originals].reverse()) {
                let now = null;
                try {
                    now = readSettingsFile(original.path, original.file)?.toString('utf8') ?? null;
                }
                catch {
                    // The agent put something else there (a FIFO, a symlink): changed, and replaced below.
                }
                if (now !== original.written)
                    changed.push(original.file);
                if (original.content === null)
                    await rm(original.path, { force: true });
                else
                    writeFileAtomic(original.path, original.content);
                // Only empty directories proctor created go (from the file's up to the first one it made); anything
                // the agent put there stays.
                if (original.createdDir)
                    await removeEmptyDirs(dirname(original.path), original.createdDir);
            }
            return changed.reverse();
        },
    };
}
/** rmdir `dir`, then its parents up to and including `top`, stopping at the first that is not empty. */
async function removeEmptyDirs(dir, top) {
    for (let current = dir;; current = dirname(current)) {
        if (current !== top && !current.startsWith(`${top}/`))
            return;
        const removed = await rmdir(current).then(() => true, () => false);
        if (!removed || current === top || current === dirname(current))
            return;
    }
}
/** A settings file proctor merges into may hold a user's hooks, not megabytes. */
const MAX_SETTINGS_BYTES = 1024 * 1024;
/**
 * The bytes of a settings file, or null when there is none. The agent can write where these files are, so
 * what is there is read only if it is a regular file: a FIFO would block the read, a symlink would have
 * proctor read (and put in an error message) some other file.
 */
function readSettingsFile(path, name) {
    let stats;
    try {
        stats = lstatSync(path);
    }
    catch {
        return null;
    }
    if (!stats.isFile()) {
        throw new Error(`${name} is ${describeKind(stats)}, not a regular file; remove it so proctor can add its Stop hook`);
    }
    return readRegularFile(path, MAX_SETTINGS_BYTES);
}

export { installNativeHooks, isNativeAdapterName, nativeAdapters, nativeHookCommand, shellQuote };
