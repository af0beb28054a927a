const { join } = process.getBuiltinModule("node:path");
import { f as feedbackMessage, a as continueCommand } from './continue-CWf2Yz5i.js';
import { a as isAgentSessionId, b as agentSessionStored } from './session-BRW2EmEt.js';
import { d as describeCommand } from './run-hook-DNdEhNsA.js';
import { o as readRegularFile } from './checkpoints-create-CJcO-Brq.js';
import { c as cleanTask } from './trigger-BvHsmMSw.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';
import './git-blockers-Dy_7XOmu.js';

import './summary-BBJud0Oe.js';
import './registry-DMAlOnZf.js';
import './payloads-CTBGsIwZ.js';
import './events-C_YfI5y8.js';

import './process-oa2MkSfe.js';



import './exit-DPvLwpPv.js';

import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';
import './commonjs-helpers-Bgu_3bK-.js';


import './feedback-CO8PHFfu.js';
import './errors-lvn-GX78.js';
import './context-D-q0CQle.js';

// A later round of a session that ended: `proctor run --continue <session> --task "<feedback>"` (and the
// action's `/proctor continue`). The agent gets the feedback as the next round of the same session, resuming
// its CLI's own conversation by id where the CLI still has it (agent.continue with `{agent_session}`), and
// otherwise as a fresh agent told what the earlier rounds did (a new CI machine has no session store).
/** report.json files are a few MB at most (events are capped); more is not one of proctor's. */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;
/** More rounds than any chain of continuations makes (each run has at most max_stop_rounds, 20). */
const MAX_ROUNDS = 100_000;
/** How many changed paths and reasons the history names before it says "and N more". */
const LISTED = 30;
class ResumeError extends Error {
    name = 'ResumeError';
}
/** The session's report.json under `.proctor/sessions/<id>/`, or a ResumeError naming what is missing. */
function readContinuing(sessionsDir, sessionId) {
    const path = join(sessionsDir, sessionId, 'report.json');
    let previous;
    try {
        previous = JSON.parse(readRegularFile(path, REPORT_MAX_BYTES).toString('utf8'));
    }
    catch (error) {
        throw new ResumeError(`cannot continue session ${sessionId}: ${error.message}; continue a session that ran in this ` +
            'repository (`ls .proctor/sessions`), or start a new one without --continue');
    }
    if (!isReport(previous) || previous.session_id !== sessionId)
        throw new ResumeError(`cannot continue session ${sessionId}: ${path} is not that session's report`);
    const rounds = Number.isInteger(previous.rounds) && previous.rounds > 0 ? previous.rounds : 1;
    return { sessionId, previous, firstRound: rounds + 1 };
}
/**
 * The fields a continuation reads, in the types the history and the resume expect: report.json sits where
 * the agent can write, and a planted one must fail here, with its path named, not deep in a template.
 */
function isReport(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const r = value;
    const strings = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
    return (typeof r.session_id === 'string' &&
        strings(r.command) &&
        Array.isArray(r.stop_hooks) &&
        Array.isArray(r.checkpoints) &&
        r.checkpoints.every((c) => typeof c === 'object' && c !== null && strings(c.files_changed)) &&
        (r.agent_session_id === undefined || typeof r.agent_session_id === 'string') &&
        // A round count proctor could have written: 2^53 would never grow (n + 1 === n), and max_stop_rounds,
        // counted from it, would never be reached.
        (r.rounds === undefined || (Number.isSafeInteger(r.rounds) && r.rounds <= MAX_ROUNDS)) &&
        (r.reason === null || r.reason === undefined || typeof r.reason === 'string'));
}
/** A stop-hook result as proctor writes one (the earlier rounds' are read from a file the agent can write). */
function isStopHookResult(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const r = value;
    return (typeof r.name === 'string' &&
        (r.verdict === 'allow' || r.verdict === 'block' || r.verdict === 'error') &&
        (r.reason === null || r.reason === undefined || typeof r.reason === 'string') &&
        Number.isInteger(r.round) &&
        r.round >= 1);
}
/**
 * The earlier rounds' stop-hook results this run's report keeps. report.json sits where the agent can
 * write, so only well-formed results of rounds before this run's first are taken: a planted one can never
 * pass for this run's latest round.
 */
