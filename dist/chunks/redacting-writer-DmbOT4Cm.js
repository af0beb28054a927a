import { J as randomHex } from './checkpoints-create-CJcO-Brq.js';
import { neutralizeWorkflowCommands, stripOsc } from './sanitize-C-XaPVOa.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';
import './secret-forms-Ct3YzP3D.js';

// The agent's (or a hook's) live output in a CI log: whole lines go through the sanitizer's redact() before
// they are written, so a token the agent prints (and nobody registered as a secret) never reaches the job
// log, and no line can be a workflow command: `::x::` at a line start (after the blanks the runner trims,
// NEL included) and `##[x]` anywhere are neutralized. With `stopCommands`, every flush is also wrapped in
// the runner's own protection, `::stop-commands::<random token>` … `::<token>::`, so even a form this
// neutralizer missed is not executed.
// Bytes are decoded with one streaming UTF-8 decoder: a character split across chunks comes out whole.
// A partial line is held back until its newline, or written once it grows past `maxHold` (a progress
// bar without newlines must still show) — a token can only be split at that rare boundary.
class RedactingWriter {
    sink;
    sanitizer;
    pending = '';
    decoder = new TextDecoder('utf-8');
    maxHold;
    stopToken;
    constructor(sink, sanitizer, options = {}) {
        this.sink = sink;
        this.sanitizer = sanitizer;
        const opts = typeof options === 'number' ? { maxHold: options } : options;
        this.maxHold = opts.maxHold ?? 8192;
        // Random per writer: output cannot guess it to resume command processing, and it is long enough
        // (> 6 characters) for the runner to mask it.
        this.stopToken = opts.stopCommands ? `proctor-${randomHex(16)}` : null;
    }
    write(chunk) {
        this.pending += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
        const cut = this.pending.lastIndexOf('\n');
        if (cut >= 0) {
            this.emit(this.pending.slice(0, cut + 1));
            this.pending = this.pending.slice(cut + 1);
        }
        if (this.pending.length > this.maxHold)
            this.flush();
        return true;
    }
    /** Writes what is held back (a line grew too long). The writer stays usable. */
    flush() {
        if (!this.pending)
            return;
        this.emit(this.pending);
        this.pending = '';
    }
    /** Writes what is held back, including an incomplete character at the very end (the stream ended). */
    end() {
        this.pending += this.decoder.decode();
        this.flush();
    }
    emit(text) {
        // OSC sequences (window title, clipboard via OSC 52, hyperlinks) act on the user's terminal, not on a
        // log: a non-interactive echo drops them, terminated (BEL or ST) or cut off at the end of the line.
        const clean = neutralizeWorkflowCommands(this.sanitizer.redact(stripOsc(text)));
        if (!this.stopToken) {
            this.sink.write(clean);
            return;
        }
        // The commands must stand on their own lines; a flush of a partial line gets its newline here.
        const body = clean.endsWith('\n') ? clean : `${clean}\n`;
        this.sink.write(`::stop-commands::${this.stopToken}\n${body}::${this.stopToken}::\n`);
    }
}

export { RedactingWriter };
