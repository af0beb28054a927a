const { isatty } = process.getBuiltinModule("node:tty");
import { l as loadConfig, d as describeSnapshotProgress, p as parseDuration } from './checkpoints-create-C5yHKgfN.js';
import { CliExit, ExitCode } from './exit-FJ5r--ZY.js';
export { exitCodeOf } from './exit-FJ5r--ZY.js';
import { s as startCheckpointReads, r as runSession } from './session-Cg7MfOpM.js';
import { m as makeSessionId, s as sanitizeRefPart } from './agent-env-B9q0covl.js';
export { ConfigError } from './errors-lvn-GX78.js';





import './process-Dlh2Am85.js';
import './registry-z7lpagvl.js';


import './detect-BOF0rQ3N.js';
import './regex-safety-BqVnunhZ.js';
import './commonjs-helpers-Bgu_3bK-.js';

import './sanitize-sKtkP4Sl.js';
import './payloads-DzXac76V.js';
import './events-C_YfI5y8.js';
import './run-hook-CbMPOWb_.js';

import './words-CtdohSJZ.js';
import './workspace-DIf44Wrt.js';

/**
 * The `run` command for commander; `presets` are the agent presets' names (agentPresetChoices), for its
 * help. `action` is what runs it (tests replace it).
 */
function registerRunCommand(program, presets, action = runCommand) {
    program
        .command('run')
        .description('run an agent command under supervision (-- <file> [args…] or --shell "<command>")')
        .argument('[command...]', 'the agent command after --, as an argv (never joined)')
        .option('-c, --config <file>', 'config file (default: proctor.yml at the repository root)')
        .option('--agent <preset>', `the agent CLI's preset (${presets.join(', ')}): its detectors, typing and Stop-hook wiring`)
        .option('--shell <command>', 'run the agent through /bin/sh -c instead of an argv')
        .option('--timeout <duration>', 'total timeout, e.g. 30m (overrides timeouts.total)')
        .option('--idle-timeout <duration>', 'stop when the agent prints nothing for this long (overrides timeouts.idle)')
        .option('--no-pty', 'run the agent with pipes instead of a pseudo-terminal')
        .option('--json', 'print the report as JSON instead of the summary')
        .option('--session <id>', 'session id (default: generated; in CI: run id, attempt and job)')
        .option('--no-checkpoints', 'do not record checkpoints')
        .option('--no-push', 'keep checkpoints local')
        .option('-q, --quiet', 'do not echo the agent output')
        .option('--task <text>', 'the task, as a comment would give it in CI: {task} in the agent command (one argument) and PROCTOR_TASK')
        .action((argv, flags) => action(argv, flags));
}
/** `proctor run`: one session of the agent command (`argv`, else --shell, else proctor.yml's), its report and exit code. */
async function runCommand(argv, flags) {
    if (flags.agent !== undefined) {
        const { agentPresetChoices, findAgentPreset } = await import('./index-DOZFQc1L.js');
        if (!findAgentPreset(flags.agent))
            throw new CliExit(ExitCode.usage, `proctor run: --agent ${flags.agent}: unknown agent preset; choose one of: ${agentPresetChoices().join(', ')}`);
    }
    // The git processes the checkpoints need before the agent starts (its base commit, the repository's
    // machinery) run while the config is read and parsed, rather than after it.
    const sessionId = flags.session || makeSessionId();
    const checkpointReads = flags.checkpoints
        ? startCheckpointReads(process.cwd(), sanitizeRefPart(sessionId))
        : null;
    // The runner forks them from its queue, a few microtasks on: let it, before the config is read.
    if (checkpointReads)
        await new Promise((resolve) => setImmediate(resolve));
    const loaded = await loadConfig({
        file: flags.config,
        cwd: process.cwd(),
        preset: {
            preset: flags.agent,
            argv: argv.length > 0 ? argv : flags.shell !== undefined ? flags.shell.split(/\s+/) : undefined,
        },
    });
    for (const warning of loaded.warnings)
        process.stderr.write(`proctor: warning: ${warning}\n`);
    const config = applyRunFlags(loaded.config, flags);
    const chosen = chooseCommand(argv, flags.shell, config);
    // Loaded only when a task is in play: most runs never touch this code.
    const tasked = flags.task !== undefined || JSON.stringify(chosen).includes('{task}')
        ? await withTask(chosen, flags.task)
        : null;
    const command = tasked?.command ?? chosen;
    const echo = flags.quiet || flags.json || !config.output.passthrough ? null : await liveOutput();
    // Stop hooks as they run, on stderr: a live line on a terminal, plain lines in a log. Its code (and the
    // summary's) is loaded when the first hook starts, not before the agent's spawn; until it is, what the
    // session says on stderr waits for it, so the lines keep their order.
    let hooks = null;
    const hookStatus = () => (hooks ??= import('./terminal-sZ6Clovf.js').then(({ HookStatus }) => new HookStatus({
        out: process.stderr,
        color: process.stderr.isTTY === true && !process.env.NO_COLOR,
    })));
    const say = (line) => {
        const write = () => void process.stderr.write(line);
        if (hooks)
            void hooks.then(write, write);
        else
            write();
    };
    const outcome = await runSession({
        config,
        configFile: loaded.file,
        command,
        cwd: process.cwd(),
        sessionId,
        checkpointReads,
        output: echo?.sink ?? null,
        // (tty.isatty rather than process.stdin.isTTY: creating the stdin stream for a pipe or a file is work
        // done before the spawn for nothing.)
        input: isatty(0) ? process.stdin : null,
        installSignalHandlers: true,
        ...(tasked ? { env: { ...process.env, ...tasked.env } } : {}),
        listener: {
            hookStarted: (name) => void hookStatus().then((status) => status.started(name)),
            hookFinished: (result) => void hookStatus().then((status) => status.finished(result)),
            notice: (message) => say(`proctor: ${message}\n`),
            checkpointProgress: (progress) => say(`proctor: ${describeSnapshotProgress(progress)}\n`),
        },
    }).finally(async () => (await hooks)?.stop());
    echo?.redacting?.end();
    await printOutcome(outcome, flags.json === true);
    if (outcome.exitCode !== 0)
        throw new CliExit(outcome.exitCode);
}
/**
 * A terminal gets the agent's output as it is (a TUI needs its escapes). Anything else is a log — a CI
 * job, a file: there it is redacted line by line and cannot issue workflow commands.
 */
