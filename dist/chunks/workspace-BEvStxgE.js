import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { R as RefMovedError, b as GitError, s as splitNul, G as Git } from './runner-B-BgQHrS.js';
import fs__default, { realpathSync, lstatSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path, { posix, join } from 'node:path';
import { a as formatSize, f as formatDuration } from './units-B5hbnLVp.js';
import { W as WHOLE_DIFF, d as compilePolicy, M as MODE_SYMLINK, e as MODE_EXECUTABLE, p as picomatch, c as checkpointRef, C as CHECKPOINT_REF_PREFIX, r as remoteBranchFor } from './refs-BmDgSsZw.js';
import { S as STATE_DIR_NAME, f as findRepoRoot, e as ensureStateDir, a as sessionDir, s as sessionPath } from './layout-D1plT80L.js';

// What a checkpoint needs to know about a repository that git keeps in plain files, read without starting
// git: each git process forks proctor (tens of MB of page tables copied per fork), and a one-shot
// `proctor checkpoints create` or a batch child would otherwise start several just to ask where the git
// dir is or whether the user's index hides entries. Anything unusual returns null and the caller asks git.
/**
 * The git dirs of the worktree whose top level is `root`, as `git rev-parse --git-dir --git-common-dir`
 * gives them; null when `.git` is neither a directory nor a `gitdir:` link, or the config moves the
 * worktree (core.worktree) or makes the repository bare: then only git can say.
 */
function readGitDirs(root) {
    try {
        const dotGit = path.join(root, '.git');
        const stat = fs__default.lstatSync(dotGit);
        let gitDir;
        if (stat.isDirectory())
            gitDir = dotGit;
        else if (stat.isFile()) {
            const match = /^gitdir: (.+)$/m.exec(fs__default.readFileSync(dotGit, 'utf8'));
            if (!match)
                return null;
            gitDir = path.resolve(root, match[1].trim());
        }
        else
            return null;
        if (!fs__default.statSync(path.join(gitDir, 'HEAD')).isFile())
            return null;
        let commonDir = gitDir;
        try {
            commonDir = path.resolve(gitDir, fs__default.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
        }
        catch {
            // No commondir: not a linked worktree.
        }
        for (const config of [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')]) {
            let text = '';
            try {
                text = fs__default.readFileSync(config, 'utf8');
            }
            catch {
                continue;
            }
            if (/^\s*worktree\s*=|^\s*bare\s*=\s*(true|yes|on|1)\s*$/im.test(text))
                return null;
        }
        return { gitDir, commonDir };
    }
    catch {
        return null;
    }
}
/** Extensions that change nothing about what the entries say (cache-tree, resolve-undo, offset tables). */
const PLAIN_EXTENSIONS = new Set(['TREE', 'REUC', 'EOIE', 'IEOT']);
/**
 * Reads the flags of every entry of an index file (versions 2 to 4) and its cache-tree root. `hashBytes`
 * is 20 for SHA-1 repositories, 32 for SHA-256. Null when the file is missing or not understood.
 */
function readIndexSummary(file, hashBytes) {
    let buf;
    try {
        buf = fs__default.readFileSync(file);
    }
    catch {
        return null;
    }
    if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC')
        return null;
    const version = buf.readUInt32BE(4);
    if (version < 2 || version > 4)
        return null;
    const count = buf.readUInt32BE(8);
    const end = buf.length - hashBytes;
    const flagsAt = 40 + hashBytes;
    let offset = 12;
    let hidden = false;
    let plain = true;
    for (let i = 0; i < count; i++) {
        if (offset + flagsAt + 2 > end)
            return null;
        const flags = buf.readUInt16BE(offset + flagsAt);
        let nameAt = offset + flagsAt + 2;
        if (flags & 0x8000)
            hidden = true;
        if (flags & 0x3000)
            plain = false; // a conflict stage
        if (flags & 0x4000) {
            if (version < 3)
                return null;
            const extended = buf.readUInt16BE(nameAt);
            if (extended & 0x4000)
                hidden = true; // skip-worktree
            if (extended & 0x2000)
                plain = false; // intent-to-add
            nameAt += 2;
        }
        if (version === 4) {
            while (nameAt < end && buf[nameAt] & 0x80)
                nameAt++;
            nameAt++;
        }
        const nul = buf.indexOf(0, nameAt);
        if (nul < 0 || nul >= end)
            return null;
        offset = version === 4 ? nul + 1 : offset + ((nameAt - offset + (nul - nameAt) + 8) & -8);
    }
    let tree = null;
    while (offset + 8 <= end) {
        const signature = buf.toString('latin1', offset, offset + 4);
        const size = buf.readUInt32BE(offset + 4);
        const data = offset + 8;
        if (data + size > end)
            return null;
        if (!PLAIN_EXTENSIONS.has(signature))
            plain = false;
        if (signature === 'TREE' && buf[data] === 0) {
            const newline = buf.indexOf(10, data + 1);
            const counts = newline > 0 ? buf.toString('latin1', data + 1, newline).split(' ') : [];
            const entries = Number(counts[0]);
            if (entries === count && newline + 1 + hashBytes <= data + size) {
                tree = buf.toString('hex', newline + 1, newline + 1 + hashBytes);
            }
        }
        offset = data + size;
    }
    if (offset !== end)
        return null;
    return { hidden, tree: plain ? tree : null };
}
/**
 * Where git looks for global and system config, whether or not the files exist yet: `GIT_CONFIG_GLOBAL`
 * or ~/.gitconfig and $XDG_CONFIG_HOME/git/config; `GIT_CONFIG_SYSTEM` or the places distributions and
 * source builds (prefix /usr/local, Homebrew) compile the system file in, unless `GIT_CONFIG_NOSYSTEM`.
 * `env` is the environment git runs with.
 */
function globalConfigFiles(env) {
    const home = env('HOME') || os.homedir();
    const files = [];
    const global = env('GIT_CONFIG_GLOBAL');
    if (global !== undefined)
        files.push(global);
    else
        files.push(path.join(home, '.gitconfig'), path.join(env('XDG_CONFIG_HOME') || path.join(home, '.config'), 'git', 'config'));
    const noSystem = env('GIT_CONFIG_NOSYSTEM');
    if (!noSystem || /^(0|false|no|off)$/i.test(noSystem)) {
        const system = env('GIT_CONFIG_SYSTEM');
        files.push(...(system !== undefined
            ? [system]
            : ['/etc/gitconfig', '/usr/local/etc/gitconfig', '/opt/homebrew/etc/gitconfig']));
    }
    return files;
}

const SEVERITIES = ['info', 'warning', 'error', 'critical'];
function severityRank(severity) {
    return SEVERITIES.indexOf(severity);
}
function atLeast(severity, min) {
    return severityRank(severity) >= severityRank(min);
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
function touchedPaths$1(file) {
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
    for (const { path, how, existed } of touchedPaths$1(file)) {
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

// Commit objects for one session through one long-lived `git hash-object -w -t commit --stdin-paths`
// (the way git-svn writes objects): the commit text is written to a scratch file, its path goes to git,
// the id comes back. The text is exactly what `git commit-tree` writes for an unsigned commit: tree,
// parents, author and committer as git itself resolves them (`git var`, config or GIT_AUTHOR_*, proctor's
// fallback identity when there is none), the current time in the local time zone unless GIT_*_DATE pins
// it, a blank line and the message. Any failure falls back to `git commit-tree` for the rest of the session.
class CommitWriter {
    git;
    scratchFile;
    now;
    /** undefined: not started yet; null: given up on, `commit-tree` from now on. */
    stream;
    constructor(git, 
    /** Where each commit's text is written for git to read (inside the git dir, owned by the session). */
    scratchFile, 
    /** Injected clock (tests); default Date.now. */
    now = Date.now) {
        this.git = git;
        this.scratchFile = scratchFile;
        this.now = now;
        // --stdin-paths reads one path per line.
        if (scratchFile.includes('\n'))
            this.stream = null;
    }
    /** Start git (and resolve the identity) ahead of the first commit, so its start-up overlaps other work. */
    prepare() {
        if (this.stream === null)
            return;
        this.git.commitIdents().catch(() => undefined);
        this.start();
    }
    start() {
        if (this.stream === undefined) {
            this.stream = this.git.stream(['hash-object', '-w', '-t', 'commit', '--no-filters', '--stdin-paths']);
        }
        return this.stream;
    }
    async commit(tree, parents, message) {
        if (this.stream === null)
            return this.git.commitTree(tree, parents, message);
        try {
            const idents = await this.git.commitIdents();
            const when = this.now();
            const lines = [`tree ${tree}`, ...parents.map((parent) => `parent ${parent}`)];
            lines.push(`author ${idents.author.name} ${idents.author.date ?? gitDate(when)}`);
            lines.push(`committer ${idents.committer.name} ${idents.committer.date ?? gitDate(when)}`);
            fs__default.writeFileSync(this.scratchFile, `${lines.join('\n')}\n\n${message}`);
            const stream = this.start();
            const [sha] = await stream.request(`${this.scratchFile}\n`, 1);
            if (sha && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha))
                return sha;
            throw new Error(`unexpected answer from git hash-object: ${sha ?? ''}`);
        }
        catch {
            const stream = this.stream;
            this.stream = null;
            void stream?.close();
            return this.git.commitTree(tree, parents, message);
        }
    }
    async close() {
        const stream = this.stream;
        if (stream) {
            this.stream = undefined;
            await stream.close();
        }
        fs__default.rmSync(this.scratchFile, { force: true });
    }
}
/** `<seconds> <+hhmm>` in the local time zone, as git writes dates in commit objects. */
function gitDate(ms) {
    const offset = -new Date(ms).getTimezoneOffset();
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
    return `${Math.floor(ms / 1000)} ${sign}${hhmm}`;
}

// Compare-and-swap ref updates for one session through one long-lived `git update-ref -z --stdin`: each
// update is its own transaction (start, update, prepare, commit), so a session's checkpoints move their
// ref without a git process each. git older than 2.27 (no transaction commands), or a stream that died
// for any reason other than a lost compare-and-swap, falls back to one `git update-ref` per update.
class RefUpdater {
    git;
    reason;
    /** undefined: not started yet; null: given up on, one-shot calls from now on. */
    stream;
    constructor(git, 
    /** The reflog message of every update (git takes one per process). */
    reason) {
        this.git = git;
        this.reason = reason;
    }
    /** Start git ahead of the first update, so its start-up overlaps other work. */
    prepare() {
        if (this.stream === null)
            return;
        this.start();
    }
    start() {
        if (this.stream === undefined)
            this.stream = this.git.stream(['update-ref', '-m', this.reason, '-z', '--stdin']);
        return this.stream;
    }
    /**
     * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
     * Throws RefMovedError when someone else moved it.
     */
    async updateCas(ref, newSha, oldSha) {
        if (this.stream === null)
            return this.git.updateRefCas(ref, newSha, oldSha, this.reason);
        const stream = this.start();
        const command = `start\0update ${ref}\0${newSha}\0${oldSha ?? '0'.repeat(newSha.length)}\0prepare\0commit\0`;
        try {
            const answers = await stream.request(command, 3);
            if (answers.join('\n') === 'start: ok\nprepare: ok\ncommit: ok')
                return;
            throw new Error(`unexpected answer from git update-ref --stdin: ${answers.join(' / ')}`);
        }
        catch (error) {
            // The stream is gone either way: a failed transaction ends the process.
            this.stream = undefined;
            const current = await this.git.revParse(ref);
            if (current === newSha)
                return; // committed before the answer was lost
            if (current !== oldSha) {
                const details = error instanceof GitError ? error : null;
                throw new RefMovedError(ref, oldSha, {
                    args: ['update-ref', '--stdin', ref],
                    cwd: this.git.cwd,
                    exitCode: details?.exitCode ?? null,
                    signal: details?.signal ?? null,
                    stderr: details?.stderr ?? '',
                });
            }
            // Not a lost race (old git, the process was killed): one-shot calls from now on.
            this.stream = null;
            return this.git.updateRefCas(ref, newSha, oldSha, this.reason);
        }
    }
    /** Let git exit; later updates start a new process. */
    async close() {
        const stream = this.stream;
        if (stream) {
            this.stream = undefined;
            await stream.close();
        }
    }
}

const SYMLINK_MODE = '120000';
const GITLINK_MODE = '160000';
const NULL_MODE = '000000';
/**
 * Every file that differs between `fromTree` and `toTree` (trees or commits; null `fromTree` = the empty
 * tree, i.e. everything is added). Renames are detected (status R with oldPath); copies are not.
 */
async function diffTrees(git, fromTree, toTree) {
    const from = fromTree ?? (await git.emptyTree());
    const { raw, numstat } = await git.diffTreeZ(from, toTree);
    const lines = new Map(numstat.map((n) => [n.path, n]));
    const newBlobs = raw
        .filter((e) => e.newMode !== NULL_MODE && e.newMode !== GITLINK_MODE)
        .map((e) => e.newSha);
    const sizes = await git.catFileInfo(newBlobs);
    const files = [];
    for (const entry of raw) {
        const status = normalizeStatus(entry.status);
        const deleted = entry.newMode === NULL_MODE;
        const gitlink = entry.newMode === GITLINK_MODE || entry.oldMode === GITLINK_MODE;
        const counts = gitlink ? undefined : lines.get(entry.path);
        const file = {
            path: entry.path,
            status,
            oldMode: entry.oldMode === NULL_MODE ? null : entry.oldMode,
            newMode: deleted ? null : entry.newMode,
            size: deleted || entry.newMode === GITLINK_MODE ? null : (sizes.get(entry.newSha)?.size ?? null),
            linesAdded: counts?.added ?? null,
            linesDeleted: counts?.deleted ?? null,
        };
        if (entry.oldPath !== undefined)
            file.oldPath = entry.oldPath;
        if (entry.newMode === SYMLINK_MODE) {
            file.symlinkTarget = (await git.catFileBlob(entry.newSha)).toString('utf8');
        }
        files.push(file);
    }
    return files;
}
/** Trees hold no unmerged or unknown entries; a copy (never requested) would be an addition. */
function normalizeStatus(letter) {
    if (letter === 'A' || letter === 'M' || letter === 'D' || letter === 'T' || letter === 'R')
        return letter;
    if (letter === 'C')
        return 'A';
    return 'M';
}
/** Paths a change touches (both sides of a rename), for reports and restore. */
function touchedPaths(files) {
    const paths = [];
    for (const file of files) {
        if (file.oldPath !== undefined)
            paths.push(file.oldPath);
        paths.push(file.path);
    }
    return paths;
}

// The first checkpoint of a session records every changed or untracked, unignored file. In a repository
// whose .gitignore misses node_modules/ (or a build directory) that is thousands of files, hashed and
// committed for many seconds (13,711 files took 26 s on a loaded runner). Before it starts, say so, which
// directories hold the bulk, and the fix; while it works, how far along it is, at a bounded rate; when it
// ends, how long it took.
/** Above this many files the first checkpoint is worth a warning. */
const LARGE_FIRST_SNAPSHOT = 2000;
/** Spacing of the progress lines of a large first checkpoint. */
const SNAPSHOT_PROGRESS_INTERVAL_MS = 3000;
class FirstSnapshotWatch {
    notice;
    options;
    checked = false;
    started = null;
    count = 0;
    lastProgress = 0;
    threshold;
    now;
    constructor(notice, options = {}) {
        this.notice = notice;
        this.options = options;
        this.threshold = options.threshold ?? LARGE_FIRST_SNAPSHOT;
        this.now = options.now ?? Date.now;
    }
    /** Called with the paths about to be staged; acts on the session's first snapshot only. */
    begin(paths, seq) {
        if (this.checked || (!this.notice && !this.options.onProgress))
            return;
        this.checked = true;
        if (seq !== 0 || paths.length <= this.threshold)
            return;
        this.count = paths.length;
        this.started = this.now();
        this.lastProgress = this.started;
        this.notice?.('warning', largeSnapshotMessage(paths));
    }
    /** Whether a large first snapshot is being staged (its progress is worth counting). */
    get active() {
        return this.started !== null;
    }
    /**
     * `done` of the `total` files being staged (those begun with, less any left out) are hashed; passed
     * on when the interval since the last report is over.
     */
    progress(done, total = this.count) {
        const listener = this.options.onProgress;
        if (this.started === null || !listener)
            return;
        const now = this.now();
        if (now - this.lastProgress < (this.options.progressIntervalMs ?? SNAPSHOT_PROGRESS_INTERVAL_MS))
            return;
        this.lastProgress = now;
        try {
            listener({
                seq: 1,
                done: Math.min(done, total),
                total,
                elapsed_ms: now - this.started,
            });
        }
        catch {
            // A faulty listener must not break the checkpoint.
        }
    }
    /** Called once staging is over (or failed). */
    end() {
        if (this.started === null)
            return;
        const took = this.now() - this.started;
        this.started = null;
        this.notice?.('info', `first checkpoint: ${this.count.toLocaleString('en-US')} files read in ${formatDuration(took)}`);
    }
}
/** "checkpoint 1: 6,000 / 13,711 files (44%)": one progress line, for the CI log and the terminal. */
function describeSnapshotProgress(p) {
    const percent = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
    return `checkpoint ${p.seq}: ${p.done.toLocaleString('en-US')} / ${p.total.toLocaleString('en-US')} files (${percent}%)`;
}
/** The warning: how many files, the top-level directories holding most of them, and the fix. */
function largeSnapshotMessage(paths) {
    const byTop = new Map();
    for (const p of paths) {
        const slash = p.indexOf('/');
        const top = slash === -1 ? p : `${p.slice(0, slash)}/`;
        byTop.set(top, (byTop.get(top) ?? 0) + 1);
    }
    const biggest = [...byTop]
        .filter(([top]) => top.endsWith('/'))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 3);
    const where = biggest.length
        ? ` (${biggest.map(([top, n]) => `${top} ${n.toLocaleString('en-US')}`).join(', ')})`
        : '';
    const example = biggest[0]?.[0] ?? 'node_modules/';
    return (`the first checkpoint records ${paths.length.toLocaleString('en-US')} changed or untracked files that ` +
        `no .gitignore covers${where}; this can take a while. If they are not the agent's work, add them to ` +
        `.gitignore (e.g. \`echo ${example} >> .gitignore\`) or, for this clone only, to .git/info/exclude`);
}

// The checkpoint commit message: a subject, an optional body listing skipped files, and git trailers
// (`git interpret-trailers --parse` reads them), so a checkpoint describes itself without proctor's state.
const MAX_LISTED_SKIPS = 50;
const TRAILER = {
    session: 'Proctor-Session',
    seq: 'Proctor-Seq',
    base: 'Proctor-Base',
    trigger: 'Proctor-Trigger',
    violations: 'Proctor-Violations',
    skipped: 'Proctor-Skipped',
};
/** A trigger name as a single safe trailer token. */
function trailerToken(value) {
    return value.replace(/[^A-Za-z0-9._:-]+/g, '-').slice(0, 80) || 'unknown';
}
function formatCheckpointMessage(fields) {
    const trigger = trailerToken(fields.trigger);
    const noun = fields.filesChanged === 1 ? 'file' : 'files';
    const lines = [`proctor checkpoint ${fields.seq} (${trigger}): ${fields.filesChanged} ${noun}`, ''];
    if (fields.skipped.length > 0) {
        // JSON quoting keeps paths with newlines or odd characters on one line of the body.
        for (const skip of fields.skipped.slice(0, MAX_LISTED_SKIPS)) {
            const why = skip.reason === 'lfs'
                ? 'LFS-tracked'
                : skip.reason === 'unrecordable'
                    ? 'git could not record it (a nested repository without commits?)'
                    : skip.reason === 'forbidden'
                        ? `${skip.detail ?? 'in a forbidden area'}; its content stays out of checkpoints`
                        : `over max_file_size (${skip.size ?? '?'} bytes)`;
            lines.push(`Skipped ${JSON.stringify(skip.path)}: ${why}`);
        }
        if (fields.skipped.length > MAX_LISTED_SKIPS)
            lines.push(`... and ${fields.skipped.length - MAX_LISTED_SKIPS} more`);
        lines.push('');
    }
    lines.push(`${TRAILER.session}: ${fields.session}`, `${TRAILER.seq}: ${fields.seq}`, `${TRAILER.base}: ${fields.base ?? 'none'}`, `${TRAILER.trigger}: ${trigger}`, `${TRAILER.violations}: ${fields.violations}`, `${TRAILER.skipped}: ${fields.skipped.length}`);
    return lines.join('\n') + '\n';
}
/** Read a checkpoint message back; tolerant of missing trailers (returns nulls). */
function parseCheckpointMessage(message) {
    const lines = message.replace(/\r\n/g, '\n').split('\n');
    const trailers = new Map();
    const skipped = [];
    for (const line of lines) {
        const trailer = /^(Proctor-[A-Za-z]+):\s*(.*)$/.exec(line);
        if (trailer)
            trailers.set(trailer[1], trailer[2].trim());
        const skip = /^Skipped ("(?:[^"\\]|\\.)*"):/.exec(line);
        if (skip) {
            try {
                skipped.push(JSON.parse(skip[1]));
            }
            catch {
                // A hand-edited message: keep going without that entry.
            }
        }
    }
    const number = (key) => {
        const value = trailers.get(key);
        return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
    };
    const base = trailers.get(TRAILER.base) ?? null;
    return {
        subject: lines[0] ?? '',
        session: trailers.get(TRAILER.session) ?? null,
        seq: number(TRAILER.seq),
        base: base === 'none' ? null : base,
        trigger: trailers.get(TRAILER.trigger) ?? null,
        violations: number(TRAILER.violations) ?? 0,
        skippedCount: number(TRAILER.skipped) ?? skipped.length,
        skipped,
    };
}

// One session's checkpoints: snapshots of the worktree committed to refs/proctor/<session> through a
// private index. The user's index, HEAD, branches, stash and files are never written: every index
// operation sets GIT_INDEX_FILE to our own file, and refs are only created under refs/proctor/.
/** Triggers that may not wait for min_interval spacing (shutdown, the user, a restore). */
const URGENT_TRIGGERS = new Set(['final', 'manual', 'safety']);
/** Every how many stagings `update-index` also refreshes the private index's stat data (see stageChanges). */
const REFRESH_EVERY = 8;
/** The revisions, in OpeningObjects' order, that resolve what the store needs to open. */
function openingRevisions(session, start = 'HEAD') {
    const ref = checkpointRef(session);
    return [`${start}^{commit}`, `${start}^{tree}`, `${ref}^{commit}`, `${ref}^{tree}`];
}
class CheckpointStore {
    session;
    ref;
    options;
    git;
    /**
     * Created once the repository is known: one git process for the session's commit objects and one for
     * its ref updates, instead of a process for each per checkpoint.
     */
    commits;
    refs;
    /**
     * Commits this store has written. The first is made with one `commit-tree` and one `update-ref`, which
     * is all a one-shot `proctor checkpoints create` or a short session ever needs; the long-lived writer
     * and updater (and the identity probe behind the writer) start with the second.
     */
    commitsMade = 0;
    /** update-index runs so far (see stageChanges). */
    stagings = 0;
    root = '';
    indexFile = '';
    userIndex = '';
    baseCommit = null;
    baseTree = '';
    head = null;
    headTree = '';
    seq = 0;
    lastAt = null;
    queue = Promise.resolve();
    urgentQueued = 0;
    wakeSpacing = null;
    opened;
    filterAttributeFiles = false;
    /**
     * The private index holds exactly headTree (just seeded, or just committed). With nothing staged since,
     * `write-tree` would only confirm that, so an unchanged worktree costs the listing alone.
     */
    indexMatchesHead = false;
    /** Withheld paths of the latest checkpoint with their stat, so a new or changed one is a checkpoint. */
    withheldKey = '';
    /** .gitattributes text per directory; a checkpoint re-reads them (the agent may edit them). */
    attributesCache = new Map();
    firstSnapshot;
    constructor(options) {
        this.options = options;
        this.firstSnapshot = new FirstSnapshotWatch(options.notice, {
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
        });
        this.session = options.session;
        this.ref = checkpointRef(options.session);
        this.git = options.git;
    }
    /** The session's base commit (HEAD when the store opened, or the resumed chain's base); null if unborn. */
    get base() {
        return this.baseCommit;
    }
    /** The latest checkpoint commit of this session, if any. */
    get latest() {
        return this.head;
    }
    /** The sequence number of the latest checkpoint (0 before the first). */
    get latestSeq() {
        return this.seq;
    }
    get repoRoot() {
        return this.root;
    }
    get privateIndexPath() {
        return this.indexFile;
    }
    /** Find the repository, resume an existing chain and seed the private index. Idempotent. */
    open() {
        this.opened ??= this.doOpen();
        return this.opened;
    }
    /**
     * Take a checkpoint unless nothing changed since the previous one (then null). Serialized: concurrent
     * calls run one after another.
     */
    async create(trigger) {
        return (await this.createDetailed(trigger))?.record ?? null;
    }
    /**
     * `urgent` (implied by final, manual and safety) skips the min_interval wait: a caller that waits for
     * this checkpoint (the stop hooks need the agent's latest work) must not sleep out the spacing.
     */
    createDetailed(trigger, options = {}) {
        const urgent = options.urgent === true || URGENT_TRIGGERS.has(trigger);
        if (urgent) {
            // A checkpoint still waiting out min_interval would only record part of what the urgent one is
            // about to record: it gives way at once, so the end of a session never waits for the spacing.
            this.urgentQueued++;
            this.wakeSpacing?.();
        }
        const run = this.queue.then(() => {
            if (urgent)
                this.urgentQueued--;
            return this.checkpoint(trigger, urgent);
        });
        this.queue = run.catch(() => undefined);
        return run;
    }
    /** Wait for queued checkpoints, then delete the private index (the commits and ref stay). */
    async close(options = {}) {
        await this.queue;
        await Promise.all([this.commits?.close(), this.refs?.close()]);
        if (!options.keepIndex && this.indexFile) {
            fs__default.rmSync(this.indexFile, { force: true });
            fs__default.rmSync(`${this.indexFile}.lock`, { force: true });
        }
    }
    // ---- opening -----------------------------------------------------------------------------------
    async doOpen() {
        const indexName = this.options.indexName ?? `index-${this.session}`;
        const { root, userIndex, gitDir, infoAttributes, configFiles } = await this.locate();
        this.root = root;
        this.git = this.options.git.at(this.root);
        this.refs = new RefUpdater(this.git, 'proctor checkpoint');
        this.userIndex = userIndex;
        this.indexFile = path.join(gitDir, 'proctor', indexName);
        this.commits = new CommitWriter(this.git, `${this.indexFile}.commit`);
        fs__default.mkdirSync(path.dirname(this.indexFile), { recursive: true });
        // A lock left by a crashed proctor of this same session: nobody else uses this private index.
        fs__default.rmSync(`${this.indexFile}.lock`, { force: true });
        // The identity probe and the empty tree are only needed at the first commit (see checkpoint()):
        // a session whose agent changes nothing never pays for them, and opening does not compete with them.
        const seeding = !fs__default.existsSync(this.indexFile);
        // One cat-file for the start commit, the chain tip and their trees (missing ones come back as null),
        // unless the caller resolved them before the agent's spawn; the attributes files alongside.
        const [objects, filters] = await Promise.all([
            this.options.resolved ??
                this.git
                    .resolveObjects(openingRevisions(this.session, this.options.baseCommit ?? 'HEAD'))
                    .then(([startCommit, startTree, chainCommit, chainTree]) => ({
                    startCommit: startCommit ?? null,
                    startTree: startTree ?? null,
                    chainCommit: chainCommit ?? null,
                    chainTree: chainTree ?? null,
                })),
            this.globalAttributeFiles(infoAttributes, configFiles),
        ]);
        this.filterAttributeFiles = filters;
        this.head = objects.chainCommit;
        if (this.head) {
            const message = (await this.git.raw(['log', '-1', '--format=%B', this.head])).stdout;
            const parsed = parseCheckpointMessage(message);
            this.seq = parsed.seq ?? 0;
            this.baseCommit = parsed.base;
            this.headTree = objects.chainTree;
            this.baseTree = !this.baseCommit
                ? await this.git.emptyTree()
                : this.baseCommit === objects.startCommit && objects.startTree
                    ? objects.startTree
                    : await this.treeOf(this.baseCommit);
        }
        else {
            this.baseCommit = objects.startCommit;
            this.baseTree = objects.startTree ?? (await this.git.emptyTree());
            this.headTree = this.baseTree;
        }
        if (seeding)
            await this.seedIndex();
    }
    /**
     * The worktree's top level, the user's index, the git dir and info/attributes: read from the files git
     * keeps them in when the layout is a plain one (readGitDirs), else from one `rev-parse` (`--git-path`
     * knows every layout).
     */
    async locate() {
        const cwd = this.options.git.cwd;
        // readGitDirs answers only for a worktree's top level (it reads `<cwd>/.git`): else rev-parse.
        const dirs = readGitDirs(cwd);
        if (dirs) {
            return {
                root: cwd,
                userIndex: path.join(dirs.gitDir, 'index'),
                gitDir: dirs.gitDir,
                infoAttributes: path.join(dirs.commonDir, 'info', 'attributes'),
                configFiles: [path.join(dirs.commonDir, 'config'), path.join(dirs.gitDir, 'config.worktree')],
            };
        }
        const paths = (await this.options.git.raw([
            'rev-parse',
            '--show-toplevel',
            '--git-path',
            'index',
            '--git-dir',
            '--git-path',
            'info/attributes',
        ])).stdout.split('\n');
        return {
            root: paths[0],
            userIndex: path.resolve(cwd, paths[1]),
            gitDir: path.resolve(cwd, paths[2]),
            infoAttributes: path.resolve(cwd, paths[3]),
            configFiles: null,
        };
    }
    /**
     * Seed from the user's index so its stat data is reused (only changed files get hashed), with the
     * mtime preserved: git trusts stat data by comparing it to the index file's own mtime (racy-git), and
     * a fresh mtime would hide same-size edits made in the same second. `read-tree --reset` then drops
     * what the user staged but did not commit, keeping matching stat entries; it is skipped when the
     * user's index records (in its cache-tree) that it holds exactly the start tree, the common case of a
     * user who staged nothing. Assume-unchanged or skip-worktree entries, an index this reader does not
     * understand, an unborn HEAD or a resumed chain take the plain path.
     */
    async seedIndex() {
        const startTree = this.head ? this.headTree : this.baseCommit;
        const summary = startTree !== null && this.headTree ? readIndexSummary(this.userIndex, this.headTree.length / 2) : null;
        try {
            if (startTree !== null && summary && !summary.hidden) {
                const stat = fs__default.statSync(this.userIndex);
                fs__default.copyFileSync(this.userIndex, this.indexFile);
                fs__default.utimesSync(this.indexFile, stat.atime, stat.mtime);
                if (summary.tree !== this.headTree)
                    await this.git.readTree(this.indexFile, startTree, { reset: true });
                this.indexMatchesHead = true;
                return;
            }
        }
        catch {
            // A split or unreadable user index: fall through to a fresh index (slower first checkpoint only).
        }
        fs__default.rmSync(this.indexFile, { force: true });
        await this.git.readTree(this.indexFile, startTree);
        this.indexMatchesHead = true;
    }
    // ---- one checkpoint ----------------------------------------------------------------------------
    async checkpoint(trigger, urgent) {
        await this.open();
        if (!(await this.waitForSpacing(urgent)))
            return null;
        const startedAt = performance.now();
        const skipped = [];
        const withheld = [];
        this.attributesCache.clear();
        const pauser = this.options.pauser;
        let staged;
        pauser?.pause();
        try {
            staged = await this.stageChanges(skipped, withheld);
        }
        finally {
            this.firstSnapshot.end();
            pauser?.resume();
        }
        // A withheld file is never staged, so the tree cannot show it: a change in what is withheld (a new
        // forbidden file, or one removed) is a checkpoint of its own, so policy sees it and the record lists it.
        const withheldKey = withheld.map((f) => `${f.path}\0${f.status}\0${f.size}\0${f.newMode}`).join('\0');
        const withheldChanged = withheldKey !== this.withheldKey;
        if (staged.length === 0 && this.indexMatchesHead && !withheldChanged)
            return null;
        this.indexMatchesHead = false;
        // From the second commit on: what the commit will need (started once per session), overlapping the
        // write-tree and the diffs.
        const firstCommit = this.commitsMade === 0;
        if (!firstCommit) {
            this.commits.prepare();
            this.refs.prepare();
        }
        const tree = await this.git.writeTree(this.indexFile);
        if (tree === this.headTree && !withheldChanged) {
            this.indexMatchesHead = true;
            return null;
        }
        const seq = this.seq + 1;
        // The detailed diffs cost two git processes each; they are only computed for the policy hook.
        let files = [];
        let cumulative = [];
        let violations = [];
        if (this.options.validate) {
            [files, cumulative] = await Promise.all([
                diffTrees(this.git, this.headTree, tree),
                this.headTree === this.baseTree ? null : diffTrees(this.git, this.baseTree, tree),
            ]).then(([incremental, total]) => [incremental, total ?? incremental]);
            violations = await this.options.validate({ seq, files, cumulative, withheld, tree });
        }
        const changedPaths = this.options.validate ? touchedPaths(files) : staged;
        const parent = this.head ?? this.baseCommit;
        const message = formatCheckpointMessage({
            session: this.session,
            seq,
            base: this.baseCommit,
            trigger,
            filesChanged: changedPaths.length,
            violations: violations.length,
            skipped,
            maxFileSize: this.options.maxFileSize,
        });
        const sha = firstCommit
            ? await this.git.commitTree(tree, parent ? [parent] : [], message)
            : await this.commits.commit(tree, parent ? [parent] : [], message);
        try {
            if (firstCommit)
                await this.git.updateRefCas(this.ref, sha, this.head, 'proctor checkpoint');
            else
                await this.refs.updateCas(this.ref, sha, this.head);
        }
        catch (error) {
            if (error instanceof RefMovedError) {
                throw new Error(`checkpoint ${seq} of session ${this.session} was not recorded: ${this.ref} was moved by another ` +
                    'process (is a second proctor running with the same session id?). Nothing was overwritten; ' +
                    'use a distinct session id per run.', { cause: error });
            }
            throw error;
        }
        this.commitsMade++;
        this.head = sha;
        this.headTree = tree;
        this.withheldKey = withheldKey;
        this.indexMatchesHead = true;
        this.seq = seq;
        this.lastAt = this.now();
        const record = {
            seq,
            sha,
            ref: this.ref,
            trigger,
            files_changed: changedPaths,
            violations: violations.length,
            skipped: skipped.map((s) => s.path),
            created_at: new Date().toISOString(),
            duration_ms: Math.round(performance.now() - startedAt),
        };
        return { record, tree, parent, files, cumulative, violations, skipped, withheld };
    }
    /**
     * Bring the private index up to date with the worktree. The listing finds what changed; only
     * those paths are hashed, with `update-index` (no second directory walk), minus files over
     * max_file_size, LFS-tracked files and .proctor/. If that fails (a path vanished or changed type
     * mid-way, a nested repository without commits), fall back to a whole-tree `add -A`, leaving out
     * nested repositories git cannot record.
     */
    async stageChanges(skipped, withheld) {
        const { paths: changed, tracked } = await this.changedPaths();
        this.firstSnapshot.begin(changed, this.seq);
        if (changed.length === 0)
            return [];
        const exclude = [
            ...(await this.filesToSkip(changed, skipped, withheld, tracked)),
            ...this.hiddenRelative(),
        ];
        const excluded = new Set(exclude);
        const paths = changed.filter((p) => !excluded.has(p));
        if (paths.length === 0)
            return [];
        try {
            await this.git.raw([
                'update-index',
                ...(this.firstSnapshot.active ? ['--verbose'] : []),
                // The listing does not write refreshed stat data back, so a file touched but unchanged is compared
                // by content at every listing until a refresh records its stat. Refreshing is a second stat of
                // every entry (it doubled update-index at 10k files), so it runs every REFRESH_EVERY stagings.
                ...(this.stagings++ % REFRESH_EVERY === REFRESH_EVERY - 1 ? ['-q', '--refresh'] : []),
                '--add',
                '--remove',
                '--replace',
                '-z',
                '--stdin',
            ], { indexFile: this.indexFile, input: paths.join('\0') + '\0', ...this.progressCounter(paths.length) });
        }
        catch {
            try {
                await this.git.addAll(this.indexFile, { exclude: [STATE_DIR_NAME, ...exclude] });
            }
            catch (error) {
                const dirs = paths.filter((p) => isDirectory(path.join(this.root, p)));
                if (dirs.length === 0)
                    throw error;
                for (const dir of dirs)
                    skipped.push({ path: dir, reason: 'unrecordable' });
                await this.git.addAll(this.indexFile, { exclude: [STATE_DIR_NAME, ...exclude, ...dirs] });
                return paths.filter((p) => !dirs.includes(p));
            }
        }
        return paths;
    }
    /**
     * For a large first snapshot: `update-index --verbose` prints one line per path as it hashes it ("add
     * 'path'", "remove 'path'"), so counting lines as they come says how far along it is. A path holding a
     * newline could count twice; the watch caps the count at the total.
     */
    progressCounter(total) {
        if (!this.firstSnapshot.active)
            return {};
        let lines = 0;
        return {
            onStdout: (chunk) => {
                for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1))
                    lines++;
                this.firstSnapshot.progress(lines, total);
            },
        };
    }
    /**
     * Paths whose worktree state differs from the private index (modified, deleted, untracked), from one
     * `ls-files -t -m -o`: `-m` compares a file whose stat data changed but whose size did not by content
     * (as `git diff` does), so a touched but unchanged file is not counted as changed, and submodules are
     * compared by their HEAD only (`--ignore-submodules=dirty`). Untracked files are tagged `?`.
     */
    async changedPaths() {
        const listing = await this.git.raw(['ls-files', '-z', '-t', '--modified', '--others', '--exclude-standard'], { indexFile: this.indexFile });
        const paths = [];
        const tracked = new Set();
        const seen = new Set();
        for (const field of listing.stdout.split('\0')) {
            if (field.length < 3)
                continue;
            // A nested repository is listed as a directory.
            const p = field.slice(2).replace(/\/$/, '');
            if (seen.has(p))
                continue;
            seen.add(p);
            if (p === STATE_DIR_NAME || p.startsWith(`${STATE_DIR_NAME}/`))
                continue;
            if (this.options.hiddenPaths?.has(path.join(this.root, p)))
                continue;
            paths.push(p);
            if (field[0] !== '?')
                tracked.add(p);
        }
        return { paths, tracked };
    }
    hiddenRelative() {
        return [...(this.options.hiddenPaths ?? [])].map((p) => path.relative(this.root, p));
    }
    async filesToSkip(paths, skipped, withheld, tracked) {
        const exclude = [];
        const present = [];
        const withhold = this.options.withhold;
        for (const p of paths) {
            let stat;
            try {
                stat = fs__default.lstatSync(path.join(this.root, p));
            }
            catch {
                continue; // deleted: nothing to hash (a deletion writes no content, so it is recorded)
            }
            const why = withhold?.(p) ?? null;
            if (why !== null) {
                exclude.push(p);
                skipped.push({ path: p, reason: 'forbidden', detail: why });
                withheld.push(withheldChange(this.root, p, stat, tracked.has(p)));
                continue;
            }
            if (!stat.isFile())
                continue;
            present.push(p);
            if (stat.size > this.options.maxFileSize) {
                exclude.push(p);
                skipped.push({ path: p, reason: 'size', size: stat.size });
            }
        }
        const candidates = present.filter((p) => !exclude.includes(p));
        if (candidates.length > 0 && this.attributesMayFilter(candidates)) {
            const filters = await this.git.checkAttr('filter', candidates, this.indexFile);
            for (const p of candidates) {
                if (filters.get(p) === 'lfs') {
                    exclude.push(p);
                    skipped.push({ path: p, reason: 'lfs' });
                }
            }
        }
        return exclude;
    }
    /**
     * Whether any attributes file that applies to these paths mentions `filter` (LFS is `filter=lfs`).
     * Reading a few small files is much cheaper than a `git check-attr` process per checkpoint.
     */
    attributesMayFilter(paths) {
        if (this.filterAttributeFiles)
            return true;
        const dirs = new Set();
        for (const p of paths) {
            let dir = path.posix.dirname(p);
            for (;;) {
                dirs.add(dir);
                if (dir === '.')
                    break;
                dir = path.posix.dirname(dir);
            }
        }
        for (const dir of dirs) {
            let text = this.attributesCache.get(dir);
            if (text === undefined) {
                try {
                    text = fs__default.readFileSync(path.join(this.root, dir, '.gitattributes'), 'utf8');
                }
                catch {
                    text = '';
                }
                this.attributesCache.set(dir, text);
            }
            if (/filter/.test(text))
                return true;
        }
        return false;
    }
    /** info/attributes, core.attributesFile or the default global file mentions a filter. */
    async globalAttributeFiles(infoAttributes, configFiles) {
        const candidates = [infoAttributes];
        const configured = this.options.attributesFile !== undefined
            ? this.options.attributesFile
            : configFiles && this.attributesFileUnset(configFiles)
                ? null
                : await this.git.configGet('core.attributesFile');
        if (configured)
            candidates.push(configured.replace(/^~(?=\/)/, os.homedir()));
        const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
        candidates.push(path.join(xdg, 'git', 'attributes'));
        return candidates.some((file) => {
            try {
                return /filter/.test(fs__default.readFileSync(file, 'utf8'));
            }
            catch {
                return false;
            }
        });
    }
    /**
     * True when no config file git reads can set core.attributesFile: none of them (the repository's,
     * global, system) mentions `attributesfile` or an include, and no config comes from the environment.
     * Saves a one-shot `checkpoints create` its `git config` process; any doubt asks git.
     */
    attributesFileUnset(repositoryFiles) {
        const env = (key) => this.git.envValue(key);
        if (env('GIT_CONFIG_PARAMETERS') || env('GIT_CONFIG_COUNT'))
            return false;
        return [...repositoryFiles, ...globalConfigFiles(env)].every((file) => {
            let text;
            try {
                text = fs__default.readFileSync(file, 'utf8');
            }
            catch (error) {
                return error.code === 'ENOENT';
            }
            return !/attributesfile|include/i.test(text);
        });
    }
    /** Waits out min_interval for a non-urgent trigger; false when an urgent checkpoint came in meanwhile. */
    async waitForSpacing(urgent) {
        if (urgent)
            return true;
        if (this.urgentQueued > 0)
            return false;
        const min = this.options.minIntervalMs ?? 0;
        if (this.lastAt === null || min <= 0)
            return true;
        const wait = this.lastAt + min - this.now();
        if (wait > 0) {
            let timer;
            const woken = new Promise((resolve) => (this.wakeSpacing = resolve));
            const slept = this.options.sleep
                ? this.options.sleep(wait)
                : new Promise((resolve) => (timer = setTimeout(resolve, wait)));
            await Promise.race([slept, woken]);
            clearTimeout(timer);
            this.wakeSpacing = null;
        }
        return this.urgentQueued === 0;
    }
    now() {
        return (this.options.now ?? Date.now)();
    }
    async treeOf(commit) {
        return (await this.git.raw(['rev-parse', '--verify', `${commit}^{tree}`])).stdout.trim();
    }
}
/** A withheld path described as a diff entry, from the disk (its content is never hashed into git). */
function withheldChange(root, p, stat, tracked) {
    const mode = stat.isSymbolicLink()
        ? '120000'
        : stat.isDirectory()
            ? '160000'
            : stat.mode & 0o111
                ? '100755'
                : '100644';
    const change = {
        path: p,
        status: tracked ? 'M' : 'A',
        // The previous mode is not read (that would need the index entry); a modification keeps its mode
        // here, so an unchanged executable bit is not reported as new.
        oldMode: tracked ? mode : null,
        newMode: mode,
        size: stat.isFile() ? stat.size : null,
        linesAdded: null,
        linesDeleted: null,
    };
    if (stat.isSymbolicLink()) {
        try {
            change.symlinkTarget = fs__default.readlinkSync(path.join(root, p), 'utf8');
        }
        catch {
            // Gone since the listing: the next checkpoint sees that.
        }
    }
    return change;
}
function isDirectory(file) {
    try {
        return fs__default.lstatSync(file).isDirectory();
    }
    catch {
        return false;
    }
}

/** Every session with checkpoints in this repository, newest tip first. */
async function listSessions(git) {
    const out = (await git.raw([
        'for-each-ref',
        '--sort=-committerdate',
        '--format=%(objectname) %(refname)',
        '--',
        CHECKPOINT_REF_PREFIX,
    ])).stdout;
    return out
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
        const sha = line.slice(0, line.indexOf(' '));
        const ref = line.slice(line.indexOf(' ') + 1);
        return { session: ref.slice(CHECKPOINT_REF_PREFIX.length), ref, tip: sha };
    });
}
/** The checkpoints of one session, oldest first (walks first parents while they belong to the session). */
async function listCheckpoints(git, session) {
    const tip = await git.revParse(`${CHECKPOINT_REF_PREFIX}${session}^{commit}`);
    if (!tip)
        return [];
    const out = (await git.raw(['log', '-z', '--first-parent', '--format=%H%n%T%n%P%n%cI%n%B', tip])).stdout;
    const checkpoints = [];
    for (const record of splitNul(out)) {
        const info = parseLogRecord(record);
        if (!info || info.session !== session)
            break;
        checkpoints.push(info);
    }
    return checkpoints.reverse();
}
/** One commit as a checkpoint, or null when it is not one (no Proctor-Session trailer). */
async function readCheckpoint(git, sha) {
    const out = (await git.raw(['log', '-1', '--format=%H%n%T%n%P%n%cI%n%B', sha])).stdout;
    return parseLogRecord(out);
}
function parseLogRecord(record) {
    const [sha, tree, parents, date, ...body] = record.replace(/^\n/, '').split('\n');
    const parsed = parseCheckpointMessage(body.join('\n'));
    if (!sha || !tree || parsed.session === null || parsed.seq === null)
        return null;
    return {
        session: parsed.session,
        seq: parsed.seq,
        sha,
        tree,
        parent: parents ? (parents.split(' ')[0] ?? null) : null,
        base: parsed.base,
        trigger: parsed.trigger ?? 'unknown',
        violations: parsed.violations,
        skippedCount: parsed.skippedCount,
        skipped: parsed.skipped,
        subject: parsed.subject,
        createdAt: date ?? '',
    };
}
/**
 * Resolve what a user typed: `latest` (newest checkpoint of any session), `<session>@<seq>`,
 * `<session>@latest`, `<session>`, or a (short) commit id. Errors say what exists instead.
 */
