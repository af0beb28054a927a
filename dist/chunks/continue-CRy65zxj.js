import { typedText } from './sanitize-sKtkP4Sl.js';

/** A reason typed into a TUI must stay one prompt: long enough to be useful, no keys smuggled in. */
const MAX_TYPED_CHARS = 4000;
function planContinuation(adapter, state) {
    if (adapter !== 'generic' && state.nativeHooks)
        return { kind: 'native' };
    if (state.running && state.mode === 'pty')
        return { kind: 'type-into-pty', text: typedPrompt(state.reasons) };
    if (state.continueCommand && state.continueCommand.length > 0) {
        return { kind: 'rerun', command: continueCommand(state.continueCommand, state.reasons, state.round) };
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
/** agent.continue with `{reason}`/`{round}` filled in; each template element stays exactly one argv element. */
function continueCommand(template, reasons, round) {
    const reason = continuationMessage(reasons);
    // One pass with a callback: a reason that itself contains "{round}" or "$&" stays literal.
    const argv = template.map((part) => part.replace(/\{(reason|round)\}/g, (_match, key) => (key === 'reason' ? reason : String(round))));
    const [file, ...args] = argv;
    if (file === undefined)
        throw new Error('agent.continue must not be empty');
    return { file, args };
}

export { MAX_TYPED_CHARS, continuationMessage, continueCommand, planContinuation, typedLine, typedPrompt };
