// Renders what a reviewer gets on GitHub for a blocked and an allowed session — the sticky PR comment and
// the job summary — to HTML with a GitHub-flavoured markdown renderer (marked, GFM on) and screenshots
// them with headless Chromium into docs/images/. Not part of `npm test`.
//
//   apt-get install -y chromium      # Debian's Chromium (or set CHROMIUM=/path/to/chrome)
//   node --import tsx scripts/render-report-previews.ts
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { marked } from 'marked'
import { renderJobSummary, renderSessionComment, type ReportLinks } from '../src/report/markdown.js'
import type { SessionReport } from '../src/report/model.js'
import { createSanitizer } from '../src/util/sanitize.js'

const OUT = resolve(import.meta.dirname, '../docs/images')
const CHROMIUM = process.env.CHROMIUM || 'chromium'

const repo = 'https://github.com/acme/widgets'
const links: ReportLinks = {
  commit: (sha) => `${repo}/commit/${sha}`,
  compare: (a, b) => `${repo}/compare/${a}...${b}`,
  file: (p, sha) => `${repo}/blob/${sha}/${p}`,
  jobSummary: `${repo}/actions/runs/4242`,
  branch: (name) => ({
    tree: `${repo}/tree/${name}`,
    compare: `${repo}/compare/feature...${name}`,
    createPullRequest: `${repo}/compare/feature...${name}?expand=1`,
  }),
}
const checkRuns = ['tests', 'lint', 'policy'].map((hook, i) => ({
  name: `proctor / ${hook}`,
  url: `${repo}/runs/${900 + i}`,
}))

function report(blocked: boolean): SessionReport {
  const hook = (name: string, round: number, pass: boolean, reason: string | null) => ({
    name,
    verdict: pass ? ('allow' as const) : ('block' as const),
    reason: pass ? null : reason,
    exit_code: pass ? 0 : 1,
    duration_ms: name === 'tests' ? 41_200 : 3_100,
    round,
  })
  const files = ['src/cart.ts', 'src/cart.test.ts', 'src/pricing/discount.ts', 'README.md']
  return {
    schema: 1,
    session_id: '4242-1-agent',
    status: 'completed',
    verdict: blocked ? 'block' : 'allow',
    exit_code: blocked ? 1 : 0,
    signal: null,
    reason: blocked ? 'stop hooks still blocked after 2 round(s) (max_stop_rounds: 2)' : null,
    started_at: '2026-11-23T20:00:00.000Z',
    ended_at: '2026-11-23T20:07:41.000Z',
    duration_ms: 461_000,
    command: ['claude', '-p', 'Add a 10% discount for carts over $100 and test it'],
    cwd: '/home/runner/work/widgets/widgets',
    mode: 'pty',
    events: [
      { at: 0, kind: 'session_start', message: 'started' },
      { at: 95_000, kind: 'checkpoint', name: '1', message: 'checkpoint 1' },
      { at: 230_000, kind: 'stop_hooks', message: 'round 1' },
      { at: 240_000, kind: 'continue', message: 'round 2' },
      { at: 380_000, kind: 'checkpoint', name: '2', message: 'checkpoint 2' },
      { at: 400_000, kind: 'stop_hooks', message: 'round 2' },
      { at: 460_000, kind: 'exit', message: 'exit' },
    ],
    checkpoints: [
      {
        seq: 1,
        sha: '3f2a9c1d0b7e4f5a6c8d9e0f1a2b3c4d5e6f7a8b',
        ref: 'refs/proctor/4242-1-agent',
        trigger: 'interval',
        files_changed: files.slice(0, 2),
        violations: 0,
        skipped: [],
        created_at: '2026-11-23T20:01:35.000Z',
      },
      {
        seq: 2,
        sha: '9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c',
        ref: 'refs/proctor/4242-1-agent',
        trigger: 'final',
        files_changed: files,
        violations: blocked ? 1 : 0,
        skipped: [],
        created_at: '2026-11-23T20:06:20.000Z',
      },
    ],
    violations: blocked
      ? [
          {
            checkpoint: 2,
            file: 'README.md',
            constraint: 'protected_paths',
            severity: 'warning',
            message: 'README.md is a protected path',
            suggestion: 'leave documentation changes to a human',
          },
        ]
      : [],
    stop_hooks: [
      hook(
        'tests',
        1,
        false,
        'FAIL src/cart.test.ts > applies a 10% discount over $100\nexpected 90 to be 99',
      ),
      hook('lint', 1, true, null),
      hook(
        'tests',
        2,
        !blocked,
        'FAIL src/cart.test.ts > rounds the discount to cents\nexpected 89.991 to be 89.99',
      ),
      hook('lint', 2, true, null),
    ],
    rounds: 2,
    pushed: {
      ok: true,
      remote: 'origin',
      branch: 'proctor/4242-1-agent',
      sha: '9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c',
      reason: null,
      bundle: null,
    },
    transcript: { path: '.proctor/sessions/4242-1-agent/transcript.log', bytes: 48_213, capped: false },
    output_tail: blocked
      ? '● Running npm test\n  ✗ rounds the discount to cents\n● The rounding needs Math.round(x * 100) / 100.'
      : '● Running npm test\n  ✓ 42 tests passed\n● Done: discount applied and tested.',
    ci: {
      repository: 'acme/widgets',
      run_id: '4242',
      run_attempt: 1,
      sha: '1234567890abcdef1234567890abcdef12345678',
    },
  }
}

