// An interactive agent wired natively (agent.adapter) is ended by proctor once its own Stop hook allowed,
// even when the agent drew its "done" line before the hook answered — the order Claude Code 2.1.330 showed
// on a busy machine, where that line then never counted as a new completion and the session waited for the
// total timeout. A stand-in agent (test/fixtures/agents/native-tui.mjs) makes the order deterministic.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentEnv, needsDoneFile, onlyReport, proctorRun, repo, type Cleanups } from './agents-harness.js'

const fixture = resolve(import.meta.dirname, '../fixtures/agents/native-tui.mjs')

const cleanups: Cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const proctorYml = `agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(fixture)}]
  adapter: claude
  quit: "/exit\\r"
detect:
  - name: working
    match: esc to interrupt
    kind: working
  - name: done
    match: "^✻ Worked for \\\\d+s"
    kind: completion
stop_hooks:
  - name: done-file
    command: ${JSON.stringify(needsDoneFile)}
checkpoints:
  push: never
timeouts:
  total: 60s
`

describe('an interactive agent with a native Stop hook', () => {
  it('is asked to exit once the hook allowed, though its done line came before the answer', async () => {
    const r = repo(cleanups, { 'proctor.yml': proctorYml })
    const run = await proctorRun(r.dir, agentEnv(r, {}))
    const report = onlyReport(r)
    const diagnostics = `${run.output}\n${JSON.stringify(report.events, null, 1)}`
    expect(run.code, diagnostics).toBe(0)
    expect(readFileSync(join(r.dir, 'done.txt'), 'utf8')).toBe('fixed\n')
    expect(report).toMatchObject({ status: 'completed', verdict: 'allow', rounds: 2 })
    expect(report.stop_hooks.map((h) => h.verdict)).toEqual(['block', 'allow'])
    // Both done lines were drawn before their hook answered: neither was the signal to end the agent.
    const allowAt = report.events.find((e) => e.kind === 'stop_hooks' && /allow/.test(e.message))!.at
    for (const e of report.events.filter((e) => e.kind === 'completion')) expect(e.at).toBeLessThan(allowAt)
    // It exited on /exit, not on a signal or the timeout.
    expect(
      report.events.some((e) => e.kind === 'exit' && /agent\.quit/.test(e.message)),
      diagnostics,
    ).toBe(true)
    expect(report.agent).toMatchObject({ exit_code: 0, signal: null })
  }, 60_000)
})
