import { aj as CheckpointStore, J as randomHex, ak as GITLINK_MODE } from './checkpoints-create-CJcO-Brq.js';
const fs__default = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");
import { resolveCheckpoint } from './history-DPG0N69n.js';
import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';

// Putting a checkpoint's files back into the worktree, safely:
// - a safety checkpoint of the current state is always taken first (restore is undoable);
// - whole-tree restore refuses when HEAD moved away from the checkpoint's base;
// - files are written through a throwaway private index (`read-tree` + `checkout-index`), so the
//   user's index, HEAD and branches are never touched;
// - only files whose content differs from the checkpoint are written, with the checkpoint's bytes;
// - only files that exist now but not in the checkpoint (added after it) are deleted, never ignored ones
//   nor ones the checkpoint or the baseline skipped (they were there, only too big or not recordable).
/** A restore that was refused; the message says why and what to do. */
class RestoreRefused extends Error {
    constructor(message) {
        super(message);
        this.name = 'RestoreRefused';
    }
}
async function restoreCheckpoint(options) {
    const root = await options.git.topLevel();
    const git = options.git.at(root);
    const checkpoint = await resolveCheckpoint(git, options.id);
    const paths = (options.files ?? []).map((p) => normalizeRepoPath(root, p, options.cwd ?? root));
    const wholeTree = paths.length === 0;
    const head = await git.headCommit();
    if (wholeTree && head !== checkpoint.base) {
        throw new RestoreRefused(`refusing to restore the whole tree of ${checkpoint.session}@${checkpoint.seq}: HEAD is ` +
            `${head ? head.slice(0, 12) : 'unborn'} but the checkpoint was taken on ` +
            `${checkpoint.base ? checkpoint.base.slice(0, 12) : 'an unborn HEAD'}, so files committed since would be ` +
            `rolled back. Check out the base first (git switch --detach ${checkpoint.base ?? '<base>'}), or restore ` +
            'single files with --files <path>...');
    }
    // The safety checkpoint goes on the checkpoint's own session, through its own private index. It has no
    // size limit: every file the restore overwrites or deletes must be in it, however big (max_file_size
    // keeps an agent's session chain small; it must never decide which of the user's files can be lost).
    const store = new CheckpointStore({
        git,
        session: checkpoint.session,
        maxFileSize: Number.MAX_SAFE_INTEGER,
        ...(options.withhold ? { withhold: options.withhold } : {}),
        indexName: `restore-${process.pid}-${randomHex(4)}`,
    });
    let safetyResult;
    let latestSeq;
    try {
        safetyResult = await store.createDetailed('safety');
        latestSeq = store.latestSeq;
    }
    finally {
        await store.close();
    }
    const safetyRecord = safetyResult?.record ?? null;
    const before = safetyRecord?.sha ?? store.latest ?? head;
    const undoId = `${checkpoint.session}@${safetyRecord?.seq ?? latestSeq}`;
    const undo = `proctor checkpoints restore ${undoId}` +
        (wholeTree ? '' : ` --files ${paths.map((p) => shellQuote(p)).join(' ')}`);
    const beforeTree = before
        ? (await git.raw(['rev-parse', `${before}^{tree}`])).stdout.trim()
        : await git.emptyTree();
    const wanted = await git.lsTree(checkpoint.sha, paths);
    const present = await git.lsTree(beforeTree, paths);
    if (!wholeTree && wanted.length === 0 && present.length === 0) {
        throw new RestoreRefused(`none of ${paths.map((p) => JSON.stringify(p)).join(', ')} exists in ${checkpoint.session}@${checkpoint.seq} ` +
            'or in the current worktree; check the paths with: proctor checkpoints show ' +
            `${checkpoint.session}@${checkpoint.seq}`);
    }
    // Plan the whole restore before touching a file: what is written, what is deleted, and whether any
    // file that would be overwritten or removed is not in the safety checkpoint (ignored, LFS, a path that
    // changed between file and directory over unsaved files). Then refuse, listing them, or apply.
    // Only what differs is written: a file whose bytes and mode the pre-restore state already holds is left
    // as it is (no new mtime, no line-ending conversion). The pre-restore tree is the worktree as the safety
    // checkpoint read it, except for what it skipped (its tree holds an older state there): those are written.
    const safetySkipped = new Set((safetyResult?.skipped ?? []).map((s) => s.path));
    const now = new Map(present.map((e) => [e.path, e]));
    const unchanged = (e) => {
        const current = now.get(e.path);
        return (current !== undefined && current.sha === e.sha && current.mode === e.mode && !safetySkipped.has(e.path));
    };
    // Paths the checkpoint could not record (over max_file_size, LFS, forbidden) were there when it was taken,
    // and its tree does not hold what they held: they are the user's, never deleted nor overwritten; nor what
    // the session's baseline skipped.
    const skippedAt = await skippedAtCheckpoint(git, checkpoint);
    const skippedThen = new Set(skippedAt.paths);
    const restored = wanted
        .filter((e) => e.mode !== GITLINK_MODE && !unchanged(e) && !skippedThen.has(e.path))
        .map((e) => e.path);
    const keep = new Set(wanted.map((e) => e.path));
    const candidates = present
        .filter((e) => !keep.has(e.path) && !skippedThen.has(e.path) && e.mode !== GITLINK_MODE)
        .map((e) => e.path);
    const keptSkipped = present.filter((e) => skippedThen.has(e.path)).map((e) => e.path);
    // Ignored under the current .gitignore: user data, never deleted (nor under the restored one, below).
    const ignoredNow = await git.checkIgnore(candidates);
    const deletable = candidates.filter((file) => !ignoredNow.has(file));
    if (!skippedAt.complete && deletable.length > 0) {
        throw new RestoreRefused(`refusing to restore ${checkpoint.session}@${checkpoint.seq}: it (or the session's baseline) skipped ` +
            "more files than its message lists, so proctor cannot tell the files it skipped (the user's, " +
            `never to be deleted) from files added after it; it would delete ${deletable.length} file(s). ` +
            'Restore the paths you need with --files <path>...; nothing was changed.');
    }
    const unsaved = findUnsaved(root, {
        writes: restored,
        deletes: new Set(deletable),
        saved: new Set(present.map((e) => e.path)),
        skipped: safetySkipped,
    });
    if (unsaved.length > 0) {
        throw new RestoreRefused(`refusing to restore ${checkpoint.session}@${checkpoint.seq}: it would overwrite or remove ` +
            `${unsaved.length} path(s) that no checkpoint can hold (ignored, LFS or nested-repository files, ` +
            'or a directory over such files), so they could not be brought back:\n' +
            unsaved.map((u) => `  ${u.path}: ${u.why}`).join('\n') +
            '\nMove or commit them first, or restore other paths with --files <path>...; nothing was changed.');
    }
    // Files in the way of a write (a file where the checkpoint has a directory, or files inside a
    // directory where it has a file) go first, so checkout-index never meets a type conflict; they are
    // in the safety checkpoint (checked above).
    const writes = new Set(restored);
    const writeDirs = parentDirs(writes);
    const blocking = deletable.filter((file) => inTheWay(file, writes, writeDirs));
    for (const file of blocking) {
        fs__default.rmSync(path.join(root, file), { force: true });
        removeEmptyParents(root, file);
    }
    for (const file of restored)
        clearEmptyDirectory(root, file);
    await writeFromCheckpoint(git, checkpoint.sha, restored);
    // The rest of the files added after the checkpoint, unless the restored .gitignore ignores them.
    const blocked = new Set(blocking);
    const rest = deletable.filter((file) => !blocked.has(file));
    const ignoredAfter = await git.checkIgnore(rest);
    const deleted = [...blocking];
    for (const file of rest) {
        if (ignoredAfter.has(file))
            continue;
        fs__default.rmSync(path.join(root, file), { force: true });
        removeEmptyParents(root, file);
        deleted.push(file);
    }
    const keptIgnored = candidates.filter((file) => ignoredNow.has(file) || ignoredAfter.has(file));
    return {
        checkpoint,
        safety: safetyRecord ? { seq: safetyRecord.seq, sha: safetyRecord.sha } : null,
        before,
        undo,
        restored,
        deleted,
        keptIgnored,
        keptSkipped,
    };
}
/**
 * What the checkpoint, and its session's baseline (checkpoint 0), list as skipped: files that existed then
 * but no checkpoint holds. A missing checkpoint 0 (the worktree was HEAD) lists nothing. `complete` is
 * false when a message lists only the first of its skipped files (see formatCheckpointMessage).
 */
