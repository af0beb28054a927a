import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { parseArgs } from 'node:util';
import { ConfigError } from './errors-7nusPbhT.js';
import { l as loadConfig } from './load-B9qiv1lO.js';
import { C as CheckpointStore } from './store-Dm3FM6sK.js';
import { a as assertSessionId } from './refs-X9Bn9pnj.js';
import { G as Git } from './runner-FlE7M-Ph.js';
import { f as findRepoRoot } from './layout-CYVFN_Ug.js';
import { CliExit, ExitCode } from './exit-Qpwlb4p1.js';
import 'node:fs';
import 'node:path';
import 'node:os';
import './units-B2PFpzl3.js';
import 'node:child_process';
import 'node:fs/promises';

// `proctor checkpoints create`, apart from the other checkpoints commands: scripts run it once per
// checkpoint, so the whole process is its cost (issue 17: at most 1.2× raw plumbing plus a bare node start).
// main.ts runs it without commander when the arguments are the plain ones (plainCreateOptions), and it
// loads only the checkpoint store, the config loader and git's runner: not the other subcommands, not the
// workspace's push and history code, and the policy's glob matcher only when policy.forbidden_areas is set.
const processIO = {
    cwd: () => process.cwd(),
    stdout: (text) => process.stdout.write(text),
};
/**
 * The options of `checkpoints create <args>` when they are only the documented ones, each once (node's own
 * parseArgs, strict: `--session x`, `--session=x`, `-c x`, `--config=x`, `--json`); null for anything else
 * (help, an unknown option or argument, a missing value, a value that looks like an option, a repeat),
 * which commander then parses and reports as it always has.
 */
function plainCreateOptions(args) {
    let parsed;
    try {
        parsed = parseCreateArgs(args);
    }
    catch {
        return null;
    }
    const { values, tokens } = parsed;
    const names = tokens.filter((token) => token.kind === 'option').map((token) => token.name);
    const repeated = names.length !== new Set(names).size;
    // `-cp.yml` (a short option with its value joined) and `--` are commander's to read.
    const joined = args.some((arg) => /^-[^-]./.test(arg));
    const terminated = tokens.some((token) => token.kind === 'option-terminator');
    if (repeated || joined || terminated)
        return null;
    return values;
}
function parseCreateArgs(args) {
    return parseArgs({
        args: [...args],
        strict: true,
        allowPositionals: false,
        tokens: true,
        options: {
            session: { type: 'string' },
            config: { type: 'string', short: 'c' },
            json: { type: 'boolean' },
        },
    });
}
/** Takes a checkpoint of the worktree now (trigger "manual") and prints it; nothing new if unchanged. */
async function createCheckpoint(opts, io = processIO) {
    const root = findRepoRoot(io.cwd());
    if (!root)
        throw new CliExit(ExitCode.usage, `${io.cwd()} is not inside a git repository; run proctor there`);
    let config;
    try {
        config = (await loadConfig({ file: opts.config, cwd: io.cwd() })).config;
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
    const session = opts.session ?? process.env.PROCTOR_SESSION_ID ?? manualSessionId();
    try {
        assertSessionId(session);
    }
    catch (error) {
        throw new CliExit(ExitCode.usage, error.message);
    }
    // What Workspace.store gives a session's store, with the policy's matcher loaded only when it is needed
    // (a loaded config's policy has been checked: an empty forbidden_areas withholds nothing).
    const policy = config.policy;
    const withhold = policy.forbidden_areas.length > 0
        ? (await import('./index-CWD4nCOi.js')).forbiddenAreaOf(policy)
        : undefined;
    const store = new CheckpointStore({
        // Nothing else happens in this process meanwhile: each git runs to completion (see runGitSync).
        git: new Git({ cwd: root, synchronous: true }),
        session,
        maxFileSize: config.checkpoints.max_file_size,
        minIntervalMs: config.checkpoints.min_interval,
        ...(withhold ? { withhold } : {}),
        indexName: `cli-${process.pid}`,
    });
    try {
        const record = await store.create('manual');
        if (opts.json)
            io.stdout(`${JSON.stringify(record, null, 2)}\n`);
        else if (!record)
            io.stdout(`nothing changed since the last checkpoint of ${session}; no checkpoint taken\n`);
        else {
            io.stdout(`${session}@${record.seq} ${record.sha.slice(0, 12)}: ${record.files_changed.length} file(s)\n`);
            for (const skipped of record.skipped)
                io.stdout(`  skipped (size or LFS): ${skipped}\n`);
        }
    }
    finally {
        await store.close();
    }
}
function manualSessionId() {
    return `manual-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}`;
}

export { createCheckpoint, plainCreateOptions };
