// The job summary ($GITHUB_STEP_SUMMARY, ≤ 1 MiB per step) and step outputs ($GITHUB_OUTPUT). Files
// only: no API calls, so they work on fork PRs and when GitHub's API is down.
import { appendFileSync, existsSync, statSync, truncateSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
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
 * Writes step outputs in the runner's multi-line format (`name<<delimiter`), the same as
 * @actions/core's setOutput, with a delimiter that cannot occur in the value.
 */
export function writeOutputs(
  outputs: Record<string, string | number | boolean | null>,
  path = process.env.GITHUB_OUTPUT,
): boolean {
  if (!path) return false
  let text = ''
  for (const [name, raw] of Object.entries(outputs)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      throw new Error(`invalid output name "${name}": use letters, digits, "_" or "-"`)
    const value = raw === null ? '' : String(raw)
    let delimiter = `ghadelimiter_${randomUUID()}`
    while (value.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`
    text += `${name}<<${delimiter}\n${value}\n${delimiter}\n`
  }
  appendFileSync(path, text, 'utf8')
  return true
}
