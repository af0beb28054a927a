// The task reaches the agent as data: one argv element where `{task}` stood, never a shell string.
import { describe, expect, it } from 'vitest'
import { commandWithTask, taskEnv } from '../../src/action/task.js'
import type { Task } from '../../src/github/trigger.js'

const task = (text: string): Task => ({
  text,
  author: 'alice',
  authorIsBot: false,
  url: 'https://github.com/acme/widgets/pull/7#issuecomment-1',
  reactTo: null,
  issueNumber: 7,
})

describe('commandWithTask', () => {
  it('replaces {task} inside its own element, which stays one element whatever the text holds', () => {
    const text = 'a b; $(rm -rf /) `id` $& $1 "q"\nline 2'
    expect(
      commandWithTask({ file: 'claude', args: ['-p', '{task}', '--append', 'Task: {task}.'] }, task(text)),
    ).toEqual({ file: 'claude', args: ['-p', text, '--append', `Task: ${text}.`] })
  })

  it('a command without {task} is left as it is, with or without a task', () => {
    const command = { file: 'node', args: ['agent.mjs'] }
    expect(commandWithTask(command, task('x'))).toEqual(command)
    expect(commandWithTask(command, null)).toEqual(command)
  })

  it('refuses {task} in a shell string, naming the two ways that work', () => {
    expect(() => commandWithTask({ shell: 'claude -p "{task}"' }, task('x'))).toThrow(
      /never put into a shell string: write the command as an argv list .* "\$PROCTOR_TASK"/,
    )
    expect(commandWithTask({ shell: 'claude -p "$PROCTOR_TASK"' }, task('x'))).toEqual({
      shell: 'claude -p "$PROCTOR_TASK"',
    })
  })

  it('refuses {task} when the run has no task (a manual run, a pull request opened)', () => {
    expect(() => commandWithTask({ file: 'claude', args: ['-p', '{task}'] }, null)).toThrow(
      /contains \{task\}, but this run has no task/,
    )
  })
})

describe('taskEnv', () => {
  it('PROCTOR_TASK, its author and its URL; nothing without a task', () => {
    expect(taskEnv(task('fix it'))).toEqual({
      PROCTOR_TASK: 'fix it',
      PROCTOR_TASK_AUTHOR: 'alice',
      PROCTOR_TASK_URL: 'https://github.com/acme/widgets/pull/7#issuecomment-1',
    })
    expect(taskEnv(null)).toEqual({})
  })
})