async function resolveCheckpoint(git, id) {
    const sessions = await listSessions(git);
    if (id === 'latest') {
        const newest = sessions[0];
        if (!newest)
            throw new Error('there are no checkpoints in this repository yet (no refs/proctor/* refs)');
        return mustRead(git, newest.tip, id);
    }
    const at = id.lastIndexOf('@');
    if (at > 0) {
        const session = id.slice(0, at);
        const which = id.slice(at + 1);
        const chain = await listCheckpoints(git, session);
        if (chain.length === 0)
            throw new Error(`no session "${session}"; ${sessionHint(sessions)}`);
        if (which === 'latest')
            return chain[chain.length - 1];
        const found = /^\d+$/.test(which) ? chain.find((c) => c.seq === Number(which)) : undefined;
        if (!found) {
            throw new Error(`session "${session}" has no checkpoint ${which}; it has 1..${chain[chain.length - 1].seq}`);
        }
        return found;
    }
    const session = sessions.find((s) => s.session === id);
    if (session)
        return mustRead(git, session.tip, id);
    const sha = /^[0-9a-f]{4,64}$/i.test(id) ? await git.revParse(`${id}^{commit}`) : null;
    if (!sha) {
        throw new Error(`"${id}" is not a checkpoint: use <session>@<seq>, <session>, a commit id, or latest; ${sessionHint(sessions)}`);
    }
    return mustRead(git, sha, id);
}
async function mustRead(git, sha, id) {
    const info = await readCheckpoint(git, sha);
    if (!info)
        throw new Error(`${id} (${sha.slice(0, 12)}) is a commit but not a proctor checkpoint`);
    return info;
}
function sessionHint(sessions) {
    if (sessions.length === 0)
        return 'there are no sessions yet';
    const names = sessions.slice(0, 5).map((s) => s.session);
    return `sessions: ${names.join(', ')}${sessions.length > 5 ? ', ...' : ''} (see proctor checkpoints list)`;
}

