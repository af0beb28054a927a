const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);

import { l as loadConfig, d as describeSnapshotProgress, p as parseDuration } from './checkpoints-create-B5osVHqD.js';
import { a as agentPresetChoices, f as findAgentPreset } from './index-9-2HI3Zc.js';
import { CliExit, ExitCode } from './exit-DOW3voEl.js';
import { m as makeSessionId, s as startCheckpointReads, a as sanitizeRefPart, r as runSession } from './session-BdoGNdhH.js';
import { H as HookStatus, r as renderSessionTerminal } from './terminal-D_7jEpJ5.js';
import { R as RedactingWriter } from './redacting-writer-BfTJzald.js';
import { c as createSanitizer } from './sanitize-Brl4JXfa.js';

import './errors-C8lIl8iI.js';





import './agent-env-Dhb_8bx5.js';
import './model-D5ZI2RUA.js';

import './process-5Ra-y4fQ.js';
import './random-DhcBF0_o.js';
import './registry-DTm_i4zx.js';


import './detect-DZs00oR3.js';
import './commonjs-helpers-BaR4b9kA.js';


import './lifecycle-DEWclCiw.js';
import './events-5kusAlUH.js';
import './run-hook-CRw8x4Wc.js';
import './stop-hooks-DSMRanIm.js';
import './native-relay-Htgn9cUw.js';

import './feedback-CDDwViaU.js';
import './evaluate-DOzACHlU.js';
import './compile-euSnLuMI.js';
import './restore-BXRntRYM.js';
import './workspace-C3G6qXsn.js';
import './words-B_R93Ce8.js';

function registerRunCommand(program) {
    program
        .command('run')
        .description('run an agent command under supervision (-- <file> [args…] or --shell "<command>")')
        .argument('[command...]', 'the agent command after --, as an argv (never joined)')
        .option('-c, --config <file>', 'config file (default: proctor.yml at the repository root)')
        .option('--agent <preset>', `the agent CLI's preset (${agentPresetChoices().join(', ')}): its detectors, typing and Stop-hook wiring`)
        .option('--shell <command>', 'run the agent through /bin/sh -c instead of an argv')
        .option('--timeout <duration>', 'total timeout, e.g. 30m (overrides timeouts.total)')
        .option('--idle-timeout <duration>', 'stop when the agent prints nothing for this long (overrides timeouts.idle)')
        .option('--no-pty', 'run the agent with pipes instead of a pseudo-terminal')
        .option('--json', 'print the report as JSON instead of the summary')
        .option('--session <id>', 'session id (default: generated; in CI: run id, attempt and job)')
        .option('--no-checkpoints', 'do not record checkpoints')
        .option('--no-push', 'keep checkpoints local')
        .option('-q, --quiet', 'do not echo the agent output')
        .action(async (argv, flags) => {
        if (flags.agent !== undefined && !findAgentPreset(flags.agent)) {
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
        const command = chooseCommand(argv, flags.shell, config);
        const echo = flags.quiet || flags.json || !config.output.passthrough ? null : liveOutput();
        // Stop hooks as they run, on stderr: a live line on a terminal, plain lines in a log.
        const hooks = new HookStatus({
            out: process.stderr,
            color: process.stderr.isTTY === true && !process.env.NO_COLOR,
        });
        const outcome = await runSession({
            config,
            configFile: loaded.file,
            command,
            cwd: process.cwd(),
            sessionId,
            checkpointReads,
            output: echo,
            input: process.stdin.isTTY ? process.stdin : null,
            installSignalHandlers: true,
            listener: {
                hookStarted: (name) => hooks.started(name),
                hookFinished: (result) => hooks.finished(result),
                notice: (message) => void process.stderr.write(`proctor: ${message}\n`),
                checkpointProgress: (progress) => void process.stderr.write(`proctor: ${describeSnapshotProgress(progress)}\n`),
            },
        }).finally(() => hooks.stop());
        if (echo instanceof RedactingWriter)
            echo.end();
        printOutcome(outcome, flags.json === true);
        if (outcome.exitCode !== 0)
            throw new CliExit(outcome.exitCode);
    });
}
/**
 * A terminal gets the agent's output as it is (a TUI needs its escapes). Anything else is a log — a CI
 * job, a file: there it is redacted line by line and cannot issue workflow commands.
 */
function liveOutput() {
    if (process.stdout.isTTY)
        return process.stdout;
    const secrets = [process.env.GITHUB_TOKEN, process.env.GH_TOKEN, process.env.ACTIONS_RUNTIME_TOKEN];
    return new RedactingWriter(process.stdout, createSanitizer({ secrets: secrets.filter((s) => !!s) }));
}
function printOutcome(outcome, json) {
    if (json) {
        process.stdout.write(JSON.stringify(outcome.report, null, 2) + '\n');
        return;
    }
    const color = process.stderr.isTTY === true && !process.env.NO_COLOR;
    process.stderr.write('\n' + renderSessionTerminal(outcome.report, { color, reportPath: outcome.reportPath }));
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

export { chooseCommand, registerRunCommand };
