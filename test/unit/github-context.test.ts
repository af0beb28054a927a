import { describe, it, expect, afterEach, vi } from 'vitest'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { canWrite, checkRunSha, expandKey, linksFor, readActionsContext } from '../../src/github/context.js'
import { appendJobSummary, writeOutputs } from '../../src/github/summary.js'
import { annotationCommand } from '../../src/github/workflow-commands.js'
import type {
  IssueCommentCreatedEvent,
  PullRequestOpenedEvent,
  WorkflowRunCompletedEvent,
} from '@octokit/webhooks-types'

type Example = { name: string; examples: Array<{ action?: string }> }
const examples = createRequire(import.meta.url)(
  '@octokit/webhooks-examples/api.github.com/index.json',
) as Example[]
function payload<T>(event: string, action: string): T {
  const found = examples.find((e) => e.name === event)?.examples.find((e) => e.action === action)
  if (!found) throw new Error(`no ${event}.${action} example`)
  return structuredClone(found) as T
}

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-ctx-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function envFor(event: string, body: unknown, extra: Record<string, string> = {}) {
  const path = join(tempDir(), 'event.json')
  writeFileSync(path, JSON.stringify(body))
  return {
    GITHUB_REPOSITORY: 'Codertocat/Hello-World',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: path,
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_RUN_ID: '1234',
    GITHUB_RUN_ATTEMPT: '2',
    GITHUB_JOB: 'agent',
    GITHUB_WORKFLOW: 'proctor',
    GITHUB_SERVER_URL: 'https://github.example.com/',
    GITHUB_API_URL: 'https://github.example.com/api/v3',
    ...extra,
  }
}

