// Codex CLI: `Stop` hook in <repo>/.codex/hooks.json (same shape as Claude Code; timeout in seconds); block =
// exit 0 + {"decision":"block","reason"} (reason must be non-empty); empty stdout on exit 0 lets it stop.
import { stringField, withStopHandler } from './settings-json.js'
import type { NativeAdapter } from './types.js'

export const codexAdapter: NativeAdapter = {
  name: 'codex',
  stopEvent: 'Stop',
  setup({ hookCommand, timeoutMs }) {
    const handler = { type: 'command' as const, command: hookCommand, timeout: Math.ceil(timeoutMs / 1000) }
    return {
      adapter: 'codex',
      args: [],
      files: [{ path: '.codex/hooks.json', merge: (existing) => withStopHandler(existing, 'Stop', handler) }],
    }
  },
  readInput(payload) {
    return {
      sessionId: stringField(payload, 'session_id'),
      stopHookActive: payload.stop_hook_active === true,
      finalText: stringField(payload, 'last_assistant_message') ?? '',
      cwd: stringField(payload, 'cwd'),
    }
  },
  answer(decision) {
    if (decision.block) {
      const reason = decision.reason.trim() || 'proctor stop hooks blocked'
      return { exitCode: 0, stdout: JSON.stringify({ decision: 'block', reason }), stderr: '' }
    }
    // Codex's Stop output schema is strict; an allow is an empty stdout, the note goes to its log via stderr.
    return { exitCode: 0, stdout: '', stderr: decision.note ?? '' }
  },
}
