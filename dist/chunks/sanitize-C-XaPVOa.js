import { s as secretForms } from './secret-forms-Ct3YzP3D.js';

// Everything untrusted (agent output, hook reasons, file names, messages) passes through here before it
// reaches GitHub or a log. One sanitizer per session: it knows the token and the masked values, and it
// remembers the token-shaped strings it found so the action can mask them (core.setSecret) too.
const REDACTED = '***';
/**
 * Token shapes worth redacting even when nobody told us about them. Each match's `secret` group (or the
 * whole match) is the value that gets replaced and reported for masking.
 */
const TOKEN_PATTERNS = [
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    /\bgh[pousr]_[A-Za-z0-9]{30,255}\b/g,
    /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
    /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
    /\bxox[abpr]-[A-Za-z0-9-]{10,}/g,
    /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    // An AWS secret access key: 40 characters of base64 standing alone. Git object ids are 40 hex digits,
    // so a value counts only with upper case, lower case and a digit in it (a random key nearly always has).
    /(?<![A-Za-z0-9/+])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    // Prefixed tokens of well-known services: Google API keys, Stripe, npm, PyPI, GitLab, Hugging Face,
    // SendGrid, Slack webhooks, Azure storage account keys.
    /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/g,
    /\bnpm_[A-Za-z0-9]{36}\b/g,
    /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g,
    /\bglpat-[A-Za-z0-9_-]{20,}/g,
    /\bhf_[A-Za-z0-9]{30,}\b/g,
    /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g,
    /(?<=\bhooks\.slack\.com\/(?:services|workflows)\/)[A-Za-z0-9/_-]{20,}/g,
    /(?<=\bAccountKey=)[A-Za-z0-9+/]{86}==/g,
    /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
    /(?<=\bauthorization:\s*(?:token|basic)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
    // Credentials embedded in URLs (https://x-access-token:TOKEN@github.com/...).
    /(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+(?=@)/gi,
];
// The one stripper of terminal escapes and control characters (the line view detectors read, logs,
// markdown, check runs, hook reasons). Node's util.stripVTControlCharacters does not fit: it
// leaves the payload of DCS/APC strings (sixel and kitty graphics), part of an OSC cut off by the end of
// a chunk, and every lone control character (BEL, backspace, bidi overrides) — see sanitize.test.ts.
//
// CSI (7- and 8-bit), OSC (BEL or ST terminated, or cut off), DCS/SOS/PM/APC strings, other ESC sequences.
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[ -/]*[0-~])|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls except \t, \n and \r, and the bidi marks and overrides that reorder what a reader sees.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NEEDS_STRIPPING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Removes escape sequences and control characters; \t, \n and \r stay (a line view gives \r its meaning). */
function stripTerminal(text) {
    return NEEDS_STRIPPING.test(text) ? text.replace(ESCAPES, '').replace(CONTROLS, '') : text;
}
/** Removes escape sequences and control characters; `\r\n` and lone `\r` become `\n`. */
function stripControl(text) {
    return stripTerminal(text).replace(/\r\n?/g, '\n');
}
// Every C0 control (a tab or newline too: one name, one line), DEL, C1 and the bidi marks.
const PATH_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/**
 * A file name as a terminal line may show it: as it is when it holds no control character, else
 * JSON-quoted with every control character (C0, C1, DEL, bidi marks) escaped, so a name can neither
 * forge a line nor send an escape sequence (window title, clipboard) to the reader's terminal.
 */
function printablePath(name) {
    if (!PATH_CONTROLS.test(name))
        return name;
    return JSON.stringify(name).replace(PATH_CONTROLS_LEFT, escapeChar);
}
/**
 * One line of text for a terminal (a hook's reason, a violation's message, which may quote file names):
 * every control character shown as its `\uXXXX` escape, so nothing in it acts on the terminal.
 */
function printableLine(text) {
    return PATH_CONTROLS.test(text) ? text.replace(PATH_CONTROLS_ALL, escapeChar) : text;
}
// What JSON.stringify leaves as it is: DEL, C1 and the bidi marks.
const PATH_CONTROLS_LEFT = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const PATH_CONTROLS_ALL = new RegExp(PATH_CONTROLS.source, 'g');
const escapeChar = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/**
 * OSC sequences only (window title, clipboard via OSC 52, hyperlinks): they act on a terminal, not on a
 * log. Live output keeps its colours, so this is all a log writer strips; cut-off ones go too.
 */
function stripOsc(text) {
    return text.replace(OSC, '');
}
const OSC = /(?:\u001b\]|\u009d)[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c|(?=\n)|$)/g;
/**
 * Text typed into an agent's prompt: one line (a newline or ESC inside could submit early or press keys),
 * blanks collapsed, at most `maxChars` characters (then `…`).
 */
