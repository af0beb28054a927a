// A task, then a continuation of the same proctor session, with the real agent CLIs (pinned devDependencies)
// against their scripted model APIs on loopback: `proctor run --task "<task>" -- <cli> … {task}` runs round
// 1 (the API log shows the task reached the model), then `proctor run --continue <session> --task
// "<feedback>"` runs round 2 of that session through the preset's agent.continue, which resumes the CLI's
// own session by the id its Stop hook gave (report.agent_session_id): the second round's request carries the
// first round's conversation. With the CLI's session store gone (a new CI machine), the continuation starts
// a fresh agent told what the earlier rounds did instead.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeBinaries, claudeWorld, cli, type ClaudeWorld } from './claude-harness.js'
import { userTexts, type AnthropicRequest } from '../servers/anthropic-api.js'
import type { SessionReport } from '../../src/report/model.js'
import * as openai from '../servers/openai-api.js'
import * as gemini from '../servers/gemini-api.js'
import {
  AGENT_TEST_MS,
  codexBin,
  codexSetup,
  codexVersion,
  geminiBin,
  geminiSetup,
  geminiVersion,
  repo as tempRepo,
  type Cleanups,
} from './agents-harness.js'

const TASK = 'TASK-ALPHA: write hello.txt containing hi'
const FEEDBACK = 'TASK-BETA: now also write bye.txt containing bye'
const ROUND_ONE_REPLY = 'ROUND-ONE-REPLY: wrote hello.txt.'
const SESSION = 'resume-e2e'

// The preset's agent.continue with the permission mode a one-shot Claude needs to write (as `proctor init` writes it).
const hook = `agent:
  continue: ["claude", "--resume", "{agent_session}", "-p", "{reason}", "--permission-mode", "acceptEdits"]
stop_hooks:
  - name: needs-hello
    command: ["sh", "-c", "test -f hello.txt || { echo 'hello.txt is missing' >&2; exit 2; }"]
checkpoints:
  push: never
`

interface Run {
  code: number | null
  output: string
  report: SessionReport
}

function run(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [cli, 'run', '--no-push', ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  return new Promise((resolveRun) =>
    child.on('close', (code) => {
      const path = join(cwd, '.proctor/sessions', SESSION, 'report.json')
      const report = (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null) as SessionReport
      resolveRun({ code, output, report })
    }),
  )
}

const diagnose = (r: Run) =>
  `exit ${r.code}\n${r.output}\n${JSON.stringify(r.report?.events?.slice(-12), null, 1)}`

/** The assistant turns a request carries back to the model: what it already said in this conversation. */
const assistantTexts = (request: AnthropicRequest): string =>
  JSON.stringify((request.body?.messages ?? []).filter((m) => m.role === 'assistant'))

const worlds: ClaudeWorld[] = []
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup()
})