describe('readActionsContext', () => {
  it('reads a real pull_request payload: number, head sha, not a fork', () => {
    const body = payload<PullRequestOpenedEvent>('pull_request', 'opened')
    const ctx = readActionsContext(envFor('pull_request', body))
    expect(ctx).toMatchObject({
      owner: 'Codertocat',
      repo: 'Hello-World',
      serverUrl: 'https://github.example.com',
      apiUrl: 'https://github.example.com/api/v3',
      runId: '1234',
      runAttempt: 2,
    })
    expect(ctx.pr).toEqual({
      number: body.pull_request.number,
      headSha: body.pull_request.head.sha,
      baseSha: body.pull_request.base.sha,
      headRef: body.pull_request.head.ref,
      fork: false,
    })
    expect(checkRunSha(ctx)).toBe(body.pull_request.head.sha)
    expect(canWrite(ctx)).toBe(true)
  })

  it('marks a PR from another repository (or a deleted fork) as a fork: no writes', () => {
    const body = payload<PullRequestOpenedEvent>('pull_request', 'opened')
    Object.assign(body.pull_request.head, {
      repo: { ...body.pull_request.head.repo, full_name: 'mallory/Hello-World' },
    })
    expect(canWrite(readActionsContext(envFor('pull_request', body)))).toBe(false)
    Object.assign(body.pull_request.head, { repo: null })
    expect(readActionsContext(envFor('pull_request', body)).pr?.fork).toBe(true)
  })

  it('reads the commenter of an issue_comment on a PR, and workflow_run (the aggregate) may write', () => {
    const comment = payload<IssueCommentCreatedEvent>('issue_comment', 'created')
    Object.assign(comment.issue, {
      pull_request: { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1' },
    })
    const ctx = readActionsContext(envFor('issue_comment', comment))
    expect(ctx.commentAuthor).toBe(comment.comment.user.login)
    expect(ctx.pr?.number).toBe(comment.issue.number)
    expect(checkRunSha(ctx)).toBe('f'.repeat(40))

    const run = payload<WorkflowRunCompletedEvent>('workflow_run', 'completed')
    Object.assign(run.workflow_run, {
      pull_requests: [{ number: 9, base: { sha: 'b'.repeat(40) } }],
      head_repository: { full_name: 'mallory/Hello-World' },
    })
    const aggregate = readActionsContext(envFor('workflow_run', run))
    expect(aggregate.pr).toMatchObject({ number: 9, fork: true })
    expect(canWrite(aggregate)).toBe(true)
  })

  it('explains what is wrong with the environment', () => {
    expect(() => readActionsContext({})).toThrow(/GITHUB_REPOSITORY is not set/)
    expect(() => readActionsContext({ GITHUB_REPOSITORY: 'nope' })).toThrow(
      /must look like "owner\/repo", got "nope"/,
    )
    expect(() =>
      readActionsContext({ GITHUB_REPOSITORY: 'a/b', GITHUB_EVENT_PATH: '/nonexistent/event.json' }),
    ).toThrow(/GITHUB_EVENT_PATH points to \/nonexistent\/event.json, which cannot be read/)
    const bad = join(tempDir(), 'bad.json')
    writeFileSync(bad, '{')
    expect(() => readActionsContext({ GITHUB_REPOSITORY: 'a/b', GITHUB_EVENT_PATH: bad })).toThrow(
      /is not valid JSON/,
    )
  })

  it('builds keys and links', () => {
    const ctx = readActionsContext(
      envFor('pull_request', payload<PullRequestOpenedEvent>('pull_request', 'opened')),
    )
    expect(expandKey('{workflow}/{job}#{pr}', ctx)).toBe(`proctor/agent#${ctx.pr!.number}`)
    const links = linksFor(ctx)
    expect(links.file('src/a b/(x).ts', 'abc123')).toBe(
      'https://github.example.com/Codertocat/Hello-World/blob/abc123/src/a%20b/%28x%29.ts',
    )
    expect(links.compare('aaa', 'bbb')).toBe(
      'https://github.example.com/Codertocat/Hello-World/compare/aaa...bbb',
    )
    expect(links.jobSummary).toBe(
      'https://github.example.com/Codertocat/Hello-World/actions/runs/1234/attempts/2',
    )
  })
})

describe('job summary and outputs', () => {
  it('appends the summary and cuts it to stay under 1 MiB for the step', () => {
    const path = join(tempDir(), 'summary.md')
    writeFileSync(path, 'x'.repeat(1024 * 1024 - 1000))
    const result = appendJobSummary('y'.repeat(5000), path)
    expect(result.written).toBe(true)
    expect(result.note).toMatch(/cut/)
    expect(readFileSync(path).length).toBeLessThanOrEqual(1024 * 1024)
    expect(readFileSync(path, 'utf8')).toMatch(/summary cut: the step summary is limited to 1 MiB/)
    expect(appendJobSummary('z', undefined)).toMatchObject({
      written: false,
      note: expect.stringMatching(/GITHUB_STEP_SUMMARY is not set/),
    })
  })

  it('writes multi-line outputs in the runner format, and refuses bad names', () => {
    const path = join(tempDir(), 'output')
    vi.stubEnv('GITHUB_OUTPUT', path)
    writeFileSync(path, '')
    writeOutputs({ verdict: 'allow', 'checkpoint-count': 3, reason: 'line1\nline2', empty: null })
    const text = readFileSync(path, 'utf8')
    const parsed = Object.fromEntries(
      [...text.matchAll(/^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]),
    )
    expect(parsed).toEqual({ verdict: 'allow', 'checkpoint-count': '3', reason: 'line1\nline2', empty: '' })
    expect(() => writeOutputs({ 'bad name': 'x' })).toThrow(/invalid output name "bad name"/)
    vi.unstubAllEnvs()
  })

  it('escapes workflow command data and properties like @actions/core', () => {
    expect(annotationCommand('error', '50% done\r\nnext', { title: 'a:b,c', file: 'x.ts', line: 3 })).toBe(
      '::error title=a%3Ab%2Cc,file=x.ts,line=3::50%25 done%0D%0Anext',
    )
  })
})
