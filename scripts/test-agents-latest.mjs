#!/usr/bin/env node
// `npm run test:agents-latest`: the real-agent tests (test/e2e/agents-*.test.ts) against the newest
// releases instead of the pinned devDependencies. Opt-in (it downloads from the npm registry; `npm test`
// never runs it): each CLI is installed with @latest into a temporary prefix and the tests are pointed at
// its binary through an environment variable the test harness reads.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

/** One entry per agent CLI: its package, its binary inside the package, and the variables the tests read. */
const agents = [
  {
    package: '@anthropic-ai/claude-code',
    bin: 'bin/claude.exe',
    binEnv: 'PROCTOR_TEST_CLAUDE_BIN',
    versionEnv: 'PROCTOR_TEST_CLAUDE_VERSION',
    tests: 'test/e2e/agents-claude',
  },
  // Codex and Gemini CLI entries go here with their own variables and test files.
]

const only = process.argv.slice(2)
const chosen = only.length > 0 ? agents.filter((a) => only.some((o) => a.package.includes(o))) : agents
const prefix = mkdtempSync(join(tmpdir(), 'proctor-agents-latest-'))
const run = (file, args, env = process.env) => {
  const result = spawnSync(file, args, { cwd: root, env, stdio: 'inherit' })
  return result.status ?? 1
}

let failed = 0
try {
  if (run(process.execPath, [join(root, 'scripts/build.mjs')]) !== 0) process.exit(1)
  const specs = chosen.map((a) => `${a.package}@latest`)
  console.log(`installing ${specs.join(', ')} into ${prefix}`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  if (run(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', ...specs]) !== 0)
    process.exit(1)
  for (const agent of chosen) {
    const dir = join(prefix, 'node_modules', agent.package)
    const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
    console.log(`\n${agent.package}@${version}: ${agent.tests}*`)
    const env = { ...process.env, [agent.binEnv]: join(dir, agent.bin), [agent.versionEnv]: version }
    const vitest = join(root, 'node_modules/vitest/vitest.mjs')
    if (run(process.execPath, [vitest, 'run', agent.tests], env) !== 0) failed++
  }
} finally {
  rmSync(prefix, { recursive: true, force: true })
}
process.exit(failed > 0 ? 1 : 0)
