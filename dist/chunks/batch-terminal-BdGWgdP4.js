import { f as formatDuration, k as describeUsage } from './checkpoints-create-CJcO-Brq.js';

function renderBatchTerminal(batch, opts) {
    const paint = (code, text) => (opts.color ? `\x1b[${code}m${text}\x1b[0m` : text);
    const lines = [
        paint(batch.verdict === 'allow' ? 32 : 31, `proctor batch ${batch.batch_id}: verdict ${batch.verdict}`) +
            ` — ${batch.child_count} sessions in ${formatDuration(batch.total_duration_ms)}`,
        `  completed ${batch.completed_count} · failed ${batch.failed_count} · errored ${batch.errored_count} · ` +
            `interrupted ${batch.interrupted_count} · timeout ${batch.timeout_count}`,
    ];
    const usage = describeUsage(batch.usage);
    if (usage)
        lines.push(`  usage: ${usage}`);
    for (const child of batch.children) {
        const role = child.role ? ` [${child.role}]` : '';
        lines.push(`  ${String(child.task_index).padStart(2)} ${child.status.padEnd(11)} ${child.name}${role} ` +
            `(${formatDuration(child.duration_ms)}) — ${child.summary}`);
    }
    for (const problem of batch.problems)
        lines.push(paint(33, `  problem: ${problem.message}`));
    return lines.join('\n') + '\n';
}

export { renderBatchTerminal as r };
