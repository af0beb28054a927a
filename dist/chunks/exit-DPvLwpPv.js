// How commands end the process: they throw CliExit instead of calling process.exit, so the entry point
// (and tests) decide what exiting means. Exit codes: the README's "The CLI".
const ExitCode = {
    ok: 0,
    /** The agent failed or stop hooks blocked. */
    failed: 1,
    /** Bad usage or a bad config. */
    usage: 2,
    timeout: 124,
    /** The session's model budget was reached (budget in proctor.yml). */
    budget: 3,
    sigint: 130,
    sigterm: 143,
};
class CliExit extends Error {
    exitCode;
    /** `message`, if any, is for stderr; commands print their normal output themselves. */
    constructor(exitCode, message = '') {
        super(message);
        this.name = 'CliExit';
        this.exitCode = exitCode;
    }
}
/** The exit code for an error that ended a command: its own exitCode if it carries one, else 1. */
function exitCodeOf(error) {
    if (error instanceof CliExit)
        return error.exitCode;
    if (typeof error === 'object' && error !== null && 'exitCode' in error) {
        const code = error.exitCode;
        // commander reports usage errors with exitCode 1; the README promises 2 for every usage error.
        const fromCommander = 'code' in error && String(error.code).startsWith('commander.');
        if (typeof code === 'number')
            return fromCommander && code !== 0 ? ExitCode.usage : code;
    }
    return ExitCode.failed;
}

export { CliExit, ExitCode, exitCodeOf };
