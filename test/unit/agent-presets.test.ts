// Agent presets: `agent.preset` / `--agent` applied beneath the user's proctor.yml, print vs interactive
// runs of Claude Code, and the user's keys and rules winning over the preset's.
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfigText } from '../../src/config/index.js'
import { agentPresets } from '../../src/agents/presets/index.js'
import { compileRules } from '../../src/supervisor/detect.js'

const names = (config: { detect: { name: string }[] }) => config.detect.map((r) => r.name)

describe('agent presets', () => {
  it('every registered preset is a valid proctor.yml fragment in both modes, with compilable rules', () => {
    for (const preset of Object.values(agentPresets)) {
      for (const argv of [['x', '-p', 'task'], ['x']]) {
        const { config } = parseConfigText('', 'proctor.yml', { preset: preset.name, argv })
        expect(config.agent.preset).toBe(preset.name)
        expect(() => compileRules(config.detect)).not.toThrow()
      }
      expect(preset.testedVersions.length).toBeGreaterThan(0)
    }
  })

  it('claude-code: print mode wires the Stop hook; the TUI gets the dialog, working and completion rules', () => {
    const print = parseConfigText('', 'proctor.yml', {
      preset: 'claude-code',
      argv: ['claude', '-p', 'fix it'],
    }).config
    expect(print.agent.adapter).toBe('claude')
    expect(names(print)).toEqual(['claude-code:not-logged-in', 'claude-code:api-error'])
    expect(print.agent.continue).toEqual(['claude', '--resume', '{agent_session}', '-p', '{reason}'])
    const tui = parseConfigText('', 'proctor.yml', {
      preset: 'claude-code',
      argv: ['claude', 'fix it'],
    }).config
    expect(tui.agent.adapter).toBe('generic')
    expect(tui.detect.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['dialog', 'approval_request', 'working', 'completion', 'agent_error']),
    )
    const yes = tui.detect.find((r) => r.name === 'claude-code:yes')!
    expect(yes.respond).toMatchObject({ send: '\r', delay: 300, retry_after: 2_000, max_attempts: 5 })
  })

  it('codex and gemini: one-shot and TUI keep the native hook; the TUI adds the screen rules and agent.quit', () => {
    const cases = [
      {
        preset: 'codex',
        once: ['codex', 'exec', 'fix it'],
        tui: ['codex', '-a', 'on-request', 'fix it'],
        quit: '/exit\r',
      },
      {
        preset: 'gemini',
        once: ['gemini', '-p', 'fix it'],
        tui: ['gemini', '-m', 'x', 'fix it'],
        quit: '/quit\r',
      },
    ]
    for (const c of cases) {
      const once = parseConfigText('', 'proctor.yml', { preset: c.preset, argv: c.once }).config
      expect(once.agent.adapter).toBe(c.preset)
      // One-shot: only the rules for the CLI giving up on its model API.
      expect(once.detect.map((r) => r.kind)).toEqual(once.detect.map(() => 'agent_error'))
      expect(once.agent.quit).toBeUndefined()
      const tui = parseConfigText('', 'proctor.yml', { preset: c.preset, argv: c.tui }).config
      expect(tui.agent.adapter).toBe(c.preset)
      expect(tui.agent.quit).toBe(c.quit)
      expect(tui.detect.map((r) => r.kind)).toEqual(
        expect.arrayContaining(['dialog', 'approval_request', 'working', 'error', 'agent_error']),
      )
    }
  })

  it('copilot wires its native agentStop hook and resumes by id; opencode takes the generic path with `opencode run --continue`', () => {
    const copilot = parseConfigText('', 'proctor.yml', {
      preset: 'copilot',
      argv: ['copilot', '-p', 'fix it', '--allow-all-tools'],
    }).config
    expect(copilot.agent.adapter).toBe('copilot')
    expect(copilot.agent.continue).toEqual([
      'copilot',
      '--resume={agent_session}',
      '-p',
      '{reason}',
      '--allow-all-tools',
    ])
    expect(copilot.detect.map((r) => r.kind)).toEqual(copilot.detect.map(() => 'agent_error'))
    const opencode = parseConfigText('', 'proctor.yml', {
      preset: 'opencode',
      argv: ['opencode', 'run', 'fix it'],
    }).config
    expect(opencode.agent).toMatchObject({
      adapter: 'generic',
      pty: false,
      continue: ['opencode', 'run', '--continue', '{reason}'],
    })
  })

  it("copilot and opencode: the API-failure rules take the CLIs' own lines (Copilot 1.0.102, opencode 1.18.33) and the API's words as the reason", () => {
    const seen: [preset: string, line: string, reason: string | null][] = [
      [
        'copilot',
        'Authentication failed with provider at http://127.0.0.1:33363/v1 (HTTP 401).',
        'Authentication failed with provider at http://127.0.0.1:33363/v1 (HTTP 401)',
      ],
      [
        'copilot',
        'Failed to get response from the AI model; retried 5 times (total retry wait time: 5.38 seconds) Last error: 429 Rate limit reached for gpt-5.1-codex on tokens per min (TPM). Please try again in 1s.',
        '429 Rate limit reached for gpt-5.1-codex on tokens per min (TPM). Please try again in 1s.',
      ],
      ['copilot', '● Request failed due to a transient API error. Retrying...', null],
      [
        'opencode',
        'Error: Incorrect API key provided: sk-test-***-real.',
        'Incorrect API key provided: sk-test-***-real.',
      ],
      [
        'opencode',
        'Error: Rate limit reached for gpt-5.1-codex on tokens per min (TPM).',
        'Rate limit reached for gpt-5.1-codex on tokens per min (TPM).',
      ],
      // Not the API: opencode's own errors are its business.
      ['opencode', 'Error: Tool execution aborted', null],
    ]
    for (const [preset, line, reason] of seen) {
      const { config } = parseConfigText('', 'proctor.yml', { preset, argv: [preset, 'run', '-p', 'task'] })
      const matched = compileRules(config.detect)
        .map((r) => r.regex.exec(line))
        .find((m) => m !== null)
      expect(matched?.groups?.reason ?? null, line).toBe(reason)
    }
  })

  it('the TUI rules match the lines the real CLIs showed (Codex 0.169.0, Gemini CLI 0.61.0, Claude Code 2.1.197)', () => {
    // Screen lines copied from the real TUIs under a PTY (docs/agents.md lists them).
    const seen: [preset: string, line: string, rule: string | null][] = [
      ['codex', '› 1. Trust and continue', 'codex:trust-folder'],
      ['codex', '  Would you like to run the following command?', 'codex:approval'],
      ['codex', '› 1. Yes, proceed (y)', 'codex:yes'],
      ['codex', '> 1. Sign in with ChatGPT', 'codex:not-logged-in'],
      ['codex', '• Working (4s • esc to interrupt) · Running hook', 'codex:working'],
      ['codex', '  Worked for 4s • 00:07', 'codex:done'],
      ['codex', '  Worked for <1s • 00:06', 'codex:done'],
      ['codex', '› Ask Codex to do anything', null],
      ['codex', '• Created done.txt.', null],
      ['gemini', ' │ ● 1. Trust folder (grepo)  │', 'gemini:trust-folder'],
      ['gemini', '│ Apply this change?      │', 'gemini:approval'],
      ['gemini', '│ Allow execution of [Shell]?   │', 'gemini:approval'],
      ['gemini', '│ ● 1. Allow once      │', 'gemini:allow-once'],
      ['gemini', '│   How would you like to authenticate for this project?  │', 'gemini:not-logged-in'],
      ['gemini', ' ⠸ Executing Hook: proctor-stop (esc to cancel, 0s)     ? for shortcuts', 'gemini:working'],
      ['gemini', ' >   Type your message or @path/to/file', null],
      ['gemini', '> create done.txt', null],
      ['gemini', '✦ All done.', null],
      ['claude-code', ' ❯ 1. Yes, I trust this folder', 'claude-code:yes'],
      ['claude-code', '  ❯ 1. Yes', 'claude-code:yes'],
      // 2.1.197 redraws a closed dialog with the chosen option ticked: not a prompt any more.
      ['claude-code', ' ❯ 1. Yes, I trust this folder ✔', null],
    ]
    for (const [preset, line, rule] of seen) {
      const { config } = parseConfigText('', 'proctor.yml', { preset, argv: [preset, 'task'] })
      const matched = compileRules(config.detect).find((r) => r.regex.test(line))
      expect(matched?.name ?? null, `${preset}: ${line}`).toBe(rule)
    }
  })

  it('agent.preset in the file works like --agent; the command in the file decides the mode', () => {
    const { config } = parseConfigText(
      'agent:\n  preset: claude-code\n  command: [claude, fix]\n',
      'proctor.yml',
    )
    expect(names(config)).toContain('claude-code:done')
  })

  it('the user wins: keys override, env merges, own rules come first, a same-named rule replaces the preset’s', () => {
    const text = `agent:
  preset: claude-code
  command: [claude, go]
  env: { EXTRA: "1", DISABLE_AUTOUPDATER: "0" }
checkpoints:
  pause_agent: false
detect:
  - { name: mine, match: 'rate limit', kind: error, respond: { stop: true } }
  - { name: 'claude-code:permission', match: 'Do you want to', respond: { send: "\\x1b" } }
`
    const { config } = parseConfigText(text, 'proctor.yml')
    expect(config.agent.env).toEqual({
      EXTRA: '1',
      DISABLE_AUTOUPDATER: '0',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    })
    expect(config.checkpoints.pause_agent).toBe(false)
    expect(names(config).slice(0, 2)).toEqual(['mine', 'claude-code:permission'])
    expect(names(config).filter((n) => n === 'claude-code:permission')).toHaveLength(1)
    expect(config.detect.find((r) => r.name === 'claude-code:permission')!.respond).toEqual({ send: '\x1b' })
    expect(names(config)).toContain('claude-code:yes')
  })

  it('an unknown preset is an error naming the line (file) or the choices (--agent)', () => {
    expect(() => parseConfigText('agent:\n  preset: cursor\n', 'proctor.yml')).toThrow(
      /proctor.yml:2:\d+ agent.preset/,
    )
    let error: unknown
    try {
      parseConfigText('', 'proctor.yml', { preset: 'cursor' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(/unknown agent preset "cursor"; choose one of: claude-code/)
  })

  it('without a preset nothing changes', () => {
    const { config } = parseConfigText('agent:\n  command: [claude, go]\n', 'proctor.yml')
    expect(config.agent.preset).toBeUndefined()
    expect(config.detect).toEqual([])
    expect(config.agent.adapter).toBe('generic')
  })
})
