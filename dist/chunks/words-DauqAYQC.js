/** "agent exited 3", "agent killed by SIGTERM"; null when the agent never ran (or an older report). */
function agentExitText(agent) {
    if (!agent)
        return null;
    if (agent.signal)
        return `agent killed by ${agent.signal}`;
    return agent.exit_code === null ? null : `agent exited ${agent.exit_code}`;
}

/** How a stop hook ended, in one word. */
function hookWord(result) {
    if (result.timed_out)
        return 'timed out';
    return HOOK_WORDS[result.verdict];
}
const HOOK_WORDS = {
    allow: 'passed',
    block: 'blocked',
    error: 'hook error',
};
/** The icon beside a hook word where markdown renders it (comment, job summary). */
const HOOK_ICON = {
    passed: '✅',
    blocked: '❌',
    'hook error': '⚠️',
    'timed out': '⏱️',
};
/** The first line of a reason that says something, trimmed; undefined when there is none. */
function firstLine(text) {
    return text
        ?.split('\n')
        .find((line) => line.trim())
        ?.trim();
}

export { HOOK_ICON as H, agentExitText as a, firstLine as f, hookWord as h };
