const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);

import { f as forbiddenAreaOf } from './evaluate-DOzACHlU.js';
export { S as SEVERITIES, a as atLeast, d as dedupeViolations, b as diffSize, c as displayPath, e as evaluateCheckpoint, g as evaluateCheckpointScopes, h as evaluatePolicy, i as failsPolicyCheck, j as filesToRevert, k as findSymlinkEscape, m as maxSeverity, n as notifiesAgent, s as severityRank, l as shouldRevert } from './evaluate-DOzACHlU.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, P as PolicyConfigError, W as WHOLE_DIFF, c as checkPolicyConfig, a as compilePolicy } from './compile-euSnLuMI.js';
export { p as policyReasons, t as typedNotice, w as warningReasons } from './feedback-CDDwViaU.js';


import './checkpoints-create-B5osVHqD.js';

import './errors-C8lIl8iI.js';


import './exit-DOW3voEl.js';
import './commonjs-helpers-BaR4b9kA.js';
import './sanitize-Brl4JXfa.js';



export { forbiddenAreaOf };
