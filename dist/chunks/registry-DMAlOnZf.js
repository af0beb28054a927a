const { readdirSync, rmSync, statSync, mkdirSync } = process.getBuiltinModule("node:fs");
import { y as signalGroup, z as groupHasLiveMembers, A as hostName, o as readRegularFile, B as pidExists, C as processStartToken, D as liveGroupMembers, E as parseLinuxStartToken, F as currentBootId, H as processEnvironmentHas, w as writeFileAtomic, I as processGroupOf, J as randomHex } from './checkpoints-create-CJcO-Brq.js';
const { join } = process.getBuiltinModule("node:path");

// Stopping a whole process group: the only way proctor ends processes. Never by name, never by
// scanning the process table: the group id is the leader's pid, which we spawned ourselves.
const POLL_MS = 50;
const KILL_SETTLE_MS = 1000;
/** Signals the group (or, before it exists, its live leader). Returns false when nobody was there. */
function signalTarget(target, signal) {
    if (signalGroup(target.pgid, signal))
        return true;
    if (!target.leaderAlive?.())
        return false;
    try {
        process.kill(target.pgid, signal);
        return true;
    }
    catch {
        return false;
    }
}
function targetAlive(target) {
    return groupHasLiveMembers(target.pgid) || target.leaderAlive?.() === true;
}
/** Resolves true when no live member is left in the group, or false once `deadline` passes. */
async function waitGroupGone(target, deadline) {
    // No event tells us when processes that are not our children die, so poll with a deadline.
    while (Date.now() < deadline) {
        if (!targetAlive(target))
            return true;
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
    }
    return !targetAlive(target);
}
/** SIGTERM (+SIGCONT: a stopped group cannot act on it) → grace → SIGKILL. Returns whether KILL was sent. */
async function terminateGroup(target, graceMs) {
    if (!signalTarget(target, 'SIGTERM'))
        return false;
    signalTarget(target, 'SIGCONT');
    if (await waitGroupGone(target, Date.now() + graceMs))
        return false;
    if (!signalTarget(target, 'SIGKILL'))
        return false;
    // SIGKILL is delivered at once but dying is not: a member inside a syscall (a write, say) finishes
    // it first. Callers act on "stopped" (e.g. the final checkpoint), so wait briefly for the deaths.
    await waitGroupGone(target, Date.now() + KILL_SETTLE_MS);
    return true;
}

// Run records on disk: <stateDir>/runs/<id>.json, one per process proctor started with a registry.
// If proctor is SIGKILLed, its agent keeps running (a PTY child that ignores SIGHUP, or any pipe
// child); the next start finds the record whose owner is gone and reaps the group — but only after
// proving that the group's processes are the very ones we started. The record lives where the agent can
// write (.proctor/runs/), so it is only a claim: each run gets a random token in its environment
// (PROCTOR_RUN_TOKEN), and a group is signalled only when every live member carries the record's token
// and started no earlier than the recorded leader. A forged record naming someone else's group proves
// nothing, and a child that outlived its leader (it ignored SIGHUP) is still found and stopped.
/**
 * Records of finished runs (exited, crashed, reaped) are kept this long for the audit trail, and at most
 * KEEP_FINISHED of them, newest first; a laptop that runs proctor every day must not collect them forever.
 */
const FINISHED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const KEEP_FINISHED = 200;
/** Environment variable carrying a run's token to the process and everything it starts. */
const RUN_TOKEN_ENV = 'PROCTOR_RUN_TOKEN';
function runsDir(stateDir) {
    return join(stateDir, 'runs');
}
/** Creates <stateDir>/runs; called before spawning so a bad state dir fails before any process starts. */
function ensureRunsDir(stateDir) {
    try {
        mkdirSync(runsDir(stateDir), { recursive: true });
    }
    catch (error) {
        throw new Error(`cannot create the run registry at ${runsDir(stateDir)}: ${error.message}`, {
            cause: error,
        });
    }
}
let ownerCache;
function owner() {
    ownerCache ??= { pid: process.pid, start: processStartToken(process.pid), host: hostName() };
    return ownerCache;
}
function recordPath(stateDir, id) {
    return join(runsDir(stateDir), `${id}.json`);
}
/** A record is a few hundred bytes; anything much larger is not one. */
const RECORD_MAX_BYTES = 64 * 1024;
/**
 * Write-then-rename so a crash never leaves a half-written record behind; the temp name is random and
 * opened exclusively (writeFileAtomic), so a FIFO or symlink planted at a predictable name is never opened.
 */
