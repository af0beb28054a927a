import { f as formatDuration, k as describeUsage, P as SEVERITY_ICON, O as formatSize, h as hookWord, Q as HOOK_ICON, R as describePreExisting, U as worstSeverity, V as skipReasonWord, X as reasonHead, Y as formatTokens, Z as formatUsd } from './checkpoints-create-CJcO-Brq.js';
import { a as agentExitText } from './agent-exit-dlhdSguX.js';

/** GitHub's limit for an issue comment body (API: "Body is too long (maximum is 65536 characters)"). */
const COMMENT_MAX_CHARS = 65_536;
/** GitHub's limit for one step's job summary. */
const SUMMARY_MAX_BYTES = 1024 * 1024;
/** The hidden marker that identifies proctor's comment for one session key. */
function commentMarker(key) {
    // The key comes from config; keep it to characters that cannot end an HTML comment.
    return `<!-- proctor:${key.replace(/[^A-Za-z0-9_./:@{}+=-]/g, '_')} -->`;
}
function assemble(head, sections, tail, limit) {
    const parts = [head];
    let remaining = limit - head.length - tail.length - 2 * (sections.length + 2);
    let carry = 0;
    sections.forEach((section, i) => {
        const last = i === sections.length - 1;
        const budget = Math.max(0, last ? remaining : Math.min(remaining, section.cap + carry));
        const text = budget > 0 ? section.render(budget) : '';
        if (text) {
            parts.push(text);
            remaining -= text.length + 2;
        }
        carry = Math.max(0, carry + section.cap - text.length);
    });
    parts.push(tail);
    const body = parts.filter((p) => p !== '').join('\n\n') + '\n';
    // The sections keep their budgets; this guard only protects the contract if a section misbehaves.
    return body.length <= limit ? body : body.slice(0, limit - 40) + '\n\n_(report cut to fit)_\n';
}
/**
 * A markdown table that stops adding rows before `budget`, ending with a note about the rest. Columns
 * named in `optional` are left out when every row leaves them empty (a "reason" column of passing hooks).
 */