// Both pinned Claude releases (the preset names both).
describe.each(claudeBinaries())('Claude Code print mode, --task then --continue ($label)', (binary) => {
  async function roundOne(): Promise<{ world: ClaudeWorld; first: Run }> {
    const here = { dir: '' }
    const world = await claudeWorld(
      binary,
      (_req, h) => {
        if (h.afterToolResult)
          return { text: h.lastUserText.includes('bye') ? 'Wrote bye.txt.' : ROUND_ONE_REPLY }
        const write = (file: string, content: string) => ({
          text: `Writing ${file}.`,
          toolUse: { name: 'Write', input: { file_path: join(here.dir, file), content } },
        })
        if (h.lastUserText.includes('TASK-BETA')) return write('bye.txt', 'bye\n')
        if (h.lastUserText.includes('TASK-ALPHA')) return write('hello.txt', 'hi\n')
        return { text: 'Nothing to do.' }
      },
      { 'proctor.yml': hook },
    )
    worlds.push(world)
    here.dir = world.repo.dir
    world.repo.commitAll('proctor.yml')
    const first = await run(world.repo.dir, world.env, [
      '--agent',
      'claude-code',
      '--session',
      SESSION,
      '--task',
      TASK,
      '--',
      'claude',
      '-p',
      '--permission-mode',
      'acceptEdits',
      '{task}',
    ])
    expect(first.code, diagnose(first)).toBe(0)
    // The task reached the model as the prompt.
    expect(userTexts(world.api.conversation()[0]!)).toContain(TASK)
    expect(first.report.rounds).toBe(1)
    expect(first.report.agent_session_id, diagnose(first)).toMatch(/^[0-9a-f-]{36}$/)
    return { world, first }
  }

  it("resumes Claude's own session by id as round 2 of the same proctor session", async () => {
    const { world, first } = await roundOne()
    const before = world.api.conversation().length
    const second = await run(world.repo.dir, world.env, [
      '--agent',
      'claude-code',
      '--continue',
      SESSION,
      '--task',
      FEEDBACK,
    ])
    expect(second.code, diagnose(second)).toBe(0)
    expect(world.repo.read('bye.txt')).toBe('bye\n')
    // The second round's first request carries the first round's conversation, then the feedback.
    const resumed = world.api.conversation()[before]!
    expect(userTexts(resumed)).toContain(TASK)
    expect(assistantTexts(resumed)).toContain(ROUND_ONE_REPLY)
    expect(userTexts(resumed)).toContain(FEEDBACK)
    expect(second.output).toContain(`resuming claude's own session ${first.report.agent_session_id}`)
    // Round 2 of the same session: the same report, both rounds' stop hooks, the command that resumed.
    expect(second.report.session_id).toBe(SESSION)
    expect(second.report.rounds).toBe(2)
    expect(second.report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
      [1, 'allow'],
      [2, 'allow'],
    ])
    expect(second.report.command.slice(0, 3)).toEqual(['claude', '--resume', first.report.agent_session_id])
    expect(world.proxy.attempts).toEqual([])
  }, 240_000)

  it("goes on in print mode, Claude's Stop hook wired, after a session that ran as a TUI", async () => {
    const world = await claudeWorld(
      binary,
      (_req, h) => {
        if (h.afterToolResult) return { text: 'Wrote bye.txt.' }
        if (h.lastUserText.includes('TASK-BETA'))
          return {
            text: 'Writing bye.txt.',
            toolUse: {
              name: 'Write',
              input: { file_path: join(world.repo.dir, 'bye.txt'), content: 'bye\n' },
            },
          }
        return { text: 'Nothing to do.' }
      },
      { 'proctor.yml': hook },
    )
    worlds.push(world)
    world.repo.commitAll('proctor.yml')
    // Round 1 as the preset's interactive mode sees it (no -p): a stand-in that writes hello.txt and exits.
    const first = await run(world.repo.dir, world.env, [
      '--agent',
      'claude-code',
      '--session',
      SESSION,
      '--',
      'sh',
      '-c',
      'echo hi > hello.txt',
    ])
    expect(first.code, diagnose(first)).toBe(0)
    const second = await run(world.repo.dir, world.env, [
      '--agent',
      'claude-code',
      '--continue',
      SESSION,
      '--task',
      FEEDBACK,
    ])
    expect(second.code, diagnose(second)).toBe(0)
    expect(world.repo.read('bye.txt')).toBe('bye\n')
    // Print mode's wiring: Claude's own Stop hook ran the stop hooks and named its session.
    expect(second.report.events.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/^wired proctor into claude's own Stop hook: added /),
    )
    expect(second.report.agent_session_id, diagnose(second)).toMatch(/^[0-9a-f-]{36}$/)
    expect(second.report.command.slice(0, 2)).toEqual(['claude', '-p'])
  }, 240_000)

  it("starts a fresh agent told what the earlier rounds did when Claude's session store is gone", async () => {
    const { world } = await roundOne()
    // A new machine: Claude's conversations are not there.
    rmSync(join(world.env.CLAUDE_CONFIG_DIR!, 'projects'), { recursive: true, force: true })
    const before = world.api.conversation().length
    const second = await run(world.repo.dir, world.env, [
      '--agent',
      'claude-code',
      '--continue',
      SESSION,
      '--task',
      FEEDBACK,
    ])
    expect(second.code, diagnose(second)).toBe(0)
    expect(world.repo.read('bye.txt')).toBe('bye\n')
    const fresh = world.api.conversation()[before]!
    // No earlier conversation, but the history: the session, its first command with the task, its round.
    expect(assistantTexts(fresh)).not.toContain(ROUND_ONE_REPLY)
    expect(userTexts(fresh)).toContain(`proctor: this continues session ${SESSION}`)
    expect(userTexts(fresh)).toContain(TASK)
    expect(userTexts(fresh)).toContain('round 1, the stop hooks: needs-hello passed')
    expect(userTexts(fresh)).toContain(FEEDBACK)
    expect(second.report.rounds).toBe(2)
    expect(second.report.command).not.toContain('--resume')
  }, 240_000)
})

// ---------------------------------------------------------------- Codex and Gemini CLI

