// Codex CLI (`codex exec "…"`, or the interactive `codex`): proctor's stop hooks run inside Codex's own loop
// through its Stop hook, passed on the command line (`-c hooks.Stop=[…] --dangerously-bypass-hook-trust`, see
// src/hooks/adapters/codex.ts), so nothing is written into the project and no trust review is needed.
// `continue` is used only when Codex never called the hook (an older Codex without hooks): it resumes the
// last session with the stop hooks' reasons as the prompt.
import type { AgentPreset } from './types.js'

export const codexPreset: AgentPreset = {
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
}
