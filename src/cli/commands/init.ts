// proctor init [--agent claude-code|codex|gemini|copilot|opencode|shell] [--trigger mention|label|pull_request]
// [--layout one-job|two-job] [--action owner/repo@ref]
// [--no-install] [--force]:
// proctor.yml, .husky/pre-push (with husky set up) and a workflow; never overwrites without --force.
import { Option, type Command } from 'commander'
import { processHookIO, type HookCommandIO } from '../../hooks/cli-io.js'
import { sanitizeForTerminal } from '../../hooks/display.js'
import { checkActionRef } from '../../init/action-ref.js'
import { INIT_AGENTS, INIT_TRIGGERS, type InitAgent, type InitTrigger } from '../../init/agents.js'
import { InitError, layoutFor, writeInitFiles } from '../../init/init.js'
import { CliExit, ExitCode } from '../exit.js'

interface InitCliOptions {
  force?: boolean
  agent: InitAgent
  trigger: InitTrigger
  layout?: 'one-job' | 'two-job'
  action?: string
  install: boolean
}

export function registerInitCommand(program: Command, io: HookCommandIO = processHookIO): Command {
  return program
    .command('init')
    .description(
      'write proctor.yml, the husky pre-push hook (setting up husky) and a workflow for your agent',
    )
    .addOption(
      new Option('--agent <agent>', 'the agent CLI the config and workflow are for')
        .choices([...INIT_AGENTS])
        .default('claude-code'),
    )
    .addOption(
      new Option(
        '--trigger <trigger>',
        'what starts a session: mention (a comment "@proctor <task>"), label (the label "proctor"), pull_request (opened)',
      )
        .choices([...INIT_TRIGGERS])
        .default('mention'),
    )
    .addOption(
      new Option(
        '--layout <layout>',
        'one-job: for trusted triggers (pull_request only, the default there); two-job: the agent job holds no write token (always for mention and label)',
      ).choices(['one-job', 'two-job']),
    )
    .option('--action <ref>', "the workflow's `uses:` reference, e.g. acme/proctor@v1")
    .option('--no-install', 'do not install husky; print the command instead')
    .option('--force', 'overwrite files that already exist')
    .action(async (opts: InitCliOptions) => {
      if (opts.action !== undefined) {
        const problem = checkActionRef(opts.action)
        if (problem) throw new CliExit(ExitCode.usage, problem)
      }
      try {
        layoutFor({ trigger: opts.trigger, ...(opts.layout ? { layout: opts.layout } : {}) })
      } catch (error) {
        if (error instanceof InitError) throw new CliExit(ExitCode.usage, error.message)
        throw error
      }
      const result = await writeInitFiles(io.cwd(), opts.force === true, {
        agent: opts.agent,
        trigger: opts.trigger,
        ...(opts.layout ? { layout: opts.layout } : {}),
        action: opts.action,
        husky: opts.install ? 'install' : 'skip',
        env: io.env(),
      })
      for (const path of result.written) io.stdout(`wrote ${path}\n`)
      for (const path of result.kept) io.stdout(`kept  ${path} (it exists; use --force to overwrite)\n`)
      for (const hint of result.hints) io.stdout(`note: ${sanitizeForTerminal(hint)}\n`)
    })
}
