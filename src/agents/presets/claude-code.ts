// Claude Code (`claude`): what a session with it needs, checked against the real CLI (see testedVersions and
// test/e2e/agents-claude*.test.ts). docs/agents.md explains each part to users; keep the two in step.
//
// Print mode (`claude -p …`) needs no screen reading: proctor's stop hooks run inside Claude as its own Stop
// hook (agent.adapter: claude passes them with --settings, no file written), so a block keeps Claude working
// in the same process. The interactive TUI is read from the screen:
// - Dialogs are menus with a "❯" cursor. Versions differ in order and numbering (the API-key dialog is
//   "1. Yes / ❯ 2. No (recommended)" on 2.1.197 and an unnumbered menu with No selected on 2.1.330; the
//   folder-trust menu on 2.1.330 starts on "No, exit"), so rules move the cursor off a "No" and a last rule
//   presses Enter once "Yes" is selected, whatever the version.
// - Answers sent the instant a dialog appears can be dropped (2.1.330 accepts them after ~300 ms), so each
//   is delayed and sent again, bounded, while the dialog stays.
// - Busy: the spinner line ("✢ Drizzling…") and "esc to interrupt". Done: "✻ <Verb> for 1m 7s". A done
//   line counts only after the agent was busy since proctor last typed, and not while it still is: Claude
//   re-renders its whole transcript after SIGCONT, old done lines included. 2.1.197 draws full redraws
//   below the previous frame, which stays on screen: the detector reads the normal buffer top to bottom
//   as time order (see Detector.scanScreen), so leftovers above the lowest done line do not count.
// - The input box reads "❯" + U+00A0; menus use a plain space after "❯", so a typed "Yes" never matches.
// - `/exit` then Enter quits it. With `agent.adapter: claude` over the preset, the TUI runs proctor as its own
//   Stop hook instead of having reasons typed in; the same done line then tells proctor when to end it.
import type { ConfigInput } from '../../config/schema.js'
import type { AgentPreset } from './types.js'

type RuleInput = NonNullable<ConfigInput['detect']>[number]

/** Dialog answers: after Claude is ready for them, again while the dialog is still there. */
const patiently = { delay: '300ms', retry_after: '2s', max_attempts: 5 } as const

const dialogs: RuleInput[] = [
  {
    name: 'claude-code:trust-folder',
    // "Accessing workspace … ❯ No, exit / Yes, I trust this folder" (2.1.330): move down to Yes.
    match: String.raw`^\s*❯ [\d. ]*No, exit\b`,
    kind: 'dialog',
    respond: { send: '\x1b[B', ...patiently },
  },
  {
    name: 'claude-code:api-key',
    // "Detected a custom API key in your environment … Do you want to use this API key?": Yes is above.
    match: String.raw`^\s*❯ [\d. ]*No \(recommended\)`,
    kind: 'dialog',
    respond: { send: '\x1b[A', ...patiently },
  },
  {
    name: 'claude-code:yes',
    // Yes selected in any dialog (API key, folder trust, a permission prompt the permission mode left): Enter.
    // Not once chosen: 2.1.197 redraws the closed dialog with "❯ 1. Yes, I trust this folder ✔", and an
    // Enter sent at that lands in the next dialog (the API-key one, picking its default "No").
    match: String.raw`^\s*❯ (?:1\. )?Yes(?:$|,[^✔]*$)`,
    kind: 'dialog',
    respond: { send: '\r', ...patiently },
  },
  {
    name: 'claude-code:permission',
    // "Do you want to create hello.txt?" / "Do you want to make this edit to a.ts?" / "… proceed?": recorded
    // as an approval request; claude-code:yes answers it (Yes is the menu's default).
    match: String.raw`^\s*Do you want to (?:create|make this edit to|proceed|allow|run)\b[^?]*\?`,
    kind: 'approval_request',
    respond: { notify: true },
  },
  {
    name: 'claude-code:working',
    // Verbs such as "Flambéing…", "Dilly-dallying…", "Beboppin'…": any word up to the ellipsis.
    match: String.raw`\besc to interrupt\b|^\s*[·✢✳✶✻✽*] [A-Z]\S*…`,
    kind: 'working',
    respond: { notify: true },
  },
  {
    name: 'claude-code:done',
    // Any verb: one of the eight both versions pick from is "Sautéed" (a done line [A-Z][a-z]+ missed: the
    // session waited for its timeout, 1 turn in 8).
    match: String.raw`^\s*✻ [A-Z]\S* for [\dhm ]*\ds\b`,
    kind: 'completion',
    // Counted once it has stayed 500 ms with Claude idle: a redraw caught half drawn (old done lines drawn,
    // the spinner below them not yet) is not the end of the work.
    respond: { notify: true, delay: '500ms' },
  },
]

// Claude giving up, in its own words (seen from 2.1.330 against a refusing API, print mode and TUI alike):
// an auth failure is one "<problem> · <fix>" line ("Invalid API key · Fix external API key", under the
// prompt as "⎿  …" in the TUI); any other API failure, once its retries are spent, is "API Error: 529
// Overloaded. This is a server-side issue…" ("● API Error: …" in the TUI), "API Error: Request rejected
// (429) …". Both end the session at once: the TUI would sit at its prompt until the timeout, print mode
// exits 1 with the cause only in its output. Retrying is Claude's business (CLAUDE_CODE_MAX_RETRIES, 10 by
// default); only the line it prints when it stopped is matched.
const errors: RuleInput[] = [
  {
    name: 'claude-code:not-logged-in',
    // No usable credentials (the line names the fix), or credentials the API refused.
    match: String.raw`(?<reason>(?:Not logged in|Invalid API key|Invalid auth token|OAuth token revoked|Login expired|Authentication required|Your ANTHROPIC_API_KEY belongs to a disabled organization|Your organization has disabled API key authentication) · \S.*)`,
    kind: 'agent_error',
    respond: { stop: true },
  },
  {
    name: 'claude-code:api-error',
    // At the line's start ("● " in the TUI, at column 0): a tool's output that says "API Error: …" is
    // indented under "  ⎿  " and is not Claude giving up.
    match: String.raw`^(?:[●⏺] )?(?<reason>API Error: \S.*)`,
    kind: 'agent_error',
    respond: { stop: true },
  },
]

export const claudeCodePreset: AgentPreset = {
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
}
