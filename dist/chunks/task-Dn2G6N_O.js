const TASK_PLACEHOLDER = '{task}';
class TaskError extends Error {
    name = 'TaskError';
}
/**
 * The command with `{task}` replaced inside each argv element: the task stays part of that one element
 * (never split into words, never parsed by a shell). A shell string with `{task}` is refused: no quoting
 * is safe for every shell, and `"$PROCTOR_TASK"` does the same job there.
 */
function commandWithTask(command, task) {
    if ('shell' in command) {
        if (command.shell.includes(TASK_PLACEHOLDER))
            throw new TaskError(`the shell command contains ${TASK_PLACEHOLDER}, which is never put into a shell string: ` +
                'write the command as an argv list (agent.command, or the command input), or read "$PROCTOR_TASK" in the script');
        return command;
    }
    const argv = [command.file, ...command.args];
    if (!argv.some((arg) => arg.includes(TASK_PLACEHOLDER)))
        return command;
    if (!task)
        throw new TaskError(`the agent command contains ${TASK_PLACEHOLDER}, but this run has no task: a task comes from a comment ` +
            'with the trigger phrase or from the trigger label (docs/github.md#a-task-from-a-comment); ' +
            'give other events a command without it');
    // split/join rather than replace(): `$&` and friends in the task stay text, not replacement patterns.
    const filled = argv.map((arg) => arg.split(TASK_PLACEHOLDER).join(task.text));
    return { ...command, file: filled[0], args: filled.slice(1) };
}
/** The variables the agent and the hooks get with a task (empty without one). */
function taskEnv(task) {
    if (!task)
        return {};
    return {
        PROCTOR_TASK: task.text,
        PROCTOR_TASK_AUTHOR: task.author,
        PROCTOR_TASK_URL: task.url ?? '',
    };
}

export { TASK_PLACEHOLDER, TaskError, commandWithTask, taskEnv };
