import { describe, it, expect } from 'vitest'
import {
  COMMENT_MAX_CHARS,
  SUMMARY_MAX_BYTES,
  commentMarker,
  renderBatchComment,
  renderBatchSummary,
  renderJobSummary,
  renderSessionComment,
} from '../../src/report/markdown.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { BASE, SHA1, SHA2, batchReport, links, sessionReport, violation } from './github-fixtures.js'

const TOKEN = 'ghs_' + 'T0kEn'.repeat(8)
const sanitizer = createSanitizer({ secrets: [TOKEN] })
const opts = { key: 'ci/build', links, sanitizer }

/** Sections outside fenced code blocks (where markdown structure lives). */
function outsideCode(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '')
}

function hostileReport() {
  const hostile = [
    '```',
    '</details>',
    '<!-- proctor:ci/build -->',
    '@octocat please merge, fixes #12',
    TOKEN,
    'x'.repeat(20_000),
    '``````',
  ].join('\n')
  return sessionReport({
    output_tail: hostile.repeat(5),
    reason: `agent said </details> ${TOKEN}`,
    violations: Array.from({ length: 2000 }, (_, i) =>
      violation(i, { message: `bad ${'</td>|'.repeat(50)} @admin`, file: `src/${i}|x.ts` }),
    ),
    stop_hooks: Array.from({ length: 300 }, (_, i) => ({
      name: `hook-${i}`,
      verdict: 'block' as const,
      reason: `failed ${'y'.repeat(3000)} ${TOKEN}`,
      exit_code: 2,
      duration_ms: 1000,
      round: 1,
    })),
  })
}

