import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import fs__default from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { R as RefMovedError, a as GitError } from './runner-FlE7M-Ph.js';
import { f as formatDuration } from './units-B2PFpzl3.js';
import { c as checkpointRef } from './refs-X9Bn9pnj.js';
import { S as STATE_DIR_NAME } from './layout-CYVFN_Ug.js';

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
/** What the store needs to open for `session`, from `start` (HEAD by default): one cat-file. */
async function resolveOpening(git, session, start = 'HEAD') {
    const ref = checkpointRef(session);
    const [startCommit, startTree, chainCommit, chainTree] = await git.resolveObjects([
        `${start}^{commit}`,
        `${start}^{tree}`,
        `${ref}^{commit}`,
        `${ref}^{tree}`,
    ]);
    return {
        startCommit: startCommit ?? null,
        startTree: startTree ?? null,
        chainCommit: chainCommit ?? null,
        chainTree: chainTree ?? null,
    };
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
     * Commits this store has written. The first is made with one `commit-tree`, which is all a one-shot
     * `proctor checkpoints create` or a short session ever needs; the long-lived writer (and the identity
     * probe behind it) starts with the second. The ref updater's one process serves them all: it starts as
     * soon as a listing finds changes, so even the first update waits for no git start-up.
     */
    commitsMade = 0;
    /**
     * The first checkpoint's listing when it was started while the store opened, before git said what HEAD
     * holds (see listEarly); taken by that checkpoint only.
     */
    earlyListing;
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
        this.opened ??= this.doOpen(false);
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
    /**
     * `listEarly`: the store opens for a checkpoint that is about to list the worktree anyway (a one-shot
     * `checkpoints create`, or a first checkpoint before anything opened the store), so the listing may start
     * now, alongside the cat-file that resolves HEAD, instead of after it (see listEarly).
     */
    async doOpen(listEarly) {
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
        const guessedTree = seeding && listEarly && !this.options.resolved ? this.listEarly() : null;
        // One cat-file for the start commit, the chain tip and their trees (missing ones come back as null),
        // unless the caller resolved them before the agent's spawn; the attributes files alongside.
        const [objects, filters] = await Promise.all([
            this.options.resolved ?? resolveOpening(this.git, this.session, this.options.baseCommit ?? 'HEAD'),
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
        if (guessedTree !== null && guessedTree === this.headTree && (this.head ?? this.baseCommit) !== null) {
            // The copy of the user's index holds exactly the tree to start from (what seedIndex would have left
            // in it): seeded, and the listing stands.
            this.indexMatchesHead = true;
            return;
        }
        if (this.earlyListing) {
            // Listed against an index that is not the seed after all: wait for git to let go of the file first.
            await this.earlyListing.catch(() => undefined);
            this.earlyListing = undefined;
        }
        if (seeding)
            await this.seedIndex();
    }
    /**
     * The seed as seedIndex makes it in the common case (a copy of the user's index, mtime kept), made before
     * git has said what HEAD holds, and the first checkpoint's listing started on it at once: the cat-file
     * then costs no time of its own. Returns the tree the copy's cache-tree says it holds; doOpen keeps the
     * seed and the listing only when that is the tree to start from (HEAD's, or the resumed chain's), else
     * it seeds as always. Null when the copy cannot be relied on (nothing was listed).
     */
    listEarly() {
        try {
            this.copyUserIndex();
        }
        catch {
            fs__default.rmSync(this.indexFile, { force: true });
            return null;
        }
        // Read from the copy, not the user's file, which may have changed since. SHA-1, else SHA-256: a wrong
        // guess of the hash size cannot give the start tree's id.
        const summary = readIndexSummary(this.indexFile, 20) ?? readIndexSummary(this.indexFile, 32);
        if (!summary?.tree || summary.hidden) {
            fs__default.rmSync(this.indexFile, { force: true });
            return null;
        }
        this.earlyListing = this.changedPaths();
        // Awaited by the checkpoint, or by doOpen when the seed was wrong.
        this.earlyListing.catch(() => undefined);
        return summary.tree;
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
     * Seed from a copy of the user's index (copyUserIndex) so its stat data is reused (only changed files
     * get hashed). `read-tree --reset` then drops what the user staged but did not commit, keeping matching
     * stat entries; it is skipped when the user's index records (in its cache-tree) that it holds exactly
     * the start tree, the common case of a user who staged nothing. Assume-unchanged or skip-worktree entries, an index this reader does not
     * understand, an unborn HEAD or a resumed chain take the plain path.
     */
    async seedIndex() {
        const startTree = this.head ? this.headTree : this.baseCommit;
        const summary = startTree !== null && this.headTree ? readIndexSummary(this.userIndex, this.headTree.length / 2) : null;
        try {
            if (startTree !== null && summary && !summary.hidden) {
                this.copyUserIndex();
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
    /**
     * The private index as a copy of the user's, with its mtime: git trusts an entry's stat data by comparing
     * it to the index file's own mtime (racy-git), and a fresh mtime would hide same-size edits made in the
     * same second.
     */
    copyUserIndex() {
        const stat = fs__default.statSync(this.userIndex);
        fs__default.copyFileSync(this.userIndex, this.indexFile);
        fs__default.utimesSync(this.indexFile, stat.atime, stat.mtime);
    }
    // ---- one checkpoint ----------------------------------------------------------------------------
    async checkpoint(trigger, urgent) {
        // With pause_agent the worktree is only read while the agent is paused (below), so no early listing.
        // A synchronous runner (one-shot create) runs one git at a time: nothing would overlap.
        this.opened ??= this.doOpen(!this.options.pauser && !this.git.synchronous);
        await this.opened;
        if (!(await this.waitForSpacing(urgent)))
            return null;
        const startedAt = monotonicMs();
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
        // write-tree and the diffs. A synchronous runner (a one-shot create) starts no long-lived git: one
        // commit-tree and one update-ref.
        const streams = !this.git.synchronous;
        const plainCommit = this.commitsMade === 0 || !streams;
        if (!plainCommit) {
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
        const sha = plainCommit
            ? await this.git.commitTree(tree, parent ? [parent] : [], message)
            : await this.commits.commit(tree, parent ? [parent] : [], message);
        try {
            if (streams)
                await this.refs.updateCas(this.ref, sha, this.head);
            else
                await this.git.updateRefCas(this.ref, sha, this.head, 'proctor checkpoint');
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
            duration_ms: Math.round(monotonicMs() - startedAt),
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
        const early = this.earlyListing;
        this.earlyListing = undefined;
        const { paths: changed, tracked } = await (early ?? this.changedPaths());
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
            const staging = this.git.raw([
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
            // Something will most likely be committed: the ref updater's git starts while update-index works
            // (the runner spawns it on a later microtask; a spawn blocks this thread for a few ms), so its
            // start-up overlaps the staging, the tree and the commit instead of following them.
            if (!this.git.synchronous)
                setImmediate(() => this.refs?.prepare());
            await staging;
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
/**
 * A monotonic clock in ms. Not `performance.now()`: the first use of the `performance` global loads eight
 * of Node's perf modules (~1 ms), which a one-shot `checkpoints create` would pay for one duration.
 */
function monotonicMs() {
    return Number(process.hrtime.bigint()) / 1e6;
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

export { CheckpointStore as C, GITLINK_MODE as G, diffTrees as a, resolveOpening as b, describeSnapshotProgress as d, globalConfigFiles as g, parseCheckpointMessage as p, readGitDirs as r };
