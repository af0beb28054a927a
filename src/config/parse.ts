// proctor.yml text → validated Config, or a ConfigError listing every problem with file:line:col.
import { LineCounter, parseDocument, type Document } from 'yaml'
import { configSchema, type Config } from './schema.js'
import { ConfigError, formatIssue, formatPath, type ConfigIssue } from './errors.js'
import { positionOf } from './positions.js'
import { problemsFromZod, type Problem } from './zod-issues.js'
import { crossCheck } from './cross-checks.js'
import { semanticProblems } from './semantic-checks.js'
import { applyAgentPreset, type PresetChoice } from '../agents/presets/apply.js'

export interface ParsedConfig {
  config: Config
  /** Problems that do not stop proctor (a value clamped into range), formatted like errors. */
  warnings: string[]
}

export const ASYNC_POOL_RANGE = { min: 1, max: 100 } as const

/**
 * Parses and validates config text; `fileName` is only used in messages. The agent preset (agent.preset,
 * or `preset` from the command line) is applied beneath the file before validation. Throws ConfigError.
 */
export function parseConfigText(text: string, fileName: string, preset: PresetChoice = {}): ParsedConfig {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, strict: true, prettyErrors: true })
  const issueAt = (offset: number, message: string, hint?: string): ConfigIssue => {
    const { line, col } = lineCounter.linePos(offset)
    return { file: fileName, line, col, path: '', message, hint }
  }

  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((error) => yamlIssue(error, text, issueAt)))
  }

  let raw: unknown
  try {
    raw = doc.toJS() ?? {} // an empty file (or only comments) means "all defaults"
  } catch (error) {
    throw new ConfigError([issueAt(0, `invalid YAML: ${(error as Error).message}`)])
  }

  let withPreset: unknown
  try {
    withPreset = applyAgentPreset(raw, preset)
  } catch (error) {
    throw new ConfigError([issueAt(0, (error as Error).message)])
  }
  // Problems are located in the user's file; the preset's own values are valid by construction (tested).
  const result = configSchema.safeParse(withPreset)
  const problems = [
    ...(result.success ? [] : problemsFromZod(result.error.issues, raw, configSchema)),
    ...crossCheck(raw),
  ]
  const issues = problems.map((problem) => locate(problem, doc, lineCounter, fileName))
  if (issues.length > 0 || !result.success) throw new ConfigError(sortAndDedupe(issues))

  const warnings = doc.warnings.map((warning) =>
    formatIssue(issueAt(warning.pos[0], stripPosition(warning.message))),
  )
  const config = result.data
  const semantic = semanticProblems(config)
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