function typedText(text, maxChars) {
    const flat = text
        .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
        .replace(/ {2,}/g, ' ')
        .trim();
    return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}
function createSanitizer(options) {
    // Longest first so a secret that contains another is replaced whole. Each also as it is written
    // URL-encoded or base64'd (a Basic header, a config file): those are the same secret.
    const given = options.secrets.filter((s) => s.trim().length >= 4);
    const secrets = [...new Set([...given, ...given.flatMap((s) => secretForms(s).map((f) => f.text))])].sort((a, b) => b.length - a.length);
    const known = new Set(secrets);
    const found = new Set();
    function redact(text) {
        let out = text;
        for (const secret of secrets)
            out = out.split(secret).join(REDACTED);
        for (const pattern of TOKEN_PATTERNS) {
            out = out.replace(pattern, (match) => {
                // A match around a value an earlier pattern already replaced (`x-access-token:***` in a URL) is
                // not a secret of its own: masking it would only mask that text.
                if (!known.has(match) && !match.includes(REDACTED))
                    found.add(match);
                return REDACTED;
            });
        }
        return out;
    }
    return {
        redact,
        forMarkdown: (text, maxChars) => capMarkdown(escapeMarkdown(redact(stripControl(text))), maxChars),
        forCodeBlock: (text, maxChars, opts = {}) => codeBlock(redact(stripControl(text)), maxChars, opts),
        forLog: (text) => neutralizeWorkflowCommands(redact(stripControl(text))),
        discovered: () => [...found],
    };
}
/**
 * Markdown-inert text. HTML is escaped (so `</details>` or `<!-- proctor:x -->` cannot close or fake
 * anything), markdown punctuation is backslash-escaped, `@user` and `#123` get a zero-width space so
 * they neither ping nor cross-reference (the Renovate convention), and newlines become `<br>` so the
 * result is safe inside a table cell.
 */
