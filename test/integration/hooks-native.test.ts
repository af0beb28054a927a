// Each native adapter end to end: a scripted agent that speaks the protocol runs the Stop hook proctor
// installed, which runs `proctor hook stop`, which runs proctor's stop hooks and answers in the protocol.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import {
  installNativeHooks,
  nativeAdapters,
  nativeHookCommand,
  type NativeAdapterName,
} from '../../src/hooks/adapters/index.js'
import type { NativeStopState } from '../../src/hooks/native.js'
import { proctorArgv } from '../fixtures/hooks/cli-argv.js'

const run = promisify(execFile)
const fakeAgent = new URL('../fixtures/native-agents/fake-agent.mjs', import.meta.url).pathname
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function workspace(stopHook: string, maxRounds: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-native-'))
  dirs.push(dir)
  mkdirSync(join(dir, '.git'))
  writeFileSync(
    join(dir, 'proctor.yml'),
    `stop_hooks:\n  - name: done-file\n    command: ${JSON.stringify(stopHook)}\n    timeout: 30s\nmax_stop_rounds: ${maxRounds}\n`,
  )
  return dir
}

async function runAgent(adapter: NativeAdapterName, dir: string): Promise<string> {
  const setup = nativeAdapters[adapter].setup({
    hookCommand: nativeHookCommand(proctorArgv(), adapter),
    timeoutMs: 60_000,
  })
  const installed = await installNativeHooks(setup, dir)
  try {
    const { stdout } = await run(process.execPath, [fakeAgent, adapter, ...setup.args], {
      cwd: dir,
      timeout: 120_000,
    })
    return stdout
  } finally {
    await installed.restore()
  }
}

function agentLog(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, 'agent-log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}

function state(dir: string, adapter: NativeAdapterName): NativeStopState {
  return JSON.parse(
    readFileSync(join(dir, '.proctor/native', `${adapter}-fake-${adapter}-session.json`), 'utf8'),
  )
}

const needsDoneFile = 'test -f done.txt || { echo "done.txt is missing: create done.txt" >&2; exit 2; }'

describe.each(['claude', 'codex', 'gemini'] as const)('native adapter %s', (adapter) => {
  it('blocks inside the agent loop until the stop hook passes', async () => {
    const dir = workspace(needsDoneFile, 3)
    const stdout = await runAgent(adapter, dir)
    expect(stdout).toContain(`fake ${adapter} agent stopped after 1 blocks`)
    expect(readFileSync(join(dir, 'done.txt'), 'utf8')).toBe('fixed in turn 2\n')
    const prompts = agentLog(dir)
      .filter((entry) => 'prompt' in entry)
      .map((entry) => entry.prompt)
    expect(prompts).toHaveLength(2)
    expect(prompts[1]).toContain('done-file: done.txt is missing: create done.txt')
    expect(state(dir, adapter)).toMatchObject({ verdict: 'allow', rounds: 2, blocks: 0, gave_up: false })
    // proctor's hook files are gone again after restore
    expect(existsSync(join(dir, '.codex'))).toBe(false)
    expect(existsSync(join(dir, '.gemini'))).toBe(false)
  })

  it('lets the agent stop after max_stop_rounds blocks and records the verdict as block', async () => {
    const dir = workspace('echo "never satisfied" >&2; exit 2', 2)
    const stdout = await runAgent(adapter, dir)
    expect(stdout).toContain(`fake ${adapter} agent stopped after 2 blocks`)
    expect(state(dir, adapter)).toMatchObject({
      verdict: 'block',
      gave_up: true,
      rounds: 3,
      reasons: ['done-file: never satisfied'],
    })
  })
})
