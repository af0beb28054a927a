// The policy's public surface: evaluate diffs, interpret severities, validate the config.
export {
  evaluatePolicy,
  evaluateCheckpoint,
  evaluateCheckpointScopes,
  forbiddenAreaOf,
  displayPath,
  dedupeViolations,
  diffSize,
  type PolicyInput,
} from './evaluate.js'
export {
  SEVERITIES,
  severityRank,
  atLeast,
  maxSeverity,
  notifiesAgent,
  failsPolicyCheck,
  shouldRevert,
  filesToRevert,
} from './severity.js'
export { compilePolicy, checkPolicyConfig, type CompiledPolicy } from './compile.js'
export { PolicyConfigError } from './areas.js'
export { findSymlinkEscape, type SymlinkEscape } from './symlink.js'
export {
  CONSTRAINTS,
  DEFAULT_SEVERITIES,
  WHOLE_DIFF,
  type Constraint,
  type ChangedFile,
  type PolicyConfig,
} from './types.js'
export { policyReasons, warningReasons, typedNotice } from './feedback.js'
export { testsWeakened } from './tests-weakened/index.js'
export { prepareJudge } from './prepare.js'
