const { posix } = process.getBuiltinModule("node:path");
import { d as distExports } from './yaml-DFf8_hI8.js';

// CI whose definition the agent changed: what the `ci-checks` hook must not trust, and what the push queue
// must not push (push.ts: it would run with the repository's secrets). GitHub runs the workflows
// of the commit it was given (the pushed commit for `push`, the merge commit for `pull_request`), so a
// checkpoint that rewrites a required job to `run: "true"`, adds a workflow reporting a check of the same
// name, or edits a local action a workflow `uses:` makes CI green without the work passing. This lists the
// paths of the workflow definitions the agent changed since the session's baseline (checkpoint 0: the
// worktree as the user left it), so the hook blocks before it pushes, and the queue keeps such a checkpoint
// local. docs/hooks.md#the-prs-ci-as-a-stop-hook, docs/checkpoints.md#guarantees.
/** Where GitHub reads workflows, and where local actions conventionally live. */
const DEFINITION_DIRS = ['.github/workflows', '.github/actions'];
/** The files that define an action in a directory (`uses: ./` names the repository's root). */
const ACTION_FILES = ['action.yml', 'action.yaml', 'Dockerfile'];
/** A workflow file holding more than this is no workflow a person wrote: its `uses:` are not read. */
const MAX_WORKFLOW = 1024 * 1024;
/**
 * The paths changed between `baseline` (null: an unborn HEAD, the empty tree) and `sha` that define what
 * CI runs: anything under .github/workflows/ or .github/actions/, and the files of each local action
 * (`uses: ./dir`) a workflow names on either side. Sorted by path; empty when the agent left CI as it was.
 */
async function changedWorkflowDefinitions(git, baseline, sha) {
    const from = baseline ?? (await git.emptyTree());
    // Without rename detection, a moved file is its old path deleted and its new path added: both count.
    const { raw } = await git.diffTreeZ(from, sha, { renames: false });
    if (raw.length === 0)
        return [];
    const actionDirs = await localActionDirs(git, [from, sha]);
    // A path inside a definition directory, or one of its parents (`.github` turned into a symlink or a file).
    const within = (path, dir) => `${path}/`.startsWith(`${dir}/`) || dir.startsWith(`${path}/`);
    const defines = (path) => DEFINITION_DIRS.some((dir) => within(path, dir)) ||
        actionDirs.some((dir) => (dir === '' ? ACTION_FILES.includes(path) : within(path, dir)));
    return raw
        .filter((entry) => defines(entry.path))
        .map((entry) => ({ path: entry.path, added: entry.status === 'A' }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
/**
 * The directories (repository-relative, '' for the root) of the local actions CI runs from `trees`: the ones
 * the workflows name in `uses: ./…`, and the ones those actions (and the actions under .github/actions) name
 * in their own `uses:` — a composite action's step can be another local action, anywhere in the repository.
 */
async function localActionDirs(git, trees) {
    const dirs = new Set();
    const read = new Set();
    const definitions = async (paths, isDefinition) => {
        const blobs = new Set();
        for (const tree of trees) {
            for (const entry of await git.lsTree(tree, paths)) {
                if (entry.type === 'blob' && isDefinition(entry.path) && (entry.size ?? 0) <= MAX_WORKFLOW)
                    if (!read.has(entry.sha))
                        blobs.add(entry.sha);
            }
        }
        const found = [];
        for (const sha of blobs)
            read.add(sha);
        for (const blob of await git.readBlobs([...blobs])) {
            if (blob)
                for (const dir of usesLocal(blob.toString('utf8')))
                    if (!dirs.has(dir))
                        found.push(dir);
        }
        for (const dir of found)
            dirs.add(dir);
        return [...new Set(found)];
    };
    const isAction = (path) => ACTION_FILES.slice(0, 2).includes(path.split('/').at(-1));
    let next = await definitions(DEFINITION_DIRS, (path) => path.startsWith(`${DEFINITION_DIRS[0]}/`) ? /\.ya?ml$/.test(path) : isAction(path));
    // Each round reads the action files of the directories the last one found; `read` ends a cycle.
    while (next.length > 0) {
        // A directory reached through a symlink (`tools -> ci`) is the link's target in GitHub's checkout.
        for (const dir of [...next]) {
            for (const tree of trees) {
                const real = await throughLink(git, tree, dir);
                if (real !== null && !dirs.has(real)) {
                    dirs.add(real);
                    next.push(real);
                }
            }
        }
        const files = next.flatMap((dir) => ACTION_FILES.slice(0, 2).map((f) => (dir ? `${dir}/${f}` : f)));
        next = await definitions(files, isAction);
    }
    return [...dirs];
}
/**
 * Where `dir` is in `tree` when one of its components is a symlink inside the repository (GitHub's checkout
 * makes the link, and the runner reads the action through it): the target with the rest of the path; null
 * when none is, or when it points outside the repository.
 */
async function throughLink(git, tree, dir) {
    if (dir === '')
        return null;
    const parts = dir.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    const link = (await git.lsTree(tree, prefixes, { recursive: false }))
        .filter((entry) => entry.mode === '120000' && prefixes.includes(entry.path))
        .sort((a, b) => a.path.length - b.path.length)[0];
    if (!link)
        return null;
    const [target] = await git.readBlobs([link.sha]);
    const to = target?.toString('utf8') ?? '';
    if (to === '' || to.startsWith('/'))
        return null;
    const real = posix.normalize(posix.join(posix.dirname(link.path), to + dir.slice(link.path.length)));
    if (real === '..' || real.startsWith('../'))
        return null;
    return real === '.' ? '' : real.replace(/\/+$/, '');
}
/**
 * The local paths a workflow's or an action's `uses:` name (`uses: ./tools/setup`, `- uses: "./"`),
 * normalized to a repository-relative directory without `./`, `..` or a trailing slash. Read twice: as
 * YAML (a quoted key, an escape, a folded scalar, an alias are what GitHub reads) and lexically (a `uses:`
 * inside a block scalar, a file that does not parse): either finding counts, which only widens what is
 * protected.
 */
function usesLocal(text) {
    const named = [];
    for (const match of text.matchAll(/(?:^|[\s{,-])uses\s*:\s*['"]?(\.\/[^\s'"#@,}]*)/gm))
        named.push(match[1]);
    try {
        for (const doc of distExports.parseAllDocuments(text, { merge: true }))
            collectUses(doc.toJS({ maxAliasCount: 1000 }), named, 0);
    }
    catch {
        // Not YAML GitHub could run (or an alias bomb): the lexical reading stands.
    }
    const found = new Set();
    for (const uses of named) {
        const local = /^\.\/([^@]*)/.exec(uses.trim());
        if (!local)
            continue;
        const dir = posix.normalize(`./${local[1]}`).replace(/\/+$/, '');
        if (dir === '..' || dir.startsWith('../'))
            continue; // outside the repository: nothing of it to protect
        found.add(dir === '.' ? '' : dir);
    }
    return [...found];
}
/** Every string value of a `uses` key, at any depth. */
function collectUses(value, into, depth) {
    if (depth > 64 || value === null || typeof value !== 'object')
        return;
    if (value instanceof Map) {
        for (const [key, v] of value) {
            if (key === 'uses' && typeof v === 'string')
                into.push(v);
            else
                collectUses(v, into, depth + 1);
        }
        return;
    }
    for (const [key, v] of Object.entries(value)) {
        if (key === 'uses' && typeof v === 'string')
            into.push(v);
        else
            collectUses(v, into, depth + 1);
    }
}

export { changedWorkflowDefinitions as c };
