// Gemini CLI (`gemini -p "…"`, or the interactive `gemini`): proctor's stop hooks run inside Gemini's own
// loop through its AfterAgent hook in .gemini/settings.json (merged for the session, restored byte for byte
// afterwards, never checkpointed; see src/hooks/adapters/gemini.ts). Gemini loads a project's hooks only in a
// trusted folder, and its --skip-trust flag is applied after settings are read, so the agent's environment
// carries GEMINI_CLI_TRUST_WORKSPACE=true. `continue` is used only when Gemini never called the hook.
import type { AgentPreset } from './types.js'

export const geminiPreset: AgentPreset = {
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
}
