import { describe, it, expect } from 'vitest'
import {
  emptyConversation,
  parseConversation,
  stateBlock,
  summaryForAgent,
  withReport,
  withRound,
} from '../../src/github/conversation.js'
import { renderConversation } from '../../src/report/conversation.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { sessionReport } from './github-fixtures.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)

describe('the conversation state', () => {
  it('round-trips through the comment, and a round records its report: checkpoints added, promotable only when allowed AND pushed', () => {
    const started = withRound(emptyConversation(), {
      kind: 'task',
      text: 'write the notes',
      author: 'alice',
      url: null,
      run: '4242',
      base: null,
    })
    const back = parseConversation(`<!-- proctor:conversation -->\ntext\n${stateBlock(started)}`)
    expect(back).toEqual(started)
    const report = {
      ...sessionReport(),
      session_id: 's1',
      status: 'completed' as const,
      verdict: 'allow' as const,
      checkpoints: [
        {
          seq: 1,
          sha: B,
          ref: 'refs/proctor/s1',
          trigger: 'final',
          files_changed: [],
          violations: 0,
          skipped: [],
          created_at: '',
        },
      ],
      pushed: { ok: true, remote: 'origin', branch: 'proctor/s1', sha: B, reason: null, bundle: null },
    }
    const done = withReport(back!, report)
    expect(done).toMatchObject({
      session: 's1',
      branch: 'proctor/s1',
      tip: B,
      promotable: true,
      checkpoints: [B],
    })
    expect(done.rounds[0]).toMatchObject({ status: 'completed', verdict: 'allow', head: B })
    // Not pushed (the gates failed in the two-job layout): nothing to promote or continue from.
    const unpushed = withReport(back!, { ...report, pushed: { ...report.pushed, ok: false } })
    expect(unpushed).toMatchObject({ branch: null, tip: null, promotable: false })
    expect(summaryForAgent(done)).toBe(
      `- round 1 (task, @alice): completed, allow, ended at ${B.slice(0, 12)}: write the notes`,
    )
  })

  it('a malformed or hostile state is checked field by field: no non-sha checkpoint, no unknown kind, nothing that is not JSON', () => {
    const forged = (value: unknown) =>
      `<!-- proctor:state ${Buffer.from(JSON.stringify(value)).toString('base64')} -->`
    expect(parseConversation('<!-- proctor:state not base64 json -->')).toBeNull()
    expect(parseConversation(forged({ v: 2 }))).toBeNull()
    const state = parseConversation(
      forged({
        v: 1,
        checkpoints: [A, 'HEAD~3', '--upload-pack=evil', B],
        tip: 'main',
        promotable: 'yes',
        rounds: [{ kind: 'rm -rf', text: 42, head: 'x', base: A }],
      }),
    )
    expect(state).toMatchObject({ checkpoints: [A, B], tip: null, promotable: false })
    expect(state!.rounds[0]).toMatchObject({ kind: 'task', text: '', head: null, base: A })
  })

  it('renders every round with escaped text: a mention pings no one, markup stays text', () => {
    const state = withRound(emptyConversation(), {
      kind: 'continue',
      text: '@bob see #12 <img src=x>',
      author: 'alice',
      url: null,
      run: '1',
      base: A,
    })
    const body = renderConversation(state, {
      marker: '<!-- proctor:conversation -->',
      sanitizer: createSanitizer({ secrets: [] }),
      block: stateBlock(state),
    })
    expect(body).toMatch(/^<!-- proctor:conversation -->\n### 💬 proctor · round 1 running/)
    expect(body).not.toMatch(/@bob|<img/)
    expect(body).toContain('🔄 running')
  })
})
