import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Command } from 'commander'
import { afterEach, describe, expect, it } from 'vitest'
import { registerCheckCommand } from '../../src/cli/commands/check.js'
import { registerHookCommand } from '../../src/cli/commands/hook.js'
import { registerHooksCommand } from '../../src/cli/commands/hooks.js'
import { CliExit } from '../../src/cli/exit.js'
import type { HookCommandIO } from '../../src/hooks/cli-io.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function repo(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-cli-'))
  dirs.push(dir)
  mkdirSync(join(dir, '.git'))
  writeFileSync(join(dir, 'proctor.yml'), config)
  return dir
}

async function proctor(
  cwd: string,
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
) {
  let stdout = ''
  let stderr = ''
  const io: HookCommandIO = {
    cwd: () => cwd,
    env: () => ({ ...process.env, PROCTOR_SKIP: undefined, HUSKY: undefined, ...opts.env }),
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdinIsTTY: () => opts.stdin === undefined,
    readStdin: async () => opts.stdin ?? '',
  }
  const program = new Command('proctor')
    .exitOverride()
    .configureOutput({ writeErr: (text) => void (stderr += text), writeOut: (text) => void (stdout += text) })
  registerCheckCommand(program, {}, io)
  registerHooksCommand(program, io)
  registerHookCommand(program, io)
  for (const sub of program.commands) sub.exitOverride()
  let code = 0
  try {
    await program.parseAsync(['node', 'proctor', ...args])
  } catch (error) {
    if (!(error instanceof CliExit)) throw error
    code = error.exitCode
    if (error.message) stderr += `${error.message}\n`
  }
  return { code, stdout, stderr }
}

const twoHooks = `stop_hooks:
  - name: pass
    command: "exit 0"
  - name: tests
    command: 'echo "3 failing" >&2; exit 2'
hooks:
  checkpoint:
    - { name: note, command: "cat", async: true }
    - { name: echo, command: "echo hello from $PROCTOR_HOOK_EVENT" }
`

