// A native adapter wires an agent's own Stop hook to `proctor hook stop`, so proctor's stop hooks block inside
// the agent's loop, and translates between that agent's hook protocol and proctor's verdicts.

export type NativeAdapterName = 'claude' | 'codex' | 'gemini' | 'copilot'

/** A settings file to merge proctor's hook into (path relative to the agent's working directory). */
export interface NativeHookFile {
  path: string
  /** Returns the file's new JSON given its current content (null when the file does not exist). */
  merge(existing: unknown): unknown
}

export interface NativeHookSetup {
  adapter: NativeAdapterName
  /** Extra arguments for the agent command (Claude Code: --settings <json>; Codex: -c hooks.Stop=…; Copilot: --plugin-dir). */
  args: string[]
  files: NativeHookFile[]
  /** Environment the agent needs for its hooks to load at all (Gemini CLI: the workspace-trust variable). */
  env: Record<string, string>
}

export interface NativeSetupOptions {
  /** The shell command the agent runs for its Stop hook (built by nativeHookCommand). */
  hookCommand: string
  /** How long the agent lets the hook run: proctor's slowest stop hook plus a margin. */
  timeoutMs: number
  /** Claude Code only: pass the hook with --settings (default) instead of writing .claude/settings.local.json. */
  settingsFile?: boolean
}

/** What proctor needs from the agent's Stop-hook input. */
export interface NativeStopInput {
  sessionId: string | null
  stopHookActive: boolean
  finalText: string
  cwd: string | null
  /**
   * What identifies the user prompt this stop belongs to (Codex: turn_id; Gemini CLI: the prompt text), or
   * null when the agent gives none (Claude Code). Blocks are counted per prompt: Gemini CLI resets
   * stop_hook_active whenever the continuation used a tool, so its flag alone cannot bound the rounds.
   */
  promptKey: string | null
}

/** The agent-facing answer: exit code and the JSON on stdout in that agent's protocol. */
export interface NativeAnswer {
  exitCode: number
  stdout: string
  stderr: string
}

export interface NativeAdapter {
  name: NativeAdapterName
  /** The agent's event that plays the role of proctor's stop. */
  stopEvent: string
  setup(options: NativeSetupOptions): NativeHookSetup
  readInput(payload: Record<string, unknown>): NativeStopInput
  /** block: keep the agent working with `reason`. allow: let it stop (`note` shown to the user when supported). */
  answer(decision: { block: true; reason: string } | { block: false; note?: string }): NativeAnswer
}
