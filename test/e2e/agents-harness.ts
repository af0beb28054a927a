// Running the real Codex CLI, Gemini CLI, Copilot CLI and opencode under the built `proctor run` in tests: a
// temp repository, a temp HOME with the CLI's settings, the scripted model API on loopback, and proxy variables
// pointing at a closed loopback port so nothing else is reachable. The binaries are the pinned
// devDependencies, or PROCTOR_TEST_<CLI>_BIN (set by `npm run test:agents-latest` to the newest release).
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import type { SessionReport } from '../../src/report/model.js'
import * as openai from '../servers/openai-api.js'
import * as gemini from '../servers/gemini-api.js'

const root = resolve(import.meta.dirname, '../..')
export const cli = join(root, 'dist/cli.js')
export const codexBin = process.env.PROCTOR_TEST_CODEX_BIN ?? join(root, 'node_modules/.bin/codex')
export const geminiBin = process.env.PROCTOR_TEST_GEMINI_BIN ?? join(root, 'node_modules/.bin/gemini')
export const copilotBin = process.env.PROCTOR_TEST_COPILOT_BIN ?? join(root, 'node_modules/.bin/copilot')
/**
 * opencode's binary: PROCTOR_TEST_OPENCODE_BIN, else the pinned version, installed on first use into a cache
 * of the tests' own. It is no devDependency: its package names a binary package for every platform as an
 * optional dependency, and a registry that serves only some of them (as this project's CI mirror does) makes
 * `npm ci` refuse the lock file, while `npm install` of the package itself takes what is there.
 */
export function opencodeBin(): string {
  if (process.env.PROCTOR_TEST_OPENCODE_BIN) return process.env.PROCTOR_TEST_OPENCODE_BIN
  const prefix = join(root, 'node_modules/.cache/proctor-agents', `opencode-${opencodeVersion}`)
  const bin = join(prefix, 'node_modules/.bin/opencode')
  if (!existsSync(bin))
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        `opencode-ai@${opencodeVersion}`,
      ],
      { stdio: 'ignore', timeout: 300_000 },
    )
  return bin
}
export const codexVersion = process.env.PROCTOR_TEST_CODEX_VERSION ?? '0.169.0'
export const geminiVersion = process.env.PROCTOR_TEST_GEMINI_VERSION ?? '0.61.0'
export const copilotVersion = process.env.PROCTOR_TEST_COPILOT_VERSION ?? '1.0.102'
export const opencodeVersion = process.env.PROCTOR_TEST_OPENCODE_VERSION ?? '1.18.33'
/** Real agents on two shared cores: generous, but a hang still fails. */
export const AGENT_TEST_MS = 150_000

/** Registered by the test files' afterEach; run in reverse. */
export type Cleanups = (() => unknown)[]

export function repo(cleanups: Cleanups, files: Record<string, string>): TempRepo {
  const r = makeTempRepo({ files: { 'README.md': '# test\n', ...files } })
  cleanups.push(() => r.cleanup())
  return r
}

/** The agent's environment: a temp HOME, fake keys, no proxy but a dead one, nothing from GitHub Actions. */
export function agentEnv(r: TempRepo, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...r.env }
  for (const key of Object.keys(env)) {
    if (/^(GITHUB_|PROCTOR_|OPENAI_|CODEX_|GEMINI_|GOOGLE_|COPILOT_|OPENCODE_|XDG_|GH_)/.test(key))
      delete env[key]
  }
  const dead = 'http://127.0.0.1:9'
  return {
    ...env,
    NO_COLOR: '1',
    TERM: 'xterm-256color',
    HTTP_PROXY: dead,
    HTTPS_PROXY: dead,
    ALL_PROXY: dead,
    http_proxy: dead,
    https_proxy: dead,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    ...extra,
  }
}

export function proctorRun(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [cli, 'run', '--no-push', ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('close', (code) => resolveRun({ code, output }))
  })
}

export function onlyReport(r: TempRepo): SessionReport {
  const sessions = join(r.dir, '.proctor/sessions')
  const ids = readdirSync(sessions)
  expect(ids).toHaveLength(1)
  return JSON.parse(readFileSync(join(sessions, ids[0]!, 'report.json'), 'utf8')) as SessionReport
}

export const needsDoneFile = 'test -f done.txt || { echo "done.txt is missing: create it" >&2; exit 2; }'
export const REASON = 'done-file: done.txt is missing: create it'

/** The CLIs leave sessions and logs in their temp HOME; it is ours to remove. */
function rmHome(home: string): void {
  rmSync(home, { recursive: true, force: true })
}

