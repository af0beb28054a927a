import { typedText } from './sanitize-C-XaPVOa.js';

/** A reason typed into a TUI must stay one prompt: long enough to be useful, no keys smuggled in. */
const MAX_TYPED_CHARS = 4000;
function planContinuation(adapter, state) {
    if (adapter !== 'generic' && state.nativeHooks)
        return { kind: 'native' };
    if (state.running && state.mode === 'pty')
        return { kind: 'type-into-pty', text: typedPrompt(state.reasons) };
    if (state.continueCommand && state.continueCommand.length > 0) {
        const message = continuationMessage(state.reasons);
        return {
            kind: 'rerun',
            command: continueCommand(state.continueCommand, {
                message,
                round: state.round,
                agentSession: state.agentSession ?? null,
                history: state.history,
            }),
        };
    }
    if (state.running) {
        return {
            kind: 'none',
            why: 'the agent runs without a terminal (pipe mode) and agent.continue is not set',
        };
    }
    return { kind: 'none', why: 'the agent has exited and agent.continue is not set in proctor.yml' };
}
/** The message the agent reads: which hooks blocked and why. */
function continuationMessage(reasons) {
    const body = reasons.length > 0 ? reasons.map((reason) => `- ${reason}`).join('\n') : '- (no reason given)';
    return `proctor: the stop hooks did not pass, so the task is not finished yet. Fix these and continue:\n${body}`;
}
/**
 * Text typed into an interactive agent: one line (a newline or ESC inside a reason could submit early or
 * press keys), capped, ending with Enter (\r).
 */
function typedPrompt(reasons) {
    return `${typedLine(reasons)}\r`;
}
/** typedPrompt without the Enter: the text proctor pastes before pressing Enter on its own. */
function typedLine(reasons) {
    return typedText(continuationMessage(reasons), MAX_TYPED_CHARS);
}
/** In agent.continue: the agent CLI's own session id, so a continuation resumes that conversation. */
const AGENT_SESSION_PLACEHOLDER = '{agent_session}';
/**
 * agent.continue with `{reason}`, `{round}` and `{agent_session}` filled in; each template element stays
 * exactly one argv element. Without a session to resume, the element holding `{agent_session}` is left
 * out together with the one before it (its option or subcommand: `--resume`, `resume`) unless that is
 * the program: `[claude, --resume, "{agent_session}", -p, "{reason}"]` becomes a fresh `claude -p …`,
 * whose `{reason}` then starts with the history of the earlier rounds.
 */
function continueCommand(template, fill) {
    const resume = fill.agentSession !== null && fill.agentSession !== '';
    const message = !resume && fill.history ? `${fill.history}\n\n${fill.message}` : fill.message;
    const kept = [];
    for (const part of template) {
        if (!resume && part.includes(AGENT_SESSION_PLACEHOLDER)) {
            if (part === AGENT_SESSION_PLACEHOLDER && kept.length > 1)
                kept.pop();
            continue;
        }
        kept.push(part);
    }
    // One pass with a callback: a reason that itself contains "{round}" or "$&" stays literal.
    const argv = kept.map((part) => part.replace(/\{(reason|round|agent_session)\}/g, (_match, key) => key === 'reason' ? message : key === 'round' ? String(fill.round) : fill.agentSession));
    const [file, ...args] = argv;
    if (file === undefined)
        throw new Error('agent.continue must not be empty');
    return { file, args };
}
/** The message a continuation asked for by a person carries: who asked, and their words. */
function feedbackMessage(feedback, author) {
    const who = author ? `${author} reviewed your work and asks` : 'you are asked';
    return `proctor: ${who} to continue with this:\n${feedback}`;
}

export { continueCommand as a, continuationMessage as c, feedbackMessage as f, planContinuation as p, typedLine as t };
