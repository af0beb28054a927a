import { ab as defaultAt, p as parseDuration, ac as parseSize } from './checkpoints-create-CJcO-Brq.js';
import { l as lifecycleEvents } from './events-C_YfI5y8.js';
import { s as strictObject, l as lazy, c as config, n as number, u as url, _ as _enum, b as boolean, a as string, d as array, r as record, p as partialRecord, e as union, N as NEVER, g as globalRegistry } from './zod-Cpfq4OjR.js';

// proctor.yml: the zod schema is the single source of truth. The JSON Schema in schema/ is generated
// from it (npm run schema) and a test keeps the two in sync.
// zod compiles each object's parser with `new Function` on its first parse (after probing whether eval is
// allowed, at each object's construction), a cost a process that parses one proctor.yml pays every time
// and never earns back (~5 ms of CPU). proctor's zod is its own (bundled) and validates only this file.
// It also gives containers cycle support, which this schema (no cycle) never needs: but for a container
// holding a z.lazy it cannot tell, and would then answer the same input object met twice (a YAML alias,
// `*name`) with one shared output object instead of two.
const noCycleSupport = {
    attach: () => { },
    guard: () => { },
    alloc: (_inst, _payload, empty) => empty,
};
config({ jitless: true, memoizer: noCycleSupport });
/**
 * A schema under a default, built the first time its key is written: zod returns a default without running
 * the schema under it, so a file that leaves `detect:` or `batch:` out never constructs their schemas.
 * Building the whole schema was the largest part of loading a proctor.yml (~20 ms of a fresh process's CPU,
 * issue 17), and a file writes few of its keys. It is still one schema: z.lazy is a link in the tree, which
 * schema-walk.ts, the JSON Schema and the printed config follow. (For a list item's keys, a stop hook's
 * timeout or a detect rule's kind: an empty config has no item, so defaults.ts holds none of these; every
 * other key takes its default from there, through fromDefaults.)
 */
function lazyDefault(build, value) {
    return lazy(build).default(value);
}
/**
 * A key of proctor.yml under its default in defaults.ts (`path` names it there: `'agent'`, `'agent', 'pty'`),
 * built lazily as lazyDefault's: one copy of the defaults, which a session without a file uses as they are,
 * and a fresh one for each parse. (Typed by the cast: defaults.ts's type is this schema's output;
 * defaultAt throws on a path it does not hold, at the first parse that leaves the key out.)
 */
function fromDefaults(build, ...path) {
    return lazy(build).default(() => defaultAt(path));
}
/** A duration written as "30s"/"10m"/"1h30m" (or a number of seconds), parsed into milliseconds. */
function duration(opts = {}) {
    return union([string(), number()])
        .transform((value, ctx) => {
        const ms = parseDuration(value);
        if (typeof ms === 'string') {
            ctx.addIssue({ code: 'custom', message: ms });
            return NEVER;
        }
        if (opts.min !== undefined && ms < opts.min) {
            ctx.addIssue({ code: 'custom', message: `must be at least ${opts.min}ms, got ${value}` });
            return NEVER;
        }
        if (opts.max !== undefined && ms > opts.max) {
            ctx.addIssue({ code: 'custom', message: `must be at most ${opts.max / 1000}s, got ${value}` });
            return NEVER;
        }
        return ms;
    })
        .meta({ description: 'A duration: 500ms, 30s, 10m, 1h, 1h30m (a bare number is seconds)' });
}
/** A size written as "5MiB"/"512KiB"/"1GB" (or a number of bytes), parsed into bytes. */
function size() {
    return union([string(), number()])
        .transform((value, ctx) => {
        const bytes = parseSize(value);
        if (typeof bytes === 'string') {
            ctx.addIssue({ code: 'custom', message: bytes });
            return NEVER;
        }
        return bytes;
    })
        .meta({ description: 'A size: 512KiB, 5MiB, 1GB (a bare number is bytes)' });
}
/**
 * A schema used in several sections, built the first time one of them is (once: the same instance in each
 * place, as a constant would be). Built at load, these were zod's first arrays, enums and length checks —
 * each class's first instance installs its members — for every proctor.yml, whatever keys it writes.
 */
