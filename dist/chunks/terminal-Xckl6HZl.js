import { f as formatDuration, k as describeUsage, h as hookWord, R as describePreExisting } from './checkpoints-create-CJcO-Brq.js';
import { a as agentExitText } from './agent-exit-dlhdSguX.js';
import { printableLine, printablePath } from './sanitize-C-XaPVOa.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';
import './secret-forms-Ct3YzP3D.js';

const codes = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 };
function renderSessionTerminal(report, opts) {
    const paint = (tone, text) => (opts.color ? `\x1b[${codes[tone]}m${text}\x1b[0m` : text);
    const lines = [];
    const ok = report.verdict === 'allow' && report.status === 'completed';
    const headline = `proctor: ${report.status}, verdict ${report.verdict} — exit ${report.exit_code} after ${formatDuration(report.duration_ms)}`;
    lines.push(paint(ok ? 'green' : 'red', paint('bold', headline)));
    if (report.reason)
        lines.push(`  reason: ${printableLine(report.reason)}`);
    const agent = agentExitText(report.agent);
    if (agent)
        lines.push(`  ${printableLine(agent)}`);
    lines.push(`  session: ${report.session_id}`);
    const usage = describeUsage(report.usage);
    if (usage)
        lines.push(`  usage: ${usage}`);
    // The agent CLI's own conversation, which the session's next round resumes (docs/agents.md).
    if (report.agent_session_id)
        lines.push(`  agent session: ${printableLine(report.agent_session_id)} (next round: proctor run --continue ${report.session_id} --task "…")`);
    const responses = report.events.filter((e) => e.kind === 'response');
    const undelivered = responses.filter((e) => e.data?.delivered === false).length;
    const answered = responses.length - undelivered;
    const detected = report.events.filter((e) => ['approval_request', 'error', 'completion', 'detector'].includes(e.kind));
    if (detected.length) {
        const lost = undelivered > 0 ? `, ${undelivered} answer(s) not delivered` : '';
        lines.push(`  detected: ${detected.length} event(s), ${answered} answered${lost}`);
    }
    if (report.checkpoints.length) {
        const last = report.checkpoints[report.checkpoints.length - 1];
        lines.push(`  checkpoints: ${report.checkpoints.length} on ${last.ref} (latest ${last.sha.slice(0, 12)})`);
    }
    else {
        lines.push(paint('dim', '  checkpoints: none'));
    }
    const preExisting = report.baseline?.pre_existing_count ?? 0;
    if (preExisting)
        lines.push(paint('dim', `  baseline: ${describePreExisting(preExisting)}`));
    if (report.pushed) {
        lines.push(report.pushed.ok
            ? `  pushed: ${report.pushed.remote}/${report.pushed.branch}`
            : paint('yellow', `  not pushed: ${printableLine(report.pushed.reason ?? 'unknown reason')}`) +
                (report.pushed.bundle ? ` (bundle: ${printablePath(report.pushed.bundle)})` : ''));
    }
    if (report.violations.length) {
        lines.push(paint('yellow', `  violations: ${report.violations.length}`));
        for (const v of report.violations.slice(0, 10)) {
            const file = printablePath(v.file);
            const state = v.reverted ? ' (reverted)' : v.resolved ? ' (fixed)' : '';
            lines.push(`    ${paint(severityTone(v.severity), v.severity.padEnd(8))} ${file}: ${printableLine(v.message)}${state ? paint('dim', state) : ''}`);
        }
        if (report.violations.length > 10)
            lines.push(`    … ${report.violations.length - 10} more in report.json`);
    }
    if (report.stop_hooks.length) {
        lines.push(`  stop hooks (${report.rounds} round${report.rounds === 1 ? '' : 's'}):`);
        for (const h of report.stop_hooks) {
            const tone = h.verdict === 'allow' ? 'green' : h.verdict === 'block' ? 'red' : 'yellow';
            const reason = h.reason ? ` — ${firstLine(h.reason)}` : '';
            lines.push(`    [${h.round}] ${paint(tone, hookWord(h).padEnd(10))} ${printableLine(h.name)} (${formatDuration(h.duration_ms)})${reason}`);
        }
    }
    if (report.transcript.capped)
        lines.push(paint('yellow', '  transcript was capped (see output.transcript_max)'));
    if (opts.reportPath)
        lines.push(paint('dim', `  report: ${opts.reportPath}`));
    return lines.join('\n') + '\n';
}
function severityTone(s) {
    return s === 'info' ? 'dim' : s === 'warning' ? 'yellow' : 'red';
}
/** A reason's first line, capped, with control characters (a file name's escapes) neutralized. */
function firstLine(text) {
    const line = text.split('\n', 1)[0] ?? '';
    return printableLine(line.length > 160 ? line.slice(0, 157) + '…' : line);
}
/**
 * Stop hooks as they run. On a terminal: one status line redrawn in place ("tests running 12s…"),
 * replaced by a result line as each hook ends. Anywhere else (a log, a pipe): plain lines only.
 */
class HookStatus {
    options;
    running = new Map();
    timer = null;
    drawn = false;
    now;
    constructor(options) {
        this.options = options;
        this.now = options.now ?? Date.now;
    }
    get tty() {
        return this.options.out.isTTY === true;
    }
    started(name) {
        this.running.set(name, this.now());
        if (!this.tty) {
            this.options.out.write(`proctor: stop hook ${printableLine(name)} running…\n`);
            return;
        }
        const every = this.options.intervalMs ?? 1000;
        if (!this.timer && every > 0) {
            this.timer = setInterval(() => this.render(), every);
            this.timer.unref();
        }
        this.render();
    }
    finished(result) {
        this.running.delete(result.name);
        const paint = (tone, text) => this.options.color ? `\x1b[${codes[tone]}m${text}\x1b[0m` : text;
        const tone = result.verdict === 'allow' ? 'green' : result.verdict === 'block' ? 'red' : 'yellow';
        const word = hookWord(result);
        const reason = result.verdict !== 'allow' && result.reason ? ` — ${firstLine(result.reason)}` : '';
        this.clear();
        this.options.out.write(`proctor: stop hook ${printableLine(result.name)} ${paint(tone, word)} (${formatDuration(result.duration_ms)})${reason}\n`);
        if (this.running.size === 0)
            this.stop();
        else
            this.render();
    }
    /** Redraws the status line (TTY only). */
    render() {
        if (!this.tty || this.running.size === 0)
            return;
        const parts = [...this.running].map(([name, since]) => `${printableLine(name)} running ${formatDuration(Math.max(0, this.now() - since))}…`);
        this.options.out.write(`\r\x1b[2K⏳ ${parts.join(' · ')}`);
        this.drawn = true;
    }
    /** Clears the line and stops redrawing (the session ended). */
    stop() {
        if (this.timer)
            clearInterval(this.timer);
        this.timer = null;
        this.clear();
    }
    clear() {
        if (!this.drawn)
            return;
        this.options.out.write('\r\x1b[2K');
        this.drawn = false;
    }
}

export { HookStatus, renderSessionTerminal };
