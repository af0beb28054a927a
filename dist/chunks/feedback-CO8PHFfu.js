import { typedText } from './sanitize-C-XaPVOa.js';

/** Caps a violation's text: a reason must stay readable inside one typed prompt. */
const MAX_REASON_CHARS = 600;
function line(v) {
    const text = `${v.message}. ${v.suggestion}`;
    return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}
/** The `policy` gate's reasons, labelled like a stop hook's ("policy: …"). */
function policyReasons(blocking) {
    return blocking.map((v) => `policy: ${v.severity} ${v.constraint}: ${line(v)}`);
}
/** Warnings sent back along with a blocked stop; they do not block by themselves. */
function warningReasons(warnings) {
    return warnings.map((v) => `policy warning (${v.constraint}, does not block): ${line(v)}`);
}
/** One line for an interactive agent's prompt: no control characters, capped, ending with Enter. */
function typedNotice(warnings, maxChars = 4000) {
    const text = typedText(`proctor: policy warnings about your changes (they do not stop you; please fix them): ${warnings
        .map((v) => `[${v.constraint}] ${line(v)}`)
        .join(' ')}`, maxChars);
    return `${text}\r`;
}

export { policyReasons as p, typedNotice as t, warningReasons as w };
