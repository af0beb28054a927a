#!/usr/bin/env node
const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);

const module$1 = process.getBuiltinModule("node:module");

// The `proctor` binary: builds the command tree, runs it, and turns outcomes into exit codes
// (README, "Exit codes": 0 ok · 1 failed/blocked · 2 usage/config · 124 timeout · 130 SIGINT · 143 SIGTERM).
// V8's code cache for everything imported from here on (Node ≥ 22.1; a no-op on Node 20): compiling the
// bundle was the largest part of every command's start-up. Node keeps it in its own directory under the
// temp dir (NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off), keyed by each file's
// content, so a rebuilt or upgraded proctor never runs stale code. Hence the imports below are dynamic.
module$1.enableCompileCache?.();
async function main(argv) {
    // `--version` alone answers without commander (half of what `proctor --version` loaded): it is what
    // scripts and the action call to check the install. Anything else goes through the program.
    const args = argv.slice(2);
    if (args.length > 0 && args.every((arg) => arg === '-V' || arg === '--version')) {
        const { PROCTOR_VERSION } = await import('./chunks/version-DsVFAGbT.js');
        process.stdout.write(PROCTOR_VERSION + '\n');
        return 0;
    }
    // `checkpoints create` with its plain options runs without commander (scripts run it once per checkpoint);
    // anything else about it (--help, a typo) goes through the program as before.
    const create = args[0] === 'checkpoints' && args[1] === 'create'
        ? await import('./chunks/checkpoints-create-B5osVHqD.js').then(function (n) { return n.F; })
        : null;
    const plainCreate = create?.plainCreateOptions(args.slice(2)) ?? null;
    const [program, { CliExit, exitCodeOf }, { ConfigError }] = await Promise.all([
        plainCreate ? null : import('./chunks/program-8hjN6rIZ.js').then(function (n) { return n.p; }).then(({ buildProgram }) => buildProgram(argv)),
        import('./chunks/exit-DOW3voEl.js'),
        import('./chunks/errors-C8lIl8iI.js'),
    ]);
    try {
        if (program)
            await program.parseAsync(argv);
        else
            await create.createCheckpoint(plainCreate);
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