async function liveOutput() {
    if (process.stdout.isTTY)
        return { sink: process.stdout, redacting: null };
    const [{ RedactingWriter }, { createSanitizer }] = await Promise.all([
        import('./redacting-writer-h6ydoZtO.js'),
        import('./sanitize-sKtkP4Sl.js'),
    ]);
    const secrets = [process.env.GITHUB_TOKEN, process.env.GH_TOKEN, process.env.ACTIONS_RUNTIME_TOKEN];
    const redacting = new RedactingWriter(process.stdout, createSanitizer({ secrets: secrets.filter((s) => !!s) }));
    return { sink: redacting, redacting };
}
async function printOutcome(outcome, json) {
    if (json) {
        process.stdout.write(JSON.stringify(outcome.report, null, 2) + '\n');
        if (outcome.reportError)
            process.stderr.write(`proctor: ${outcome.reportError}\n`);
        return;
    }
    const { renderSessionTerminal } = await import('./terminal-sZ6Clovf.js');
    const color = process.stderr.isTTY === true && !process.env.NO_COLOR;
    process.stderr.write('\n' +
        renderSessionTerminal(outcome.report, {
            color,
            reportPath: outcome.reportError ? undefined : outcome.reportPath,
        }));
    if (outcome.reportError)
        process.stderr.write(`proctor: ${outcome.reportError}\n`);
}
function applyRunFlags(config, flags) {
    const next = structuredClone(config);
    if (flags.timeout !== undefined)
        next.timeouts.total = durationFlag('--timeout', flags.timeout);
    if (flags.idleTimeout !== undefined)
        next.timeouts.idle = durationFlag('--idle-timeout', flags.idleTimeout);
    if (!flags.pty)
        next.agent.pty = false;
    if (!flags.checkpoints)
        next.checkpoints.enabled = false;
    if (!flags.push)
        next.checkpoints.push = 'never';
    return next;
}
function durationFlag(name, value) {
    const ms = parseDuration(value);
    if (typeof ms === 'string')
        throw new CliExit(ExitCode.usage, `proctor run: ${name}: ${ms}`);
    if (ms <= 0)
        throw new CliExit(ExitCode.usage, `proctor run: ${name} must be greater than zero`);
    return ms;
}
/**
 * `--task`, cleaned and capped like a task from a comment (its author: whoever runs proctor), into the
 * command's `{task}` and the PROCTOR_TASK* variables.
 */
async function withTask(command, text) {
    const [{ commandWithTask, taskEnv, TaskError }, { cleanTask }] = await Promise.all([
        import('./task-Dn2G6N_O.js'),
        import('./trigger-9pdwr405.js'),
    ]);
    const author = process.env.USER || process.env.USERNAME || 'local';
    const task = text === undefined
        ? null
        : { text: cleanTask(text), author, authorIsBot: false, url: null, reactTo: null, issueNumber: null };
    try {
        return { command: commandWithTask(command, task), env: taskEnv(task) };
    }
    catch (error) {
        if (!(error instanceof TaskError))
            throw error;
        // The CLI's own wording: here the task comes from --task, not from a comment.
        throw new CliExit(ExitCode.usage, task
            ? `proctor run: ${error.message}`
            : 'proctor run: the agent command contains {task} (the task from a comment in CI): give one with --task "<text>"');
    }
}
/** The command line wins over proctor.yml; exactly one of argv and --shell. */
function chooseCommand(argv, shell, config) {
    if (argv.length > 0 && shell !== undefined) {
        throw new CliExit(ExitCode.usage, 'proctor run: give either a command after -- or --shell, not both');
    }
    if (argv.length > 0)
        return { file: argv[0], args: argv.slice(1) };
    if (shell !== undefined)
        return { shell };
    if (config.agent.command)
        return { file: config.agent.command[0], args: config.agent.command.slice(1) };
    if (config.agent.shell)
        return { shell: config.agent.shell };
    throw new CliExit(ExitCode.usage, 'proctor run: no agent command. Give one after --, e.g. `proctor run -- claude -p "fix the test"`, ' +
        'or --shell "<command>", or set agent.command in proctor.yml');
}

export { CliExit, chooseCommand, registerRunCommand, runCommand };
