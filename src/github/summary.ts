// The job summary ($GITHUB_STEP_SUMMARY, ≤ 1 MiB per step) and step outputs ($GITHUB_OUTPUT). Files
// only: no API calls, so they work on fork PRs and when GitHub's API is down.
import * as core from '@actions/core'
import {
  appendFileSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  statSync,
  truncateSync,
} from 'node:fs'
import { describeFsError, describeKind } from '../util/safe-file.js'
import { SUMMARY_MAX_BYTES } from '../report/markdown.js'

export interface SummaryWriteResult {
  written: boolean
  bytes: number
  /** Where in the file the text was written (its size before), so it can be replaced. */
  offset?: number
  /** Why nothing (or less) was written. */
  note: string | null
}

/**
 * Appends markdown to the step summary. The runner rejects a step's whole summary above 1 MiB, so the
 * text is cut (with a note) to what still fits beside anything already in the file.
 */
export function appendJobSummary(
  markdown: string,
  path = process.env.GITHUB_STEP_SUMMARY,
): SummaryWriteResult {
  if (!path)
    return {
      written: false,
      bytes: 0,
      note: 'GITHUB_STEP_SUMMARY is not set (not running in GitHub Actions)',
    }
  const already = existsSync(path) ? statSync(path).size : 0
  const room = SUMMARY_MAX_BYTES - already - 1
  let text = markdown.endsWith('\n') ? markdown : `${markdown}\n`
  let note: string | null = null
  if (Buffer.byteLength(text, 'utf8') > room) {
    const marker = '\n\n_(summary cut: the step summary is limited to 1 MiB)_\n'
    const keep = Math.max(0, room - Buffer.byteLength(marker, 'utf8'))
    if (keep <= 0) return { written: false, bytes: 0, note: 'the step summary is already at its 1 MiB limit' }
    // Cut by bytes, then drop a trailing partial character.
    text =
      Buffer.from(text, 'utf8')
        .subarray(0, keep)
        .toString('utf8')
        .replace(/\uFFFD$/, '') + marker
    note = `summary cut to ${keep} bytes to stay under 1 MiB`
  }
  appendFileSync(path, text, 'utf8')
  return { written: true, bytes: Buffer.byteLength(text, 'utf8'), offset: already, note }
}

/**
 * Replaces what `appendJobSummary` wrote with a newer render (the runner reads the file when the step
 * ends). Only while that text is still the end of the file: if anything was appended after it, the
 * earlier text stays and nothing is written.
 */
export function replaceJobSummary(
  previous: SummaryWriteResult,
  markdown: string,
  path = process.env.GITHUB_STEP_SUMMARY,
): SummaryWriteResult {
  if (!path || !previous.written || previous.offset === undefined) return previous
  const size = existsSync(path) ? statSync(path).size : -1
  if (size !== previous.offset + previous.bytes) return previous
  truncateSync(path, previous.offset)
  return appendJobSummary(markdown, path)
}

/**
 * Why the step outputs file cannot be written, or null (also when GITHUB_OUTPUT is not set). Opened
 * without creating it (the runner does) and without blocking on a FIFO; it must be a regular file.
 */
export function stepOutputProblem(path = process.env.GITHUB_OUTPUT): string | null {
  if (!path) return null
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK)
    try {
      const stats = fstatSync(fd)
      if (!stats.isFile()) return `GITHUB_OUTPUT (${path}) is ${describeKind(stats)}, not a regular file`
    } finally {
      closeSync(fd)
    }
    return null
  } catch (error) {
    return `GITHUB_OUTPUT (${path}) cannot be written: ${describeFsError(error)}; the runner creates this file: unset GITHUB_OUTPUT outside Actions, or point it at a writable file`
  }
}

/**
 * Step outputs through @actions/core (the runner's `name<<delimiter` file format). Outside Actions (no
 * GITHUB_OUTPUT) nothing is written: @actions/core would fall back to the retired `::set-output` command.
 * A file that cannot be written is one `::error::` line and `false`, never a throw: the session's report
 * and the rest of the reporting go on.
 */
export function writeOutputs(outputs: Record<string, string | number | boolean | null>): boolean {
  if (!process.env.GITHUB_OUTPUT) return false
  const problem = stepOutputProblem()
  if (problem) {
    core.error(`proctor: step outputs not written: ${problem}`)
    return false
  }
  for (const [name, value] of Object.entries(outputs)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      throw new Error(`invalid output name "${name}": use letters, digits, "_" or "-"`)
    try {
      core.setOutput(name, value === null ? '' : String(value))
    } catch (error) {
      core.error(`proctor: step output ${name} not written to GITHUB_OUTPUT: ${describeFsError(error)}`)
      return false
    }
  }
  return true
}