/** A Codex HOME whose only model provider is the scripted Responses API. */
export async function codexSetup(
  cleanups: Cleanups,
  options: openai.OpenAIApiOptions,
  /** Codex's own retries of a refused request (default none, so a scripted failure is seen at once). */
  retries = 0,
) {
  const api = await openai.startOpenAIApi(options)
  cleanups.push(() => api.close())
  const home = tempDir('proctor-codex-home-')
  cleanups.push(() => rmHome(home))
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model = "gpt-5.1-codex"',
      'model_provider = "scripted"',
      'check_for_update_on_startup = false',
      '[analytics]',
      'enabled = false',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${api.url}"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      `request_max_retries = ${retries}`,
      `stream_max_retries = ${retries}`,
      '',
    ].join('\n'),
  )
  const env = (r: TempRepo) =>
    agentEnv(r, { HOME: home, CODEX_HOME: home, OPENAI_API_KEY: 'sk-test-not-real' })
  return { api, home, env }
}

/** A Gemini HOME signed in with an API key, pointed at the scripted Gemini API. */
export async function geminiSetup(
  cleanups: Cleanups,
  script: gemini.ScriptedTurn[],
  fallback?: gemini.ScriptedTurn,
  more: {
    usage?: gemini.GeminiApiOptions['usage']
    refuse?: gemini.Refusal
    /** general.maxAttempts: Gemini's tries of a refused request (its default, 10, takes ~4 min on a 429). */
    maxAttempts?: number
  } = {},
) {
  const { usage, refuse, maxAttempts } = more
  const api = await gemini.startGeminiApi({
    script,
    ...(fallback ? { fallback } : {}),
    ...(usage ? { usage } : {}),
    ...(refuse ? { refuse } : {}),
  })
  cleanups.push(() => api.close())
  const home = tempDir('proctor-gemini-home-')
  mkdirSync(join(home, '.gemini'))
  writeFileSync(
    join(home, '.gemini/settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: {
        disableAutoUpdate: true,
        disableUpdateNag: true,
        ...(maxAttempts ? { maxAttempts } : {}),
      },
    }),
  )
  cleanups.push(() => rmHome(home))
  const env = (r: TempRepo) =>
    agentEnv(r, {
      HOME: home,
      GEMINI_API_KEY: 'test-key-not-real',
      GOOGLE_GEMINI_BASE_URL: api.url,
      // As in every GitHub Actions job: Gemini then strips its hooks' environment to PATH, HOME, GEMINI_CLI_*.
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    })
  return { api, env }
}

/**
 * A Copilot CLI that uses the scripted Responses API as its own provider ("bring your own key":
 * COPILOT_PROVIDER_BASE_URL) in offline mode: no GitHub sign-in, telemetry or update check. `cache` is where
 * the CLI unpacks itself (~240 MB, XDG_CACHE_HOME): one per test file, not one per test.
 */
export async function copilotSetup(cleanups: Cleanups, options: openai.OpenAIApiOptions, cache: string) {
  const api = await openai.startOpenAIApi(options)
  cleanups.push(() => api.close())
  const home = tempDir('proctor-copilot-home-')
  cleanups.push(() => rmHome(home))
  const env = (r: TempRepo) =>
    agentEnv(r, {
      HOME: home,
      COPILOT_HOME: join(home, '.copilot'),
      XDG_CACHE_HOME: cache,
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: api.url,
      COPILOT_PROVIDER_WIRE_API: 'responses',
      COPILOT_PROVIDER_API_KEY: 'sk-test-not-real',
      COPILOT_MODEL: 'gpt-5.1-codex',
    })
  return { api, home, env }
}

/**
 * An opencode whose only provider is the scripted Responses API (opencode.json in the repository: a custom
 * provider through the bundled @ai-sdk/openai with its baseURL on loopback), with a temp HOME and XDG
 * directories, no update check, no models.dev fetch.
 */
export async function opencodeSetup(cleanups: Cleanups, options: openai.OpenAIApiOptions) {
  const api = await openai.startOpenAIApi(options)
  cleanups.push(() => api.close())
  const home = tempDir('proctor-opencode-home-')
  cleanups.push(() => rmHome(home))
  const config = JSON.stringify({
    model: 'scripted/gpt-5.1-codex',
    autoupdate: false,
    share: 'disabled',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai',
        name: 'scripted',
        options: { baseURL: api.url, apiKey: 'sk-test-not-real' },
        models: { 'gpt-5.1-codex': { name: 'scripted' } },
      },
    },
    permission: { edit: 'allow', bash: 'allow' },
  })
  const env = (r: TempRepo) =>
    agentEnv(r, {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local/state'),
      // The config as content, not a file in the repository: the agent's work stays the agent's.
      OPENCODE_CONFIG_CONTENT: config,
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    })
  return { api, home, env }
}
