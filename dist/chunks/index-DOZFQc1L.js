/** Dialog answers: after Claude is ready for them, again while the dialog is still there. */
const patiently$2 = { delay: '300ms', retry_after: '2s', max_attempts: 5 };
const dialogs = [
    {
        name: 'claude-code:trust-folder',
        // "Accessing workspace … ❯ No, exit / Yes, I trust this folder" (2.1.330): move down to Yes.
        match: String.raw `^\s*❯ [\d. ]*No, exit\b`,
        kind: 'dialog',
        respond: { send: '\x1b[B', ...patiently$2 },
    },
    {
        name: 'claude-code:api-key',
        // "Detected a custom API key in your environment … Do you want to use this API key?": Yes is above.
        match: String.raw `^\s*❯ [\d. ]*No \(recommended\)`,
        kind: 'dialog',
        respond: { send: '\x1b[A', ...patiently$2 },
    },
    {
        name: 'claude-code:yes',
        // Yes selected in any dialog (API key, folder trust, a permission prompt the permission mode left): Enter.
        // Not once chosen: 2.1.197 redraws the closed dialog with "❯ 1. Yes, I trust this folder ✔", and an
        // Enter sent at that lands in the next dialog (the API-key one, picking its default "No").
        match: String.raw `^\s*❯ (?:1\. )?Yes(?:$|,[^✔]*$)`,
        kind: 'dialog',
        respond: { send: '\r', ...patiently$2 },
    },
    {
        name: 'claude-code:permission',
        // "Do you want to create hello.txt?" / "Do you want to make this edit to a.ts?" / "… proceed?": recorded
        // as an approval request; claude-code:yes answers it (Yes is the menu's default).
        match: String.raw `^\s*Do you want to (?:create|make this edit to|proceed|allow|run)\b[^?]*\?`,
        kind: 'approval_request',
        respond: { notify: true },
    },
    {
        name: 'claude-code:working',
        // Verbs such as "Flambéing…", "Dilly-dallying…", "Beboppin'…": any word up to the ellipsis.
        match: String.raw `\besc to interrupt\b|^\s*[·✢✳✶✻✽*] [A-Z]\S*…`,
        kind: 'working',
        respond: { notify: true },
    },
    {
        name: 'claude-code:done',
        // Any verb: one of the eight both versions pick from is "Sautéed" (a done line [A-Z][a-z]+ missed: the
        // session waited for its timeout, 1 turn in 8).
        match: String.raw `^\s*✻ [A-Z]\S* for [\dhm ]*\ds\b`,
        kind: 'completion',
        // Counted once it has stayed 500 ms with Claude idle: a redraw caught half drawn (old done lines drawn,
        // the spinner below them not yet) is not the end of the work.
        respond: { notify: true, delay: '500ms' },
    },
];
const errors = [
    {
        name: 'claude-code:not-logged-in',
        // No usable credentials: the TUI would wait forever, print mode exits 1 anyway.
        match: String.raw `(?:Not logged in|Invalid API key) · Please run /login`,
        kind: 'error',
        respond: { stop: true },
    },
];
const claudeCodePreset = {
    name: 'claude-code',
    description: 'Claude Code (claude): print mode through its Stop hook, the interactive TUI from its screen',
    package: '@anthropic-ai/claude-code',
    testedVersions: ['2.1.197', '2.1.330'],
    config: {
        agent: {
            adapter: 'claude',
            // Re-running after an exit continues the same conversation (used when the Stop hook is not wired).
            continue: ['claude', '--continue', '-p', '{reason}'],
            env: {
                DISABLE_AUTOUPDATER: '1',
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            },
        },
        detect: errors,
    },
    isInteractive: (argv) => !argv.some((a) => a === '-p' || a === '--print' || a.startsWith('--print=')),
    interactive: {
        // The stop hooks' reasons are typed into the TUI (bracketed paste, then Enter): no Stop-hook wiring.
        // Once the session is decided Claude is asked to exit (it saves its session), then stopped if it lingers.
        agent: { adapter: 'generic', quit: '/exit\r' },
        detect: dialogs,
    },
};

