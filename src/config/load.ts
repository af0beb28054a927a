// Finds proctor.yml (repository root, or the current directory outside a repository) and loads it.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { findRepoRoot } from '../state/layout.js'
import type { Config } from './schema.js'
import { ConfigError } from './errors.js'
import { defaultConfig } from './defaults.js'
import type { PresetChoice } from '../agents/presets/apply.js'
import type { Checks, NeededChecks } from './parse-core.js'

export const CONFIG_FILE_NAMES = ['proctor.yml', 'proctor.yaml'] as const

export interface LoadedConfig {
  config: Config
  /** Absolute path of the file read, or null when no file was found and defaults apply. */
  file: string | null
  source: 'file' | 'defaults'
  warnings: string[]
}

export interface LoadOptions {
  /** An explicit file (`-c`), relative to cwd; it must exist. */
  file?: string
  cwd: string
  /** `--agent` and the agent argv from the command line (see applyAgentPreset). */
  preset?: PresetChoice
}

/** The config file proctor reads by default, or null if there is none. */
export function findConfigFile(cwd: string): string | null {
  const dir = findRepoRoot(cwd) ?? resolve(cwd)
  const found = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => isFile(file))
  if (found.length > 1) {
    throw fileProblem(
      found[0]!,
      cwd,
      `both ${CONFIG_FILE_NAMES.join(' and ')} exist in ${dir}`,
      'keep one of them',
    )
  }
  return found[0] ?? null
}

export async function loadConfig(opts: LoadOptions): Promise<LoadedConfig> {
  const file = opts.file !== undefined ? explicitFile(opts.file, opts.cwd) : findConfigFile(opts.cwd)
  // The parser (yaml, zod) is loaded only when there is something to parse: without a file or a preset
  // the defaults need neither, and `proctor run` starts its agent that much sooner.
  if (file === null && !opts.preset?.preset) {
    return { config: defaultConfig(), file: null, source: 'defaults', warnings: [] }
  }
  const { readConfig, neededChecks, validateConfig } = await import('./parse-core.js')
  let text = ''
  if (file !== null) {
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw fileProblem(file, opts.cwd, `cannot read the config file: ${(error as Error).message}`)
    }
  }
  const read = readConfig(text, file === null ? 'defaults' : displayName(file, opts.cwd))
  const checks = await loadChecks(neededChecks(read.raw, opts.preset))
  const { config, warnings } = validateConfig(read, checks, opts.preset)
  if (file === null) return { config, file: null, source: 'defaults', warnings: [] }
  return { config, file, source: 'file', warnings }
}

/**
 * The code the checks of this file need, and only that: the detector (with safe-regex2) for detect
 * rules, the policy compiler for a policy, the agent presets for a preset, the branch names for
 * checkpoints.branch, the area compiler for a hook's gate_files. A file without them loads none (`proctor checkpoints create` needs no detector).
 */
async function loadChecks(needed: NeededChecks): Promise<Checks> {
  const [presets, regex, detect, policy, refs, areas] = await Promise.all([
    needed.preset ? import('../agents/presets/apply.js') : undefined,
    needed.detect ? import('./regex-safety.js') : undefined,
    needed.detect ? import('../supervisor/detect.js') : undefined,
    needed.policy ? import('../policy/compile.js') : undefined,
    needed.branch ? import('../checkpoints/refs.js') : undefined,
    needed.gateFiles ? import('../policy/areas.js') : undefined,
  ])
  return {
    applyAgentPreset: presets?.applyAgentPreset,
    catastrophicRegex: regex?.catastrophicRegex,
    compileRule: detect?.compileRule,
    DetectRuleError: detect?.DetectRuleError,
    checkPolicyConfig: policy?.checkPolicyConfig,
    remoteBranchFor: refs?.remoteBranchFor,
    compileAreas: areas?.compileAreas,
  }
}

function explicitFile(given: string, cwd: string): string {
  const file = resolve(cwd, given)
  if (!existsSync(file)) {
    throw fileProblem(
      file,
      cwd,
      'config file not found',
      'check the path given with -c, or leave -c out to use proctor.yml at the repository root',
    )
  }
  if (!isFile(file)) throw fileProblem(file, cwd, 'is not a file', 'give -c the path of a proctor.yml file')
  return file
}

/** The name used in messages: relative to where the user stands, so it can be clicked or copied. */
export function displayName(file: string, cwd: string): string {
  const rel = relative(resolve(cwd), file)
  return rel === '' ? file : rel
}

function fileProblem(file: string, cwd: string, message: string, hint?: string): ConfigError {
  return new ConfigError([{ file: displayName(file, cwd), line: 0, col: 0, path: '', message, hint }])
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
