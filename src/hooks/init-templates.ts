// The files `proctor init` writes. PRE_PUSH_SCRIPT is also the repository's hooks/pre-push (a test keeps
// the two identical), so the husky hook and a plain core.hooksPath hook behave the same.

export const PRE_PUSH_SCRIPT = `#!/bin/sh
# proctor pre-push hook: runs proctor's stop hooks before every push (docs/hooks.md).
# git passes "<remote> <url>" as arguments and one line per pushed ref on stdin; both go to proctor unchanged.
# Skip once with PROCTOR_SKIP=1 git push (or HUSKY=0). PROCTOR_BIN may name the proctor command,
# with arguments separated by spaces (e.g. "node /path/to/cli.js").
if [ "\${PROCTOR_SKIP:-}" = "1" ] || [ "\${HUSKY:-}" = "0" ]; then
  echo "proctor: pre-push stop hooks skipped (PROCTOR_SKIP=1 or HUSKY=0)" >&2
  exit 0
fi
if [ -n "\${PROCTOR_BIN:-}" ]; then
  exec $PROCTOR_BIN check --pre-push "$@"
elif [ -x node_modules/.bin/proctor ]; then
  exec node_modules/.bin/proctor check --pre-push "$@"
elif command -v proctor >/dev/null 2>&1; then
  exec proctor check --pre-push "$@"
elif command -v npx >/dev/null 2>&1 && npx --no-install proctor --version >/dev/null 2>&1; then
  exec npx --no-install proctor check --pre-push "$@"
fi
echo "proctor: cannot find proctor (tried \\$PROCTOR_BIN, node_modules/.bin/proctor, PATH, npx --no-install)." >&2
echo "proctor: install it (npm install --save-dev proctor) or skip once with PROCTOR_SKIP=1 git push" >&2
exit 1
`

export const STARTER_CONFIG = `# proctor.yml — see docs/configuration.md and docs/hooks.md
agent:
  # The agent to supervise, as an argv array (or shell: "...").
  command: [claude, -p, "Fix the failing test"]
  pty: true
  # Run when the stop hooks block after the agent exited; {reason} becomes one argument.
  continue: [claude, --continue, -p, "{reason}"]

timeouts: { total: 30m, idle: 10m, grace: 5s }

checkpoints:
  branch: "proctor/{session}"
  interval: 30s
  push: auto

policy:
  protected_areas: [".github/**"]

# Stop hooks run in parallel when the agent finishes, before a push (proctor check --pre-push) and as
# required checks in CI. Exit 0 allows; a failing command (npm test exiting 1) blocks and its output goes back
# to the agent; a command that cannot run (not found, timed out) blocks too, for you to fix.
stop_hooks:
  - name: tests
    command: "npm test"
    timeout: 10m

max_stop_rounds: 3

# Lifecycle hooks get a JSON payload on stdin; async ones run in a bounded pool.
# hooks:
#   checkpoint:
#     - { command: ./scripts/notify.sh, async: true, timeout: 60s }
`

export const EXAMPLE_WORKFLOW = `# An example: run a supervised agent session on demand and report to the pull request.
name: proctor
on:
  workflow_dispatch:
  pull_request:

permissions:
  contents: write        # push checkpoint branches
  pull-requests: write   # the sticky comment
  checks: write          # one check run per stop hook

jobs:
  agent:
    runs-on: ubuntu-latest
    timeout-minutes: 45
    steps:
      - uses: actions/checkout@v5
      - uses: actions/setup-node@v5
        with:
          node-version: 24
      - run: npm ci
      - uses: <owner>/proctor@v1
        with:
          config: proctor.yml
        env:
          ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
`
