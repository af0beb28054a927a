import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { f as formatDuration } from './units-B5hbnLVp.js';

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

export { FirstSnapshotWatch as F, describeSnapshotProgress as d };
