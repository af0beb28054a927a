// The verify job's results as it hands them to the publish job (artifact `proctor-verify-<run>-<attempt>`,
// docs/action.md#two-job-layout). The verify job ran the agent's code, so the publish job reads this as
// a claim that can only make a check fail: a hook counts as passed only when GitHub's own record says the
// verify job succeeded AND this file says the hook allowed on the very commit publish computed itself.
import * as core from '@actions/core'
import { DefaultArtifactClient } from '@actions/artifact'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StopHookResult, Violation } from '../report/model.js'
import type { ActionsContext } from '../github/context.js'
import { sanitizeRefPart } from '../session/session-id.js'
import { withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import type { Sanitizer } from '../util/sanitize.js'
import { downloadArtifacts } from './artifact.js'
import { ARTIFACT_ENV } from './handoff.js'
import { stageUpload } from './redact.js'

export const VERIFY_PREFIX = 'proctor-verify-'
export const VERIFY_FILE = 'verify.json'

export interface VerifiedSession {
  session_id: string
  /** The commit the stop hooks ran on (the handoff's last checkpoint, or the checkout without one). */
  tested_sha: string | null
  /** The handoff was unusable; the hooks did not run. */
  rejected: boolean
  verdict: 'allow' | 'block'
  stop_hooks: Pick<StopHookResult, 'name' | 'verdict' | 'reason'>[]
  violations: Violation[]
}

export interface VerifyResults {
  schema: 1
  sessions: VerifiedSession[]
}

/** `proctor-verify-<run>-<attempt>`, with the matrix key when the verify job is a matrix leg. */
export function verifyArtifactName(ctx: ActionsContext, matrixKey: string | undefined): string {
  const key = matrixKey ? `-${sanitizeRefPart(matrixKey)}` : ''
  return `${VERIFY_PREFIX}${ctx.runId || '0'}-${ctx.runAttempt}${key}`
}

export async function uploadVerifyResults(o: {
  results: VerifyResults
  name: string
  dir: string
  sanitizer: Sanitizer
  secrets: WithheldSecrets
}): Promise<string | null> {
  if (!o.secrets.values.ACTIONS_RUNTIME_TOKEN)
    return 'no artifact service here (ACTIONS_RUNTIME_TOKEN unset): the publish job will find no results'
  const { root, files } = stageUpload(o.dir, o.results, o.sanitizer, [], VERIFY_FILE)
  try {
    await withSecretsInEnv(o.secrets, ARTIFACT_ENV, () =>
      new DefaultArtifactClient().uploadArtifact(o.name, files, root, { retentionDays: 7 }),
    )
  } catch (error) {
    return `could not upload the verify results ${o.name}: ${(error as Error).message}`
  }
  core.info(`proctor: uploaded the verify results as artifact ${o.name} for the publish job`)
  return null
}

/**
 * Publish side: the verify results of this run attempt, merged over the verify job's legs; per session
 * the entries of every leg. Untrusted: anything malformed is dropped (and can only make checks fail).
 */
export async function downloadVerifyResults(o: {
  ctx: ActionsContext
  token: string
  dest: string
  secrets: WithheldSecrets
}): Promise<{ sessions: Map<string, VerifiedSession[]>; problems: string[] }> {
  const base = `${VERIFY_PREFIX}${o.ctx.runId || '0'}-${o.ctx.runAttempt}`
  const downloaded = await withSecretsInEnv(o.secrets, ARTIFACT_ENV, () =>
    downloadArtifacts({ pattern: `${base}*`, dest: o.dest, token: o.token, context: o.ctx }),
  )
  const sessions = new Map<string, VerifiedSession[]>()
  const problems = [...downloaded.problems]
  // `<base>*` also matches attempt 1 of `-10`: only this attempt's name and its matrix legs count.
  const ours = downloaded.artifacts.filter((a) => a.name === base || a.name.startsWith(`${base}-`))
  for (const artifact of ours) {
    const file = join(artifact.dir, VERIFY_FILE)
    const parsed = existsSync(file) ? parseResults(readFileSync(file, 'utf8')) : null
    if (!parsed) {
      problems.push(`artifact ${artifact.name} holds no readable ${VERIFY_FILE}`)
      continue
    }
    for (const session of parsed.sessions)
      sessions.set(session.session_id, [...(sessions.get(session.session_id) ?? []), session])
  }
  return { sessions, problems }
}

function parseResults(text: string): VerifyResults | null {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null
  }
  const d = data as Partial<VerifyResults> | null
  if (!d || d.schema !== 1 || !Array.isArray(d.sessions)) return null
  const sessions = d.sessions.filter(
    (s): s is VerifiedSession =>
      !!s &&
      typeof s.session_id === 'string' &&
      (s.tested_sha === null || typeof s.tested_sha === 'string') &&
      (s.verdict === 'allow' || s.verdict === 'block') &&
      Array.isArray(s.stop_hooks) &&
      s.stop_hooks.every((h) => !!h && typeof h.name === 'string' && typeof h.verdict === 'string'),
  )
  return { schema: 1, sessions }
}
