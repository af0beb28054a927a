// An agent preset is data: the proctor.yml fragment a session with one agent CLI needs (its detectors,
// continue template, native Stop-hook adapter, environment, typing), applied beneath the user's own file,
// whose keys and rules extend or override it.
import type { ConfigInput } from '../../config/schema.js'

export type AgentPresetName = 'claude-code' | 'codex' | 'gemini' | 'copilot' | 'opencode'

export interface AgentPreset {
  name: AgentPresetName
  /** One line for `proctor init --agent` and docs. */
  description: string
  /** The CLI's npm package and the versions this preset is tested with in the suite. */
  package: string
  testedVersions: readonly string[]
  /** A proctor.yml fragment in the file's own (input) shape. */
  config: ConfigInput
  /**
   * Optional: tells an interactive run (a TUI) from a one-shot one (print/exec mode) by the agent's argv.
   * When it says interactive, `interactive` is applied over `config`.
   */
  isInteractive?(argv: readonly string[]): boolean
  interactive?: ConfigInput
}
