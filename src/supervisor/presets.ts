// Built-in detector rules, off unless proctor.yml enables them with `detect_presets: [prompts]`.
// docs/detectors.md documents each one; keep the two in step.
import type { DetectRule } from '../config/schema.js'

export type PresetName = 'prompts'

/**
 * Common interactive prompts, answered so an unattended session does not hang on them. Enabling the
 * preset is the user's consent to approve: every answer is recorded as an event, and policy checks and
 * checkpoints still apply to what the agent does next. Patterns are anchored at the end of the line,
 * where a prompt waits for input, so a log line that merely mentions "[y/N]" does not fire.
 */
const prompts: DetectRule[] = [
  {
    name: 'preset:y/N',
    match: String.raw`\[y/N\]\s*[:?>]?\s*$`,
    kind: 'approval_request',
    respond: { send: 'y\r' },
  },
  {
    name: 'preset:Y/n',
    match: String.raw`\[Y/n\]\s*[:?>]?\s*$`,
    kind: 'approval_request',
    respond: { send: 'y\r' },
  },
  {
    name: 'preset:(y/n)',
    match: String.raw`\(y/n\)\s*[:?>]?\s*$`,
    flags: 'i',
    kind: 'approval_request',
    respond: { send: 'y\r' },
  },
  {
    name: 'preset:allow-action',
    match: String.raw`Allow this action\?`,
    kind: 'approval_request',
    respond: { send: 'y\r' },
  },
  {
    // Claude Code and Codex show a menu under this question with "Yes" highlighted: Enter picks it.
    name: 'preset:proceed',
    match: String.raw`Do you want to proceed\?`,
    kind: 'approval_request',
    respond: { send: '\r' },
  },
]

const presets: Record<PresetName, readonly DetectRule[]> = { prompts }

export function presetRules(names: readonly PresetName[]): DetectRule[] {
  return [...new Set(names)].flatMap((name) => presets[name] ?? [])
}
