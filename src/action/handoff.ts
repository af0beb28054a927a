// The two-job layout's hand-over (docs/action.md#two-job-layout). The agent job (`handoff: true`) uploads
// its checkpoints as a git bundle plus report.json (redacted) as the artifact `proctor-handoff-<session>`;
// the verify and publish jobs read it back. Everything in a handoff was within the agent's reach, so they
// treat it as untrusted data: the bundle must hold exactly the session's checkpoint ref, start from the
// commit the job checked out and end at the checkpoint the report names; anything else is tampered.
import * as core from '@actions/core'
import { DefaultArtifactClient } from '@actions/artifact'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Git } from '../git/runner.js'
import { listCheckpoints } from '../checkpoints/history.js'
import { checkpointRef } from '../checkpoints/refs.js'
import { parseSessionReport } from '../report/aggregate.js'
import type { SessionReport } from '../report/model.js'
import { sanitizeRefPart } from '../session/session-id.js'
import { withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import type { Sanitizer } from '../util/sanitize.js'
import { stageUpload } from './redact.js'

export const HANDOFF_PREFIX = 'proctor-handoff-'
export const BUNDLE_FILE = 'checkpoints.bundle'

export function handoffArtifactName(sessionId: string): string {
  return `${HANDOFF_PREFIX}${sessionId}`
}

/** Runner variables the artifact client reads from process.env. */
export const ARTIFACT_ENV = ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'] as const

/**
 * Agent side: writes the session's checkpoints as a bundle next to report.json (replacing any file of that
 * name the agent may have left) and uploads both. Returns a problem, or null when the handoff is up.
 */
export async function uploadHandoff(options: {
  cwd: string
  report: SessionReport
  reportPath: string
  secrets: WithheldSecrets
  /** Redacts the uploaded report.json like the log (the raw one stays on this machine). */
  sanitizer: Sanitizer
}): Promise<string | null> {
  const { report, reportPath, secrets } = options
  const dir = dirname(reportPath)
  const bundle = join(dir, BUNDLE_FILE)
  rmSync(bundle, { force: true })
  try {
    const git = new Git({ cwd: options.cwd })
    const checkpoints = await listCheckpoints(git, report.session_id)
    if (checkpoints.length > 0) {
      const base = checkpoints[0]!.base
      await git.bundleCreate(bundle, [checkpointRef(report.session_id), ...(base ? [`^${base}`] : [])])
    }
  } catch (error) {
    return `could not bundle the checkpoints: ${(error as Error).message}`
  }
  if (!secrets.values.ACTIONS_RUNTIME_TOKEN) {
    return 'no artifact service here (ACTIONS_RUNTIME_TOKEN unset): the verify job will find no handoff'
  }
  const { root, files } = stageUpload(dir, report, options.sanitizer, [bundle])
  const name = handoffArtifactName(report.session_id)
  try {
    await withSecretsInEnv(secrets, ARTIFACT_ENV, () =>
      new DefaultArtifactClient().uploadArtifact(name, files, root, { retentionDays: 7 }),
    )
  } catch (error) {
    return `could not upload the handoff artifact ${name}: ${(error as Error).message}`
  }
  core.info(`proctor: handed off ${files.length} file(s) as artifact ${name} for the verify job`)
  return null
}

/** A handoff the verify job accepted: the agent's claims, and the checkpoint tip now in this repository. */
export interface AcceptedHandoff {
  sessionId: string
  claimed: SessionReport
  /** The last checkpoint, fetched into refs/proctor/<session>; null when the agent changed nothing. */
  tip: string | null
}

export type HandoffResult =
  { ok: true; handoff: AcceptedHandoff } | { ok: false; sessionId: string; problem: string }

/**
 * Verify side: reads one downloaded handoff directory and imports its bundle into `git` (the verify
 * job's checkout at `head`). Never throws: a missing, malformed or tampered handoff is a problem.
 */
export async function acceptHandoff(
  git: Git,
  dir: string,
  name: string,
  head: string,
): Promise<HandoffResult> {
  const fallbackId = sanitizeRefPart(
    name.startsWith(HANDOFF_PREFIX) ? name.slice(HANDOFF_PREFIX.length) : name,
  )
  const fail = (problem: string, sessionId = fallbackId): HandoffResult => ({ ok: false, sessionId, problem })
  const reportPath = join(dir, 'report.json')
  if (!existsSync(reportPath)) return fail(`the handoff ${name} holds no report.json`)
  const claimed = parseSessionReport(readFileSync(reportPath, 'utf8'))
  if (typeof claimed === 'string') return fail(`the handoff's report.json is malformed: ${claimed}`)
  const sessionId = sanitizeRefPart(claimed.session_id)
  if (sessionId !== claimed.session_id)
    return fail(`the handoff names an invalid session id "${claimed.session_id}"`, sessionId)
  if (name.startsWith(HANDOFF_PREFIX) && fallbackId !== sessionId)
    return fail(`the artifact ${name} carries the report of another session (${sessionId})`, fallbackId)

  const last = claimed.checkpoints[claimed.checkpoints.length - 1]
  const bundle = join(dir, BUNDLE_FILE)
  if (!existsSync(bundle)) {
    if (last)
      return fail(
        `the report names checkpoint ${last.sha} but the handoff holds no ${BUNDLE_FILE}`,
        sessionId,
      )
    return { ok: true, handoff: { sessionId, claimed, tip: null } }
  }
  const ref = checkpointRef(sessionId)
  const heads = await git.raw(['bundle', 'list-heads', bundle], { okExitCodes: [1, 128] })
  if (heads.exitCode !== 0) return fail(`${BUNDLE_FILE} is not a readable git bundle`, sessionId)
  const refs = heads.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(line.indexOf(' ') + 1))
  if (refs.length !== 1 || refs[0] !== ref)
    return fail(
      `${BUNDLE_FILE} must hold exactly ${ref}, it holds: ${refs.join(', ') || 'nothing'}`,
      sessionId,
    )
  const verified = await git.raw(['bundle', 'verify', '--quiet', bundle], { okExitCodes: [1, 128] })
  if (verified.exitCode !== 0)
    return fail(`${BUNDLE_FILE} does not apply to this checkout (${firstLine(verified.stderr)})`, sessionId)
  // Our own ref namespace, forced: a stale ref from an earlier attempt must not win.
  const fetched = await git.raw(['fetch', '--no-tags', '--no-write-fetch-head', bundle, `+${ref}:${ref}`], {
    okExitCodes: [1, 128],
  })
  if (fetched.exitCode !== 0)
    return fail(`${BUNDLE_FILE} could not be fetched (${firstLine(fetched.stderr)})`, sessionId)
  const tip = await git.revParse(`${ref}^{commit}`)
  if (!tip) return fail(`${BUNDLE_FILE} holds no commit at ${ref}`, sessionId)
  const onHead = await git.raw(['merge-base', '--is-ancestor', head, tip], { okExitCodes: [1] })
  if (onHead.exitCode !== 0)
    return fail(`the checkpoints do not start from the checked-out commit ${head.slice(0, 12)}`, sessionId)
  if (!last || last.sha !== tip)
    return fail(
      `report.json and ${BUNDLE_FILE} disagree: the report's last checkpoint is ${last?.sha ?? 'none'}, the bundle's is ${tip}`,
      sessionId,
    )
  return { ok: true, handoff: { sessionId, claimed, tip } }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? 'no message'
  )
}
