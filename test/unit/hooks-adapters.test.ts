import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { installNativeHooks, nativeAdapters, nativeHookCommand } from '../../src/hooks/adapters/index.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-adapters-'))
  dirs.push(dir)
  return dir
}

describe('native adapters', () => {
  it('quote the proctor command so paths with spaces and quotes survive the agent shell', () => {
    expect(nativeHookCommand(['/opt/my tools/node', "/it's/cli.js"], 'claude')).toBe(
      `'/opt/my tools/node' '/it'\\''s/cli.js' hook stop --adapter claude`,
    )
    expect(nativeHookCommand(['proctor'], 'gemini', 'ci/proctor.yml')).toBe(
      'proctor hook stop --adapter gemini --config ci/proctor.yml',
    )
  })

  it('Claude Code gets its Stop hook through --settings JSON (timeout in seconds)', () => {
    const setup = nativeAdapters.claude.setup({
      hookCommand: 'proctor hook stop --adapter claude',
      timeoutMs: 90_500,
    })
    expect(setup.files).toEqual([])
    expect(setup.args[0]).toBe('--settings')
    expect(JSON.parse(setup.args[1]!)).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'proctor hook stop --adapter claude', timeout: 91 }] }],
      },
    })
  })

  it('answer in each protocol', () => {
    expect(JSON.parse(nativeAdapters.claude.answer({ block: true, reason: 'fix tests' }).stdout)).toEqual({
      decision: 'block',
      reason: 'fix tests',
    })
    expect(JSON.parse(nativeAdapters.codex.answer({ block: true, reason: 'fix tests' }).stdout)).toEqual({
      decision: 'block',
      reason: 'fix tests',
    })
    expect(JSON.parse(nativeAdapters.gemini.answer({ block: true, reason: 'fix tests' }).stdout)).toEqual({
      decision: 'deny',
      reason: 'fix tests',
    })
    expect(nativeAdapters.codex.answer({ block: false }).stdout).toBe('')
    expect(nativeAdapters.claude.answer({ block: false }).exitCode).toBe(0)
  })

  it('read each agent’s stop input', () => {
    expect(
      nativeAdapters.claude.readInput({
        session_id: 's1',
        stop_hook_active: true,
        last_assistant_message: 'done',
        cwd: '/w',
      }),
    ).toEqual({
      sessionId: 's1',
      stopHookActive: true,
      finalText: 'done',
      cwd: '/w',
    })
    expect(nativeAdapters.gemini.readInput({ session_id: 'g', prompt_response: 'answer' }).finalText).toBe(
      'answer',
    )
  })

  it('merge into existing settings files, keep the user’s hooks, add ours once, and restore exactly', async () => {
    const cwd = tempDir()
    mkdirSync(join(cwd, '.gemini'))
    const original = `${JSON.stringify({ theme: 'dark', hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'mine.sh' }] }] } })}\n`
    writeFileSync(join(cwd, '.gemini/settings.json'), original)
    const setup = nativeAdapters.gemini.setup({
      hookCommand: 'proctor hook stop --adapter gemini',
      timeoutMs: 60_000,
    })
    const first = await installNativeHooks(setup, cwd)
    const second = await installNativeHooks(setup, cwd)
    const merged = JSON.parse(readFileSync(join(cwd, '.gemini/settings.json'), 'utf8'))
    expect(merged.theme).toBe('dark')
    expect(merged.hooks.AfterAgent).toHaveLength(2)
    expect(merged.hooks.AfterAgent[1].hooks[0]).toMatchObject({
      command: 'proctor hook stop --adapter gemini',
      timeout: 60_000,
    })
    await second.restore()
    await first.restore()
    expect(readFileSync(join(cwd, '.gemini/settings.json'), 'utf8')).toBe(original)
  })

  it('remove files and directories they created on restore', async () => {
    const cwd = tempDir()
    const installed = await installNativeHooks(
      nativeAdapters.codex.setup({ hookCommand: 'p', timeoutMs: 1000 }),
      cwd,
    )
    expect(existsSync(join(cwd, '.codex/hooks.json'))).toBe(true)
    await installed.restore()
    expect(existsSync(join(cwd, '.codex'))).toBe(false)
  })

  it('refuse to overwrite a settings file that is not JSON, naming it', async () => {
    const cwd = tempDir()
    mkdirSync(join(cwd, '.codex'))
    writeFileSync(join(cwd, '.codex/hooks.json'), '{ not json')
    await expect(
      installNativeHooks(nativeAdapters.codex.setup({ hookCommand: 'p', timeoutMs: 1000 }), cwd),
    ).rejects.toThrow(/\.codex\/hooks\.json is not valid JSON/)
    expect(readFileSync(join(cwd, '.codex/hooks.json'), 'utf8')).toBe('{ not json')
  })
})
