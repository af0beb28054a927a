#!/usr/bin/env node
// `npm run test:agents-latest`: the real-agent tests (test/e2e/agents-*.test.ts) against the newest
// releases instead of the pinned devDependencies. Opt-in (it downloads from the npm registry; `npm test`
// never runs it): each CLI is installed with @latest into a temporary prefix and the tests are pointed at
// its binary through an environment variable the test harness reads. `npm run test:agents-latest -- codex`
// runs one agent's tests (any part of the package name). The last lines say "<package>@<version>: passed" or
// "…: FAILED", one per CLI: the scheduled workflow (.github/workflows/agents-latest.yml) files them as an issue.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

/**
 * One entry per agent CLI: its package, its binary inside the package (else the package.json's bin), the
 * variables the test harnesses read (test/e2e/claude-harness.ts, test/e2e/agents-harness.ts), its test
 * files, and — for agents-native.test.ts, which holds both Codex and Gemini — the name filter for its tests.
 * Copilot's and opencode's harnesses start the binary by path, whatever its file is called.
 */
const agents = [
  {
    package: '@anthropic-ai/claude-code',
    bin: 'bin/claude.exe',
    binEnv: 'PROCTOR_TEST_CLAUDE_BIN',
    versionEnv: 'PROCTOR_TEST_CLAUDE_VERSION',
    tests: ['test/e2e/agents-claude-print.test.ts', 'test/e2e/agents-claude-tui.test.ts'],
  },
  {
    package: '@openai/codex',
    binEnv: 'PROCTOR_TEST_CODEX_BIN',
    versionEnv: 'PROCTOR_TEST_CODEX_VERSION',
    tests: ['test/e2e/agents-native.test.ts', 'test/e2e/agents-codex-tui.test.ts'],
    filter: 'Codex',
  },
  {
    package: '@google/gemini-cli',
    binEnv: 'PROCTOR_TEST_GEMINI_BIN',
    versionEnv: 'PROCTOR_TEST_GEMINI_VERSION',
    tests: ['test/e2e/agents-native.test.ts', 'test/e2e/agents-gemini-tui.test.ts'],
    filter: 'Gemini',
  },
  {
    package: '@github/copilot',
    binEnv: 'PROCTOR_TEST_COPILOT_BIN',
    versionEnv: 'PROCTOR_TEST_COPILOT_VERSION',
    tests: ['test/e2e/agents-copilot.test.ts'],
  },
  {
    package: 'opencode-ai',
    binEnv: 'PROCTOR_TEST_OPENCODE_BIN',
    versionEnv: 'PROCTOR_TEST_OPENCODE_VERSION',
    tests: ['test/e2e/agents-opencode.test.ts'],
  },
]

const only = process.argv.slice(2)
const chosen = only.length > 0 ? agents.filter((a) => only.some((o) => a.package.includes(o))) : agents
const prefix = mkdtempSync(join(tmpdir(), 'proctor-agents-latest-'))
const run = (file, args, env = process.env) => {
  const result = spawnSync(file, args, { cwd: root, env, stdio: 'inherit' })
  return result.status ?? 1
}

const results = []
try {
  if (run(process.execPath, [join(root, 'scripts/build.mjs')]) !== 0) process.exit(1)
  const specs = chosen.map((a) => `${a.package}@latest`)
  console.log(`installing ${specs.join(', ')} into ${prefix}`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  if (run(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', ...specs]) !== 0)
    process.exit(1)
  for (const agent of chosen) {
    const dir = join(prefix, 'node_modules', agent.package)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const version = manifest.version
    const bin =
      agent.bin ?? (typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0])
    console.log(`\n${agent.package}@${version}: ${agent.tests.join(' ')}`)
    const env = { ...process.env, [agent.binEnv]: join(dir, bin), [agent.versionEnv]: version }
    const vitest = join(root, 'node_modules/vitest/vitest.mjs')
    const filter = agent.filter ? ['-t', agent.filter] : []
    const status = run(process.execPath, [vitest, 'run', ...agent.tests, ...filter], env)
    results.push(`${agent.package}@${version}: ${status === 0 ? 'passed' : 'FAILED'}`)
  }
} finally {
  rmSync(prefix, { recursive: true, force: true })
}
console.log(`\n${results.join('\n')}`)
process.exit(results.some((r) => r.endsWith('FAILED')) ? 1 : 0)
