// GitHub Copilot CLI (`copilot -p "…"`): proctor's stop hooks run inside Copilot's own loop through its
// agentStop hook, handed over as a session-only plugin (`--plugin-dir`, see src/hooks/adapters/copilot.ts), so
// nothing is written into the project and the folder is not trusted on proctor's behalf. A block continues the
// same session; `continue` is used only when Copilot never called the hook: it resumes Copilot's own session
// by id (`--resume=<id>`, kept under $COPILOT_HOME/session-state/) with the stop hooks' reasons as the prompt.
// -p needs --allow-all-tools to run tools at all, so the continuation passes it; give --deny-tool rules in
// agent.continue of your own to narrow it.
//
// Copilot can be pointed at any OpenAI-compatible endpoint (COPILOT_PROVIDER_BASE_URL, "bring your own key"),
// which is how the suite runs the real CLI against a scripted API on loopback (test/e2e/agents-copilot.test.ts).
// Only the one-shot -p mode is proven there; the interactive TUI gets no screen rules (see docs/agents.md).
import type { ConfigInput } from '../../config/schema.js'
import type { AgentPreset } from './types.js'

type RuleInput = NonNullable<ConfigInput['detect']>[number]

// Copilot giving up on the model API, in its own words (seen from 1.0.102 against a refusing provider): after
// its own retries ("● Request failed due to a transient API error. Retrying...") it prints "Authentication
// failed with provider at <url> (HTTP 401)." on a 401, or "Failed to get response from the AI model; retried 5
// times (total retry wait time: 5.38 seconds) Last error: 429 Rate limit reached …" once a 429 did not clear,
// and exits. The provider's URL stays in the reason: it is the
// user's own setting (COPILOT_PROVIDER_BASE_URL) and says which endpoint refused. The patterns stay within
// what V8 runs in linear time (no counted repetition, no \b): only then are they matched on proctor's own
// thread, where the `reason` group is kept.
const failures: RuleInput[] = [
  {
    name: 'copilot:auth-failed',
    match: String.raw`^\s*(?<reason>Authentication failed with provider at \S+ \(HTTP \d{3}\))`,
    kind: 'agent_error',
    respond: { stop: true },
  },
  {
    name: 'copilot:gave-up',
    match: String.raw`^\s*Failed to get response from the AI model; retried \d+ times [^)]*\) Last error: (?<reason>.+)`,
    kind: 'agent_error',
    respond: { stop: true },
  },
]

export const copilotPreset: AgentPreset = {
  name: 'copilot',
  description: 'GitHub Copilot CLI: native agentStop hook as a session plugin, resume as continue',
  package: '@github/copilot',
  testedVersions: ['1.0.102'],
  config: {
    agent: {
      adapter: 'copilot',
      continue: ['copilot', '--resume={agent_session}', '-p', '{reason}', '--allow-all-tools'],
    },
    detect: failures,
  },
}
