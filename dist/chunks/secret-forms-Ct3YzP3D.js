// The forms a secret value is written in besides itself: URL-encoded, and base64 (standard and URL-safe)
// at each of the three offsets it can start at inside a longer base64 text (`user:token` in a Basic
// header). The log's redaction (sanitize.ts) and the content scan (policy/secrets/known.ts) both look for
// every one of them, so a token that is base64'd is neither printed nor checkpointed.
/** A base64 core shorter than this would match ordinary text. */
const MIN_CORE_CHARS = 12;
function secretForms(value) {
    const forms = [{ how: 'as it is', text: value }];
    const url = encodeURIComponent(value);
    if (url !== value)
        forms.push({ how: 'URL-encoded', text: url });
    const bytes = Buffer.from(value, 'utf8');
    for (let offset = 0; offset < 3; offset++) {
        // At `offset` bytes into a 3-byte group, the characters that depend on the value alone are the same
        // whatever surrounds it: from the first whole group to the last whole one.
        const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
        const whole = Math.floor(padded.length / 3) * 4;
        const core = padded.toString('base64').slice(offset === 0 ? 0 : 4, whole);
        if (core.length < MIN_CORE_CHARS)
            continue;
        forms.push({ how: 'base64-encoded', text: core });
        const urlSafe = core.replace(/\+/g, '-').replace(/\//g, '_');
        if (urlSafe !== core)
            forms.push({ how: 'base64url-encoded', text: urlSafe });
    }
    return forms;
}

export { secretForms as s };