describe('proctor check', () => {
  it('prints one line per hook and exits 1 when a hook blocks, 0 when it allows', async () => {
    const cwd = repo(twoHooks)
    const blocked = await proctor(cwd, ['check'])
    expect(blocked.code).toBe(1)
    expect(blocked.stdout).toMatch(/^ {2}allow +\d+ms +pass$/m)
    expect(blocked.stdout).toMatch(/^ {2}BLOCK +\d+ms +tests +3 failing$/m)
    expect(blocked.stdout).toContain('proctor check: block (2 hooks, 1 blocked)')
    const allowed = await proctor(cwd, ['check', '--hook', 'pass'])
    expect(allowed.code).toBe(0)
    expect(allowed.stdout).not.toContain('tests')
  })

  it('prints JSON with --json', async () => {
    const result = await proctor(repo(twoHooks), ['check', '--json'])
    const body = JSON.parse(result.stdout)
    expect(body).toMatchObject({ verdict: 'block', stop_reason: 'manual', reasons: ['tests: 3 failing'] })
    expect(
      body.results.map((hook: { name: string; verdict: string }) => `${hook.name}:${hook.verdict}`),
    ).toEqual(['pass:allow', 'tests:block'])
  })

  it('exits 2 on a config error or an unknown --hook, naming the problem', async () => {
    const bad = await proctor(repo('stop_hooks:\n  - name: x\n    comand: "true"\n'), ['check'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/proctor\.yml:3:5.*comand/)
    const unknown = await proctor(repo(twoHooks), ['check', '--hook', 'lint'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no stop hook named lint in proctor.yml (configured: pass, tests)')
  })

  it('skips with PROCTOR_SKIP=1 always, and with HUSKY=0 only as a git hook', async () => {
    const cwd = repo(twoHooks)
    const skipped = await proctor(cwd, ['check'], { env: { PROCTOR_SKIP: '1' } })
    expect(skipped).toMatchObject({ code: 0, stderr: 'proctor check: skipped (PROCTOR_SKIP=1)\n' })
    expect((await proctor(cwd, ['check'], { env: { HUSKY: '0' } })).code).toBe(1)
    const husky = await proctor(cwd, ['check', '--pre-push'], {
      env: { HUSKY: '0' },
      stdin: 'refs/heads/a 1 refs/heads/a 2\n',
    })
    expect(husky).toMatchObject({ code: 0, stderr: 'proctor check: skipped (HUSKY=0)\n' })
  })

  it('as a pre-push hook: nothing to push or only deletions runs no hooks', async () => {
    const cwd = repo(twoHooks)
    const empty = await proctor(cwd, ['check', '--pre-push', 'origin', 'url'], { stdin: '' })
    expect(empty.code).toBe(0)
    expect(empty.stderr).toContain('nothing to push')
    const deletion = await proctor(cwd, ['check', '--pre-push'], {
      stdin: `(delete) ${'0'.repeat(40)} refs/heads/x ${'1'.repeat(40)}\n`,
    })
    expect(deletion.code).toBe(0)
    expect(deletion.stderr).toContain('only deletes refs')
  })
})

describe('proctor hooks', () => {
  it('list tags async hooks', async () => {
    const { stdout, code } = await proctor(repo(twoHooks), ['hooks', 'list'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/tests +echo "3 failing" >&2; exit 2 +\(timeout 10m\)/)
    expect(stdout).toMatch(/checkpoint +note: cat +\(timeout 1m\) \[async\]/)
    expect(stdout).not.toMatch(/echo hello.*\[async\]/)
  })

  it('doctor exits 1 on errors and says what to fix', async () => {
    const result = await proctor(repo('stop_hooks:\n  - { name: t, command: [./missing.sh] }\n'), [
      'hooks',
      'doctor',
    ])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('error   stop_hooks[0]: command not found: ./missing.sh')
    // No error in proctor.yml; the directory is no real git repository, so the pre-push check only warns.
    const clean = await proctor(repo('stop_hooks:\n  - { name: t, command: "exit 0" }\n'), [
      'hooks',
      'doctor',
    ])
    expect(clean.code).toBe(0)
    expect(clean.stdout).toContain('hooks doctor: 0 error(s)')
  })

  it('doctor --json prints the findings as one JSON object, with the same exit code', async () => {
    const result = await proctor(repo('stop_hooks:\n  - { name: t, command: [./missing.sh] }\n'), [
      'hooks',
      'doctor',
      '--json',
    ])
    expect(result.code).toBe(1)
    const parsed = JSON.parse(result.stdout) as { errors: number; findings: unknown[] }
    expect(parsed.errors).toBe(1)
    expect(parsed.findings).toContainEqual({
      level: 'error',
      where: 'stop_hooks[0]',
      message: expect.stringMatching(/^command not found: \.\/missing\.sh/),
    })
  })

  it('test fires an event with a synthetic payload and shows the output; --no-wait schedules async hooks', async () => {
    const cwd = repo(twoHooks)
    const waited = await proctor(cwd, ['hooks', 'test', 'checkpoint'])
    expect(waited.code).toBe(0)
    expect(waited.stdout).toContain('| hello from checkpoint')
    expect(waited.stdout).toMatch(
      /\| \{"hook_event_name":"checkpoint","session_id":"hooks-test".*"extra":\{"seq":1/,
    )
    const noWait = await proctor(cwd, ['hooks', 'test', 'checkpoint', '--no-wait'])
    expect(noWait.stdout).toMatch(/scheduled +note \[async\] in \d+\.\d+ms/)
    const unknown = await proctor(cwd, ['hooks', 'test', 'chekpoint'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown event "chekpoint"')
  })
})

describe('proctor hook stop', () => {
  it('rejects an unknown adapter (exit 2) and non-JSON input (exit 1, a non-blocking error for agents)', async () => {
    const cwd = repo(twoHooks)
    expect((await proctor(cwd, ['hook', 'stop', '--adapter', 'aider'])).code).toBe(2)
    const garbage = await proctor(cwd, ['hook', 'stop', '--adapter', 'claude'], { stdin: 'hello' })
    expect(garbage.code).toBe(1)
    expect(garbage.stderr).toContain('expected Stop hook JSON from claude on stdin')
  })

  it('answers a Claude Code Stop hook with a block carrying every reason', async () => {
    const cwd = repo(twoHooks)
    const input = JSON.stringify({ session_id: 'abc', hook_event_name: 'Stop', stop_hook_active: false, cwd })
    const answer = await proctor(cwd, ['hook', 'stop', '--adapter', 'claude'], { stdin: input })
    expect(answer.code).toBe(0)
    const body = JSON.parse(answer.stdout)
    expect(body.decision).toBe('block')
    expect(body.reason).toContain('- tests: 3 failing')
  })

  it('lets a Claude Code agent stop when the only blocking hooks cannot run (it cannot fix proctor.yml)', async () => {
    const cwd = repo('stop_hooks:\n  - { name: tests, command: "npm-tset" }\n')
    const input = JSON.stringify({ session_id: 'abc', hook_event_name: 'Stop', stop_hook_active: false, cwd })
    const answer = await proctor(cwd, ['hook', 'stop', '--adapter', 'claude'], { stdin: input })
    expect(answer.code).toBe(0)
    const body = JSON.parse(answer.stdout)
    expect(body.decision).toBeUndefined()
    expect(body.systemMessage).toMatch(/stop hooks could not run \(tests: tests \(npm-tset\) could not run/)
    expect(body.systemMessage).toContain('verdict block')
  })
})
