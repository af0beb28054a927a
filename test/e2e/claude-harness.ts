// Running the real Claude Code CLI under `proctor run` in tests: a temp repository, a temp HOME and
// CLAUDE_CONFIG_DIR, the scripted Anthropic API on loopback, and a refusing proxy for anything else. The
// binary is the pinned devDependency (2.1.330), the 2.1.197 alias, or PROCTOR_TEST_CLAUDE_BIN (set by
// `npm run test:agents-latest` to the newest release).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import {
  startAnthropicApi,
  startRefusingProxy,
  type AnthropicApiServer,
  type AnthropicUsage,
  type Refusal,
  type RefusingProxy,
  type Script,
} from '../servers/anthropic-api.js'
import type { SessionReport } from '../../src/report/model.js'

const root = resolve(import.meta.dirname, '../..')
export const cli = join(root, 'dist/cli.js')

export interface ClaudeBinary {
  label: string
  path: string
}

/** The CLIs under test: the newest given by test:agents-latest, else both pinned versions. */
export function claudeBinaries(): ClaudeBinary[] {
  const latest = process.env.PROCTOR_TEST_CLAUDE_BIN
  if (latest)
    return [{ label: `claude ${process.env.PROCTOR_TEST_CLAUDE_VERSION ?? 'latest'}`, path: latest }]
  const pinned: ClaudeBinary[] = [
    { label: 'claude 2.1.330', path: join(root, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe') },
    { label: 'claude 2.1.197', path: join(root, 'node_modules/claude-code-2-1-197/bin/claude.exe') },
  ]
  return pinned.filter((b) => existsSync(b.path))
}

export interface ClaudeWorld {
  repo: TempRepo
  api: AnthropicApiServer
  proxy: RefusingProxy
  env: NodeJS.ProcessEnv
  cleanup(): Promise<void>
}

export async function claudeWorld(
  binary: ClaudeBinary,
  script: Script,
  files: Record<string, string>,
  apiOptions: { usage?: () => AnthropicUsage; refuse?: Refusal } = {},
): Promise<ClaudeWorld> {
  const repo = makeTempRepo({ files: { 'README.md': '# test\n', ...files } })
  const api = await startAnthropicApi(script, apiOptions)
  const proxy = await startRefusingProxy()
  const home = tempDir('proctor-claude-home-')
  const configDir = join(home, '.claude')
  mkdirSync(configDir, { recursive: true })
  // First-run onboarding (theme, a connectivity check against api.anthropic.com) is a laptop's one-time
  // setup; CI images seed it the same way. The dialogs proctor must answer (API key, folder trust) stay.
  writeFileSync(
    join(configDir, '.claude.json'),
    JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark' }),
  )
  const bin = join(home, 'bin')
  mkdirSync(bin)
  symlinkSync(binary.path, join(bin, 'claude'))
  const env: NodeJS.ProcessEnv = { ...repo.env }
  for (const key of Object.keys(env))
    if (
      key.startsWith('GITHUB_') ||
      key.startsWith('ANTHROPIC_') ||
      key.startsWith('CLAUDE') ||
      key === 'PROCTOR_SESSION_ID'
    )
      delete env[key]
  Object.assign(env, {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-api03-proctor-test-key',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    https_proxy: proxy.url,
    http_proxy: proxy.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    TERM: 'xterm-256color',
    NO_COLOR: '1',
  })
  return {
    repo,
    api,
    proxy,
    env,
    async cleanup() {
      await api.close()
      await proxy.close()
      repo.cleanup()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

export interface ProctorRun {
  code: number | null
  stdout: string
  stderr: string
  report: SessionReport
}

/** `proctor run <args>` in the world's repository; resolves with its report.json. */
export function runProctor(world: ClaudeWorld, args: string[]): Promise<ProctorRun> {
  const child = spawn(process.execPath, [cli, 'run', ...args], {
    cwd: world.repo.dir,
    env: world.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolveRun) =>
    child.on('close', (code) => {
      const sessions = join(world.repo.dir, '.proctor', 'sessions')
      const id = existsSync(sessions) ? readdirSync(sessions)[0] : undefined
      const reportPath = id ? join(sessions, id, 'report.json') : ''
      const report = (
        reportPath && existsSync(reportPath) ? JSON.parse(readFileSync(reportPath, 'utf8')) : null
      ) as SessionReport
      resolveRun({ code, stdout, stderr, report })
    }),
  )
}
