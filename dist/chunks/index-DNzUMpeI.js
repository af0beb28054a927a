import { t as testsWeakened, e as evaluatePolicy, f as forbiddenAreaOf } from './evaluate-Dq6htf1L.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, S as SEVERITIES, W as WHOLE_DIFF, a as atLeast, c as checkPolicyConfig, b as compilePolicy, d as dedupeViolations, g as diffSize, h as displayPath, i as evaluateCheckpoint, j as evaluateCheckpointScopes, k as failsPolicyCheck, l as filesToRevert, m as findSymlinkEscape, n as maxSeverity, o as notifiesAgent, s as severityRank, p as shouldRevert } from './evaluate-Dq6htf1L.js';
export { P as PolicyConfigError } from './areas-BPhpJk9z.js';
export { policyReasons, typedNotice, warningReasons } from './feedback-ClQWM1SP.js';


import './checkpoints-create-CbqvXtdJ.js';
import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';



export { evaluatePolicy, forbiddenAreaOf, testsWeakened };
