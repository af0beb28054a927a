import { describe, expect, it } from 'vitest'
import { interpretStopHook, MAX_REASON_CHARS, type StopHookOutcome } from '../../src/hooks/verdict.js'

function outcome(partial: Partial<StopHookOutcome>): StopHookOutcome {
  return { exitCode: 0, signal: null, timedOut: false, stdout: '', stderr: '', ...partial }
}

describe('interpretStopHook', () => {
  it('allows on exit 0 with no output or plain text', () => {
    expect(interpretStopHook(outcome({}))).toEqual({ verdict: 'allow', reason: null })
    expect(interpretStopHook(outcome({ stdout: 'all good\n' }))).toEqual({ verdict: 'allow', reason: null })
  })

  it('blocks on exit 2 with stderr as the reason, else stdout', () => {
    expect(
      interpretStopHook(outcome({ exitCode: 2, stderr: ' 3 tests failing \n', stdout: 'noise' })),
    ).toEqual({
      verdict: 'block',
      reason: '3 tests failing',
    })
    expect(interpretStopHook(outcome({ exitCode: 2, stdout: 'lint errors\n' }))).toEqual({
      verdict: 'block',
      reason: 'lint errors',
    })
    expect(interpretStopHook(outcome({ exitCode: 2 })).reason).toBe('exited 2 without a reason')
  })

  it('prefers the JSON reason on exit 2, and JSON cannot undo an exit-2 block', () => {
    const json = JSON.stringify({ decision: 'approve', reason: 'from json' })
    expect(interpretStopHook(outcome({ exitCode: 2, stdout: json, stderr: 'from stderr' }))).toEqual({
      verdict: 'block',
      reason: 'from json',
    })
  })

  it.each([
    ['Claude Code / Codex', { decision: 'block', reason: 'run the tests' }, 'run the tests'],
    ['Gemini CLI deny', { decision: 'deny', reason: 'retry with fixes' }, 'retry with fixes'],
    ['continue:false', { continue: false, stopReason: 'build broken' }, 'build broken'],
    ['Hermes action block', { action: 'block', message: 'not yet' }, 'not yet'],
    [
      'Claude additionalContext',
      { hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'add docs' } },
      'add docs',
    ],
  ])('blocks on exit 0 with the %s JSON shape', (_name, body, reason) => {
    expect(interpretStopHook(outcome({ stdout: `  ${JSON.stringify(body)}\n` }))).toEqual({
      verdict: 'block',
      reason,
    })
  })

  it('allows on exit 0 with approve/allow JSON, and ignores malformed JSON', () => {
    expect(interpretStopHook(outcome({ stdout: '{"decision":"approve"}' })).verdict).toBe('allow')
    expect(interpretStopHook(outcome({ stdout: '{"decision":"allow"}' })).verdict).toBe('allow')
    expect(interpretStopHook(outcome({ stdout: '{"decision":"block", oops' })).verdict).toBe('allow')
    expect(interpretStopHook(outcome({ stdout: '["block"]' })).verdict).toBe('allow')
  })

  it('gives a block without a reason a readable one', () => {
    expect(interpretStopHook(outcome({ stdout: '{"decision":"block"}' }))).toEqual({
      verdict: 'block',
      reason: 'blocked (no reason given)',
    })
  })

  it('treats other exit codes, signals, timeouts and spawn failures as errors with the cause', () => {
    const exit1 = interpretStopHook(
      outcome({ exitCode: 1, stderr: 'line1\nTypeError: boom\n', stdout: '{"decision":"block"}' }),
    )
    expect(exit1.verdict).toBe('error')
    expect(exit1.reason).toContain('exited with code 1')
    expect(exit1.reason).toContain('TypeError: boom')
    expect(interpretStopHook(outcome({ exitCode: null, signal: 'SIGSEGV' }))).toEqual({
      verdict: 'error',
      reason: 'killed by SIGSEGV',
    })
    expect(
      interpretStopHook(outcome({ exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 500 })),
    ).toEqual({
      verdict: 'error',
      reason: 'timed out after 500ms',
    })
    expect(interpretStopHook(outcome({ exitCode: null, spawnError: 'command not found: nope' }))).toEqual({
      verdict: 'error',
      reason: 'command not found: nope',
    })
  })

  it('caps very long reasons and says how much was cut', () => {
    const result = interpretStopHook(outcome({ exitCode: 2, stderr: 'x'.repeat(MAX_REASON_CHARS + 500) }))
    expect(result.reason!.length).toBeLessThan(MAX_REASON_CHARS + 60)
    expect(result.reason).toContain('500 more characters')
  })
})
