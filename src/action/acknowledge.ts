// `mode: acknowledge`: the first job of a comment- or label-triggered two-job workflow. It runs none of
// the agent's code and no agent: it decides whether the event gives proctor a task (the trigger phrase,
// the label), whether its author may give one (src/action/refuse-task.ts), and answers at once with an
// `eyes` reaction. Its exit code gates the agent job (`needs: acknowledge`); its `task` output says
// whether there is anything to do. The agent job checks again: it never trusts this job's word alone.
import * as core from '@actions/core'
import { actionClient } from './client.js'
import { loadActionConfig } from './config.js'
import type { ActionInputs } from './inputs.js'
import { refuseTask } from './refuse-task.js'
import { answerCommand, beginTask, type CommandOutcome } from './commands.js'
import { resolveTrigger } from './reply.js'
import { readEventPayload } from '../github/context.js'
import { acknowledge } from '../github/reactions.js'
import { writeOutputs } from '../github/summary.js'
import { createSanitizer } from '../util/sanitize.js'

export async function runAcknowledge(
  inputs: ActionInputs,
  env: Record<string, string | undefined>,
): Promise<number> {
  const loaded = await loadActionConfig(inputs, env)
  if (!loaded) return 2
  const { config, ctx } = loaded
  const sanitizer = createSanitizer({ secrets: [inputs.githubToken].filter(Boolean) })
  const payload = readEventPayload(env.GITHUB_EVENT_PATH)
  const octokit = actionClient(inputs.githubToken, ctx.apiUrl, env)
  const trigger = await resolveTrigger(ctx.eventName, payload, {
    octokit,
    ctx,
    token: inputs.githubToken,
    sanitizer,
    config,
  })
  if (trigger.kind !== 'task') {
    core.info(
      `proctor: nothing to do: ${sanitizer.forLog(trigger.kind === 'ignore' ? trigger.reason : `${ctx.eventName ?? 'this event'} is not a comment or a label`)}`,
    )
    writeOutputs({ task: 'false' })
    return 0
  }
  const { task } = trigger
  const refusal = await refuseTask(task, trigger.via, { octokit, ctx, oneJob: false })
  if (refusal) {
    const message = `proctor: ${sanitizer.forLog(refusal.message)}; the agent was not started`
    if (refusal.exitCode === 0) core.notice(message)
    else core.error(message)
    writeOutputs({ task: 'false' })
    return refusal.exitCode
  }
  if (task.reactTo)
    await acknowledge(octokit, ctx.owner, ctx.repo, task.reactTo).catch((error: unknown) =>
      core.warning(`proctor: could not react to the comment: ${(error as Error).message}`),
    )
  const options = {
    octokit,
    ctx,
    token: inputs.githubToken,
    sanitizer,
    payload,
    phrase: config.github.trigger.phrase[config.github.trigger.phrase.length - 1] ?? '/proctor',
    branchTemplate: config.checkpoints.branch,
  }
  if (trigger.command) {
    // A follow-up: answered here, in the job that runs no agent code (docs/github.md#the-conversation).
    const outcome = await answerCommand(task, trigger.command, options).catch(
      (error: unknown): CommandOutcome => ({
        log: `could not answer /proctor ${trigger.command!.verb}: ${(error as Error).message}`,
        outputs: { task: 'false' },
        exitCode: 1,
      }),
    )
    const line = `proctor: ${sanitizer.forLog(outcome.log)}`
    if (outcome.exitCode === 0) core.info(line)
    else core.error(line)
    writeOutputs(outcome.outputs)
    return outcome.exitCode
  }
  core.info(`proctor: task from ${sanitizer.forLog(task.author)} (${trigger.via}): the agent job may start`)
  // Round 1 of the conversation, recorded now: the run `/proctor stop` would cancel, before the agent starts.
  await beginTask(task, options).catch((error: unknown) =>
    core.warning(`proctor: could not write the conversation comment: ${(error as Error).message}`),
  )
  writeOutputs({ task: 'true' })
  return 0
}