function escapeMarkdown(text) {
    return text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/([\\`*_[\]#|~])/g, '\\$1')
        .replace(/^([-+=])/, '\\$1')
        .replace(/^(\d+)([.)])/, '$1\\$2')
        .replace(/@(?=[A-Za-z0-9])/g, '@&#8203;')
        .replace(/\\#(?=\d)/g, '#&#8203;')
        .replace(/\n/g, '<br>');
}
/** Cuts escaped markdown to `maxChars`, never inside an entity, an escape or a surrogate pair. */
function capMarkdown(escaped, maxChars) {
    if (escaped.length <= maxChars)
        return escaped;
    const note = ` … (${escaped.length - maxChars} more characters cut)`;
    if (maxChars <= note.length)
        return '…'.slice(0, Math.max(0, maxChars));
    let cut = maxChars - note.length;
    const entityStart = escaped.lastIndexOf('&', cut);
    if (entityStart >= 0 && entityStart > cut - 8 && escaped.indexOf(';', entityStart) >= cut)
        cut = entityStart;
    const brStart = escaped.lastIndexOf('<', cut);
    if (brStart >= 0 && brStart > cut - 4 && escaped.indexOf('>', brStart) >= cut)
        cut = brStart;
    let head = escaped.slice(0, cut);
    if (/[\uD800-\uDBFF]$/.test(head))
        head = head.slice(0, -1);
    // An odd run of trailing backslashes would escape the note's first character.
    const slashes = /\\+$/.exec(head)?.[0].length ?? 0;
    if (slashes % 2 === 1)
        head = head.slice(0, -1);
    return head + note;
}
/** A fence longer than any backtick run inside the text can never be closed by the text. */
function fenceFor(text) {
    let longest = 0;
    for (const run of text.match(/`+/g) ?? [])
        longest = Math.max(longest, run.length);
    return '`'.repeat(Math.max(3, longest + 1));
}
function codeBlock(text, maxChars, opts) {
    const maxLine = opts.maxLineChars ?? 1000;
    const lang = (opts.language ?? '').replace(/[^A-Za-z0-9_-]/g, '');
    // Hidden markers are how proctor finds its own comments: content must not contain a live one.
    let body = text
        .replace(/<!--/g, '<!-\u200b-')
        .split('\n')
        .map((line) => line.length > maxLine
        ? `${line.slice(0, maxLine)} … [line cut: ${line.length - maxLine} more characters]`
        : line)
        .join('\n')
        .replace(/\n+$/, '');
    const fence = fenceFor(body);
    const overhead = fence.length * 2 + lang.length + 2;
    const room = maxChars - overhead;
    if (room <= 0)
        return '';
    if (body.length > room) {
        const omitted = (n) => `[… ${n} characters omitted to fit]`;
        const keepChars = Math.max(0, room - omitted(body.length).length - 1);
        let kept = opts.keep === 'head' ? body.slice(0, keepChars) : body.slice(body.length - keepChars);
        if (/[\uD800-\uDBFF]$/.test(kept))
            kept = kept.slice(0, -1);
        if (/^[\uDC00-\uDFFF]/.test(kept))
            kept = kept.slice(1);
        const note = omitted(body.length - kept.length);
        body = opts.keep === 'head' ? `${kept}\n${note}` : `${note}\n${kept}`;
    }
    return `${fence}${lang}\n${body}\n${fence}`;
}
/**
 * Characters .NET's `string.TrimStart()` removes (`char.IsWhiteSpace`): the runner trims these before it
 * looks for `::` at the start of a line. JavaScript's `\s` lacks U+0085 (NEL) and has U+FEFF, which .NET
 * keeps; both are listed so a line is neutralized whenever either reading could see a command.
 */
const RUNNER_BLANKS = '\\s\\u0085';
// Blanks the runner trims, and colour codes (live output keeps them: a terminal-minded reader may skip them).
const LINE_COMMAND = new RegExp(`^((?:[${RUNNER_BLANKS}]|\\u001b\\[[0-?]*[ -/]*[@-~])*):(?=:)`, 'gm');
// NEL is a line break to some readers: treat it as one, as the runner might after trimming.
const AFTER_NEL_COMMAND = /(\u0085[\s\u0085]*):(?=:)/g;
/** The legacy `##[command]` form, which the runner finds anywhere in a line (`IndexOf("##[")`). */
const LEGACY_COMMAND = /##\[/g;
/**
 * The runner executes an output line that starts with `::` after leading blanks (`::add-mask::`,
 * `::stop-commands::`...) and any line containing `##[`. A zero-width space between the colons (or after
 * `##`) keeps the line readable and inert. Colour codes before the `::` do not hide it.
 */
function neutralizeWorkflowCommands(text) {
    return text
        .replace(LINE_COMMAND, '$1:\u200b')
        .replace(AFTER_NEL_COMMAND, '$1:\u200b')
        .replace(LEGACY_COMMAND, '##\u200b[');
}

export { REDACTED, RUNNER_BLANKS, capMarkdown, createSanitizer, escapeMarkdown, fenceFor, neutralizeWorkflowCommands, printableLine, printablePath, stripControl, stripOsc, stripTerminal, typedText };
