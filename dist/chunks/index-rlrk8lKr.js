import { c as compilePolicy, b as testFileMatchers } from './evaluate-DoW4VY95.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, S as SEVERITIES, W as WHOLE_DIFF, a as atLeast, d as checkPolicyConfig, g as dedupeViolations, h as diffSize, i as displayPath, j as evaluateCheckpoint, k as evaluateCheckpointScopes, e as evaluatePolicy, f as failsPolicyCheck, l as filesToRevert, m as findSymlinkEscape, n as forbiddenAreaOf, o as maxSeverity, p as notifiesAgent, s as severityRank, q as shouldRevert, t as testsWeakened } from './evaluate-DoW4VY95.js';
export { P as PolicyConfigError } from './areas-BPhpJk9z.js';
export { p as policyReasons, t as typedNotice, w as warningReasons } from './feedback-CO8PHFfu.js';


import './checkpoints-create-CJcO-Brq.js';
import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';

// What judging a checkpoint compiles once per policy (the rules' globs, the test-file matchers of every
// language), done while the agent works so the checkpoint at its exit does not wait for it. A regular
// expression is compiled at its first uses, not when it is made: a few paths through every matcher do that
// (together ~20 ms that were in the wait after the agent's exit).
function prepareJudge(policy) {
    if (prepared.has(policy))
        return;
    compilePolicy(policy);
    for (const { areas } of testFileMatchers(policy))
        if (!areas.empty)
            for (const path of WARM_PATHS)
                areas.match(path);
    prepared.add(policy);
}
/** The policies already prepared: a store asks before each checkpoint (workspace.ts). */
const prepared = new WeakSet();
/** A few paths that go through every pattern (a regular expression is compiled natively at its second use). */
const WARM_PATHS = ['src/warm/a.ts', 'lib/warm/b.py', 'c'];

export { compilePolicy, prepareJudge };
