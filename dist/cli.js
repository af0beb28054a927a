#!/usr/bin/env node
import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { C as Command } from './chunks/esm-IX5XlnVb.js';
import { P as PROCTOR_VERSION } from './chunks/version-C1xsTAgq.js';
import { C as CliExit, e as exitCodeOf } from './chunks/exit-DOjCgvPp.js';
import { C as ConfigError } from './chunks/errors-MiVcxPMK.js';
import 'node:events';
import 'node:child_process';
import 'node:path';
import 'node:fs';
import 'node:process';

// The `proctor` command tree. Kept apart from main.ts so tests can build the program without exiting.
// Each command's module (and what it imports: the supervisor, git, octokit…) is loaded only when that
// command runs; `--help` and unknown commands load them all to list them.
const COMMANDS = {
    run: async () => (await import('./chunks/run-Cd70gUPx.js')).registerRunCommand,
    check: async () => {
        const [{ registerCheckCommand }, { pushCheckpointsAlong }] = await Promise.all([
            import('./chunks/check-ClYYt26r.js'),
            import('./chunks/push-on-pre-push-CDJm6x5k.js'),
        ]);
        return (program) => registerCheckCommand(program, { pushCheckpoints: pushCheckpointsAlong });
    },
    checkpoints: async () => (await import('./chunks/checkpoints-sAKFIDKg.js')).registerCheckpointsCommand,
    batch: async () => (await import('./chunks/batch-DUCWXa2P.js')).registerBatchCommand,
    hooks: async () => (await import('./chunks/hooks-Cppnydl0.js')).registerHooksCommand,
    hook: async () => (await import('./chunks/hook-DYaMPO2n.js')).registerHookCommand,
    init: async () => (await import('./chunks/init-CzIIi_2b.js')).registerInitCommand,
    config: async () => (await import('./chunks/config-BxIkx3Vi.js')).registerConfigCommand,
    report: async () => (await import('./chunks/report-ihVn61Fw.js')).registerReportCommand,
};
/** The names of every command, in `--help` order. */
const COMMAND_NAMES = Object.keys(COMMANDS);
/**
 * Builds the program for `argv` (process.argv shape): only the command it names is loaded; without one
 * (or with an unknown one, so commander can suggest the right name) every command is.
 */
async function buildProgram(argv = []) {
    const program = new Command()
        .name('proctor')
        .description('Supervise an AI coding-agent session: lifecycle, checkpoints, stop hooks, reports.')
        .version(PROCTOR_VERSION)
        .showHelpAfterError('(run proctor --help for usage)')
        .exitOverride()
        .configureOutput({ writeErr: (text) => process.stderr.write(text) });
    const args = argv.slice(2);
    const named = args.find((arg) => !arg.startsWith('-'));
    const versionOnly = args.length > 0 && args.every((arg) => arg === '-V' || arg === '--version');
    const wanted = versionOnly ? [] : named && named in COMMANDS ? [named] : COMMAND_NAMES;
    const registrars = await Promise.all(wanted.map((name) => COMMANDS[name]()));
    for (const register of registrars)
        register(program);
    // Subcommands inherit exitOverride so usage errors come back as exceptions with exit code 2.
    for (const sub of program.commands)
        sub.exitOverride();
    return program;
}

// The `proctor` binary: builds the command tree, runs it, and turns outcomes into exit codes
// (README, "Exit codes": 0 ok · 1 failed/blocked · 2 usage/config · 124 timeout · 130 SIGINT · 143 SIGTERM).
async function main(argv) {
    const program = await buildProgram(argv);
    try {
        await program.parseAsync(argv);
        return 0;
    }
    catch (error) {
        if (error instanceof CliExit) {
            if (error.message)
                process.stderr.write(error.message.endsWith('\n') ? error.message : error.message + '\n');
            return error.exitCode;
        }
        if (error instanceof ConfigError) {
            process.stderr.write(error.message + '\n');
            return 2;
        }
        const code = exitCodeOf(error);
        // commander already printed its own usage messages (and help/version exit 0).
        if (isCommanderError(error))
            return code;
        process.stderr.write(`proctor: ${error?.stack ?? String(error)}\n`);
        return 1;
    }
}
function isCommanderError(error) {
    return (typeof error === 'object' &&
        error !== null &&
        String(error.code).startsWith('commander.'));
}
const code = await main(process.argv);
// Exit explicitly once stdout and stderr are flushed: a stray handle (a watcher, a stdin listener) must
// never keep a finished CLI alive in CI.
process.exitCode = code;
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
