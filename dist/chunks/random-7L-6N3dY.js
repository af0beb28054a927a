const { openSync, readSync, closeSync } = process.getBuiltinModule("node:fs");

// Random hex for ids and tokens (some are secrets: the redacting writer's stop token, a run's token), from the
// system's CSPRNG. Read from /dev/urandom where there is one rather than through node:crypto: loading crypto
// (and, imported as an ES module, building its namespace) was ~5 ms of CPU before every agent's spawn, and
// nothing else proctor does before it needs crypto.
/** `bytes` random bytes as lower-case hex. */
function randomHex(bytes) {
    return randomBytes(bytes).toString('hex');
}
function randomBytes(bytes) {
    const out = Buffer.alloc(bytes);
    try {
        const fd = openSync('/dev/urandom', 'r');
        try {
            let read = 0;
            while (read < bytes) {
                const n = readSync(fd, out, read, bytes - read, null);
                if (n <= 0)
                    throw new Error('short read');
                read += n;
            }
            return out;
        }
        finally {
            closeSync(fd);
        }
    }
    catch {
        // No /dev/urandom (Windows): the same CSPRNG through crypto.
        return process.getBuiltinModule('node:crypto').randomBytes(bytes);
    }
}

export { randomHex as r };
