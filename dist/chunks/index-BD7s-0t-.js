import { e as evaluatePolicy, f as forbiddenAreaOf } from './evaluate-DzsLOFbC.js';
export { S as SEVERITIES, a as atLeast, d as dedupeViolations, b as diffSize, c as displayPath, g as evaluateCheckpoint, h as evaluateCheckpointScopes, i as failsPolicyCheck, j as filesToRevert, k as findSymlinkEscape, m as maxSeverity, n as notifiesAgent, s as severityRank, l as shouldRevert } from './evaluate-DzsLOFbC.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, W as WHOLE_DIFF, c as checkPolicyConfig, a as compilePolicy } from './compile-DXGrfsxa.js';
export { P as PolicyConfigError } from './areas-BPhpJk9z.js';
export { policyReasons, typedNotice, warningReasons } from './feedback-DRdsDmwS.js';


import './checkpoints-create-C5yHKgfN.js';
import './errors-lvn-GX78.js';


import './exit-FJ5r--ZY.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-sKtkP4Sl.js';



export { evaluatePolicy, forbiddenAreaOf };
