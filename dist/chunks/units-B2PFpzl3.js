import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

// Durations ("500ms", "30s", "10m", "1h", "1h30m") and sizes ("512", "5MiB", "1.5MB") as users write them.
const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
/** Parses a duration into milliseconds; a bare number is seconds. Returns an error message on failure. */
function parseDuration(input) {
    if (typeof input === 'number') {
        return Number.isFinite(input) && input >= 0
            ? Math.round(input * 1000)
            : `expected a non-negative duration, got ${input}`;
    }
    const text = input.trim();
    if (/^\d+(\.\d+)?$/.test(text))
        return Math.round(Number(text) * 1000);
    let total = 0;
    DURATION_PART.lastIndex = 0;
    let consumed = 0;
    while (consumed < text.length) {
        DURATION_PART.lastIndex = consumed;
        const m = DURATION_PART.exec(text);
        if (!m)
            return `"${input}" is not a duration; write it like 500ms, 30s, 10m, 1h or 1h30m`;
        total += Number(m[1]) * DURATION_UNITS[m[2]];
        consumed = DURATION_PART.lastIndex;
    }
    if (text.length === 0)
        return 'expected a duration like 30s or 10m, got an empty string';
    return Math.round(total);
}
const SIZE_UNITS = {
    b: 1,
    kb: 1000,
    mb: 1000 ** 2,
    gb: 1000 ** 3,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
    k: 1024,
    m: 1024 ** 2,
    g: 1024 ** 3,
};
/** Parses a size into bytes; a bare number is bytes. Returns an error message on failure. */
function parseSize(input) {
    if (typeof input === 'number') {
        return Number.isFinite(input) && input >= 0
            ? Math.floor(input)
            : `expected a non-negative size, got ${input}`;
    }
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(input);
    const unit = m ? (m[2] ?? '').toLowerCase() || 'b' : '';
    if (!m || !(unit in SIZE_UNITS)) {
        return `"${input}" is not a size; write it like 512KiB, 5MiB or 1GB (KiB/MiB/GiB are powers of 1024)`;
    }
    return Math.floor(Number(m[1]) * SIZE_UNITS[unit]);
}
function formatDuration(ms) {
    if (ms < 1000)
        return `${Math.round(ms)}ms`;
    if (ms < 60_000)
        return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
    const m = Math.floor(ms / 60_000);
    const s = Math.round((ms % 60_000) / 1000);
    if (m < 60)
        return s ? `${m}m${s}s` : `${m}m`;
    const h = Math.floor(m / 60);
    return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
}
function formatSize(bytes) {
    if (bytes < 1024)
        return `${bytes} B`;
    if (bytes < 1024 ** 2)
        return `${(bytes / 1024).toFixed(1)} KiB`;
    if (bytes < 1024 ** 3)
        return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
    return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

export { parseSize as a, formatSize as b, formatDuration as f, parseDuration as p };
