// Every rendering of a report says the same thing in the same words: the PR comment, the job summary,
// the terminal, the job log and the check runs (report/words.ts, report/check-run.ts).
import { describe, expect, it } from 'vitest'

import { ActionLog } from '../../src/action/log.js'
import { hookCheckOutput } from '../../src/report/check-run.js'
import { renderJobSummary, renderSessionComment } from '../../src/report/markdown.js'
import type { StopHookResult } from '../../src/report/model.js'
import { renderSessionTerminal } from '../../src/report/terminal.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { links, sessionReport } from './github-fixtures.js'

const sanitizer = createSanitizer({ secrets: [] })

function hook(over: Partial<StopHookResult>): StopHookResult {
  return { name: 'lint', verdict: 'allow', reason: null, exit_code: 0, duration_ms: 1200, round: 1, ...over }
}

/** Every rendering of one session whose only stop hook ended as `result`. */
function renderings(result: StopHookResult): Record<string, string> {
  const report = sessionReport({ verdict: 'block', stop_hooks: [result] })
  const log: string[] = []
  const actionLog = new ActionLog({ sanitizer, out: { write: (t) => log.push(String(t)) }, heartbeatMs: 0 })
  actionLog.hookStarted(result.name, 1)
  actionLog.hookFinished(result)
  return {
    comment: renderSessionComment(report, { key: 'k', links, sanitizer }),
    summary: renderJobSummary(report, { links, sanitizer }),
    terminal: renderSessionTerminal(report, { color: false }),
    log: log.join(''),
    check: hookCheckOutput(result, 'failure', sanitizer).title,
  }
}

describe('the words for how a stop hook ended', () => {
  const cases: [string, Partial<StopHookResult>, string][] = [
    [
      'a hook that could not run',
      { verdict: 'error', reason: 'lint: command not found', exit_code: 127 },
      'hook error',
    ],
    ['a hook that blocked', { verdict: 'block', reason: '2 tests failed', exit_code: 2 }, 'blocked'],
    [
      'a hook that timed out',
      { verdict: 'error', timed_out: true, reason: 'timed out', exit_code: null },
      'timed out',
    ],
  ]
  it.each(cases)('%s is "%s" in the comment, summary, terminal, log and check run', (_what, over, word) => {
    const rendered = renderings(hook(over))
    for (const [where, text] of Object.entries(rendered)) expect(text, where).toContain(word)
    expect(rendered.check.startsWith(word), rendered.check).toBe(true)
  })
})

describe("the user's own work before the session", () => {
  it('is counted apart in the same words in the comment, the job summary and the terminal', () => {
    const report = sessionReport({
      baseline: {
        commit: 'a'.repeat(40),
        pre_existing_count: 3,
        pre_existing: ['.env', 'notes.txt', 'src/a.ts'],
      },
    })
    const said = '3 files were already changed before the session; not judged'
    expect(renderSessionComment(report, { key: 'k', links, sanitizer })).toContain(`<sub>${said}</sub>`)
    expect(renderJobSummary(report, { links, sanitizer })).toContain(said)
    expect(renderSessionTerminal(report, { color: false })).toContain(`baseline: ${said}`)
    // Never listed as the agent's files changed.
    expect(renderSessionComment(report, { key: 'k', links, sanitizer })).not.toContain('notes.txt')
  })

  it('says nothing when the tree was clean (or the report predates the baseline)', () => {
    for (const report of [
      sessionReport({ baseline: { commit: null, pre_existing_count: 0, pre_existing: [] } }),
      sessionReport(),
    ]) {
      expect(renderSessionTerminal(report, { color: false })).not.toContain('before the session')
      expect(renderSessionComment(report, { key: 'k', links, sanitizer })).not.toContain('before the session')
    }
  })
})

describe("the agent CLI's own session", () => {
  it('is on the terminal with how to go on, and absent when the agent named none', () => {
    const report = sessionReport({ agent_session_id: '5d3a8c1e-0b7f-4c2e-9a61-2f4e8d9b7c10' })
    expect(renderSessionTerminal(report, { color: false })).toContain(
      `agent session: 5d3a8c1e-0b7f-4c2e-9a61-2f4e8d9b7c10 (next round: proctor run --continue ${report.session_id} --task "…")`,
    )
    expect(renderSessionTerminal(sessionReport(), { color: false })).not.toContain('agent session')
  })
})
