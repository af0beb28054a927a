// Completion detection on screens the real Claude Code 2.1.197 TUI drew under `proctor run --agent
// claude-code` (the e2e test's scenario, against the scripted Anthropic API). Each fixture in
// test/fixtures/tui is the raw PTY output (.pty) and the scans proctor made of it (.json: the clock, how
// many bytes had arrived, and when proctor typed the stop hooks' reason); the test replays those bytes
// into the same headless terminal, scan for scan, with the claude-code preset's rules, and also makes the
// scans proctor schedules itself for a pending rule (nextDeadline).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/index.js'
import { compileRules, Detector } from '../../src/supervisor/detect.js'
import { RenderedScreen } from '../../src/supervisor/screen.js'

const fixtures = join(import.meta.dirname, '../fixtures/tui')

type Step = { at: number; bytes: number } | { at: number; typed: true }

interface Completion {
  at: number
  text: string
  /** When a line with this text was first on screen (after the last typing, if any). */
  shownAt: number
}

async function replay(name: string): Promise<{ completions: Completion[]; typedAt: number[] }> {
  const { cols, rows, steps } = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8')) as {
    cols: number
    rows: number
    steps: Step[]
  }
  const output = readFileSync(join(fixtures, `${name}.pty`))
  const { config } = parseConfigText('', 'proctor.yml', { preset: 'claude-code', argv: ['claude', 'task'] })
  let now = 0
  const detector = new Detector(compileRules(config.detect), () => now)
  const screen = new RenderedScreen({ cols, rows })
  const completions: Completion[] = []
  const typedAt: number[] = []
  const shown = new Map<string, number>()
  const scan = () => {
    for (const line of screen.screenLines())
      if (/✻ \S+ for/.test(line.text) && !shown.has(line.text.trim())) shown.set(line.text.trim(), now)
    for (const e of detector.scanScreen(screen))
      if (e.kind === 'completion') completions.push({ at: now, text: e.text, shownAt: shown.get(e.text)! })
  }
  const scansDueBefore = (until: number) => {
    for (let due = detector.nextDeadline(); due !== null && due < until; due = detector.nextDeadline()) {
      now = Math.max(now, due)
      scan()
    }
  }
  let fed = 0
  // proctor typed once it had counted a completion; a completion counted later here moves what follows.
  let shift = 0
  for (const step of steps) {
    scansDueBefore(step.at + shift)
    now = step.at + shift
    if ('typed' in step) {
      scansDueBefore(completions.length > typedAt.length ? now : now + 10_000)
      shift += now - (step.at + shift)
      detector.markTyped()
      typedAt.push(now)
      shown.clear()
      continue
    }
    screen.write(output.subarray(fed, step.bytes))
    fed = step.bytes
    await screen.flush()
    scan()
  }
  scansDueBefore(now + 10_000)
  screen.dispose()
  return { completions, typedAt }
}

describe('claude-code preset on recorded Claude Code 2.1.197 screens', () => {
  it('a first turn whose done line reads "Sautéed" is a completion (one verb in eight has an accent)', async () => {
    // Recorded on the old rule ([A-Z][a-z]+): nothing counted and the session waited for its timeout.
    const { completions } = await replay('claude-2.1.197-sauteed')
    expect(completions.map((c) => c.text)).toEqual(['✻ Sautéed for 1s'])
    expect(completions[0]!.at - completions[0]!.shownAt).toBeLessThan(1_000)
  })

  it('two turns: each completion counts once, from its own done line, as soon as Claude is idle', async () => {
    // Turn 1 ends beside a spinner left over from an earlier frame, higher up (2.1.197 redraws below its
    // old frames); turn 2 ends while the done line of turn 1, redrawn after the checkpoint pauses, is still
    // on screen above the new one. Before: turn 1 counted only once a redraw 2 s later pushed the leftover
    // spinner off screen, and turn 2 counted the redrawn "✻ Worked for 1s" of turn 1.
    const { completions, typedAt } = await replay('claude-2.1.197-two-turns')
    expect(typedAt).toHaveLength(1)
    expect(completions.map((c) => c.text)).toEqual(['✻ Worked for 1s', '✻ Sautéed for 1s'])
    for (const c of completions) expect(c.at - c.shownAt).toBeLessThan(1_000)
    expect(completions[0]!.at).toBeLessThanOrEqual(typedAt[0]!)
    expect(completions[1]!.at).toBeGreaterThan(typedAt[0]!)
  })
})
