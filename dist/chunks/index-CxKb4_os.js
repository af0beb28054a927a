import { f as forbiddenAreaOf, e as evaluateCheckpoint, a as evaluatePolicy } from './evaluate-D8ZfCABS.js';
export { S as SEVERITIES, b as atLeast, d as dedupeViolations, c as diffSize, g as displayPath, h as evaluateCheckpointScopes, i as failsPolicyCheck, j as filesToRevert, k as findSymlinkEscape, m as maxSeverity, n as notifiesAgent, s as severityRank, l as shouldRevert } from './evaluate-D8ZfCABS.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, P as PolicyConfigError, W as WHOLE_DIFF, c as checkPolicyConfig, a as compilePolicy } from './compile-BL4acdEU.js';
export { policyReasons, typedNotice, warningReasons } from './feedback-pUdErzIO.js';


import './checkpoints-create-BU9OSQ-n.js';
import './errors-lvn-GX78.js';


import './exit-FJ5r--ZY.js';
import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-CyIpIJ19.js';



export { evaluateCheckpoint, evaluatePolicy, forbiddenAreaOf };