const cleanups: Cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** proctor.yml for a one-shot CLI: no terminal, the hello.txt hook, the preset's continue with its flags. */
function cliYml(continueCommand: string[]): string {
  return `agent:\n  pty: false\n  continue: ${JSON.stringify(continueCommand)}\n${hook.replace(/^agent:\n.*\n/, '')}`
}

/** The text of the last item of `items` that is a user message, as JSON. */
function lastUser(items: unknown[], isUser: (item: Record<string, unknown>) => boolean): string {
  return JSON.stringify(items.filter((item) => isUser(item as Record<string, unknown>)).at(-1) ?? null)
}

describe(`Codex CLI ${codexVersion} exec, --task then --continue`, () => {
  const codexInput = (request: openai.LoggedRequest) => (request.body?.input ?? []) as unknown[]
  const script = (request: openai.LoggedRequest) => {
    const input = codexInput(request)
    const user = lastUser(input, (item) => item.role === 'user')
    const last = input.at(-1) as Record<string, unknown> | undefined
    if (last?.type === 'function_call_output')
      return [openai.message(user.includes('TASK-BETA') ? 'Wrote bye.txt.' : ROUND_ONE_REPLY)]
    if (user.includes('TASK-BETA'))
      return [openai.functionCall('exec_command', { cmd: 'printf "bye\\n" > bye.txt' })]
    if (user.includes('TASK-ALPHA'))
      return [openai.functionCall('exec_command', { cmd: 'printf "hi\\n" > hello.txt' })]
    return [openai.message('Nothing to do.')]
  }

  async function roundOne() {
    const world = await codexSetup(cleanups, { script: [], fallback: script })
    const r = tempRepo(cleanups, {
      'proctor.yml': cliYml([
        codexBin,
        'exec',
        'resume',
        '{agent_session}',
        '--dangerously-bypass-approvals-and-sandbox',
        '{reason}',
      ]),
    })
    const env = world.env(r)
    const first = await run(r.dir, env, [
      '--agent',
      'codex',
      '--session',
      SESSION,
      '--task',
      TASK,
      '--',
      codexBin,
      'exec',
      '--dangerously-bypass-approvals-and-sandbox',
      '{task}',
    ])
    expect(first.code, diagnose(first)).toBe(0)
    expect(openai.inputText(world.api.turns()[0]!)).toContain(TASK)
    expect(readFileSync(join(r.dir, 'hello.txt'), 'utf8')).toBe('hi\n')
    expect(first.report.agent_session_id, diagnose(first)).toMatch(/^[0-9a-f-]{36}$/)
    return { ...world, r, env, first }
  }

  it(
    "resumes Codex's own thread by id as round 2 of the same proctor session",
    async () => {
      const { api, r, env, first } = await roundOne()
      const before = api.turns().length
      const second = await run(r.dir, env, ['--agent', 'codex', '--continue', SESSION, '--task', FEEDBACK])
      expect(second.code, diagnose(second)).toBe(0)
      expect(readFileSync(join(r.dir, 'bye.txt'), 'utf8')).toBe('bye\n')
      const resumed = api.turns()[before]!
      // The first round's conversation (its task, its tool call, its reply), then the feedback.
      expect(openai.inputText(resumed)).toContain(TASK)
      expect(openai.inputText(resumed)).toContain(ROUND_ONE_REPLY)
      expect(openai.inputText(resumed)).toContain(FEEDBACK)
      expect(second.report).toMatchObject({ session_id: SESSION, rounds: 2, verdict: 'allow' })
      expect(second.report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'allow'],
        [2, 'allow'],
      ])
      expect(second.report.command.slice(1, 4)).toEqual(['exec', 'resume', first.report.agent_session_id])
    },
    AGENT_TEST_MS * 2,
  )

  it(
    "starts a fresh codex exec told the earlier rounds when Codex's sessions are gone",
    async () => {
      const { api, home, r, env } = await roundOne()
      rmSync(join(home, 'sessions'), { recursive: true, force: true })
      const before = api.turns().length
      const second = await run(r.dir, env, ['--agent', 'codex', '--continue', SESSION, '--task', FEEDBACK])
      expect(second.code, diagnose(second)).toBe(0)
      expect(readFileSync(join(r.dir, 'bye.txt'), 'utf8')).toBe('bye\n')
      const fresh = api.turns()[before]!
      expect(openai.inputText(fresh)).not.toContain(ROUND_ONE_REPLY)
      expect(openai.inputText(fresh)).toContain(`proctor: this continues session ${SESSION}`)
      expect(openai.inputText(fresh)).toContain(FEEDBACK)
      expect(second.report.rounds).toBe(2)
      expect(second.report.command).not.toContain('resume')
    },
    AGENT_TEST_MS * 2,
  )
})

