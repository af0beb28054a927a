// Config problems carry a position so users can jump straight to the line that needs fixing.
/** Formats an issue as `proctor.yml:12:5 agent.comand: unknown key "comand" — did you mean "command"?`. */
function formatIssue(issue) {
    const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.col}` : `${issue.file}:`;
    const what = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    return `${where} ${what}${issue.hint ? ` — ${issue.hint}` : ''}`;
}
/** All problems found in one config file, thrown together so users fix them in one pass. */
class ConfigError extends Error {
    /** A config error is a usage error (exit 2, README "The CLI"). */
    exitCode = 2;
    issues;
    constructor(issues) {
        super(issues.map(formatIssue).join('\n'));
        this.name = 'ConfigError';
        this.issues = issues;
    }
}
/** Writes a key path the way the docs do: object keys joined by dots, list indexes in brackets. */
function formatPath(path) {
    let out = '';
    for (const part of path) {
        if (typeof part === 'number')
            out += `[${part}]`;
        else
            out += out ? `.${String(part)}` : String(part);
    }
    return out;
}
/**
 * A piece of validation code the file's keys asked for (neededChecks, parse-core.ts), which its caller had
 * to load: one left out is a bug in proctor, not a problem of the user's file.
 */
function requiredCheck(check, name) {
    if (check === undefined)
        throw new Error(`config validation needs ${name}, which was not loaded`);
    return check;
}

export { ConfigError, formatIssue, formatPath, requiredCheck };
