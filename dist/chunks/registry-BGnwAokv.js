const { readdirSync, readFileSync, writeFileSync, renameSync, rmSync, statSync, mkdirSync } = process.getBuiltinModule("node:fs");
const { join } = process.getBuiltinModule("node:path");
import { r as randomHex } from './random-7L-6N3dY.js';
const { spawnSync } = process.getBuiltinModule("node:child_process");
const { constants, hostname } = process.getBuiltinModule("node:os");

// Identity and liveness of processes and process groups, without scanning the process table.
// A pid alone is not an identity (pids are reused); pid + start time on this boot is.
let bootIdCache;
function linuxBootId() {
    if (bootIdCache === undefined) {
        try {
            bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
        }
        catch {
            bootIdCache = '';
        }
    }
    return bootIdCache;
}
/** Fields of /proc/<pid>/stat; the command name may hold spaces and ')' so split after the last ')'. */
function readLinuxStat(pid) {
    let text;
    try {
        text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    }
    catch {
        return null;
    }
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state); field N is rest[N - 3].
    const state = rest[0];
    const ppid = Number(rest[1]);
    const pgrp = Number(rest[2]);
    const startTicks = rest[19];
    if (state === undefined || startTicks === undefined)
        return null;
    return { state, ppid, pgrp, startTicks };
}
/**
 * A token that identifies the process `pid` for as long as it lives and never matches a later
 * process that reuses the pid. Linux: boot id + start time in clock ticks (field 22 of
 * /proc/<pid>/stat); elsewhere: `ps -o lstart=` (one-second resolution). Null when the process is gone.
 */
function processStartToken(pid) {
    if (!Number.isInteger(pid) || pid <= 0)
        return null;
    if (process.platform === 'linux') {
        const stat = readLinuxStat(pid);
        return stat ? `linux:${linuxBootId()}:${stat.startTicks}` : null;
    }
    const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
    const started = ps.status === 0 ? ps.stdout.trim() : '';
    return started ? `ps:${started}` : null;
}
/** Whether a process with this pid exists (zombies included; EPERM means it exists but isn't ours). */
function pidExists(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/** Whether `pid` is a live child of this process (where we can't tell: whether it exists). */
function isOwnLiveChild(pid) {
    if (process.platform !== 'linux')
        return pidExists(pid);
    const stat = readLinuxStat(pid);
    return stat !== null && stat.ppid === process.pid && stat.state !== 'Z' && stat.state !== 'X';
}
/** Whether any process (zombies included) is still in process group `pgid`. */
function groupExists(pgid) {
    return signalGroup(pgid, 0);
}
/**
 * Whether group `pgid` still has a member that is not a zombie. A killed grandchild stays a zombie
 * until init reaps it, which in containers can take seconds or never happen (no init), so
 * `kill(-pgid, 0)` alone would make every stop wait out its grace and report a needless SIGKILL.
 * On Linux the zombies are told apart by reading /proc — a read-only check: signals still only go
 * to the group id, never to pids found here.
 */
function groupHasLiveMembers(pgid) {
    if (!groupExists(pgid))
        return false;
    if (process.platform !== 'linux')
        return true;
    let entries;
    try {
        entries = readdirSync('/proc');
    }
    catch {
        return true;
    }
    for (const entry of entries) {
        const first = entry.charCodeAt(0);
        if (first < 48 || first > 57)
            continue;
        const stat = readLinuxStat(Number(entry));
        if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
            return true;
    }
    return false;
}
/**
 * Sends `signal` to every process in group `pgid`. Returns false when the group is empty (ESRCH).
 * Refuses pgid <= 1: `kill(-1)` would signal every process we may signal, `kill(0)` our own group.
 */
function signalGroup(pgid, signal) {
    if (!Number.isInteger(pgid) || pgid <= 1)
        throw new Error(`refusing to signal process group ${pgid}`);
    try {
        process.kill(-pgid, signal);
        return true;
    }
    catch (error) {
        const code = error.code;
        if (code === 'ESRCH')
            return false;
        // EPERM: some member is not ours (e.g. setuid); nothing more we may do to it.
        if (code === 'EPERM')
            return true;
        throw error;
    }
}
const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, num]) => [num, name]));
/** `15` → `'SIGTERM'`; unknown numbers map to null. */
function signalName(num) {
    return SIGNAL_NAMES.get(num) ?? null;
}
function hostName() {
    return hostname();
}
/**
 * The live (non-zombie) members of group `pgid`, read from /proc; null where /proc is not available.
 * Read-only: used to prove whose processes a group holds before it is signalled.
 */
function liveGroupMembers(pgid) {
    if (process.platform !== 'linux')
        return null;
    let entries;
    try {
        entries = readdirSync('/proc');
    }
    catch {
        return null;
    }
    const members = [];
    for (const entry of entries) {
        const first = entry.charCodeAt(0);
        if (first < 48 || first > 57)
            continue;
        const stat = readLinuxStat(Number(entry));
        if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
            members.push({ pid: Number(entry), startTicks: BigInt(stat.startTicks) });
    }
    return members;
}
/** Whether the process started with `NAME=value` in its environment (Linux /proc/<pid>/environ). */
function processEnvironmentHas(pid, entry) {
    try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry);
    }
    catch {
        return false;
    }
}
/** The current process group of `pid` (Linux: /proc; elsewhere `ps -o pgid=`); null when it is gone. */
function processGroupOf(pid) {
    if (process.platform === 'linux')
        return readLinuxStat(pid)?.pgrp ?? null;
    const ps = spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' });
    const pgid = Number(ps.stdout.trim());
    return ps.status === 0 && Number.isInteger(pgid) && pgid > 0 ? pgid : null;
}
/** The boot id and start ticks inside a Linux start token; null for other tokens. */
function parseLinuxStartToken(token) {
    const match = /^linux:([^:]*):(\d+)$/.exec(token ?? '');
    return match ? { boot: match[1], ticks: BigInt(match[2]) } : null;
}
function currentBootId() {
    return linuxBootId();
}

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
/** Write-then-rename so a crash never leaves a half-written record behind. */
function writeRecord(stateDir, record) {
    const path = recordPath(stateDir, record.id);
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`);
    renameSync(temp, path);
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
            const text = readFileSync(join(runsDir(stateDir), name), 'utf8');
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

export { RUN_TOKEN_ENV as R, recordSpawn as a, recordExit as b, signalTarget as c, pruneFinished as d, ensureRunsDir as e, groupHasLiveMembers as g, isOwnLiveChild as i, liveSessions as l, pidExists as p, reconcileOrphans as r, signalName as s, terminateGroup as t };
