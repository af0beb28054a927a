const { realpathSync, lstatSync, readlinkSync } = process.getBuiltinModule("node:fs");
const { posix, join } = process.getBuiltinModule("node:path");
import { p as picomatch } from './areas-BPhpJk9z.js';
import { b as formatSize } from './checkpoints-create-C5yHKgfN.js';
import { W as WHOLE_DIFF, a as compilePolicy, M as MODE_SYMLINK, b as MODE_EXECUTABLE } from './compile-DXGrfsxa.js';

const SEVERITIES = ['info', 'warning', 'error', 'critical'];
function severityRank(severity) {
    return SEVERITIES.indexOf(severity);
}
function atLeast(severity, min) {
    return severityRank(severity) >= severityRank(min);
}
/** The highest severity among `items`, or null when there are none. */
function maxSeverity(items) {
    let max = null;
    for (const item of items) {
        const severity = typeof item === 'string' ? item : item.severity;
        if (max === null || severityRank(severity) > severityRank(max))
            max = severity;
    }
    return max;
}
/** The agent hears about warnings and above. */
function notifiesAgent(violation) {
    return atLeast(violation.severity, 'warning');
}
/** `proctor / policy` fails when any violation is an error or critical. */
function failsPolicyCheck(violations) {
    for (const v of violations)
        if (atLeast(v.severity, 'error'))
            return true;
    return false;
}
/**
 * Whether the file of this violation is restored from the last valid checkpoint: only with
 * `revert_on_violation`, only at critical, and only for violations about one file (a diff_size
 * violation names no file to restore).
 */
function shouldRevert(violation, policy) {
    return policy.revert_on_violation && violation.severity === 'critical' && violation.file !== WHOLE_DIFF;
}
/** The distinct files to restore for a set of violations, in first-seen order. */
function filesToRevert(violations, policy) {
    const files = new Set();
    for (const v of violations)
        if (shouldRevert(v, policy))
            files.add(v.file);
    return [...files];
}

// Where does a symlink in the worktree point? The target string comes from git (what the checkpoint
// stores). Components are resolved the way the kernel does: left to right, and when the worktree
// holds a further link on the way, it is followed before a later ".." applies, so a chain
// (`a -> d/../x` with `d -> /etc`) cannot hide an escape behind a lexically harmless target.
/** Links followed before giving up, like the kernel's ELOOP limit; a loop never reaches outside. */
const MAX_HOPS = 40;
/**
 * Returns how the link at repo-relative `linkPath` with `target` escapes `worktree`, or null when it
 * stays inside (dangling links inside the worktree are harmless). With `followChains: false` the
 * verdict is purely lexical and the disk is not read.
 */
function findSymlinkEscape(linkPath, target, worktree, options = {}) {
    const roots = worktreeRoots(worktree);
    let onDisk = options.followChains !== false;
    let via;
    let hops = 0;
    const start = startOf(posix.dirname(linkPath), target, roots);
    if ('escape' in start)
        return start.escape;
    let { stack, queue } = start;
    while (queue.length > 0) {
        const part = queue.shift();
        if (part === '..') {
            if (stack.length === 0) {
                return {
                    resolved: posix.normalize(['..', ...queue].join('/')),
                    reason: 'outside',
                    ...(via ? { via } : {}),
                };
            }
            stack.pop();
            continue;
        }
        const candidate = [...stack, part].join('/');
        const link = onDisk ? readLinkAt(posix.join(worktree, candidate)) : null;
        if (link === undefined)
            onDisk = false; // missing: the rest cannot be links, finish lexically
        if (typeof link !== 'string') {
            stack.push(part);
            continue;
        }
        if (++hops > MAX_HOPS)
            return null;
        via = candidate;
        const next = startOf(stack.join('/'), link, roots);
        if ('escape' in next)
            return { ...next.escape, via };
        stack = next.stack;
        queue = [...next.queue, ...queue];
    }
    if (stack[0] === '.git')
        return { resolved: stack.join('/'), reason: 'git_dir', ...(via ? { via } : {}) };
    return null;
}
/**
 * Where resolution of `target` begins: the link's own directory, or the root for absolute targets
 * that name a path inside the worktree (their remaining components still go through the walk).
 */