describe(`Gemini CLI ${geminiVersion} -p, --task then --continue`, () => {
  const contents = (request: gemini.LoggedRequest) => (request.body?.contents ?? []) as unknown[]
  const script = (request: gemini.LoggedRequest) => {
    const all = contents(request)
    const user = lastUser(
      all,
      (item) => item.role === 'user' && !JSON.stringify(item).includes('functionResponse'),
    )
    const last = JSON.stringify(all.at(-1) ?? null)
    if (last.includes('functionResponse'))
      return [gemini.text(user.includes('TASK-BETA') ? 'Wrote bye.txt.' : ROUND_ONE_REPLY)]
    if (user.includes('TASK-BETA'))
      return [gemini.functionCall('write_file', { file_path: 'bye.txt', content: 'bye\n' })]
    if (user.includes('TASK-ALPHA'))
      return [gemini.functionCall('write_file', { file_path: 'hello.txt', content: 'hi\n' })]
    return [gemini.text('Nothing to do.')]
  }
  const flags = ['-m', 'gemini-2.5-flash', '--approval-mode', 'yolo']
  /** The request that carried the feedback to the model (Gemini sends side requests too). */
  const carrying = (api: { turns(): gemini.LoggedRequest[] }, text: string) =>
    api.turns().find((request) => gemini.contentsText(request).includes(text))

  async function roundOne() {
    const world = await geminiSetup(cleanups, [], script)
    const r = tempRepo(cleanups, {
      'proctor.yml': cliYml([geminiBin, '--resume', '{agent_session}', '-p', '{reason}', ...flags]),
    })
    const env = world.env(r)
    const first = await run(r.dir, env, [
      '--agent',
      'gemini',
      '--session',
      SESSION,
      '--task',
      TASK,
      '--',
      geminiBin,
      '-p',
      '{task}',
      ...flags,
    ])
    expect(first.code, diagnose(first)).toBe(0)
    expect(carrying(world.api, TASK)).toBeDefined()
    expect(readFileSync(join(r.dir, 'hello.txt'), 'utf8')).toBe('hi\n')
    expect(first.report.agent_session_id, diagnose(first)).toMatch(/^[0-9a-f-]{36}$/)
    return { ...world, r, env, first }
  }

  it(
    "resumes Gemini's own session by id as round 2 of the same proctor session",
    async () => {
      const { api, r, env, first } = await roundOne()
      const second = await run(r.dir, env, ['--agent', 'gemini', '--continue', SESSION, '--task', FEEDBACK])
      expect(second.code, diagnose(second)).toBe(0)
      expect(readFileSync(join(r.dir, 'bye.txt'), 'utf8')).toBe('bye\n')
      const resumed = carrying(api, FEEDBACK)!
      expect(gemini.contentsText(resumed)).toContain(TASK)
      expect(gemini.contentsText(resumed)).toContain(ROUND_ONE_REPLY)
      expect(second.report).toMatchObject({ session_id: SESSION, rounds: 2, verdict: 'allow' })
      expect(second.report.stop_hooks.map((h) => [h.round, h.verdict])).toEqual([
        [1, 'allow'],
        [2, 'allow'],
      ])
      expect(second.report.command.slice(1, 3)).toEqual(['--resume', first.report.agent_session_id])
    },
    AGENT_TEST_MS * 2,
  )

  it(
    "starts a fresh gemini -p told the earlier rounds when Gemini's sessions are gone",
    async () => {
      const { api, r, env } = await roundOne()
      rmSync(join(env.HOME!, '.gemini/tmp'), { recursive: true, force: true })
      const second = await run(r.dir, env, ['--agent', 'gemini', '--continue', SESSION, '--task', FEEDBACK])
      expect(second.code, diagnose(second)).toBe(0)
      expect(readFileSync(join(r.dir, 'bye.txt'), 'utf8')).toBe('bye\n')
      const fresh = carrying(api, FEEDBACK)!
      expect(gemini.contentsText(fresh)).not.toContain(ROUND_ONE_REPLY)
      expect(gemini.contentsText(fresh)).toContain(`proctor: this continues session ${SESSION}`)
      expect(second.report.rounds).toBe(2)
      expect(second.report.command).not.toContain('--resume')
    },
    AGENT_TEST_MS * 2,
  )
})