// The serial push queue: refs/proctor/<session> → the remote branch from the `branch` template.
// Fast-forward only: never --force, never --unshallow, so it works from a `fetch-depth: 1` clone. When
// someone else moved the branch, the remote tip is fetched with --depth=1 and the same trees are
// re-committed on top of it (local refs stay as they are). When pushing is impossible (no remote, no
// permission, a ruleset), the checkpoints stay local, the record says why, and a bundle is written.
/** Why a push can never succeed by retrying. */
const PERMANENT_FAILURES = [
    { pattern: /GH013|rule violations|ruleset/i, reason: 'a repository ruleset rejected the push' },
    { pattern: /protected branch hook declined|protected branch/i, reason: 'the branch is protected' },
    {
        pattern: /permission to .* denied|\b403\b|authentication failed|could not read username|terminal prompts disabled|invalid username or password|write access to repository not granted/i,
        reason: 'no permission to push (needs `permissions: contents: write`, or a token that may push)',
    },
    {
        pattern: /repository not found|does not appear to be a git repository|no such remote|not found/i,
        reason: 'the remote repository was not found',
    },
    { pattern: /pre-receive hook declined|hook declined/i, reason: 'a server-side hook declined the push' },
];
const DEFAULT_BACKOFF = [250, 500, 1000, 2000, 4000];
class PushQueue {
    branch;
    options;
    ref;
    pending = false;
    running = null;
    /** Last local checkpoint whose trees are on the remote, and the remote commit that carries them. */
    pushedLocal = null;
    pushedRemote = null;
    record;
    constructor(options) {
        this.options = options;
        this.ref = checkpointRef(options.session);
        this.branch = remoteBranchFor(options.branchTemplate, options.session);
        this.record = {
            ok: false,
            remote: null,
            branch: this.branch,
            sha: null,
            reason: 'nothing pushed yet',
            bundle: null,
        };
    }
    /** The outcome so far, for the report. */
    get state() {
        return { ...this.record };
    }
    /** `push: always` and the push failed: the report must show this as an error. */
    get failedRequired() {
        return this.options.mode === 'always' && !this.record.ok && this.pushedLocal === null;
    }
    /** Queue a push of the current checkpoint ref (after each checkpoint). Coalesces; never throws. */
    schedule() {
        if (this.options.mode === 'never')
            return;
        this.pending = true;
        this.running ??= this.drain().finally(() => {
            this.running = null;
        });
    }
    /**
     * The final push: waits for queued work, pushes what is left and, if the remote did not get
     * everything, writes the bundle. Never throws; the record says what happened.
     */
    async flush() {
        if (this.options.mode === 'never') {
            this.record = { ...this.record, ok: false, reason: 'pushing is off (checkpoints.push: never)' };
            return this.state;
        }
        this.schedule();
        while (this.running)
            await this.running;
        const local = await this.options.git.revParse(this.ref);
        if (local && local !== this.pushedLocal)
            await this.writeBundle(local);
        return this.state;
    }
    async drain() {
        while (this.pending) {
            this.pending = false;
            try {
                await this.pushLatest();
            }
            catch (error) {
                this.record = { ...this.record, ok: false, reason: `push failed: ${describe(error)}` };
            }
        }
    }
    async pushLatest() {
        const git = this.options.git;
        const local = await git.revParse(this.ref);
        if (!local || local === this.pushedLocal)
            return;
        const remoteUrl = await this.remoteExists();
        if (!remoteUrl) {
            this.record = {
                ...this.record,
                ok: false,
                remote: null,
                reason: `no remote named "${this.options.remote}"; checkpoints stay local`,
            };
            return;
        }
        this.record.remote = this.options.remote;
        const target = `refs/heads/${this.branch}`;
        const attempts = this.options.maxAttempts ?? 5;
        let candidate = this.pushedRemote && this.pushedRemote !== this.pushedLocal
            ? await this.replayOnto(this.pushedRemote, local)
            : local;
        for (let attempt = 1; attempt <= attempts; attempt++) {
            const outcome = await git.push(this.options.remote, [`${candidate}:${target}`], {
                timeoutMs: this.options.timeoutMs ?? 60_000,
                ...(this.options.secretConfig ? { secretConfig: this.options.secretConfig } : {}),
            });
            if (outcome.ok) {
                this.pushedLocal = local;
                this.pushedRemote = candidate;
                this.record = { ...this.record, ok: true, sha: candidate, reason: null };
                return;
            }
            const permanent = classifyPermanent(outcome);
            if (permanent) {
                this.record = { ...this.record, ok: false, reason: `${permanent}: ${firstLine(outcome)}` };
                return;
            }
            const rejected = outcome.refs.find((r) => r.status === 'rejected');
            this.record = {
                ...this.record,
                ok: false,
                reason: rejected
                    ? `rejected (${rejected.summary}) after ${attempt} attempts`
                    : `push failed: ${firstLine(outcome)}`,
            };
            if (attempt === attempts)
                return;
            await this.backoff(attempt);
            if (rejected) {
                // Someone else moved the branch: build the same trees on top of their tip and try again.
                const tip = await this.fetchRemoteTip(target);
                if (tip)
                    candidate = await this.replayOnto(tip, local);
            }
        }
    }
    /** Re-commit each of our checkpoints not yet on the remote (same tree, same message) on top of `tip`. */
    async replayOnto(tip, local) {
        const git = this.options.git;
        const range = [local];
        const stop = this.pushedLocal ?? this.options.base;
        if (stop)
            range.push(`^${stop}`);
        const commits = (await git.raw(['rev-list', '--reverse', '--first-parent', ...range])).stdout
            .split('\n')
            .filter((line) => line !== '');
        let parent = tip;
        for (const commit of commits) {
            const tree = (await git.raw(['rev-parse', `${commit}^{tree}`])).stdout.trim();
            const message = (await git.raw(['log', '-1', '--format=%B', commit])).stdout;
            parent = await git.commitTree(tree, [parent], message);
        }
        return parent;
    }
    async fetchRemoteTip(target) {
        const git = this.options.git;
        const tracking = `refs/proctor-remote/${this.options.session}`;
        try {
            await git.fetch(this.options.remote, [`+${target}:${tracking}`], {
                depth: 1,
                timeoutMs: this.options.timeoutMs ?? 60_000,
                ...(this.options.secretConfig ? { secretConfig: this.options.secretConfig } : {}),
            });
        }
        catch {
            return null;
        }
        return git.revParse(tracking);
    }
    async remoteExists() {
        const remote = this.options.remote;
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || remote.startsWith('/'))
            return remote;
        return this.options.git.remoteUrl(remote);
    }
    async writeBundle(local) {
        const file = path.join(this.options.sessionDir, 'checkpoints.bundle');
        try {
            fs__default.mkdirSync(this.options.sessionDir, { recursive: true });
            const revs = [this.ref];
            const stop = this.options.base;
            if (stop && stop !== local)
                revs.push(`^${stop}`);
            await this.options.git.bundleCreate(file, revs);
            this.record = { ...this.record, bundle: file };
        }
        catch (error) {
            this.record = {
                ...this.record,
                reason: `${this.record.reason ?? ''}; bundle failed: ${describe(error)}`,
            };
        }
    }
    async backoff(attempt) {
        const steps = this.options.backoffMs ?? DEFAULT_BACKOFF;
        const base = steps[Math.min(attempt - 1, steps.length - 1)] ?? 0;
        const ms = base + Math.floor(Math.random() * (base / 2));
        if (ms > 0)
            await (this.options.sleep ?? defaultSleep)(ms);
    }
}
function classifyPermanent(outcome) {
    if (outcome.refs.some((r) => r.status === 'rejected' && /non-fast-forward|fetch first|stale info/.test(r.summary))) {
        return null;
    }
    const text = `${outcome.stderr}\n${outcome.refs.map((r) => r.summary).join('\n')}`;
    return PERMANENT_FAILURES.find((f) => f.pattern.test(text))?.reason ?? null;
}
function firstLine(outcome) {
    const text = outcome.stderr
        .split('\n')
        .map((line) => line.trim())
        .find((line) => /error|fatal|denied|reject|remote:/i.test(line));
    return (text ??
        outcome.refs.find((r) => r.status === 'rejected')?.summary ??
        `git exited with ${outcome.exitCode}`);
}
function describe(error) {
    if (error instanceof GitError)
        return error.message.split('\n')[0] ?? error.message;
    return error instanceof Error ? error.message : String(error);
}
function defaultSleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

