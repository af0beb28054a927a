import { ConfigError } from './errors-lvn-GX78.js';
import { ad as commanderOptions, ae as createCheckpoint, n as diffTrees, W as Workspace, l as loadConfig, d as defaultConfig, af as CREATE_OPTIONS } from './checkpoints-create-CJcO-Brq.js';
import { listSessions, listCheckpoints, resolveCheckpoint } from './history-DPG0N69n.js';
import { n as forbiddenAreaOf } from './evaluate-DoW4VY95.js';


import { printableLine, printablePath } from './sanitize-C-XaPVOa.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';


import './areas-BPhpJk9z.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './secret-forms-Ct3YzP3D.js';

// proctor checkpoints create | list [--session] | show <id> | diff <a> <b> | restore <id> [--files …] | push
const processIO = {
    cwd: () => process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
};
function registerCheckpointsCommand(program, io = processIO) {
    const cmd = program
        .command('checkpoints')
        .description('list, inspect, restore and push the checkpoints of supervised sessions (refs/proctor/*)');
    // Its own module: main.ts runs it without commander when its options are the plain ones.
    commanderOptions(cmd
        .command('create')
        .description('take a checkpoint of the worktree now (trigger "manual"); prints nothing new if unchanged'), CREATE_OPTIONS).action((opts) => createCheckpoint(opts, io));
    cmd
        .command('list')
        .description('list sessions and their checkpoints, newest session first')
        .option('--session <id>', 'only this session')
        .option('--json', 'print JSON')
        .action(async (opts) => {
        const { git } = await context(opts, io, false);
        const sessions = opts.session ? [opts.session] : (await listSessions(git)).map((s) => s.session);
        const result = [];
        for (const session of sessions)
            result.push({ session, checkpoints: await listCheckpoints(git, session) });
        if (opts.session && result[0].checkpoints.length === 0) {
            throw new CliExit(ExitCode.usage, `no checkpoints for session "${opts.session}" (see proctor checkpoints list)`);
        }
        if (opts.json) {
            io.stdout(`${JSON.stringify(result, null, 2)}\n`);
            return;
        }
        if (result.length === 0)
            io.stdout('no checkpoints yet\n');
        for (const { session, checkpoints } of result) {
            io.stdout(`${session}  (${checkpoints.length} checkpoint${checkpoints.length === 1 ? '' : 's'})\n`);
            for (const c of checkpoints)
                io.stdout(`  ${line(c)}\n`);
        }
    });
    cmd
        .command('show')
        .argument('<id>', '<session>@<seq>, @<seq> (newest session), <session>, a commit id, or latest')
        .description('show one checkpoint: trailers and the files it changed since the previous one')
        .option('--json', 'print JSON')
        .action(async (id, opts) => {
        const { git } = await context(opts, io, false);
        const info = await resolve(git, id);
        const files = await diffTrees(git, info.parent ? `${info.parent}^{tree}` : null, info.tree);
        if (opts.json) {
            io.stdout(`${JSON.stringify({ ...info, files }, null, 2)}\n`);
            return;
        }
        io.stdout(`${info.session}@${info.seq}  ${info.sha}\n`);
        io.stdout(`  ${printableLine(info.subject)}\n  base ${info.base ?? '(unborn)'}  at ${printableLine(info.createdAt)}\n`);
        io.stdout(`  violations ${info.violations}  skipped ${info.skippedCount}\n`);
        for (const skipped of info.skipped)
            io.stdout(`  skipped: ${quote(skipped)}\n`);
        for (const file of files)
            io.stdout(`  ${fileLine(file)}\n`);
    });
    cmd
        .command('diff')
        .argument('<a>', 'the older checkpoint')
        .argument('<b>', 'the newer checkpoint')
        .description('what changed between two checkpoints (names; --patch for the full diff)')
        .option('--patch', 'print the full patch')
        .option('--json', 'print JSON')
        .action(async (a, b, opts) => {
        const { git } = await context(opts, io, false);
        const from = await resolve(git, a);
        const to = await resolve(git, b);
        if (opts.patch) {
            const patch = await git.raw([
                'diff-tree',
                '-p',
                '-M',
                '--no-ext-diff',
                '--no-textconv',
                from.sha,
                to.sha,
            ]);
            io.stdout(patch.stdout);
            return;
        }
        const files = await diffTrees(git, from.tree, to.tree);
        if (opts.json)
            io.stdout(`${JSON.stringify(files, null, 2)}\n`);
        else if (files.length === 0)
            io.stdout('no differences\n');
        else
            for (const file of files)
                io.stdout(`${fileLine(file)}\n`);
    });
    cmd
        .command('restore')
        .argument('<id>', '<session>@<seq>, @<seq> (newest session), <session>, a commit id, or latest')
        .description('restore files from a checkpoint into the worktree (a safety checkpoint is taken first; the index, ' +
        'HEAD and branches are not touched)')
        .option('--files <paths...>', 'restore only these files or directories')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--json', 'print JSON')
        .action(async (id, opts) => {
        const { git, config } = await context(opts, io);
        // Loaded by the command that uses it: `create` (run once per checkpoint by scripts) does not pay for it.
        const { restoreCheckpoint, RestoreRefused } = await import('./restore-CDzHXXAt.js');
        try {
            const result = await restoreCheckpoint({
                git,
                id,
                files: opts.files ?? [],
                withhold: forbiddenAreaOf(config.policy),
                cwd: io.cwd(),
            });
            if (opts.json) {
                io.stdout(`${JSON.stringify(result, null, 2)}\n`);
                return;
            }
            const c = result.checkpoint;
            io.stdout(`restored ${result.restored.length} file(s) from ${c.session}@${c.seq} (${c.sha.slice(0, 12)})\n`);
            // The names are the agent's: printed quoted and escaped when they hold control characters.
            for (const file of result.deleted)
                io.stdout(`  deleted (added after the checkpoint): ${printablePath(file)}\n`);
            for (const file of result.keptIgnored)
                io.stdout(`  kept (ignored by .gitignore): ${printablePath(file)}\n`);
            for (const file of result.keptSkipped)
                io.stdout(`  kept (the checkpoint skipped it: the user's file): ${printablePath(file)}\n`);
            const previous = result.safety
                ? `the previous state is safety checkpoint ${c.session}@${result.safety.seq}`
                : `the previous state is the session's latest checkpoint (nothing had changed since it)`;
            io.stdout(`${previous}; undo with: ${result.undo}\n`);
        }
        catch (error) {
            if (error instanceof RestoreRefused)
                throw new CliExit(ExitCode.failed, error.message);
            throw error;
        }
    });
    cmd
        .command('push')
        .description("push a session's checkpoints to its remote branch (fast-forward only; bundle if it fails)")
        .option('--session <id>', 'the session (default: the most recent)')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--json', 'print JSON')
        .action(async (opts) => {
        const { workspace, config } = await context(opts, io);
        const session = opts.session ?? (await listSessions(workspace.git))[0]?.session;
        if (!session)
            throw new CliExit(ExitCode.usage, 'there are no checkpoints to push yet');
        // Asked by name: `checkpoints.push: never` keeps sessions from pushing by themselves, not this.
        const mode = config.checkpoints.push === 'never' ? 'always' : config.checkpoints.push;
        const record = await workspace.pushSession(session, config, { mode });
        if (!record)
            throw new CliExit(ExitCode.usage, `no checkpoints for session "${session}"`);
        if (opts.json)
            io.stdout(`${JSON.stringify(record, null, 2)}\n`);
        else if (record.ok)
            io.stdout(`pushed ${session} to ${record.remote} ${record.branch} (${record.sha?.slice(0, 12)})\n`);
        else {
            io.stdout(`not pushed: ${record.reason}\n`);
            if (record.bundle)
                io.stdout(`checkpoints saved to ${record.bundle}\n`);
        }
        if (!record.ok)
            throw new CliExit(ExitCode.failed);
    });
    for (const sub of cmd.commands)
        sub.exitOverride();
    return cmd;
}
async function context(opts, io, needConfig = true) {
    const workspace = Workspace.find(io.cwd());
    if (!workspace)
        throw new CliExit(ExitCode.usage, `${io.cwd()} is not inside a git repository; run proctor there`);
    let config;
    try {
        // Read-only commands need no config: they must not fail on an unrelated problem in proctor.yml.
        config =
            needConfig || opts.config
                ? (await loadConfig({ file: opts.config, cwd: io.cwd() })).config
                : defaultConfig();
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
    return { git: workspace.git, config, workspace };
}
async function resolve(git, id) {
    try {
        return await resolveCheckpoint(git, id);
    }
    catch (error) {
        throw new CliExit(ExitCode.usage, error.message);
    }
}
function line(c) {
    const extras = [
        c.violations ? `${c.violations} violation(s)` : '',
        c.skippedCount ? `${c.skippedCount} skipped` : '',
    ]
        .filter(Boolean)
        .join(', ');
    // The subject and date come from commit messages on refs/proctor/*, which the agent can write.
    return `@${c.seq}  ${c.sha.slice(0, 12)}  ${printableLine(c.createdAt)}  ${printableLine(c.subject)}${extras ? `  [${extras}]` : ''}`;
}
function fileLine(file) {
    const name = file.oldPath !== undefined ? `${quote(file.oldPath)} -> ${quote(file.path)}` : quote(file.path);
    const lines = file.linesAdded !== null || file.linesDeleted !== null
        ? ` +${file.linesAdded ?? 0} -${file.linesDeleted ?? 0}`
        : '';
    return `${file.status} ${name}${lines}`;
}
/** Paths are shown as-is unless they hold control characters (printablePath), quotes or edge spaces. */
function quote(p) {
    const shown = printablePath(p);
    return shown === p && /["\\]|^\s|\s$/.test(p) ? JSON.stringify(p) : shown;
}

export { registerCheckpointsCommand };
