// proctor.yml text → validated Config, synchronously, with every check loaded (loadConfig loads only the
// checks a file needs; see parse-core.ts).
import { parseConfigWith, type Checks, type ParsedConfig } from './parse-core.js'
import { catastrophicRegex } from './regex-safety.js'
import { compileRule, DetectRuleError } from '../supervisor/detect.js'
import { checkPolicyConfig } from '../policy/compile.js'
import { remoteBranchFor } from '../checkpoints/refs.js'
import { compileAreas } from '../policy/areas.js'
import { applyAgentPreset, type PresetChoice } from '../agents/presets/apply.js'

export { ASYNC_POOL_RANGE, type ParsedConfig } from './parse-core.js'

const ALL_CHECKS: Checks = {
  applyAgentPreset,
  catastrophicRegex,
  compileRule,
  DetectRuleError,
  checkPolicyConfig,
  remoteBranchFor,
  compileAreas,
}

/**
 * Parses and validates config text; `fileName` is only used in messages. The agent preset (agent.preset,
 * or `preset` from the command line) is applied beneath the file before validation. Throws ConfigError.
 */
export function parseConfigText(text: string, fileName: string, preset: PresetChoice = {}): ParsedConfig {
  return parseConfigWith(ALL_CHECKS, text, fileName, preset)
}
