import { s as secretForms } from './secret-forms-Ct3YzP3D.js';

// The exact values proctor knows to be secret (the GitHub token, the runner's tokens, model API keys in
// its environment, values it masks in the log), recognised in file content as they are, URL-encoded or
// base64-encoded (standard and URL-safe, at any offset inside a longer base64 text), and in parts: a
// token split over two files still leaves one part of at least half its length in one of them.
/** Values registered by the entry point (the action's withheld tokens); read by every scanner made later. */
const registered = new Map();
/** Too short to be told from ordinary text: never a known secret. */
const MIN_SECRET_CHARS = 12;
/** Length of the pieces of a known value looked for, and the stride the text is sampled at. */
const WINDOW = 12;
const STRIDE = 6;
/**
 * Environment variables whose value is a credential: the runner's and GitHub's tokens and the model
 * providers' API keys (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...).
 */
const SECRET_NAME = /(?:^|_)(?:TOKEN|API_?KEY|SECRET|SECRET_?KEY|ACCESS_?KEY|PASSWORD|AUTH_?TOKEN|PRIVATE_?KEY)(?:$|_)/i;
/**
 * An address, not a credential (ACTIONS_ID_TOKEN_REQUEST_URL): its host part is ordinary text that docs
 * and configs mention, and would be found in them.
 */
const ADDRESS_NAME = /_(?:URL|URI|ENDPOINT|HOST)$/i;
/** Remembers values as secret for every content scan of this process (each under its name). */
function registerKnownSecrets(values) {
    for (const [name, value] of Object.entries(values)) {
        if (!value || value.trim().length < MIN_SECRET_CHARS || registered.has(value))
            continue;
        if (!ADDRESS_NAME.test(name))
            registered.set(value, name);
    }
}
/** The registered values plus the credentials in `env`, each value once. */
function knownSecrets(env = process.env) {
    const byValue = new Map(registered);
    for (const [name, value] of Object.entries(env)) {
        if (!value || value.trim().length < MIN_SECRET_CHARS || byValue.has(value))
            continue;
        if (SECRET_NAME.test(name) && !ADDRESS_NAME.test(name))
            byValue.set(value, name);
    }
    return [...byValue].map(([value, name]) => ({ name, value }));
}
/**
 * Finds known values in text. Every WINDOW-character piece of every form is kept by a hash of its
 * characters (hashAt), and the text is sampled every STRIDE characters: any part of a value of at least
 * WINDOW + STRIDE - 1 characters holds a sampled piece, whatever its offset. Hashing twelve characters at
 * a sample costs far less than cutting the text into strings.
 */
class KnownValues {
    pieces = new Map();
    /** The low 16 bits of every piece's hash: most samples are turned away here, before a map lookup. */
    seen = new Uint8Array(1 << 16);
    constructor(secrets) {
        for (const secret of secrets) {
            for (const written of secretForms(secret.value)) {
                const form = { ...written, name: secret.name };
                for (let i = 0; i + WINDOW <= form.text.length; i++) {
                    const piece = form.text.slice(i, i + WINDOW);
                    const key = hashAt(piece, 0);
                    this.seen[key & 0xffff] = 1;
                    const same = this.pieces.get(key);
                    if (!same)
                        this.pieces.set(key, [{ piece, form }]);
                    else if (!same.some((p) => p.piece === piece))
                        same.push({ piece, form });
                }
            }
        }
    }
    get empty() {
        return this.pieces.size === 0;
    }
    /** The first known value (or part of one) in `text`, or null. */
    find(text) {
        if (this.pieces.size === 0)
            return null;
        const seen = this.seen;
        for (let at = 0; at + WINDOW <= text.length; at += STRIDE) {
            const key = hashAt(text, at);
            if (seen[key & 0xffff] === 0)
                continue;
            const candidates = this.pieces.get(key);
            if (!candidates)
                continue;
            const hit = candidates.find((c) => text.startsWith(c.piece, at));
            if (!hit)
                continue;
            const whole = text.includes(hit.form.text);
            return {
                rule: 'known-value',
                what: `${whole ? 'the value' : 'a part of the value'} of ${hit.form.name}, ${hit.form.how}`,
                line: lineAt(text, at),
            };
        }
        return null;
    }
}
/**
 * A 32-bit hash of four of the WINDOW characters of `text` from `at` (every third): enough to tell a piece
 * of a random token from ordinary text nearly always, and a candidate is compared whole anyway.
 */
function hashAt(text, at) {
    return ((Math.imul(Math.imul(Math.imul(text.charCodeAt(at), 31) + text.charCodeAt(at + 3), 31) + text.charCodeAt(at + 6), 31) +
        text.charCodeAt(at + 9)) |
        0);
}
/** 1-based line of `index` in `text`. */
function lineAt(text, index) {
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1))
        line++;
    return line;
}

export { KnownValues as K, knownSecrets as k, registerKnownSecrets as r };