function startOf(linkDir, target, roots) {
    if (/^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\\\')) {
        return { escape: { resolved: target, reason: 'outside' } };
    }
    if (!target.startsWith('/'))
        return { stack: split(linkDir), queue: split(target) };
    const prefixed = roots.find((r) => target === r || target.startsWith(`${r}/`));
    if (prefixed !== undefined)
        return { stack: [], queue: split(target.slice(prefixed.length)) };
    const absolute = posix.normalize(target);
    const root = roots.find((r) => absolute === r || absolute.startsWith(`${r}/`));
    if (root === undefined)
        return { escape: { resolved: absolute, reason: 'outside' } };
    return { stack: [], queue: split(absolute.slice(root.length)) };
}
function split(path) {
    return path.split('/').filter((part) => part !== '' && part !== '.');
}
/** The link's target, null when the path is not a link, undefined when it does not exist. */
function readLinkAt(path) {
    try {
        if (!lstatSync(path).isSymbolicLink())
            return null;
        return readlinkSync(path, 'utf8');
    }
    catch {
        return undefined;
    }
}
/** The worktree as given and as the OS spells it (e.g. /var vs /private/var on macOS). */
function worktreeRoots(worktree) {
    const given = posix.normalize(worktree).replace(/\/+$/, '');
    try {
        const real = realpathSync(worktree).replace(/\/+$/, '');
        return real === given ? [given] : [given, real];
    }
    catch {
        return [given];
    }
}

// Policy on one diff: the changed files of a checkpoint (scope "checkpoint", against the previous
// checkpoint) or of the whole session (scope "cumulative", against the base) → violations.
const MODE_GITLINK = '160000';
/**
 * Every violation of `policy` in the diff, one per (file, constraint), in the order of the files.
 * Throws PolicyConfigError when the policy itself is unusable (bad glob, unknown severity key).
 */
