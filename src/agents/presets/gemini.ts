// Gemini CLI (`gemini -p "…"`, or the interactive `gemini "…"`): proctor's stop hooks run inside Gemini's own
// loop through its AfterAgent hook in .gemini/settings.json (merged for the session, restored byte for byte
// afterwards, never checkpointed; see src/hooks/adapters/gemini.ts). Gemini loads a project's hooks only in a
// trusted folder, and its --skip-trust flag is applied after settings are read, so the agent's environment
// carries GEMINI_CLI_TRUST_WORKSPACE=true. `continue` is used only when Gemini never called the hook.
//
// The interactive TUI (checked against the real CLI, test/e2e/agents-gemini-tui.test.ts) is read from the
// screen only to get through its dialogs and to see when it is idle, so proctor can end it once the hook
// allowed:
// - "Do you trust the files in this folder?" with "● 1. Trust folder (…)" selected: Enter (the trust variable
//   above normally keeps it away).
// - Approvals left by the approval mode: "Apply this change?" (an edit) or "Allow execution of [Shell]?" (a
//   shell command) with "● 1. Allow once" selected: recorded, then Enter.
// - Not logged in: "How would you like to authenticate for this project?": the session stops.
// - Busy: the spinner line "⠸ Thinking… (esc to cancel, 2s)", also while a hook runs ("Executing Hook: …").
//   Gemini prints no "done" line, and its empty input box ("> Type your message or @path/to/file") is on
//   screen before any work too, so there is no completion rule: once the hook allowed, the session ends
//   Gemini when the screen no longer shows the spinner (src/session/live-stop.ts).
// - `/quit` then Enter quits it. Without the kitty keyboard protocol (proctor's terminal does not answer its
//   query) Gemini takes an Enter that comes within 30 ms of a typed key for a newline, not a submit; two
//   writes 50 ms apart can reach it together on a busy machine, so Enter follows typed text after 500 ms.
import type { ConfigInput } from '../../config/schema.js'
import type { AgentPreset } from './types.js'

type RuleInput = NonNullable<ConfigInput['detect']>[number]

/** Answers: after the TUI is ready for them, again while the dialog is still there. */
const patiently = { delay: '300ms', retry_after: '2s', max_attempts: 5 } as const

const screens: RuleInput[] = [
  {
    name: 'gemini:trust-folder',
    match: String.raw`^[│\s]*● 1\. Trust folder\b`,
    kind: 'dialog',
    respond: { send: '\r', ...patiently },
  },
  {
    name: 'gemini:approval',
    match: String.raw`^[│\s]*(?:Apply this change|Allow execution of\b[^?]{0,200})\?`,
    kind: 'approval_request',
    respond: { notify: true },
  },
  {
    name: 'gemini:allow-once',
    match: String.raw`^[│\s]*● 1\. Allow once\b`,
    kind: 'dialog',
    respond: { send: '\r', ...patiently },
  },
  {
    name: 'gemini:not-logged-in',
    match: String.raw`How would you like to authenticate for this project\?`,
    kind: 'error',
    respond: { stop: true },
  },
  {
    name: 'gemini:working',
    match: String.raw`\(esc to cancel, \d`,
    kind: 'working',
    respond: { notify: true },
  },
]

// Gemini giving up on the model API, in its own words (seen from 0.61.0 against a refusing API): the API's
// error JSON ("Error when talking to Gemini API … _ApiError: {"error":{"code":400,"message":"API key not
// valid. …"}}" in -p mode, "✕ [API Error: {"error":{…,"message":"…"" in the TUI), and after its retries
// (general.maxAttempts, 10 by default, ~4 min on a 429) "Attempt 10 failed: <message>. Max attempts reached".
// The reason is the API's message.
const failures: RuleInput[] = [
  {
    name: 'gemini:api-error',
    // Not "Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {…}": Gemini retries that.
    match: String.raw`(?:Error when talking to Gemini API\b.*?_ApiError|✕ \[API Error): \{"error":\{"code":\d{3},"message":"(?<reason>[^"]+)`,
    kind: 'agent_error',
    respond: { stop: true },
  },
  {
    name: 'gemini:gave-up',
    match: String.raw`Attempt \d+ failed: (?<reason>.+?)\.? Max attempts reached`,
    kind: 'agent_error',
    respond: { stop: true },
  },
]

export const geminiPreset: AgentPreset = {
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
    detect: failures,
    // Gemini reads GOOGLE_GEMINI_BASE_URL: its model calls go through proctor's metering proxy (docs/agents.md).
    model_api: { proxy: true, api: 'gemini' },
  },
  // `-p`/`--prompt` is the one-shot (headless) mode; a positional prompt or `-i` starts the TUI.
  isInteractive: (argv) =>
    !argv.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt=') || a === '--acp'),
  interactive: {
    agent: { quit: '/quit\r', typing: { submit_delay: '500ms' } },
    detect: screens,
  },
}
