// Finds proctor.yml (repository root, or the current directory outside a repository) and loads it.
import { existsSync, lstatSync, readlinkSync } from 'node:fs'
import { readRegularFile } from '../util/safe-file.js'
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
  /**
   * The file's content as a trusted commit holds it (config/trusted.ts), parsed in place of what the
   * working tree holds; `file` still names it in errors.
   */
  bytes?: Buffer
  /** No file: the defaults, without looking for proctor.yml in cwd. */
  skipSearch?: boolean
}

/**
 * The config file proctor reads by default, or null if there is none. A name that exists in any form
 * (a dangling symlink, a directory, a FIFO) is the user's config: it is returned, and reading it says
 * what is wrong with it, rather than proctor quietly running on the defaults.
 */
export function findConfigFile(cwd: string): string | null {
  const dir = findRepoRoot(cwd) ?? resolve(cwd)
  const found = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => exists(file))
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
  const file =
    opts.file !== undefined
      ? opts.bytes
        ? resolve(opts.cwd, opts.file)
        : explicitFile(opts.file, opts.cwd)
      : opts.skipSearch
        ? null
        : findConfigFile(opts.cwd)
  // The parser (yaml, zod) is loaded only when there is something to parse: without a file or a preset
  // the defaults need neither, and `proctor run` starts its agent that much sooner.
  if (file === null && !opts.preset?.preset) {
    return { config: defaultConfig(), file: null, source: 'defaults', warnings: [] }
  }
  const { readConfig, neededChecks, validateConfig } = await import('./parse-core.js')
  const hint =
    opts.file !== undefined
      ? 'give -c the path of a proctor.yml file'
      : 'make it a regular YAML file, or remove it to use the defaults'
  const text =
    file === null
      ? ''
      : opts.bytes
        ? configText(opts.bytes, file, opts.cwd)
        : readConfigText(file, opts.cwd, hint)
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
  if (!exists(file)) {
    throw fileProblem(
      file,
      cwd,
      'config file not found',
      'check the path given with -c, or leave -c out to use proctor.yml at the repository root',
    )
  }
  return file
}

/** Generous for any real proctor.yml; a cap, so that /dev/zero or a huge file cannot stall a start. */
export const MAX_CONFIG_BYTES = 1 << 20

/**
 * The text of a config file: a readable regular file (a symlink to one is fine) of valid UTF-8, read
 * without blocking on a FIFO or device and capped at MAX_CONFIG_BYTES. Anything else is a ConfigError
 * naming the file (and, for bad UTF-8, the line, column and byte offset).
 */
function readConfigText(file: string, cwd: string, hint: string): string {
  let bytes: Buffer
  try {
    bytes = readRegularFile(file, MAX_CONFIG_BYTES)
  } catch (error) {
    const dangling = (error as NodeJS.ErrnoException).code === 'ENOENT' ? danglingLink(file) : null
    const reason = dangling ?? (error as Error).message.replace(file, 'the config file')
    throw fileProblem(file, cwd, reason, hint)
  }
  return configText(bytes, file, cwd)
}

/** Bytes of a config file as text: valid UTF-8 within MAX_CONFIG_BYTES, else a ConfigError naming the file. */
function configText(bytes: Buffer, file: string, cwd: string): string {
  if (bytes.length > MAX_CONFIG_BYTES)
    throw fileProblem(file, cwd, `larger than ${MAX_CONFIG_BYTES} bytes`, 'keep proctor.yml under 1 MiB')
  const bad = firstInvalidUtf8(bytes)
  if (bad === null) return bytes.toString('utf8')
  const before = bytes.subarray(0, bad).toString('utf8')
  const line = before.split('\n').length
  const col = before.length - before.lastIndexOf('\n')
  return failUtf8(file, cwd, line, col, bad, bytes[bad]!)
}

function failUtf8(file: string, cwd: string, line: number, col: number, offset: number, byte: number): never {
  throw new ConfigError([
    {
      file: displayName(file, cwd),
      line,
      col,
      path: '',
      message: `invalid UTF-8 at byte offset ${offset} (byte 0x${byte.toString(16).padStart(2, '0')})`,
      hint: 'save the file as UTF-8',
    },
  ])
}

/** The offset of the first byte that does not decode as UTF-8, or null when all of it does. */
export function firstInvalidUtf8(bytes: Uint8Array): number | null {
  const valid = (end: number): boolean => {
    try {
      // stream: an incomplete sequence at `end` is held back, not an error; only a bad byte is.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: true })
      return true
    } catch {
      return false
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return null
  } catch {
    // The whole file fails: the shortest failing prefix ends just past the first bad byte.
  }
  let failing = bytes.length + 1 // cut short at the very end
  if (!valid(bytes.length)) {
    let lo = 0
    let hi = bytes.length
    while (lo + 1 < hi) {
      const mid = (lo + hi) >> 1
      if (valid(mid)) lo = mid
      else hi = mid
    }
    failing = hi
  }
  // The decoder fails at the byte that breaks a sequence; report where that sequence began.
  if (failing > bytes.length) return sequenceStart(bytes, bytes.length - 1)
  const at = failing - 1
  const byte = bytes[at]!
  // A byte that is fine by itself failed: it cut the sequence before it short.
  if (at > 0 && (byte < 0x80 || (byte >= 0xc2 && byte <= 0xf4))) return sequenceStart(bytes, at - 1)
  return at
}

/** Back from `from` over continuation bytes (10xxxxxx) to the byte that led them. */
function sequenceStart(bytes: Uint8Array, from: number): number {
  let i = from
  while (i > 0 && (bytes[i]! & 0xc0) === 0x80) i--
  return i
}

/** The name used in messages: relative to where the user stands, so it can be clicked or copied. */
export function displayName(file: string, cwd: string): string {
  const rel = relative(resolve(cwd), file)
  return rel === '' ? file : rel
}

function fileProblem(file: string, cwd: string, message: string, hint?: string): ConfigError {
  return new ConfigError([{ file: displayName(file, cwd), line: 0, col: 0, path: '', message, hint }])
}

/** "is a symbolic link to <target>, which does not exist" for a dangling link, else null. */
function danglingLink(file: string): string | null {
  try {
    if (!lstatSync(file).isSymbolicLink() || existsSync(file)) return null
    return `the config file is a symbolic link to ${readlinkSync(file)}, which does not exist`
  } catch {
    return null
  }
}

/** Anything at all at `path`, a dangling or looping symlink included. */
function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
