import { PROCTOR_VERSION } from './chunks/version-Cdk1chOm.js';

// Entry of the action's main step (action.yml `main: dist/index.js`). The first log line comes before
// the session, octokit and the artifact client are loaded, so the log shows at once that proctor started.
process.stdout.write(`proctor ${PROCTOR_VERSION}: starting\n`);
const code = await start();
process.exitCode = code;
// Exit once output is flushed: a stray handle must never keep the step running.
process.stdout.write('', () => process.exit(code));
/**
 * The one error path of the step: a bad environment is exit 2, anything unforeseen exit 1, each one
 * `::error::` line naming what failed (PROCTOR_DEBUG=1 adds the stack), never an unhandled stack trace.
 */
async function start() {
    const [{ eventPayloadProblem }, core, { platformProblem }] = await Promise.all([
        import('./chunks/context-D-q0CQle.js'),
        import('./chunks/core-BQDBS6n7.js').then(function (n) { return n.h; }),
        import('./chunks/platform-COTFzkLY.js'),
    ]);
    const unsupported = platformProblem();
    if (unsupported !== null) {
        core.error(`proctor: ${unsupported}`);
        return 2;
    }
    // Before modes.js loads @actions/github, which parses the payload at import and throws a SyntaxError.
    const problem = eventPayloadProblem();
    if (problem !== null) {
        core.error(`proctor: ${problem}`);
        return 2;
    }
    try {
        const { main } = await import('./chunks/modes-MowfjoQx.js');
        return await main();
    }
    catch (error) {
        const text = process.env.PROCTOR_DEBUG
            ? (error?.stack ?? String(error))
            : String(error?.message ?? error);
        core.error(`proctor: ${text}`);
        return 1;
    }
}
