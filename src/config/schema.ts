// proctor.yml: the zod schema is the single source of truth. The JSON Schema in schema/ is generated
// from it (npm run schema) and a test keeps the two in sync.
import { z } from 'zod'
import { parseDuration, parseSize } from '../util/units.js'
import { lifecycleEvents } from './events.js'
import { defaultAt } from './defaults.js'

// zod compiles each object's parser with `new Function` on its first parse (after probing whether eval is
// allowed, at each object's construction), a cost a process that parses one proctor.yml pays every time
// and never earns back (~5 ms of CPU). proctor's zod is its own (bundled) and validates only this file.
// It also gives containers cycle support, which this schema (no cycle) never needs: but for a container
// holding a z.lazy it cannot tell, and would then answer the same input object met twice (a YAML alias,
// `*name`) with one shared output object instead of two.
const noCycleSupport: z.core.$ZodMemoizer = {
  attach: () => {},
  guard: () => {},
  alloc: (_inst, _payload, empty) => empty,
}
z.config({ jitless: true, memoizer: noCycleSupport })

/**
 * A schema under a default, built the first time its key is written: zod returns a default without running
 * the schema under it, so a file that leaves `detect:` or `batch:` out never constructs their schemas.
 * Building the whole schema was the largest part of loading a proctor.yml (~20 ms of a fresh process's CPU,
 * issue 17), and a file writes few of its keys. It is still one schema: z.lazy is a link in the tree, which
 * schema-walk.ts, the JSON Schema and the printed config follow. (For a list item's keys, a stop hook's
 * timeout or a detect rule's kind: an empty config has no item, so defaults.ts holds none of these; every
 * other key takes its default from there, through fromDefaults.)
 */
function lazyDefault<T extends z.ZodType>(build: () => T, value: z.core.util.NoUndefined<z.output<T>>) {
  return z.lazy(build).default(value)
}

/**
 * A key of proctor.yml under its default in defaults.ts (`path` names it there: `'agent'`, `'agent', 'pty'`),
 * built lazily as lazyDefault's: one copy of the defaults, which a session without a file uses as they are,
 * and a fresh one for each parse. (Typed by the cast: defaults.ts's type is this schema's output;
 * defaultAt throws on a path it does not hold, at the first parse that leaves the key out.)
 */
function fromDefaults<T extends z.ZodType>(build: () => T, ...path: [string, ...string[]]) {
  return z.lazy(build).default(() => defaultAt(path) as z.core.util.NoUndefined<z.output<T>>)
}

