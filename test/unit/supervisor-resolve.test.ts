import { afterEach, describe, expect, it } from 'vitest'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { displayCommand, resolveCommand } from '../../src/supervisor/resolve.js'
import { SpawnError, type CommandSpec } from '../../src/supervisor/types.js'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function sandbox(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-resolve-'))
  dirs.push(dir)
  return dir
}

function script(dir: string, name: string, mode: number): string {
  const path = join(dir, name)
  writeFileSync(path, '#!/bin/sh\nexit 0\n')
  chmodSync(path, mode)
  return path
}

function failure(
  command: CommandSpec,
  cwd: string,
  env: Record<string, string>,
  label = 'agent',
): SpawnError {
  try {
    resolveCommand(command, cwd, env, label)
  } catch (error) {
    if (error instanceof SpawnError) return error
    throw error
  }
  throw new Error('expected a SpawnError')
}

describe('resolveCommand', () => {
  it('finds a bare name in the child PATH, first match wins, skipping non-executables', () => {
    const dir = sandbox()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    script(join(dir, 'a'), 'tool', 0o644)
    const good = script(join(dir, 'b'), 'tool', 0o755)
    const resolved = resolveCommand({ file: 'tool', args: ['x y'] }, dir, { PATH: `${dir}/a:${dir}/b` })
    expect(resolved).toEqual({ file: good, args: ['x y'], display: "tool 'x y'" })
  })

  it('resolves a relative path against the working directory, not ours', () => {
    const dir = sandbox()
    const path = script(dir, 'agent.sh', 0o755)
    expect(resolveCommand({ file: './agent.sh', args: [] }, dir, {}).file).toBe(path)
  })

  it('says which PATH it searched when a name is missing, and where to fix it', () => {
    const error = failure({ file: 'claud', args: [] }, sandbox(), { PATH: '/nowhere:/also-nowhere' })
    expect(error.code).toBe('ENOENT')
    expect(error.message).toBe(
      'agent command not found: claud (searched PATH: /nowhere:/also-nowhere) — check agent.command in proctor.yml',
    )
  })

  it('reports a name found only as a non-executable file as EACCES', () => {
    const dir = sandbox()
    script(dir, 'tool', 0o644)
    const error = failure({ file: 'tool', args: [] }, dir, { PATH: dir }, 'hook lint')
    expect(error.code).toBe('EACCES')
    expect(error.message).toBe(
      `hook lint command is not executable: ${dir}/tool (chmod +x it, or run it through an interpreter)`,
    )
  })

  it('rejects a directory, an empty command, NUL bytes and malformed specs', () => {
    const dir = sandbox()
    expect(failure({ file: dir, args: [] }, dir, {}).message).toContain('is a directory')
    expect(failure({ file: '', args: [] }, dir, {}).code).toBe('EINVAL')
    expect(failure({ file: 'sh', args: ['a\0b'] }, dir, { PATH: '/bin' }).message).toContain('NUL byte')
    expect(failure({ file: 'sh' } as unknown as CommandSpec, dir, {}).message).toContain(
      'must be { file, args[] } or { shell }',
    )
  })

  it('runs shell strings through /bin/sh -c unchanged', () => {
    const dir = sandbox()
    expect(resolveCommand({ shell: 'echo "$HOME" | wc -c' }, dir, {})).toEqual({
      file: '/bin/sh',
      args: ['-c', 'echo "$HOME" | wc -c'],
      display: 'echo "$HOME" | wc -c',
    })
  })

  it('quotes argv for display only', () => {
    expect(displayCommand({ file: 'claude', args: ['-p', "Fix the test's failure"] })).toBe(
      `claude -p 'Fix the test'\\''s failure'`,
    )
  })
})