function evaluatePolicy(input) {
    const policy = compilePolicy(input.policy);
    const findings = [];
    for (const file of input.files) {
        findings.push(...unsafePathFindings(file));
        findings.push(...areaFindings(file, policy));
        const symlink = symlinkFinding(file, input.worktree);
        if (symlink)
            findings.push(symlink);
        const executable = executableFinding(file, policy.config);
        if (executable)
            findings.push(executable);
        const size = fileSizeFinding(file, policy.config);
        if (size)
            findings.push(size);
    }
    const diff = diffSizeFinding(input.files, policy.config, input.scope);
    if (diff)
        findings.push(diff);
    return dedupeViolations(findings.map((f) => ({ checkpoint: input.checkpoint, severity: policy.severityOf(f.constraint), ...f })));
}
/** Keeps the first violation per (file, constraint), raised to the highest severity seen for it. */
function dedupeViolations(violations) {
    const byKey = new Map();
    for (const v of violations) {
        const key = `${v.constraint}\0${v.file}`;
        const seen = byKey.get(key);
        if (!seen)
            byKey.set(key, v);
        else if (severityRank(v.severity) > severityRank(seen.severity))
            byKey.set(key, { ...seen, severity: v.severity });
    }
    return [...byKey.values()];
}
/** The paths a change touches, each with how it was touched, for the area rules. */
function touchedPaths(file) {
    if (file.status === 'R' && file.oldPath !== undefined) {
        return [
            { path: file.path, how: `renamed from ${displayPath(file.oldPath)}`, existed: false },
            { path: file.oldPath, how: `renamed to ${displayPath(file.path)}`, existed: true },
        ];
    }
    const how = { A: 'added', M: 'modified', D: 'deleted', T: 'changed type', R: 'renamed' }[file.status];
    return [{ path: file.path, how, existed: file.status !== 'A' }];
}
function areaFindings(file, policy) {
    const findings = [];
    for (const { path, how, existed } of touchedPaths(file)) {
        const shown = displayPath(path);
        const forbidden = policy.forbidden.match(path);
        if (forbidden) {
            findings.push({
                file: path,
                constraint: 'forbidden_area',
                message: `${shown} was ${how}, but it is in a forbidden area (policy.forbidden_areas "${forbidden}")`,
                suggestion: `Undo the change to ${shown}${existed ? '' : ` (delete it: rm ${shellQuote(path)})`}; nothing matching "${forbidden}" may be changed. If the agent should work there, remove "${forbidden}" from policy.forbidden_areas.`,
            });
        }
        // Protection covers additions too: a new workflow under a protected .github/workflows/ runs with the
        // repository's secrets as surely as an edited one.
        const protectedBy = policy.protected.match(path);
        if (protectedBy) {
            findings.push({
                file: path,
                constraint: 'protected_area',
                message: `${shown} is protected (policy.protected_areas "${protectedBy}") and was ${how}`,
                suggestion: existed
                    ? `Restore ${shown} to its original content (git checkout HEAD -- ${shellQuote(path)}). To allow edits, add "!${path}" to policy.protected_areas.`
                    : `Remove ${shown} (rm ${shellQuote(path)}); nothing may be added under "${protectedBy}". To allow it, add "!${path}" to policy.protected_areas.`,
            });
        }
        if (!policy.allowed.empty && !policy.allowed.match(path)) {
            const areas = policy.config.allowed_areas.filter((p) => !p.startsWith('!'));
            const home = baseDir(areas[0]);
            findings.push({
                file: path,
                constraint: 'outside_allowed',
                message: `${shown} was ${how}, outside the allowed areas (${areas.map((p) => `"${p}"`).join(', ')})`,
                suggestion: `Move the change under ${home ? `${home}/` : `an allowed area`} or add the path to policy.allowed_areas.`,
            });
        }
    }
    return findings;
}
/** C0 controls and DEL: a newline in a path forges lines in logs, commit messages and `git status`. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** A path as it can be printed: JSON-quoted when it holds control characters. */
function displayPath(path) {
    return CONTROL_CHARS.test(path) ? JSON.stringify(path) : path;
}
function unsafePathFindings(file) {
    if (file.status === 'D')
        return [];
    const path = file.path;
    if (!CONTROL_CHARS.test(path))
        return [];
    return [
        {
            file: path,
            constraint: 'unsafe_path',
            message: `${displayPath(path)} was ${file.status === 'A' ? 'added' : 'changed'}, and its name holds control characters (a newline or tab in a file name forges lines in logs and tools)`,
            suggestion: `Rename it to a name without control characters (only printable characters).`,
        },
    ];
}
function symlinkFinding(file, worktree) {
    if (file.status === 'D' || file.newMode !== MODE_SYMLINK)
        return null;
    const target = file.symlinkTarget ?? readLinkOrNull(join(worktree, file.path));
    if (target === null)
        return null;
    const escape = findSymlinkEscape(file.path, target, worktree);
    if (!escape)
        return null;
    const where = escape.reason === 'git_dir'
        ? `into the repository's .git directory (${escape.resolved})`
        : `outside the worktree (${escape.resolved})`;
    return {
        file: file.path,
        constraint: 'symlink_escape',
        message: `${displayPath(file.path)} is a symlink to "${target}", which resolves ${where}${escape.via ? ` through the link ${escape.via}` : ''}`,
        suggestion: `Replace ${displayPath(file.path)} with a regular file, or point it at a path inside the repository.`,
    };
}
function executableFinding(file, config) {
    if (config.allow_new_executables || file.status === 'D')
        return null;
    if (file.newMode !== MODE_EXECUTABLE || file.oldMode === MODE_EXECUTABLE)
        return null;
    const what = file.oldMode === null
        ? `was added as an executable (mode ${MODE_EXECUTABLE})`
        : `was made executable (mode ${file.oldMode} → ${MODE_EXECUTABLE})`;
    return {
        file: file.path,
        constraint: 'new_executable',
        message: `${displayPath(file.path)} ${what}, and policy.allow_new_executables is false`,
        suggestion: `Remove the executable bit (chmod -x ${shellQuote(file.path)}), or set policy.allow_new_executables: true.`,
    };
}
function fileSizeFinding(file, config) {
    const max = config.max_file_size;
    if (max === undefined || file.status === 'D' || file.newMode === MODE_GITLINK)
        return null;
    if (file.size === null || file.size <= max)
        return null;
    return {
        file: file.path,
        constraint: 'file_size',
        message: `${displayPath(file.path)} is ${formatSize(file.size)}, over policy.max_file_size (${formatSize(max)})`,
        suggestion: `Keep large generated or binary files out of the repository (add ${displayPath(file.path)} to .gitignore), or raise policy.max_file_size.`,
    };
}
/**
 * Diff size = the bytes of new content the diff writes: the full size of every added, modified,
 * type-changed or renamed file (deletions and submodules count 0). It is what the checkpoint has to
 * store and push, which is what the limit protects.
 */