function shared(build) {
    let built;
    return () => (built ??= build());
}
const argv = shared(() => array(string().min(1)).min(1));
/** A command: an argv array (run directly) or a string (run by /bin/sh -c). */
const commandField = shared(() => union([argv(), string().min(1)]));
const severity = shared(() => _enum(['info', 'warning', 'error', 'critical']));
const respond = () => strictObject({
    send: string().optional().meta({ description: 'Text or keys typed into the agent (\\r for Enter)' }),
    deny: boolean()
        .optional()
        .meta({ description: 'Answer the prompt with the deny text (n\\r by default)' }),
    deny_text: string().optional(),
    stop: boolean().optional().meta({ description: 'Stop the agent (SIGTERM to its group)' }),
    notify: boolean().optional().meta({ description: 'Record and report only' }),
    delay: duration({ max: 60_000 }).optional().meta({
        description: 'Wait this long after the prompt appears before answering (it must still be on screen); for a completion rule, how long the agent must stay idle with it on screen before it counts',
    }),
    retry_after: duration({ min: 100, max: 10 * 60_000 })
        .optional()
        .meta({
        description: 'Answer again when the prompt is still on screen this long after the last answer (screen only)',
    }),
    max_attempts: number().int().min(1).max(20).optional().meta({
        description: 'Answers per appearance, the first included (default 3 with retry_after, else 1)',
    }),
});
const detectRule = () => strictObject({
    name: string().min(1),
    match: string()
        .min(1)
        .meta({ description: 'A JavaScript regular expression matched against the rendered output' }),
    flags: string()
        .regex(/^[imsu]*$/)
        .optional(),
    kind: lazyDefault(() => string().min(1), 'approval_request').meta({
        description: 'approval_request, error, agent_error (the agent gave up on a failure of its own: the session ends failed with the match, or its (?<reason>…) group, as the reason), completion, idle (the agent waits at its input prompt), working (the agent is busy: gates completion, never reported), or a custom kind',
    }),
    respond: lazyDefault(respond, { notify: true }),
    max_fires: number()
        .int()
        .min(1)
        .optional()
        .meta({ description: 'Stop responding after this many appearances' }),
});
const hookEntry = () => strictObject({
    name: string().min(1).optional(),
    command: commandField(),
    timeout: lazyDefault(duration, 60_000),
    async: lazyDefault(() => boolean(), false),
});
const agentPresetNames = ['claude-code', 'codex', 'gemini', 'copilot', 'opencode'];
const typing = () => strictObject({
    paste: fromDefaults(() => _enum(['auto', 'always', 'never']), 'agent', 'typing', 'paste').meta({
        description: 'Wrap typed text in bracketed paste: auto = when the agent enabled it (ESC[?2004h), always, or never',
    }),
    submit_delay: fromDefaults(() => duration({ max: 2_000 }), 'agent', 'typing', 'submit_delay').meta({
        description: 'Pause between the typed text and the separate Enter that submits it',
    }),
    confirm_timeout: fromDefaults(() => duration({ min: 100, max: 60_000 }), 'agent', 'typing', 'confirm_timeout').meta({
        description: 'How long to wait for the agent to react to Enter before pressing it again',
    }),
    submit_attempts: fromDefaults(() => number().int().min(1).max(10), 'agent', 'typing', 'submit_attempts'),
});
/** `github.trigger`: the phrase(s) a comment starts with to give proctor a task, and the label that does. */
const trigger = () => strictObject({
    phrase: fromDefaults(() => union([triggerPhrase(), array(triggerPhrase()).min(1)])
        .transform((value) => (Array.isArray(value) ? value : [value])), 'github', 'trigger', 'phrase').meta({
        description: 'A comment whose text has this word (or one of these words) at a word boundary starts a session; what follows it is the task',
    }),
    label: fromDefaults(() => string().min(1).max(50), 'github', 'trigger', 'label').meta({
        description: 'Adding this label to an issue or pull request starts a session; its title and body are the task',
    }),
});
/** `policy.tests`: globs (as in policy areas) of each language's test files and of test-runner configs. */
const testsSection = () => strictObject({
    javascript: fromDefaults(() => array(string()), 'policy', 'tests', 'javascript').meta({
        description: 'JavaScript/TypeScript test files',
    }),
    python: fromDefaults(() => array(string()), 'policy', 'tests', 'python').meta({
        description: 'Python test files',
    }),
    go: fromDefaults(() => array(string()), 'policy', 'tests', 'go').meta({
        description: 'Go test files',
    }),
    rust: fromDefaults(() => array(string()), 'policy', 'tests', 'rust').meta({
        description: 'Rust files judged when one of their versions holds a test attribute',
    }),
    java: fromDefaults(() => array(string()), 'policy', 'tests', 'java').meta({
        description: 'Java test files',
    }),
    configs: fromDefaults(() => array(string()), 'policy', 'tests', 'configs').meta({
        description: 'Test-runner and coverage configs: a change to their test settings is flagged, a lowered threshold named',
    }),
});
const triggerPhrase = () => string().regex(/^\S{2,40}$/, 'a single word of 2 to 40 characters without spaces, e.g. "@proctor"');
const configSchema = strictObject({
    agent: fromDefaults(() => strictObject({
        preset: _enum(agentPresetNames).optional().meta({
            description: 'Everything a session with this agent CLI needs (detectors, typing, Stop-hook wiring), applied beneath this file',
        }),
        command: argv().optional().meta({ description: 'The agent command as an argv array' }),
        shell: string().min(1).optional().meta({ description: 'The agent command as a shell string' }),
        pty: fromDefaults(() => boolean(), 'agent', 'pty'),
        continue: argv().optional().meta({
            description: "The next round after the agent exited (stop hooks blocked, or proctor run --continue); {reason}, {round} and {agent_session} (the agent CLI's own session id) are filled inside their argv element",
        }),
        adapter: fromDefaults(() => _enum(['generic', 'claude', 'codex', 'gemini', 'copilot']), 'agent', 'adapter'),
        env: fromDefaults(() => record(string(), string()), 'agent', 'env'),
        env_passthrough: fromDefaults(() => array(string().regex(/^[^=\s]+$/, 'an environment variable name')), 'agent', 'env_passthrough').meta({
            description: 'Variables proctor otherwise withholds from the agent and hooks (INPUT_*, ACTIONS_RUNTIME_TOKEN, GITHUB_TOKEN...) that you hand them anyway',
        }),
        cwd: string().optional(),
        cols: fromDefaults(() => number().int().min(20).max(1000), 'agent', 'cols'),
        rows: fromDefaults(() => number().int().min(5).max(500), 'agent', 'rows'),
        typing: fromDefaults(typing, 'agent', 'typing').meta({
            description: "How proctor types the stop hooks' reasons into an interactive agent",
        }),
        quit: string().min(1).optional().meta({
            description: 'Keys that make an interactive agent exit by itself once the session is decided (e.g. "/exit\\r"; a final \\r is sent as its own Enter); proctor stops it (SIGTERM, grace, SIGKILL) if it is still running after timeouts.grace',
        }),
    }), 'agent'),
    timeouts: fromDefaults(() => strictObject({
        total: fromDefaults(() => duration({ min: 1 }), 'timeouts', 'total'),
        idle: fromDefaults(() => duration({ min: 1 }), 'timeouts', 'idle'),
        grace: fromDefaults(() => duration({ max: 60_000 }), 'timeouts', 'grace'),
    }), 'timeouts'),
    output: fromDefaults(() => strictObject({
        transcript_max: fromDefaults(() => size(), 'output', 'transcript_max'),
        // Accepted so existing files load; parse.ts warns that it does nothing.
        buffer: size().optional().meta({ description: 'No effect (deprecated): remove it' }),
        passthrough: fromDefaults(() => boolean(), 'output', 'passthrough'),
    }), 'output'),
    detect: fromDefaults(() => array(detectRule()), 'detect'),
    detect_presets: fromDefaults(() => array(_enum(['prompts'])), 'detect_presets'),
    checkpoints: fromDefaults(() => strictObject({
        enabled: fromDefaults(() => boolean(), 'checkpoints', 'enabled'),
        branch: fromDefaults(() => string().min(1), 'checkpoints', 'branch'),
        interval: fromDefaults(() => duration(), 'checkpoints', 'interval'),
        max_changes: fromDefaults(() => number().int().min(1), 'checkpoints', 'max_changes'),
        min_interval: fromDefaults(() => duration(), 'checkpoints', 'min_interval'),
        push: fromDefaults(() => _enum(['auto', 'always', 'never']), 'checkpoints', 'push'),
        remote: fromDefaults(() => string().min(1), 'checkpoints', 'remote'),
        push_timeout: fromDefaults(() => duration(), 'checkpoints', 'push_timeout').meta({
            description: 'The most one push of the checkpoints may take, every retry and fetch included; then git is killed and the push is reported as timed out',
        }),
        max_file_size: fromDefaults(() => size(), 'checkpoints', 'max_file_size'),
        pause_agent: fromDefaults(() => boolean(), 'checkpoints', 'pause_agent'),
        on_events: fromDefaults(() => array(string()), 'checkpoints', 'on_events'),
        push_on_pre_push: fromDefaults(() => boolean(), 'checkpoints', 'push_on_pre_push'),
        push_ci_changes: fromDefaults(() => boolean(), 'checkpoints', 'push_ci_changes').meta({
            description: "Push checkpoints that change CI's definition (.github/workflows, local actions) since the baseline; off, they stay local: the pushed workflows would run with the repository's secrets",
        }),
        max_failures: fromDefaults(() => number().int().min(0), 'checkpoints', 'max_failures').meta({
            description: 'Consecutive failed checkpoints tolerated; one more stops the agent and ends the session errored (exit 1)',
        }),
    }), 'checkpoints'),
    policy: fromDefaults(() => strictObject({
        allowed_areas: fromDefaults(() => array(string()), 'policy', 'allowed_areas'),
        forbidden_areas: fromDefaults(() => array(string()), 'policy', 'forbidden_areas'),
        protected_areas: fromDefaults(() => array(string()), 'policy', 'protected_areas'),
        secret_allowed_paths: fromDefaults(() => array(string()), 'policy', 'secret_allowed_paths').meta({
            description: "Globs of files secretlint's rules do not judge (documented examples, fixtures with fake keys); the values proctor knows and copies of forbidden files are still found there",
        }),
        violation_severity: fromDefaults(severity, 'policy', 'violation_severity'),
        severities: fromDefaults(() => record(string(), severity()), 'policy', 'severities').meta({
            description: 'Severity per constraint (forbidden_area, protected_area, outside_allowed, symlink_escape, new_executable, file_size, diff_size, unsafe_path, git_tamper, tests_weakened, secret_content)',
        }),
        revert_on_violation: fromDefaults(() => boolean(), 'policy', 'revert_on_violation'),
        max_file_size: size().optional(),
        max_diff_size: size().optional(),
        allow_new_executables: fromDefaults(() => boolean(), 'policy', 'allow_new_executables'),
        git_tamper: fromDefaults(() => _enum(['undo', 'report', 'off']), 'policy', 'git_tamper').meta({
            description: "Changes to the repository's git config, hooks, info/attributes or info/exclude: undo them (critical git_tamper violation), only report them, or do not check",
        }),
        tests: fromDefaults(testsSection, 'policy', 'tests').meta({
            description: 'Where the tests (per language) and the test-runner and coverage configs live, for the tests_weakened constraint; an empty list judges none of them',
        }),
    }), 'policy'),
    stop_hooks: fromDefaults(() => array(strictObject({
        name: string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-"'),
        // One of command and uses (cross-checks.ts says which is missing).
        command: commandField().optional(),
        uses: _enum(['ci-checks']).optional().meta({
            description: "A built-in hook instead of a command: ci-checks pushes the checkpoint and waits for the repository's CI on it (docs/hooks.md#the-prs-ci-as-a-stop-hook)",
        }),
        with: strictObject({
            checks: array(string().min(1)).optional().meta({
                description: "ci-checks: the checks to wait for when the repository's required checks cannot be read (or none are required); default every check on the commit",
            }),
            branch: string().min(1).optional().meta({
                description: "ci-checks: whose required checks count (default the pull request's base branch, else the repository's default branch)",
            }),
            poll_interval: lazyDefault(() => duration({ min: 1_000, max: 10 * 60_000 }), 15_000).meta({
                description: 'ci-checks: time between two reads of the checks (longer when the rate limit runs low)',
            }),
        })
            .optional()
            .meta({ description: 'Options of the built-in hook named by uses' }),
        timeout: lazyDefault(() => duration(), 10 * 60_000),
        on_error: lazyDefault(() => _enum(['allow', 'block']), 'block').meta({
            description: 'block: a failing hook (non-zero exit) or one that cannot run blocks; allow: those are reported, never block',
        }),
        advisory: lazyDefault(() => boolean(), false).meta({
            description: 'Report this hook, never block on it (its check run is neutral)',
        }),
        gate_files: array(string().min(1)).optional().meta({
            description: 'Globs (relative to the repository root, as in policy areas) of files this hook executes as judge, such as helpers its tests import: in the two-job layout the verify job puts them back to the checked-out version and a change to one is a critical gate_file violation',
        }),
    })), 'stop_hooks'),
    max_stop_rounds: fromDefaults(() => number().int().min(1).max(20), 'max_stop_rounds'),
    hooks: fromDefaults(() => partialRecord(_enum(lifecycleEvents), array(hookEntry())), 'hooks'),
    hooks_async_pool_size: fromDefaults(() => number().int(), 'hooks_async_pool_size'),
    hooks_async_shutdown_grace: fromDefaults(() => duration({ max: 60_000 }), 'hooks_async_shutdown_grace'),
    hooks_async_drain_timeout: fromDefaults(() => duration({ max: 10 * 60_000 }), 'hooks_async_drain_timeout').meta({
        description: 'How long async hooks still running at the end may take before they are stopped',
    }),
    pricing: fromDefaults(() => record(string().min(1), strictObject({
        input: number().min(0),
        output: number().min(0),
        cached_input: number().min(0).optional(),
        cache_write: number().min(0).optional(),
    })), 'pricing').meta({
        description: 'USD per million tokens by model id or glob, over the built-in price table (docs/configuration.md#pricing)',
    }),
    batch: fromDefaults(() => strictObject({
        concurrency: fromDefaults(() => number().int().min(1).max(64), 'batch', 'concurrency'),
        keep_worktrees: fromDefaults(() => boolean(), 'batch', 'keep_worktrees'),
        tasks: fromDefaults(() => array(strictObject({
            name: string().min(1),
            command: argv().optional(),
            shell: string().min(1).optional(),
            role: string().optional(),
            timeout: duration().optional(),
        })), 'batch', 'tasks'),
    }), 'batch'),
    github: fromDefaults(() => strictObject({
        comment: fromDefaults(() => _enum(['sticky', 'new', 'off']), 'github', 'comment'),
        checks: fromDefaults(() => boolean(), 'github', 'checks'),
        key: fromDefaults(() => string().min(1), 'github', 'key'),
        fail_on: fromDefaults(() => _enum(['block', 'violation-error', 'never']), 'github', 'fail_on'),
        publish: fromDefaults(() => _enum(['each', 'aggregate']), 'github', 'publish').meta({
            description: 'each: every session writes its own comment and check runs; aggregate: sessions write nothing to GitHub and the mode: aggregate job publishes once for all of them (docs/github.md#api-cost)',
        }),
        trigger: fromDefaults(trigger, 'github', 'trigger').meta({
            description: 'What starts a session from a comment or a label (docs/github.md#a-task-from-a-comment)',
        }),
    }), 'github'),
    model_api: fromDefaults(() => strictObject({
        proxy: fromDefaults(() => boolean(), 'model_api', 'proxy').meta({
            description: "Run the agent's model calls through proctor's metering proxy on loopback: proctor keeps the real key, the agent gets a placeholder and the proxy's base URL (docs/agents.md#the-model-api-proxy); the presets turn it on",
        }),
        api: _enum(['anthropic', 'openai', 'gemini']).optional().meta({
            description: 'Which model API the agent speaks (the presets set it)',
        }),
        upstream: url({ protocol: /^https?$/ })
            .optional()
            .meta({
            description: "Where the proxy forwards (default: the base-URL variable in proctor's environment, else the API's public endpoint)",
        }),
        retries: fromDefaults(() => number().int().min(0).max(50), 'model_api', 'retries').meta({
            description: 'Failed answers in a row (429, 529, 5xx, no answer) the agent may retry before the session ends with that reason',
        }),
    }), 'model_api'),
    budget: fromDefaults(() => strictObject({
        usd: number().positive().optional().meta({
            description: "Estimated USD (the price table's estimate) the session may spend on model calls",
        }),
        tokens: number().int().positive().optional().meta({
            description: 'Input + output tokens the session may use',
        }),
        requests: number().int().positive().optional().meta({
            description: 'Model requests the session may make',
        }),
        warn_at: fromDefaults(() => number().min(0).max(1), 'budget', 'warn_at').meta({
            description: 'Share of a limit at which a warning event is recorded (once)',
        }),
        batch: strictObject({
            usd: number().positive().optional(),
            tokens: number().int().positive().optional(),
            requests: number().int().positive().optional(),
        })
            .optional()
            .meta({
            description: 'Limits for all the sessions of a `proctor batch` together: once reached, every running session is stopped (status budget) and the ones that start later are refused at their first model call',
        }),
    }), 'budget'),
});

