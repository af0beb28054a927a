// A later round of a session that ended: which command it runs (the agent CLI's own session resumed, or a
// fresh agent told the history), read from the session's report.json and the CLI's session store on disk.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/parse.js'
import { agentSessionStored } from '../../src/agents/session-store.js'
import {
  earlierResults,
  planResume,
  readContinuing,
  ResumeError,
  summarizeRounds,
  type Continuing,
} from '../../src/session/resume.js'
import type { SessionReport } from '../../src/report/model.js'
import { tempDir } from '../helpers/git-repo.js'

const ID = '5d3a8c1e-0b7f-4c2e-9a61-2f4e8d9b7c10'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const home = () => {
  const dir = tempDir('proctor-agent-home-')
  dirs.push(dir)
  return dir
}
const put = (path: string, text = '{}\n') => {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}

const report = (over: Partial<SessionReport> = {}): SessionReport =>
  ({
    schema: 1,
    session_id: 'fix-1',
    status: 'completed',
    verdict: 'block',
    exit_code: 1,
    reason: 'stop hooks still blocked after 2 round(s)',
    command: ['claude', '-p', 'Fix the failing test'],
    checkpoints: [
      { seq: 1, files_changed: ['src/a.ts'] },
      { seq: 2, files_changed: ['src/a.ts', 'test/a.test.ts'] },
    ],
    stop_hooks: [
      { name: 'tests', verdict: 'block', reason: '2 failing', round: 1 },
      { name: 'lint', verdict: 'allow', reason: null, round: 1 },
      { name: 'tests', verdict: 'block', reason: '1 failing', round: 2 },
    ],
    rounds: 2,
    agent_session_id: ID,
    ...over,
  }) as SessionReport

const claude = parseConfigText('', 'proctor.yml', {
  preset: 'claude-code',
  argv: ['claude', '-p', 'x'],
}).config

describe('agentSessionStored: where each CLI keeps its sessions', () => {
  it('finds Claude Code, Codex and Gemini CLI sessions by id, and nothing in an empty home', () => {
    const h = home()
    expect(agentSessionStored('claude', ID, { HOME: h })).toBe(false)
    put(join(h, '.claude/projects/-tmp-repo', `${ID}.jsonl`))
    expect(agentSessionStored('claude', ID, { HOME: h })).toBe(true)
    // CLAUDE_CONFIG_DIR moves the store.
    expect(agentSessionStored('claude', ID, { HOME: h, CLAUDE_CONFIG_DIR: join(h, 'elsewhere') })).toBe(false)

    expect(agentSessionStored('codex', ID, { HOME: h })).toBe(false)
    put(join(h, '.codex/sessions/2026/11/29', `rollout-2026-11-29T05-00-00-${ID}.jsonl`))
    expect(agentSessionStored('codex', ID, { HOME: h })).toBe(true)
    expect(agentSessionStored('codex', ID, { HOME: h, CODEX_HOME: join(h, 'other') })).toBe(false)

    const chats = join(h, '.gemini/tmp/repo/chats')
    // The file name has only the id's first 8 characters: the id inside must match too.
    put(join(chats, `session-2026-11-29T05-00-${ID.slice(0, 8)}.jsonl`), '{"sessionId":"5d3a8c1e-other"}\n')
    expect(agentSessionStored('gemini', ID, { HOME: h })).toBe(false)
    put(join(chats, `session-2026-11-29T05-01-${ID.slice(0, 8)}.jsonl`), `{"sessionId":"${ID}"}\n`)
    expect(agentSessionStored('gemini', ID, { HOME: h })).toBe(true)

    expect(agentSessionStored('generic', ID, { HOME: h })).toBeNull()
  })

  it('finds a Copilot CLI session by its session-state directory ($COPILOT_HOME moves it)', () => {
    const h = home()
    expect(agentSessionStored('copilot', ID, { HOME: h })).toBe(false)
    put(join(h, '.copilot/session-state', ID, 'events.jsonl'))
    expect(agentSessionStored('copilot', ID, { HOME: h })).toBe(true)
    expect(agentSessionStored('copilot', ID, { HOME: h, COPILOT_HOME: join(h, 'other') })).toBe(false)
    // A file of that name is not a session.
    const other = home()
    put(join(other, '.copilot/session-state', ID))
    expect(agentSessionStored('copilot', ID, { HOME: other })).toBe(false)
  })

  it('takes no id that could walk out of the store or pass for an option', () => {
    const h = home()
    put(join(h, '.claude/projects/p/..jsonl'))
    for (const id of ['../../etc/passwd', '--dangerously-skip-permissions', '.', 'short'])
      expect(agentSessionStored('claude', id, { HOME: h })).toBe(false)
  })
})

