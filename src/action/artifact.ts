// Fork PRs get a read-only token, so the report travels as an artifact for a trusted `workflow_run`
// workflow (mode: aggregate) to post. Outside a runner with the artifact service this is a no-op.
import * as core from '@actions/core'
import { DefaultArtifactClient } from '@actions/artifact'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { SessionReport } from '../report/model.js'

export function artifactName(sessionId: string): string {
  return `proctor-report-${sessionId}`
}

export async function uploadSessionArtifact(report: SessionReport, reportPath: string): Promise<void> {
  if (!process.env.ACTIONS_RUNTIME_TOKEN) {
    core.info('proctor: no artifact service here (ACTIONS_RUNTIME_TOKEN unset); the report stays in the job summary')
    return
  }
  const dir = dirname(reportPath)
  const files = [reportPath, join(dir, 'checkpoints.bundle')].filter((file) => existsSync(file))
  try {
    const client = new DefaultArtifactClient()
    await client.uploadArtifact(artifactName(report.session_id), files, dir, { retentionDays: 7 })
    core.info(`proctor: uploaded ${files.length} file(s) as artifact ${artifactName(report.session_id)}`)
  } catch (error) {
    core.warning(`proctor: could not upload the report artifact: ${(error as Error).message}`)
  }
}
