// Runs the BUILT action (dist/index.js, dist/post.js) the way the runner does: a fresh `node` process
// with INPUT_* variables, GITHUB_* context, GITHUB_EVENT_PATH (a real payload from
// @octokit/webhooks-examples, adjusted), GITHUB_OUTPUT / GITHUB_STEP_SUMMARY / GITHUB_STATE files, and
// for the post step the saved state as STATE_<name> variables.
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { isolatedGitEnv } from '../helpers/git-repo.js'

/** The built action; PROCTOR_E2E_DIST points the e2e tests at another build (e.g. one beside dist/). */
export const DIST = resolve(process.env.PROCTOR_E2E_DIST || resolve(import.meta.dirname, '../../dist'))

/** Why the built action is unusable, or null. The e2e tests run against dist/, never src/. */
export function distProblem(): string | null {
  for (const file of ['index.js', 'post.js']) {
    if (!existsSync(join(DIST, file))) {
      return `dist/${file} is missing: run \`npm run build\` first (rollup.config.mjs must list the index and post entries)`
    }
  }
  return null
}

interface WebhookDefinition {
  name: string
  examples: Array<Record<string, unknown> & { action?: string }>
}

/** A real example payload of `event` (first one with `action`, if given), deep-copied. */
export function examplePayload(event: string, action?: string): Record<string, unknown> {
  const require = createRequire(import.meta.url)
  const all = require('@octokit/webhooks-examples') as WebhookDefinition[]
  const examples = all.find((d) => d.name === event)?.examples ?? []
  const found = examples.find((e) => !action || e.action === action)
  if (!found)
    throw new Error(`@octokit/webhooks-examples has no ${event}${action ? `/${action}` : ''} payload`)
  return structuredClone(found)
}

/** The `pull_request` opened payload, re-pointed at acme/widgets, `number` and `headSha` (fork: head elsewhere). */
export function pullRequestPayload(opts: {
  number: number
  headSha: string
  baseSha: string
  fork?: boolean
}) {
  const payload = examplePayload('pull_request', 'opened') as {
    number: number
    pull_request: Record<string, unknown> & {
      number: number
      head: { sha: string; ref: string; repo: { full_name: string; name: string; owner: { login: string } } }
      base: { sha: string; ref: string; repo: { full_name: string; name: string; owner: { login: string } } }
    }
    repository: { full_name: string; name: string; owner: { login: string } }
  }
  const pr = payload.pull_request
  payload.number = pr.number = opts.number
  pr.head.sha = opts.headSha
  pr.base.sha = opts.baseSha
  for (const repo of [pr.base.repo, payload.repository]) {
    repo.full_name = 'acme/widgets'
    repo.name = 'widgets'
    repo.owner.login = 'acme'
  }
  pr.head.repo.full_name = opts.fork ? 'mallory/widgets' : 'acme/widgets'
  pr.head.repo.owner.login = opts.fork ? 'mallory' : 'acme'
  return payload
}

export interface ActionResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** What the step saved with core.saveState (for the post step). */
  state: Record<string, string>
  ms: number
}

export interface StepOptions {
  entry: 'index' | 'post'
  cwd: string
  apiUrl: string
  event: { name: string; payload: unknown }
  inputs?: Record<string, string>
  /** Saved state of the main step (post only). */
  state?: Record<string, string>
  env?: Record<string, string>
  /** The run attempt (re-runs). */
  attempt?: number
  token?: string
  onSpawn?: (child: ChildProcess) => void
}

export const TOKEN = 'ghs_' + 'E2eT0ken'.repeat(5)

/** One action step as the runner runs it; resolves when the process exits. */
export function runStep(options: StepOptions): Promise<ActionResult> {
  const files = mkdtempSync(join(tmpdir(), 'proctor-step-'))
  const path = (name: string) => join(files, name)
  writeFileSync(path('event.json'), JSON.stringify(options.event.payload))
  for (const name of ['output', 'summary', 'state']) writeFileSync(path(name), '')
  const inputs = { 'github-token': options.token ?? TOKEN, ...options.inputs }
  const env: NodeJS.ProcessEnv = {
    ...isolatedGitEnv(),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: options.apiUrl,
    GITHUB_EVENT_NAME: options.event.name,
    GITHUB_EVENT_PATH: path('event.json'),
    GITHUB_SHA: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: String(options.attempt ?? 1),
    GITHUB_JOB: 'agent',
    GITHUB_WORKFLOW: 'proctor',
    GITHUB_ACTOR: 'alice',
    GITHUB_WORKSPACE: options.cwd,
    GITHUB_OUTPUT: path('output'),
    GITHUB_STEP_SUMMARY: path('summary'),
    GITHUB_STATE: path('state'),
    RUNNER_TEMP: files,
    PROCTOR_GITHUB_RETRY_BASE_MS: '5',
    ...Object.fromEntries(
      Object.entries(inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, '_').toUpperCase()}`, v]),
    ),
    ...Object.fromEntries(Object.entries(options.state ?? {}).map(([k, v]) => [`STATE_${k}`, v])),
    ...options.env,
  }
  delete env.GITHUB_TOKEN
  const started = Date.now()
  const child = spawn(process.execPath, [join(DIST, `${options.entry}.js`)], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  options.onSpawn?.(child)
  // The step's files (and RUNNER_TEMP, the same directory) go once the results are read from them.
  const removeFiles = () => rmSync(files, { recursive: true, force: true })
  return new Promise((resolvePromise, reject) => {
    child.on('error', (error) => {
      removeFiles()
      reject(error)
    })
    child.on('close', (code, signal) => {
      try {
        resolvePromise({
          code,
          signal,
          stdout,
          stderr,
          outputs: parseCommandFile(readFileSync(path('output'), 'utf8')),
          summary: readFileSync(path('summary'), 'utf8'),
          state: parseCommandFile(readFileSync(path('state'), 'utf8')),
          ms: Date.now() - started,
        })
      } finally {
        removeFiles()
      }
    })
  })
}

/** GITHUB_OUTPUT / GITHUB_STATE files: `name<<delimiter\nvalue\ndelimiter` blocks (or `name=value`). */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string]
      const value: string[] = []
      while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i]!)
      out[name] = value.join('\n')
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return out
}

/** Polls `condition` until it holds (for things with no event to await), failing after `ms`. */
export async function until(what: string, condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A loopback port nothing listens on (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

/** Whether `pid` is a live process (a zombie waiting for its reaper counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S ...": the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true
  }
}
