// What a batch runs: its tasks (from proctor.yml or `--task name=command`), each child's session id and
// config, and the error a batch reports for bad usage (exit 2, like a config error).
import type { Config } from '../config/schema.js'
import type { CommandSpec } from '../supervisor/types.js'
import { makeSessionId, sanitizeRefPart } from '../session/session-id.js'

export interface BatchTask {
  name: string
  command: CommandSpec
  role: string | null
  /** Overrides timeouts.total for this task (ms). */
  timeoutMs?: number
}

/** A batch that cannot start: no repository, no commits, no tasks. Exit code 2 (usage). */
export class BatchError extends Error {
  readonly exitCode = 2

  constructor(message: string) {
    super(message)
    this.name = 'BatchError'
  }
}

export function tasksFromConfig(config: Config): BatchTask[] {
  return config.batch.tasks.map((task, index) => {
    let command: CommandSpec
    if (task.command && task.command.length > 0)
      command = { file: task.command[0]!, args: task.command.slice(1) }
    else if (task.shell) command = { shell: task.shell }
    // The config loader rejects this already; a config built in code might not have been through it.
    else throw new BatchError(`batch.tasks[${index}] (${task.name}) needs a command or a shell`)
    return {
      name: task.name,
      command,
      role: task.role ?? null,
      ...(task.timeout !== undefined ? { timeoutMs: task.timeout } : {}),
    }
  })
}

/**
 * `--task name=command`: everything after the first `=` is one shell string (run by /bin/sh -c), so
 * `--task lint='npm run lint -- --fix'` works as typed.
 */
export function parseTaskFlag(value: string): BatchTask {
  const eq = value.indexOf('=')
  const name = eq > 0 ? value.slice(0, eq).trim() : ''
  const shell = eq > 0 ? value.slice(eq + 1).trim() : ''
  if (!name || !shell) {
    throw new BatchError(
      `--task ${JSON.stringify(value)}: expected name=command, e.g. --task tests='npm test' ` +
        '(the command after = is run by /bin/sh -c)',
    )
  }
  return { name, command: { shell }, role: null }
}

/** `<batch>-<index>-<name>`: unique within the batch even when names repeat, and valid in a git ref. */
export function childSessionId(batchId: string, index: number, name: string): string {
  return sanitizeRefPart(`${batchId}-${index}-${sanitizeRefPart(name)}`)
}

/** PROCTOR_BATCH_ID if set; else like a session id (run/attempt/job in CI, a timestamp locally). */
export function makeBatchId(env: Record<string, string | undefined>): string {
  const explicit = env.PROCTOR_BATCH_ID?.trim()
  if (explicit) return sanitizeRefPart(explicit)
  // PROCTOR_SESSION_ID names one session; every child of a batch gets its own id instead.
  return makeSessionId({ ...env, PROCTOR_SESSION_ID: undefined })
}

/** The child's own config: the task's timeout replaces timeouts.total. */
export function childConfig(config: Config, task: BatchTask): Config {
  const next = structuredClone(config)
  if (task.timeoutMs !== undefined) next.timeouts.total = task.timeoutMs
  return next
}