/** Answers: after the TUI is ready for them, again while the dialog is still there. */
const patiently$1 = { delay: '300ms', retry_after: '2s', max_attempts: 5 };
const screens$1 = [
    {
        name: 'codex:trust-folder',
        match: String.raw `^\s*› 1\. Trust and continue\b`,
        kind: 'dialog',
        respond: { send: '\r', ...patiently$1 },
    },
    {
        name: 'codex:approval',
        match: String.raw `^\s*Would you like to (?:run the following command|make the following edits|[a-z][^?]{0,80})\?`,
        kind: 'approval_request',
        respond: { notify: true },
    },
    {
        name: 'codex:yes',
        // The approval menu's first choice ("Yes, proceed (y)"), selected by default.
        match: String.raw `^\s*› 1\. Yes, proceed\b`,
        kind: 'dialog',
        respond: { send: '\r', ...patiently$1 },
    },
    {
        name: 'codex:not-logged-in',
        // No credentials: the first-run sign-in menu would wait forever.
        match: String.raw `^\s*[›>]? ?1\. Sign in with ChatGPT\b`,
        kind: 'error',
        respond: { stop: true },
    },
    {
        name: 'codex:working',
        match: String.raw `\besc to interrupt\)`,
        kind: 'working',
        respond: { notify: true },
    },
    {
        name: 'codex:done',
        match: String.raw `^\s*Worked for <?\d+[hms]\b`,
        kind: 'completion',
        respond: { notify: true },
    },
];
const codexPreset = {
    name: 'codex',
    description: 'OpenAI Codex CLI: native Stop hook on the command line, resume as continue',
    package: '@openai/codex',
    testedVersions: ['0.169.0'],
    config: {
        agent: {
            adapter: 'codex',
            continue: ['codex', 'exec', 'resume', '--last', '{reason}'],
        },
    },
    // `codex exec …` (alias `e`) is the one-shot mode; anything else starts the TUI.
    isInteractive: (argv) => !argv.slice(1).some((a) => a === 'exec' || a === 'e'),
    interactive: {
        agent: { quit: '/exit\r' },
        detect: screens$1,
    },
};

/** Answers: after the TUI is ready for them, again while the dialog is still there. */
const patiently = { delay: '300ms', retry_after: '2s', max_attempts: 5 };
const screens = [
    {
        name: 'gemini:trust-folder',
        match: String.raw `^[│\s]*● 1\. Trust folder\b`,
        kind: 'dialog',
        respond: { send: '\r', ...patiently },
    },
    {
        name: 'gemini:approval',
        match: String.raw `^[│\s]*(?:Apply this change|Allow execution of\b[^?]{0,200})\?`,
        kind: 'approval_request',
        respond: { notify: true },
    },
    {
        name: 'gemini:allow-once',
        match: String.raw `^[│\s]*● 1\. Allow once\b`,
        kind: 'dialog',
        respond: { send: '\r', ...patiently },
    },
    {
        name: 'gemini:not-logged-in',
        match: String.raw `How would you like to authenticate for this project\?`,
        kind: 'error',
        respond: { stop: true },
    },
    {
        name: 'gemini:working',
        match: String.raw `\(esc to cancel, \d`,
        kind: 'working',
        respond: { notify: true },
    },
];
const geminiPreset = {
    name: 'gemini',
    description: 'Google Gemini CLI: native AfterAgent hook, trusted workspace, resume as continue',
    package: '@google/gemini-cli',
    testedVersions: ['0.61.0'],
    config: {
        agent: {
            adapter: 'gemini',
            env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
            continue: ['gemini', '--resume', 'latest', '-p', '{reason}'],
        },
    },
    // `-p`/`--prompt` is the one-shot (headless) mode; a positional prompt or `-i` starts the TUI.
    isInteractive: (argv) => !argv.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt=') || a === '--acp'),
    interactive: {
        agent: { quit: '/quit\r', typing: { submit_delay: '500ms' } },
        detect: screens,
    },
};

const agentPresets = {
    'claude-code': claudeCodePreset,
    codex: codexPreset,
    gemini: geminiPreset,
};
function findAgentPreset(name) {
    return Object.hasOwn(agentPresets, name) ? agentPresets[name] : undefined;
}
/** The names a user can pick, for messages. */
function agentPresetChoices() {
    return Object.keys(agentPresets);
}

export { agentPresetChoices, agentPresets, findAgentPreset };
