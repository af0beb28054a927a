// The text of the proctor.yml and the workflow `proctor init` writes, per agent. The workflow is meant to
// run on GitHub as written: a test validates it against GitHub's workflow schema.
import { AGENT_SETUPS, commandFor, type AgentSetup, type InitAgent, type InitTrigger } from './agents.js'
import { findAgentPreset } from '../agents/presets/index.js'
import { proctorManifest } from '../util/package-manifest.js'

/**
 * Where editors fetch proctor.yml's JSON Schema: schema/ of the npm package at the version that wrote the
 * file (package.json's `files` ships it), served by a public npm CDN. Pinned to the exact version, so it
 * exists the moment that version is published and describes the keys that version reads.
 */
export function schemaUrl({ name, version }: { name: string; version: string } = proctorManifest()): string {
  return `https://unpkg.com/${name}@${version}/schema/proctor.schema.json`
}

/** YAML flow sequence of double-quoted strings (JSON strings are valid YAML). */
function flow(argv: readonly string[]): string {
  return `[${argv.map((arg) => JSON.stringify(arg)).join(', ')}]`
}

function agentBlock(setup: AgentSetup, agent: InitAgent, trigger: InitTrigger): string {
  const preset = findAgentPreset(agent)
  const lines = ['agent:']
  if (preset) {
    lines.push(
      `  # The ${preset.name} preset (docs/agents.md): its prompts and errors, how to type into it, its own`,
      `  # Stop hook wired to proctor, its continue command. Tested with ${preset.package} ${preset.testedVersions.join(', ')}.`,
      `  preset: ${preset.name}`,
    )
  }
  const command = commandFor(setup, trigger)
  if (command) {
    lines.push(
      `  # ${setup.title}, headless: ${setup.permissionNote}.`,
      trigger === 'pull_request'
        ? '  # Edit the task to what the agent should do.'
        : '  # {task} is the task from the comment or label, as ONE argument (never parsed by a shell).',
      `  command: ${flow(command)}`,
    )
  } else {
    lines.push(
      `  # ${setup.title}: a shell string run by sh (pipes and && work); ${setup.permissionNote}.`,
      ...(trigger === 'pull_request'
        ? []
        : ['  # The task from the comment or label is in $PROCTOR_TASK (quote it: "$PROCTOR_TASK").']),
      `  shell: ${JSON.stringify(setup.shell)}`,
    )
  }
  // A preset that says how the agent runs (opencode: a pipe) is not overridden here.
  if (preset?.config.agent?.pty === undefined) lines.push('  pty: true')
  // Written with a preset too: the preset's continue has no permission flags, which a one-shot agent needs.
  if (setup.continueCommand) {
    lines.push(
      "  # The next round after the agent exited (the stop hooks' reasons, or /proctor continue feedback):",
      "  # {agent_session} resumes the agent's own session; without it, a fresh agent. {reason} is one argument.",
      `  continue: ${flow(setup.continueCommand)}`,
    )
  }
  return lines.join('\n')
}

export function configTemplate(agent: InitAgent, trigger: InitTrigger = 'pull_request'): string {
  const setup = AGENT_SETUPS[agent]
  return `# yaml-language-server: $schema=${schemaUrl()}
# proctor.yml: what proctor supervises and how. Every key is optional; docs/configuration.md lists them.
# Check it with: proctor config validate
${agentBlock(setup, agent, trigger)}
${triggerBlock(trigger)}
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

function triggerBlock(trigger: InitTrigger): string {
  if (trigger === 'pull_request') return ''
  return `
# What gives proctor a task (docs/github.md#a-task-from-a-comment): a comment with "@proctor <task>" or
# "/proctor <task>" from someone with write access, or the label on an issue or pull request.
github:
  trigger: { phrase: ["@proctor", "/proctor"], label: proctor }
`
}

export interface WorkflowOptions {
  agent: InitAgent
  /** The `uses:` value, e.g. `acme/proctor@v1`. */
  action: string
  /** How the repository's own dependencies are installed before the session (null: no step). */
  install: 'npm ci' | 'npm install' | null
  /** What starts a session (default pull_request: the one-job layout's trigger). */
  trigger?: InitTrigger
}

export type WorkflowLayout = 'one-job' | 'two-job'

function secretNote(setup: AgentSetup): string {
  return setup.secret
    ? `# Needs the repository secret ${setup.secret} (Settings > Secrets and variables > Actions).\n`
    : ''
}

