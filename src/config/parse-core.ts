// proctor.yml text → validated Config, or a ConfigError listing every problem with file:line:col. The
// checks that need code beyond yaml and zod (the detector, the policy compiler, the agent presets, the
// branch names) are handed in, so that loadConfig loads only those a file uses (see neededChecks):
// the detector alone is ~5 ms of a fresh process's CPU, which `proctor checkpoints create` never needs.
import { LineCounter, parseDocument, type Document } from 'yaml'
import { configSchema, type Config } from './schema.js'
import { ConfigError, formatIssue, formatPath, requiredCheck, type ConfigIssue } from './errors.js'
import { positionOf } from './positions.js'
import { problemsFromZod, type Problem } from './zod-issues.js'
import { checkModelApi, crossCheck } from './cross-checks.js'
import { semanticProblems, type SemanticChecks } from './semantic-checks.js'
import type { applyAgentPreset, PresetChoice } from '../agents/presets/apply.js'
import type { catastrophicRegex } from './regex-safety.js'

export interface ParsedConfig {
  config: Config
  /** Problems that do not stop proctor (a value clamped into range), formatted like errors. */
  warnings: string[]
}

export const ASYNC_POOL_RANGE = { min: 1, max: 100 } as const

/** The code validation needs beyond yaml and zod; each part is needed only for what neededChecks names. */
export interface Checks extends SemanticChecks {
  applyAgentPreset?: typeof applyAgentPreset
  catastrophicRegex?: typeof catastrophicRegex
}

export interface NeededChecks {
  /** A preset is chosen (in the file or on the command line); it may bring any key, so all are needed. */
  preset: boolean
  /** detect rules: compiled by the detector, their patterns checked for catastrophic backtracking. */
  detect: boolean
  /** a policy mapping: checked by the policy compiler (the defaults have nothing to check, tested). */
  policy: boolean
  /** checkpoints.branch: checked by the code that pushes (the default is valid, tested). */
  branch: boolean
  /** stop_hooks[].gate_files: globs compiled by the policy's area compiler. */
  gateFiles: boolean
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Which checks a file's parsed YAML needs: a key that is not written takes its default, checked already. */
export function neededChecks(raw: unknown, preset: PresetChoice = {}): NeededChecks {
  const file = isObject(raw) ? raw : {}
  const chosen = preset.preset !== undefined || (isObject(file.agent) && file.agent.preset !== undefined)
  return {
    preset: chosen,
    detect: chosen || (Array.isArray(file.detect) && file.detect.length > 0),
    policy: chosen || file.policy !== undefined,
    branch: chosen || (isObject(file.checkpoints) && file.checkpoints.branch !== undefined),
    gateFiles:
      chosen ||
      (Array.isArray(file.stop_hooks) &&
        file.stop_hooks.some((h) => isObject(h) && h.gate_files !== undefined)),
  }
}

/** YAML text read into a document: what validateConfig works on, and what neededChecks reads. */
export interface ReadConfig {
  fileName: string
  doc: Document
  lineCounter: LineCounter
  raw: unknown
}

/**
 * Parses and validates config text; `fileName` is only used in messages. The agent preset (agent.preset,
 * or `preset` from the command line) is applied beneath the file before validation. Throws ConfigError.
 * `checks` must hold at least what neededChecks names for this text and preset.
 */
export function parseConfigWith(
  checks: Checks,
  text: string,
  fileName: string,
  preset: PresetChoice = {},
): ParsedConfig {
  return validateConfig(readConfig(text, fileName), checks, preset)
}

/** The YAML step: throws ConfigError for YAML that does not parse (with the line and column). */
export function readConfig(text: string, fileName: string): ReadConfig {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, strict: true, prettyErrors: true })
  const issueAt = issuesAt(lineCounter, fileName)

  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((error) => yamlIssue(error, text, issueAt)))
  }

  let raw: unknown
  try {
    raw = doc.toJS() ?? {} // an empty file (or only comments) means "all defaults"
  } catch (error) {
    throw new ConfigError([issueAt(0, `invalid YAML: ${(error as Error).message}`)])
  }
  return { fileName, doc, lineCounter, raw }
}

