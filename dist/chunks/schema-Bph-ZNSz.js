const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);

import { p as parseDuration, e as parseSize } from './checkpoints-create-B5osVHqD.js';
import { l as lifecycleEvents } from './events-5kusAlUH.js';
import { s as strictObject, _ as _enum, a as string, b as boolean, c as array, n as number, p as partialRecord, r as record, u as union, N as NEVER } from './zod-DmxAIN-i.js';

// proctor.yml: the zod schema is the single source of truth. The JSON Schema in schema/ is generated
// from it (npm run schema) and a test keeps the two in sync.
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
const argv = array(string().min(1)).min(1);
/** A command: an argv array (run directly) or a string (run by /bin/sh -c). */
const commandField = union([argv, string().min(1)]);
const severity = _enum(['info', 'warning', 'error', 'critical']);
const respond = strictObject({
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
    max_attempts: number()
        .int()
        .min(1)
        .max(20)
        .optional()
        .meta({ description: 'Answers per appearance, the first included (default 3 with retry_after, else 1)' }),
});
const detectRule = strictObject({
    name: string().min(1),
    match: string()
        .min(1)
        .meta({ description: 'A JavaScript regular expression matched against the rendered output' }),
    flags: string()
        .regex(/^[imsu]*$/)
        .optional(),
    kind: string().min(1).default('approval_request').meta({
        description: 'approval_request, error, completion, idle (the agent waits at its input prompt), working (the agent is busy: gates completion, never reported), or a custom kind',
    }),
    respond: respond.default({ notify: true }),
    max_fires: number()
        .int()
        .min(1)
        .optional()
        .meta({ description: 'Stop responding after this many appearances' }),
});
const hookEntry = strictObject({
    name: string().min(1).optional(),
    command: commandField,
    timeout: duration().default(60_000),
    async: boolean().default(false),
});
const agentPresetNames = ['claude-code', 'codex', 'gemini'];
const typingDefaults = {
    paste: 'auto',
    submit_delay: 50,
    confirm_timeout: 5_000,
    submit_attempts: 3,
};
const typing = strictObject({
    paste: _enum(['auto', 'always', 'never']).default('auto').meta({
        description: 'Wrap typed text in bracketed paste: auto = when the agent enabled it (ESC[?2004h), always, or never',
    }),
    submit_delay: duration({ max: 2_000 }).default(typingDefaults.submit_delay).meta({
        description: 'Pause between the typed text and the separate Enter that submits it',
    }),
    confirm_timeout: duration({ min: 100, max: 60_000 }).default(typingDefaults.confirm_timeout).meta({
        description: 'How long to wait for the agent to react to Enter before pressing it again',
    }),
    submit_attempts: number().int().min(1).max(10).default(typingDefaults.submit_attempts),
})
    .default({ ...typingDefaults });
