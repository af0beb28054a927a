import { f as forbiddenAreaOf } from './evaluate-CXUFhIgI.js';
export { S as SEVERITIES, a as atLeast, d as dedupeViolations, b as diffSize, c as displayPath, e as evaluateCheckpoint, g as evaluateCheckpointScopes, h as evaluatePolicy, i as failsPolicyCheck, j as filesToRevert, k as findSymlinkEscape, m as maxSeverity, n as notifiesAgent, s as severityRank, l as shouldRevert } from './evaluate-CXUFhIgI.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, P as PolicyConfigError, W as WHOLE_DIFF, c as checkPolicyConfig, a as compilePolicy } from './compile-BL4acdEU.js';
export { p as policyReasons, t as typedNotice, w as warningReasons } from './feedback-Da_7vpu2.js';


import './checkpoints-create-DTLz9lEm.js';
import './errors-C9uJUld7.js';


import './exit-FJ5r--ZY.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-uyCYM5tR.js';



export { forbiddenAreaOf };
