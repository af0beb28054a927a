// The configuration every mode of the action's main step starts from: proctor.yml (or the `config`
// input) with the inputs applied, and the Actions context. A bad file is reported once, in the log and
// the job summary, and the step exits 2.
import * as core from '@actions/core'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadConfig, type LoadedConfig } from '../config/load.js'
import { configAtCommit, readIfRegular } from '../config/trusted.js'
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
    const loaded = await loadTrustedConfig(inputs, env, process.cwd(), (message) => core.warning(message))
    for (const warning of loaded.warnings) core.warning(`proctor.yml: ${warning}`)
    const configPath = loaded.file
    return { config: applyInputs(loaded.config, inputs), ctx: readActionsContext(env), configPath }
  } catch (error) {
    const message =
      error instanceof ConfigError || error instanceof InputError ? error.message : String(error)
    core.error(`proctor: ${message}`)
    appendJobSummary(`### proctor: configuration error\n\n\`\`\`\n${message}\n\`\`\`\n`)
    return null
  }
}

/**
 * proctor.yml as the event's commit (GITHUB_SHA) holds it, when that commit is here: every step reads the
 * configuration the maintainers committed, not a copy the agent rewrote in the working tree (the post step
 * runs after the agent; a follow-up round checks out the agent's branch). A working tree that differs is
 * named in a warning. Without the commit (a shallow clone of another ref) the working tree's file is read,
 * which the gate judged when it was pushed (docs/action.md#two-job-layout).
 */
export async function loadTrustedConfig(
  inputs: Pick<ActionInputs, 'config' | 'configGiven'>,
  env: Record<string, string | undefined>,
  cwd: string,
  warn: (message: string) => void,
): Promise<LoadedConfig> {
  const file = resolve(cwd, inputs.config)
  const here = inputs.configGiven || existsSync(file)
  const sha = env.GITHUB_SHA
  const committed = sha ? await configAtCommit(file, sha, cwd) : { kind: 'unknown' as const }
  const short = sha?.slice(0, 12) ?? ''
  if (committed.kind === 'file') {
    const worktree = here ? readIfRegular(file) : null
    if (!worktree || !worktree.equals(committed.bytes))
      warn(
        `proctor: ${inputs.config} in the working tree differs from the event's commit ${short}; proctor reads the commit's (the working tree's may be the agent's)`,
      )
    return loadConfig({ file: inputs.config, cwd, bytes: committed.bytes })
  }
  if (committed.kind === 'none' && here && !inputs.configGiven) {
    warn(
      `proctor: ${inputs.config} is in the working tree but not in the event's commit ${short}; proctor uses the defaults, as that commit does`,
    )
    return loadConfig({ cwd, file: undefined, skipSearch: true })
  }
  // The file as the input names it, so an error points at it as the user wrote it.
  return loadConfig({ file: here ? inputs.config : undefined, cwd })
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
