// The real Claude Code TUI under `proctor run --agent claude-code`, against the scripted Anthropic API:
// the preset alone answers the dialogs (API key, folder trust, a permission prompt), the stop hook's reason
// is typed and submitted (bracketed paste, then Enter), completion is detected from the screen, and the
// transcript Claude re-renders after every checkpoint pause never counts as a completion.
import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { claudeBinaries, claudeWorld, runProctor, type ClaudeWorld } from './claude-harness.js'
import { userTexts } from '../servers/anthropic-api.js'

const MISSING = 'hello.txt is missing: write hello.txt containing hi'

// pause_agent with a short interval: Claude is stopped and continued (and re-renders) around each checkpoint.
const proctorYml = `stop_hooks:
  - name: needs-hello
    command: ["sh", "-c", "test -f hello.txt || { echo '${MISSING}' >&2; exit 2; }"]
checkpoints:
  push: never
  pause_agent: true
  interval: 1s
  min_interval: 500ms
timeouts:
  total: 100s
`

const worlds: ClaudeWorld[] = []
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup()
})

describe.each(claudeBinaries())('proctor run --agent claude-code -- claude (TUI, $label)', (binary) => {
  // No retry. The stalls seen beside another test file on 2 cores were proctor's: answers repeated at
  // dialog lines 2.1.197 leaves on screen, an Enter at a ticked "✔" leftover picking "No" in the next
  // dialog, a rule disabled after a GC/CPU pause, and a done line reading "Sautéed" (1 turn in 8) that the
  // preset's pattern did not match. The last screen is in the diagnostics.
  it(
    'answers the dialogs, types and submits the reason, detects each completion once',
    { timeout: 150_000 },
    async () => {
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
        '--permission-mode',
        'default',
        'finish the task',
      ])
      const events = run.report?.events ?? []
      const diagnostics = `exit ${run.code}\n${run.stderr.slice(-3000)}\n${JSON.stringify(events.slice(-30), null, 1)}\nlast screen output:\n${run.report?.output_tail ?? ''}`
      expect(run.code, diagnostics).toBe(0)
      expect(world.repo.read('hello.txt')).toBe('hi\n')

      // Dialogs: the API key (cursor moved up to Yes), the folder trust (2.1.330: moved down), the permission
      // prompt for Write, each answered by the preset's rules.
      const answered = events.filter((e) => e.kind === 'response').map((e) => e.name)
      expect(answered, diagnostics).toContain('claude-code:api-key')
      expect(answered).toContain('claude-code:yes')
      expect(events.some((e) => e.kind === 'approval_request' && e.name === 'claude-code:permission')).toBe(
        true,
      )

      // The reason was typed, submitted (as a bracketed paste with its own Enter) and reached the model.
      const typed = events.find((e) => e.kind === 'continue' && /typed the reasons/.test(e.message))
      expect(typed, diagnostics).toBeDefined()
      expect(typed!.data).toMatchObject({ bracketed: true, reacted: true })
      const conversation = world.api.conversation()
      expect(conversation.some((r) => userTexts(r).includes(`proctor: the stop hooks did not pass`))).toBe(
        true,
      )
      expect(conversation.some((r) => userTexts(r).includes(MISSING))).toBe(true)

      // Exactly two completions — one per turn — however often the paused Claude re-rendered its transcript.
      const completions = events.filter((e) => e.kind === 'completion')
      expect(
        completions.map((e) => e.name),
        diagnostics,
      ).toEqual(['claude-code:done', 'claude-code:done'])
      expect(run.report.rounds).toBe(2)
      expect(run.report.stop_hooks.map((h) => h.verdict)).toEqual(['block', 'allow'])
      expect(run.report.verdict).toBe('allow')
      expect(world.proxy.attempts).toEqual([])
    },
  )
})

// `agent.adapter: claude` over the preset: the TUI runs proctor as its own Stop hook (nothing is typed in).
// Once that hook allowed, Claude idles at its prompt until someone quits it; proctor does, with /exit.
const nativeYml = `agent:
  adapter: claude
stop_hooks:
  - name: needs-hello
    command: ["sh", "-c", "test -f hello.txt || { echo '${MISSING}' >&2; exit 2; }"]
checkpoints:
  push: never
timeouts:
  total: 100s
`

describe.each(claudeBinaries())(
  'proctor run --agent claude-code -- claude (TUI, native Stop hook, $label)',
  (binary) => {
    it(
      'blocks once inside Claude, then ends the idle TUI with /exit instead of waiting for the timeout',
      { timeout: 150_000 },
      async () => {
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
          { 'proctor.yml': nativeYml },
        )
        worlds.push(world)
        here.dir = world.repo.dir
        world.repo.commitAll('proctor.yml')
        const run = await runProctor(world, [
          '--agent',
          'claude-code',
          '--',
          'claude',
          '--permission-mode',
          'acceptEdits',
          'finish the task',
        ])
        const events = run.report?.events ?? []
        const diagnostics = `exit ${run.code}\n${run.stderr.slice(-3000)}\n${JSON.stringify(events.slice(-30), null, 1)}\nlast screen output:\n${run.report?.output_tail ?? ''}`
        expect(run.code, diagnostics).toBe(0)
        expect(world.repo.read('hello.txt')).toBe('hi\n')
        expect(world.api.conversation().some((r) => userTexts(r).includes(MISSING))).toBe(true)

        // Both rounds came from Claude's own Stop hook; nothing was typed into the TUI.
        expect(run.report).toMatchObject({ status: 'completed', verdict: 'allow', rounds: 2 })
        expect(run.report.stop_hooks.map((h) => h.verdict)).toEqual(['block', 'allow'])
        expect(events.some((e) => /typed the reasons/.test(e.message))).toBe(false)

        // Ended by proctor once idle after the allow: Claude exited on /exit, not on a signal or the timeout.
        const allowAt = events.find((e) => e.kind === 'stop_hooks' && /allow/.test(e.message))?.at ?? Infinity
        const quit = events.find((e) => e.kind === 'exit' && /agent\.quit/.test(e.message))
        expect(quit, diagnostics).toBeDefined()
        expect(quit!.at).toBeGreaterThan(allowAt)
        expect(run.report.agent, diagnostics).toMatchObject({ exit_code: 0, signal: null })
        expect(world.proxy.attempts).toEqual([])
      },
    )
  },
)
