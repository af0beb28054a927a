// GitHub Copilot CLI: `agentStop` hook. Copilot loads a repository's own hooks (.github/hooks/*.json) only in a
// trusted folder, and `--trust-folder` would also trust every skill, MCP server and hook the repository holds,
// so proctor hands its hook over as a session-only plugin instead (`--plugin-dir`, a directory under .proctor/,
// removed afterwards): plugin hooks run in an untrusted folder, nothing is written into the project and the
// folder's trust is left as it was (checked against 1.0.102, test/e2e/agents-copilot.test.ts). The plugin's
// hooks/hooks.json has the shape of .github/hooks/*.json: {"version":1,"hooks":{"agentStop":[{"type":"command",
// "bash":…,"timeoutSec":…}]}}. Input: sessionId, cwd, transcriptPath, stopReason and stop_hook_active (true on a
// stop that follows a block, also after the continuation used tools). Block = exit 0 +
// {"decision":"block","reason"} (Copilot sends the reason as the next user message and caps consecutive blocks
// itself); an empty stdout lets it stop.
import { stringField } from './settings-json.js'
import type { NativeAdapter } from './types.js'

/** The plugin directory, relative to the agent's working directory (Copilot resolves it there too). */
export const COPILOT_PLUGIN_DIR = '.proctor/copilot-plugin'

export const copilotAdapter: NativeAdapter = {
  name: 'copilot',
  stopEvent: 'agentStop',
  setup({ hookCommand, timeoutMs }) {
    const hooks = {
      version: 1,
      hooks: {
        agentStop: [{ type: 'command', bash: hookCommand, timeoutSec: Math.ceil(timeoutMs / 1000) }],
      },
    }
    const manifest = {
      name: 'proctor-stop',
      version: '1.0.0',
      description: "proctor's stop hooks as Copilot's agentStop hook, for one session",
    }
    return {
      adapter: 'copilot',
      args: ['--plugin-dir', COPILOT_PLUGIN_DIR],
      // Proctor's files, whatever a stale copy held: the hook command names this session's socket.
      files: [
        { path: `${COPILOT_PLUGIN_DIR}/plugin.json`, merge: () => manifest },
        { path: `${COPILOT_PLUGIN_DIR}/hooks/hooks.json`, merge: () => hooks },
      ],
      env: {},
    }
  },
  readInput(payload) {
    return {
      sessionId: stringField(payload, 'sessionId', 'session_id'),
      stopHookActive: payload.stop_hook_active === true || payload.stopHookActive === true,
      // Copilot sends no final text (it is in the transcript file, transcriptPath).
      finalText: '',
      cwd: stringField(payload, 'cwd'),
      promptKey: null,
    }
  },
  answer(decision) {
    if (decision.block) {
      const reason = decision.reason.trim() || 'proctor stop hooks blocked'
      return { exitCode: 0, stdout: JSON.stringify({ decision: 'block', reason }), stderr: '' }
    }
    return { exitCode: 0, stdout: '', stderr: decision.note ?? '' }
  },
}