describe('planResume', () => {
  const continuing = (over: Partial<SessionReport> = {}): Continuing => ({
    sessionId: 'fix-1',
    previous: report(over),
    firstRound: 3,
  })

  it("resumes the CLI's own session when its store has it: the feedback alone, as one element", () => {
    const h = home()
    put(join(h, '.claude/projects/p', `${ID}.jsonl`))
    const plan = planResume({
      config: claude,
      continuing: continuing(),
      feedback: 'also cover the empty input; $(rm -rf /)',
      author: 'octocat',
      env: { HOME: h },
    })
    expect(plan.resumed).toBe(ID)
    expect(plan.command).toEqual({
      file: 'claude',
      args: [
        '--resume',
        ID,
        '-p',
        'proctor: octocat reviewed your work and asks to continue with this:\nalso cover the empty input; $(rm -rf /)',
      ],
    })
    expect(plan.why).toBe(`resuming claude's own session ${ID}`)
  })

  it('starts a fresh agent with the history on a machine without the session, or without an id', () => {
    for (const over of [{}, { agent_session_id: undefined }, { agent_session_id: '--evil' }]) {
      const plan = planResume({
        config: claude,
        continuing: continuing(over),
        feedback: 'go on',
        author: null,
        env: { HOME: home() },
      })
      expect(plan.resumed).toBeNull()
      const { args } = plan.command!
      expect(args.slice(0, 1)).toEqual(['-p'])
      expect(args[1]).toContain('proctor: this continues session fix-1')
      expect(args[1]).toMatch(/go on$/)
      expect(plan.freshTask).toBe(args[1])
    }
  })

  it('without agent.continue: no command, the fresh task for the session command’s {task}', () => {
    const generic = parseConfigText('', 'proctor.yml').config
    const plan = planResume({
      config: generic,
      continuing: continuing(),
      feedback: 'go on',
      author: null,
      env: {},
    })
    expect(plan.command).toBeNull()
    expect(plan.why).toContain('agent.continue is not set')
    expect(plan.freshTask).toMatch(/^proctor: this continues session fix-1/)
  })
})

describe('summarizeRounds', () => {
  it('tells how the session started, each round’s stop hooks, the ending and the files', () => {
    expect(summarizeRounds(report())).toBe(
      [
        'proctor: this continues session fix-1. Earlier runs of the agent worked on it in this repository (their changes are in the working tree); their conversation is not available to you, so here is what happened:',
        '- the agent was started as: claude -p "Fix the failing test"',
        '- round 1, the stop hooks: tests block: 2 failing; lint passed',
        '- round 2, the stop hooks: tests block: 1 failing',
        '- it ended completed, verdict block (stop hooks still blocked after 2 round(s))',
        '- files changed: src/a.ts, test/a.test.ts',
      ].join('\n'),
    )
    // While the session still runs (an agent re-run within it) there is no ending to tell.
    expect(summarizeRounds(report(), { ended: false })).not.toContain('it ended')
  })
})

describe('readContinuing', () => {
  it('goes on after the last round, and names the fix when the session is not here', () => {
    const sessions = home()
    put(join(sessions, 'fix-1/report.json'), JSON.stringify(report()))
    expect(readContinuing(sessions, 'fix-1')).toMatchObject({ sessionId: 'fix-1', firstRound: 3 })
    expect(() => readContinuing(sessions, 'nope')).toThrow(ResumeError)
    expect(() => readContinuing(sessions, 'nope')).toThrow(/ls \.proctor\/sessions/)
    // Another session's report under this name is not this session.
    put(join(sessions, 'fix-2/report.json'), JSON.stringify(report()))
    expect(() => readContinuing(sessions, 'fix-2')).toThrow(/not that session's report/)
    // A planted report of the wrong shape fails here, not deep in a template.
    for (const planted of [
      { command: 'rm -rf /' },
      { agent_session_id: 42 },
      { checkpoints: [{ files_changed: 'x' }] },
    ]) {
      put(
        join(sessions, 'fix-3/report.json'),
        JSON.stringify(report({ session_id: 'fix-3', ...planted } as unknown as Partial<SessionReport>)),
      )
      expect(() => readContinuing(sessions, 'fix-3')).toThrow(/not that session's report/)
    }
  })
})

describe('earlierResults', () => {
  it('keeps only well-formed results of earlier rounds: a planted one cannot pass for this run', () => {
    const previous = report({
      stop_hooks: [
        { name: 'tests', verdict: 'block', reason: '2 failing', round: 1 },
        { name: 'tests', verdict: 'allow', reason: null, round: 3 },
        { name: 'tests', verdict: 'allow', reason: null, round: 99 },
        { name: 'tests', verdict: 'maybe', reason: null, round: 2 },
        { verdict: 'allow', round: 2 },
      ] as SessionReport['stop_hooks'],
    })
    expect(earlierResults({ sessionId: 'fix-1', previous, firstRound: 3 })).toEqual([
      { name: 'tests', verdict: 'block', reason: '2 failing', round: 1 },
    ])
  })
})