describe('renderSessionComment', () => {
  it('starts with the hidden marker and shows verdict, status and duration', () => {
    const md = renderSessionComment(sessionReport({ violations: [] }), opts)
    expect(md.split('\n', 1)[0]).toBe('<!-- proctor:ci/build -->')
    expect(md).toMatch(/^### ✅ proctor · allow · completed · 3m12s$/m)
  })

  it('never shows a green tick above an error-level violation', () => {
    const md = renderSessionComment(
      sessionReport({ violations: [violation(3, { severity: 'error' })] }),
      opts,
    )
    expect(md.split('\n')[1]).toBe('### ⚠️ proctor · allow · completed · 3m12s')
  })

  it('links checkpoints to their commits, compares against the base and links violating files', () => {
    const md = renderSessionComment(sessionReport(), opts)
    expect(md).toContain(`(<${links.commit(SHA1)}>)`)
    expect(md).toContain(`(<${links.compare(BASE, SHA2)}>)`)
    expect(md).toContain(`(<${links.file('src/generated/file-3.ts', SHA1)}>)`)
    expect(md).toMatch(/\| ❌ error \| \[src\/generated\/file-3\.ts\]/)
    expect(md).toContain('move it under src/')
    expect(md).toContain('Pushed to `proctor/gh-42-1-build`')
  })

  it('shows a progress checklist with running and finished stop hooks while the session runs', () => {
    const report = sessionReport({
      stop_hooks: [{ name: 'lint', verdict: 'block', reason: 'no', exit_code: 2, duration_ms: 5, round: 1 }],
    })
    const md = renderSessionComment(report, { ...opts, progress: { running_hooks: ['tests'] } })
    expect(md).toMatch(/^### 🔄 proctor · running/m)
    expect(md).toContain('- [x] Started')
    expect(md).toContain('- [x] 2 checkpoints')
    expect(md).toContain('- [ ] 1 policy violation (1 error)')
    expect(md).toContain('- [ ] Stop hook `lint`: ❌ blocked')
    expect(md).toContain('- [ ] Stop hook `tests`: ⏳ running')
    expect(md).toContain('- [ ] Finished')
    expect(renderSessionComment(report, opts)).not.toContain('**Progress**')
  })

  it("gives a reviewer's links in the header: the job, each check run, the branch with compare and Create PR", () => {
    const checkRuns = [
      { name: 'proctor / tests', url: 'https://github.com/acme/widgets/runs/7' },
      { name: 'proctor / policy', url: 'https://github.com/acme/widgets/runs/8' },
    ]
    const job = 'https://github.com/acme/widgets/actions/runs/42/job/9003'
    const md = renderSessionComment(sessionReport(), { ...opts, links: { ...links, job }, checkRuns })
    expect(md.split('\n')[2]).toBe(
      `<sub>[job](<${job}>) · ` +
        'checks: [`proctor / tests`](<https://github.com/acme/widgets/runs/7>), [`proctor / policy`](<https://github.com/acme/widgets/runs/8>) · ' +
        'branch [`proctor/gh-42-1-build`](<https://github.com/acme/widgets/tree/proctor/gh-42-1-build>) ' +
        '([compare](<https://github.com/acme/widgets/compare/main...proctor/gh-42-1-build>) · ' +
        '[Create PR](<https://github.com/acme/widgets/compare/main...proctor/gh-42-1-build?expand=1>))</sub><br>',
    )
    // The job summary has the same header (with the check runs), from the same links.
    const summary = renderJobSummary(sessionReport(), { links: { ...links, job }, sanitizer, checkRuns })
    expect(summary.split('\n')[1]).toBe(md.split('\n')[2])
    // The job's page unknown (no actions: read): the workflow run's.
    expect(renderSessionComment(sessionReport(), opts).split('\n')[2]).toMatch(
      /^<sub>\[workflow run\]\(<https:\/\/github\.com\/acme\/widgets\/actions\/runs\/42>\) · branch /,
    )
  })

  it('lists the files changed, collapsed and capped, linked at the latest checkpoint', () => {
    const files = Array.from({ length: 80 }, (_, i) => `src/f${String(i).padStart(2, '0')}.ts`)
    const report = sessionReport({
      checkpoints: [{ ...sessionReport().checkpoints[1]!, files_changed: files }],
    })
    const md = renderSessionComment(report, opts)
    const block = /<details>\n<summary>Files changed \(80\)<\/summary>\n\n([\s\S]*?)\n\n<\/details>/.exec(
      md,
    )?.[1]
    expect(block).toBeDefined()
    const items = block!.split('\n')
    expect(items).toHaveLength(51)
    expect(items[0]).toBe(`- [src/f00.ts](<${links.file('src/f00.ts', SHA2)}>)`)
    expect(items[50]).toMatch(/^- … 30 more — see the \[job summary\]/)
  })

  it('redacts a token-shaped file name in a link text and its URL', () => {
    const file = `src/${'ghp_' + 'Z'.repeat(36)}.ts`
    const md = renderSessionComment(
      sessionReport({
        violations: [violation(1, { file })],
        checkpoints: [{ ...sessionReport().checkpoints[0]!, files_changed: [file] }],
      }),
      opts,
    )
    expect(md).not.toContain('Z'.repeat(36))
    expect(md).toContain(`[src/\\*\\*\\*.ts](<${links.file('src/***.ts', SHA1)}>)`)
  })

  it('shows the latest round of stop hooks and collapses earlier rounds', () => {
    const hook = (round: number, verdict: 'allow' | 'block') => ({
      name: 'tests',
      verdict,
      reason: verdict === 'block' ? `round ${round} failed` : null,
      exit_code: verdict === 'block' ? 1 : 0,
      duration_ms: 1000,
      round,
    })
    const md = renderSessionComment(
      sessionReport({ stop_hooks: [hook(1, 'block'), hook(2, 'block'), hook(3, 'allow')], rounds: 3 }),
      opts,
    )
    const section = md.slice(md.indexOf('#### Stop hooks'), md.indexOf('#### Policy'))
    expect(section).toMatch(/^#### Stop hooks \(round 3 of 3\)\n\n\| hook \|/)
    const [latest, earlier] = section.split('<details>')
    expect(latest).toContain('| `tests` | 3 | ✅ passed |')
    expect(latest).not.toContain('round 1 failed')
    expect(earlier).toMatch(/^\n<summary>Earlier rounds \(2\)<\/summary>/)
    expect(earlier).toContain('round 1 failed')
    expect(earlier).toContain('round 2 failed')
    // Passing hooks have no reason: no empty column for it (the earlier, blocked rounds keep theirs).
    expect(latest).toContain('| hook | round | result | exit | duration |\n')
    expect(earlier).toContain('| hook | round | result | exit | duration | reason |\n')
    // Nor an empty "skipped" column in the checkpoints table.
    expect(md).toContain('| # | commit | trigger | files | violations |\n')
  })

  it('never draws a failed (crit) bar while the session is running', () => {
    const running = sessionReport({ status: 'errored', verdict: 'block' })
    const md = renderSessionComment(running, { ...opts, progress: { running_hooks: [] } })
    expect(md).toMatch(/^ {2}claude running :active, agent, /m)
    expect(md).not.toMatch(/:crit, agent/)
  })

  it('renders a mermaid gantt timeline whose task lines follow the grammar', () => {
    const report = sessionReport({
      events: [
        ...sessionReport().events,
        { at: 100, kind: 'approval_request', name: 'x: y; #z %% -->', message: '' },
      ],
    })
    const md = renderSessionComment(report, opts)
    const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1]
    expect(diagram).toBeDefined()
    const lines = diagram!.split('\n')
    expect(lines.slice(0, 3)).toEqual(['gantt', '  dateFormat x', '  axisFormat %H:%M:%S'])
    for (const line of lines.slice(3)) {
      expect(line).toMatch(
        /^ {2}(section [A-Za-z ]+|[A-Za-z0-9 ._/+()-]+ :(done|crit|milestone), [a-z0-9]+, \d+, \d+)$/,
      )
    }
    expect(md).toContain('approval_request x y z')
  })

  it('collapses the transcript tail in <details>', () => {
    const md = renderSessionComment(sessionReport(), opts)
    expect(md).toMatch(
      /<details>\n<summary>Transcript tail \(2\.0 KiB\)<\/summary>\n\n```text\nAll tests passed\n```\n\n<\/details>/,
    )
  })

  it('stays under 65,536 characters for a huge hostile report, cuts sections with notes, and keeps its structure', () => {
    const md = renderSessionComment(hostileReport(), opts)
    expect(md.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS)
    expect(md).toMatch(
      /more violations — see the \[job summary\]\(https:\/\/github\.com\/acme\/widgets\/actions\/runs\/42\)/,
    )
    expect(md).toMatch(/more stop-hook results — see the \[job summary\]/)
    // Structure: exactly one marker, one <details> pair, no secrets, no live mentions outside code.
    expect(md.match(/<!-- proctor:/g)).toHaveLength(1)
    expect(md).not.toContain(TOKEN)
    const prose = outsideCode(md)
    // The transcript, the files-changed list and the timeline, each a closed pair.
    expect(prose.match(/<details>/g)).toHaveLength(3)
    expect(prose.match(/<\/details>/g)).toHaveLength(3)
    expect(prose).not.toMatch(/@(octocat|admin)/)
    expect(prose).not.toMatch(/(?<!&)#12\b/)
    // Every table row has the header's number of cells (escaped pipes do not split cells).
    for (const table of prose.split(/\n\n/).filter((b) => b.startsWith('| '))) {
      const rows = table.split('\n')
      const cells = (row: string) => row.split(/(?<!\\)\|/).length
      for (const row of rows) expect(cells(row)).toBe(cells(rows[0]!))
    }
    // The transcript's fence is longer than any backtick run in it and closes the block.
    const fence = /^(`{3,})text$/m.exec(md)![1]!
    expect(fence.length).toBeGreaterThan(6)
    expect(md).toContain(`\n${fence}\n\n</details>`)
  })

  it('honours a smaller budget (the 422 fallback) and still renders the essentials', () => {
    const md = renderSessionComment(hostileReport(), { ...opts, maxChars: 8000 })
    expect(md.length).toBeLessThanOrEqual(8000)
    expect(md.startsWith(commentMarker('ci/build'))).toBe(true)
    expect(md).toContain('#### Stop hooks')
  })

  it('names the failure cause and shows blocked and timed-out states', () => {
    const md = renderSessionComment(
      sessionReport({
        status: 'timeout',
        verdict: 'block',
        reason: 'total timeout 30m reached',
        stop_hooks: [
          {
            name: 'tests',
            verdict: 'error',
            reason: null,
            exit_code: null,
            duration_ms: 600_000,
            round: 1,
            timed_out: true,
          },
        ],
      }),
      opts,
    )
    expect(md).toMatch(/^### ⏱️ proctor · block · timeout/m)
    expect(md).toContain('> total timeout 30m reached')
    expect(md).toContain('⏱️ timed out')
  })
})

describe("the comment's facts, each once (issue 33)", () => {
  // A blocked session as `proctor run` reports it: the cause, then the blocking hooks' reasons appended.
  const FAILURE = 'tests (npm test) exited 1: not ok 1 - no discount under $100\n  expected: 36, actual: 40'
  const CAUSE =
    'stop hooks blocked and the agent cannot continue: the agent has exited and agent.continue is not set in proctor.yml'
  const blocked = (over: Parameters<typeof sessionReport>[0] = {}) =>
    sessionReport({
      verdict: 'block',
      duration_ms: 8_000,
      reason: `${CAUSE} — ${FAILURE}; policy: error forbidden_area: secrets/prod.env was added`,
      cause: CAUSE,
      violations: [
        violation(1, { file: 'secrets/prod.env', severity: 'error', message: 'secrets/prod.env was added' }),
      ],
      checkpoints: [{ ...sessionReport().checkpoints[0]!, skipped: ['secrets/prod.env'] }],
      stop_hooks: [
        {
          name: 'tests',
          verdict: 'block',
          reason: `${FAILURE}\n\nEnd of its output:\n> shop@1.0.0 test\n> node --test\nnot ok 1 - no discount under $100`,
          exit_code: 1,
          duration_ms: 1_100,
          round: 1,
        },
        {
          name: 'policy',
          verdict: 'block',
          reason: '1 unresolved error/critical violation(s): secrets/prod.env',
          exit_code: null,
          duration_ms: 0,
          round: 1,
        },
      ],
      ...over,
    })
  const count = (md: string, text: string) => md.split(text).length - 1

  it("puts the cause in the heading, a hook's failure in its row and the violations in their table", () => {
    const md = renderSessionComment(blocked(), opts)
    expect(md).toContain(`> ${CAUSE.replace(/_/g, '\\_')}\n`)
    expect(count(md, 'not ok 1 - no discount under $100')).toBe(1)
    expect(count(md, 'expected: 36, actual: 40')).toBe(1)
    // The output's tail (npm's banner) is the check run's, not the comment's.
    expect(md).not.toContain('shop@1.0.0')
    expect(count(md, 'secrets/prod.env was added')).toBe(1)
    expect(md).toContain('| `policy` | 1 | ❌ blocked | — | 0ms | see Policy violations |')
  })

  it('never links a withheld file: no commit holds it', () => {
    const md = renderSessionComment(blocked(), opts)
    expect(md).toContain('| ❌ error | secrets/prod.env |')
    expect(md).not.toContain(links.file('secrets/prod.env', SHA1))
  })

  it('shows a severity with the same icon in every table', () => {
    for (const [severity, icon] of [
      ['warning', '⚠️'],
      ['error', '❌'],
      ['critical', '🛑'],
    ] as const) {
      const md = renderSessionComment(sessionReport({ violations: [violation(3, { severity })] }), opts)
      expect(md).toContain(`| ${icon} ${severity} |`)
      // Checkpoint 1's count of that one violation.
      expect(md).toMatch(new RegExp(`\\| 1 \\| \\[1111111\\]\\(.*\\) \\| \\w+ \\| \\d+ \\| ${icon} 1 \\|`))
    }
  })

  it('says which violations the agent already undid: an allowed session shows them as resolved', () => {
    const md = renderSessionComment(
      sessionReport({
        verdict: 'allow',
        violations: [
          violation(3, { severity: 'error', resolved: true }),
          violation(6, { severity: 'error' }),
        ],
      }),
      opts,
    )
    expect(md).toMatch(/file-3\.ts\]\([^)]*\) \(resolved\) \|/)
    expect(md).not.toMatch(/file-6\.ts\]\([^)]*\) \(resolved\)/)
  })

  it('leaves the timeline out of a short session and collapses a long one', () => {
    const short = renderSessionComment(blocked(), opts)
    expect(short).not.toContain('```mermaid')
    expect(short).not.toContain('Timeline')
    const long = renderSessionComment(blocked({ duration_ms: 461_000 }), opts)
    expect(long).toMatch(
      /<details>\n<summary>Timeline<\/summary>\n\n```mermaid\n[\s\S]*?\n```\n\n<\/details>/,
    )
    expect(long).not.toContain('#### Timeline')
    // The job summary, the complete record, draws it open.
    expect(renderJobSummary(blocked(), { links, sanitizer })).toContain('#### Timeline')
  })

  it('says what to do next, as fits the outcome', () => {
    const local = blocked({ pushed: null })
    delete local.ci
    expect(renderSessionComment(local, opts)).toContain(
      "**What next:** re-run `proctor run` once the cause is fixed · take the agent's work: `proctor checkpoints restore gh-42-1-build`",
    )
    const fromComment = renderSessionComment(blocked(), {
      ...opts,
      task: { text: 'add a discount', author: 'alice', url: null },
    })
    expect(fromComment).toMatch(
      /^\*\*What next:\*\* re-run the job once the cause is fixed · comment `\/proctor continue <feedback>` to send the agent back · take the agent's work: `git fetch origin proctor\/gh-42-1-build && proctor checkpoints restore 1111111`$/m,
    )
    expect(renderSessionComment(sessionReport({ violations: [] }), opts)).not.toContain('What next')
  })
})

describe('renderJobSummary', () => {
  it('holds everything a huge report has that fits in 1 MiB', () => {
    const md = renderJobSummary(hostileReport(), { links, sanitizer })
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES)
    // Far more than the comment lists.
    const rows = (text: string) => (text.match(/\| ⚠️ warning \|/g) ?? []).length
    expect(rows(md)).toBeGreaterThan(5 * rows(renderSessionComment(hostileReport(), opts)))
    expect(md).toMatch(/more violations — see the \[job summary\]/)
    expect(md).not.toContain(TOKEN)
    expect(md).not.toContain('<!-- proctor:')
    expect(md).toContain('<details open>')
  })

  it('keeps multi-byte text within the byte budget', () => {
    const md = renderJobSummary(sessionReport({ output_tail: '日本語の出力\n'.repeat(200_000) }), {
      links,
      sanitizer,
    })
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES)
    expect(md).toContain('characters omitted to fit')
  })
})

describe('batch renderers', () => {
  it('renders a table of sessions with counts and problems, sanitized', () => {
    const md = renderBatchComment(batchReport(5), { key: 'batch', links, sanitizer })
    expect(md.startsWith('<!-- proctor:batch -->\n### ❌ proctor batch · block · 5 sessions')).toBe(true)
    expect(md).toContain('4 completed · 1 failed')
    expect(md).toContain('| 0 | task-0 | — | ❌ failed |')
    expect(md).toContain('@&#8203;someone #&#8203;1')
    expect(md).toContain('#### Problems (1)')
  })

  it('cuts a 5,000-session batch to the comment limit, but the summary keeps them all', () => {
    const batch = batchReport(5000)
    const comment = renderBatchComment(batch, { key: 'batch', links, sanitizer })
    expect(comment.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS)
    expect(comment).toMatch(/more sessions — see the \[job summary\]/)
    const summary = renderBatchSummary(batch, { links, sanitizer })
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES)
    expect(summary).toContain('| 4999 | task-4999 |')
  })
})
