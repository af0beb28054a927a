// Renders what a reviewer gets on GitHub for a blocked and an allowed session — real sessions of the demo
// agent run by the built CLI — the sticky PR comment and the job summary, as GitHub does: markdown to HTML with a GitHub-flavoured renderer (marked, GFM on),
// ```mermaid blocks drawn by mermaid itself (GitHub draws them as diagrams, not code), in headless
// Chromium driven by playwright-core, one screenshot of each rendered box into docs/images/. A dev
// script, not part of `npm test` or CI (docs/github.md#what-the-comment-shows).
//
//   apt-get install -y chromium fonts-noto-color-emoji   # Debian's Chromium (or CHROMIUM=/path/to/chrome;
//                                                        # EMOJI_CSS=…/@fontsource/noto-emoji/index.css,
//                                                        # monochrome, where a Chromium draws no color fonts)
//   npm run build && node --import tsx scripts/render-report-previews.ts [comment] [summary] [conversation]
//
// No argument renders all of them. `conversation` is the conversation comment of a real run of the built
// action: the e2e test of a reply on the session's pull request (test/e2e/conversation.test.ts) writes
// the body the local GitHub API server stored into PROCTOR_PREVIEW_DIR.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { makeDemoRepo } from '../examples/demo-repo.js'
import { renderJobSummary, renderSessionComment, type ReportLinks } from '../src/report/markdown.js'
import type { SessionReport } from '../src/report/model.js'
import { createSanitizer } from '../src/util/sanitize.js'

