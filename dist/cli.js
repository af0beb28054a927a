#!/usr/bin/env node
const module$1 = process.getBuiltinModule("node:module");

// The `proctor` binary: builds the command tree, runs it, and turns outcomes into exit codes
// (README, "Exit codes": 0 ok · 1 failed/blocked · 2 usage/config · 124 timeout · 130 SIGINT · 143 SIGTERM).
// V8's code cache for everything imported from here on (Node ≥ 22.1; a no-op on Node 20): compiling the
// bundle was the largest part of every command's start-up. Node keeps it in its own directory under the
// temp dir (NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off), keyed by each file's
// content, so a rebuilt or upgraded proctor never runs stale code. Hence the imports below are dynamic.
module$1.enableCompileCache?.();
/** Set when nothing is left to flush: the process exits as soon as main returns. */
let exitNow = false;
/**
 * A closed stdout or stderr (`proctor run … | head -1`, a CI log gone) is not the session's business: the
 * write is dropped and the session still ends with its report, final checkpoint and run record. Without
 * a listener the first EPIPE is an unhandled 'error' event that kills proctor mid-session.
 */
function survivePipeErrors() {
    for (const stream of [process.stdout, process.stderr])
        stream.on('error', () => undefined);
}
async function main(argv) {
    survivePipeErrors();
    if (process.platform === 'win32') {
        const { platformProblem } = await import('./chunks/platform-COTFzkLY.js');
        process.stderr.write(`proctor: ${platformProblem()}\n`);
        return 2;
    }
    // `--version` alone answers without commander (half of what `proctor --version` loaded): it is what
    // scripts and the action call to check the install. Anything else goes through the program.
    const args = argv.slice(2);
    if (args.length > 0 && args.every((arg) => arg === '-V' || arg === '--version')) {
        const { PROCTOR_VERSION } = await import('./chunks/version-Cdk1chOm.js');
        process.stdout.write(PROCTOR_VERSION + '\n');
        return 0;
    }
    // `checkpoints create` (scripts run it once per checkpoint) and `run` (before every agent's spawn) with
    // their plain options run without commander; anything else about them (--help, a typo) goes through the
    // program as before.
    const plain = await plainCommand(args);
    // A plain command takes what it needs to report errors from its own module (which loads them anyway).
    const [program, { CliExit, exitCodeOf }, { ConfigError }] = plain
        ? [null, plain.module, plain.module]
        : await Promise.all([
            import('./chunks/program-BYK52zZ4.js').then(function (n) { return n.p; }).then(({ buildProgram }) => buildProgram(argv)),
            import('./chunks/exit-DPvLwpPv.js'),
            import('./chunks/errors-lvn-GX78.js'),
        ]);
    try {
        if (program)
            await program.parseAsync(argv);
        else {
            await plain.run();
            // A create's output is written (see createCheckpoint) and nothing else went through process.stdout
            // or process.stderr: exit now rather than create both streams only to flush them.
            exitNow = plain.exitNow;
        }
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
        // One line, not a stack trace: what failed is in the message (PROCTOR_DEBUG=1 adds the stack).
        const text = process.env.PROCTOR_DEBUG
            ? (error?.stack ?? String(error))
            : String(error?.message ?? error);
        process.stderr.write(`proctor: ${text}\n`);
        return 1;
    }
}
/** The command `args` name when its arguments are plain enough to run without commander, else null. */
async function plainCommand(args) {
    if (args[0] === 'checkpoints' && args[1] === 'create') {
        const create = await import('./chunks/checkpoints-create-CJcO-Brq.js').then(function (n) { return n.an; });
        const options = create.plainCreateOptions(args.slice(2));
        return options && { run: () => create.createCheckpoint(options), module: create, exitNow: true };
    }
    if (args[0] === 'run') {
        const { plainRunArgs, loadRunCommand } = await import('./chunks/plain-run-DYme1d5N.js');
        const plain = plainRunArgs(args.slice(1));
        if (!plain)
            return null;
        const run = await loadRunCommand();
        return { run: () => run.runCommand(plain.argv, plain.flags), module: run, exitNow: false };
    }
    return null;
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
if (exitNow)
    process.exit(code);
else
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