function writeRecord(stateDir, record) {
    writeFileAtomic(recordPath(stateDir, record.id), `${JSON.stringify(record, null, 2)}\n`);
}
/** Records a freshly spawned process (its pgid is its pid: every child we start leads its group). */
function recordSpawn(stateDir, run) {
    const me = owner();
    const record = {
        version: 1,
        id: `${Date.now().toString(36)}-${run.pid}-${randomHex(3)}`,
        pid: run.pid,
        pgid: run.pid,
        start: processStartToken(run.pid),
        ...(run.token ? { token: run.token } : {}),
        host: me.host,
        role: run.role,
        session: run.session ?? null,
        label: run.label,
        executable: run.executable,
        owner: me,
        state: 'running',
        started_at: new Date().toISOString(),
    };
    writeRecord(stateDir, record);
    return record;
}
function recordExit(stateDir, record, exit) {
    writeRecord(stateDir, {
        ...record,
        state: 'exited',
        ended_at: new Date().toISOString(),
        exit: { exit_code: exit.exitCode, signal: exit.signal, stopped_by: exit.stoppedBy, killed: exit.killed },
    });
}
/**
 * The run records in <stateDir>/runs, or only those in `state`: a file whose text does not hold that
 * state's JSON string cannot be one of them and is not parsed (a laptop keeps up to KEEP_FINISHED finished
 * records, and every session start looks for the running ones before its agent may start).
 */
function readRecords(stateDir, state) {
    let names;
    try {
        names = readdirSync(runsDir(stateDir));
    }
    catch {
        return [];
    }
    const records = [];
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
        try {
            // The agent can write this directory: a FIFO or /dev/zero named *.json is skipped, never read.
            const text = readRegularFile(join(runsDir(stateDir), name), RECORD_MAX_BYTES).toString('utf8');
            if (state !== undefined && !text.includes(`"${state}"`))
                continue;
            const parsed = JSON.parse(text);
            if (state !== undefined && parsed.state !== state)
                continue;
            if (parsed.version === 1 && Number.isInteger(parsed.pid) && Number.isInteger(parsed.pgid))
                records.push(parsed);
        }
        catch {
            // A foreign or corrupt file is not ours to act on.
        }
    }
    return records;
}
/** Sessions with a running record whose owner (a proctor) is still alive. */
function liveSessions(stateDir) {
    const live = new Set();
    for (const record of readRecords(stateDir, 'running')) {
        if (record.session && record.host === hostName() && ownerAlive(record))
            live.add(record.session);
    }
    return live;
}
function ownerAlive(record) {
    if (!pidExists(record.owner.pid))
        return false;
    // Alive but started at another time: the owner died and its pid was reused.
    return record.owner.start === null || processStartToken(record.owner.pid) === record.owner.start;
}
/**
 * Reaps processes left behind by a proctor that died: for each `running` record on this host whose
 * owner is gone, kills the recorded group if (and only if) its leader is still the same process
 * (same start time), then marks the record `reaped` or `crashed`. Records of live owners and of
 * other hosts are left alone. Returns what was done, one entry per acted-on record. Then prunes the
 * finished records (pruneFinished), unless `prune` is false: a session does that once its agent started.
 */
