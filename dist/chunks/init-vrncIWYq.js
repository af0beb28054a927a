import { O as Option } from './program-BYK52zZ4.js';
import { p as processHookIO } from './cli-io-CyKkUxyC.js';
import { s as sanitizeForTerminal } from './display-DkxjLBl3.js';
const { readFileSync, existsSync, writeFileSync } = process.getBuiltinModule("node:fs");
const { dirname, join, resolve } = process.getBuiltinModule("node:path");
const { fileURLToPath } = process.getBuiltinModule("node:url");
import { PROCTOR_VERSION } from './version-Cdk1chOm.js';
const { mkdir, writeFile, chmod } = process.getBuiltinModule("node:fs/promises");
import { $ as findRepoRoot } from './checkpoints-create-CJcO-Brq.js';
import { s as spawnManaged, S as SpawnError } from './process-oa2MkSfe.js';
import { findAgentPreset } from './index-DCWxLwDL.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';



import './commonjs-helpers-Bgu_3bK-.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';
import './errors-lvn-GX78.js';

import './registry-DMAlOnZf.js';



// proctor's own package.json, read where it is installed: the one place that says which GitHub repository
// the action lives in and which version this is. Found by walking up from this module's file, which works
// the same for the sources (src/util/), the build (dist/chunks/, past dist/package.json, which only marks
// the build as ESM) and an installed package (node_modules/proctor/dist/chunks/). So a package published
// with a `repository` fills `uses: <owner>/<name>@v1` in by itself, and one without never makes one up.
/** A GitHub `owner/name`, as `uses:` and `github.repository` write it. */
const OWNER_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;
/**
 * `owner/name` of the GitHub repository a package.json `repository` field names, or null for anything
 * else (another host, a malformed value). Accepts what npm accepts for GitHub: `owner/name`,
 * `github:owner/name`, and a URL (`git+https://`, `https://`, `git://`, `git+ssh://git@`, `git@github.com:`)
 * as a string or as `{ "url": … }`, with or without `.git`.
 */
