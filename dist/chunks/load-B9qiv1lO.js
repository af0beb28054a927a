import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { readFileSync, existsSync, statSync } from 'node:fs';
import { resolve, join, relative } from 'node:path';
import { f as findRepoRoot } from './layout-CYVFN_Ug.js';
import { ConfigError } from './errors-7nusPbhT.js';

const DEFAULTS = {
    agent: {
        pty: true,
        adapter: 'generic',
        env: {},
        env_passthrough: [],
        cols: 120,
        rows: 40,
        typing: { paste: 'auto', submit_delay: 50, confirm_timeout: 5000, submit_attempts: 3 },
    },
    timeouts: { total: 1800000, idle: 600000, grace: 5000 },
    output: { transcript_max: 67108864, passthrough: true },
    detect: [],
    detect_presets: [],
    checkpoints: {
        enabled: true,
        branch: 'proctor/{session}',
        interval: 30000,
        max_changes: 50,
        min_interval: 5000,
        push: 'auto',
        remote: 'origin',
        max_file_size: 5242880,
        pause_agent: true,
        on_events: ['completion'],
        push_on_pre_push: false,
        max_failures: 3,
    },
    policy: {
        allowed_areas: [],
        forbidden_areas: [],
        protected_areas: [],
        violation_severity: 'warning',
        severities: {},
        revert_on_violation: false,
        allow_new_executables: true,
        git_tamper: 'undo',
    },
    stop_hooks: [],
    max_stop_rounds: 3,
    hooks: {},
    hooks_async_pool_size: 10,
    hooks_async_shutdown_grace: 5000,
    hooks_async_drain_timeout: 30000,
    batch: { concurrency: 4, keep_worktrees: false, tasks: [] },
    github: { comment: 'sticky', checks: true, key: '{workflow}/{job}', fail_on: 'block' },
};
/** A fresh copy of the default config (callers may change theirs). */
function defaultConfig() {
    return structuredClone(DEFAULTS);
}

// Finds proctor.yml (repository root, or the current directory outside a repository) and loads it.
const CONFIG_FILE_NAMES = ['proctor.yml', 'proctor.yaml'];
/** The config file proctor reads by default, or null if there is none. */
function findConfigFile(cwd) {
    const dir = findRepoRoot(cwd) ?? resolve(cwd);
    const found = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => isFile(file));
    if (found.length > 1) {
        throw fileProblem(found[0], cwd, `both ${CONFIG_FILE_NAMES.join(' and ')} exist in ${dir}`, 'keep one of them');
    }
    return found[0] ?? null;
}
async function loadConfig(opts) {
    const file = opts.file !== undefined ? explicitFile(opts.file, opts.cwd) : findConfigFile(opts.cwd);
    // The parser (yaml, zod) is loaded only when there is something to parse: without a file or a preset
    // the defaults need neither, and `proctor run` starts its agent that much sooner.
    if (file === null && !opts.preset?.preset) {
        return { config: defaultConfig(), file: null, source: 'defaults', warnings: [] };
    }
    const { parseConfigText } = await import('./parse-C1b96y8N.js');
    if (file === null) {
        const { config } = parseConfigText('', 'defaults', opts.preset);
        return { config, file: null, source: 'defaults', warnings: [] };
    }
    let text;
    try {
        text = readFileSync(file, 'utf8');
    }
    catch (error) {
        throw fileProblem(file, opts.cwd, `cannot read the config file: ${error.message}`);
    }
    const { config, warnings } = parseConfigText(text, displayName(file, opts.cwd), opts.preset);
    return { config, file, source: 'file', warnings };
}
function explicitFile(given, cwd) {
    const file = resolve(cwd, given);
    if (!existsSync(file)) {
        throw fileProblem(file, cwd, 'config file not found', 'check the path given with -c, or leave -c out to use proctor.yml at the repository root');
    }
    if (!isFile(file))
        throw fileProblem(file, cwd, 'is not a file', 'give -c the path of a proctor.yml file');
    return file;
}
/** The name used in messages: relative to where the user stands, so it can be clicked or copied. */
function displayName(file, cwd) {
    const rel = relative(resolve(cwd), file);
    return rel === '' ? file : rel;
}
function fileProblem(file, cwd, message, hint) {
    return new ConfigError([{ file: displayName(file, cwd), line: 0, col: 0, path: '', message, hint }]);
}
function isFile(path) {
    try {
        return statSync(path).isFile();
    }
    catch {
        return false;
    }
}

export { displayName as a, defaultConfig as d, loadConfig as l };
