import { execFileSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { installNativeHooks, nativeAdapters, nativeHookCommand } from '../../src/hooks/adapters/index.js'
import { continuesBlockSequence } from '../../src/hooks/native.js'

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

  it('name the proctor session and its socket in argv (Gemini strips hook env in Actions)', () => {
    expect(
      nativeHookCommand(['proctor'], 'gemini', undefined, { session: 'run-1', socket: '/tmp/p x/stop.sock' }),
    ).toBe(`proctor hook stop --adapter gemini --session run-1 --socket '/tmp/p x/stop.sock'`)
  })

  it('Codex gets its Stop hook on the command line with the trust bypass, writing no file (timeout in seconds)', () => {
    const setup = nativeAdapters.codex.setup({
      hookCommand: `proctor hook stop --socket '/a "b"'`,
      timeoutMs: 90_500,
    })
    expect(setup.files).toEqual([])
    expect(setup.env).toEqual({})
    expect(setup.args).toEqual([
      '-c',
      `hooks.Stop=[{hooks=[{type="command",command="proctor hook stop --socket '/a \\"b\\"'",timeout=91}]}]`,
      '--dangerously-bypass-hook-trust',
    ])
  })

  it('Gemini CLI gets its AfterAgent hook in .gemini/settings.json (timeout in ms) and the workspace-trust variable', () => {
    const setup = nativeAdapters.gemini.setup({ hookCommand: 'p', timeoutMs: 90_500 })
    expect(setup.files.map((f) => f.path)).toEqual(['.gemini/settings.json'])
    expect(setup.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' })
    expect(setup.files[0]!.merge(null)).toEqual({
      hooks: {
        AfterAgent: [{ hooks: [{ type: 'command', name: 'proctor-stop', command: 'p', timeout: 90_500 }] }],
      },
    })
  })

  it('Copilot CLI gets its agentStop hook as a session plugin under .proctor/ (--plugin-dir, timeoutSec), nothing in the repository', async () => {
    const setup = nativeAdapters.copilot.setup({
      hookCommand: "proctor hook stop --socket '/a b'",
      timeoutMs: 90_500,
    })
    expect(setup.args).toEqual(['--plugin-dir', '.proctor/copilot-plugin'])
    expect(setup.env).toEqual({})
    const cwd = tempDir()
    const installed = await installNativeHooks(setup, cwd)
    expect(installed.paths).toEqual([
      '.proctor/copilot-plugin/plugin.json',
      '.proctor/copilot-plugin/hooks/hooks.json',
    ])
    expect(JSON.parse(readFileSync(join(cwd, '.proctor/copilot-plugin/hooks/hooks.json'), 'utf8'))).toEqual({
      version: 1,
      hooks: { agentStop: [{ type: 'command', bash: "proctor hook stop --socket '/a b'", timeoutSec: 91 }] },
    })
    expect(JSON.parse(readFileSync(join(cwd, '.proctor/copilot-plugin/plugin.json'), 'utf8'))).toMatchObject({
      name: 'proctor-stop',
    })
    expect(await installed.restore()).toEqual([])
    expect(existsSync(join(cwd, '.proctor'))).toBe(false)
    // Copilot's input (1.0.102): camelCase ids, snake_case stop_hook_active, no final text.
    expect(
      nativeAdapters.copilot.readInput({
        sessionId: 'a6fa2fae-81b2-4ca9-91b9-7eabd0c3071d',
        cwd: '/repo',
        transcriptPath: '/h/.copilot/session-state/a6fa2fae/events.jsonl',
        stopReason: 'end_turn',
        stop_hook_active: true,
      }),
    ).toEqual({
      sessionId: 'a6fa2fae-81b2-4ca9-91b9-7eabd0c3071d',
      stopHookActive: true,
      finalText: '',
      cwd: '/repo',
      promptKey: null,
    })
    expect(nativeAdapters.copilot.answer({ block: true, reason: 'tests fail' })).toEqual({
      exitCode: 0,
      stdout: '{"decision":"block","reason":"tests fail"}',
      stderr: '',
    })
    expect(nativeAdapters.copilot.answer({ block: false })).toEqual({ exitCode: 0, stdout: '', stderr: '' })
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
      promptKey: null,
    })
    expect(
      nativeAdapters.gemini.readInput({ session_id: 'g', prompt: 'task', prompt_response: 'answer' }),
    ).toMatchObject({ finalText: 'answer', promptKey: 'task' })
    expect(nativeAdapters.codex.readInput({ session_id: 'c', turn_id: 't1' }).promptKey).toBe('t1')
  })

  it('count a block sequence per prompt, so Gemini resetting stop_hook_active after a tool call does not restart it', () => {
    const gemini = (prompt: string, active: boolean) =>
      nativeAdapters.gemini.readInput({ prompt, stop_hook_active: active })
    // Gemini after a tool call: flag false, same prompt → still the same sequence.
    expect(continuesBlockSequence(gemini('task', false), { verdict: 'block', promptKey: 'task' })).toBe(true)
    // A new prompt, or a stop after an allow, starts over.
    expect(continuesBlockSequence(gemini('other', true), { verdict: 'block', promptKey: 'task' })).toBe(false)
    expect(continuesBlockSequence(gemini('task', true), { verdict: 'allow', promptKey: 'task' })).toBe(false)
    expect(continuesBlockSequence(gemini('task', true), null)).toBe(false)
    // Claude Code names no prompt: its own flag decides.
    const claude = (active: boolean) => nativeAdapters.claude.readInput({ stop_hook_active: active })
    expect(continuesBlockSequence(claude(true), { verdict: 'block', promptKey: null })).toBe(true)
    expect(continuesBlockSequence(claude(false), { verdict: 'block', promptKey: null })).toBe(false)
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
      nativeAdapters.gemini.setup({ hookCommand: 'p', timeoutMs: 1000 }),
      cwd,
    )
    expect(installed.paths).toEqual(['.gemini/settings.json'])
    expect(existsSync(join(cwd, '.gemini/settings.json'))).toBe(true)
    expect(await installed.restore()).toEqual([])
    expect(existsSync(join(cwd, '.gemini'))).toBe(false)
  })

  it("restore a user's file byte for byte (BOM, CRLF) and name it when the agent changed proctor's version", async () => {
    const cwd = tempDir()
    mkdirSync(join(cwd, '.gemini'))
    const original = Buffer.from('\uFEFF{ "ui" :  {"hideBanner":true} }\r\n', 'utf8')
    writeFileSync(join(cwd, '.gemini/settings.json'), original)
    const installed = await installNativeHooks(
      nativeAdapters.gemini.setup({ hookCommand: 'p', timeoutMs: 1000 }),
      cwd,
    )
    expect(JSON.parse(readFileSync(join(cwd, '.gemini/settings.json'), 'utf8')).ui).toEqual({
      hideBanner: true,
    })
    writeFileSync(join(cwd, '.gemini/settings.json'), '{"hooks":{}}')
    expect(await installed.restore()).toEqual(['.gemini/settings.json'])
    expect(readFileSync(join(cwd, '.gemini/settings.json')).equals(original)).toBe(true)
  })

  it('refuse to overwrite a settings file that is not JSON, naming it', async () => {
    const cwd = tempDir()
    mkdirSync(join(cwd, '.gemini'))
    writeFileSync(join(cwd, '.gemini/settings.json'), '{ not json')
    await expect(
      installNativeHooks(nativeAdapters.gemini.setup({ hookCommand: 'p', timeoutMs: 1000 }), cwd),
    ).rejects.toThrow(/\.gemini\/settings\.json is not valid JSON/)
    expect(readFileSync(join(cwd, '.gemini/settings.json'), 'utf8')).toBe('{ not json')
  })

  it('neither block on a FIFO nor follow a symlink the agent planted where a settings file goes', async () => {
    const cwd = tempDir()
    mkdirSync(join(cwd, '.gemini'))
    execFileSync('mkfifo', [join(cwd, '.gemini/settings.json')])
    await expect(
      installNativeHooks(nativeAdapters.gemini.setup({ hookCommand: 'p', timeoutMs: 1000 }), cwd),
    ).rejects.toThrow(/\.gemini\/settings\.json is a FIFO \(named pipe\), not a regular file; remove it/)

    // A link to a file elsewhere (a dotfile, a key): never read into an error, never written through.
    const outside = join(tempDir(), 'id_rsa')
    writeFileSync(outside, '-----BEGIN OPENSSH PRIVATE KEY-----\n')
    const other = tempDir()
    mkdirSync(join(other, '.proctor/copilot-plugin'), { recursive: true })
    symlinkSync(outside, join(other, '.proctor/copilot-plugin/plugin.json'))
    const setup = nativeAdapters.copilot.setup({ hookCommand: 'p', timeoutMs: 1000 })
    await expect(installNativeHooks(setup, other)).rejects.toThrow(
      /^\.proctor\/copilot-plugin\/plugin\.json is a symbolic link, not a regular file; remove it/,
    )
    expect(readFileSync(outside, 'utf8')).toBe('-----BEGIN OPENSSH PRIVATE KEY-----\n')

    // Planted during the session, after proctor wrote its file: restore replaces it and does not hang.
    const third = tempDir()
    const installed = await installNativeHooks(setup, third)
    const hooks = join(third, '.proctor/copilot-plugin/hooks/hooks.json')
    rmSync(hooks)
    execFileSync('mkfifo', [hooks])
    expect(await installed.restore()).toEqual(['.proctor/copilot-plugin/hooks/hooks.json'])
    expect(existsSync(join(third, '.proctor'))).toBe(false)
  })
})
