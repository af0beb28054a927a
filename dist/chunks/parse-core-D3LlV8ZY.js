import { d as distExports } from './yaml-DFf8_hI8.js';
import { d as describeValue, s as schemaAt, a as allowedKeys, b as describeExpected, k as keyPaths, c as configSchema } from './schema-walk-D3lJz5DZ.js';
import { requiredCheck, ConfigError, formatIssue, formatPath } from './errors-lvn-GX78.js';


import './checkpoints-create-CJcO-Brq.js';




import './exit-DPvLwpPv.js';
import './events-C_YfI5y8.js';
import './zod-Cpfq4OjR.js';

// Maps a key path in the parsed config back to a line and column in the YAML source.
const START = { line: 1, col: 1 };
/**
 * Where `path` is written. With `atKey`, the key itself (an unknown key is a problem of the key, not of
 * its value); for a path that does not exist (a missing key), the nearest enclosing node that does.
 */
function positionOf(doc, lineCounter, path, atKey = false) {
    const at = (offset) => lineCounter.linePos(offset);
    if (atKey && path.length > 0) {
        const parent = nodeAt(doc, path.slice(0, -1));
        const key = String(path[path.length - 1]);
        if (distExports.isMap(parent)) {
            const pair = parent.items.find((item) => distExports.isScalar(item.key) && String(item.key.value) === key);
            if (distExports.isNode(pair?.key) && pair.key.range)
                return at(pair.key.range[0]);
        }
    }
    for (let length = path.length; length >= 0; length--) {
        const node = nodeAt(doc, path.slice(0, length));
        if (distExports.isNode(node) && node.range)
            return at(node.range[0]);
    }
    return START;
}
function nodeAt(doc, path) {
    if (path.length === 0)
        return doc.contents;
    return doc.getIn(path, true);
}

// "Did you mean" for misspelled keys and enum values.
/** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("stpo" → "stop" is 1). */
function editDistance(a, b) {
    const rows = a.length + 1;
    const cols = b.length + 1;
    const d = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i < rows; i++) {
        for (let j = 1; j < cols; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                best = Math.min(best, d[i - 2][j - 2] + 1);
            d[i][j] = best;
        }
    }
    return d[a.length][b.length];
}
// Case and "-" vs "_" are the most common slips (max-stop-rounds, Timeout), so they cost nothing.
const normalize = (word) => word.toLowerCase().replace(/-/g, '_');
/** The closest candidate, if it is close enough to be a plausible typo of `word`. */
function closest(word, candidates) {
    const target = normalize(word);
    let best;
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const distance = editDistance(target, normalize(candidate));
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    const allowed = Math.max(1, Math.floor(target.length / 3));
    return bestDistance <= allowed ? best : undefined;
}

