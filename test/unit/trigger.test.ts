// Which comments and labels give proctor a task, and what the task is. Payloads from
// @octokit/webhooks-examples, with the body a user would write.
import { describe, expect, it } from 'vitest'
import { cleanTask, findTask, replyOf, triggerOf, TASK_MAX_BYTES } from '../../src/github/trigger.js'
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

describe('replyOf: a reply without the phrase on a pull request of this repository', () => {
  function review(
    event: 'pull_request_review_comment' | 'pull_request_review',
    body: string,
    opts: { headRepo?: string; description?: string | null; action?: string; state?: string } = {},
  ) {
    const payload = examplePayload(event, event === 'pull_request_review' ? 'submitted' : 'created') as {
      action: string
      comment?: { body: string }
      review?: { body: string | null; state: string }
      pull_request: {
        number: number
        body: string | null
        head: { ref: string; repo: { full_name: string } }
      }
      repository: { full_name: string }
    }
    if (opts.action) payload.action = opts.action
    if (payload.comment) payload.comment.body = body
    if (payload.review) {
      payload.review.body = body
      payload.review.state = opts.state ?? 'commented'
    }
    payload.repository.full_name = 'acme/widgets'
    payload.pull_request.number = 100
    payload.pull_request.head.ref = 'proctor/4242-1-agent'
    payload.pull_request.head.repo.full_name = opts.headRepo ?? 'acme/widgets'
    payload.pull_request.body =
      opts.description === undefined
        ? 'Promoted from session `4242-1-agent` on #7 (1 round; the gates passed on the last).'
        : opts.description
    return payload
  }

  it('a review comment: the text is the feedback, the conversation is the issue its description names', () => {
    const reply = replyOf(
      'pull_request_review_comment',
      review('pull_request_review_comment', 'rename x\n'),
      settings,
    )
    expect(reply).toMatchObject({ pr: 100, branch: 'proctor/4242-1-agent', conversationOn: 7 })
    expect(reply!.task).toMatchObject({ text: 'rename x', issueNumber: null, reactTo: { on: 'review' } })
    const body = replyOf('pull_request_review', review('pull_request_review', 'and add a test'), settings)
    expect(body).toMatchObject({ conversationOn: 7, task: { text: 'and add a test', reactTo: null } })
  })

  it('not a reply: the phrase (a task or command of its own), an empty review, an approval, an edit, a fork, an issue comment', () => {
    const event = 'pull_request_review_comment'
    expect(replyOf(event, review(event, '/proctor stop'), settings)).toBeNull()
    expect(replyOf('pull_request_review', review('pull_request_review', ''), settings)).toBeNull()
    const approval = review('pull_request_review', 'looks great', { state: 'approved' })
    expect(replyOf('pull_request_review', approval, settings)).toBeNull()
    const changes = review('pull_request_review', 'rename x', { state: 'changes_requested' })
    expect(replyOf('pull_request_review', changes, settings)?.task.text).toBe('rename x')
    expect(replyOf(event, review(event, 'x', { action: 'edited' }), settings)).toBeNull()
    expect(replyOf(event, review(event, 'x', { headRepo: 'mallory/widgets' }), settings)).toBeNull()
    expect(replyOf('issue_comment', examplePayload('issue_comment', 'created'), settings)).toBeNull()
  })

  it('a description that names no conversation leaves nothing to confirm the branch with', () => {
    const event = 'pull_request_review_comment'
    expect(replyOf(event, review(event, 'x', { description: 'see #7' }), settings)!.conversationOn).toBeNull()
    expect(replyOf(event, review(event, 'x', { description: null }), settings)!.conversationOn).toBeNull()
  })
})
