// mode: aggregate — one BatchReport out of many session reports (matrix jobs, or a fork PR's artifact
// in a trusted workflow_run), then one PR comment and one check run.
import * as core from '@actions/core'
import type { ActionInputs } from './inputs.js'

export async function runAggregate(inputs: ActionInputs, env: Record<string, string | undefined>): Promise<number> {
  void inputs
  void env
  core.error('proctor: mode aggregate is not wired yet')
  return 2
}
