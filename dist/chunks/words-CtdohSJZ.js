// The one report model. Every rendering (terminal, report.json, job summary, PR comment, check runs)
// is a view of these types; renderers never compute, sinks never format.
const REPORT_SCHEMA_VERSION = 1;
/** At most this many pre-existing paths are listed in report.json (BaselineRecord.pre_existing). */
const MAX_PRE_EXISTING_LISTED = 1000;

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
/**
 * What the worktree already held when the session started, never the agent's (report.baseline): "3 files
 * were already changed before the session; not judged".
 */
function describePreExisting(count) {
    return `${count} file${count === 1 ? ' was' : 's were'} already changed before the session; not judged`;
}

export { HOOK_ICON as H, MAX_PRE_EXISTING_LISTED as M, REPORT_SCHEMA_VERSION as R, describePreExisting as d, firstLine as f, hookWord as h };
