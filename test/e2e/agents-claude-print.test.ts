// The real Claude Code CLI in print mode (`claude -p`) under `proctor run --agent claude-code`, against the
// scripted Anthropic API: proctor's stop hook runs inside Claude as its own Stop hook, blocks once, the
// reason reaches the model (the API log shows it), Claude writes the file, the hook allows.
import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { claudeBinaries, claudeWorld, runProctor, type ClaudeWorld } from './claude-harness.js'
import { userTexts } from '../servers/anthropic-api.js'

const MISSING = 'hello.txt is missing: write hello.txt containing hi'

const proctorYml = `stop_hooks:
  - name: needs-hello
    command: ["sh", "-c", "test -f hello.txt || { echo '${MISSING}' >&2; exit 2; }"]
checkpoints:
  push: never
`

const worlds: ClaudeWorld[] = []
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup()
})

describe.each(claudeBinaries())('proctor run --agent claude-code -- claude -p ($label)', (binary) => {
  it('blocks once through Claude’s Stop hook, the reason reaches the model, Claude writes the file, the hook allows', async () => {
    // The script needs the repository's path, which exists once the world does.
    const here = { dir: '' }
    const world = await claudeWorld(
      binary,
      (_req, h) => {
        if (h.afterToolResult) return { text: 'Wrote hello.txt.' }
        if (h.lastUserText.includes(MISSING))
          return {
            text: 'Writing it.',
            toolUse: {
              name: 'Write',
              input: { file_path: join(here.dir, 'hello.txt'), content: 'hi\n' },
            },
          }
        return { text: 'Nothing to do, all done.' }
      },
      { 'proctor.yml': proctorYml },
    )
    worlds.push(world)
    here.dir = world.repo.dir
    world.repo.commitAll('proctor.yml')
    const run = await runProctor(world, [
      '--agent',
      'claude-code',
      '--',
      'claude',
      '-p',
      '--permission-mode',
      'acceptEdits',
      'finish the task',
    ])
    const diagnostics = `exit ${run.code}\n${run.stderr}\n${JSON.stringify(run.report?.events?.slice(-15), null, 1)}`
    expect(run.code, diagnostics).toBe(0)
    expect(world.repo.read('hello.txt')).toBe('hi\n')
    // The reason reached the model: a conversation request after the first carries the hook's words.
    const conversation = world.api.conversation()
    expect(conversation.length).toBeGreaterThanOrEqual(3)
    expect(userTexts(conversation[0]!)).not.toContain(MISSING)
    expect(conversation.some((r) => userTexts(r).includes(MISSING))).toBe(true)
    // report.json tells both rounds: the block inside Claude and the allow.
    expect(run.report.verdict).toBe('allow')
    expect(run.report.rounds).toBe(2)
    const results = run.report.stop_hooks.filter((h) => h.name === 'needs-hello')
    expect(results.map((h) => h.verdict)).toEqual(['block', 'allow'])
    // Nothing but loopback: the refusing proxy saw no attempt to reach anything else.
    expect(world.proxy.attempts).toEqual([])
  }, 120_000)
})
