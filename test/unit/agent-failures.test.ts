// The lines the real CLIs print when they give up on the model API (captured from Claude Code 2.1.330,
// Codex 0.169.0 and Gemini CLI 0.61.0 against the scripted APIs answering 401/400, 429 and 529; the
// e2e tests in test/e2e/agents-api-failures.test.ts run them for real), and the lines they print while they
// still retry, which must not end the session.
import { describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/index.js'
import { agentErrorReason, compileRules } from '../../src/supervisor/detect.js'

function reasonFor(preset: string, argv: string[], line: string): { rule: string; reason: string } | null {
  const { config } = parseConfigText('', 'proctor.yml', { preset, argv })
  for (const rule of compileRules(config.detect)) {
    const m = rule.regex.exec(line)
    if (!m) continue
    if (rule.kind !== 'agent_error') return { rule: rule.name, reason: '' }
    return { rule: rule.name, reason: agentErrorReason({ match: m[0], reason: m.groups?.reason }) }
  }
  return null
}

const seen: [preset: string, argv: string[], line: string, rule: string | null, reason?: string][] = [
  // Claude Code: print mode, then the TUI.
  [
    'claude-code',
    ['claude', '-p', 'x'],
    'Invalid API key · Fix external API key',
    'claude-code:not-logged-in',
    'agent_error: Invalid API key · Fix external API key',
  ],
  [
    'claude-code',
    ['claude', 'x'],
    '  ⎿  Invalid API key · Fix external API key',
    'claude-code:not-logged-in',
    'agent_error: Invalid API key · Fix external API key',
  ],
  [
    'claude-code',
    ['claude', 'x'],
    'Not logged in · Please run /login',
    'claude-code:not-logged-in',
    'agent_error: Not logged in · Please run /login',
  ],
  [
    'claude-code',
    ['claude', '-p', 'x'],
    'API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:46179).',
    'claude-code:api-error',
    'agent_error: API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:46179).',
  ],
  [
    'claude-code',
    ['claude', 'x'],
    '● API Error: Request rejected (429) · rate limited',
    'claude-code:api-error',
    'agent_error: API Error: Request rejected (429) · rate limited',
  ],
  // A tool's output, or the model quoting an error, is not Claude giving up.
  ['claude-code', ['claude', 'x'], '  ⎿  API Error: 503 from the staging server', null],
  ['claude-code', ['claude', 'x'], '⏺ The log says "API Error: 500" twice.', null],
  // Codex: exec, then the TUI; the request URL is not part of the reason.
  [
    'codex',
    ['codex', 'exec', 'x'],
    'ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: sk-test-***-real., url: http://127.0.0.1:45083/v1/responses',
    'codex:api-error',
    'agent_error: unexpected status 401 Unauthorized: Incorrect API key provided: sk-test-***-real.',
  ],
  [
    'codex',
    ['codex', 'exec', 'x'],
    'ERROR: exceeded retry limit, last status: 429 Too Many Requests',
    'codex:api-error',
    'agent_error: exceeded retry limit, last status: 429 Too Many Requests',
  ],
  [
    'codex',
    ['codex', 'x'],
    '■ unexpected status 401 Unauthorized: Incorrect API key provided: sk-test-***-real., url: http://127.0.0.1:34301/v1/responses',
    'codex:api-error',
    'agent_error: unexpected status 401 Unauthorized: Incorrect API key provided: sk-test-***-real.',
  ],
  // Gemini CLI: -p, then the TUI; the retry notice is not the end.
  [
    'gemini',
    ['gemini', '-p', 'x'],
    'Error when talking to Gemini API Full report available at: /tmp/gemini-client-error-Turn.run-sendMessageStream-2026-11-29T04-55-15-740Z.json _ApiError: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}',
    'gemini:api-error',
    'agent_error: API key not valid. Please pass a valid API key.',
  ],
  [
    'gemini',
    ['gemini', '-p', 'x'],
    'Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED"}}',
    null,
  ],
  [
    'gemini',
    ['gemini', '-p', 'x'],
    'Attempt 2 failed: You exceeded your current quota, please check your plan and billing details.. Max attempts reached',
    'gemini:gave-up',
    'agent_error: You exceeded your current quota, please check your plan and billing details.',
  ],
  [
    'gemini',
    ['gemini', 'x'],
    '✕ [API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API',
    'gemini:api-error',
    'agent_error: API key not valid. Please pass a valid API',
  ],
]

describe('presets recognise their CLI giving up on the model API', () => {
  it.each(seen)('%s %j: %s', (preset, argv, line, rule, reason) => {
    const found = reasonFor(preset, argv, line)
    expect(found?.rule ?? null).toBe(rule)
    if (reason) expect(found?.reason).toBe(reason)
  })
})
