const { readFileSync, existsSync, readdirSync, statSync } = process.getBuiltinModule("node:fs");
const { resolve, join } = process.getBuiltinModule("node:path");
import { a as aggregateReports, p as parseSessionReport } from './aggregate-Bb_hkxeJ.js';
import { renderSessionTerminal } from './terminal-Xckl6HZl.js';
import { r as renderBatchTerminal } from './batch-terminal-BdGWgdP4.js';
import { d as renderSessionComment, r as renderBatchComment } from './markdown-VfhSNKQ7.js';
import { linksFor } from './context-D-q0CQle.js';
import { createSanitizer } from './sanitize-C-XaPVOa.js';
import { $ as findRepoRoot, ai as sessionsPath } from './checkpoints-create-CJcO-Brq.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';
import { u as useColor } from './color-pSqXY3x9.js';
import './summary-BBJud0Oe.js';
import './agent-exit-dlhdSguX.js';
import './errors-lvn-GX78.js';


import './secret-forms-Ct3YzP3D.js';

// `proctor report <report.json…>`: render one saved session report, or aggregate several (matrix jobs'
// artifacts, a batch's children) into one BatchReport. Missing or malformed files are reported as problems.
// `latest` stands for the newest session's report.json under .proctor/sessions/; `--markdown` prints the
// PR comment GitHub would show, to preview it locally.
function registerReportCommand(program) {
    program
        .command('report')
        .description('render a saved report.json, or aggregate several into one batch report')
        .argument('<files...>', 'report.json files, or `latest` for the newest session in this repository')
        .option('--json', 'print JSON (the session report, or the aggregated batch report)')
        .option('--markdown', 'print the PR comment GitHub would show (a local preview)')
        .option('--id <batch-id>', 'id of the aggregated batch', 'aggregate')
        .action((files, flags) => {
        if (flags.json && flags.markdown)
            throw new CliExit(ExitCode.usage, 'proctor report: choose one of --json and --markdown');
        const inputs = files.map((file) => readChild(file === 'latest' ? latestReport(process.cwd()) : file));
        const color = useColor(process.stdout);
        if (inputs.length === 1 && inputs[0].report) {
            const report = inputs[0].report;
            process.stdout.write(flags.json
                ? JSON.stringify(report, null, 2) + '\n'
                : flags.markdown
                    ? renderSessionComment(report, previewOptions(report))
                    : renderSessionTerminal(report, { color }));
            if (report.verdict !== 'allow' || report.status !== 'completed')
                throw new CliExit(ExitCode.failed);
            return;
        }
        const batch = aggregateReports(flags.id ?? 'aggregate', inputs);
        process.stdout.write(flags.json
            ? JSON.stringify(batch, null, 2) + '\n'
            : flags.markdown
                ? renderBatchComment(batch, {
                    key: 'preview',
                    links: linksFor(previewContext(null)),
                    sanitizer: createSanitizer({ secrets: [] }),
                })
                : renderBatchTerminal(batch, { color }));
        if (batch.verdict !== 'allow')
            throw new CliExit(ExitCode.failed);
    });
}
/** The newest `.proctor/sessions/<id>/report.json` of the repository around `cwd`. */
function latestReport(cwd) {
    const root = findRepoRoot(cwd) ?? resolve(cwd);
    const sessions = sessionsPath(root);
    const found = existsSync(sessions)
        ? readdirSync(sessions)
            .map((id) => join(sessions, id, 'report.json'))
            .filter((path) => existsSync(path))
            .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
            .sort((a, b) => b.mtime - a.mtime)
        : [];
    if (found.length === 0)
        throw new CliExit(ExitCode.usage, `proctor report latest: no session report under ${sessions}; run \`proctor run\` first or name a report.json`);
    return found[0].path;
}
/** Links as the action would make them: the report's repository and run when it has them (CI), else placeholders. */
function previewContext(report) {
    const ci = report?.ci ?? {};
    const [owner, repo] = typeof ci.repository === 'string' && ci.repository.includes('/')
        ? ci.repository.split('/', 2)
        : ['OWNER', 'REPO'];
    return {
        owner: owner,
        repo: repo,
        serverUrl: (process.env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
        apiUrl: '',
        eventName: null,
        sha: typeof ci.sha === 'string' ? ci.sha : null,
        runId: ci.run_id === null || ci.run_id === undefined ? null : String(ci.run_id),
        runAttempt: Number(ci.run_attempt) || 1,
        job: null,
        workflow: null,
        actor: null,
        pr: null,
        commentAuthor: null,
        refName: typeof ci.ref_name === 'string' ? ci.ref_name : null,
    };
}
function previewOptions(report) {
    const secrets = [process.env.GITHUB_TOKEN, process.env.GH_TOKEN].filter((s) => !!s);
    return { key: 'preview', links: linksFor(previewContext(report)), sanitizer: createSanitizer({ secrets }) };
}
function readChild(path) {
    let text;
    try {
        text = readFileSync(path, 'utf8');
    }
    catch (error) {
        return {
            source: path,
            problem: `cannot read ${path}: ${error.code ?? error.message}`,
        };
    }
    const parsed = parseSessionReport(text);
    return typeof parsed === 'string'
        ? { source: path, problem: `${path}: ${parsed}` }
        : { source: path, report: parsed };
}

export { latestReport, registerReportCommand };