class Workspace {
    root;
    git;
    constructor(
    /** The repository root (the directory holding `.git`). */
    root, git) {
        this.root = root;
        this.git = git;
    }
    /** The repository around `cwd`, or null outside one. */
    static find(cwd, env) {
        const root = findRepoRoot(cwd);
        return root ? new Workspace(root, new Git({ cwd: root, ...(env ? { env } : {}) })) : null;
    }
    /** `.proctor/` at the repository root around `cwd` (or at `cwd` outside a repository), created. */
    static stateDirs(cwd) {
        return ensureStateDir(cwd);
    }
    /** `.proctor/sessions/<id>`, created. */
    sessionDir(sessionId) {
        return sessionDir(ensureStateDir(this.root), sessionId);
    }
    /**
     * A session's checkpoint store: config.checkpoints' size limit and spacing, the policy's forbidden areas
     * withheld, and (with `judge`) every checkpoint judged by the policy. `extras` override any of it.
     */
    store(sessionId, config, extras = {}) {
        const { judge, ...overrides } = extras;
        const policy = config.policy;
        return new CheckpointStore({
            git: this.git,
            session: sessionId,
            maxFileSize: config.checkpoints.max_file_size,
            minIntervalMs: config.checkpoints.min_interval,
            withhold: forbiddenAreaOf(policy),
            ...(judge ? { validate: (ctx) => evaluateCheckpoint({ ...ctx, worktree: this.root, policy }) } : {}),
            ...overrides,
        });
    }
    /**
     * What the session's work holds against the policy at its latest checkpoint: the cumulative diff from
     * the session's base, judged as a whole (as the session's own gate judges it).
     */
    async standingViolations(store, config) {
        const latest = store.latest;
        if (!latest)
            return [];
        return evaluatePolicy({
            files: await diffTrees(this.git, store.base, latest),
            checkpoint: store.latestSeq,
            worktree: this.root,
            policy: config.policy,
            scope: 'cumulative',
        });
    }
    /** A session's push queue: config.checkpoints' remote, branch and mode, its bundle in the session dir. */
    async pushQueue(sessionId, config, options = {}) {
        const base = options.base !== undefined
            ? options.base
            : ((await listCheckpoints(this.git, sessionId).catch(() => []))[0]?.base ?? null);
        return new PushQueue({
            git: this.git,
            session: sessionId,
            remote: options.remote ?? config.checkpoints.remote,
            branchTemplate: config.checkpoints.branch,
            mode: options.mode ?? config.checkpoints.push,
            sessionDir: sessionPath(this.root, sessionId),
            base,
            ...(options.secretConfig ? { secretConfig: options.secretConfig } : {}),
        });
    }
    /** Pushes a finished session's checkpoints now; null when it has none. */
    async pushSession(sessionId, config, options = {}) {
        const chain = await listCheckpoints(this.git, sessionId).catch(() => []);
        if (chain.length === 0)
            return null;
        const queue = await this.pushQueue(sessionId, config, { base: chain[0]?.base ?? null, ...options });
        return queue.flush();
    }
}

export { CheckpointStore as C, GITLINK_MODE as G, Workspace as W, diffTrees as a, listSessions as b, forbiddenAreaOf as c, describeSnapshotProgress as d, evaluatePolicy as e, failsPolicyCheck as f, readGitDirs as g, globalConfigFiles as h, atLeast as i, filesToRevert as j, evaluateCheckpointScopes as k, listCheckpoints as l, notifiesAgent as n, openingRevisions as o, resolveCheckpoint as r };
