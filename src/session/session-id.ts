// Session ids name the checkpoint ref and branch, so they must be valid in a git ref and unique per run.
// In GitHub Actions they carry run id, attempt and job so re-runs and matrix jobs never collide.
import { randomHex } from '../util/random.js'

export function makeSessionId(
  env: Record<string, string | undefined> = process.env,
  now = new Date(),
): string {
  const explicit = env.PROCTOR_SESSION_ID?.trim()
  if (explicit) return sanitizeRefPart(explicit)
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_RUN_ID) {
    const parts = [env.GITHUB_RUN_ID, env.GITHUB_RUN_ATTEMPT ?? '1', env.GITHUB_JOB ?? 'job']
    if (env.PROCTOR_MATRIX_KEY) parts.push(env.PROCTOR_MATRIX_KEY)
    return sanitizeRefPart(parts.join('-'))
  }
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `${stamp}-${randomHex(3)}`
}

/** Keeps what `git check-ref-format` accepts in one component. */
export function sanitizeRefPart(value: string): string {
  const cleaned = value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|[.-]+$/g, '')
    .replace(/\.lock$/i, '-lock')
    .slice(0, 100)
  return cleaned || 'session'
}