function earlierResults(continuing) {
    return continuing.previous.stop_hooks.filter((r) => isStopHookResult(r) && r.round < continuing.firstRound);
}
/**
 * How the next round starts: agent.continue with `{agent_session}` as the CLI's own session when it still
 * has it, else that template without the resume (or, with no template, the session's command with
 * `{task}`) told what happened so far.
 */
function planResume(o) {
    const { previous, firstRound } = o.continuing;
    const message = feedbackMessage(o.feedback, o.author);
    const history = summarizeRounds(previous);
    const id = previous.agent_session_id;
    const template = o.config.agent.continue;
    const freshTask = cleanTask(`${history}\n\n${message}`);
    let resumed = null;
    let why;
    if (!template || template.length === 0)
        why = 'agent.continue is not set: a fresh agent told what the earlier rounds did';
    else if (!id)
        why = 'the earlier rounds named no session of the agent: a fresh agent told what they did';
    else if (!isAgentSessionId(id))
        why = `the recorded agent session ${JSON.stringify(id.slice(0, 80))} is not an id: a fresh agent told what the earlier rounds did`;
    else if (agentSessionStored(o.config.agent.adapter, id, o.env) === false)
        why = `${o.config.agent.adapter}'s session store here has no session ${id} (a new machine?): a fresh agent told what the earlier rounds did`;
    else {
        resumed = id;
        why = `resuming ${o.config.agent.adapter}'s own session ${id}`;
    }
    const command = template && template.length > 0
        ? continueCommand(template, {
            message: cleanTask(message),
            round: firstRound,
            agentSession: resumed,
            history: cleanTask(history),
        })
        : null;
    return { command, resumed, freshTask, why };
}
/**
 * The earlier rounds in words, for an agent that cannot read their conversation: how the session was started,
 * what each round's stop hooks said, how it ended and which files the work changed. Text from the report
 * (hook reasons) is the agent's and the hooks' output: the caller cleans it (cleanTask) like a task.
 */
function summarizeRounds(report, o = { ended: true }) {
    const lines = [
        `proctor: this continues session ${report.session_id}. Earlier runs of the agent worked on it in this ` +
            'repository (their changes are in the working tree); their conversation is not available to you, so ' +
            'here is what happened:',
        `- the agent was started as: ${cap(describeCommand(report.command), 2000)}`,
    ];
    const byRound = new Map();
    // Advisory hooks report; they never ask the agent for anything, so they are not retold to it.
    for (const hook of report.stop_hooks.filter(isStopHookResult).filter((h) => !h.advisory)) {
        const said = hook.verdict === 'allow' ? 'passed' : `${hook.verdict}: ${cap(hook.reason ?? 'no reason', 500)}`;
        byRound.set(hook.round, [...(byRound.get(hook.round) ?? []), `${hook.name} ${said}`]);
    }
    for (const [round, said] of [...byRound].sort(([a], [b]) => a - b).slice(-LISTED))
        lines.push(`- round ${round}, the stop hooks: ${said.join('; ')}`);
    // (A session still running, re-running its agent, has no ending to tell.)
    if (o.ended)
        lines.push(`- it ended ${report.status}, verdict ${report.verdict}${report.reason ? ` (${cap(report.reason, 500)})` : ''}`);
    const changed = [...new Set(report.checkpoints.flatMap((c) => c.files_changed))];
    if (changed.length > 0)
        lines.push(`- files changed: ${changed.slice(0, LISTED).join(', ')}${changed.length > LISTED ? ` and ${changed.length - LISTED} more` : ''}`);
    return lines.join('\n');
}
function cap(text, max) {
    return text.length > max ? `${text.slice(0, max)}…` : text;
}

export { ResumeError, earlierResults, planResume, readContinuing, summarizeRounds };
