import { P as PolicyConfigError, c as compileAreas } from './areas-BPhpJk9z.js';

/** The names of the constraints: used as keys of `policy.severities` and in every report. */
const CONSTRAINTS = [
    'forbidden_area',
    'protected_area',
    'outside_allowed',
    'symlink_escape',
    'new_executable',
    'file_size',
    'diff_size',
    'unsafe_path',
    'git_tamper',
];
/**
 * Constraints whose default is not policy.violation_severity: a path that can forge log lines and a
 * change to the repository's own machinery (hooks, config) are never mere warnings unless the user says so.
 */
const DEFAULT_SEVERITIES = {
    unsafe_path: 'error',
    git_tamper: 'critical',
};
/** `file` of a violation that concerns the whole diff rather than one file (diff_size). */
const WHOLE_DIFF = '';
const MODE_EXECUTABLE = '100755';
const MODE_SYMLINK = '120000';

// A policy compiled once (globs → matchers) and reused for every diff of a session.
const cache = new WeakMap();
/** Throws PolicyConfigError naming the offending key when a pattern or severity key is unusable. */
function compilePolicy(config) {
    const cached = cache.get(config);
    if (cached)
        return cached;
    for (const key of Object.keys(config.severities)) {
        if (!CONSTRAINTS.includes(key)) {
            const hint = closest(key, CONSTRAINTS);
            throw new PolicyConfigError(`severities.${key}`, `unknown constraint${hint ? ` (did you mean "${hint}"?)` : ''}; known constraints: ${CONSTRAINTS.join(', ')}`);
        }
    }
    const compiled = {
        config,
        allowed: compileAreas('allowed_areas', config.allowed_areas),
        forbidden: compileAreas('forbidden_areas', config.forbidden_areas),
        protected: compileAreas('protected_areas', config.protected_areas),
        severityOf: (constraint) => config.severities[constraint] ?? DEFAULT_SEVERITIES[constraint] ?? config.violation_severity,
    };
    cache.set(config, compiled);
    return compiled;
}
/**
 * Problems with a policy for `proctor config validate` and the loader: errors make the policy
 * unusable; warnings describe settings that will not do what they seem to.
 */
function checkPolicyConfig(config) {
    const errors = [];
    const warnings = [];
    try {
        compilePolicy(config);
    }
    catch (error) {
        if (!(error instanceof PolicyConfigError))
            throw error;
        errors.push(error.message);
    }
    if (config.revert_on_violation) {
        // git_tamper is undone by policy.git_tamper, not by revert_on_violation: it does not count here.
        const anyCritical = CONSTRAINTS.some((c) => c !== 'git_tamper' &&
            (config.severities[c] ?? DEFAULT_SEVERITIES[c] ?? config.violation_severity) === 'critical');
        if (!anyCritical) {
            warnings.push('policy.revert_on_violation is true but no constraint has severity critical, so nothing will be reverted; ' +
                'set policy.violation_severity: critical or policy.severities.<constraint>: critical');
        }
    }
    for (const [a, b] of [
        ['allowed_areas', 'forbidden_areas'],
        ['allowed_areas', 'protected_areas'],
    ]) {
        for (const pattern of config[a]) {
            if (config[b].includes(pattern)) {
                warnings.push(`policy: "${pattern}" is in both policy.${a} and policy.${b}; the ${b} rule applies`);
            }
        }
    }
    return { errors, warnings };
}
function closest(word, candidates) {
    let best = null;
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const d = editDistance(word.toLowerCase(), candidate);
        if (d < bestDistance)
            [best, bestDistance] = [candidate, d];
    }
    return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}
function editDistance(a, b) {
    let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        for (let j = 1; j <= b.length; j++) {
            current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        previous = current;
    }
    return previous[b.length];
}

var compile = /*#__PURE__*/Object.freeze({
    __proto__: null,
    checkPolicyConfig: checkPolicyConfig,
    compilePolicy: compilePolicy
});

export { CONSTRAINTS as C, DEFAULT_SEVERITIES as D, MODE_SYMLINK as M, WHOLE_DIFF as W, compilePolicy as a, MODE_EXECUTABLE as b, checkPolicyConfig as c, compile as d };