async function reconcileOrphans(stateDir, opts = {}) {
    const graceMs = opts.graceMs ?? 5000;
    const host = hostName();
    const outcomes = [];
    for (const record of readRecords(stateDir, 'running')) {
        if (record.host !== host || ownerAlive(record))
            continue;
        const action = await reapIfProven(record, graceMs);
        const killed = action === 'killed';
        const outcome = killed ? 'reaped' : action;
        const note = {
            reaped: `owner ${record.owner.pid} was gone; group ${record.pgid} stopped${killed ? ' (SIGKILL after grace)' : ''}`,
            gone: `owner ${record.owner.pid} was gone and so was the process`,
            pid_reused: `owner ${record.owner.pid} was gone; pid ${record.pid} now belongs to another process, left alone`,
            unproven: `owner ${record.owner.pid} was gone; group ${record.pgid} holds processes not proven to be this run's, left alone`,
        }[outcome];
        writeRecord(stateDir, {
            ...record,
            state: outcome === 'reaped' ? 'reaped' : 'crashed',
            ended_at: new Date().toISOString(),
            note,
        });
        outcomes.push({
            id: record.id,
            pid: record.pid,
            pgid: record.pgid,
            role: record.role,
            session: record.session,
            label: record.label,
            action: outcome,
            killed,
        });
    }
    if (opts.prune !== false)
        pruneFinished(stateDir);
    return outcomes;
}
/**
 * Stops the recorded group only if it is provably this run's; returns what happened ('killed' when
 * SIGKILL was needed after the grace period).
 */
async function reapIfProven(record, graceMs) {
    const members = liveGroupMembers(record.pgid);
    if (members === null)
        return reapByLeader(record, graceMs); // no /proc: the leader's identity is all we have
    if (members.length === 0)
        return 'gone';
    const start = parseLinuxStartToken(record.start);
    if (!record.token || !start) {
        const current = processStartToken(record.pid);
        return current !== null && current !== record.start ? 'pid_reused' : 'unproven';
    }
    const sameBoot = start.boot === currentBootId();
    const entry = `${RUN_TOKEN_ENV}=${record.token}`;
    const ours = members.filter((m) => (!sameBoot || m.startTicks >= start.ticks) && processEnvironmentHas(m.pid, entry));
    if (ours.length === 0)
        return 'pid_reused';
    if (ours.length < members.length)
        return 'unproven';
    return (await terminateGroup({ pgid: record.pgid }, graceMs)) ? 'killed' : 'reaped';
}
/** Where members cannot be listed: the recorded leader must be the same process, still in the group. */
async function reapByLeader(record, graceMs) {
    const current = processStartToken(record.pid);
    if (current === null)
        return 'gone';
    if (record.start === null || current !== record.start)
        return 'pid_reused';
    if (processGroupOf(record.pid) !== record.pgid)
        return 'unproven';
    return (await terminateGroup({ pgid: record.pgid }, graceMs)) ? 'killed' : 'reaped';
}
/**
 * Deletes records of finished runs older than the retention or beyond the newest `keep`, and temp files
 * a crash left mid-write. `running` records are never touched: they are what reaping depends on.
 * Returns the ids deleted.
 */
function pruneFinished(stateDir, opts = {}) {
    const now = opts.now ?? Date.now();
    const retentionMs = opts.retentionMs ?? FINISHED_RETENTION_MS;
    const keep = opts.keep ?? KEEP_FINISHED;
    const finished = readRecords(stateDir)
        .filter((record) => record.state !== 'running')
        .map((record) => ({ id: record.id, ended: Date.parse(record.ended_at ?? record.started_at) || 0 }))
        .sort((a, b) => b.ended - a.ended);
    const doomed = finished.filter((run, index) => index >= keep || now - run.ended > retentionMs);
    for (const run of doomed)
        rmSync(recordPath(stateDir, run.id), { force: true });
    try {
        for (const name of readdirSync(runsDir(stateDir))) {
            if (!name.endsWith('.tmp'))
                continue;
            const file = join(runsDir(stateDir), name);
            if (now - statSync(file).mtimeMs > 60 * 60 * 1000)
                rmSync(file, { force: true });
        }
    }
    catch {
        // No runs dir yet: nothing to prune.
    }
    return doomed.map((run) => run.id);
}

export { RUN_TOKEN_ENV as R, recordSpawn as a, recordExit as b, ensureRunsDir as e, liveSessions as l, pruneFinished as p, reconcileOrphans as r, signalTarget as s, terminateGroup as t };
