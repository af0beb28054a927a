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

export const INIT_AGENTS = ['claude-code', 'codex', 'gemini', 'copilot', 'opencode', 'shell'] as const
export type InitAgent = (typeof INIT_AGENTS)[number]

export interface AgentSetup {
  name: InitAgent
  /** Shown in comments. */
  title: string
  /** The npm package CI installs globally; none for `shell`. */
  npmPackage: string | null
  /** The repository secret holding its API key, passed to the action step as the same env var. */
  secret: string | null
  /** Extra environment for the action step (never secrets). */
  env: Readonly<Record<string, string>>
  /** agent.command in proctor.yml (argv); null: agent.shell instead. */
  command: readonly string[] | null
  /** agent.shell in proctor.yml, for `shell`. */
  shell: string | null
  /**
   * agent.continue: the next round after the agent exited (stop hooks' reasons, or `/proctor continue`
   * feedback), resuming the CLI's own session by `{agent_session}`, with the same permission flags.
   */
  continueCommand: readonly string[] | null
  /** One comment line on the permission flags. */
  permissionNote: string
}

/** The fixed task of a workflow that runs on pull requests; comment and label triggers put `{task}` there. */
export const FIXED_TASK = 'Fix the failing tests'
const TASK = FIXED_TASK

/** What starts a session in the workflow `proctor init` writes (`--trigger`). */
export const INIT_TRIGGERS = ['mention', 'label', 'pull_request'] as const
export type InitTrigger = (typeof INIT_TRIGGERS)[number]

/** The agent's argv for a trigger: a task from the conversation replaces the fixed one, as one element. */
export function commandFor(setup: AgentSetup, trigger: InitTrigger): readonly string[] | null {
  if (!setup.command || trigger === 'pull_request') return setup.command
  return setup.command.map((arg) => (arg === FIXED_TASK ? '{task}' : arg))
}

export const AGENT_SETUPS: Readonly<Record<InitAgent, AgentSetup>> = {
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
    permissionNote:
      'acceptEdits lets it edit files in the repository; --allowedTools lets it run `npm test` and nothing else',
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
    permissionNote:
      '--allow-tool write lets it edit files; shell(npm test:*) lets it run `npm test` and nothing else',
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
    permissionNote:
      "opencode.json's permission decides what it may run (edits and commands unless it says otherwise)",
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
}

export function isInitAgent(name: string): name is InitAgent {
  return (INIT_AGENTS as readonly string[]).includes(name)
}