/** The validation step: the preset beneath the file, the schema, then the checks that need proctor's code. */
export function validateConfig(read: ReadConfig, checks: Checks, preset: PresetChoice = {}): ParsedConfig {
  const { fileName, doc, lineCounter, raw } = read
  const issueAt = issuesAt(lineCounter, fileName)
  const needed = neededChecks(raw, preset)
  let withPreset: unknown = raw
  if (needed.preset) {
    try {
      withPreset = requiredCheck(checks.applyAgentPreset, 'applyAgentPreset')(raw, preset)
    } catch (error) {
      throw new ConfigError([issueAt(0, (error as Error).message)])
    }
  }
  // Problems are located in the user's file; the preset's own values are valid by construction (tested).
  const result = configSchema.safeParse(withPreset)
  const problems = [
    ...(result.success ? [] : problemsFromZod(result.error.issues, raw, configSchema)),
    ...crossCheck(
      raw,
      needed.detect ? requiredCheck(checks.catastrophicRegex, 'catastrophicRegex') : undefined,
    ),
    ...checkModelApi(withPreset),
  ]
  const issues = problems.map((problem) => locate(problem, doc, lineCounter, fileName))
  if (issues.length > 0 || !result.success) throw new ConfigError(sortAndDedupe(issues))

  const warnings = doc.warnings.map((warning) =>
    formatIssue(issueAt(warning.pos[0], stripPosition(warning.message))),
  )
  const config = result.data
  // Only the checks the file asked for run, in every caller alike: what it did not write is a default.
  const semantic = semanticProblems(config, {
    compileRule: needed.detect ? requiredCheck(checks.compileRule, 'compileRule') : undefined,
    DetectRuleError: needed.detect ? requiredCheck(checks.DetectRuleError, 'DetectRuleError') : undefined,
    checkPolicyConfig: needed.policy
      ? requiredCheck(checks.checkPolicyConfig, 'checkPolicyConfig')
      : undefined,
    remoteBranchFor: needed.branch ? requiredCheck(checks.remoteBranchFor, 'remoteBranchFor') : undefined,
    compileAreas: needed.gateFiles ? requiredCheck(checks.compileAreas, 'compileAreas') : undefined,
  })
  if (semantic.problems.length > 0) {
    throw new ConfigError(sortAndDedupe(semantic.problems.map((p) => locate(p, doc, lineCounter, fileName))))
  }
  for (const problem of semantic.warnings)
    warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)))
  const pool = config.hooks_async_pool_size
  const clamped = Math.min(ASYNC_POOL_RANGE.max, Math.max(ASYNC_POOL_RANGE.min, pool))
  if (clamped !== pool) {
    config.hooks_async_pool_size = clamped
    const problem = {
      path: ['hooks_async_pool_size'],
      message: `${pool} is outside ${ASYNC_POOL_RANGE.min}–${ASYNC_POOL_RANGE.max}; using ${clamped}`,
    }
    warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)))
  }
  if (config.output.buffer !== undefined) {
    const problem = {
      path: ['output', 'buffer'],
      message:
        'has no effect (deprecated): detection and the report read the rendered screen (PTY) or the last lines of output (pipe); remove it',
    }
    warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)))
  }
  return { config, warnings }
}

/** An issue at an offset of the text (YAML's own problems, and the file as a whole at offset 0). */
const issuesAt =
  (lineCounter: LineCounter, file: string) =>
  (offset: number, message: string, hint?: string): ConfigIssue => {
    const { line, col } = lineCounter.linePos(offset)
    return { file, line, col, path: '', message, hint }
  }

function locate(problem: Problem, doc: Document, lineCounter: LineCounter, file: string): ConfigIssue {
  const { line, col } = positionOf(doc, lineCounter, problem.path, problem.atKey)
  return { file, line, col, path: formatPath(problem.path), message: problem.message, hint: problem.hint }
}

// prettyErrors appends " at line 3, column 1:" and a source excerpt; we print our own position instead.
const stripPosition = (message: string): string => message.replace(/ at line \d+, column \d+:[\s\S]*$/, '')

function yamlIssue(
  error: { code: string; message: string; pos: [number, number] },
  text: string,
  issueAt: (offset: number, message: string, hint?: string) => ConfigIssue,
): ConfigIssue {
  if (error.code === 'DUPLICATE_KEY') {
    const key = (/^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2')
    return issueAt(
      error.pos[0],
      `duplicate key "${key}"`,
      'a key may appear only once in a mapping; keep one of them',
    )
  }
  return issueAt(error.pos[0], `invalid YAML: ${stripPosition(error.message)}`)
}

function sortAndDedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>()
  return issues
    .sort((a, b) => a.line - b.line || a.col - b.col)
    .filter((issue) => {
      const key = formatIssue(issue)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}