/** Checkout (head of the PR when `head`), Node, the repository's dependencies. */
function setupSteps(options: WorkflowOptions, head: boolean): string[] {
  const ref = head ? `\n          ref: ${headRef(options)}` : ''
  const steps = [
    `      - uses: actions/checkout@v5
        with:${ref}
          # Keep the token out of .git/config, where the agent and the stop hooks could read it.
          persist-credentials: false`,
    `      - uses: actions/setup-node@v5
        with:
          node-version: 24`,
  ]
  if (options.install) steps.push(`      - run: ${options.install}`)
  return steps
}

/**
 * The commit the agent starts from: the pull request's head; for a comment on a pull request (whose
 * payload has no head), GitHub's ref of it; for an issue, the default branch.
 */
function headRef(options: WorkflowOptions): string {
  // A follow-up round (`/proctor continue|retry`) starts from the commit the acknowledge job names.
  return (options.trigger ?? 'pull_request') === 'pull_request'
    ? '${{ github.event.pull_request.head.sha }}'
    : "${{ needs.acknowledge.outputs.ref || github.event.pull_request.head.sha || (github.event.issue.pull_request && format('refs/pull/{0}/head', github.event.issue.number)) || '' }}"
}

/** The agent CLI's install step and the proctor step with the agent's environment. */
function agentSteps(options: WorkflowOptions, inputs: readonly string[]): string[] {
  const setup = AGENT_SETUPS[options.agent]
  const steps: string[] = []
  if (setup.npmPackage) {
    steps.push(`      - name: Install ${setup.title}
        # Pin the version you have tested (${setup.npmPackage}@x.y.z).
        run: npm install --global ${setup.npmPackage}`)
  }
  const env = Object.entries(setup.env).map(([key, value]) => `          ${key}: '${value}'`)
  if (setup.secret) env.unshift(`          ${setup.secret}: \${{ secrets.${setup.secret} }}`)
  steps.push(
    `      - name: Agent session under proctor
        id: proctor
        uses: ${options.action}
        with:
${inputs.map((input) => `          ${input}`).join('\n')}` +
      (env.length ? `\n        env:\n${env.join('\n')}` : ''),
  )
  return steps
}

export function workflowFor(layout: WorkflowLayout, options: WorkflowOptions): string {
  return layout === 'two-job' ? twoJobWorkflowTemplate(options) : workflowTemplate(options)
}

