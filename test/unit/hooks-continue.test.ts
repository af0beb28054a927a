import { describe, expect, it } from 'vitest'
import {
  continuationMessage,
  continueCommand,
  feedbackMessage,
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

describe("agent.continue with {agent_session}: the agent CLI's own session", () => {
  const fill = { message: 'proctor: go on', round: 3, history: 'proctor: earlier rounds…' }

  it('resumes the session by id, the id one argv element, the history left out', () => {
    const template = [
      'claude',
      '--resume',
      '{agent_session}',
      '-p',
      '{reason}',
      '--permission-mode',
      'acceptEdits',
    ]
    expect(continueCommand(template, { ...fill, agentSession: '4f1c-uuid-0001' })).toEqual({
      file: 'claude',
      args: ['--resume', '4f1c-uuid-0001', '-p', 'proctor: go on', '--permission-mode', 'acceptEdits'],
    })
  })

  it('without a session: the element and its option or subcommand go, and {reason} starts with the history', () => {
    const fresh = { ...fill, agentSession: null }
    const message = `${fill.history}\n\n${fill.message}`
    expect(continueCommand(['claude', '--resume', '{agent_session}', '-p', '{reason}'], fresh)).toEqual({
      file: 'claude',
      args: ['-p', message],
    })
    expect(continueCommand(['codex', 'exec', 'resume', '{agent_session}', '{reason}'], fresh)).toEqual({
      file: 'codex',
      args: ['exec', message],
    })
    expect(continueCommand(['gemini', '--resume={agent_session}', '-p', '{reason}'], fresh)).toEqual({
      file: 'gemini',
      args: ['-p', message],
    })
    // Never the program itself.
    expect(continueCommand(['resume-agent', '{agent_session}', '{reason}'], fresh)).toEqual({
      file: 'resume-agent',
      args: [message],
    })
  })

  it('a session id or reason that looks like a placeholder stays literal (one pass)', () => {
    const command = continueCommand(['x', '--resume', '{agent_session}', '{reason}'], {
      message: 'see {agent_session} and {round}',
      round: 2,
      agentSession: 'id-{reason}-0000',
    })
    expect(command.args).toEqual(['--resume', 'id-{reason}-0000', 'see {agent_session} and {round}'])
  })

  it('planContinuation passes the session and the history to a re-run', () => {
    const state: AgentState = {
      ...base,
      running: false,
      continueCommand: ['claude', '--resume', '{agent_session}', '-p', '{reason}'],
    }
    expect(planContinuation('claude', { ...state, agentSession: 'abcdef-123456' })).toMatchObject({
      command: { args: ['--resume', 'abcdef-123456', '-p', continuationMessage(state.reasons)] },
    })
    expect(planContinuation('claude', { ...state, agentSession: null, history: 'H' })).toMatchObject({
      command: { args: ['-p', `H\n\n${continuationMessage(state.reasons)}`] },
    })
  })

  it('feedback names who asked', () => {
    expect(feedbackMessage('add tests', 'octocat')).toBe(
      'proctor: octocat reviewed your work and asks to continue with this:\nadd tests',
    )
    expect(feedbackMessage('add tests', null)).toBe(
      'proctor: you are asked to continue with this:\nadd tests',
    )
  })
})
