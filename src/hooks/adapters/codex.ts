// Codex CLI: `Stop` hook (same shape as Claude Code; `timeout` in seconds — `timeoutSec` is ignored). Codex runs
// a project's .codex/hooks.json only when both the project and the hook are trusted, so proctor passes the hook
// on the command line instead (`-c hooks.Stop=[…]` plus `--dangerously-bypass-hook-trust`): it runs in an
// untrusted project and no file is written. Block = exit 0 + {"decision":"block","reason"} (reason must be
// non-empty; Codex sends it to the model as the next user message); empty stdout on exit 0 lets it stop.
import { stringField } from './settings-json.js'
import type { NativeAdapter } from './types.js'

/** A TOML basic string: JSON's escapes (\", \\, \n, \uXXXX) are all valid TOML. */
const tomlString = (value: string): string => JSON.stringify(value)

export const codexAdapter: NativeAdapter = {
  name: 'codex',
  stopEvent: 'Stop',
  setup({ hookCommand, timeoutMs }) {
    const timeout = Math.ceil(timeoutMs / 1000)
    const stop = `hooks.Stop=[{hooks=[{type="command",command=${tomlString(hookCommand)},timeout=${timeout}}]}]`
    return {
      adapter: 'codex',
      args: ['-c', stop, '--dangerously-bypass-hook-trust'],
      files: [],
      env: {},
    }
  },
  readInput(payload) {
    return {
      sessionId: stringField(payload, 'session_id'),
      stopHookActive: payload.stop_hook_active === true,
      finalText: stringField(payload, 'last_assistant_message') ?? '',
      cwd: stringField(payload, 'cwd'),
      promptKey: stringField(payload, 'turn_id'),
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
