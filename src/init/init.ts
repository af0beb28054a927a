// `proctor init`: proctor.yml, the husky v9 pre-push hook and a workflow for the chosen agent, at the
// repository root. A file that exists is kept unless `force` is set. With `husky: 'install'` and a
// package.json, husky is installed into devDependencies and set up, so git runs the hook from the start.
import { existsSync, readFileSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { findRepoRoot } from '../state/layout.js'
import { ACTION_PLACEHOLDER, defaultActionRef } from './action-ref.js'
import type { InitAgent, InitTrigger } from './agents.js'
import { setUpHusky } from './husky.js'
import { PRE_PUSH_SCRIPT } from './pre-push.js'
import { configTemplate, workflowFor, type WorkflowLayout } from './templates.js'

export interface InitFile {
  path: string
  content: string
  mode?: number
}

export interface InitOptions {
  agent?: InitAgent
  /**
   * `one-job` (default): one job with the write token, for trusted triggers (manual runs, pull requests
   * from this repository). `two-job`: the agent's job holds no write token and a verify job publishes,
   * for untrusted ones (issues, comments, fork pull requests).
   */
  layout?: WorkflowLayout
  /**
   * What starts a session (default `mention`): `mention` (a comment with the trigger phrase) and `label`
   * always get the two-job layout (the text is anyone's); `pull_request` the layout asked for.
   */
  trigger?: InitTrigger
  /** The workflow's `uses:` value; default: from proctor's package.json, else a placeholder. */
  action?: string
  /** `install`: install and set up husky when there is a package.json; `skip`: only say how. */
  husky?: 'install' | 'skip'
  /** The environment npm and husky run with (default process.env). */
  env?: Record<string, string | undefined>
}

export interface InitResult {
  root: string
  written: string[]
  kept: string[]
  /** Next steps worth telling the user (a placeholder to fill in, husky not set up...). */
  hints: string[]
}

export const WORKFLOW_PATH = '.github/workflows/proctor.yml'

export class InitError extends Error {
  override name = 'InitError'
}

/** The layout for a trigger: comment and label triggers carry anyone's text, so never one job. */
export function layoutFor(options: InitOptions): WorkflowLayout {
  const trigger = options.trigger ?? 'mention'
  if (trigger === 'pull_request') return options.layout ?? 'one-job'
  if (options.layout === 'one-job')
    throw new InitError(
      `--trigger ${trigger} writes the two-job layout (the task is text anyone can write; the agent's job ` +
        'must not hold a write token): drop --layout one-job',
    )
  return 'two-job'
}

export function initFiles(root: string, options: InitOptions = {}): InitFile[] {
  const agent = options.agent ?? 'claude-code'
  const trigger = options.trigger ?? 'mention'
  const install = existsSync(join(root, 'package-lock.json'))
    ? 'npm ci'
    : existsSync(join(root, 'package.json'))
      ? 'npm install'
      : null
  const action = options.action ?? defaultActionRef()
  return [
    { path: 'proctor.yml', content: configTemplate(agent, trigger) },
    { path: '.husky/pre-push', content: PRE_PUSH_SCRIPT, mode: 0o755 },
    { path: WORKFLOW_PATH, content: workflowFor(layoutFor(options), { agent, action, install, trigger }) },
  ]
}

export async function writeInitFiles(
  cwd: string,
  force: boolean,
  options: InitOptions = {},
): Promise<InitResult> {
  const repoRoot = findRepoRoot(cwd)
  const root = repoRoot ?? resolve(cwd)
  const result: InitResult = { root, written: [], kept: [], hints: [] }
  for (const file of initFiles(root, options)) {
    const path = join(root, file.path)
    if (existsSync(path) && !force) {
      result.kept.push(file.path)
      continue
    }
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, file.content)
    if (file.mode !== undefined) await chmod(path, file.mode)
    result.written.push(file.path)
  }
  const workflowPath = join(root, WORKFLOW_PATH)
  if (existsSync(workflowPath) && readFileSync(workflowPath, 'utf8').includes(ACTION_PLACEHOLDER)) {
    result.hints.push(
      `${WORKFLOW_PATH} says \`uses: ${ACTION_PLACEHOLDER}@…\` (this proctor's package.json names no GitHub ` +
        `repository): replace OWNER with the GitHub owner of the proctor action you use, or run ` +
        `\`proctor init --action <owner>/proctor@v1 --force\``,
    )
  }
  if (layoutFor(options) === 'one-job' && result.written.includes(WORKFLOW_PATH)) {
    result.hints.push(
      `${WORKFLOW_PATH} runs on trusted triggers only (manual runs, pull requests from this repository). ` +
        'For issues, comments or fork pull requests use the two-job layout, where the agent holds no write ' +
        'token: `proctor init --trigger mention --force` (comments) or `--layout two-job` (fork pull requests)',
    )
  }
  if (repoRoot === null) {
    result.hints.push('this is not a git repository; run `git init` first, then `proctor init` again')
    return result
  }
  result.hints.push(...(await setUpHusky(root, options.husky ?? 'skip', options.env ?? process.env)))
  return result
}
