import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { l as loadConfig } from './load-aZCZiay5.js';
import { n as nativeAdapters, f as isNativeAdapterName, r as relayNativeStop, g as runNativeStop } from './native-relay-BkKzpyWX.js';
import { p as processHookIO } from './cli-io-vS8AAjtg.js';
import { CliExit, ExitCode } from './exit-Qpwlb4p1.js';
import 'node:fs';
import 'node:path';
import './layout-D1plT80L.js';
import 'node:fs/promises';
import './errors-7nusPbhT.js';
import './sanitize-CuGiiGOW.js';
import './stop-hooks-BR9wssvh.js';
import './run-hook-CVsg5HBm.js';
import './process-DKHeLiM0.js';
import 'node:crypto';
import './registry-CgLcBUB8.js';
import 'node:child_process';
import 'node:os';
import 'node:module';
import 'node:net';

function registerHookCommand(program, io = processHookIO) {
    const hook = program.command('hook').description("entry points for agents' own hook systems");
    hook
        .command('stop')
        .description("run proctor's stop hooks from an agent's Stop hook and answer in its protocol")
        .requiredOption('--adapter <name>', `the agent: ${Object.keys(nativeAdapters).join(', ')}`)
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--session <id>', 'the proctor session this agent runs under (set by `proctor run`)')
        .option('--socket <path>', "the session's socket to hand the stop to (set by `proctor run`)")
        .action(async (opts) => {
        if (!isNativeAdapterName(opts.adapter)) {
            throw new CliExit(ExitCode.usage, `unknown adapter "${opts.adapter}"; use one of ${Object.keys(nativeAdapters).join(', ')}`);
        }
        const input = await io.readStdin();
        const answer = opts.socket
            ? await relayNativeStop(opts.socket, {
                adapter: opts.adapter,
                session: opts.session ?? 'unknown',
                input,
            })
            : await runNativeStop({
                adapter: opts.adapter,
                input,
                cwd: io.cwd(),
                env: io.env(),
                loadConfig: async (cwd) => (await loadConfig({ file: opts.config, cwd })).config,
            });
        if (answer.stdout)
            io.stdout(`${answer.stdout}\n`);
        if (answer.exitCode !== 0)
            throw new CliExit(answer.exitCode, answer.stderr.trimEnd());
        if (answer.stderr)
            io.stderr(answer.stderr.endsWith('\n') ? answer.stderr : `${answer.stderr}\n`);
    });
    return hook;
}

export { registerHookCommand };