/** A duration written as "30s"/"10m"/"1h30m" (or a number of seconds), parsed into milliseconds. */
export function duration(opts: { min?: number; max?: number } = {}) {
  return z
    .union([z.string(), z.number()])
    .transform((value, ctx) => {
      const ms = parseDuration(value)
      if (typeof ms === 'string') {
        ctx.addIssue({ code: 'custom', message: ms })
        return z.NEVER
      }
      if (opts.min !== undefined && ms < opts.min) {
        ctx.addIssue({ code: 'custom', message: `must be at least ${opts.min}ms, got ${value}` })
        return z.NEVER
      }
      if (opts.max !== undefined && ms > opts.max) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${opts.max / 1000}s, got ${value}` })
        return z.NEVER
      }
      return ms
    })
    .meta({ description: 'A duration: 500ms, 30s, 10m, 1h, 1h30m (a bare number is seconds)' })
}

/** A size written as "5MiB"/"512KiB"/"1GB" (or a number of bytes), parsed into bytes. */
export function size() {
  return z
    .union([z.string(), z.number()])
    .transform((value, ctx) => {
      const bytes = parseSize(value)
      if (typeof bytes === 'string') {
        ctx.addIssue({ code: 'custom', message: bytes })
        return z.NEVER
      }
      return bytes
    })
    .meta({ description: 'A size: 512KiB, 5MiB, 1GB (a bare number is bytes)' })
}

/**
 * A schema used in several sections, built the first time one of them is (once: the same instance in each
 * place, as a constant would be). Built at load, these were zod's first arrays, enums and length checks —
 * each class's first instance installs its members — for every proctor.yml, whatever keys it writes.
 */
function shared<T>(build: () => T): () => T {
  let built: T | undefined
  return () => (built ??= build())
}

const argv = shared(() => z.array(z.string().min(1)).min(1))
/** A command: an argv array (run directly) or a string (run by /bin/sh -c). */
export const commandField = shared(() => z.union([argv(), z.string().min(1)]))

export const severity = shared(() => z.enum(['info', 'warning', 'error', 'critical']))

const respond = () =>
  z.strictObject({
    send: z.string().optional().meta({ description: 'Text or keys typed into the agent (\\r for Enter)' }),
    deny: z
      .boolean()
      .optional()
      .meta({ description: 'Answer the prompt with the deny text (n\\r by default)' }),
    deny_text: z.string().optional(),
    stop: z.boolean().optional().meta({ description: 'Stop the agent (SIGTERM to its group)' }),
    notify: z.boolean().optional().meta({ description: 'Record and report only' }),
    delay: duration({ max: 60_000 }).optional().meta({
      description:
        'Wait this long after the prompt appears before answering (it must still be on screen); for a completion rule, how long the agent must stay idle with it on screen before it counts',
    }),
    retry_after: duration({ min: 100, max: 10 * 60_000 })
      .optional()
      .meta({
        description:
          'Answer again when the prompt is still on screen this long after the last answer (screen only)',
      }),
    max_attempts: z.number().int().min(1).max(20).optional().meta({
      description: 'Answers per appearance, the first included (default 3 with retry_after, else 1)',
    }),
  })

const detectRule = () =>
  z.strictObject({
    name: z.string().min(1),
    match: z
      .string()
      .min(1)
      .meta({ description: 'A JavaScript regular expression matched against the rendered output' }),
    flags: z
      .string()
      .regex(/^[imsu]*$/)
      .optional(),
    kind: lazyDefault(() => z.string().min(1), 'approval_request').meta({
      description:
        'approval_request, error, agent_error (the agent gave up on a failure of its own: the session ends failed with the match, or its (?<reason>…) group, as the reason), completion, idle (the agent waits at its input prompt), working (the agent is busy: gates completion, never reported), or a custom kind',
    }),
    respond: lazyDefault(respond, { notify: true }),
    max_fires: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: 'Stop responding after this many appearances' }),
  })

const hookEntry = () =>
  z.strictObject({
    name: z.string().min(1).optional(),
    command: commandField(),
    timeout: lazyDefault(duration, 60_000),
    async: lazyDefault(() => z.boolean(), false),
  })

export { lifecycleEvents }

export const agentPresetNames = ['claude-code', 'codex', 'gemini', 'copilot', 'opencode'] as const

const typing = () =>
  z.strictObject({
    paste: fromDefaults(() => z.enum(['auto', 'always', 'never']), 'agent', 'typing', 'paste').meta({
      description:
        'Wrap typed text in bracketed paste: auto = when the agent enabled it (ESC[?2004h), always, or never',
    }),
    submit_delay: fromDefaults(() => duration({ max: 2_000 }), 'agent', 'typing', 'submit_delay').meta({
      description: 'Pause between the typed text and the separate Enter that submits it',
    }),
    confirm_timeout: fromDefaults(
      () => duration({ min: 100, max: 60_000 }),
      'agent',
      'typing',
      'confirm_timeout',
    ).meta({
      description: 'How long to wait for the agent to react to Enter before pressing it again',
    }),
    submit_attempts: fromDefaults(
      () => z.number().int().min(1).max(10),
      'agent',
      'typing',
      'submit_attempts',
    ),
  })

/** `github.trigger`: the phrase(s) a comment starts with to give proctor a task, and the label that does. */
const trigger = () =>
  z.strictObject({
    phrase: fromDefaults(
      () =>
        z
          .union([triggerPhrase(), z.array(triggerPhrase()).min(1)])
          .transform((value) => (Array.isArray(value) ? value : [value])),
      'github',
      'trigger',
      'phrase',
    ).meta({
      description:
        'A comment whose text has this word (or one of these words) at a word boundary starts a session; what follows it is the task',
    }),
    label: fromDefaults(() => z.string().min(1).max(50), 'github', 'trigger', 'label').meta({
      description:
        'Adding this label to an issue or pull request starts a session; its title and body are the task',
    }),
  })

/** `policy.tests`: globs (as in policy areas) of each language's test files and of test-runner configs. */
const testsSection = () =>
  z.strictObject({
    javascript: fromDefaults(() => z.array(z.string()), 'policy', 'tests', 'javascript').meta({
      description: 'JavaScript/TypeScript test files',
    }),
    python: fromDefaults(() => z.array(z.string()), 'policy', 'tests', 'python').meta({
      description: 'Python test files',
    }),
    go: fromDefaults(() => z.array(z.string()), 'policy', 'tests', 'go').meta({
      description: 'Go test files',
    }),
    rust: fromDefaults(() => z.array(z.string()), 'policy', 'tests', 'rust').meta({
      description: 'Rust files judged when one of their versions holds a test attribute',
    }),
    java: fromDefaults(() => z.array(z.string()), 'policy', 'tests', 'java').meta({
      description: 'Java test files',
    }),
    configs: fromDefaults(() => z.array(z.string()), 'policy', 'tests', 'configs').meta({
      description:
        'Test-runner and coverage configs: a change to their test settings is flagged, a lowered threshold named',
    }),
  })

const triggerPhrase = () =>
  z.string().regex(/^\S{2,40}$/, 'a single word of 2 to 40 characters without spaces, e.g. "@proctor"')

export const configSchema = z.strictObject({
  agent: fromDefaults(
    () =>
      z.strictObject({
        preset: z.enum(agentPresetNames).optional().meta({
          description:
            'Everything a session with this agent CLI needs (detectors, typing, Stop-hook wiring), applied beneath this file',
        }),
        command: argv().optional().meta({ description: 'The agent command as an argv array' }),
        shell: z.string().min(1).optional().meta({ description: 'The agent command as a shell string' }),
        pty: fromDefaults(() => z.boolean(), 'agent', 'pty'),
        continue: argv().optional().meta({
          description:
            "The next round after the agent exited (stop hooks blocked, or proctor run --continue); {reason}, {round} and {agent_session} (the agent CLI's own session id) are filled inside their argv element",
        }),
        adapter: fromDefaults(
          () => z.enum(['generic', 'claude', 'codex', 'gemini', 'copilot']),
          'agent',
          'adapter',
        ),
        env: fromDefaults(() => z.record(z.string(), z.string()), 'agent', 'env'),
        env_passthrough: fromDefaults(
          () => z.array(z.string().regex(/^[^=\s]+$/, 'an environment variable name')),
          'agent',
          'env_passthrough',
        ).meta({
          description:
            'Variables proctor otherwise withholds from the agent and hooks (INPUT_*, ACTIONS_RUNTIME_TOKEN, GITHUB_TOKEN...) that you hand them anyway',
        }),
        cwd: z.string().optional(),
        cols: fromDefaults(() => z.number().int().min(20).max(1000), 'agent', 'cols'),
        rows: fromDefaults(() => z.number().int().min(5).max(500), 'agent', 'rows'),
        typing: fromDefaults(typing, 'agent', 'typing').meta({
          description: "How proctor types the stop hooks' reasons into an interactive agent",
        }),
        quit: z.string().min(1).optional().meta({
          description:
            'Keys that make an interactive agent exit by itself once the session is decided (e.g. "/exit\\r"; a final \\r is sent as its own Enter); proctor stops it (SIGTERM, grace, SIGKILL) if it is still running after timeouts.grace',
        }),
      }),
    'agent',
  ),
  timeouts: fromDefaults(
    () =>
      z.strictObject({
        total: fromDefaults(() => duration({ min: 1 }), 'timeouts', 'total'),
        idle: fromDefaults(() => duration({ min: 1 }), 'timeouts', 'idle'),
        grace: fromDefaults(() => duration({ max: 60_000 }), 'timeouts', 'grace'),
      }),
    'timeouts',
  ),
  output: fromDefaults(
    () =>
      z.strictObject({
        transcript_max: fromDefaults(() => size(), 'output', 'transcript_max'),
        // Accepted so existing files load; parse.ts warns that it does nothing.
        buffer: size().optional().meta({ description: 'No effect (deprecated): remove it' }),
        passthrough: fromDefaults(() => z.boolean(), 'output', 'passthrough'),
      }),
    'output',
  ),
  detect: fromDefaults(() => z.array(detectRule()), 'detect'),
  detect_presets: fromDefaults(() => z.array(z.enum(['prompts'])), 'detect_presets'),
  checkpoints: fromDefaults(
    () =>
      z.strictObject({
        enabled: fromDefaults(() => z.boolean(), 'checkpoints', 'enabled'),
        branch: fromDefaults(() => z.string().min(1), 'checkpoints', 'branch'),
        interval: fromDefaults(() => duration(), 'checkpoints', 'interval'),
        max_changes: fromDefaults(() => z.number().int().min(1), 'checkpoints', 'max_changes'),
        min_interval: fromDefaults(() => duration(), 'checkpoints', 'min_interval'),
        push: fromDefaults(() => z.enum(['auto', 'always', 'never']), 'checkpoints', 'push'),
        remote: fromDefaults(() => z.string().min(1), 'checkpoints', 'remote'),
        push_timeout: fromDefaults(() => duration(), 'checkpoints', 'push_timeout').meta({
          description:
            'The most one push of the checkpoints may take, every retry and fetch included; then git is killed and the push is reported as timed out',
        }),
        max_file_size: fromDefaults(() => size(), 'checkpoints', 'max_file_size'),
        pause_agent: fromDefaults(() => z.boolean(), 'checkpoints', 'pause_agent'),
        on_events: fromDefaults(() => z.array(z.string()), 'checkpoints', 'on_events'),
        push_on_pre_push: fromDefaults(() => z.boolean(), 'checkpoints', 'push_on_pre_push'),
        push_ci_changes: fromDefaults(() => z.boolean(), 'checkpoints', 'push_ci_changes').meta({
          description:
            "Push checkpoints that change CI's definition (.github/workflows, local actions) since the baseline; off, they stay local: the pushed workflows would run with the repository's secrets",
        }),
        max_failures: fromDefaults(() => z.number().int().min(0), 'checkpoints', 'max_failures').meta({
          description:
            'Consecutive failed checkpoints tolerated; one more stops the agent and ends the session errored (exit 1)',
        }),
      }),
    'checkpoints',
  ),
  policy: fromDefaults(
    () =>
      z.strictObject({
        allowed_areas: fromDefaults(() => z.array(z.string()), 'policy', 'allowed_areas'),
        forbidden_areas: fromDefaults(() => z.array(z.string()), 'policy', 'forbidden_areas'),
        protected_areas: fromDefaults(() => z.array(z.string()), 'policy', 'protected_areas'),
        secret_allowed_paths: fromDefaults(() => z.array(z.string()), 'policy', 'secret_allowed_paths').meta({
          description:
            "Globs of files secretlint's rules do not judge (documented examples, fixtures with fake keys); the values proctor knows and copies of forbidden files are still found there",
        }),
        violation_severity: fromDefaults(severity, 'policy', 'violation_severity'),
        severities: fromDefaults(() => z.record(z.string(), severity()), 'policy', 'severities').meta({
          description:
            'Severity per constraint (forbidden_area, protected_area, outside_allowed, symlink_escape, new_executable, file_size, diff_size, unsafe_path, git_tamper, tests_weakened, secret_content)',
        }),
        revert_on_violation: fromDefaults(() => z.boolean(), 'policy', 'revert_on_violation'),
        max_file_size: size().optional(),
        max_diff_size: size().optional(),
        allow_new_executables: fromDefaults(() => z.boolean(), 'policy', 'allow_new_executables'),
        git_tamper: fromDefaults(() => z.enum(['undo', 'report', 'off']), 'policy', 'git_tamper').meta({
          description:
            "Changes to the repository's git config, hooks, info/attributes or info/exclude: undo them (critical git_tamper violation), only report them, or do not check",
        }),
        tests: fromDefaults(testsSection, 'policy', 'tests').meta({
          description:
            'Where the tests (per language) and the test-runner and coverage configs live, for the tests_weakened constraint; an empty list judges none of them',
        }),
      }),
    'policy',
  ),
  stop_hooks: fromDefaults(
    () =>
      z.array(
        z.strictObject({
          name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-"'),
          // One of command and uses (cross-checks.ts says which is missing).
          command: commandField().optional(),
          uses: z.enum(['ci-checks']).optional().meta({
            description:
              "A built-in hook instead of a command: ci-checks pushes the checkpoint and waits for the repository's CI on it (docs/hooks.md#the-prs-ci-as-a-stop-hook)",
          }),
          with: z
            .strictObject({
              checks: z.array(z.string().min(1)).optional().meta({
                description:
                  "ci-checks: the checks to wait for when the repository's required checks cannot be read (or none are required); default every check on the commit",
              }),
              branch: z.string().min(1).optional().meta({
                description:
                  "ci-checks: whose required checks count (default the pull request's base branch, else the repository's default branch)",
              }),
              poll_interval: lazyDefault(() => duration({ min: 1_000, max: 10 * 60_000 }), 15_000).meta({
                description:
                  'ci-checks: time between two reads of the checks (longer when the rate limit runs low)',
              }),
            })
            .optional()
            .meta({ description: 'Options of the built-in hook named by uses' }),
          timeout: lazyDefault(() => duration(), 10 * 60_000),
          on_error: lazyDefault(() => z.enum(['allow', 'block']), 'block').meta({
            description:
              'block: a failing hook (non-zero exit) or one that cannot run blocks; allow: those are reported, never block',
          }),
          advisory: lazyDefault(() => z.boolean(), false).meta({
            description: 'Report this hook, never block on it (its check run is neutral)',
          }),
          gate_files: z.array(z.string().min(1)).optional().meta({
            description:
              'Globs (relative to the repository root, as in policy areas) of files this hook executes as judge, such as helpers its tests import: in the two-job layout the verify job puts them back to the checked-out version and a change to one is a critical gate_file violation',
          }),
        }),
      ),
    'stop_hooks',
  ),
  max_stop_rounds: fromDefaults(() => z.number().int().min(1).max(20), 'max_stop_rounds'),
  hooks: fromDefaults(() => z.partialRecord(z.enum(lifecycleEvents), z.array(hookEntry())), 'hooks'),
  hooks_async_pool_size: fromDefaults(() => z.number().int(), 'hooks_async_pool_size'),
  hooks_async_shutdown_grace: fromDefaults(() => duration({ max: 60_000 }), 'hooks_async_shutdown_grace'),
  hooks_async_drain_timeout: fromDefaults(
    () => duration({ max: 10 * 60_000 }),
    'hooks_async_drain_timeout',
  ).meta({
    description: 'How long async hooks still running at the end may take before they are stopped',
  }),
  pricing: fromDefaults(
    () =>
      z.record(
        z.string().min(1),
        z.strictObject({
          input: z.number().min(0),
          output: z.number().min(0),
          cached_input: z.number().min(0).optional(),
          cache_write: z.number().min(0).optional(),
        }),
      ),
    'pricing',
  ).meta({
    description:
      'USD per million tokens by model id or glob, over the built-in price table (docs/configuration.md#pricing)',
  }),
  batch: fromDefaults(
    () =>
      z.strictObject({
        concurrency: fromDefaults(() => z.number().int().min(1).max(64), 'batch', 'concurrency'),
        keep_worktrees: fromDefaults(() => z.boolean(), 'batch', 'keep_worktrees'),
        tasks: fromDefaults(
          () =>
            z.array(
              z.strictObject({
                name: z.string().min(1),
                command: argv().optional(),
                shell: z.string().min(1).optional(),
                role: z.string().optional(),
                timeout: duration().optional(),
              }),
            ),
          'batch',
          'tasks',
        ),
      }),
    'batch',
  ),
  github: fromDefaults(
    () =>
      z.strictObject({
        comment: fromDefaults(() => z.enum(['sticky', 'new', 'off']), 'github', 'comment'),
        checks: fromDefaults(() => z.boolean(), 'github', 'checks'),
        key: fromDefaults(() => z.string().min(1), 'github', 'key'),
        fail_on: fromDefaults(() => z.enum(['block', 'violation-error', 'never']), 'github', 'fail_on'),
        publish: fromDefaults(() => z.enum(['each', 'aggregate']), 'github', 'publish').meta({
          description:
            'each: every session writes its own comment and check runs; aggregate: sessions write nothing to GitHub and the mode: aggregate job publishes once for all of them (docs/github.md#api-cost)',
        }),
        trigger: fromDefaults(trigger, 'github', 'trigger').meta({
          description:
            'What starts a session from a comment or a label (docs/github.md#a-task-from-a-comment)',
        }),
      }),
    'github',
  ),
  model_api: fromDefaults(
    () =>
      z.strictObject({
        proxy: fromDefaults(() => z.boolean(), 'model_api', 'proxy').meta({
          description:
            "Run the agent's model calls through proctor's metering proxy on loopback: proctor keeps the real key, the agent gets a placeholder and the proxy's base URL (docs/agents.md#the-model-api-proxy); the presets turn it on",
        }),
        api: z.enum(['anthropic', 'openai', 'gemini']).optional().meta({
          description: 'Which model API the agent speaks (the presets set it)',
        }),
        upstream: z
          .url({ protocol: /^https?$/ })
          .optional()
          .meta({
            description:
              "Where the proxy forwards (default: the base-URL variable in proctor's environment, else the API's public endpoint)",
          }),
        retries: fromDefaults(() => z.number().int().min(0).max(50), 'model_api', 'retries').meta({
          description:
            'Failed answers in a row (429, 529, 5xx, no answer) the agent may retry before the session ends with that reason',
        }),
      }),
    'model_api',
  ),
  budget: fromDefaults(
    () =>
      z.strictObject({
        usd: z.number().positive().optional().meta({
          description: "Estimated USD (the price table's estimate) the session may spend on model calls",
        }),
        tokens: z.number().int().positive().optional().meta({
          description: 'Input + output tokens the session may use',
        }),
        requests: z.number().int().positive().optional().meta({
          description: 'Model requests the session may make',
        }),
        warn_at: fromDefaults(() => z.number().min(0).max(1), 'budget', 'warn_at').meta({
          description: 'Share of a limit at which a warning event is recorded (once)',
        }),
        batch: z
          .strictObject({
            usd: z.number().positive().optional(),
            tokens: z.number().int().positive().optional(),
            requests: z.number().int().positive().optional(),
          })
          .optional()
          .meta({
            description:
              'Limits for all the sessions of a `proctor batch` together: once reached, every running session is stopped (status budget) and the ones that start later are refused at their first model call',
          }),
      }),
    'budget',
  ),
})

/** proctor.yml as written (before defaults). */
export type ConfigInput = z.input<typeof configSchema>
/** proctor.yml after parsing: durations in ms, sizes in bytes, defaults applied. */
export type Config = z.output<typeof configSchema>
export type DetectRule = Config['detect'][number]
export type StopHookConfig = Config['stop_hooks'][number]
export type LifecycleEvent = (typeof lifecycleEvents)[number]
export type HookEntry = z.output<ReturnType<typeof hookEntry>>
export type TypingConfig = Config['agent']['typing']
