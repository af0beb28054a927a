import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { parsePrePushLines, isDeletion } from '../../src/hooks/context.js'
import { doctorHooks, programOf } from '../../src/hooks/doctor.js'

const dir = mkdtempSync(join(tmpdir(), 'proctor-doctor-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('hooks doctor', () => {
  it('finds missing and non-executable commands, async stop hooks and duplicates', () => {
    writeFileSync(join(dir, 'ok.sh'), '#!/bin/sh\nexit 0\n')
    chmodSync(join(dir, 'ok.sh'), 0o755)
    writeFileSync(join(dir, 'noexec.sh'), '#!/bin/sh\nexit 0\n')
    chmodSync(join(dir, 'noexec.sh'), 0o644)
    const config = configSchema.parse({
      stop_hooks: [
        { name: 'tests', command: './ok.sh' },
        { name: 'tests', command: ['./noexec.sh'] },
        { name: 'lint', command: 'definitely-not-installed-xyz --fix' },
        { name: 'shell', command: 'exit 0' },
      ],
      hooks: {
        stop: [{ command: './ok.sh', async: true }],
        checkpoint: [{ command: ['sh', '-c', 'true'] }, { command: ['sh', '-c', 'true'] }],
      },
    })
    const findings = doctorHooks(config, dir, '/usr/bin:/bin')
    const at = (where: string) =>
      findings.filter((finding) => finding.where === where).map((finding) => finding.message)
    expect(at('stop_hooks[0]')).toEqual([])
    expect(at('stop_hooks[1]').join('\n')).toMatch(/duplicate stop hook name "tests"/)
    expect(at('stop_hooks[1]').join('\n')).toMatch(/not executable: \.\/noexec\.sh — run chmod \+x/)
    expect(at('stop_hooks[2]')).toEqual([
      expect.stringMatching(/command not found: definitely-not-installed-xyz/),
    ])
    expect(at('stop_hooks[3]')).toEqual([])
    expect(at('hooks.stop[0]')).toEqual([expect.stringMatching(/needs an answer, so it cannot run async/)])
    expect(at('hooks.checkpoint[1]')).toEqual([expect.stringMatching(/duplicate command/)])
  })

  it('reads the program of a shell string, skipping env assignments', () => {
    expect(programOf('CI=1 npm test -- --run')).toBe('npm')
    expect(programOf(['node', 'x.js'])).toBe('node')
    expect(programOf('$(which node) x')).toBeNull()
  })
})

describe('pre-push stdin', () => {
  it('parses git’s lines, ignoring blanks, and spots deletions', () => {
    const zero = '0'.repeat(40)
    const refs = parsePrePushLines(
      `refs/heads/main abc123 refs/heads/main def456\n\n(delete) ${zero} refs/heads/old 789abc\n`,
    )
    expect(refs).toEqual([
      {
        local_ref: 'refs/heads/main',
        local_sha: 'abc123',
        remote_ref: 'refs/heads/main',
        remote_sha: 'def456',
      },
      { local_ref: '(delete)', local_sha: zero, remote_ref: 'refs/heads/old', remote_sha: '789abc' },
    ])
    expect(refs.map(isDeletion)).toEqual([false, true])
    expect(parsePrePushLines('')).toEqual([])
  })
})
