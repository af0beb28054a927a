// Claude Code: `Stop` hook in settings JSON (passed with --settings, or .claude/settings.local.json); timeout in
// seconds; block = exit 0 + {"decision":"block","reason"}; input has stop_hook_active and last_assistant_message.
import { stringField, withStopHandler } from './settings-json.js'
import type { NativeAdapter } from './types.js'

export const claudeAdapter: NativeAdapter = {
  name: 'claude',
  stopEvent: 'Stop',
  setup({ hookCommand, timeoutMs, settingsFile }) {
    const handler = { type: 'command' as const, command: hookCommand, timeout: Math.ceil(timeoutMs / 1000) }
    if (settingsFile) {
      return {
        adapter: 'claude',
        args: [],
        files: [
          {
            path: '.claude/settings.local.json',
            merge: (existing) => withStopHandler(existing, 'Stop', handler),
          },
        ],
        env: {},
      }
    }
    return {
      adapter: 'claude',
      args: ['--settings', JSON.stringify(withStopHandler(null, 'Stop', handler))],
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
      promptKey: null,
    }
  },
  answer(decision) {
    if (decision.block)
      return {
        exitCode: 0,
        stdout: JSON.stringify({ decision: 'block', reason: decision.reason }),
        stderr: '',
      }
    return {
      exitCode: 0,
      stdout: decision.note ? JSON.stringify({ systemMessage: decision.note }) : '',
      stderr: '',
    }
  },
}
