// Which comments and labels give proctor a task, and what the task is. Payloads from
// @octokit/webhooks-examples, with the body a user would write.
import { describe, expect, it } from 'vitest'
import { cleanTask, findTask, triggerOf, TASK_MAX_BYTES } from '../../src/github/trigger.js'
import { examplePayload } from '../e2e/action-harness.js'

const settings = { phrase: ['@proctor', '/proctor'], label: 'proctor' }

describe('findTask', () => {
  it.each([
    ['@proctor fix the typo in README', 'fix the typo in README'],
    ['/proctor  fix it\nand the tests too', 'fix it\nand the tests too'],
    ['Thanks! @proctor please add a test', 'please add a test'],
    ['@PROCTOR shout', 'shout'],
    ['looks good\r\n@proctor rename x\r\nto y', 'rename x\nto y'],
    ['@proctor', ''],
    ['\t@proctor\ttabbed', 'tabbed'],
  ])('%j → %j', (body, task) => {
    expect(findTask(body, settings.phrase)).toBe(task)
  })

  it.each([
    ['no phrase at all', 'please fix the typo'],
    ['part of a longer name', '@proctorbot fix it'],
    ['inside a word', 'see foo@proctor fix it'],
    ['in a path', 'see docs/proctor fix'],
    ['quoted from an earlier comment', '> @proctor fix the typo\n\nI agree'],
    ['in a fenced code block', 'write:\n```\n@proctor fix it\n```\nto start one'],
    ['in a tilde fence', '~~~\n/proctor x\n~~~'],
  ])('not a task: %s', (_what, body) => {
    expect(findTask(body, settings.phrase)).toBeNull()
  })

  it('a phrase after a closed fence counts', () => {
    expect(findTask('```\ncode\n```\n@proctor go', settings.phrase)).toBe('go')
  })

  it('a configured phrase with regex characters is matched literally', () => {
    expect(findTask('+bot(1) do it', ['+bot(1)'])).toBe('do it')
    expect(findTask('xbot1 do it', ['+bot(1)'])).toBeNull()
  })
})

describe('cleanTask', () => {
  it('keeps newlines, tabs and shell metacharacters; drops control characters and bidi overrides', () => {
    expect(cleanTask('a\tb\r\nc $(rm -rf /) `x` "q" \'s\' \x1b[31mred\x1b[0m\x07 \u202eevil\u202c\x00')).toBe(
      'a\tb\nc $(rm -rf /) `x` "q" \'s\' [31mred[0m evil',
    )
  })

  it(`caps at ${TASK_MAX_BYTES} bytes on a character boundary, and says so`, () => {
    const long = 'é'.repeat(TASK_MAX_BYTES)
    const cut = cleanTask(long)
    expect(cut).toMatch(/\n\n\[task cut at 8 KiB by proctor\]$/)
    const kept = cut.slice(0, cut.indexOf('\n'))
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(TASK_MAX_BYTES)
    expect(kept).toBe('é'.repeat(kept.length))
  })
})

function comment(event: string, action: string, body: string, user = { login: 'alice', type: 'User' }) {
  const payload = examplePayload(event, action) as Record<string, Record<string, unknown>>
  const key = event === 'pull_request_review' ? 'review' : 'comment'
  payload[key]!.body = body
  payload[key]!.user = { ...(payload[key]!.user as object), ...user }
  return payload
}

describe('triggerOf', () => {
  it('an issue comment with the phrase: the task, its author, the comment to react to', () => {
    const payload = comment('issue_comment', 'created', '@proctor fix the typo in README')
    const trigger = triggerOf('issue_comment', payload, settings)
    expect(trigger).toMatchObject({
      kind: 'task',
      task: {
        text: 'fix the typo in README',
        author: 'alice',
        authorIsBot: false,
        url: (payload.comment as { html_url: string }).html_url,
        reactTo: { on: 'issue', commentId: (payload.comment as { id: number }).id },
        issueNumber: (payload.issue as { number: number }).number,
      },
    })
  })

  it('a review comment reacts on the review comment; a review body has nothing to react to', () => {
    const review = triggerOf(
      'pull_request_review_comment',
      comment('pull_request_review_comment', 'created', '/proctor add a test'),
      settings,
    )
    expect(review).toMatchObject({ kind: 'task', task: { text: 'add a test', reactTo: { on: 'review' } } })
    const body = triggerOf(
      'pull_request_review',
      comment('pull_request_review', 'submitted', 'Nice. @proctor rename it'),
      settings,
    )
    expect(body).toMatchObject({ kind: 'task', task: { text: 'rename it', reactTo: null } })
  })

  it('a comment without the phrase, an edited comment, another label: ignored with the reason', () => {
    expect(triggerOf('issue_comment', comment('issue_comment', 'created', 'LGTM'), settings)).toEqual({
      kind: 'ignore',
      reason: 'the comment does not mention "@proctor" or "/proctor"',
    })
    expect(
      triggerOf('issue_comment', comment('issue_comment', 'edited', '@proctor again'), settings),
    ).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('"edited"') })
    const labeled = examplePayload('issues', 'labeled') as { label: { name: string } }
    labeled.label.name = 'bug'
    expect(triggerOf('issues', labeled, settings)).toMatchObject({ kind: 'ignore' })
  })

  it('the label: the title and body are the task, the sender its author', () => {
    const payload = examplePayload('issues', 'labeled') as {
      label: { name: string }
      issue: { title: string; body: string | null }
      sender: { login: string }
    }
    payload.label.name = 'Proctor'
    payload.issue.title = 'Spelling'
    payload.issue.body = 'README says "teh"'
    expect(triggerOf('issues', payload, settings)).toMatchObject({
      kind: 'task',
      task: { text: 'Spelling\n\nREADME says "teh"', author: payload.sender.login },
    })
  })

  it('a bot is recognized by its [bot] login or its Bot type', () => {
    for (const user of [
      { login: 'dependabot[bot]', type: 'Bot' },
      { login: 'renovate', type: 'Bot' },
      { login: 'ci[bot]', type: 'User' },
    ]) {
      const trigger = triggerOf(
        'issue_comment',
        comment('issue_comment', 'created', '@proctor x', user),
        settings,
      )
      expect(trigger).toMatchObject({ kind: 'task', task: { authorIsBot: true } })
    }
  })

  it('a pull request opened, a push, a manual run: no conversation trigger (the fixed task)', () => {
    expect(triggerOf('pull_request', examplePayload('pull_request', 'opened'), settings)).toEqual({
      kind: 'none',
    })
    expect(triggerOf('workflow_dispatch', {}, settings)).toEqual({ kind: 'none' })
    expect(triggerOf(null, {}, settings)).toEqual({ kind: 'none' })
  })
})
