// Codex CLI (`codex exec "…"`, or the interactive `codex "…"`): proctor's stop hooks run inside Codex's own loop
// through its Stop hook, passed on the command line (`-c hooks.Stop=[…] --dangerously-bypass-hook-trust`, see
// src/hooks/adapters/codex.ts), so nothing is written into the project and no trust review is needed. In both
// modes a block continues the same turn; `continue` is used only when Codex never called the hook (an older
// Codex without hooks): it resumes the last session with the stop hooks' reasons as the prompt.
//
// The interactive TUI (checked against the real CLI, test/e2e/agents-codex-tui.test.ts) is read from the screen
// only to get through its dialogs and to see when it is idle, so proctor can end it once the hook allowed:
// - The `-c` override proctor passes makes Codex run its app server in-process: no background daemon is
//   started (without any `-c`, 0.169.0 spawns one that outlives the TUI, and waits ~17 s for it).
// - "Folder access … Trust this folder?" with "› 1. Trust and continue" selected: Enter.
// - Approvals left by the approval policy: "Would you like to run the following command?" / "… make the
//   following edits?" with "› 1. Yes, proceed (y)" selected: recorded, then Enter.
// - Not logged in: the "Welcome to Codex" sign-in menu ("1. Sign in with ChatGPT"): the session stops.
// - Busy: "• Working (4s • esc to interrupt)", also while a hook runs ("· Running hook"). Done: the turn's
//   footer "Worked for 4s • 00:07" (or "<1s") above the empty "› Ask Codex to do anything" box.
// - `/exit` then Enter quits it (Ctrl-D on an empty box does too).
import type { ConfigInput } from '../../config/schema.js'
import type { AgentPreset } from './types.js'

type RuleInput = NonNullable<ConfigInput['detect']>[number]

/** Answers: after the TUI is ready for them, again while the dialog is still there. */
const patiently = { delay: '300ms', retry_after: '2s', max_attempts: 5 } as const

const screens: RuleInput[] = [
  {
    name: 'codex:trust-folder',
    match: String.raw`^\s*› 1\. Trust and continue\b`,
    kind: 'dialog',
    respond: { send: '\r', ...patiently },
  },
  {
    name: 'codex:approval',
    match: String.raw`^\s*Would you like to (?:run the following command|make the following edits|[a-z][^?]{0,80})\?`,
    kind: 'approval_request',
    respond: { notify: true },
  },
  {
    name: 'codex:yes',
    // The approval menu's first choice ("Yes, proceed (y)"), selected by default.
    match: String.raw`^\s*› 1\. Yes, proceed\b`,
    kind: 'dialog',
    respond: { send: '\r', ...patiently },
  },
  {
    name: 'codex:not-logged-in',
    // No credentials: the first-run sign-in menu would wait forever.
    match: String.raw`^\s*[›>]? ?1\. Sign in with ChatGPT\b`,
    kind: 'error',
    respond: { stop: true },
  },
  {
    name: 'codex:working',
    match: String.raw`\besc to interrupt\)`,
    kind: 'working',
    respond: { notify: true },
  },
  {
    name: 'codex:done',
    match: String.raw`^\s*Worked for <?\d+[hms]\b`,
    kind: 'completion',
    respond: { notify: true },
  },
]

// Codex giving up on the model API, in its own words (seen from 0.169.0 against a refusing API): `codex exec`
// prints "ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: …, url: …" or "ERROR: exceeded
// retry limit, last status: 429 Too Many Requests" and exits 1; the TUI shows the same words after "■ " and
// waits at its prompt. Codex retries by itself first (request_max_retries / stream_max_retries of the model
// provider); these lines come once it stopped. The request URL is left out of the reason.
const failures: RuleInput[] = [
  {
    name: 'codex:api-error',
    match: String.raw`^\s*(?:ERROR:|■) (?<reason>(?:unexpected status \d{3}|exceeded retry limit|stream disconnected before completion|Quota exceeded|You've hit your usage limit)(?:[^,]|, (?!url:))*)`,
    kind: 'agent_error',
    respond: { stop: true },
  },
]

export const codexPreset: AgentPreset = {
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
    detect: failures,
  },
  // `codex exec …` (alias `e`) is the one-shot mode; anything else starts the TUI.
  isInteractive: (argv) => !argv.slice(1).some((a) => a === 'exec' || a === 'e'),
  interactive: {
    agent: { quit: '/exit\r' },
    detect: screens,
  },
}