// Enough of GitHub's look to judge layout: its font stack, tables, details, code.
const CSS = `body{font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;color:#1f2328;background:#fff;margin:0}
.box{max-width:880px;margin:16px;border:1px solid #d1d9e0;border-radius:6px}
.hdr{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;color:#59636e}
.md{padding:16px}.md h3{font-size:1.25em;margin:0 0 8px}.md h4{font-size:1em;margin:16px 0 8px}
a{color:#0969da;text-decoration:none}code{background:#eff1f3;border-radius:6px;padding:.2em .4em;font-size:85%}
pre{background:#f6f8fa;border-radius:6px;padding:12px;overflow:auto}pre code{background:none;padding:0}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d1d9e0;padding:4px 10px}th{background:#f6f8fa}
blockquote{margin:8px 0;padding:0 1em;color:#59636e;border-left:.25em solid #d1d9e0}sub{font-size:80%;color:#59636e}
details summary{cursor:pointer}ul{padding-left:2em}`

function page(title: string, markdown: string): string {
  const body = marked.parse(markdown, { gfm: true, async: false })
  return `<!doctype html><meta charset="utf-8"><style>${CSS}</style><div class="box"><div class="hdr">${title}</div><div class="md">${body}</div></div>`
}

function screenshot(html: string, png: string, profile: string): void {
  const file = join(profile, 'page.html')
  writeFileSync(file, html)
  execFileSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(profile, 'chromium')}`,
      '--hide-scrollbars',
      '--window-size=920,1400',
      `--screenshot=${png}`,
      `file://${file}`,
    ],
    { stdio: 'ignore', timeout: 60_000 },
  )
}

mkdirSync(OUT, { recursive: true })
const sanitizer = createSanitizer({ secrets: [] })
const work = mkdtempSync(join(tmpdir(), 'proctor-previews-'))
try {
  for (const blocked of [true, false]) {
    const r = report(blocked)
    const name = blocked ? 'blocked' : 'allowed'
    const comment = renderSessionComment(r, { key: 'proctor/agent', links, sanitizer, checkRuns })
    const summary = renderJobSummary(r, { links, sanitizer })
    screenshot(page('github-actions <b>bot</b> commented', comment), join(OUT, `comment-${name}.png`), work)
    screenshot(page('Job summary', summary), join(OUT, `summary-${name}.png`), work)
    console.log(`docs/images/comment-${name}.png, docs/images/summary-${name}.png`)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
