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

// One Claude release is enough here: both pinned ones run print mode in agents-claude-print.test.ts.
describe.each(claudeBinaries().slice(0, 1))('Claude Code print mode, --task then --continue ($label)', (binary) => {
  async function roundOne(): Promise<{ world: ClaudeWorld; first: Run }> {
    const here = { dir: '' }
    const world = await claudeWorld(
      binary,
      (_req, h) => {
        if (h.afterToolResult) return { text: h.lastUserText.includes('bye') ? 'Wrote bye.txt.' : ROUND_ONE_REPLY }
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

  it(
    "resumes Claude's own session by id as round 2 of the same proctor session",
    async () => {
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
    },
    240_000,
  )

  it(
    "starts a fresh agent told what the earlier rounds did when Claude's session store is gone",
    async () => {
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
    },
    240_000,
  )
})
