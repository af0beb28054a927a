// The GitHub Action's main step, before any mode: the inputs read, the runner's secrets withheld from the
// environment every mode's processes inherit, then the one mode the workflow asked for — `run` (run.ts),
// the two-job layout's `verify` and `publish` (docs/action.md#two-job-layout), `acknowledge`, `aggregate`.
import * as core from '@actions/core'
import { resolve } from 'node:path'
import { stepOutputProblem } from '../github/summary.js'
import { withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import { runAcknowledge } from './acknowledge.js'
import { runAggregate } from './aggregate.js'
import { withholdRunnerSecrets } from './hygiene.js'
import { readInputs, type ActionInputs } from './inputs.js'
import { runPublish } from './publish.js'
import { runMode } from './run.js'
import { runVerify } from './verify.js'

export async function main(env: Record<string, string | undefined> = process.env): Promise<number> {
  let inputs: ActionInputs
  let secrets: WithheldSecrets
  try {
    inputs = readInputs(env)
    if (inputs.githubToken) core.setSecret(inputs.githubToken)
    // Before anything else can start: no token stays in the environment the agent and hooks inherit.
    secrets = withholdRunnerSecrets([inputs.githubToken])
    if (inputs.workingDirectory) process.chdir(resolve(inputs.workingDirectory))
    // Before an agent runs for nothing: later steps could not read its verdict.
    const outputs = stepOutputProblem(env.GITHUB_OUTPUT)
    if (outputs) throw new Error(outputs)
  } catch (error) {
    core.error(`proctor: ${(error as Error).message}`)
    return 2
  }
  switch (inputs.mode) {
    case 'run':
      return runMode(inputs, env, secrets)
    case 'verify':
      return runVerify(inputs, env, secrets)
    case 'publish':
      return runPublish(inputs, env, secrets)
    case 'acknowledge':
      return runAcknowledge(inputs, env)
    case 'aggregate':
      return withSecretsInEnv(secrets, ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'], () =>
        runAggregate(inputs, env),
      )
    default:
      core.error(
        `proctor: input mode: expected run, acknowledge, verify, publish or aggregate, got "${inputs.mode}"`,
      )
      return 2
  }
}