// Reads the zod schema itself (not a copy of it) so messages, did-you-mean candidates and the printed
// config always follow the schema as it evolves.
const defOf = (schema) => schema._zod.def;
const WRAPPERS = new Set(['default', 'optional', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);
/** The schema a wrapper (default, optional…) or a z.lazy link (schema.ts builds parts on first use) holds. */
function inner(schema) {
    const def = defOf(schema);
    if (WRAPPERS.has(def.type))
        return def.innerType;
    if (def.type === 'lazy')
        return schema._zod.innerType;
    return undefined;
}
/** duration() and size() in schema.ts describe themselves; that description is how we recognize them. */
function specialKind(schema) {
    let current = schema;
    while (current) {
        const description = globalRegistry.get(current)?.description ?? '';
        if (description.startsWith('A duration'))
            return 'duration';
        if (description.startsWith('A size'))
            return 'size';
        current = inner(current);
    }
    return undefined;
}
/** Strips default/optional wrappers and lazy links and follows pipes to the schema that checks the input. */
function unwrap(schema) {
    let current = schema;
    for (;;) {
        const def = defOf(current);
        const next = def.type === 'pipe' ? def.in : inner(current);
        if (!next)
            return current;
        current = next;
    }
}
/** The schema that validates the value at `path`, or undefined when the path leaves the schema. */
function schemaAt(root, path) {
    let current = root;
    for (const key of path) {
        if (!current)
            return undefined;
        current = childSchema(unwrap(current), key);
    }
    return current;
}
function childSchema(schema, key) {
    const def = defOf(schema);
    switch (def.type) {
        case 'object':
            return typeof key === 'string' ? def.shape?.[key] : undefined;
        case 'array':
            return typeof key === 'number' ? def.element : undefined;
        case 'record':
            return def.valueType;
        case 'union':
            for (const option of def.options ?? []) {
                const child = childSchema(unwrap(option), key);
                if (child)
                    return child;
            }
            return undefined;
        default:
            return undefined;
    }
}
/** The keys a mapping may hold: an object's fields, or the allowed keys of an enum-keyed record. */
function allowedKeys(schema) {
    const def = defOf(unwrap(schema));
    if (def.type === 'object')
        return Object.keys(def.shape ?? {});
    if (def.type === 'record' && def.keyType)
        return enumValues(def.keyType);
    return [];
}
function enumValues(schema) {
    const def = defOf(unwrap(schema));
    return def.type === 'enum' ? Object.values(def.entries ?? {}).map(String) : [];
}
const isInteger = (schema) => schema.format === 'safeint';
/** What a user should write here, in words: "a list of strings", "one of auto, always, never". */
function describeExpected(schema) {
    const kind = specialKind(schema);
    if (kind === 'duration')
        return 'a duration like 30s or 10m';
    if (kind === 'size')
        return 'a size like 512KiB or 5MiB';
    const inner = unwrap(schema);
    const def = defOf(inner);
    switch (def.type) {
        case 'string':
            return 'a string';
        case 'number':
            return isInteger(inner) ? 'a whole number' : 'a number';
        case 'boolean':
            return 'true or false';
        case 'enum':
            return `one of ${enumValues(inner).join(', ')}`;
        case 'array':
            return `a list of ${describePlural(def.element)}`;
        case 'union':
            return (def.options ?? []).map(describeExpected).join(' or ');
        case 'object':
            return 'a mapping (key: value)';
        case 'record':
            return `a mapping of ${describePlural(def.valueType)}`;
        default:
            return def.type;
    }
}
function describePlural(schema) {
    if (!schema)
        return 'values';
    const kind = specialKind(schema);
    if (kind)
        return `${kind}s`;
    const inner = unwrap(schema);
    const def = defOf(inner);
    switch (def.type) {
        case 'string':
            return 'strings';
        case 'number':
            return isInteger(inner) ? 'whole numbers' : 'numbers';
        case 'boolean':
            return 'true/false values';
        case 'enum':
            return `values (${enumValues(inner).join(', ')})`;
        case 'array':
            return 'lists';
        case 'object':
        case 'record':
            return 'mappings (key: value)';
        default:
            return 'values';
    }
}
/** What the user actually wrote, in the same words: "a number (5)", "a list". */
function describeValue(value) {
    if (value === null || value === undefined)
        return 'an empty value';
    if (Array.isArray(value))
        return 'a list';
    switch (typeof value) {
        case 'string':
            return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
        case 'number':
            return `a number (${value})`;
        case 'boolean':
            return `${value}`;
        case 'object':
            return 'a mapping';
        default:
            return typeof value;
    }
}
/**
 * Every key path of a schema as the docs write it: `agent.command`, `detect[].respond.send`,
 * `hooks.<event>[].async` (records with enum keys are written `<event>`).
 */
function keyPaths(schema, prefix = '') {
    const def = defOf(unwrap(schema));
    if (def.type === 'object') {
        return Object.entries(def.shape ?? {}).flatMap(([key, child]) => {
            const path = prefix ? `${prefix}.${key}` : key;
            return [path, ...keyPaths(child, path)];
        });
    }
    if (def.type === 'array' && def.element)
        return keyPaths(def.element, `${prefix}[]`);
    if (def.type === 'record' && def.valueType && def.keyType && enumValues(def.keyType).length > 0) {
        return keyPaths(def.valueType, `${prefix}.<event>`);
    }
    return [];
}

export { allowedKeys as a, describeExpected as b, configSchema as c, describeValue as d, specialKind as e, keyPaths as k, schemaAt as s, unwrap as u };
