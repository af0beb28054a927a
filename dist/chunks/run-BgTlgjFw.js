const { isatty } = process.getBuiltinModule("node:tty");
import { ad as commanderOptions, b as describeSnapshotProgress, l as loadConfig, p as parseDuration } from './checkpoints-create-CJcO-Brq.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';
export { exitCodeOf } from './exit-DPvLwpPv.js';
import { s as startCheckpointReads, r as runSession } from './session-BRW2EmEt.js';
import { m as makeSessionId, b as sanitizeRefPart } from './git-blockers-Dy_7XOmu.js';
import { u as useColor } from './color-pSqXY3x9.js';
import { RUN_OPTIONS } from './plain-run-DYme1d5N.js';
export { ConfigError } from './errors-lvn-GX78.js';




import './registry-DMAlOnZf.js';
import './payloads-CTBGsIwZ.js';
import './events-C_YfI5y8.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';


import './summary-BBJud0Oe.js';

import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';
import './commonjs-helpers-Bgu_3bK-.js';

import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';

import './feedback-CO8PHFfu.js';

/**
 * The `run` command for commander; `presets` are the agent presets' names (agentPresetChoices), for its
 * help. `action` is what runs it (tests replace it).
 */
function registerRunCommand(program, presets, action = runCommand) {
    const run = program
        .command('run')
        .description('run an agent command under supervision (-- <file> [args…] or --shell "<command>")')
        .argument('[command...]', 'the agent command after --, as an argv (never joined)');
    commanderOptions(run, RUN_OPTIONS, { presets: presets.join(', ') }).action((argv, flags) => action(argv, flags));
}
/** `proctor run`: one session of the agent command (`argv`, else --shell, else proctor.yml's), its report and exit code. */
async function runCommand(argv, flags) {
    if (flags.agent !== undefined) {
        const { agentPresetChoices, findAgentPreset } = await import('./index-DCWxLwDL.js');
        if (!findAgentPreset(flags.agent))
            throw new CliExit(ExitCode.usage, `proctor run: --agent ${flags.agent}: unknown agent preset; choose one of: ${agentPresetChoices().join(', ')}`);
    }
    // The git processes the checkpoints need before the agent starts (its base commit, the repository's
    // machinery) run while the config is read and parsed, rather than after it.
    if (flags.continue !== undefined)
        checkContinueFlags(flags);
    const sessionId = flags.continue || flags.session || makeSessionId();
    const checkpointReads = flags.checkpoints
        ? startCheckpointReads(process.cwd(), sanitizeRefPart(sessionId))
        : null;
    // The runner forks them from its queue, a few microtasks on: let it, before the config is read.
    if (checkpointReads)
        await new Promise((resolve) => setImmediate(resolve));
    const continuing = flags.continue !== undefined ? await previousSession(sanitizeRefPart(sessionId)) : null;
    if (continuing)
        await refuseChangedConfig(flags.config, sessionId);
    const given = argv.length > 0 ? argv : flags.shell !== undefined ? flags.shell.split(/\s+/) : undefined;
    const load = (presetArgv) => loadConfig({ file: flags.config, cwd: process.cwd(), preset: { preset: flags.agent, argv: presetArgv } });
    // A continuation is planned in the mode its session ran in (its adapter says whose session store to ask).
    let loaded = await load(given ?? continuing?.previous.command);
    let config = applyRunFlags(loaded.config, flags);
    // A continuation's command: agent.continue resuming the agent's own session, or a fresh agent whose
    // {task} tells the earlier rounds; the feedback is PROCTOR_TASK either way.
    const resume = continuing ? await continuation(continuing, config, flags, argv) : null;
    if (resume && !given && 'file' in resume.command) {
        // agent.continue is what runs, so it picks the preset's mode: a TUI session goes on as `claude -p …`,
        // with the Stop-hook wiring of print mode rather than the screen rules of the TUI.
        loaded = await load([resume.command.file, ...resume.command.args]);
        config = applyRunFlags(loaded.config, flags);
    }
    for (const warning of loaded.warnings)
        process.stderr.write(`proctor: warning: ${warning}\n`);
    const chosen = resume?.command ?? chooseCommand(argv, flags.shell, config);
    // Loaded only when a task is in play: most runs never touch this code.
    const tasked = flags.task !== undefined || JSON.stringify(chosen).includes('{task}')
        ? await withTask(chosen, resume?.task ?? flags.task)
        : null;
    const command = tasked?.command ?? chosen;
    const echo = flags.quiet || flags.json || !config.output.passthrough ? null : await liveOutput();
    // Stop hooks as they run, on stderr: a live line on a terminal, plain lines in a log. Its code (and the
    // summary's) is loaded when the first hook starts, not before the agent's spawn; until it is, what the
    // session says on stderr waits for it, so the lines keep their order.
    let hooks = null;
    const hookStatus = () => (hooks ??= import('./terminal-Xckl6HZl.js').then(({ HookStatus }) => new HookStatus({
        out: process.stderr,
        color: useColor(process.stderr),
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
        ...(continuing ? { continuing } : {}),
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
        import('./redacting-writer-DmbOT4Cm.js'),
        import('./sanitize-C-XaPVOa.js'),
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
    const { renderSessionTerminal } = await import('./terminal-Xckl6HZl.js');
    const color = useColor(process.stderr);
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
        import('./trigger-BvHsmMSw.js').then(function (n) { return n.a; }),
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
function checkContinueFlags(flags) {
    if (flags.session !== undefined && flags.session !== flags.continue)
        throw new CliExit(ExitCode.usage, 'proctor run: --continue names the session already; leave out --session');
    if (flags.task === undefined || flags.task.trim() === '')
        throw new CliExit(ExitCode.usage, `proctor run: --continue ${flags.continue} needs the feedback for the next round: --task "<what to do next>"`);
    if (!flags.checkpoints)
        throw new CliExit(ExitCode.usage, "proctor run: --continue goes on from the session's checkpoints: leave out --no-checkpoints");
}
/** The session to continue: its report.json (src/session/resume.ts). */
/**
 * A continuation runs on the session's proctor.yml only as HEAD holds it: the agent of the earlier rounds ran
 * as the user and may have rewritten the working tree's copy (pointed model_api.upstream at its own server,
 * dropped a forbidden area). A changed file is the user's to read and commit, or restore, first.
 */
async function refuseChangedConfig(given, sessionId) {
    const [{ configDiffers }, { findConfigFile }, { relative, resolve }] = await Promise.all([
        import('./trusted-DrLCbFJn.js'),
        import('./checkpoints-create-CJcO-Brq.js').then(function (n) { return n.am; }),
        import('node:path'),
    ]);
    const cwd = process.cwd();
    const file = given ? resolve(cwd, given) : (findConfigFile(cwd) ?? resolve(cwd, 'proctor.yml'));
    if (!(await configDiffers(file, 'HEAD', cwd)))
        return;
    const name = relative(cwd, file);
    throw new CliExit(ExitCode.usage, `proctor run: --continue ${sessionId}: ${name} differs from HEAD's, and the agent of the earlier rounds ` +
        `could have changed it: read the change (git diff HEAD -- ${name}), then commit it, or restore it ` +
        `(git checkout HEAD -- ${name}), and continue`);
}
async function previousSession(sessionId) {
    const [{ readContinuing, ResumeError }, { ensureStateDir }] = await Promise.all([
        import('./resume-DcL9gF2f.js'),
        import('./checkpoints-create-CJcO-Brq.js').then(function (n) { return n.al; }),
    ]);
    try {
        return readContinuing(ensureStateDir(process.cwd()).sessions, sessionId);
    }
    catch (error) {
        if (error instanceof ResumeError)
            throw new CliExit(ExitCode.usage, `proctor run: ${error.message}`);
        throw error;
    }
}
/**
 * How a continuation's round starts: agent.continue filled in (the agent's own session resumed, or not),
 * or the command given with `{task}` telling a fresh agent the earlier rounds and the feedback.
 */
async function continuation(continuing, config, flags, argv) {
    const [{ planResume }, { cleanTask }] = await Promise.all([
        import('./resume-DcL9gF2f.js'),
        import('./trigger-BvHsmMSw.js').then(function (n) { return n.a; }),
    ]);
    const feedback = cleanTask(flags.task ?? '');
    const plan = planResume({ config, continuing, feedback, author: null, env: process.env });
    const id = continuing.sessionId;
    process.stderr.write(`proctor: continuing session ${id} at round ${continuing.firstRound}: ${plan.why}\n`);
    if (plan.resumed !== null && plan.command)
        return { command: plan.command, task: feedback };
    // No session to resume: a fresh agent, started with the session's own command when that takes {task}
    // (its flags are the user's), else with agent.continue without the resume.
    const given = argv.length > 0 || flags.shell !== undefined || config.agent.command || config.agent.shell
        ? chooseCommand(argv, flags.shell, config)
        : null;
    if (given && JSON.stringify(given).includes('{task}'))
        return { command: given, task: plan.freshTask };
    if (plan.command)
        return { command: plan.command, task: feedback };
    throw new CliExit(ExitCode.usage, `proctor run: cannot continue session ${id}: ${plan.why}, but the agent command has no {task} to tell it: ` +
        'set agent.continue (an agent preset has one), or put {task} where the command takes its prompt');
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
