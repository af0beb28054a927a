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

  it('treats any other exit code or a crash as a failure whose reason names the hook and quotes its output', () => {
    const exit1 = interpretStopHook(
      outcome({
        exitCode: 1,
        stderr: 'npm error Test failed\n',
        stdout: '\u001b[31mFAIL\u001b[39m src/a.test.ts\nTypeError: boom\n',
        name: 'tests',
        command: 'npm test',
      }),
    )
    expect(exit1).toEqual({
      verdict: 'fail',
      // npm's own "npm error" lines are a banner, not the failure.
      reason: 'tests (npm test) exited 1: FAIL src/a.test.ts\nTypeError: boom',
    })
    expect(interpretStopHook(outcome({ exitCode: 3, name: 'lint' }))).toEqual({
      verdict: 'fail',
      reason: 'lint exited 3 without output',
    })
    expect(interpretStopHook(outcome({ exitCode: null, signal: 'SIGSEGV', name: 'tests' }))).toEqual({
      verdict: 'fail',
      reason: 'tests was killed by SIGSEGV without output',
    })
  })

  it('quotes only the last 60 lines / 4 KiB of a failure, redacted', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`)
    const many = interpretStopHook(outcome({ exitCode: 1, stdout: lines.join('\n'), name: 't' }))
    expect(many.reason!.split('\n')).toHaveLength(60)
    expect(many.reason).toMatch(/^t exited 1: line 140\n/)
    expect(many.reason).toMatch(/line 199$/)
    const wide = interpretStopHook(
      outcome({ exitCode: 1, stdout: `${'x'.repeat(9000)}\nthe end`, name: 't' }),
    )
    expect(Buffer.byteLength(wide.reason!)).toBeLessThanOrEqual(4096 + 40)
    expect(wide.reason).toMatch(/the end$/)
    const token = `ghp_${'a'.repeat(36)}`
    const secret = interpretStopHook(
      outcome({
        exitCode: 1,
        stderr: `auth with ${token} and hunter2-value failed`,
        secrets: ['hunter2-value'],
      }),
    )
    expect(secret.reason).not.toContain(token)
    expect(secret.reason).not.toContain('hunter2-value')
    expect(secret.reason).toContain('auth with *** and *** failed')
  })

  it('treats a hook that cannot run, times out or is stopped as an error that tells the user what to fix', () => {
    expect(
      interpretStopHook(
        outcome({
          exitCode: 127,
          stderr: 'sh: 1: npm-tset: not found\n',
          name: 'tests',
          command: 'npm-tset',
        }),
      ),
    ).toEqual({
      verdict: 'error',
      reason:
        'tests (npm-tset) could not run (exit 127: command not found); fix its command in proctor.yml: sh: 1: npm-tset: not found',
    })
    expect(interpretStopHook(outcome({ exitCode: 126, name: 'x' })).reason).toBe(
      'x could not run (exit 126: command not executable); fix its command in proctor.yml',
    )
    expect(
      interpretStopHook(
        outcome({ exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 500, name: 'slow' }),
      ),
    ).toEqual({
      verdict: 'error',
      reason: 'slow timed out after 500ms; raise its timeout in proctor.yml or make it faster',
    })
    expect(interpretStopHook(outcome({ exitCode: null, spawnError: 'command not found: nope' }))).toEqual({
      verdict: 'error',
      reason: 'command not found: nope; fix its command in proctor.yml',
    })
    expect(
      interpretStopHook(outcome({ exitCode: null, signal: 'SIGTERM', stoppedBy: 'shutdown', name: 'x' })),
    ).toEqual({ verdict: 'error', reason: 'x was stopped (shutdown) before it finished' })
  })

  it('caps very long reasons and says how much was cut', () => {
    const result = interpretStopHook(outcome({ exitCode: 2, stderr: 'x'.repeat(MAX_REASON_CHARS + 500) }))
    expect(result.reason!.length).toBeLessThan(MAX_REASON_CHARS + 60)
    expect(result.reason).toContain('500 more characters')
  })
})
