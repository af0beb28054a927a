import { ConfigError } from './errors-lvn-GX78.js';
import { $ as findRepoRoot, G as Git, f as formatDuration, l as loadConfig } from './checkpoints-create-CJcO-Brq.js';
import { l as lifecycleEvents } from './events-C_YfI5y8.js';
import { p as processHookIO } from './cli-io-CyKkUxyC.js';
import { d as describeCommand } from './run-hook-DNdEhNsA.js';
import { s as sanitizeForTerminal } from './display-DkxjLBl3.js';
const { statSync, accessSync, constants, existsSync, readFileSync } = process.getBuiltinModule("node:fs");
const { isAbsolute, resolve, delimiter, join, relative } = process.getBuiltinModule("node:path");
import { E as EVENTS_NEEDING_AN_ANSWER, M as MIN_POOL_SIZE, a as MAX_POOL_SIZE, i as isLifecycleEvent, L as LifecycleHooks, s as syntheticExtra } from './payloads-CTBGsIwZ.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';


import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';


import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';

// `proctor hooks doctor`: finds hook problems before a session does — missing or non-executable commands,
// async hooks on events that need an answer, duplicate names. Looks only; runs nothing.
function doctorHooks(config, cwd, pathEnv = process.env.PATH ?? '') {
    const findings = [];
    const stopNames = new Map();
    config.stop_hooks.forEach((hook, index) => {
        const where = `stop_hooks[${index}]`;
        const first = stopNames.get(hook.name);
        if (first !== undefined) {
            findings.push({
                level: 'error',
                where,
                message: `duplicate stop hook name "${hook.name}" (also stop_hooks[${first}]); names must be unique because each is a check run`,
            });
        }
        else
            stopNames.set(hook.name, index);
        // A built-in (uses:) has no command to look up.
        if (hook.command !== undefined)
            findings.push(...checkCommand(hook.command, where, cwd, pathEnv));
    });
    for (const [event, entries] of Object.entries(config.hooks)) {
        const seen = new Map();
        entries?.forEach((entry, index) => {
            const where = `hooks.${event}[${index}]`;
            if (entry.async && EVENTS_NEEDING_AN_ANSWER.includes(event)) {
                findings.push({
                    level: 'error',
                    where,
                    message: `async: true on ${event}: this event needs an answer, so it cannot run async; remove async or move the hook to session_end`,
                });
            }
            const key = entry.name ?? JSON.stringify(entry.command);
            const first = seen.get(key);
            if (first !== undefined) {
                const what = entry.name ? `name "${entry.name}"` : 'command';
                findings.push({
                    level: 'warning',
                    where,
                    message: `duplicate ${what} (also hooks.${event}[${first}]); it would run twice per ${event}`,
                });
            }
            else
                seen.set(key, index);
            findings.push(...checkCommand(entry.command, where, cwd, pathEnv));
        });
    }
    const pool = config.hooks_async_pool_size;
    if (pool < MIN_POOL_SIZE || pool > MAX_POOL_SIZE) {
        findings.push({
            level: 'warning',
            where: 'hooks_async_pool_size',
            message: `${pool} is outside ${MIN_POOL_SIZE}–${MAX_POOL_SIZE}; it will be clamped`,
        });
    }
    return findings;
}
/** The program a command starts: argv[0], or the first word of a simple shell string. */
function programOf(command) {
    if (typeof command !== 'string')
        return command[0] ?? null;
    const match = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*([^\s;&|<>()$`'"\\]+)(?=\s|$)/.exec(command);
    return match ? match[1] : null;
}
const SHELL_WORDS = new Set([
    'exec',
    'env',
    'command',
    'true',
    'false',
    'test',
    '[',
    'echo',
    'printf',
    'cd',
    'set',
    'exit',
    'if',
    'for',
    'while',
    '.',
    ':',
    'export',
]);
function checkCommand(command, where, cwd, pathEnv) {
    const program = programOf(command);
    if (program === null || (typeof command === 'string' && SHELL_WORDS.has(program)))
        return [];
    const problem = findProgram(program, cwd, pathEnv);
    return problem ? [{ level: 'error', where, message: problem }] : [];
}
/** Null when the program resolves to an executable file; otherwise what is wrong and how to fix it. */
function findProgram(program, cwd, pathEnv) {
    if (program.includes('/')) {
        const path = isAbsolute(program) ? program : resolve(cwd, program);
        if (!isFile(path))
            return `command not found: ${program} (looked at ${path})`;
        if (!isExecutable(path))
            return `not executable: ${program} — run chmod +x ${program}`;
        return null;
    }
    const dirs = pathEnv.split(delimiter).filter(Boolean);
    for (const dir of dirs) {
        const path = join(dir, program);
        if (isFile(path) && isExecutable(path))
            return null;
    }
    return `command not found: ${program} (searched PATH) — install it or use a path`;
}
function isFile(path) {
    try {
        return statSync(path).isFile();
    }
    catch {
        return false;
    }
}
function isExecutable(path) {
    try {
        accessSync(path, constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}

// `proctor hooks doctor`, the git side: will git actually run a pre-push hook that runs proctor? Follows
// what git does (core.hooksPath, else <gitdir>/hooks; a hook that is not executable is skipped) and what
// husky v9 adds (core.hooksPath=.husky/_, whose runner sources .husky/pre-push; HUSKY=0 skips it).
// Looks only: every finding says the command that fixes it.
const WHERE = 'git pre-push';
const HUSKY_DIR = '.husky/_';
const HUSKY_SETUP = 'npm install --save-dev husky@^9 && npm pkg set scripts.prepare=husky && npx husky';
async function doctorPrePush(cwd, env = process.env) {
    const root = findRepoRoot(cwd);
    if (root === null)
        return [warning('not inside a git repository, so no pre-push hook runs here')];
    const git = new Git({ cwd: root, env });
    let hooksPath;
    let hooksDir;
    try {
        // proctor's own git calls pass `-c core.hooksPath=/dev/null`: read the user's setting by its scope,
        // and the default hooks directory from the common git dir (not --git-path, which follows hooksPath).
        const scoped = await git.raw(['config', '--show-scope', '--get-all', 'core.hooksPath'], {
            okExitCodes: [1],
        });
        const values = scoped.stdout
            .split('\n')
            .map((line) => /^([a-z]+)\t(.*)$/.exec(line))
            .filter((match) => match !== null && match[1] !== 'command');
        hooksPath = values.at(-1)?.[2] ?? '';
        const commonDir = (await git.raw(['rev-parse', '--git-common-dir'])).stdout.trim();
        hooksDir = hooksPath
            ? resolve(root, hooksPath.replace(/^~(?=\/)/, env.HOME ?? '~'))
            : join(resolve(root, commonDir), 'hooks');
    }
    catch (error) {
        return [warning(`cannot ask git where its hooks are: ${error.message.split('\n')[0]}`)];
    }
    const hook = join(hooksDir, 'pre-push');
    const shown = isAbsolute(hooksPath) || !hook.startsWith(root) ? hook : relative(root, hook);
    const huskyScript = join(root, '.husky', 'pre-push');
    const usesHusky = existsSync(huskyScript);
    const viaHusky = normalize(hooksPath) === HUSKY_DIR;
    const findings = [];
    if (!isFile(hook)) {
        if (usesHusky && !viaHusky) {
            const installed = existsSync(join(root, 'node_modules', 'husky', 'package.json'));
            findings.push(error(`git will not run .husky/pre-push: core.hooksPath is ${hooksPath ? `"${hooksPath}"` : 'unset'}, ` +
                `so git looks for ${shown}, which does not exist. Fix: ` +
                (installed
                    ? '`npx husky` (it sets core.hooksPath to .husky/_)'
                    : existsSync(join(root, 'package.json'))
                        ? `\`${HUSKY_SETUP}\``
                        : `\`npm init -y && ${HUSKY_SETUP}\`, or without npm: \`cp .husky/pre-push ${shown}\``)));
        }
        else if (viaHusky) {
            findings.push(error(`core.hooksPath is .husky/_ but husky has not written its runner there. Fix: \`npx husky\``));
        }
        else {
            findings.push(warning(`no pre-push hook (git looks for ${shown}): stop hooks do not run before a push. Fix: ` +
                '`proctor init` (writes .husky/pre-push and sets husky up)'));
        }
        return withHuskySkip(findings, env);
    }
    if (!isExecutable(hook)) {
        findings.push(error(`git skips ${shown}: it is not executable. Fix: \`chmod +x ${shown}\``));
    }
    if (viaHusky) {
        if (!usesHusky) {
            findings.push(warning('husky runs .husky/pre-push, which does not exist. Fix: `proctor init` (writes it)'));
        }
        else if (!mentionsProctor(huskyScript)) {
            findings.push(warning('.husky/pre-push does not run proctor. Fix: add `proctor check --pre-push "$@"` to it (or `proctor init --force`)'));
        }
        const prepare = prepareScript(root);
        if (prepare !== undefined && !prepare.includes('husky')) {
            findings.push(warning('package.json has no prepare script running husky, so a fresh clone never sets the hook up. ' +
                'Fix: `npm pkg set scripts.prepare=husky`'));
        }
    }
    else if (!mentionsProctor(hook)) {
        findings.push(warning(`${shown} does not run proctor. Fix: add \`proctor check --pre-push "$@"\` to it` +
            (usesHusky ? ', or switch to husky: `npx husky`' : '')));
    }
    return withHuskySkip(findings, env);
}
function withHuskySkip(findings, env) {
    if (env.HUSKY === '0') {
        findings.push(warning('HUSKY=0 is set here: husky (and proctor’s hook) skip every hook. Fix: unset HUSKY'));
    }
    return findings;
}
function normalize(hooksPath) {
    return hooksPath.replace(/^\.\//, '').replace(/\/+$/, '');
}
function prepareScript(root) {
    try {
        const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
        return manifest.scripts?.prepare ?? '';
    }
    catch {
        return undefined;
    }
}
function mentionsProctor(path) {
    try {
        return readFileSync(path, 'utf8').includes('proctor');
    }
    catch {
        return false;
    }
}
function error(message) {
    return { level: 'error', where: WHERE, message };
}
function warning(message) {
    return { level: 'warning', where: WHERE, message };
}

function registerHooksCommand(program, io = processHookIO) {
    const hooks = program.command('hooks').description('list, check and try out stop hooks and lifecycle hooks');
    hooks
        .command('list')
        .description('list the stop hooks and lifecycle hooks (async ones tagged [async])')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .action(async (opts) => {
        io.stdout(listHooks(await load(opts, io)));
    });
    hooks
        .command('doctor')
        .description('find missing or non-executable commands, async hooks on events that need an answer, duplicates, and whether git runs the pre-push hook')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--json', 'print {errors, warnings, findings: [{level, where, message}]} as JSON')
        .action(async (opts) => {
        const config = await load(opts, io);
        const findings = [
            ...doctorHooks(config, io.cwd(), io.env().PATH ?? ''),
            ...(await doctorPrePush(io.cwd(), io.env())),
        ];
        if (opts.json) {
            const errors = findings.filter((finding) => finding.level === 'error').length;
            io.stdout(`${JSON.stringify({ errors, warnings: findings.length - errors, findings }, null, 2)}\n`);
            if (errors > 0)
                throw new CliExit(ExitCode.failed);
            return;
        }
        for (const finding of findings)
            io.stdout(`${finding.level.padEnd(7)} ${finding.where}: ${finding.message}\n`);
        const errors = findings.filter((finding) => finding.level === 'error').length;
        if (findings.length === 0)
            io.stdout('hooks doctor: no problems found\n');
        else
            io.stdout(`hooks doctor: ${errors} error(s), ${findings.length - errors} warning(s)\n`);
        if (errors > 0)
            throw new CliExit(ExitCode.failed);
    });
    hooks
        .command('test')
        .description('fire one lifecycle event with a synthetic payload (stop hooks: use proctor check)')
        .argument('<event>', `one of ${lifecycleEvents.join(', ')}`)
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--no-wait', 'schedule async hooks the real fire-and-forget way and report the scheduling latency')
        .action(async (event, opts) => {
        if (!isLifecycleEvent(event)) {
            throw new CliExit(ExitCode.usage, `unknown event "${event}"; use one of ${lifecycleEvents.join(', ')}`);
        }
        await testEvent(await load(opts, io), event, opts.wait, io);
    });
    return hooks;
}
function listHooks(config) {
    const lines = [];
    lines.push(`stop hooks (run in parallel; max_stop_rounds ${config.max_stop_rounds}):`);
    if (config.stop_hooks.length === 0)
        lines.push('  (none)');
    const width = Math.max(4, ...config.stop_hooks.map((hook) => hook.name.length));
    for (const hook of config.stop_hooks) {
        // The default (on_error: block) fails closed; only an advisory hook is worth pointing out.
        const onError = hook.advisory ? '  advisory' : hook.on_error === 'allow' ? '  on_error: allow' : '';
        lines.push(`  ${hook.name.padEnd(width)}  ${hook.command !== undefined ? describeCommand(hook.command) : `uses: ${hook.uses}`}  (timeout ${formatDuration(hook.timeout)}${onError})`);
    }
    lines.push(`lifecycle hooks (async pool ${config.hooks_async_pool_size}, drain ${formatDuration(config.hooks_async_drain_timeout)}, shutdown grace ${formatDuration(config.hooks_async_shutdown_grace)}):`);
    let any = false;
    for (const event of lifecycleEvents) {
        for (const entry of config.hooks[event] ?? []) {
            any = true;
            const label = entry.name ? `${entry.name}: ` : '';
            lines.push(`  ${event.padEnd(23)}  ${label}${describeCommand(entry.command)}  (timeout ${formatDuration(entry.timeout)})${entry.async ? ' [async]' : ''}`);
        }
    }
    if (!any)
        lines.push('  (none)');
    return `${lines.join('\n')}\n`;
}
async function testEvent(config, event, wait, io) {
    const entries = config.hooks[event] ?? [];
    if (entries.length === 0) {
        const hint = event === 'stop' && config.stop_hooks.length > 0 ? ' (stop_hooks run with: proctor check)' : '';
        io.stdout(`no hooks configured for ${event}${hint}\n`);
        return;
    }
    const warnings = [];
    const lifecycle = new LifecycleHooks({
        hooks: config.hooks,
        poolSize: config.hooks_async_pool_size,
        shutdownGraceMs: config.hooks_async_shutdown_grace,
        sessionId: 'hooks-test',
        cwd: io.cwd(),
        env: io.env(),
        onWarning: (message) => warnings.push(message),
    });
    const extra = syntheticExtra(event);
    io.stdout(`firing ${event} with ${JSON.stringify({ hook_event_name: event, session_id: 'hooks-test', extra })}\n`);
    let results;
    try {
        results = await lifecycle.fire(event, extra, { waitForAsync: wait });
        for (const result of results)
            io.stdout(describeResult(result));
        if (!wait && results.some((result) => result.status === 'scheduled')) {
            io.stdout('waiting for the async hooks to finish (proctor never leaves hooks running)…\n');
            await lifecycle.settled();
        }
    }
    finally {
        await lifecycle.shutdown();
    }
    for (const warning of warnings)
        io.stderr(`warning: ${sanitizeForTerminal(warning)}\n`);
    if (results.some((result) => result.status === 'error' || result.status === 'timeout'))
        throw new CliExit(ExitCode.failed);
}
function describeResult(result) {
    const tag = result.async ? ' [async]' : '';
    if (result.status === 'scheduled')
        return `  scheduled  ${result.name}${tag} in ${result.duration_ms.toFixed(2)}ms\n`;
    const out = [
        `  ${result.status.padEnd(9)}  ${result.name}${tag}  ${formatDuration(result.duration_ms)}${result.message ? `  ${sanitizeForTerminal(result.message)}` : ''}`,
    ];
    const stdout = result.stdout.trim();
    if (stdout)
        out.push(...sanitizeForTerminal(stdout)
            .split('\n')
            .slice(0, 20)
            .map((line) => `      | ${line}`));
    return `${out.join('\n')}\n`;
}
async function load(opts, io) {
    try {
        const loaded = await loadConfig({ file: opts.config, cwd: io.cwd() });
        for (const warning of loaded.warnings)
            io.stderr(`proctor: warning: ${warning}\n`);
        return loaded.config;
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
}

export { listHooks, registerHooksCommand };
