// Fork PRs get a read-only token, so the report travels as an artifact for a trusted `workflow_run`
// workflow (mode: aggregate) to post. Outside a runner with the artifact service this is a no-op.
import * as core from '@actions/core'
import { DefaultArtifactClient } from '@actions/artifact'
import { readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import picomatch from 'picomatch'
import type { SessionReport } from '../report/model.js'
import type { ActionsContext } from '../github/context.js'
import type { Sanitizer } from '../util/sanitize.js'
import { stageUpload } from './redact.js'

export function artifactName(sessionId: string): string {
  return `proctor-report-${sessionId}`
}

/** Uploads the (redacted) report and the checkpoint bundle beside `reportPath` as `proctor-report-<session>`. */
export async function uploadSessionArtifact(
  report: SessionReport,
  reportPath: string,
  sanitizer: Sanitizer,
): Promise<void> {
  if (!process.env.ACTIONS_RUNTIME_TOKEN) {
    core.info(
      'proctor: no artifact service here (ACTIONS_RUNTIME_TOKEN unset); the report stays in the job summary',
    )
    return
  }
  const dir = dirname(reportPath)
  const { root, files } = stageUpload(dir, report, sanitizer, [join(dir, 'checkpoints.bundle')])
  try {
    const client = new DefaultArtifactClient()
    await client.uploadArtifact(artifactName(report.session_id), files, root, { retentionDays: 7 })
    core.info(`proctor: uploaded ${files.length} file(s) as artifact ${artifactName(report.session_id)}`)
  } catch (error) {
    core.warning(`proctor: could not upload the report artifact: ${(error as Error).message}`)
  }
}

export interface DownloadOptions {
  /** A glob over artifact names (picomatch), e.g. `proctor-report-*`. */
  pattern: string
  dest: string
  token: string
  context: ActionsContext
}

/**
 * Downloads the artifacts whose names match `pattern` and returns the report.json files inside. For a
 * `workflow_run` event they come from the triggering run (public API with the token), otherwise from the
 * current run (the results service, with the runner's ACTIONS_RUNTIME_TOKEN). A failure lists no files and
 * says why in `problems`; it never throws. test/e2e/artifact.test.ts runs this through the real client
 * against a local artifact service.
 */
export async function downloadReportArtifacts(
  options: DownloadOptions,
): Promise<{ files: string[]; problems: string[] }> {
  const { artifacts, problems } = await downloadArtifacts(options)
  const files: string[] = []
  for (const artifact of artifacts) {
    const found = findReportFiles(artifact.dir)
    if (found.length === 0) problems.push(`artifact ${artifact.name} holds no report.json`)
    files.push(...found)
  }
  return { files, problems }
}

export interface DownloadedArtifact {
  name: string
  dir: string
  /** When the artifact service says it was created (ISO), if it says. */
  createdAt: string | null
}

/**
 * Downloads the artifacts whose names match `pattern` (latest attempt of each session), each into its own
 * directory under `dest`. Never throws: what failed is listed in `problems`.
 */
export async function downloadArtifacts(
  options: DownloadOptions,
): Promise<{ artifacts: DownloadedArtifact[]; problems: string[] }> {
  const run = options.context.workflowRun
  const findBy = run
    ? {
        token: options.token,
        workflowRunId: run.id,
        repositoryOwner: options.context.owner,
        repositoryName: options.context.repo,
      }
    : undefined
  if (!findBy && !process.env.ACTIONS_RUNTIME_TOKEN) {
    return {
      artifacts: [],
      problems: [`artifact-pattern needs the GitHub Actions artifact service (run inside a workflow)`],
    }
  }
  const matches = picomatch(options.pattern)
  const artifacts: DownloadedArtifact[] = []
  const problems: string[] = []
  try {
    const client = new DefaultArtifactClient()
    const { artifacts: listed } = await client.listArtifacts({ latest: true, ...(findBy ? { findBy } : {}) })
    const wanted = latestAttempts(listed.filter((a) => matches(a.name)))
    if (wanted.length === 0) problems.push(`no artifact matches "${options.pattern}"`)
    for (const artifact of wanted) {
      const path = join(options.dest, artifact.name.replace(/[^A-Za-z0-9._-]/g, '_'))
      try {
        await client.downloadArtifact(artifact.id, { path, ...(findBy ? { findBy } : {}) })
        artifacts.push({
          name: artifact.name,
          dir: path,
          createdAt: artifact.createdAt?.toISOString() ?? null,
        })
      } catch (error) {
        problems.push(`artifact ${artifact.name} could not be downloaded: ${(error as Error).message}`)
      }
    }
  } catch (error) {
    problems.push(`could not list artifacts: ${(error as Error).message}`)
  }
  return { artifacts, problems }
}

const SESSION_ARTIFACT = /^proctor-(?:report|handoff)-(\d+)-(\d+)-(.+)$/

/**
 * "Re-run failed jobs" leaves the earlier attempts' artifacts in the run, and session ids (so artifact
 * names) carry the attempt: `proctor-report-<run>-<attempt>-<job>[-<matrix key>]`. Per session only the
 * latest attempt counts, or a leg that failed and then passed on re-run would be counted twice. Names of
 * any other shape are kept as they are.
 */
export function latestAttempts<T extends { name: string }>(artifacts: readonly T[]): T[] {
  const latest = new Map<string, number>()
  for (const { name } of artifacts) {
    const m = SESSION_ARTIFACT.exec(name)
    if (m) latest.set(`${m[1]}-${m[3]}`, Math.max(latest.get(`${m[1]}-${m[3]}`) ?? 0, Number(m[2])))
  }
  return artifacts.filter(({ name }) => {
    const m = SESSION_ARTIFACT.exec(name)
    if (!m || Number(m[2]) === latest.get(`${m[1]}-${m[3]}`)) return true
    core.info(`proctor: skipping artifact ${name}: a later attempt of the same session replaced it`)
    return false
  })
}

function findReportFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((rel) => basename(rel) === 'report.json')
    .map((rel) => join(dir, rel))
    .sort()
}