async function skippedAtCheckpoint(git, checkpoint) {
    const paths = [...checkpoint.skipped];
    let complete = checkpoint.skippedCount <= checkpoint.skipped.length;
    if (checkpoint.seq > 0) {
        try {
            const baseline = await resolveCheckpoint(git, `${checkpoint.session}@0`);
            if (baseline.trigger === 'baseline') {
                paths.push(...baseline.skipped);
                complete &&= baseline.skippedCount <= baseline.skipped.length;
            }
        }
        catch {
            // No checkpoint 0: the session started on a clean worktree.
        }
    }
    return { paths, complete };
}
/** Whether `file` is an ancestor directory of, or inside, a path the checkpoint writes. */
function inTheWay(file, writes, writeDirs) {
    if (writeDirs.has(file))
        return true;
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++)
        if (writes.has(parts.slice(0, i).join('/')))
            return true;
    return false;
}
/** Every directory that holds a path in `writes`. */
function parentDirs(writes) {
    const dirs = new Set();
    for (const file of writes) {
        const parts = file.split('/');
        for (let i = 1; i < parts.length; i++)
            dirs.add(parts.slice(0, i).join('/'));
    }
    return dirs;
}
/**
 * Paths the restore would overwrite or remove whose current content is not in the safety checkpoint:
 * a file on disk where the checkpoint writes that the checkpoint could not record, a file where the
 * checkpoint needs a directory, or files left inside a directory where the checkpoint writes a file.
 */