function githubRepositoryOf(field) {
    const raw = typeof field === 'string'
        ? field
        : typeof field === 'object' && field !== null && typeof field.url === 'string'
            ? field.url
            : null;
    if (raw === null)
        return null;
    const value = raw.trim();
    const shorthand = /^(?:github:)?([^:/@#\s]+\/[^:/@#\s]+)$/.exec(value)?.[1];
    const url = /^(?:git\+)?(?:https?|git|ssh):\/\/(?:git@)?github\.com\/([^/#?\s]+\/[^/#?\s]+?)\/?(?:[#?].*)?$/i.exec(value)?.[1] ?? /^git@github\.com:([^/#?\s]+\/[^/#?\s]+?)\/?$/i.exec(value)?.[1];
    const found = (shorthand ?? url)?.replace(/\.git$/, '');
    // GitHub has no repository named . or .. (and `uses: acme/..@v1` would mean a path).
    return found !== undefined && OWNER_NAME.test(found) && !/\/\.{1,2}$/.test(found) ? found : null;
}
/** Reads a package.json's text into the manifest. */
function manifestFrom(text, path) {
    const pkg = JSON.parse(text);
    return {
        name: typeof pkg.name === 'string' ? pkg.name : 'proctor',
        version: typeof pkg.version === 'string' ? pkg.version : PROCTOR_VERSION,
        repository: githubRepositoryOf(pkg.repository),
        path,
    };
}
/**
 * The nearest package.json above `from` that declares the `proctor` binary, or null: dist/package.json
 * (no `bin`) and a stranger's package.json above a copied dist/ are passed by.
 */
function findPackageJson(from) {
    for (let dir = from;; dir = dirname(dir)) {
        const candidate = join(dir, 'package.json');
        try {
            const pkg = JSON.parse(readFileSync(candidate, 'utf8'));
            if (typeof pkg.bin === 'object' && pkg.bin !== null && 'proctor' in pkg.bin)
                return candidate;
        }
        catch {
            // No package.json here (or not JSON): keep walking up.
        }
        if (dirname(dir) === dir)
            return null;
    }
}
let cached;
/** proctor's package.json where it runs from; read once. Without one: no repository, PROCTOR_VERSION. */
function proctorManifest() {
    if (cached)
        return cached;
    const path = findPackageJson(dirname(fileURLToPath(import.meta.url)));
    cached = path
        ? manifestFrom(readFileSync(path, 'utf8'), path)
        : { name: 'proctor', version: PROCTOR_VERSION, repository: null, path: null };
    return cached;
}

// The `uses:` line `proctor init` writes. The action lives in proctor's own GitHub repository, which the
// installed package's package.json names in `repository` (src/util/package-manifest.ts); a package without
// one gets a placeholder that `init` asks the user to fill in (or --action), never a guessed owner.
/** The major-version tag the release workflow moves on every 1.x release. */
const ACTION_MAJOR_TAG = 'v1';
const ACTION_PLACEHOLDER = 'OWNER/proctor';
function defaultActionRef(repository = proctorManifest().repository) {
    return `${repository ?? ACTION_PLACEHOLDER}@${ACTION_MAJOR_TAG}`;
}
/** `owner/repo@ref` or `owner/repo/path@ref`, as a `uses:` line takes it; null when it is not. */
function checkActionRef(value) {
    return /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._/-]+)?@[A-Za-z0-9._/-]+$/.test(value)
        ? null
        : `--action ${JSON.stringify(value)} is not a \`uses:\` reference; write it as owner/repo@ref, e.g. acme/proctor@v1`;
}

// What `proctor init --agent` needs to know about each agent CLI to write a proctor.yml and a workflow
// that run unattended: how CI installs it, which secret authenticates it, and the flags that let it edit
// files without a human to approve each edit (headless, anything that would ask is denied).
//
// The permission flags, as each CLI documents them:
// - Claude Code: `-p` is headless; `--permission-mode acceptEdits` auto-approves file edits inside the
//   working directory; `--allowedTools "Bash(npm test:*)"` lets it run the tests and nothing else.
// - Codex: `codex exec` is headless and read-only by default; `--sandbox workspace-write` lets it write
//   the workspace (and keeps the network off); `--full-auto` is its deprecated alias.
// - Gemini CLI: `-p` is headless; `--approval-mode auto_edit` auto-approves edit tools only (`yolo` would
//   approve every tool). Headless Gemini treats an untrusted folder as "default" mode, hence the trust
//   variable, set only in the job that runs on trusted triggers.
// - Copilot CLI: `-p` is headless and runs no tool it was not allowed; `--allow-tool write` lets it edit
//   files, `--allow-tool 'shell(npm test:*)'` lets it run the tests and nothing else. It signs in with a
//   token that may use Copilot (COPILOT_GITHUB_TOKEN, a fine-grained token with the Copilot Requests
//   permission; the workflow's own GITHUB_TOKEN cannot).
// - opencode: `opencode run` is headless; what it may do is opencode.json's `permission` (edits and commands
//   are allowed unless it says otherwise); it picks its provider by the key it finds (ANTHROPIC_API_KEY here).
const INIT_AGENTS = ['claude-code', 'codex', 'gemini', 'copilot', 'opencode', 'shell'];
/** The fixed task of a workflow that runs on pull requests; comment and label triggers put `{task}` there. */
const FIXED_TASK = 'Fix the failing tests';
const TASK = FIXED_TASK;
/** What starts a session in the workflow `proctor init` writes (`--trigger`). */
const INIT_TRIGGERS = ['mention', 'label', 'pull_request'];
/** The agent's argv for a trigger: a task from the conversation replaces the fixed one, as one element. */
function commandFor(setup, trigger) {
    if (!setup.command || trigger === 'pull_request')
        return setup.command;
    return setup.command.map((arg) => (arg === FIXED_TASK ? '{task}' : arg));
}
const AGENT_SETUPS = {
    'claude-code': {
        name: 'claude-code',
        title: 'Claude Code',
        npmPackage: '@anthropic-ai/claude-code',
        secret: 'ANTHROPIC_API_KEY',
        env: {},
        command: ['claude', '-p', TASK, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(npm test:*)'],
        shell: null,
        continueCommand: [
            'claude',
            '--resume',
            '{agent_session}',
            '-p',
            '{reason}',
            '--permission-mode',
            'acceptEdits',
            '--allowedTools',
            'Bash(npm test:*)',
        ],
        permissionNote: 'acceptEdits lets it edit files in the repository; --allowedTools lets it run `npm test` and nothing else',
    },
    codex: {
        name: 'codex',
        title: 'Codex',
        npmPackage: '@openai/codex',
        secret: 'OPENAI_API_KEY',
        env: {},
        command: ['codex', 'exec', '--sandbox', 'workspace-write', TASK],
        shell: null,
        // `codex exec resume` has no --sandbox flag: the same sandbox as a config override.
        continueCommand: [
            'codex',
            'exec',
            'resume',
            '{agent_session}',
            '-c',
            'sandbox_mode="workspace-write"',
            '{reason}',
        ],
        permissionNote: 'the workspace-write sandbox lets it edit the repository, with no network',
    },
    gemini: {
        name: 'gemini',
        title: 'Gemini CLI',
        npmPackage: '@google/gemini-cli',
        secret: 'GEMINI_API_KEY',
        env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        command: ['gemini', '--approval-mode', 'auto_edit', '-p', TASK],
        shell: null,
        continueCommand: [
            'gemini',
            '--resume',
            '{agent_session}',
            '--approval-mode',
            'auto_edit',
            '-p',
            '{reason}',
        ],
        permissionNote: 'auto_edit approves file edits only (not shell commands)',
    },
    copilot: {
        name: 'copilot',
        title: 'Copilot CLI',
        npmPackage: '@github/copilot',
        secret: 'COPILOT_GITHUB_TOKEN',
        env: {},
        command: ['copilot', '-p', TASK, '--allow-tool', 'write', '--allow-tool', 'shell(npm test:*)'],
        shell: null,
        // One argv element for the id: without a session to resume, only it is left out.
        continueCommand: [
            'copilot',
            '--resume={agent_session}',
            '-p',
            '{reason}',
            '--allow-tool',
            'write',
            '--allow-tool',
            'shell(npm test:*)',
        ],
        permissionNote: '--allow-tool write lets it edit files; shell(npm test:*) lets it run `npm test` and nothing else',
    },
    opencode: {
        name: 'opencode',
        title: 'opencode',
        npmPackage: 'opencode-ai',
        secret: 'ANTHROPIC_API_KEY',
        env: {},
        command: ['opencode', 'run', TASK],
        shell: null,
        // opencode has no stop hook to learn its session id from: the next round goes on in its last session.
        continueCommand: ['opencode', 'run', '--continue', '{reason}'],
        permissionNote: "opencode.json's permission decides what it may run (edits and commands unless it says otherwise)",
    },
    shell: {
        name: 'shell',
        title: 'a command of your own',
        npmPackage: null,
        secret: null,
        env: {},
        command: null,
        shell: './scripts/agent.sh',
        continueCommand: null,
        permissionNote: 'your script decides what the agent may do',
    },
};

// Makes git run .husky/pre-push: husky v9 in devDependencies, `"prepare": "husky"` so a fresh clone
// sets it up on `npm install`, and one `husky` run now (it sets core.hooksPath to .husky/_). Anything it
// cannot do becomes a hint with the exact command.
const HUSKY = 'husky@^9';
const MANUAL = `npm install --save-dev ${HUSKY} && npm pkg set scripts.prepare=husky && npx husky`;
const OUTPUT_CAP = 64 * 1024;
async function setUpHusky(root, mode, env) {
    const manifestPath = join(root, 'package.json');
    if (!existsSync(manifestPath)) {
        return [
            'git runs .husky/pre-push only once husky is set up, and husky needs a package.json: run ' +
                `\`npm init -y && ${MANUAL}\`, or without npm: \`cp .husky/pre-push .git/hooks/pre-push\``,
        ];
    }
    if (mode === 'skip')
        return [`set up husky so git runs .husky/pre-push: \`${MANUAL}\``];
    const hints = [];
    if (!existsSync(join(root, 'node_modules', 'husky', 'package.json'))) {
        const run = await runToEnd(['npm', 'install', '--save-dev', '--no-audit', '--no-fund', HUSKY], root, env);
        if (run.exitCode !== 0) {
            return [
                `installing husky failed (${run.describe}): run \`${MANUAL}\` yourself so git runs .husky/pre-push`,
            ];
        }
        hints.push(`installed ${HUSKY} into devDependencies`);
    }
    const prepare = ensurePrepareScript(manifestPath);
    if (prepare)
        hints.push(prepare);
    const husky = await runToEnd([join(root, 'node_modules', '.bin', 'husky')], root, env);
    if (husky.exitCode !== 0) {
        hints.push(`\`npx husky\` failed (${husky.describe}); run it yourself so git runs .husky/pre-push`);
    }
    else
        hints.push('husky is set up: git runs .husky/pre-push before every push');
    return hints;
}
/** Adds `"prepare": "husky"` unless a prepare script exists; a hint when that one does not run husky. */
function ensurePrepareScript(manifestPath) {
    const text = readFileSync(manifestPath, 'utf8');
    const manifest = JSON.parse(text);
    const existing = manifest.scripts?.prepare;
    if (existing !== undefined) {
        return existing.includes('husky')
            ? null
            : `package.json's prepare script does not run husky; add \`husky\` to it (e.g. "${existing} && husky") so a fresh clone sets up the hook`;
    }
    manifest.scripts = { ...manifest.scripts, prepare: 'husky' };
    const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
    writeFileSync(manifestPath, JSON.stringify(manifest, null, indent) + (text.endsWith('\n') ? '\n' : ''));
    return 'added "prepare": "husky" to package.json, so a fresh clone sets up the hook on npm install';
}
async function runToEnd(argv, cwd, env) {
    let output = '';
    try {
        const child = spawnManaged({
            command: { file: argv[0], args: argv.slice(1) },
            cwd,
            env,
            mode: 'pipe',
            graceMs: 2000,
            label: argv[0].split('/').pop(),
            onOutput: (chunk) => {
                output = (output + chunk.toString('utf8')).slice(-OUTPUT_CAP);
            },
        });
        const exit = await child.exited;
        const last = output.trim().split('\n').slice(-3).join(' / ');
        return {
            exitCode: exit.exitCode,
            describe: `${argv.join(' ')} exited ${exit.exitCode ?? exit.signal}${last ? `: ${last}` : ''}`,
        };
    }
    catch (error) {
        if (error instanceof SpawnError)
            return { exitCode: null, describe: error.message };
        throw error;
    }
}

// The pre-push hook `proctor init` writes to .husky/pre-push. It is also the package's hooks/pre-push (a
// test keeps the two identical), so the husky hook and a plain core.hooksPath hook behave the same.
const PRE_PUSH_SCRIPT = `#!/bin/sh
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
`;

// The text of the proctor.yml and the workflow `proctor init` writes, per agent. The workflow is meant to
// run on GitHub as written: a test validates it against GitHub's workflow schema.
/**
 * Where editors fetch proctor.yml's JSON Schema: schema/ of the npm package at the version that wrote the
 * file (package.json's `files` ships it), served by a public npm CDN. Pinned to the exact version, so it
 * exists the moment that version is published and describes the keys that version reads.
 */
function schemaUrl({ name, version } = proctorManifest()) {
    return `https://unpkg.com/${name}@${version}/schema/proctor.schema.json`;
}
/** YAML flow sequence of double-quoted strings (JSON strings are valid YAML). */
function flow(argv) {
    return `[${argv.map((arg) => JSON.stringify(arg)).join(', ')}]`;
}
function agentBlock(setup, agent, trigger) {
    const preset = findAgentPreset(agent);
    const lines = ['agent:'];
    if (preset) {
        lines.push(`  # The ${preset.name} preset (docs/agents.md): its prompts and errors, how to type into it, its own`, `  # Stop hook wired to proctor, its continue command. Tested with ${preset.package} ${preset.testedVersions.join(', ')}.`, `  preset: ${preset.name}`);
    }
    const command = commandFor(setup, trigger);
    if (command) {
        lines.push(`  # ${setup.title}, headless: ${setup.permissionNote}.`, trigger === 'pull_request'
            ? '  # Edit the task to what the agent should do.'
            : '  # {task} is the task from the comment or label, as ONE argument (never parsed by a shell).', `  command: ${flow(command)}`);
    }
    else {
        lines.push(`  # ${setup.title}: a shell string run by sh (pipes and && work); ${setup.permissionNote}.`, ...(trigger === 'pull_request'
            ? []
            : ['  # The task from the comment or label is in $PROCTOR_TASK (quote it: "$PROCTOR_TASK").']), `  shell: ${JSON.stringify(setup.shell)}`);
    }
    // A preset that says how the agent runs (opencode: a pipe) is not overridden here.
    if (preset?.config.agent?.pty === undefined)
        lines.push('  pty: true');
    // Written with a preset too: the preset's continue has no permission flags, which a one-shot agent needs.
    if (setup.continueCommand) {
        lines.push("  # The next round after the agent exited (the stop hooks' reasons, or /proctor continue feedback):", "  # {agent_session} resumes the agent's own session; without it, a fresh agent. {reason} is one argument.", `  continue: ${flow(setup.continueCommand)}`);
    }
    return lines.join('\n');
}
function configTemplate(agent, trigger = 'pull_request') {
    const setup = AGENT_SETUPS[agent];
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
`;
}
function triggerBlock(trigger) {
    if (trigger === 'pull_request')
        return '';
    return `
# What gives proctor a task (docs/github.md#a-task-from-a-comment): a comment with "@proctor <task>" or
# "/proctor <task>" from someone with write access, or the label on an issue or pull request.
github:
  trigger: { phrase: ["@proctor", "/proctor"], label: proctor }
`;
}
function secretNote(setup) {
    return setup.secret
        ? `# Needs the repository secret ${setup.secret} (Settings > Secrets and variables > Actions).\n`
        : '';
}
/** Checkout (head of the PR when `head`), Node, the repository's dependencies. */
function setupSteps(options, head) {
    const ref = head ? `\n          ref: ${headRef(options)}` : '';
    const steps = [
        `      - uses: actions/checkout@v5
        with:${ref}
          # Keep the token out of .git/config, where the agent and the stop hooks could read it.
          persist-credentials: false`,
        `      - uses: actions/setup-node@v5
        with:
          node-version: 24`,
    ];
    if (options.install)
        steps.push(`      - run: ${options.install}`);
    return steps;
}
/**
 * The commit the agent starts from: the pull request's head; for a comment on a pull request (whose
 * payload has no head), GitHub's ref of it; for an issue, the default branch.
 */
function headRef(options) {
    // A follow-up round (`/proctor continue|retry`) starts from the commit the acknowledge job names.
    return (options.trigger ?? 'pull_request') === 'pull_request'
        ? '${{ github.event.pull_request.head.sha }}'
        : "${{ needs.acknowledge.outputs.ref || github.event.pull_request.head.sha || (github.event.issue.pull_request && format('refs/pull/{0}/head', github.event.issue.number)) || '' }}";
}
/** The agent CLI's install step and the proctor step with the agent's environment. */
function agentSteps(options, inputs) {
    const setup = AGENT_SETUPS[options.agent];
    const steps = [];
    if (setup.npmPackage) {
        steps.push(`      - name: Install ${setup.title}
        # Pin the version you have tested (${setup.npmPackage}@x.y.z).
        run: npm install --global ${setup.npmPackage}`);
    }
    const env = Object.entries(setup.env).map(([key, value]) => `          ${key}: '${value}'`);
    if (setup.secret)
        env.unshift(`          ${setup.secret}: \${{ secrets.${setup.secret} }}`);
    steps.push(`      - name: Agent session under proctor
        id: proctor
        uses: ${options.action}
        with:
${inputs.map((input) => `          ${input}`).join('\n')}` +
        (env.length ? `\n        env:\n${env.join('\n')}` : ''));
    return steps;
}
function workflowFor(layout, options) {
    return layout === 'two-job' ? twoJobWorkflowTemplate(options) : workflowTemplate(options);
}
/** The one-job layout: one job holds the write token, so it runs on trusted triggers only. */
function workflowTemplate(options) {
    const setup = AGENT_SETUPS[options.agent];
    const steps = [...setupSteps(options, false), ...agentSteps(options, ['config: proctor.yml'])];
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
`;
}
/**
 * The two-job layout, for triggers whose text or code anyone can write: the agent runs in a job with
 * `contents: read` and no token, and hands its checkpoints over as an artifact; a verify job with
 * `contents: read` only re-runs the policy and the stop hooks (the agent's code runs there, never beside
 * a write token); a publish job that runs none of the agent's code holds the write permissions, reads
 * the verify job's conclusion from GitHub and alone publishes and pushes.
 */
function twoJobWorkflowTemplate(options) {
    const setup = AGENT_SETUPS[options.agent];
    const trigger = options.trigger ?? 'pull_request';
    const conversation = trigger !== 'pull_request';
    const agent = [
        ...setupSteps(options, true),
        ...agentSteps(options, [
            'mode: run',
            'handoff: true # upload proctor-handoff-<session>; push, comment and check nothing',
            conversation
                ? "# This job's token is read-only (contents: read): proctor checks the commenter's permission with it\n          # and withholds it from the agent and the hooks."
                : "github-token: '' # this job needs no token at all",
        ]),
    ];
    const verify = [
        ...setupSteps(options, true),
        `      - name: Run the gates on the agent's work (no write token here)
        uses: ${options.action}
        with:
          mode: verify
          artifact-pattern: proctor-handoff-*`,
    ];
    // A comment or label that gave no task leaves no session: verify and publish have nothing to do.
    const ran = conversation
        ? "!cancelled() && needs.agent.outputs.session-id != ''"
        : "!cancelled() && needs.agent.result != 'skipped'";
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

${conversation
        ? ''
        : `concurrency:
  group: proctor-\${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: false

`}jobs:
${conversation ? acknowledgeJob(options, trigger) : ''}  agent:
${conversation
        ? `    needs: acknowledge
    if: needs.acknowledge.outputs.task == 'true'`
        : AGENT_IF[trigger]}
    runs-on: ubuntu-latest
    timeout-minutes: 45${conversation
        ? `
    # One round per issue or pull request at a time (here, not on the workflow: \`/proctor stop\` must not
    # wait behind the round it cancels).
    concurrency:
      group: proctor-\${{ github.event.pull_request.number || github.event.issue.number }}
      cancel-in-progress: false`
        : ''}
    permissions:
      contents: read # the checkout; no write token exists in this job${conversation
        ? `
      issues: read # a continue reads the earlier rounds from the conversation comment
      pull-requests: read
    outputs:
      session-id: \${{ steps.proctor.outputs.session-id }}`
        : ''}
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
`;
}
/**
 * The first job for comment and label triggers: no agent, no code of anyone's but proctor's. It decides
 * whether there is a task and whether its author may give it, and reacts at once.
 */
function acknowledgeJob(options, trigger) {
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

`;
}
/** The `on:` block per trigger. */
const TRIGGER_EVENTS = {
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
};
/**
 * Saves a runner for what cannot be a task (contains() is a rough, case-insensitive test; proctor decides
 * exactly, and says why in one log line). Keep the phrases and the label in step with github.trigger in
 * proctor.yml. Never for a bot (a loop of sessions) or on proctor's own branches.
 */
const AGENT_IF = {
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
};

// `proctor init`: proctor.yml, the husky v9 pre-push hook and a workflow for the chosen agent, at the
// repository root. A file that exists is kept unless `force` is set. With `husky: 'install'` and a
// package.json, husky is installed into devDependencies and set up, so git runs the hook from the start.
const WORKFLOW_PATH = '.github/workflows/proctor.yml';
class InitError extends Error {
    name = 'InitError';
}
/** The layout for a trigger: comment and label triggers carry anyone's text, so never one job. */
function layoutFor(options) {
    const trigger = options.trigger ?? 'mention';
    if (trigger === 'pull_request')
        return options.layout ?? 'one-job';
    if (options.layout === 'one-job')
        throw new InitError(`--trigger ${trigger} writes the two-job layout (the task is text anyone can write; the agent's job ` +
            'must not hold a write token): drop --layout one-job');
    return 'two-job';
}
function initFiles(root, options = {}) {
    const agent = options.agent ?? 'claude-code';
    const trigger = options.trigger ?? 'mention';
    const install = existsSync(join(root, 'package-lock.json'))
        ? 'npm ci'
        : existsSync(join(root, 'package.json'))
            ? 'npm install'
            : null;
    const action = options.action ?? defaultActionRef();
    return [
        { path: 'proctor.yml', content: configTemplate(agent, trigger) },
        { path: '.husky/pre-push', content: PRE_PUSH_SCRIPT, mode: 0o755 },
        { path: WORKFLOW_PATH, content: workflowFor(layoutFor(options), { agent, action, install, trigger }) },
    ];
}
async function writeInitFiles(cwd, force, options = {}) {
    const repoRoot = findRepoRoot(cwd);
    const root = repoRoot ?? resolve(cwd);
    const result = { root, written: [], kept: [], hints: [] };
    for (const file of initFiles(root, options)) {
        const path = join(root, file.path);
        if (existsSync(path) && !force) {
            result.kept.push(file.path);
            continue;
        }
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, file.content);
        if (file.mode !== undefined)
            await chmod(path, file.mode);
        result.written.push(file.path);
    }
    const workflowPath = join(root, WORKFLOW_PATH);
    if (existsSync(workflowPath) && readFileSync(workflowPath, 'utf8').includes(ACTION_PLACEHOLDER)) {
        result.hints.push(`${WORKFLOW_PATH} says \`uses: ${ACTION_PLACEHOLDER}@…\` (this proctor's package.json names no GitHub ` +
            `repository): replace OWNER with the GitHub owner of the proctor action you use, or run ` +
            `\`proctor init --action <owner>/proctor@v1 --force\``);
    }
    if (layoutFor(options) === 'one-job' && result.written.includes(WORKFLOW_PATH)) {
        result.hints.push(`${WORKFLOW_PATH} runs on trusted triggers only (manual runs, pull requests from this repository). ` +
            'For issues, comments or fork pull requests use the two-job layout, where the agent holds no write ' +
            'token: `proctor init --trigger mention --force` (comments) or `--layout two-job` (fork pull requests)');
    }
    if (repoRoot === null) {
        result.hints.push('this is not a git repository; run `git init` first, then `proctor init` again');
        return result;
    }
    result.hints.push(...(await setUpHusky(root, options.husky ?? 'skip', options.env ?? process.env)));
    return result;
}

// proctor init [--agent claude-code|codex|gemini|copilot|opencode|shell] [--trigger mention|label|pull_request]
// [--layout one-job|two-job] [--action owner/repo@ref]
// [--no-install] [--force]:
// proctor.yml, .husky/pre-push (with husky set up) and a workflow; never overwrites without --force.
function registerInitCommand(program, io = processHookIO) {
    return program
        .command('init')
        .description('write proctor.yml, the husky pre-push hook (setting up husky) and a workflow for your agent')
        .addOption(new Option('--agent <agent>', 'the agent CLI the config and workflow are for')
        .choices([...INIT_AGENTS])
        .default('claude-code'))
        .addOption(new Option('--trigger <trigger>', 'what starts a session: mention (a comment "@proctor <task>"), label (the label "proctor"), pull_request (opened)')
        .choices([...INIT_TRIGGERS])
        .default('mention'))
        .addOption(new Option('--layout <layout>', 'one-job: for trusted triggers (pull_request only, the default there); two-job: the agent job holds no write token (always for mention and label)').choices(['one-job', 'two-job']))
        .option('--action <ref>', "the workflow's `uses:` reference, e.g. acme/proctor@v1")
        .option('--no-install', 'do not install husky; print the command instead')
        .option('--force', 'overwrite files that already exist')
        .action(async (opts) => {
        if (opts.action !== undefined) {
            const problem = checkActionRef(opts.action);
            if (problem)
                throw new CliExit(ExitCode.usage, problem);
        }
        try {
            layoutFor({ trigger: opts.trigger, ...(opts.layout ? { layout: opts.layout } : {}) });
        }
        catch (error) {
            if (error instanceof InitError)
                throw new CliExit(ExitCode.usage, error.message);
            throw error;
        }
        const result = await writeInitFiles(io.cwd(), opts.force === true, {
            agent: opts.agent,
            trigger: opts.trigger,
            ...(opts.layout ? { layout: opts.layout } : {}),
            action: opts.action,
            husky: opts.install ? 'install' : 'skip',
            env: io.env(),
        });
        for (const path of result.written)
            io.stdout(`wrote ${path}\n`);
        for (const path of result.kept)
            io.stdout(`kept  ${path} (it exists; use --force to overwrite)\n`);
        for (const hint of result.hints)
            io.stdout(`note: ${sanitizeForTerminal(hint)}\n`);
    });
}

export { registerInitCommand };