/** The one-job layout: one job holds the write token, so it runs on trusted triggers only. */
export function workflowTemplate(options: WorkflowOptions): string {
  const setup = AGENT_SETUPS[options.agent]
  const steps = [...setupSteps(options, false), ...agentSteps(options, ['config: proctor.yml'])]
  return `# proctor: a supervised ${setup.title} session, on demand and on pull requests from this repository.
# Written by \`proctor init --agent ${options.agent}\`; proctor.yml says what the agent runs and which
# stop hooks gate it.
${secretNote(setup)}#
# This job holds a write token, so it runs on trusted triggers only: never on a fork's pull request, an
# issue or a comment (text anyone can write), and never for a bot (a loop of sessions). For those, use
# \`proctor init --layout two-job\`, where the agent's job has no write token (docs/action.md).
name: proctor

on:
  workflow_dispatch:
  # Not on every push (each run is a paid agent): add synchronize to the types to run on each one.
  pull_request:
    types: [opened, reopened]

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

/**
 * The two-job layout, for triggers whose text or code anyone can write: the agent runs in a job with
 * `contents: read` and no token, and hands its checkpoints over as an artifact; a verify job with
 * `contents: read` only re-runs the policy and the stop hooks (the agent's code runs there, never beside
 * a write token); a publish job that runs none of the agent's code holds the write permissions, reads
 * the verify job's conclusion from GitHub and alone publishes and pushes.
 */
export function twoJobWorkflowTemplate(options: WorkflowOptions): string {
  const setup = AGENT_SETUPS[options.agent]
  const trigger = options.trigger ?? 'pull_request'
  const conversation = trigger !== 'pull_request'
  const agent = [
    ...setupSteps(options, true),
    ...agentSteps(options, [
      'mode: run',
      'handoff: true # upload proctor-handoff-<session>; push, comment and check nothing',
      conversation
        ? "# This job's token is read-only (contents: read): proctor checks the commenter's permission with it\n          # and withholds it from the agent and the hooks."
        : "github-token: '' # this job needs no token at all",
    ]),
  ]
  const verify = [
    ...setupSteps(options, true),
    `      - name: Run the gates on the agent's work (no write token here)
        uses: ${options.action}
        with:
          mode: verify
          artifact-pattern: proctor-handoff-*`,
  ]
  // A comment or label that gave no task leaves no session: verify and publish have nothing to do.
  const ran = conversation
    ? "!cancelled() && needs.agent.outputs.session-id != ''"
    : "!cancelled() && needs.agent.result != 'skipped'"
  return `# proctor, two-job layout: a supervised ${setup.title} session whose job holds no write token, a verify
# job that re-runs the gates on its work (also without a write token: the stop hooks run the agent's
# code), and a publish job that runs none of the agent's code and alone publishes and pushes. The
# layout for triggers whose text or code anyone can write (issues, comments, pull requests from forks).
# Written by \`proctor init --agent ${options.agent} ${trigger === 'pull_request' ? '--trigger pull_request --layout two-job' : `--trigger ${trigger}`}\`; docs/action.md#two-job-layout explains it.
${secretNote(setup)}#
# Make proctor / tests (and proctor / policy) required checks: neither the agent nor its code can forge them.
name: proctor

${TRIGGER_EVENTS[trigger]}
# Nothing by default; each job asks for exactly what it needs.
permissions: {}

${
  conversation
    ? ''
    : `concurrency:
  group: proctor-\${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: false

`
}jobs:
${conversation ? acknowledgeJob(options, trigger) : ''}  agent:
${
  conversation
    ? `    needs: acknowledge
    if: needs.acknowledge.outputs.task == 'true'`
    : AGENT_IF[trigger]
}
    runs-on: ubuntu-latest
    timeout-minutes: 45${
      conversation
        ? `
    # One round per issue or pull request at a time (here, not on the workflow: \`/proctor stop\` must not
    # wait behind the round it cancels).
    concurrency:
      group: proctor-\${{ github.event.pull_request.number || github.event.issue.number }}
      cancel-in-progress: false`
        : ''
    }
    permissions:
      contents: read # the checkout; no write token exists in this job${
        conversation
          ? `
      issues: read # a continue reads the earlier rounds from the conversation comment
      pull-requests: read
    outputs:
      session-id: \${{ steps.proctor.outputs.session-id }}`
          : ''
      }
    steps:
${agent.join('\n')}

  verify:
    needs: ${conversation ? '[acknowledge, agent]' : 'agent'}
    # The agent's failure is a result to report, not a reason to skip the gate.
    if: \${{ ${ran} }}
    runs-on: ubuntu-latest
    timeout-minutes: 20
    permissions:
      contents: read # the stop hooks run the agent's code: no write token exists in this job
    steps:
