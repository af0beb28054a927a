import { l as loadConfig } from './checkpoints-create-CJcO-Brq.js';
import { nativeAdapters, isNativeAdapterName } from './index-DtPt7qSS.js';
import { p as processHookIO } from './cli-io-CyKkUxyC.js';
import { r as relayNativeStop, a as runNativeStop } from './native-relay-DQmEzIO0.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';

import './errors-lvn-GX78.js';




import './continue-CWf2Yz5i.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';
import './stop-hooks-BJdq3XY7.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';



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
