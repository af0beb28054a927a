import { K as CHECKPOINT_REF_PREFIX, L as splitNul, v as parseCheckpointMessage } from './checkpoints-create-CJcO-Brq.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';

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
 * `<session>@latest`, `@<seq>` (of the newest session), `<session>`, or a (short) commit id. Errors say
 * what exists instead.
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
    // `@<seq>` alone, as `checkpoints list` prints it under each session: the newest session's.
    if (at === 0 && sessions.length === 0)
        throw new Error('there are no checkpoints in this repository yet (no refs/proctor/* refs)');
    if (at >= 0) {
        const session = at === 0 ? sessions[0].session : id.slice(0, at);
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
        throw new Error(`"${id}" is not a checkpoint: use <session>@<seq>, @<seq>, <session>, a commit id, or latest; ${sessionHint(sessions)}`);
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

export { listCheckpoints, listSessions, readCheckpoint, resolveCheckpoint };
