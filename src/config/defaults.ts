// proctor.yml's defaults: the one copy of them. The schema takes each section's and each field's default
// from here (schema.ts, fromDefaults), and a session without a config file takes them as they are, so it
// starts its agent without loading zod and yaml (they are most of the config module's load time).
// (The defaults of a list item's fields — a stop hook's timeout, a detect rule's kind — are the schema's
// alone: an empty config has no item to hold them.)
import type { Config } from './schema.js'
import { testFileDefaults } from './test-files.js'

const DEFAULTS: Config = {
  agent: {
    pty: true,
    adapter: 'generic',
    env: {},
    env_passthrough: [],
    cols: 120,
    rows: 40,
    typing: { paste: 'auto', submit_delay: 50, confirm_timeout: 5000, submit_attempts: 3 },
  },
  timeouts: { total: 1800000, idle: 600000, grace: 5000 },
  output: { transcript_max: 67108864, passthrough: true },
  detect: [],
  detect_presets: [],
  checkpoints: {
    enabled: true,
    branch: 'proctor/{session}',
    interval: 30000,
    max_changes: 50,
    min_interval: 5000,
    push: 'auto',
    remote: 'origin',
    push_timeout: 60000,
    max_file_size: 5242880,
    pause_agent: true,
    on_events: ['completion'],
    push_on_pre_push: false,
    push_ci_changes: false,
    max_failures: 3,
  },
  policy: {
    allowed_areas: [],
    forbidden_areas: [],
    protected_areas: [],
    secret_allowed_paths: [],
    violation_severity: 'warning',
    severities: {},
    revert_on_violation: false,
    allow_new_executables: true,
    git_tamper: 'undo',
    tests: testFileDefaults(),
  },
  stop_hooks: [],
  max_stop_rounds: 3,
  hooks: {},
  hooks_async_pool_size: 10,
  hooks_async_shutdown_grace: 5000,
  hooks_async_drain_timeout: 30000,
  pricing: {},
  batch: { concurrency: 4, keep_worktrees: false, tasks: [] },
  github: {
    comment: 'sticky',
    checks: true,
    key: '{workflow}/{job}',
    fail_on: 'block',
    publish: 'each',
    trigger: { phrase: ['@proctor', '/proctor'], label: 'proctor' },
  },
  model_api: { proxy: false, retries: 3 },
  budget: { warn_at: 0.8 },
}

/**
 * A fresh copy of the default at `path` (`['agent']`, `['agent', 'typing', 'paste']`): what schema.ts gives
 * for a key a file leaves out (typed there: this module's type comes from the schema). Fresh, since zod
 * copies an object default only one level deep and sessions change their lists.
 */
export function defaultAt(path: readonly string[]): unknown {
  let value: unknown = DEFAULTS
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key))
      throw new Error(`config/defaults.ts has no default for ${path.join('.')}`)
    value = (value as Record<string, unknown>)[key]
  }
  return typeof value === 'object' ? structuredClone(value) : value
}

/** A fresh copy of the default config (callers may change theirs). */
export function defaultConfig(): Config {
  return structuredClone(DEFAULTS)
}
