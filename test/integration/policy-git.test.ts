// The policy on diffs of a real repository, as the checkpoint store produces them.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diffTrees } from '../../src/checkpoints/diff.js'
import { configSchema } from '../../src/config/schema.js'
import { Git } from '../../src/git/runner.js'
import { evaluatePolicy, failsPolicyCheck, filesToRevert } from '../../src/policy/index.js'

let repo: string
let git: Git

async function snapshot(): Promise<string> {
  await git.raw(['add', '-A'])
  return (await git.raw(['write-tree'])).stdout.trim()
}

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'proctor-policy-git-'))
  git = new Git({ cwd: repo })
  await git.raw(['init', '--quiet', '--initial-branch=main'])
  mkdirSync(join(repo, '.github/workflows'), { recursive: true })
  mkdirSync(join(repo, 'src'))
  writeFileSync(join(repo, '.github/workflows/ci.yml'), 'on: push\n')
  writeFileSync(join(repo, 'src/app.ts'), 'export {}\n')
  writeFileSync(join(repo, 'src/old-name.ts'), 'export const a = 1\n'.repeat(20))
  writeFileSync(join(repo, 'notes.txt'), 'keep\n')
})
afterAll(() => rmSync(repo, { recursive: true, force: true }))

describe('policy on a real checkpoint diff', () => {
  it('finds every kind of violation an agent can cause in one step', async () => {
    const base = await snapshot()

    writeFileSync(join(repo, '.github/workflows/ci.yml'), 'on: [push, pull_request]\n') // protected, modified
    writeFileSync(join(repo, '.env'), 'TOKEN=x\n') // forbidden dotfile
    writeFileSync(join(repo, 'src/run.sh'), '#!/bin/sh\n')
    chmodSync(join(repo, 'src/run.sh'), 0o755) // new executable
    symlinkSync('../../../etc/shadow', join(repo, 'src/shadow')) // escapes
    symlinkSync('app.ts', join(repo, 'src/alias.ts')) // stays inside
    renameSync(join(repo, 'src/old-name.ts'), join(repo, 'lib-new-name.ts')) // leaves the allowed area
    unlinkSync(join(repo, 'notes.txt')) // deleted outside the allowed area
    writeFileSync(join(repo, 'src/blob.bin'), Buffer.alloc(4096, 1)) // over max_file_size

    const files = await diffTrees(git, base, await snapshot())
    const policy = configSchema.parse({
      policy: {
        allowed_areas: ['src/**'],
        forbidden_areas: ['.env*'],
        protected_areas: ['.github/**'],
        allow_new_executables: false,
        max_file_size: '1KiB',
        severities: { protected_area: 'critical', symlink_escape: 'error' },
        revert_on_violation: true,
      },
    }).policy
    const violations = evaluatePolicy({ files, checkpoint: 1, worktree: repo, policy, scope: 'checkpoint' })

    expect(violations.map((v) => `${v.constraint}:${v.file}`).sort()).toEqual(
      [
        'forbidden_area:.env',
        'outside_allowed:.env',
        'protected_area:.github/workflows/ci.yml',
        'outside_allowed:.github/workflows/ci.yml',
        'outside_allowed:lib-new-name.ts',
        'outside_allowed:notes.txt',
        'new_executable:src/run.sh',
        'symlink_escape:src/shadow',
        'file_size:src/blob.bin',
      ].sort(),
    )
    expect(
      violations.every((v) => v.checkpoint === 1 && v.message.length > 0 && v.suggestion.length > 0),
    ).toBe(true)
    expect(failsPolicyCheck(violations)).toBe(true)
    expect(filesToRevert(violations, policy)).toEqual(['.github/workflows/ci.yml'])
  })
})
