// The agent presets by name. Each lives in its own module; add a new one here and to agentPresetNames in
// src/config/schema.ts.
import type { AgentPreset, AgentPresetName } from './types.js'
import { claudeCodePreset } from './claude-code.js'
import { codexPreset } from './codex.js'
import { geminiPreset } from './gemini.js'
import { copilotPreset } from './copilot.js'
import { opencodePreset } from './opencode.js'

export type { AgentPreset, AgentPresetName } from './types.js'

export const agentPresets: Record<AgentPresetName, AgentPreset> = {
  'claude-code': claudeCodePreset,
  codex: codexPreset,
  gemini: geminiPreset,
  copilot: copilotPreset,
  opencode: opencodePreset,
}

export function findAgentPreset(name: string): AgentPreset | undefined {
  return Object.hasOwn(agentPresets, name) ? agentPresets[name as AgentPresetName] : undefined
}

/** The names a user can pick, for messages. */
export function agentPresetChoices(): string[] {
  return Object.keys(agentPresets)
}