// Words YAML 1.1 (and many habits) treat as booleans; YAML 1.2, which proctor reads, keeps them strings.
const YAML11_BOOLEANS = /^(y|yes|n|no|on|off)$/i;
function valueAt(root, path) {
    let current = root;
    for (const key of path) {
        if (typeof current !== 'object' || current === null)
            return undefined;
        current = current[key];
    }
    return current;
}
function problemsFromZod(issues, raw, root) {
    return issues.flatMap((issue) => problemsFromIssue(issue, raw, root));
}
function problemsFromIssue(issue, raw, root) {
    const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
    const value = valueAt(raw, path);
    const expected = () => {
        const schema = schemaAt(root, path);
        return schema ? describeExpected(schema) : 'something else';
    };
    switch (issue.code) {
        case 'unrecognized_keys': {
            const schema = schemaAt(root, path);
            const allowed = schema ? allowedKeys(schema) : [];
            return issue.keys.map((key) => {
                const guess = closest(key, allowed);
                const elsewhere = guess ? undefined : keyElsewhere(root, key);
                let hint;
                if (guess)
                    hint = `did you mean "${guess}"?`;
                else if (elsewhere)
                    hint = `"${key}" belongs under ${elsewhere}`;
                else if (allowed.length > 0)
                    hint = `allowed keys: ${allowed.join(', ')}`;
                return { path: [...path, key], message: `unknown key "${key}"`, hint, atKey: true };
            });
        }
        case 'invalid_union': {
            // A branch whose problems all lie deeper (e.g. a list whose items are wrong) matched the shape,
            // so its own problems say more than "expected a list of strings or a string".
            const deeper = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
            if (value !== undefined && deeper) {
                return deeper.flatMap((inner) => problemsFromIssue({ ...inner, path: [...path, ...inner.path] }, raw, root));
            }
            return [typeMismatch(path, value, expected())];
        }
        case 'invalid_type':
            if (issue.expected === 'boolean' && typeof value === 'string' && YAML11_BOOLEANS.test(value)) {
                return [
                    {
                        ...typeMismatch(path, value, expected()),
                        hint: `YAML 1.2 reads ${value} as a string; write true or false`,
                    },
                ];
            }
            return [typeMismatch(path, value, expected())];
        case 'invalid_value': {
            const allowed = issue.values.map(String);
            const guess = typeof value === 'string' ? closest(value, allowed) : undefined;
            return [
                {
                    path,
                    message: `expected one of ${allowed.join(', ')}, got ${describeValue(value)}`,
                    hint: guess ? `did you mean "${guess}"?` : undefined,
                },
            ];
        }
        case 'too_small':
            return [{ path, message: tooSmall(issue, value) }];
        case 'too_big':
            return [{ path, message: tooBig(issue, value) }];
        case 'invalid_format':
            return [invalidFormat(path, issue, value)];
        case 'invalid_key':
            return [{ path, message: `invalid key: ${issue.message}` }];
        default:
            return [{ path, message: issue.message }];
    }
}
/** A key written at the wrong level (`interval:` at the top instead of under `checkpoints:`). */
function keyElsewhere(root, key) {
    const homes = keyPaths(root)
        .filter((path) => path.split('.').pop() === key)
        .map((path) => path.slice(0, -key.length - 1));
    return homes.length > 0 ? homes.join(', ') : undefined;
}
function typeMismatch(path, value, expected) {
    if (value === undefined && path.length > 0) {
        return {
            path,
            message: `missing required key "${String(path[path.length - 1])}"`,
            hint: `expected ${expected}`,
        };
    }
    return { path, message: `expected ${expected}, got ${describeValue(value)}` };
}
function tooSmall(issue, value) {
    const min = Number(issue.minimum);
    if (issue.origin === 'string')
        return min === 1 ? 'must not be empty' : `must be at least ${min} characters long`;
    if (issue.origin === 'array' || issue.origin === 'set')
        return min === 1 ? 'must not be empty' : `needs at least ${min} items`;
    return `must be at least ${min}, got ${String(value)}`;
}
function tooBig(issue, value) {
    const max = Number(issue.maximum);
    if (issue.origin === 'string')
        return `must be at most ${max} characters long`;
    if (issue.origin === 'array' || issue.origin === 'set')
        return `must have at most ${max} items`;
    return `must be at most ${max}, got ${String(value)}`;
}
function invalidFormat(path, issue, value) {
    const written = JSON.stringify(value);
    if (path[path.length - 1] === 'flags') {
        return {
            path,
            message: `${written} are not valid regular expression flags`,
            hint: 'use only i, m, s and u',
        };
    }
    if (issue.message.startsWith('Invalid string')) {
        const pattern = 'pattern' in issue ? ` ${String(issue.pattern)}` : '';
        return { path, message: `${written} does not match the expected format${pattern}` };
    }
    return { path, message: `${written} is not valid: ${issue.message}` };
}

/** Events whose hooks must finish before proctor can decide, so they can never run async. */
const ANSWERED_EVENTS = ['stop'];
const isObject$1 = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSet = (value) => value !== undefined && value !== null;
/** `unsafeRegex` (regex-safety.ts, with safe-regex2) is needed only when the file has detect rules. */
function crossCheck(raw, unsafeRegex) {
    if (!isObject$1(raw))
        return [];
    return [
        ...checkAgent(raw),
        ...checkBatch(raw),
        ...checkStopHookNames(raw),
        ...checkAnsweredHooks(raw),
        ...checkRegexes(raw, unsafeRegex),
    ];
}
const LIMITS = ['usd', 'tokens', 'requests'];
/**
 * The metering proxy needs its API, and a budget needs the proxy: refused here, at the line, like any other
 * mistake in the file, not at the start of a session. `merged` is the file over its agent preset (the
 * presets turn the proxy on and name the API).
 */
