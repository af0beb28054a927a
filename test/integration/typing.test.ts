// Typing that is submitted: typeAndSubmit against a real PTY process that, like Claude Code, takes a long
// single write for a paste (its Enter becomes a newline) and turns bracketed paste on; and quitAgent, which
// ends such an agent once the session is decided.
import { afterEach, describe, expect, it } from 'vitest'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { AgentRun } from '../../src/supervisor/agent-run.js'
import { OutputPipeline } from '../../src/supervisor/output.js'
import { typeAndSubmit } from '../../src/supervisor/typing.js'
import { quitAgent } from '../../src/supervisor/quit.js'
import { configSchema } from '../../src/config/schema.js'
import { tempDir } from '../helpers/git-repo.js'
import { OutputLog, fixture, repoRoot } from './supervisor-helpers.js'

const runs: AgentRun[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.stop('requested')))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const TEXT =
  'proctor: the stop hooks did not pass, so the task is not finished yet. Fix these and continue: - tests: 2 failed'

async function start(args: string[] = []) {
  const dir = tempDir()
  dirs.push(dir)
  const pipeline = new OutputPipeline({
    mode: 'pty',
    transcriptPath: join(dir, 'transcript.log'),
    transcriptMax: 1 << 20,
    rules: configSchema.parse({ detect: [{ name: 'prompt', match: '^> ', kind: 'ready' }] }).detect,
  })
  const log = new OutputLog()
  const run = new AgentRun({
    spawn: {
      command: { file: process.execPath, args: [fixture('paste-tui.mjs'), ...args] },
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color' },
      mode: 'pty',
      graceMs: 1000,
      label: 'agent',
    },
    output: { write: (chunk) => pipeline.write(chunk), flush: () => pipeline.flush() },
  })
  runs.push(run)
  run.on('output', log.onOutput)
  run.start()
  await log.next(/> /)
  await pipeline.flush()
  return { run, pipeline, log }
}

const typing = (extra: Record<string, unknown> = {}) =>
  configSchema.parse({ agent: { typing: { confirm_timeout: '1s', ...extra } } }).agent.typing

describe('typeAndSubmit', () => {
  it('pastes the text when the agent enabled bracketed paste, then submits it with a separate Enter', async () => {
    const { run, pipeline, log } = await start()
    expect(pipeline.bracketedPaste).toBe(true)
    const result = await typeAndSubmit(run, pipeline, TEXT, typing())
    expect(result).toEqual({ bracketed: true, attempts: 1, reacted: true })
    await log.next(/SUBMITTED 1: .*2 failed/)
    expect(log.text).toContain(`SUBMITTED 1: ${TEXT}`)
  })

  it('without the separate Enter the same text is not submitted (the failure it fixes)', async () => {
    const { run, log } = await start()
    await run.write(`${TEXT}\r`)
    // The Enter became a newline in the input box (echoed as a new indented line), nothing was submitted.
    await log.next(/2 failed\r+\n {2}/)
    expect(log.text).not.toContain('SUBMITTED')
  })

  it('presses Enter again when the agent did not react, and reports the attempts', async () => {
    const { run, pipeline, log } = await start(['--drop-first-enter'])
    const result = await typeAndSubmit(run, pipeline, TEXT, typing({ confirm_timeout: '300ms' }))
    expect(result).toEqual({ bracketed: true, attempts: 2, reacted: true })
    await log.next(/SUBMITTED 1:/)
    expect(log.text.match(/SUBMITTED/g)).toHaveLength(1)
  })

  it('paste: never types the text as is', async () => {
    const { run, pipeline, log } = await start()
    const result = await typeAndSubmit(run, pipeline, 'short answer', typing({ paste: 'never' }))
    expect(result.bracketed).toBe(false)
    await log.next(/SUBMITTED 1: short answer/)
  })
})

describe('quitAgent', () => {
  const timing = { submitDelayMs: 50, graceMs: 2_000 }

  it('types the quit command and its Enter separately; the agent exits by itself', async () => {
    const { run, log } = await start(['--quit=/exit'])
    const result = await quitAgent(run, '/exit\r', timing)
    expect(result).toEqual({ graceful: true })
    const exit = await run.finished
    expect(exit).toMatchObject({ exitCode: 0, cause: null })
    expect(log.text).toContain('BYE')
  })

  it('stops an agent that ignores the quit command once the grace period is over', async () => {
    const { run, log } = await start()
    const result = await quitAgent(run, '/exit\r', { ...timing, graceMs: 300 })
    expect(result).toEqual({ graceful: false })
    const exit = await run.finished
    expect(exit.cause).toBe('requested')
    // It was asked first: the command reached its input box and was submitted.
    expect(log.text).toContain('SUBMITTED 1: /exit')
  })

  it('without quit keys, stops the agent at once', async () => {
    const { run } = await start(['--quit=/exit'])
    expect(await quitAgent(run, undefined, timing)).toEqual({ graceful: false })
    expect((await run.finished).cause).toBe('requested')
  })
})
