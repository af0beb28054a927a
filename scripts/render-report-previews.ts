// Renders what a reviewer gets on GitHub for a blocked and an allowed session — the sticky PR comment and
// the job summary — as GitHub does: markdown to HTML with a GitHub-flavoured renderer (marked, GFM on),
// ```mermaid blocks drawn by mermaid itself (GitHub draws them as diagrams, not code), in headless
// Chromium driven by playwright-core, one screenshot of each rendered box into docs/images/. A dev
// script, not part of `npm test` or CI (docs/github.md#what-the-comment-shows).
//
//   apt-get install -y chromium fonts-noto-color-emoji   # Debian's Chromium (or CHROMIUM=/path/to/chrome)
//   node --import tsx scripts/render-report-previews.ts
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { Marked } from 'marked'
import { chromium, type Page } from 'playwright-core'
import { renderJobSummary, renderSessionComment, type ReportLinks } from '../src/report/markdown.js'
import type { SessionReport } from '../src/report/model.js'
import { createSanitizer } from '../src/util/sanitize.js'

const OUT = resolve(import.meta.dirname, '../docs/images')
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const MERMAID = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js')

const repo = 'https://github.com/acme/widgets'
const links: ReportLinks = {
  commit: (sha) => `${repo}/commit/${sha}`,
  compare: (a, b) => `${repo}/compare/${a}...${b}`,
  file: (p, sha) => `${repo}/blob/${sha}/${p}`,
  jobSummary: `${repo}/actions/runs/4242`,
  job: `${repo}/actions/runs/4242/job/31337`,
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
    reason: blocked
      ? 'stop hooks still blocked after 2 round(s) (max_stop_rounds: 2) — tests: FAIL src/cart.test.ts > rounds the discount to cents'
      : null,
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
const CSS = `body{font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif,"Noto Color Emoji";color:#1f2328;background:#fff;margin:0}
.box{width:880px;margin:16px;border:1px solid #d1d9e0;border-radius:6px}
.hdr{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;color:#59636e}
.md{padding:16px}.md h3{font-size:1.25em;margin:0 0 8px}.md h4{font-size:1em;margin:16px 0 8px}
a{color:#0969da;text-decoration:none}code{background:#eff1f3;border-radius:6px;padding:.2em .4em;font-size:85%}
pre{background:#f6f8fa;border-radius:6px;padding:12px;overflow:auto}pre code{background:none;padding:0}
pre.mermaid{background:none;padding:0;text-align:center}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d1d9e0;padding:4px 10px}th{background:#f6f8fa}
blockquote{margin:8px 0;padding:0 1em;color:#59636e;border-left:.25em solid #d1d9e0}sub{font-size:80%;color:#59636e}
details summary{cursor:pointer}ul{padding-left:2em}`

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

// GitHub hands a ```mermaid block to mermaid; every other fence stays code.
const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    code({ text, lang }) {
      return lang === 'mermaid' ? `<pre class="mermaid">${escapeHtml(text)}</pre>\n` : false
    },
  },
})

function page(title: string, body: string): string {
  const html = markdown.parse(body, { async: false })
  return `<!doctype html><meta charset="utf-8"><style>${CSS}</style><div class="box"><div class="hdr">${title}</div><div class="md">${html}</div></div>`
}

/** Draws the mermaid diagrams (the default theme, as GitHub's light mode) and shoots the box. */
async function screenshot(tab: Page, html: string, png: string): Promise<void> {
  await tab.setContent(html)
  if ((await tab.locator('pre.mermaid').count()) > 0) {
    await tab.addScriptTag({ path: MERMAID })
    await tab.evaluate(async () => {
      const mermaid = (globalThis as unknown as { mermaid: MermaidApi }).mermaid
      mermaid.initialize({ startOnLoad: false, theme: 'default', securityLevel: 'strict' })
      await mermaid.run({ querySelector: 'pre.mermaid' })
    })
    // A diagram mermaid could not parse becomes an error picture: fail instead of shipping it.
    const broken = await tab.locator('pre.mermaid [aria-roledescription="error"]').count()
    if (broken > 0) throw new Error(`mermaid could not draw the timeline in ${png}`)
  }
  await tab.evaluate('document.fonts.ready') // the emoji font, before the shot
  await tab.locator('.box').screenshot({ path: png })
}

interface MermaidApi {
  initialize(config: Record<string, unknown>): void
  run(options: { querySelector: string }): Promise<void>
}

mkdirSync(OUT, { recursive: true })
const sanitizer = createSanitizer({ secrets: [] })
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
})
try {
  // UTC: mermaid shows the timeline's wall-clock times in the viewer's zone.
  const context = await browser.newContext({ viewport: { width: 920, height: 900 }, timezoneId: 'UTC' })
  const tab = await context.newPage()
  for (const blocked of [true, false]) {
    const r = report(blocked)
    const name = blocked ? 'blocked' : 'allowed'
    const comment = renderSessionComment(r, { key: 'proctor/agent', links, sanitizer, checkRuns })
    const summary = renderJobSummary(r, { links, sanitizer, checkRuns })
    await screenshot(
      tab,
      page('github-actions <b>bot</b> commented', comment),
      join(OUT, `comment-${name}.png`),
    )
    await screenshot(tab, page('Job summary', summary), join(OUT, `summary-${name}.png`))
    console.log(`docs/images/comment-${name}.png, docs/images/summary-${name}.png`)
  }
} finally {
  await browser.close()
}