function table(allHeaders, allRows, budget, more, optional = []) {
    const keep = allHeaders.map((h, i) => !optional.includes(h) || allRows.some((row) => row[i] !== ''));
    const headers = allHeaders.filter((_, i) => keep[i]);
    const rows = allRows.map((row) => row.filter((_, i) => keep[i]));
    const lines = [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
    let used = lines.join('\n').length;
    let shown = 0;
    for (const row of rows) {
        const line = `| ${row.join(' | ')} |`;
        const reserve = shown + 1 < rows.length ? more(rows.length - shown - 1).length + 2 : 0;
        if (used + line.length + 1 + reserve > budget)
            break;
        lines.push(line);
        used += line.length + 1;
        shown++;
    }
    if (shown === 0 && rows.length > 0) {
        const note = more(rows.length);
        return note.length <= budget ? note : '';
    }
    const rest = rows.length - shown;
    return rest > 0 ? `${lines.join('\n')}\n\n${more(rest)}` : lines.join('\n');
}
function seeSummary(links, what) {
    return links.jobSummary
        ? `_${what} — see the [job summary](${links.jobSummary})._`
        : `_${what} — see the job summary._`;
}
// ---------------------------------------------------------------------------------------------------
// Words and icons: one mapping from model values to display text.
const STATUS_ICON = {
    completed: '✅',
    failed: '❌',
    errored: '💥',
    interrupted: '⚠️',
    timeout: '⏱️',
    budget: '💸',
};
function headlineIcon(report) {
    const { status, verdict } = report;
    if (status === 'completed' && verdict === 'block')
        return '❌';
    // Never a green tick above an error-level violation, whatever the verdict says.
    if (status === 'completed' &&
        report.violations.some((v) => v.severity === 'error' || v.severity === 'critical'))
        return '⚠️';
    return STATUS_ICON[status];
}
function short(sha) {
    return sha.slice(0, 7);
}
function link(text, url, s) {
    // Pipes split table cells even inside a link; angle brackets and spaces end the destination. A URL
    // built from untrusted text (a file name) is redacted like its link text.
    const href = s ? s.redact(url) : url;
    return `[${text}](<${href.replace(/[<>\s|]/g, encodeURIComponent)}>)`;
}
function hookLabel(result) {
    const word = hookWord(result);
    return `${HOOK_ICON[word]} ${word}`;
}
/** The stop-hook results of the last round that ran (earlier rounds are history). */
function latestRound(results) {
    const round = Math.max(0, ...results.map((r) => r.round));
    return results.filter((r) => r.round === round);
}
function heading(ctx, running, checkRuns = [], task = null) {
    const { report, s } = ctx;
    const title = running
        ? `### 🔄 proctor · running · ${formatDuration(report.duration_ms)}`
        : `### ${headlineIcon(report)} proctor · ${report.verdict} · ${report.status} · ${formatDuration(report.duration_ms)}`;
    const command = s.forMarkdown(report.command.join(' '), 300);
    const facts = [`session \`${s.redact(report.session_id).replace(/`/g, "'")}\``, `${report.mode}`, command];
    if (!running)
        facts.push(`exit ${report.exit_code}${report.signal ? ` (${report.signal})` : ''}`);
    const agent = running ? null : agentExitText(report.agent);
    if (agent)
        facts.push(agent);
    // The cause alone: the blocking hooks' reasons are in their table, the violations in theirs.
    const cause = report.cause ?? report.reason;
    const reason = !running && cause ? `\n\n> ${s.forMarkdown(cause, 1000)}` : '';
    const nav = navigation(ctx, checkRuns);
    const usage = describeUsage(report.usage);
    // <br>: a job summary joins consecutive lines into one paragraph (a comment would keep them apart).
    const next = running ? '' : whatNext(ctx, task);
    return `${title}\n${nav ? `${nav}<br>\n` : ''}<sub>${facts.join(' · ')}</sub>${usage ? `<br>\n<sub>model usage: ${usage}</sub>` : ''}${reason}${next ? `\n\n${next}` : ''}`;
}
/**
 * What the reader can do about a session that did not pass: re-run, send the agent back with feedback (a
 * session a comment or label started: the PR takes `/proctor` commands), or take the agent's work home.
 */
