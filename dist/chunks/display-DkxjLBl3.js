import { createSanitizer } from './sanitize-C-XaPVOa.js';
import { f as formatDuration } from './checkpoints-create-CJcO-Brq.js';

// Hook output shown in a terminal or CI log: secrets redacted, escape sequences and workflow commands
// neutralized (a hook's output is untrusted text).
const sanitizer = createSanitizer({ secrets: [] });
function sanitizeForTerminal(text) {
    return sanitizer.forLog(text);
}
const MARK = { allow: 'allow', block: 'BLOCK', error: 'error' };
/** One line per hook (verdict, time, name, first line of the reason), continuation lines indented. */
function formatStopHookLine(result, nameWidth) {
    const time = formatDuration(result.duration_ms).padStart(6);
    // An advisory hook's failure is reported but does not gate.
    const mark = result.advisory ? 'warn' : MARK[result.verdict];
    const head = `  ${mark.padEnd(5)}  ${time}  ${result.name.padEnd(nameWidth)}`;
    if (!result.reason)
        return `${head.trimEnd()}\n`;
    const lines = sanitizeForTerminal(result.reason).split('\n');
    const indent = ' '.repeat(head.length + 2);
    const rest = lines.slice(1, 20).map((line) => `${indent}${line}\n`);
    if (lines.length > 20)
        rest.push(`${indent}… (${lines.length - 20} more lines)\n`);
    return `${head}  ${lines[0]}\n${rest.join('')}`;
}

export { formatStopHookLine as f, sanitizeForTerminal as s };
