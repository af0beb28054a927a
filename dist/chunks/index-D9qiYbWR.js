export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, S as SEVERITIES, W as WHOLE_DIFF, a as atLeast, c as checkPolicyConfig, b as compilePolicy, d as dedupeViolations, e as diffSize, f as displayPath, g as evaluateCheckpoint, h as evaluateCheckpointScopes, i as evaluatePolicy, j as failsPolicyCheck, k as filesToRevert, l as findSymlinkEscape, m as forbiddenAreaOf, n as maxSeverity, o as notifiesAgent, s as severityRank, p as shouldRevert, t as testsWeakened } from './evaluate-CXWODBAT.js';
export { P as PolicyConfigError } from './areas-BPhpJk9z.js';
export { p as policyReasons, t as typedNotice, w as warningReasons } from './feedback-CO8PHFfu.js';


import './checkpoints-create-CVR5jQ0L.js';
import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';
