import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { f as forbiddenAreaOf } from './evaluate-D8eBpjCm.js';
export { S as SEVERITIES, a as atLeast, d as dedupeViolations, b as diffSize, c as displayPath, e as evaluateCheckpoint, g as evaluateCheckpointScopes, h as evaluatePolicy, i as failsPolicyCheck, j as filesToRevert, k as findSymlinkEscape, m as maxSeverity, n as notifiesAgent, s as severityRank, l as shouldRevert } from './evaluate-D8eBpjCm.js';
export { C as CONSTRAINTS, D as DEFAULT_SEVERITIES, P as PolicyConfigError, W as WHOLE_DIFF, c as checkPolicyConfig, a as compilePolicy } from './compile-CfUVcr6H.js';
export { p as policyReasons, t as typedNotice, w as warningReasons } from './feedback-BzCuW2uv.js';
import 'node:fs';
import 'node:path';
import './units-B2PFpzl3.js';
import './commonjs-helpers-VjtyuPzv.js';
import './sanitize-tjm4VgWQ.js';



export { forbiddenAreaOf };
