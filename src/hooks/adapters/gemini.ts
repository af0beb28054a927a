// Gemini CLI: `AfterAgent` hook in .gemini/settings.json (timeout in milliseconds); {"decision":"deny","reason"}
// sends the reason back as a new prompt; input has stop_hook_active, prompt and prompt_response. Gemini loads a
// project's hooks only in a trusted folder, and its --skip-trust flag applies after settings are read, so the
// agent gets GEMINI_CLI_TRUST_WORKSPACE=true. Its stop_hook_active turns false again whenever the continuation
// used a tool; `prompt` stays the user's prompt across continuations, so it is what rounds are counted by.
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
      env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    }
  },
  readInput(payload) {
    return {
      sessionId: stringField(payload, 'session_id'),
      stopHookActive: payload.stop_hook_active === true,
      finalText: stringField(payload, 'prompt_response') ?? '',
      cwd: stringField(payload, 'cwd'),
      promptKey: stringField(payload, 'prompt'),
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
