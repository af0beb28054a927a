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
// Claude giving up, in its own words (seen from 2.1.330 against a refusing API, print mode and TUI alike):
// an auth failure is one "<problem> · <fix>" line ("Invalid API key · Fix external API key", under the
// prompt as "⎿  …" in the TUI); any other API failure, once its retries are spent, is "API Error: 529
// Overloaded. This is a server-side issue…" ("● API Error: …" in the TUI), "API Error: Request rejected
// (429) …". Both end the session at once: the TUI would sit at its prompt until the timeout, print mode
// exits 1 with the cause only in its output. Retrying is Claude's business (CLAUDE_CODE_MAX_RETRIES, 10 by
// default); only the line it prints when it stopped is matched.
const errors = [
    {
        name: 'claude-code:not-logged-in',
        // No usable credentials (the line names the fix), or credentials the API refused.
        match: String.raw `(?<reason>(?:Not logged in|Invalid API key|Invalid auth token|OAuth token revoked|Login expired|Authentication required|Your ANTHROPIC_API_KEY belongs to a disabled organization|Your organization has disabled API key authentication) · \S.*)`,
        kind: 'agent_error',
        respond: { stop: true },
    },
    {
        name: 'claude-code:api-error',
        // At the line's start ("● " in the TUI, at column 0): a tool's output that says "API Error: …" is
        // indented under "  ⎿  " and is not Claude giving up.
        match: String.raw `^(?:[●⏺] )?(?<reason>API Error: \S.*)`,
        kind: 'agent_error',
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
            // Re-running after an exit, or `proctor run --continue`, resumes Claude's own conversation by its id
            // (without one, or once Claude's store lost it: a fresh `claude -p` told what the earlier rounds did).
            continue: ['claude', '--resume', '{agent_session}', '-p', '{reason}'],
            env: {
                DISABLE_AUTOUPDATER: '1',
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            },
        },
        // Claude reads ANTHROPIC_BASE_URL: its model calls go through proctor's metering proxy (docs/agents.md).
        model_api: { proxy: true, api: 'anthropic' },
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
// Codex giving up on the model API, in its own words (seen from 0.169.0 against a refusing API): `codex exec`
// prints "ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: …, url: …" or "ERROR: exceeded
// retry limit, last status: 429 Too Many Requests" and exits 1; the TUI shows the same words after "■ " and
// waits at its prompt. Codex retries by itself first (request_max_retries / stream_max_retries of the model
// provider); these lines come once it stopped. The request URL is left out of the reason.
const failures$3 = [
    {
        name: 'codex:api-error',
        match: String.raw `^\s*(?:ERROR:|■) (?<reason>(?:unexpected status \d{3}|exceeded retry limit|stream disconnected before completion|Quota exceeded|You've hit your usage limit)(?:[^,]|, (?!url:))*)`,
        kind: 'agent_error',
        respond: { stop: true },
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
            // Resumes Codex's own thread by id (`codex exec resume <id>`); without one, a fresh `codex exec`.
            continue: ['codex', 'exec', 'resume', '{agent_session}', '{reason}'],
        },
        detect: failures$3,
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
// Gemini giving up on the model API, in its own words (seen from 0.61.0 against a refusing API): the API's
// error JSON ("Error when talking to Gemini API … _ApiError: {"error":{"code":400,"message":"API key not
// valid. …"}}" in -p mode, "✕ [API Error: {"error":{…,"message":"…"" in the TUI), and after its retries
// (general.maxAttempts, 10 by default, ~4 min on a 429) "Attempt 10 failed: <message>. Max attempts reached".
// The reason is the API's message.
const failures$2 = [
    {
        name: 'gemini:api-error',
        // Not "Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {…}": Gemini retries that.
        match: String.raw `(?:Error when talking to Gemini API\b.*?_ApiError|✕ \[API Error): \{"error":\{"code":\d{3},"message":"(?<reason>[^"]+)`,
        kind: 'agent_error',
        respond: { stop: true },
    },
    {
        name: 'gemini:gave-up',
        match: String.raw `Attempt \d+ failed: (?<reason>.+?)\.? Max attempts reached`,
        kind: 'agent_error',
        respond: { stop: true },
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
            // Resumes Gemini's own session by id (`--resume <uuid>`); without one, a fresh `gemini -p`.
            continue: ['gemini', '--resume', '{agent_session}', '-p', '{reason}'],
        },
        detect: failures$2,
        // Gemini reads GOOGLE_GEMINI_BASE_URL: its model calls go through proctor's metering proxy (docs/agents.md).
        model_api: { proxy: true, api: 'gemini' },
    },
    // `-p`/`--prompt` is the one-shot (headless) mode; a positional prompt or `-i` starts the TUI.
    isInteractive: (argv) => !argv.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt=') || a === '--acp'),
    interactive: {
        agent: { quit: '/quit\r', typing: { submit_delay: '500ms' } },
        detect: screens,
    },
};

// Copilot giving up on the model API, in its own words (seen from 1.0.102 against a refusing provider): after
// its own retries ("● Request failed due to a transient API error. Retrying...") it prints "Authentication
// failed with provider at <url> (HTTP 401)." on a 401, or "Failed to get response from the AI model; retried 5
// times (total retry wait time: 5.38 seconds) Last error: 429 Rate limit reached …" once a 429 did not clear,
// and exits. The provider's URL stays in the reason: it is the
// user's own setting (COPILOT_PROVIDER_BASE_URL) and says which endpoint refused. The patterns stay within
// what V8 runs in linear time (no counted repetition, no \b): only then are they matched on proctor's own
// thread, where the `reason` group is kept.
const failures$1 = [
    {
        name: 'copilot:auth-failed',
        match: String.raw `^\s*(?<reason>Authentication failed with provider at \S+ \(HTTP \d{3}\))`,
        kind: 'agent_error',
        respond: { stop: true },
    },
    {
        name: 'copilot:gave-up',
        match: String.raw `^\s*Failed to get response from the AI model; retried \d+ times [^)]*\) Last error: (?<reason>.+)`,
        kind: 'agent_error',
        respond: { stop: true },
    },
];
const copilotPreset = {
    name: 'copilot',
    description: 'GitHub Copilot CLI: native agentStop hook as a session plugin, resume as continue',
    package: '@github/copilot',
    testedVersions: ['1.0.102'],
    config: {
        agent: {
            adapter: 'copilot',
            continue: ['copilot', '--resume={agent_session}', '-p', '{reason}', '--allow-all-tools'],
        },
        detect: failures$1,
    },
};

// opencode giving up on the model API (seen from 1.18.33 against a refusing provider): `opencode run` prints
// the provider's own message after "Error: " and exits — at once on a 401 ("Error: Incorrect API key provided:
// …"), after its own retries (~25 s) on a 429 that does not clear ("Error: Rate limit reached for …"). Only
// the API's words count: an "Error: " line about anything else is opencode's business.
const failures = [
    {
        name: 'opencode:api-error',
        match: String.raw `^\s*Error: (?<reason>(?:Incorrect API key provided|Invalid API key|Rate limit reached|You exceeded your current quota|Overloaded|Unauthorized|The server had an error)\b.*)`,
        kind: 'agent_error',
        respond: { stop: true },
    },
];
const opencodePreset = {
    name: 'opencode',
    description: "opencode: proctor's generic stop path, `opencode run --continue` as continue",
    package: 'opencode-ai',
    testedVersions: ['1.18.33'],
    config: {
        agent: {
            adapter: 'generic',
            // opencode needs no terminal in `run` mode; a pipe keeps its output plain for the detectors.
            pty: false,
            continue: ['opencode', 'run', '--continue', '{reason}'],
        },
        detect: failures,
    },
};

const agentPresets = {
    'claude-code': claudeCodePreset,
    codex: codexPreset,
    gemini: geminiPreset,
    copilot: copilotPreset,
    opencode: opencodePreset,
};
function findAgentPreset(name) {
    return Object.hasOwn(agentPresets, name) ? agentPresets[name] : undefined;
}
/** The names a user can pick, for messages. */
function agentPresetChoices() {
    return Object.keys(agentPresets);
}

export { agentPresetChoices, agentPresets, findAgentPreset };