function findUnsaved(root, plan) {
    const unsaved = new Map();
    const isSaved = (p) => plan.saved.has(p) && !plan.skipped.has(p);
    for (const file of plan.writes) {
        const parts = file.split('/');
        for (let i = 1; i < parts.length; i++) {
            const dir = parts.slice(0, i).join('/');
            const stat = lstatOrNull(path.join(root, dir));
            if (stat && !stat.isDirectory() && !plan.deletes.has(dir))
                unsaved.set(dir, `a file now but a directory in the checkpoint; ${NOT_SAVED}`);
        }
        const stat = lstatOrNull(path.join(root, file));
        if (!stat)
            continue;
        if (stat.isDirectory()) {
            for (const inner of filesUnder(root, file)) {
                if (!plan.deletes.has(inner))
                    unsaved.set(inner, `inside ${file}/, which is a file in the checkpoint; ${NOT_SAVED}`);
            }
        }
        else if (!isSaved(file)) {
            unsaved.set(file, `would be overwritten; ${NOT_SAVED}`);
        }
    }
    return [...unsaved].map(([p, w]) => ({ path: p, why: w })).sort((a, b) => a.path.localeCompare(b.path));
}
const NOT_SAVED = 'not in the safety checkpoint (ignored, LFS or unrecordable)';
function lstatOrNull(file) {
    try {
        return fs__default.lstatSync(file);
    }
    catch {
        return null;
    }
}
/** Repository-relative paths of the files (not directories) below `dir`; a nested repository counts whole. */
function filesUnder(root, dir) {
    const out = [];
    const walk = (rel) => {
        for (const entry of fs__default.readdirSync(path.join(root, rel), { withFileTypes: true })) {
            const child = `${rel}/${entry.name}`;
            if (entry.isDirectory()) {
                if (entry.name === '.git')
                    out.push(child);
                else
                    walk(child);
            }
            else
                out.push(child);
        }
    };
    walk(dir);
    return out;
}
/** A directory left where the checkpoint has a file (only empty directories once the deletions ran). */
function clearEmptyDirectory(root, file) {
    const full = path.join(root, file);
    const stat = lstatOrNull(full);
    if (!stat?.isDirectory())
        return;
    if (filesUnder(root, file).length === 0)
        fs__default.rmSync(full, { recursive: true, force: true });
}
function shellQuote(value) {
    return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
/**
 * Put `paths` back to their state in `commit` without a safety checkpoint or HEAD check: files in the
 * commit are written, files absent from it are deleted (unless ignored). For revert_on_violation, which
 * restores only the violating files from the last valid checkpoint. Returns what it did.
 */
async function revertPaths(git, commit, paths) {
    if (paths.length === 0)
        return { restored: [], deleted: [], keptIgnored: [] };
    const root = await git.topLevel();
    const atRoot = git.at(root);
    const wanted = (await atRoot.lsTree(commit, paths))
        .filter((e) => e.mode !== GITLINK_MODE)
        .map((e) => e.path);
    await writeFromCheckpoint(atRoot, commit, wanted);
    const keep = new Set(wanted);
    const missing = paths.filter((p) => !keep.has(p) && fs__default.existsSync(path.join(root, p)));
    const ignored = await atRoot.checkIgnore(missing);
    const deleted = [];
    const keptIgnored = [];
    for (const file of missing) {
        if (ignored.has(file) || fs__default.lstatSync(path.join(root, file)).isDirectory()) {
            keptIgnored.push(file);
            continue;
        }
        fs__default.rmSync(path.join(root, file), { force: true });
        removeEmptyParents(root, file);
        deleted.push(file);
    }
    return { restored: wanted, deleted, keptIgnored };
}
/**
 * Write files of `commit` into the worktree through a throwaway index (the user's index is untouched), as
 * the bytes the commit holds: no line-ending conversion on the way out (checkpoints are recorded as the
 * worktree's bytes, so converting would change files the user never touched).
 */
async function writeFromCheckpoint(git, commit, files) {
    if (files.length === 0)
        return;
    const indexFile = await git.gitPath(`proctor/restore-index-${process.pid}-${randomHex(4)}`);
    fs__default.mkdirSync(path.dirname(indexFile), { recursive: true });
    try {
        await git.readTree(indexFile, commit);
        // A path that is a directory now but a file in the checkpoint (or vice versa) must be cleared first.
        for (const file of files)
            clearTypeConflict(git.cwd, file);
        await git.checkoutIndex(indexFile, files, { asStored: true });
    }
    finally {
        fs__default.rmSync(indexFile, { force: true });
    }
}
function clearTypeConflict(root, file) {
    const full = path.join(root, file);
    try {
        const stat = fs__default.lstatSync(full);
        if (stat.isDirectory() && fs__default.readdirSync(full).length === 0)
            fs__default.rmdirSync(full);
    }
    catch {
        // Absent: checkout-index creates it.
    }
}
function removeEmptyParents(root, file) {
    let dir = path.dirname(path.join(root, file));
    while (dir.startsWith(root + path.sep)) {
        try {
            fs__default.rmdirSync(dir);
        }
        catch {
            return; // not empty (or already gone)
        }
        dir = path.dirname(dir);
    }
}
/** Repository-relative, `/`-separated; rejects paths outside the repository. */
function normalizeRepoPath(root, file, cwd = root) {
    const relative = path.relative(root, path.resolve(cwd, file));
    const normal = path.posix.normalize(relative.split(path.sep).join('/')).replace(/\/$/, '');
    if (normal === '' || normal === '.' || normal.startsWith('../') || normal === '..') {
        throw new RestoreRefused(`${JSON.stringify(file)} is not a path inside the repository ${root}`);
    }
    return normal;
}

export { RestoreRefused, normalizeRepoPath, restoreCheckpoint, revertPaths };