function whatNext(ctx, task) {
    const { report, s } = ctx;
    if (report.verdict === 'allow' && report.status === 'completed')
        return '';
    const steps = [];
    steps.push(report.ci ? 're-run the job once the cause is fixed' : 're-run `proctor run` once the cause is fixed');
    if (task)
        steps.push('comment `/proctor continue <feedback>` to send the agent back');
    const last = report.checkpoints.at(-1);
    if (last) {
        const code = (text) => `\`${s.redact(text).replace(/[`\r\n]/g, '')}\``;
        const branch = report.pushed?.ok ? report.pushed.branch : null;
        steps.push(branch
            ? `take the agent's work: ${code(`git fetch origin ${branch} && proctor checkpoints restore ${short(last.sha)}`)}`
            : `take the agent's work: ${code(`proctor checkpoints restore ${report.session_id}`)}`);
    }
    return `**What next:** ${steps.join(' · ')}`;
}
/** The task, quoted: escaped like all report text, so its mentions ping no one and its markup is inert. */
function taskQuote(ctx, task) {
    const { s } = ctx;
    const where = task.url ? ` in ${link('this comment', task.url, s)}` : '';
    return `**Task** from ${s.forMarkdown(`@${task.author}`, 100)}${where}:\n\n> ${s.forMarkdown(task.text, 3000)}`;
}
/** The reviewer's links: the job, each check run, the checkpoint branch with compare and "Create PR". */
function navigation(ctx, checkRuns) {
    const { report, links, s } = ctx;
    const parts = [];
    if (links.job)
        parts.push(link('job', links.job));
    else if (links.jobSummary)
        parts.push(link('workflow run', links.jobSummary));
    const checks = checkRuns.slice(0, 12).map((c) => link(`\`${safeName(c.name)}\``, c.url));
    if (checks.length)
        parts.push(`checks: ${checks.join(', ')}${checkRuns.length > 12 ? ', …' : ''}`);
    const branch = report.pushed?.ok ? report.pushed.branch : null;
    if (branch && links.branch) {
        const pages = links.branch(s.redact(branch));
        const name = `\`${s.redact(branch).replace(/`/g, "'").slice(0, 200)}\``;
        parts.push(`branch ${link(name, pages.tree, s)} (${link('compare', pages.compare, s)} · ${link('Create PR', pages.createPullRequest, s)})`);
    }
    return parts.length ? `<sub>${parts.join(' · ')}</sub>` : '';
}
function checklist(ctx, runningHooks) {
    const { report, links } = ctx;
    const lines = ['**Progress**', '', '- [x] Started'];
    const last = report.checkpoints.at(-1);
    lines.push(last
        ? `- [x] ${report.checkpoints.length} checkpoint${report.checkpoints.length === 1 ? '' : 's'} (latest ${link(short(last.sha), links.commit(last.sha))})`
        : '- [ ] No checkpoint yet');
    const v = report.violations;
    const worst = v.filter((x) => x.severity === 'error' || x.severity === 'critical').length;
    lines.push(v.length === 0
        ? '- [x] No policy violations'
        : `- [ ] ${v.length} policy violation${v.length === 1 ? '' : 's'}${worst ? ` (${worst} error${worst === 1 ? '' : 's'})` : ''}`);
    const done = latestRound(report.stop_hooks);
    for (const result of done) {
        if (runningHooks.includes(result.name))
            continue;
        lines.push(`- [${result.verdict === 'allow' ? 'x' : ' '}] Stop hook \`${safeName(result.name)}\`: ${hookLabel(result)}`);
    }
    for (const name of runningHooks)
        lines.push(`- [ ] Stop hook \`${safeName(name)}\`: ⏳ running`);
    lines.push('- [ ] Finished');
    return lines.join('\n');
}
/** Hook and rule names are validated config identifiers, but keep them inert inside backticks anyway. */
function safeName(name) {
    return name.replace(/[`\r\n]/g, '').slice(0, 100);
}
function stopHooksSection(ctx) {
    const { report, s, links } = ctx;
    const rowOf = (r) => [
        `\`${safeName(r.name)}\``,
        String(r.round),
        hookLabel(r),
        r.exit_code === null ? '—' : String(r.exit_code),
        formatDuration(r.duration_ms),
        hookReason(r),
    ];
    // The policy gate's reason lists the violations: they have their own table.
    const hookReason = (r) => !r.reason
        ? ''
        : r.name === 'policy' && r.exit_code === null && report.violations.length > 0
            ? 'see Policy violations'
            : s.forMarkdown(reasonHead(r.reason), ctx.cell);
    const headers = ['hook', 'round', 'result', 'exit', 'duration', 'reason'];
    const more = (n) => seeSummary(links, `${n} more stop-hook result${n === 1 ? '' : 's'}`);
    return {
        cap: 12_000,
        render(budget) {
            if (report.stop_hooks.length === 0)
                return '';
            const last = Math.max(...report.stop_hooks.map((r) => r.round));
            const rounds = new Set(report.stop_hooks.map((r) => r.round)).size;
            const title = `#### Stop hooks${rounds > 1 ? ` (round ${last} of ${rounds})` : ''}\n\n`;
            const latest = report.stop_hooks.filter((r) => r.round === last);
            const earlier = report.stop_hooks.filter((r) => r.round !== last);
            const body = table(headers, latest.map(rowOf), budget - title.length, more, ['reason']);
            if (!body)
                return '';
            let text = title + body;
            if (earlier.length > 0) {
                // Earlier rounds are history: collapsed, and only when they fit.
                const open = `\n\n<details>\n<summary>Earlier rounds (${rounds - 1})</summary>\n\n`;
                const close = '\n\n</details>';
                const room = budget - text.length - open.length - close.length;
                const history = room > 100 ? table(headers, earlier.map(rowOf), room, more, ['reason']) : '';
                if (history)
                    text += open + history + close;
            }
            return text;
        },
    };
}
/** Every file the session's checkpoints changed, linked at the latest checkpoint; collapsed and capped. */
function filesSection(ctx, maxFiles) {
    const { report, s, links } = ctx;
    return {
        cap: 8_000,
        render(budget) {
            // The user's own uncommitted work is not the agent's: counted apart, never listed as changed.
            const preExisting = report.baseline?.pre_existing_count ?? 0;
            const before = preExisting ? `<sub>${describePreExisting(preExisting)}</sub>` : '';
            const last = report.checkpoints.at(-1);
            if (!last)
                return before;
            const files = [...new Set(report.checkpoints.flatMap((c) => c.files_changed))].sort();
            const withheld = withheldFiles(report);
            if (files.length === 0)
                return before;
            const open = `<details>\n<summary>Files changed (${files.length})</summary>\n\n`;
            const close = `\n\n</details>${before ? `\n\n${before}` : ''}`;
            const lines = [];
            let used = open.length + close.length;
            for (const [i, file] of files.entries()) {
                const rest = files.length - i;
                const note = `\n- … ${rest} more${links.jobSummary ? ` — see the ${link('job summary', links.jobSummary)}` : ''}`;
                const text = s.forMarkdown(file, 300);
                const line = `- ${withheld.has(file) ? text : link(text, links.file(s.redact(file), last.sha), s)}`;
                if (i >= maxFiles || used + line.length + 1 + note.length > budget) {
                    if (used + note.length <= budget)
                        lines.push(note.slice(1));
                    break;
                }
                lines.push(line);
                used += line.length + 1;
            }
            return lines.length ? open + lines.join('\n') + close : '';
        },
    };
}
/** Paths some checkpoint left out (a forbidden area, over max_file_size): no commit holds them. */
function withheldFiles(report) {
    return new Set(report.checkpoints.flatMap((c) => c.skipped));
}
function violationsSection(ctx) {
    const { report, s, links } = ctx;
    const shaOf = new Map(report.checkpoints.map((c) => [c.seq, c.sha]));
    const withheld = withheldFiles(report);
    const fileCell = (v) => {
        const text = s.forMarkdown(v.file, 300);
        const sha = v.checkpoint === null ? undefined : shaOf.get(v.checkpoint);
        // A withheld file never entered a commit: its page would be a 404.
        return sha && !withheld.has(v.file) ? link(text, links.file(s.redact(v.file), sha), s) : text;
    };
    return {
        cap: 16_000,
        render(budget) {
            if (report.violations.length === 0)
                return '';
            const title = `#### Policy violations (${report.violations.length})\n\n`;
            const rows = report.violations.map((v) => [
                `${SEVERITY_ICON[v.severity]} ${v.severity}`,
                // Resolved: the agent undid it (or proctor reverted it) before the end; it no longer blocks.
                fileCell(v) + (v.reverted ? ' (reverted)' : v.resolved ? ' (resolved)' : ''),
                s.forMarkdown(v.constraint, 100),
                s.forMarkdown(v.message, ctx.cell),
                s.forMarkdown(v.suggestion, ctx.cell),
                v.checkpoint === null ? '—' : String(v.checkpoint),
            ]);
            const body = table(['severity', 'file', 'constraint', 'message', 'suggestion', 'checkpoint'], rows, budget - title.length, (n) => seeSummary(links, `${n} more violation${n === 1 ? '' : 's'}`));
            return body ? title + body : '';
        },
    };
}
function checkpointsSection(ctx) {
    const { report, s, links } = ctx;
    // A checkpoint's count wears the icon of its worst violation, as that violation's row does.
    const countWithIcon = (c) => {
        const worst = worstSeverity(report.violations.filter((v) => v.checkpoint === c.seq).map((v) => v.severity));
        return worst ? `${SEVERITY_ICON[worst]} ${c.violations}` : String(c.violations);
    };
    return {
        cap: 10_000,
        render(budget) {
            const cps = report.checkpoints;
            if (cps.length === 0 && !report.pushed)
                return '';
            const lines = [`#### Checkpoints (${cps.length})`];
            const base = compareBase(report);
            const last = cps.at(-1);
            if (last && base && base !== last.sha)
                lines.push('', `Compare: ${link(`${short(base)}…${short(last.sha)}`, links.compare(base, last.sha))}`);
            if (report.pushed)
                lines.push('', pushLine(report, s));
            const head = lines.join('\n') + '\n\n';
            if (cps.length === 0)
                return head.trimEnd();
            const rows = cps.map((c) => [
                String(c.seq),
                link(short(c.sha), links.commit(c.sha)),
                s.forMarkdown(c.trigger, 40),
                String(c.files_changed.length),
                c.violations ? countWithIcon(c) : '0',
                c.skipped.length ? s.forMarkdown(skippedWords(c), 200) : '',
            ]);
            const body = table(['#', 'commit', 'trigger', 'files', 'violations', 'skipped'], rows, budget - head.length, (n) => seeSummary(links, `${n} more checkpoint${n === 1 ? '' : 's'}`), ['skipped']);
            return head.length <= budget ? head + body : '';
        },
    };
}
/** The job summary's record of the usage line: each model's figures (names are what an API or CLI said). */
function usageSection(ctx) {
    const { report, s, links } = ctx;
    return {
        cap: 4_000,
        render(budget) {
            const models = report.usage?.by_model ?? [];
            if (models.length === 0)
                return '';
            const title = '#### Model usage\n\n';
            const rows = models.map((m) => [
                s.forMarkdown(m.model, 100),
                String(m.requests),
                formatTokens(m.input_tokens),
                formatTokens(m.cached_input_tokens),
                formatTokens(m.output_tokens),
                m.cost_usd === null ? 'unknown' : `≈ ${formatUsd(m.cost_usd)}`,
            ]);
            const body = table(['model', 'requests', 'tokens in', 'cached', 'out', 'cost (estimate)'], rows, budget - title.length, (n) => seeSummary(links, `${n} more models`));
            return body ? title + body : '';
        },
    };
}
/** Each skipped path with why it was left out ("big.yml (over max_file_size)"). */
function skippedWords(c) {
    return c.skipped
        .map((p) => (c.skipped_reasons?.[p] ? `${p} (${skipReasonWord(c.skipped_reasons[p])})` : p))
        .join(', ');
}
/** The session's starting commit when the CI context names it (`base_sha`, else `sha`). */
function compareBase(report) {
    const ci = report.ci ?? {};
    const base = ci['base_sha'] ?? ci['sha'];
    return typeof base === 'string' && /^[0-9a-f]{7,64}$/i.test(base) ? base : null;
}
function pushLine(report, s) {
    const p = report.pushed;
    if (p.ok)
        return `Pushed to \`${s.redact(p.branch ?? '?').replace(/`/g, "'")}\`${p.remote ? ` on \`${s.redact(p.remote).replace(/`/g, "'")}\`` : ''}.`;
    return `⚠️ Checkpoints stayed local: ${s.forMarkdown(p.reason ?? 'unknown reason', 500)}${p.bundle ? ' (a git bundle was saved)' : ''}`;
}
const TIMELINE_KINDS = new Set([
    'checkpoint',
    'approval_request',
    'error',
    'completion',
    'timeout',
    'budget',
    'idle_timeout',
    'signal',
    'violation',
    'revert',
    'push',
    'continue',
    'exit',
]);
/** Mermaid labels: a conservative alphabet so no label can break the diagram's syntax. */
function mermaidLabel(text) {
    return (text
        .replace(/[^A-Za-z0-9 ._/+()-]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 60) || 'event');
}
/** Below this a session's timeline says nothing its tables do not: the comment leaves it out. */
const TIMELINE_MIN_MS = 60_000;
/**
 * `collapsed` (the comment): inside <details>, and left out for a session shorter than TIMELINE_MIN_MS; the
 * job summary draws it open.
 */
function timelineSection(ctx, maxEvents, running = false, collapsed = false) {
    const { report } = ctx;
    // A running session has no final status yet: its bar is "active", never a red (crit) one.
    const agentBar = running
        ? `  ${mermaidLabel(`${report.command[0] ?? 'agent'} running`)} :active, agent`
        : `  ${mermaidLabel(`${report.command[0] ?? 'agent'} ${report.status}`)} :${report.status === 'completed' ? 'done' : 'crit'}, agent`;
    return {
        cap: 6_000,
        render(budget) {
            if (collapsed && report.duration_ms < TIMELINE_MIN_MS)
                return '';
            // Real timestamps: mermaid shows them in the viewer's time zone, so the axis reads as wall-clock time.
            const t0 = Date.parse(report.started_at) || 0;
            const at = (ms) => t0 + Math.round(ms);
            const end = at(Math.max(1, report.duration_ms));
            const lines = [
                ...(collapsed ? ['<details>', '<summary>Timeline</summary>'] : ['#### Timeline']),
                '',
                '```mermaid',
                'gantt',
                '  dateFormat x',
                '  axisFormat %H:%M:%S',
                '  section Agent',
                `${agentBar}, ${t0}, ${end}`,
            ];
            const stopRounds = report.events.filter((e) => e.kind === 'stop_hooks');
            if (stopRounds.length > 0) {
                lines.push('  section Stop hooks');
                stopRounds.slice(0, maxEvents).forEach((event, i) => {
                    const results = report.stop_hooks.filter((r) => r.round === i + 1);
                    const longest = Math.max(1, ...results.map((r) => r.duration_ms));
                    const blocked = results.some((r) => r.verdict === 'block');
                    lines.push(`  ${mermaidLabel(`round ${i + 1} ${blocked ? 'blocked' : 'passed'}`)} :${blocked ? 'crit' : 'done'}, r${i + 1}, ${at(event.at)}, ${at(event.at + longest)}`);
                });
            }
            const marks = report.events.filter((e) => TIMELINE_KINDS.has(e.kind));
            if (marks.length > 0) {
                lines.push('  section Events');
                for (const [i, e] of marks.slice(0, maxEvents).entries()) {
                    const label = mermaidLabel(`${e.kind}${e.name ? ` ${e.name}` : ''}`);
                    lines.push(`  ${label} :milestone, e${i}, ${at(e.at)}, ${at(e.at)}`);
                }
                if (marks.length > maxEvents)
                    lines.push(`  ${marks.length - maxEvents} more events :milestone, more, ${end}, ${end}`);
            }
            lines.push('```');
            if (collapsed)
                lines.push('', '</details>');
            const text = lines.join('\n');
            return text.length <= budget ? text : '';
        },
    };
}
function transcriptSection(ctx, open) {
    const { report, s } = ctx;
    return {
        cap: Infinity,
        render(budget) {
            if (!report.output_tail)
                return '';
            const facts = `${formatSize(report.transcript.bytes)}${report.transcript.capped ? ', capped' : ''}`;
            // modes verify/publish — the transcript is only what the agent job handed over.
            const who = report.agent_job ? ', as reported by the agent job' : '';
            const head = `<details${open ? ' open' : ''}>\n<summary>Transcript tail (${facts}${who})</summary>\n\n`;
            const tail = '\n\n</details>';
            const room = budget - head.length - tail.length;
            if (room < 200)
                return '';
            return head + s.forCodeBlock(report.output_tail, room, { language: 'text', keep: 'tail' }) + tail;
        },
    };
}
// modes verify/publish — which parts are these jobs' verdict and which are the agent job's claims.
function verifiedNote(ctx) {
    const claim = ctx.report.agent_job;
    return {
        cap: 1_500,
        render(budget) {
            if (!claim)
                return '';
            const said = ctx.s.forMarkdown(`${claim.status}, verdict ${claim.verdict}`, 200);
            const text = `> **Verified in separate jobs.** The stop hooks ran in the verify job, which holds no write token, on ` +
                `the agent's checkpoints applied to a fresh checkout; the job that publishes ran none of the agent's ` +
                `code, judged the policy itself and passes a hook only if GitHub recorded the verify job as successful. ` +
                `The agent job reported: ${said} — shown for information, never as a verdict. ` +
                `The timeline and transcript below are as reported by the agent job.`;
            return text.length <= budget ? text : '';
        },
    };
}
function footer(links, full) {
    const parts = ['<sub>Reported by proctor'];
    if (!full && links.jobSummary)
        parts.push(` · full report in the ${link('job summary', links.jobSummary)}`);
    return parts.join('') + '</sub>';
}
// ---------------------------------------------------------------------------------------------------
// Public renderers
function renderSessionComment(report, options) {
    const limit = Math.min(options.maxChars ?? COMMENT_MAX_CHARS, COMMENT_MAX_CHARS);
    const ctx = { report, links: options.links, s: options.sanitizer, cell: 500 };
    const running = options.progress !== undefined && options.progress !== false;
    const runningHooks = typeof options.progress === 'object' ? (options.progress.running_hooks ?? []) : [];
    const head = [
        commentMarker(options.key),
        heading(ctx, running, options.checkRuns, options.task ?? null),
        options.task ? `\n${taskQuote(ctx, options.task)}` : '',
        running ? `\n${checklist(ctx, runningHooks)}` : '',
    ]
        .filter(Boolean)
        .join('\n');
    const sections = [
        verifiedNote(ctx),
        stopHooksSection(ctx),
        violationsSection(ctx),
        filesSection(ctx, 50),
        checkpointsSection(ctx),
        timelineSection(ctx, 40, running, true),
        transcriptSection(ctx, false),
    ];
    return assemble(head, sections, footer(options.links, false), limit);
}
function renderJobSummary(report, options) {
    const maxBytes = options.maxBytes ?? SUMMARY_MAX_BYTES;
    return fitBytes(maxBytes, (limit) => {
        const ctx = { report, links: options.links, s: options.sanitizer, cell: 4000 };
        // The summary is the complete record: tables get most of the room, the transcript what is left.
        const share = (section, fraction) => ({
            ...section,
            cap: Math.round(limit * fraction),
        });
        const sections = [
            verifiedNote(ctx),
            share(stopHooksSection(ctx), 0.2),
            share(violationsSection(ctx), 0.35),
            share(filesSection(ctx, 1000), 0.1),
            share(checkpointsSection(ctx), 0.15),
            share(usageSection(ctx), 0.02),
            share(timelineSection(ctx, 200), 0.02),
            transcriptSection(ctx, true),
        ];
        return assemble(heading(ctx, false, options.checkRuns), sections, footer(options.links, true), limit);
    });
}
/** Renders with a character limit, shrinking it until the UTF-8 size fits the byte budget. */
function fitBytes(maxBytes, render) {
    let limit = maxBytes;
    for (let attempt = 0; attempt < 6; attempt++) {
        const text = render(limit);
        const bytes = Buffer.byteLength(text, 'utf8');
        if (bytes <= maxBytes)
            return text;
        limit = Math.floor(limit * (maxBytes / bytes) * 0.95);
    }
    return render(Math.floor(maxBytes / 4));
}
/** "3 completed, 1 failed…": the non-zero counters (completed always). */
function batchCounts(batch) {
    return [
        `${batch.completed_count} completed`,
        batch.failed_count ? `${batch.failed_count} failed` : '',
        batch.errored_count ? `${batch.errored_count} errored` : '',
        batch.interrupted_count ? `${batch.interrupted_count} interrupted` : '',
        batch.timeout_count ? `${batch.timeout_count} timed out` : '',
    ].filter(Boolean);
}
/** The title of the `proctor / batch` check run. */
function batchCheckTitle(batch) {
    const sessions = `${batch.child_count} session${batch.child_count === 1 ? '' : 's'}`;
    return `${batch.verdict}: ${sessions} (${batchCounts(batch).join(', ')})`;
}
function batchHeading(batch) {
    const icon = batch.verdict === 'allow' ? '✅' : '❌';
    const counts = batchCounts(batch);
    const usage = describeUsage(batch.usage);
    return `### ${icon} proctor batch · ${batch.verdict} · ${batch.child_count} session${batch.child_count === 1 ? '' : 's'} · ${formatDuration(batch.total_duration_ms)}\n<sub>${counts.join(' · ')}</sub>${usage ? `<br>\n<sub>model usage: ${usage}</sub>` : ''}`;
}
function batchSections(batch, links, s, cell, limit) {
    return [
        {
            cap: Math.round(limit * 0.85),
            render(budget) {
                if (batch.children.length === 0)
                    return '';
                const title = '#### Sessions\n\n';
                const rows = batch.children.map((c) => [
                    String(c.task_index),
                    s.forMarkdown(c.name, 100),
                    c.role ? s.forMarkdown(c.role, 60) : '—',
                    `${STATUS_ICON[c.status]} ${c.status}`,
                    formatDuration(c.duration_ms),
                    c.violation_count ? `⚠️ ${c.violation_count}` : '0',
                    c.checkpoint_ref ? `\`${s.redact(c.checkpoint_ref).replace(/`/g, "'").slice(0, 200)}\`` : '—',
                    describeUsage(c.usage) ?? '',
                    s.forMarkdown(c.summary, cell),
                ]);
                const body = table(['#', 'task', 'role', 'status', 'duration', 'violations', 'checkpoints', 'usage', 'summary'], rows, budget - title.length, (n) => seeSummary(links, `${n} more session${n === 1 ? '' : 's'}`), ['usage']);
                return body ? title + body : '';
            },
        },
        {
            cap: Infinity,
            render(budget) {
                if (batch.problems.length === 0)
                    return '';
                const title = `#### Problems (${batch.problems.length})\n\n`;
                const rows = batch.problems.map((p) => [s.forMarkdown(p.source, 300), s.forMarkdown(p.message, cell)]);
                const body = table(['source', 'problem'], rows, budget - title.length, (n) => seeSummary(links, `${n} more problems`));
                return body ? title + body : '';
            },
        },
    ];
}
function renderBatchComment(batch, options) {
    const limit = Math.min(options.maxChars ?? COMMENT_MAX_CHARS, COMMENT_MAX_CHARS);
    const head = `${commentMarker(options.key)}\n${batchHeading(batch)}`;
    return assemble(head, batchSections(batch, options.links, options.sanitizer, 300, limit), footer(options.links, false), limit);
}
function renderBatchSummary(batch, options) {
    return fitBytes(options.maxBytes ?? SUMMARY_MAX_BYTES, (limit) => assemble(batchHeading(batch), batchSections(batch, options.links, options.sanitizer, 4000, limit), footer(options.links, true), limit));
}

export { SUMMARY_MAX_BYTES as S, renderBatchSummary as a, batchCheckTitle as b, commentMarker as c, renderSessionComment as d, renderJobSummary as e, renderBatchComment as r };
