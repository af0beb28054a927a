import { PROCTOR_VERSION } from './chunks/version-Cdk1chOm.js';

// Entry of the action's main step (action.yml `main: dist/index.js`). The first log line comes before
// the session, octokit and the artifact client are loaded, so the log shows at once that proctor started.
process.stdout.write(`proctor ${PROCTOR_VERSION}: starting\n`);
const { main } = await import('./chunks/run-wVV6QSLK.js');
const code = await main();
process.exitCode = code;
// Exit once output is flushed: a stray handle must never keep the step running.
process.stdout.write('', () => process.exit(code));