function checkModelApi(merged) {
    if (!isObject$1(merged))
        return [];
    const api = isObject$1(merged.model_api) ? merged.model_api : {};
    if (api.proxy === true && !isSet(api.api))
        return [
            {
                path: ['model_api', 'proxy'],
                atKey: true,
                message: 'model_api.proxy needs model_api.api',
                hint: 'add api: anthropic, openai or gemini under model_api (the agent presets set it)',
            },
        ];
    const budget = merged.budget;
    const limited = (b) => isObject$1(b) && LIMITS.some((key) => isSet(b[key]));
    if (!isObject$1(budget) || (!limited(budget) && !limited(budget.batch)) || api.proxy === true)
        return [];
    return [
        {
            path: ['budget'],
            atKey: true,
            message: 'a budget needs the metering proxy, which is off',
            hint: 'add model_api: { proxy: true, api: anthropic | openai | gemini } (or use an agent preset), or remove the budget',
        },
    ];
}
function checkAgent(raw) {
    const agent = raw.agent;
    if (!isObject$1(agent) || !isSet(agent.command) || !isSet(agent.shell))
        return [];
    return [
        {
            path: ['agent', 'shell'],
            atKey: true,
            message: 'agent.command and agent.shell cannot both be set',
            hint: 'keep command (an argv list, run directly) or shell (a string run by /bin/sh -c)',
        },
    ];
}
function checkBatch(raw) {
    const tasks = isObject$1(raw.batch) ? raw.batch.tasks : undefined;
    if (!Array.isArray(tasks))
        return [];
    return tasks.flatMap((task, index) => {
        if (!isObject$1(task))
            return [];
        const path = ['batch', 'tasks', index];
        if (isSet(task.command) && isSet(task.shell)) {
            return [
                {
                    path: [...path, 'shell'],
                    atKey: true,
                    message: 'a batch task cannot have both command and shell',
                    hint: 'keep command (an argv list) or shell (a string run by /bin/sh -c)',
                },
            ];
        }
        if (!isSet(task.command) && !isSet(task.shell)) {
            return [
                {
                    path,
                    message: 'a batch task needs a command or a shell',
                    hint: 'add command: [file, args…] or shell: "…"',
                },
            ];
        }
        return [];
    });
}
function checkStopHookNames(raw) {
    if (!Array.isArray(raw.stop_hooks))
        return [];
    const firstIndex = new Map();
    const problems = [];
    raw.stop_hooks.forEach((hook, index) => {
        if (isObject$1(hook))
            problems.push(...checkStopHookKind(hook, index), ...checkCiChecksPush(raw, hook, index));
        if (!isObject$1(hook) || typeof hook.name !== 'string')
            return;
        if (hook.name === 'policy') {
            problems.push({
                path: ['stop_hooks', index, 'name'],
                message: `the stop hook name "policy" is reserved for proctor's policy gate`,
                hint: 'its check run "proctor / policy" reports the policy; give this hook another name',
            });
            return;
        }
        const first = firstIndex.get(hook.name);
        if (first === undefined) {
            firstIndex.set(hook.name, index);
            return;
        }
        problems.push({
            path: ['stop_hooks', index, 'name'],
            message: `duplicate stop hook name "${hook.name}" (also stop_hooks[${first}])`,
            hint: 'each stop hook is reported as the check "proctor / <name>", so names must be unique',
        });
    });
    return problems;
}
/** A stop hook runs a command or a built-in (`uses`), exactly one; `with` only configures a built-in. */
function checkStopHookKind(hook, index) {
    if (hook.command !== undefined && hook.uses !== undefined)
        return [
            {
                path: ['stop_hooks', index, 'uses'],
                message: 'a stop hook has either a command or uses, not both',
                hint: 'remove command (uses: ci-checks is the whole hook) or uses',
            },
        ];
    if (hook.command === undefined && hook.uses === undefined)
        return [
            {
                path: ['stop_hooks', index],
                message: 'a stop hook needs a command (or uses: ci-checks)',
                hint: 'add command: "npm test" or uses: ci-checks',
            },
        ];
    if (hook.with !== undefined && hook.uses === undefined)
        return [
            {
                path: ['stop_hooks', index, 'with'],
                message: 'with configures a built-in hook, and this hook has no uses',
                hint: 'add uses: ci-checks, or remove with',
            },
        ];
    return [];
}
/** `uses: ci-checks` pushes the checkpoint CI runs on: a config that never pushes one can never pass it. */
function checkCiChecksPush(raw, hook, index) {
    if (hook.uses !== 'ci-checks')
        return [];
    const checkpoints = isObject$1(raw.checkpoints) ? raw.checkpoints : {};
    const off = checkpoints.enabled === false
        ? 'checkpoints.enabled is false'
        : checkpoints.push === 'never'
            ? 'checkpoints.push is never'
            : null;
    if (!off)
        return [];
    return [
        {
            path: ['stop_hooks', index, 'uses'],
            message: `ci-checks pushes the checkpoint for CI to run on, and ${off}`,
            hint: 'set checkpoints.push to auto or always (and checkpoints.enabled to true), or remove this hook',
        },
    ];
}
function checkAnsweredHooks(raw) {
    if (!isObject$1(raw.hooks))
        return [];
    const hooks = raw.hooks;
    return ANSWERED_EVENTS.flatMap((event) => {
        const entries = hooks[event];
        if (!Array.isArray(entries))
            return [];
        return entries.flatMap((entry, index) => isObject$1(entry) && entry.async === true
            ? [
                {
                    path: ['hooks', event, index, 'async'],
                    message: `the ${event} event needs an answer, so it cannot run async; remove async or move the hook to session_end`,
                },
            ]
            : []);
    });
}
function checkRegexes(raw, unsafeRegex) {
    if (!Array.isArray(raw.detect) || raw.detect.length === 0)
        return [];
    const unsafe = requiredCheck(unsafeRegex, 'catastrophicRegex');
    return raw.detect.flatMap((rule, index) => {
        if (!isObject$1(rule) || typeof rule.match !== 'string' || rule.match === '')
            return [];
        // Invalid flags are reported by the schema; check the pattern with the flags only when they are valid.
        const flags = typeof rule.flags === 'string' && /^[imsu]*$/.test(rule.flags) ? rule.flags : '';
        try {
            new RegExp(rule.match, flags);
            const problem = unsafe(rule.match, flags);
            return problem ? [{ path: ['detect', index, 'match'], ...problem }] : [];
        }
        catch (error) {
            const reason = error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
            return [
                {
                    path: ['detect', index, 'match'],
                    message: `${JSON.stringify(rule.match)} is not a valid regular expression: ${reason}`,
                    hint: 'escape special characters such as ( [ { ? * + with a backslash',
                },
            ];
        }
    });
}