function diffSize(files) {
    let bytes = 0;
    let counted = 0;
    let added = 0;
    let deleted = 0;
    for (const file of files) {
        added += file.linesAdded ?? 0;
        deleted += file.linesDeleted ?? 0;
        if (file.status === 'D' || file.newMode === MODE_GITLINK)
            continue;
        bytes += file.size ?? 0;
        counted++;
    }
    return { bytes, files: counted, added, deleted };
}
function diffSizeFinding(files, config, scope) {
    const max = config.max_diff_size;
    if (max === undefined)
        return null;
    const size = diffSize(files);
    if (size.bytes <= max)
        return null;
    const since = scope === 'checkpoint' ? 'since the previous checkpoint' : 'since the session started';
    return {
        file: WHOLE_DIFF,
        constraint: 'diff_size',
        message: `The changes ${since} write ${formatSize(size.bytes)} in ${size.files} files (+${size.added}/-${size.deleted} lines), over policy.max_diff_size (${formatSize(max)})`,
        suggestion: `Work in smaller steps, keep generated files out of the repository (.gitignore), or raise policy.max_diff_size.`,
    };
}
/** The literal directory a glob starts with ("src/**" → "src"), for suggestions. */
function baseDir(pattern) {
    return picomatch.scan(pattern.replace(/^\.\//, '').replace(/^\/+/, '')).base.replace(/\/+$/, '');
}
function readLinkOrNull(path) {
    try {
        return readlinkSync(path, 'utf8');
    }
    catch {
        return null;
    }
}
function shellQuote(path) {
    // bash's $'...' spells control characters as escapes, so the command stays one line.
    if (CONTROL_CHARS.test(path))
        return `$'${path.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
    return /^[A-Za-z0-9_./-]+$/.test(path) && !path.startsWith('-') ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
/**
 * A checkpoint's verdict: its own diff and the session's cumulative diff (some constraints, such as the
 * total diff size, only show in one of them), each (file, constraint) once. `withheld` are changes the
 * checkpoint left out (files in forbidden areas): they are judged in both scopes, since the worktree
 * still holds them.
 */
function evaluateCheckpoint(input) {
    return evaluateCheckpointScopes(input).all;
}
/**
 * `all`: every violation of the checkpoint (both scopes). `cumulative`: the ones the session's work
 * holds right now — what the policy gate asks the agent to fix.
 */
function evaluateCheckpointScopes(input) {
    const { seq, worktree, policy } = input;
    const withheld = input.withheld ?? [];
    // Withheld (forbidden) files first: they lead the reasons the agent is sent back with.
    const cumulative = evaluatePolicy({
        files: [...withheld, ...input.cumulative],
        checkpoint: seq,
        worktree,
        policy,
        scope: 'cumulative',
    });
    const own = evaluatePolicy({
        files: [...withheld, ...input.files],
        checkpoint: seq,
        worktree,
        policy,
        scope: 'checkpoint',
    });
    return { all: dedupeViolations([...own, ...cumulative]), cumulative };
}
/**
 * The checkpoint store's `withhold` for a policy: the forbidden area a path is in (its content must
 * never be written into a checkpoint), or null.
 */
function forbiddenAreaOf(policy) {
    const compiled = compilePolicy(policy);
    if (compiled.forbidden.empty)
        return () => null;
    return (path) => {
        const area = compiled.forbidden.match(path);
        return area === null ? null : `in a forbidden area (policy.forbidden_areas "${area}")`;
    };
}

export { SEVERITIES as S, atLeast as a, diffSize as b, displayPath as c, dedupeViolations as d, evaluatePolicy as e, forbiddenAreaOf as f, evaluateCheckpoint as g, evaluateCheckpointScopes as h, failsPolicyCheck as i, filesToRevert as j, findSymlinkEscape as k, shouldRevert as l, maxSeverity as m, notifiesAgent as n, severityRank as s };
