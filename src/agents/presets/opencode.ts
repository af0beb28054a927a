// opencode (`opencode run "…"`): opencode has no hook that can hold the agent at its stop (its plugins see a
// `session.idle` event, but `opencode run` exits at that moment, before a plugin could send another prompt), so
// the preset uses proctor's generic path: proctor's stop hooks run once opencode exited, and a block re-runs
// it with `continue`, which goes on in opencode's last session in this directory (`opencode run --continue`)
// with the stop hooks' reasons as the message.
//
// opencode talks to any provider its config names, including an OpenAI-compatible one with its own baseURL
// (opencode.json `provider.<id>.options.baseURL`), which is how the suite runs the real CLI against a scripted
// API on loopback (test/e2e/agents-opencode.test.ts). Only `opencode run` is proven there; the interactive TUI
// (`opencode` alone) gets no screen rules (see docs/agents.md).
import type { ConfigInput } from '../../config/schema.js'
import type { AgentPreset } from './types.js'

type RuleInput = NonNullable<ConfigInput['detect']>[number]

// opencode giving up on the model API (seen from 1.18.33 against a refusing provider): `opencode run` prints
// the provider's own message after "Error: " and exits — at once on a 401 ("Error: Incorrect API key provided:
// …"), after its own retries (~25 s) on a 429 that does not clear ("Error: Rate limit reached for …"). Only
// the API's words count: an "Error: " line about anything else is opencode's business.
const failures: RuleInput[] = [
  {
    name: 'opencode:api-error',
    match: String.raw`^\s*Error: (?<reason>(?:Incorrect API key provided|Invalid API key|Rate limit reached|You exceeded your current quota|Overloaded|Unauthorized|The server had an error)\b.*)`,
    kind: 'agent_error',
    respond: { stop: true },
  },
]

export const opencodePreset: AgentPreset = {
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
}
