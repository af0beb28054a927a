// The text of the proctor.yml and the workflow `proctor init` writes, per agent. The workflow is meant to
// run on GitHub as written: a test validates it against GitHub's workflow schema.
import { AGENT_SETUPS, type AgentSetup, type InitAgent } from './agents.js'

/**
 * Where editors fetch proctor.yml's JSON Schema: the schema/ directory of the published npm package,
 * major version 1, served by a public npm CDN. It moves only with a new major version.
 */
export const SCHEMA_URL = 'https://unpkg.com/proctor@1/schema/proctor.schema.json'

/** YAML flow sequence of double-quoted strings (JSON strings are valid YAML). */
function flow(argv: readonly string[]): string {
  return `[${argv.map((arg) => JSON.stringify(arg)).join(', ')}]`
}

function agentBlock(setup: AgentSetup): string {
  const lines = ['agent:']
  if (setup.command) {
    lines.push(
      `  # ${setup.title}, headless: ${setup.permissionNote}.`,
      '  # Edit the task to what the agent should do.',
      `  command: ${flow(setup.command)}`,
    )
  } else {
    lines.push(
      `  # ${setup.title}: a shell string run by sh (pipes and && work); ${setup.permissionNote}.`,
      `  shell: ${JSON.stringify(setup.shell)}`,
    )
  }
  lines.push('  pty: true')
  if (setup.continueCommand) {
    lines.push(
      '  # Run when the stop hooks block after the agent exited; {reason} becomes one argument.',
      `  continue: ${flow(setup.continueCommand)}`,
    )
  }
  return lines.join('\n')
}

export function configTemplate(agent: InitAgent): string {
  const setup = AGENT_SETUPS[agent]
  return `# yaml-language-server: $schema=${SCHEMA_URL}
# proctor.yml: what proctor supervises and how. Every key is optional; docs/configuration.md lists them.
# Check it with: proctor config validate
${agentBlock(setup)}

# The whole session (agent and stop-hook rounds), silence before the agent counts as stuck, and the
# time it gets to exit after SIGTERM.
timeouts: { total: 30m, idle: 10m, grace: 5s }

# The agent's work is committed to a scratch branch as it goes (never to your branch). Files that are
# not the agent's work (dependencies, build output) belong in .gitignore, or every checkpoint records them.
checkpoints:
  branch: "proctor/{session}"
  interval: 30s
  push: auto # CI pushes the branch; a laptop keeps it local

policy:
  # Changes here are reported as violations (the agent must not edit its own workflow).
  protected_areas: [".github/**"]

# Stop hooks run in parallel when the agent finishes, before every push (the pre-push hook) and as
# required checks in CI (proctor / <name>). Exit 0 allows; a failing command (npm test exiting 1) blocks
# and its output goes back to the agent; a command that cannot run (not found, timed out) blocks too,
# for you to fix (docs/hooks.md).
stop_hooks:
  - name: tests
    command: "npm test"
    timeout: 10m

# How often the agent is sent back to fix what the stop hooks found.
max_stop_rounds: 3

# Lifecycle hooks get a JSON payload on stdin; async ones run in a bounded pool.
# hooks:
#   checkpoint:
#     - { command: ./scripts/notify.sh, async: true, timeout: 60s }
`
}

export interface WorkflowOptions {
  agent: InitAgent
  /** The `uses:` value, e.g. `acme/proctor@v1`. */
  action: string
  /** How the repository's own dependencies are installed before the session (null: no step). */
  install: 'npm ci' | 'npm install' | null
}

/** The one-job layout: one job holds the write token, so it runs on trusted triggers only. */
export function workflowTemplate(options: WorkflowOptions): string {
  const setup = AGENT_SETUPS[options.agent]
  const secretNote = setup.secret
    ? `# Needs the repository secret ${setup.secret} (Settings > Secrets and variables > Actions).\n`
    : ''
  const steps: string[] = [
    `      - uses: actions/checkout@v5
        with:
          # Keep the token out of .git/config, where the agent and the stop hooks could read it.
          persist-credentials: false`,
    `      - uses: actions/setup-node@v5
        with:
          node-version: 24`,
  ]
  if (options.install) steps.push(`      - run: ${options.install}`)
  if (setup.npmPackage) {
    steps.push(`      - name: Install ${setup.title}
        # Pin the version you have tested (${setup.npmPackage}@x.y.z).
        run: npm install --global ${setup.npmPackage}`)
  }
  const env = Object.entries(setup.env).map(([key, value]) => `          ${key}: '${value}'`)
  if (setup.secret) env.unshift(`          ${setup.secret}: \${{ secrets.${setup.secret} }}`)
  steps.push(
    `      - name: Agent session under proctor
        uses: ${options.action}
        with:
          config: proctor.yml` + (env.length ? `\n        env:\n${env.join('\n')}` : ''),
  )
  return `# proctor: a supervised ${setup.title} session, on demand and on pull requests from this repository.
# Written by \`proctor init --agent ${options.agent}\`; proctor.yml says what the agent runs and which
# stop hooks gate it.
${secretNote}#
# This job holds a write token, so it runs on trusted triggers only: never on a fork's pull request, an
# issue or a comment (text anyone can write), and never for a bot (a loop of sessions). For those, use
# proctor's two-job layout (docs/action.md), where the agent's job has no write token.
name: proctor

on:
  workflow_dispatch:
  pull_request:
    types: [opened, synchronize, reopened]

# Nothing by default; the job asks for what it needs.
permissions: {}

# One session per pull request at a time; a newer push waits instead of killing a session mid-way.
concurrency:
  group: proctor-\${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: false

jobs:
  agent:
    # Not for fork PRs (someone else's code, no secrets), not for bots, not on proctor's own branches.
    if: >-
      github.event_name == 'workflow_dispatch' ||
      (github.event.pull_request.head.repo.full_name == github.repository &&
      !endsWith(github.actor, '[bot]') &&
      !startsWith(github.head_ref, 'proctor/'))
    runs-on: ubuntu-latest
    # Above proctor.yml's timeouts.total (30m), so proctor stops the agent and reports before GitHub does.
    timeout-minutes: 45
    permissions:
      contents: write # push the checkpoint branch proctor/<session>
      pull-requests: write # the sticky PR comment
      checks: write # a check run per stop hook (proctor / tests) and proctor / policy
    steps:
${steps.join('\n')}
`
}
