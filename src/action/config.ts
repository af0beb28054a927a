// The configuration every mode of the action's main step starts from: proctor.yml (or the `config`
// input) with the inputs applied, and the Actions context. A bad file is reported once, in the log and
// the job summary, and the step exits 2.
import * as core from '@actions/core'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadConfig } from '../config/load.js'
import { ConfigError } from '../config/errors.js'
import type { Config } from '../config/schema.js'
import { readActionsContext, type ActionsContext } from '../github/context.js'
import { appendJobSummary } from '../github/summary.js'
import { applyInputs, InputError, type ActionInputs } from './inputs.js'

export interface ActionConfig {
  config: Config
  ctx: ActionsContext
  /** The file read, absolute; null when none was given and proctor.yml is absent (defaults apply). */
  configPath: string | null
}

/** Null once a configuration error has been reported: the step exits 2. */
export async function loadActionConfig(
  inputs: ActionInputs,
  env: Record<string, string | undefined>,
): Promise<ActionConfig | null> {
  try {
    const configPath =
      inputs.configGiven || existsSync(resolve(inputs.config)) ? resolve(inputs.config) : null
    // The file as the input names it, so an error points at it as the user wrote it.
    const loaded = await loadConfig({ file: configPath ? inputs.config : undefined, cwd: process.cwd() })
    for (const warning of loaded.warnings) core.warning(`proctor.yml: ${warning}`)
    return { config: applyInputs(loaded.config, inputs), ctx: readActionsContext(env), configPath }
  } catch (error) {
    const message =
      error instanceof ConfigError || error instanceof InputError ? error.message : String(error)
    core.error(`proctor: ${message}`)
    appendJobSummary(`### proctor: configuration error\n\n\`\`\`\n${message}\n\`\`\`\n`)
    return null
  }
}

/** The run a session belongs to, as report.json records it. */
export function ciOf(ctx: ActionsContext): Record<string, string | number | null> {
  return {
    repository: `${ctx.owner}/${ctx.repo}`,
    run_id: ctx.runId,
    run_attempt: ctx.runAttempt,
    job: ctx.job,
    workflow: ctx.workflow,
    sha: ctx.sha,
    pr: ctx.pr?.number ?? null,
  }
}
