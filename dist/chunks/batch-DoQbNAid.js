import { l as loadConfig } from './checkpoints-create-CJcO-Brq.js';
import { r as renderBatchTerminal } from './batch-terminal-BdGWgdP4.js';
import { r as runBatch, B as BatchError, p as parseTaskFlag } from './batch-s510Ff5y.js';
import { i as installShutdownSignals } from './session-BRW2EmEt.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';
import { u as useColor } from './color-pSqXY3x9.js';

import './errors-lvn-GX78.js';



import './summary-BBJud0Oe.js';
import './git-blockers-Dy_7XOmu.js';
import './aggregate-Bb_hkxeJ.js';
import './payloads-CTBGsIwZ.js';
import './events-C_YfI5y8.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';




import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';
import './commonjs-helpers-Bgu_3bK-.js';

import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';

import './feedback-CO8PHFfu.js';

function registerBatchCommand(program) {
    program
        .command('batch')
        .description('run several supervised sessions in parallel, each in its own git worktree, and report them together')
        .option('-c, --config <file>', 'config file (default: proctor.yml at the repository root)')
        .option('--concurrency <n>', 'how many tasks run at once (default: batch.concurrency, 4)')
        .option('--task <name=command>', 'a task instead of batch.tasks; repeatable. The command after = is one shell string run by /bin/sh -c, ' +
        `e.g. --task tests='npm test'`, (value, previous = []) => [...previous, value])
        .option('--keep-worktrees', 'keep each task’s worktree under .proctor/worktrees/ (default: removed)')
        .option('--no-pty', 'run the agents with pipes instead of pseudo-terminals')
        .option('--json', 'print the batch report as JSON instead of the summary')
        .action(async (flags) => {
        const color = useColor(process.stdout);
        const outcome = await batchCommand(flags, {
            cwd: process.cwd(),
            stdout: process.stdout,
            stderr: process.stderr,
            color,
        });
        if (outcome.exitCode !== 0)
            throw new CliExit(outcome.exitCode);
    });
}
/** The command's work, apart from commander and process.exit so it can be driven directly. */
async function batchCommand(flags, io) {
    const loaded = await loadConfig({ file: flags.config, cwd: io.cwd });
    for (const warning of loaded.warnings)
        io.stderr.write(`proctor: warning: ${warning}\n`);
    const config = structuredClone(loaded.config);
    if (flags.pty === false)
        config.agent.pty = false;
    const tasks = taskFlags(flags.task);
    const concurrency = concurrencyFlag(flags.concurrency);
    const abort = new AbortController();
    io.signal?.addEventListener('abort', () => abort.abort(io.signal?.reason), { once: true });
    const uninstall = io.signal
        ? () => undefined
        : installShutdownSignals(async (signal) => abort.abort(signal), {
            onRepeat: (signal) => io.stderr.write(`proctor batch: ${signal} again: still finishing the batch (reports, hooks)…\n`),
        });
    let outcome;
    try {
        outcome = await runBatch({
            config,
            cwd: io.cwd,
            ...(tasks ? { tasks } : {}),
            ...(concurrency !== undefined ? { concurrency } : {}),
            ...(flags.keepWorktrees ? { keepWorktrees: true } : {}),
            signal: abort.signal,
            output: io.stderr,
        });
    }
    catch (error) {
        if (error instanceof BatchError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
    finally {
        uninstall();
    }
    if (flags.json)
        io.stdout.write(JSON.stringify(outcome.batch, null, 2) + '\n');
    else {
        io.stdout.write(renderBatchTerminal(outcome.batch, { color: io.color }));
        io.stdout.write(`  report: ${outcome.reportPath}\n`);
        for (const [index, dir] of Object.entries(outcome.worktrees)) {
            io.stdout.write(`  worktree of task ${index} kept: ${dir}\n`);
        }
    }
    return outcome;
}
function taskFlags(values) {
    if (!values || values.length === 0)
        return undefined;
    try {
        return values.map(parseTaskFlag);
    }
    catch (error) {
        throw new CliExit(ExitCode.usage, `proctor batch: ${error.message}`);
    }
}
function concurrencyFlag(value) {
    if (value === undefined)
        return undefined;
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > 64) {
        throw new CliExit(ExitCode.usage, `proctor batch: --concurrency ${JSON.stringify(value)}: give a whole number from 1 to 64, e.g. --concurrency 4`);
    }
    return n;
}

export { batchCommand, registerBatchCommand };