function semanticProblems(config, checks) {
    const problems = [];
    const names = new Map();
    config.detect.forEach((rule, index) => {
        const first = names.get(rule.name);
        if (first !== undefined) {
            problems.push({
                path: ['detect', index, 'name'],
                message: `duplicate detect rule name "${rule.name}" (also detect[${first}])`,
                hint: 'give each rule its own name: events and responses are recorded by rule name',
            });
            return;
        }
        names.set(rule.name, index);
        const compileRule = requiredCheck(checks.compileRule, 'compileRule');
        const DetectRuleError = requiredCheck(checks.DetectRuleError, 'DetectRuleError');
        try {
            compileRule(rule);
        }
        catch (error) {
            if (!(error instanceof DetectRuleError))
                throw error;
            problems.push({ path: ['detect', index], message: error.message.replace(/^detect rule "[^"]*": /, '') });
        }
    });
    // The branch template is checked by the code that pushes, with a sample session id: `config validate`
    // must reject what `run` would (exit 2, with the line), not let it fail at the first push.
    const template = branchTemplateProblems(config.checkpoints.branch);
    problems.push(...template.problems);
    if (checks.remoteBranchFor && template.problems.length === 0) {
        try {
            checks.remoteBranchFor(config.checkpoints.branch, 'sample-session-1');
        }
        catch (error) {
            problems.push({
                path: ['checkpoints', 'branch'],
                message: error.message.replace(/^checkpoints\.branch /, ''),
            });
        }
    }
    // A hook's gate_files are the policy's globs: compiled the same way, rejected the same way.
    config.stop_hooks.forEach((hook, index) => {
        if (!hook.gate_files)
            return;
        const compileAreas = requiredCheck(checks.compileAreas, 'compileAreas');
        try {
            compileAreas('gate_files', hook.gate_files, `stop_hooks[${index}]`);
        }
        catch (error) {
            if (error.name !== 'PolicyConfigError')
                throw error;
            const m = /^stop_hooks\[\d+\]\.gate_files\[(\d+)\]: ([\s\S]*)$/.exec(error.message);
            problems.push({
                path: m ? ['stop_hooks', index, 'gate_files', Number(m[1])] : ['stop_hooks', index, 'gate_files'],
                message: m ? m[2] : error.message.replace(/^stop_hooks\[\d+\]\.gate_files: /, ''),
            });
        }
    });
    const policy = checks.checkPolicyConfig?.(config.policy) ?? { errors: [], warnings: [] };
    for (const message of policy.errors)
        problems.push(policyProblem(message));
    return {
        problems,
        warnings: [...template.warnings, ...policy.warnings.map((message) => ({ path: ['policy'], message }))],
    };
}
const BRANCH_PLACEHOLDERS = ['session'];
/**
 * `{sesion}` is a typo, not part of a branch name: left in, every session would push to the same branch.
 * A template without `{session}` does that on purpose or by mistake: a warning.
 */
function branchTemplateProblems(branch) {
    const path = ['checkpoints', 'branch'];
    const problems = [];
    for (const [written, name] of branch.matchAll(/\{([^{}]*)\}/g)) {
        if (BRANCH_PLACEHOLDERS.includes(name))
            continue;
        const near = closest(name, BRANCH_PLACEHOLDERS);
        problems.push({
            path,
            message: `unknown placeholder ${written} in ${JSON.stringify(branch)}`,
            hint: near
                ? `did you mean {${near}}?`
                : `the only placeholder is {session} (the session id); a literal "{" cannot be in a branch name`,
        });
    }
    const warnings = problems.length === 0 && !branch.includes('{session}')
        ? [
            {
                path,
                message: `${JSON.stringify(branch)} has no {session}: every session pushes its checkpoints to the same branch`,
            },
        ]
        : [];
    return { problems, warnings };
}
/** The policy compiler names the key in its message ("policy.forbidden_areas[0]: …"): point at that key. */
function policyProblem(message) {
    // policy.forbidden_areas[1], policy.severities.x, policy.tests.python[0]
    const m = /^policy\.(\w+)(?:\.(\w+))?(?:\[(\d+)\])?: ([\s\S]*)$/.exec(message);
    if (!m)
        return { path: ['policy'], message };
    const path = ['policy', m[1]];
    if (m[2] !== undefined)
        path.push(m[2]);
    if (m[3] !== undefined)
        path.push(Number(m[3]));
    return { path, message: m[4] };
}

// proctor.yml text → validated Config, or a ConfigError listing every problem with file:line:col. The
// checks that need code beyond yaml and zod (the detector, the policy compiler, the agent presets, the
// branch names) are handed in, so that loadConfig loads only those a file uses (see neededChecks):
// the detector alone is ~5 ms of a fresh process's CPU, which `proctor checkpoints create` never needs.
const ASYNC_POOL_RANGE = { min: 1, max: 100 };
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Which checks a file's parsed YAML needs: a key that is not written takes its default, checked already. */
function neededChecks(raw, preset = {}) {
    const file = isObject(raw) ? raw : {};
    const chosen = preset.preset !== undefined || (isObject(file.agent) && file.agent.preset !== undefined);
    return {
        preset: chosen,
        detect: chosen || (Array.isArray(file.detect) && file.detect.length > 0),
        policy: chosen || file.policy !== undefined,
        branch: chosen || (isObject(file.checkpoints) && file.checkpoints.branch !== undefined),
        gateFiles: chosen ||
            (Array.isArray(file.stop_hooks) &&
                file.stop_hooks.some((h) => isObject(h) && h.gate_files !== undefined)),
    };
}
/** The YAML step: throws ConfigError for YAML that does not parse (with the line and column). */
function readConfig(text, fileName) {
    const lineCounter = new distExports.LineCounter();
    const doc = distExports.parseDocument(text, { lineCounter, uniqueKeys: true, strict: true, prettyErrors: true });
    const issueAt = issuesAt(lineCounter, fileName);
    if (doc.errors.length > 0) {
        throw new ConfigError(doc.errors.map((error) => yamlIssue(error, text, issueAt)));
    }
    let raw;
    try {
        raw = doc.toJS() ?? {}; // an empty file (or only comments) means "all defaults"
    }
    catch (error) {
        throw new ConfigError([issueAt(0, `invalid YAML: ${error.message}`)]);
    }
    return { fileName, doc, lineCounter, raw };
}
/** The validation step: the preset beneath the file, the schema, then the checks that need proctor's code. */
function validateConfig(read, checks, preset = {}) {
    const { fileName, doc, lineCounter, raw } = read;
    const issueAt = issuesAt(lineCounter, fileName);
    const needed = neededChecks(raw, preset);
    let withPreset = raw;
    if (needed.preset) {
        try {
            withPreset = requiredCheck(checks.applyAgentPreset, 'applyAgentPreset')(raw, preset);
        }
        catch (error) {
            throw new ConfigError([issueAt(0, error.message)]);
        }
    }
    // Problems are located in the user's file; the preset's own values are valid by construction (tested).
    const result = configSchema.safeParse(withPreset);
    const problems = [
        ...(result.success ? [] : problemsFromZod(result.error.issues, raw, configSchema)),
        ...crossCheck(raw, needed.detect ? requiredCheck(checks.catastrophicRegex, 'catastrophicRegex') : undefined),
        ...checkModelApi(withPreset),
    ];
    const issues = problems.map((problem) => locate(problem, doc, lineCounter, fileName));
    if (issues.length > 0 || !result.success)
        throw new ConfigError(sortAndDedupe(issues));
    const warnings = doc.warnings.map((warning) => formatIssue(issueAt(warning.pos[0], stripPosition(warning.message))));
    const config = result.data;
    // Only the checks the file asked for run, in every caller alike: what it did not write is a default.
    const semantic = semanticProblems(config, {
        compileRule: needed.detect ? requiredCheck(checks.compileRule, 'compileRule') : undefined,
        DetectRuleError: needed.detect ? requiredCheck(checks.DetectRuleError, 'DetectRuleError') : undefined,
        checkPolicyConfig: needed.policy
            ? requiredCheck(checks.checkPolicyConfig, 'checkPolicyConfig')
            : undefined,
        remoteBranchFor: needed.branch ? requiredCheck(checks.remoteBranchFor, 'remoteBranchFor') : undefined,
        compileAreas: needed.gateFiles ? requiredCheck(checks.compileAreas, 'compileAreas') : undefined,
    });
    if (semantic.problems.length > 0) {
        throw new ConfigError(sortAndDedupe(semantic.problems.map((p) => locate(p, doc, lineCounter, fileName))));
    }
    for (const problem of semantic.warnings)
        warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)));
    const pool = config.hooks_async_pool_size;
    const clamped = Math.min(ASYNC_POOL_RANGE.max, Math.max(ASYNC_POOL_RANGE.min, pool));
    if (clamped !== pool) {
        config.hooks_async_pool_size = clamped;
        const problem = {
            path: ['hooks_async_pool_size'],
            message: `${pool} is outside ${ASYNC_POOL_RANGE.min}–${ASYNC_POOL_RANGE.max}; using ${clamped}`,
        };
        warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)));
    }
    if (config.output.buffer !== undefined) {
        const problem = {
            path: ['output', 'buffer'],
            message: 'has no effect (deprecated): detection and the report read the rendered screen (PTY) or the last lines of output (pipe); remove it',
        };
        warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)));
    }
    return { config, warnings };
}
/** An issue at an offset of the text (YAML's own problems, and the file as a whole at offset 0). */
const issuesAt = (lineCounter, file) => (offset, message, hint) => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col, path: '', message, hint };
};
function locate(problem, doc, lineCounter, file) {
    const { line, col } = positionOf(doc, lineCounter, problem.path, problem.atKey);
    return { file, line, col, path: formatPath(problem.path), message: problem.message, hint: problem.hint };
}
// prettyErrors appends " at line 3, column 1:" and a source excerpt; we print our own position instead.
const stripPosition = (message) => message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
function yamlIssue(error, text, issueAt) {
    if (error.code === 'DUPLICATE_KEY') {
        const key = (/^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
        return issueAt(error.pos[0], `duplicate key "${key}"`, 'a key may appear only once in a mapping; keep one of them');
    }
    return issueAt(error.pos[0], `invalid YAML: ${stripPosition(error.message)}`);
}
function sortAndDedupe(issues) {
    const seen = new Set();
    return issues
        .sort((a, b) => a.line - b.line || a.col - b.col)
        .filter((issue) => {
        const key = formatIssue(issue);
        if (seen.has(key))
            return false;
        seen.add(key);
        return true;
    });
}

export { ASYNC_POOL_RANGE, neededChecks, readConfig, validateConfig };