const configSchema = strictObject({
    agent: strictObject({
        preset: _enum(agentPresetNames).optional().meta({
            description: 'Everything a session with this agent CLI needs (detectors, typing, Stop-hook wiring), applied beneath this file',
        }),
        command: argv.optional().meta({ description: 'The agent command as an argv array' }),
        shell: string().min(1).optional().meta({ description: 'The agent command as a shell string' }),
        pty: boolean().default(true),
        continue: argv.optional().meta({
            description: 'Command run when stop hooks block after the agent exited; {reason} is one argv element',
        }),
        adapter: _enum(['generic', 'claude', 'codex', 'gemini']).default('generic'),
        env: record(string(), string()).default({}),
        env_passthrough: array(string().regex(/^[^=\s]+$/, 'an environment variable name'))
            .default([])
            .meta({
            description: 'Variables proctor otherwise withholds from the agent and hooks (INPUT_*, ACTIONS_RUNTIME_TOKEN, GITHUB_TOKEN...) that you hand them anyway',
        }),
        cwd: string().optional(),
        cols: number().int().min(20).max(1000).default(120),
        rows: number().int().min(5).max(500).default(40),
        typing: typing.meta({
            description: "How proctor types the stop hooks' reasons into an interactive agent",
        }),
        quit: string().min(1).optional().meta({
            description: 'Keys that make an interactive agent exit by itself once the session is decided (e.g. "/exit\\r"; a final \\r is sent as its own Enter); proctor stops it (SIGTERM, grace, SIGKILL) if it is still running after timeouts.grace',
        }),
    })
        .default({
        pty: true,
        adapter: 'generic',
        env: {},
        env_passthrough: [],
        cols: 120,
        rows: 40,
        typing: { ...typingDefaults },
    }),
    timeouts: strictObject({
        total: duration({ min: 1 }).default(30 * 60_000),
        idle: duration({ min: 1 }).default(10 * 60_000),
        grace: duration({ max: 60_000 }).default(5_000),
    })
        .default({ total: 30 * 60_000, idle: 10 * 60_000, grace: 5_000 }),
    output: strictObject({
        transcript_max: size().default(64 * 1024 ** 2),
        // Accepted so existing files load; parse.ts warns that it does nothing.
        buffer: size().optional().meta({ description: 'No effect (deprecated): remove it' }),
        passthrough: boolean().default(true),
    })
        .default({ transcript_max: 64 * 1024 ** 2, passthrough: true }),
    detect: array(detectRule).default([]),
    detect_presets: array(_enum(['prompts'])).default([]),
    checkpoints: strictObject({
        enabled: boolean().default(true),
        branch: string().min(1).default('proctor/{session}'),
        interval: duration().default(30_000),
        max_changes: number().int().min(1).default(50),
        min_interval: duration().default(5_000),
        push: _enum(['auto', 'always', 'never']).default('auto'),
        remote: string().min(1).default('origin'),
        max_file_size: size().default(5 * 1024 ** 2),
        pause_agent: boolean().default(true),
        on_events: array(string()).default(['completion']),
        push_on_pre_push: boolean().default(false),
        max_failures: number().int().min(0).default(3).meta({
            description: 'Consecutive failed checkpoints tolerated; one more stops the agent and ends the session errored (exit 1)',
        }),
    })
        .default({
        enabled: true,
        branch: 'proctor/{session}',
        interval: 30_000,
        max_changes: 50,
        min_interval: 5_000,
        push: 'auto',
        remote: 'origin',
        max_file_size: 5 * 1024 ** 2,
        pause_agent: true,
        on_events: ['completion'],
        push_on_pre_push: false,
        max_failures: 3,
    }),
    policy: strictObject({
        allowed_areas: array(string()).default([]),
        forbidden_areas: array(string()).default([]),
        protected_areas: array(string()).default([]),
        violation_severity: severity.default('warning'),
        severities: record(string(), severity).default({}).meta({
            description: 'Severity per constraint (forbidden_area, protected_area, outside_allowed, symlink_escape, new_executable, file_size, diff_size, unsafe_path, git_tamper)',
        }),
        revert_on_violation: boolean().default(false),
        max_file_size: size().optional(),
        max_diff_size: size().optional(),
        allow_new_executables: boolean().default(true),
        git_tamper: _enum(['undo', 'report', 'off']).default('undo').meta({
            description: "Changes to the repository's git config, hooks, info/attributes or info/exclude: undo them (critical git_tamper violation), only report them, or do not check",
        }),
    })
        .default({
        allowed_areas: [],
        forbidden_areas: [],
        protected_areas: [],
        violation_severity: 'warning',
        severities: {},
        revert_on_violation: false,
        allow_new_executables: true,
        git_tamper: 'undo',
    }),
    stop_hooks: array(strictObject({
        name: string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-"'),
        command: commandField,
        timeout: duration().default(10 * 60_000),
        on_error: _enum(['allow', 'block']).default('block').meta({
            description: 'block: a failing hook (non-zero exit) or one that cannot run blocks; allow: those are reported, never block',
        }),
        advisory: boolean()
            .default(false)
            .meta({ description: 'Report this hook, never block on it (its check run is neutral)' }),
    }))
        .default([]),
    max_stop_rounds: number().int().min(1).max(20).default(3),
    hooks: partialRecord(_enum(lifecycleEvents), array(hookEntry)).default({}),
    hooks_async_pool_size: number().int().default(10),
    hooks_async_shutdown_grace: duration({ max: 60_000 }).default(5_000),
    hooks_async_drain_timeout: duration({ max: 10 * 60_000 })
        .default(30_000)
        .meta({
        description: 'How long async hooks still running at the end may take before they are stopped',
    }),
    batch: strictObject({
        concurrency: number().int().min(1).max(64).default(4),
        keep_worktrees: boolean().default(false),
        tasks: array(strictObject({
            name: string().min(1),
            command: argv.optional(),
            shell: string().min(1).optional(),
            role: string().optional(),
            timeout: duration().optional(),
        }))
            .default([]),
    })
        .default({ concurrency: 4, keep_worktrees: false, tasks: [] }),
    github: strictObject({
        comment: _enum(['sticky', 'new', 'off']).default('sticky'),
        checks: boolean().default(true),
        key: string().min(1).default('{workflow}/{job}'),
        fail_on: _enum(['block', 'violation-error', 'never']).default('block'),
    })
        .default({ comment: 'sticky', checks: true, key: '{workflow}/{job}', fail_on: 'block' }),
});

export { configSchema as c };
