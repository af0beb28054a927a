// Gemini CLI: `AfterAgent` hook in .gemini/settings.json (timeout in milliseconds); {"decision":"deny","reason"}
// sends the reason back as a new prompt; input has stop_hook_active and prompt_response.
import { stringField, withStopHandler } from './settings-json.js'
import type { NativeAdapter } from './types.js'

export const geminiAdapter: NativeAdapter = {
  name: 'gemini',
  stopEvent: 'AfterAgent',
  setup({ hookCommand, timeoutMs }) {
    const handler = {
      type: 'command' as const,
      name: 'proctor-stop',
      command: hookCommand,
      timeout: timeoutMs,
    }
    return {
      adapter: 'gemini',
      args: [],
      files: [
        {
          path: '.gemini/settings.json',
          merge: (existing) => withStopHandler(existing, 'AfterAgent', handler),
        },
      ],
    }
  },
  readInput(payload) {
    return {
      sessionId: stringField(payload, 'session_id'),
      stopHookActive: payload.stop_hook_active === true,
      finalText: stringField(payload, 'prompt_response') ?? '',
      cwd: stringField(payload, 'cwd'),
    }
  },
  answer(decision) {
    if (decision.block)
      return {
        exitCode: 0,
        stdout: JSON.stringify({ decision: 'deny', reason: decision.reason }),
        stderr: '',
      }
    const body: Record<string, string> = { decision: 'allow' }
    if (decision.note) body.systemMessage = decision.note
    return { exitCode: 0, stdout: JSON.stringify(body), stderr: '' }
  },
}