const ROOT = resolve(import.meta.dirname, '..')
const OUT = join(ROOT, 'docs/images')
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
// What only this script needs (a markdown renderer, mermaid, a browser driver: ~200 MB) is installed on
// its first run into a cache of its own, not by `npm ci`.
const PREVIEW_PACKAGES = ['marked@16.4.2', 'mermaid@12.3.0', 'playwright-core@1.65.1']
const PREFIX = join(ROOT, 'node_modules/.cache/proctor-previews')
if (!existsSync(join(PREFIX, 'node_modules/playwright-core/package.json'))) {
  console.log(`installing ${PREVIEW_PACKAGES.join(', ')} into ${PREFIX} (once)`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  execFileSync(
    npm,
    ['install', '--prefix', PREFIX, '--no-save', '--no-audit', '--no-fund', ...PREVIEW_PACKAGES],
    {
      stdio: 'inherit',
    },
  )
}
const fromPrefix = createRequire(join(PREFIX, 'noop.js'))
const { Marked } = fromPrefix('marked') as { Marked: MarkedClass }
const { chromium } = fromPrefix('playwright-core') as { chromium: Chromium }
const MERMAID = fromPrefix.resolve('mermaid/dist/mermaid.min.js')

/** The little of marked and playwright-core this script uses (they are not the project's dependencies). */
interface MarkedClass {
  new (options: {
    gfm: boolean
    async: false
    renderer: { code(token: { text: string; lang?: string }): string | false }
  }): { parse(markdown: string, options: { async: false }): string }
}
interface Locator {
  count(): Promise<number>
  screenshot(options: { path: string }): Promise<unknown>
}
interface Page {
  setContent(html: string): Promise<void>
  locator(selector: string): Locator
  addScriptTag(options: { path: string }): Promise<unknown>
  evaluate(fn: string | (() => unknown)): Promise<unknown>
}
interface Chromium {
  launch(options: { executablePath: string; args: string[] }): Promise<{
    newContext(options: {
      viewport: { width: number; height: number }
      timezoneId: string
    }): Promise<{ newPage(): Promise<Page> }>
    close(): Promise<void>
  }>
}

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
const checkRuns = ['tests', 'policy'].map((hook, i) => ({
  name: `proctor / ${hook}`,
  url: `${repo}/runs/${900 + i}`,
}))

/**
 * The report of a real session: the demo agent in the demo's repository (examples/demo-repo.ts), run by
 * the built CLI. Blocked: one stop round only, so the missing test and the forbidden file are still there.
 */
function realReport(blocked: boolean): SessionReport {
  const cli = join(ROOT, 'dist/cli.js')
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first')
  const { work, repo } = makeDemoRepo(blocked ? { maxStopRounds: 1 } : {})
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
    for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
    spawnSync(process.execPath, [cli, 'run', '--no-push'], { cwd: repo, env, stdio: 'ignore' })
    const sessions = join(repo, '.proctor/sessions')
    const [id] = readdirSync(sessions)
    return JSON.parse(readFileSync(join(sessions, id!, 'report.json'), 'utf8')) as SessionReport
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The conversation comment's body as GitHub stored it, from the e2e test's real run of the built action. */
function realConversation(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-preview-'))
  try {
    const test = 'a review comment without the phrase'
    const run = spawnSync('npx', ['vitest', 'run', 'test/e2e/conversation.test.ts', '-t', test], {
      cwd: ROOT,
      env: { ...process.env, PROCTOR_PREVIEW_DIR: dir },
      encoding: 'utf8',
    })
    const file = join(dir, 'conversation.md')
    if (run.status !== 0 || !existsSync(file))
      throw new Error(
        `the conversation e2e test failed (run npm run build first):\n${run.stdout}${run.stderr}`,
      )
    return readFileSync(file, 'utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * @font-face rules for an emoji font (EMOJI_CSS: a stylesheet such as @fontsource/noto-color-emoji's
 * index.css), its url()s inlined: the page is about:blank and may not load files.
 */
function emojiFontCss(): string {
  const file = process.env.EMOJI_CSS
  if (!file) return ''
  // Without the ASCII it also covers (# * 0-9 for keycaps, © ®): text digits must not come from it.
  const css = readFileSync(file, 'utf8').replace(/U\+(?:23|2a|30-39|a9|ae),/gi, '')
  return css.replace(/url\(\.\/([^)]+)\)/g, (_m, rel: string) => {
    const font = readFileSync(join(dirname(file), rel))
    const type = rel.endsWith('.woff2') ? 'woff2' : rel.endsWith('.woff') ? 'woff' : 'truetype'
    return `url(data:font/${type};base64,${font.toString('base64')})`
  })
}

// Enough of GitHub's look to judge layout: its font stack, tables, details, code.
const CSS = `body{font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif,"Noto Color Emoji","Noto Emoji";color:#1f2328;background:#fff;margin:0}
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
  return `<!doctype html><meta charset="utf-8"><style>${EMOJI_FONT}${CSS}</style><div class="box"><div class="hdr">${title}</div><div class="md">${html}</div></div>`
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
const EMOJI_FONT = emojiFontCss()
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
    // A Chromium built for elsewhere (e.g. @sparticuz/chromium's) may need its own flags.
    ...(process.env.CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? []),
  ],
})
try {
  // UTC: mermaid shows the timeline's wall-clock times in the viewer's zone.
  const context = await browser.newContext({ viewport: { width: 920, height: 900 }, timezoneId: 'UTC' })
  const tab = await context.newPage()
  const wanted = process.argv.slice(2)
  const wants = (what: string) => wanted.length === 0 || wanted.includes(what)
  for (const blocked of wants('comment') || wants('summary') ? [true, false] : []) {
    const r = realReport(blocked)
    const name = blocked ? 'blocked' : 'allowed'
    const comment = renderSessionComment(r, { key: 'proctor/agent', links, sanitizer, checkRuns })
    const summary = renderJobSummary(r, { links, sanitizer, checkRuns })
    if (wants('comment')) {
      await screenshot(
        tab,
        page('github-actions <b>bot</b> commented', comment),
        join(OUT, `comment-${name}.png`),
      )
      console.log(`docs/images/comment-${name}.png`)
    }
    if (wants('summary')) {
      await screenshot(tab, page('Job summary', summary), join(OUT, `summary-${name}.png`))
      console.log(`docs/images/summary-${name}.png`)
    }
  }
  if (wants('conversation')) {
    const body = realConversation()
    await screenshot(tab, page('github-actions <b>bot</b> commented', body), join(OUT, 'conversation.png'))
    console.log('docs/images/conversation.png')
  }
} finally {
  await browser.close()
}