${verify.join('\n')}

  publish:
    needs: ${conversation ? '[acknowledge, agent, verify]' : '[agent, verify]'}
    # A failed verify job is published too (as failing checks); its conclusion is read from GitHub.
    if: \${{ ${ran} }}
    runs-on: ubuntu-latest
    timeout-minutes: 10
    permissions:
      contents: write # push the checkpoint branch proctor/<session>
      pull-requests: write # the sticky PR comment${conversation ? '\n      issues: write # the sticky comment on an issue' : ''}
      checks: write # proctor / <hook> and proctor / policy
      actions: read # the verify job's conclusion, as GitHub recorded it
    steps:
      # No setup, no install: nothing of the agent's runs here.
      - uses: actions/checkout@v5
        with:
          ref: ${headRef(options)}
          persist-credentials: false
      - name: Publish the verified results
        uses: ${options.action}
        with:
          mode: publish
          verify-job: verify
`
}

/**
 * The first job for comment and label triggers: no agent, no code of anyone's but proctor's. It decides
 * whether there is a task and whether its author may give it, and reacts at once.
 */
function acknowledgeJob(options: WorkflowOptions, trigger: InitTrigger): string {
  return `  acknowledge:
${AGENT_IF[trigger]}
    runs-on: ubuntu-latest
    timeout-minutes: 5
    # Runs no agent code (only proctor's, with proctor.yml from the default branch): the follow-ups that
    # write (docs/github.md#the-conversation) run here.
    permissions:
      contents: write # proctor.yml (github.trigger); /proctor restore moves the checkpoint branch
      issues: write # the eyes reaction and the conversation comment on an issue
      pull-requests: write # the same on a pull request; /proctor promote opens the pull request
      actions: write # /proctor stop cancels the running round's workflow run
    outputs:
      task: \${{ steps.proctor.outputs.task }}
      ref: \${{ steps.proctor.outputs.ref }}
    steps:
      - uses: actions/checkout@v5
        with:
          ref: \${{ github.event.repository.default_branch }}
          sparse-checkout: proctor.yml
          sparse-checkout-cone-mode: false
          persist-credentials: false
      - name: Is this a task, from someone who may give one?
        id: proctor
        uses: ${options.action}
        with:
          mode: acknowledge

`
}

/** The `on:` block per trigger. */
const TRIGGER_EVENTS: Record<InitTrigger, string> = {
  mention: `# "@proctor <task>" or "/proctor <task>" in a comment, a review comment or a review's body.
on:
  issue_comment:
    types: [created]
  pull_request_review_comment:
    types: [created]
  pull_request_review:
    types: [submitted]
`,
  label: `# The label "proctor" on an issue or a pull request: its title and body are the task.
on:
  issues:
    types: [labeled]
  pull_request:
    types: [labeled]
`,
  pull_request: `# Not on every push (each run is a paid agent): add synchronize to the types to run on each one.
on:
  workflow_dispatch:
  pull_request:
    types: [opened, reopened]
`,
}

/**
 * Saves a runner for what cannot be a task (contains() is a rough, case-insensitive test; proctor decides
 * exactly, and says why in one log line). Keep the phrases and the label in step with github.trigger in
 * proctor.yml. Never for a bot (a loop of sessions) or on proctor's own branches.
 */
const AGENT_IF: Record<InitTrigger, string> = {
  mention: `    # The phrases of github.trigger in proctor.yml, or a reply on a session's own pull request (its
    # checkpoint branch proctor/…); proctor checks the commenter's write access.
    if: >-
      !endsWith(github.actor, '[bot]') &&
      (contains(github.event.comment.body, '@proctor') || contains(github.event.comment.body, '/proctor') ||
      contains(github.event.review.body, '@proctor') || contains(github.event.review.body, '/proctor') ||
      (github.event.pull_request.head.repo.full_name == github.repository &&
      startsWith(github.event.pull_request.head.ref, 'proctor/')))`,
  label: `    # The label of github.trigger in proctor.yml; proctor checks the permission of who added it.
    if: >-
      !endsWith(github.actor, '[bot]') &&
      github.event.label.name == 'proctor'`,
  pull_request: `    # Never for a bot (a loop of sessions) or on proctor's own branches.
    if: >-
      !endsWith(github.actor, '[bot]') &&
      !startsWith(github.head_ref, 'proctor/')`,
}
