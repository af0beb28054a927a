import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { parsePrePushLines, isDeletion } from '../../src/hooks/context.js'
import { doctorHooks, programOf } from '../../src/hooks/doctor.js'
import { doctorPrePush } from '../../src/hooks/doctor-pre-push.js'
import { PRE_PUSH_SCRIPT } from '../../src/init/pre-push.js'

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

describe('hooks doctor: will git run the pre-push hook?', () => {
  const env = { PATH: process.env.PATH ?? '', HOME: dir }
  let n = 0
  function gitRepo(): string {
    const root = join(dir, `repo-${n++}`)
    execFileSync('git', ['init', '-q', root])
    return root
  }
  const git = (root: string, args: string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', env }).trim()
  const summary = (findings: { level: string; message: string }[]) =>
    findings.map((finding) => `${finding.level}: ${finding.message}`)

  it('.husky/pre-push without husky set up: git never runs it, and the fix installs husky', async () => {
    const root = gitRepo()
    mkdirSync(join(root, '.husky'))
    writeFileSync(join(root, '.husky/pre-push'), PRE_PUSH_SCRIPT, { mode: 0o755 })
    const findings = await doctorPrePush(root, env)
    expect(summary(findings)).toEqual([
      expect.stringMatching(
        /^error: git will not run \.husky\/pre-push: core\.hooksPath is unset, so git looks for \.git\/hooks\/pre-push, which does not exist\. Fix: `npm init -y && npm install --save-dev husky@\^9 && npm pkg set scripts\.prepare=husky && npx husky`, or without npm: `cp \.husky\/pre-push \.git\/hooks\/pre-push`$/,
      ),
    ])

    // The fix, for real: husky v9 sets core.hooksPath and writes its runner.
    writeFileSync(join(root, 'package.json'), '{ "scripts": { "prepare": "husky" } }\n')
    cpSync(join(import.meta.dirname, '../../node_modules/husky'), join(root, 'node_modules/husky'), {
      recursive: true,
    })
    execFileSync(process.execPath, [join(root, 'node_modules/husky/bin.js')], { cwd: root, env })
    expect(git(root, ['config', 'core.hooksPath'])).toBe('.husky/_')
    expect(await doctorPrePush(root, env)).toEqual([])
    expect(summary(await doctorPrePush(root, { ...env, HUSKY: '0' }))).toEqual([
      expect.stringMatching(/^warning: HUSKY=0 is set here/),
    ])
  })

  it('a hook git would skip because it is not executable, with the chmod that fixes it', async () => {
    const root = gitRepo()
    mkdirSync(join(root, 'hooks'))
    writeFileSync(join(root, 'hooks/pre-push'), PRE_PUSH_SCRIPT, { mode: 0o644 })
    git(root, ['config', 'core.hooksPath', 'hooks'])
    expect(summary(await doctorPrePush(root, env))).toEqual([
      'error: git skips hooks/pre-push: it is not executable. Fix: `chmod +x hooks/pre-push`',
    ])
    chmodSync(join(root, 'hooks/pre-push'), 0o755)
    expect(await doctorPrePush(root, env)).toEqual([])
  })

  it('no pre-push hook, or one that does not run proctor: a warning with the fix', async () => {
    const root = gitRepo()
    expect(summary(await doctorPrePush(root, env))).toEqual([
      expect.stringMatching(
        /^warning: no pre-push hook \(git looks for \.git\/hooks\/pre-push\).*`proctor init`/,
      ),
    ])
    writeFileSync(join(root, '.git/hooks/pre-push'), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
    expect(summary(await doctorPrePush(root, env))).toEqual([
      expect.stringMatching(
        /^warning: \.git\/hooks\/pre-push does not run proctor\. Fix: add `proctor check --pre-push "\$@"`/,
      ),
    ])
  })
})
