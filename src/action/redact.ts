// Everything this action uploads (the handoff, the fork-PR report, the verify job's results) leaves the
// machine: it is redacted the way the log is — every secret the runner gave this step and every
// token-shaped string masked — and written to a staging directory of its own, so the raw report.json
// (and the raw transcript beside it) is never what gets uploaded.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { createSanitizer, type Sanitizer } from '../util/sanitize.js'
import type { WithheldSecrets } from '../supervisor/agent-env.js'

/**
 * A sanitizer that knows the step's token and the runner's credentials withheld at start (the variables
 * named *TOKEN*: not the other inputs or the service URLs, whose values are words such as "verify").
 */
export function uploadSanitizer(token: string, secrets: WithheldSecrets): Sanitizer {
  const credentials = Object.entries(secrets.values)
    .filter(([name]) => /TOKEN/i.test(name))
    .map(([, value]) => value)
  return createSanitizer({ secrets: [token, ...credentials].filter(Boolean) })
}

/** Every string in a JSON value, redacted (keys too: a key is text the agent may have chosen). */
export function redactJson<T>(value: T, sanitizer: Sanitizer): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return sanitizer.redact(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [sanitizer.redact(k), walk(x)]))
    return v
  }
  return walk(value) as T
}

/**
 * A fresh directory `<dir>/upload` holding `report.json` (redacted `json`) and copies of `files` that
 * exist (binary files such as the checkpoint bundle, whose content is the agent's commits as they are).
 * Returns the directory and the files to upload.
 */
export function stageUpload(
  dir: string,
  json: unknown,
  sanitizer: Sanitizer,
  files: string[] = [],
  name = 'report.json',
): { root: string; files: string[] } {
  const root = join(dir, 'upload')
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  const staged = [join(root, name)]
  writeFileSync(staged[0]!, `${JSON.stringify(redactJson(json, sanitizer), null, 2)}\n`)
  for (const file of files) {
    if (!existsSync(file)) continue
    const to = join(root, basename(file))
    copyFileSync(file, to)
    staged.push(to)
  }
  return { root, files: staged }
}
