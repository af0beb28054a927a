import { describe, expect, it } from 'vitest'
import {
  continuationMessage,
  planContinuation,
  typedPrompt,
  type AgentState,
} from '../../src/hooks/continue.js'

const base: AgentState = {
  mode: 'pty',
  running: true,
  nativeHooks: false,
  reasons: ['tests: 2 failing'],
  round: 2,
}

describe('planContinuation', () => {
  it('uses the native route when the agent has its own hooks wired to proctor', () => {
    expect(planContinuation('claude', { ...base, nativeHooks: true })).toEqual({ kind: 'native' })
    // a generic agent has no native hooks, whatever the flag says
    expect(planContinuation('generic', { ...base, nativeHooks: true }).kind).toBe('type-into-pty')
  })

  it('types one line ending with Enter into a live PTY agent, with no control characters smuggled in', () => {
    const plan = planContinuation('generic', {
      ...base,
      reasons: ['tests: fail\r\n\u001b[2Jrm -rf /\r', 'lint: 1 error'],
    })
    expect(plan.kind).toBe('type-into-pty')
    const text = (plan as { text: string }).text
    expect(text.endsWith('\r')).toBe(true)
    expect(text.slice(0, -1)).not.toMatch(/[\u0000-\u001f]/)
    expect(text).toContain('tests: fail')
    expect(text).toContain('lint: 1 error')
  })

  it('re-runs the continue command with the reason as exactly one argv element', () => {
    const reasons = ['tests: "quoted"; $(touch /tmp/pwned) {round}']
    const plan = planContinuation('generic', {
      ...base,
      running: false,
      continueCommand: ['claude', '--continue', '-p', '{reason}', 'round={round}'],
      reasons,
    })
    expect(plan).toEqual({
      kind: 'rerun',
      command: { file: 'claude', args: ['--continue', '-p', continuationMessage(reasons), 'round=2'] },
    })
    // the reason's own "{round}" stays literal
    expect((plan as { command: { args: string[] } }).command.args[2]).toContain('{round}')
  })

  it('says why when there is no way to continue', () => {
    const plan = planContinuation('generic', { ...base, running: false })
    expect(plan.kind).toBe('none')
    expect((plan as { why: string }).why).toContain('agent.continue')
  })

  it('caps a huge typed prompt', () => {
    expect(typedPrompt(['x'.repeat(20_000)]).length).toBeLessThan(4100)
  })
})
