import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { evaluatePolicy, findSymlinkEscape, type ChangedFile } from '../../src/policy/index.js'

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-symlink-')))
const worktree = join(tmp, 'repo')
const outside = join(tmp, 'outside')
mkdirSync(join(worktree, 'a/b'), { recursive: true })
mkdirSync(join(worktree, 'lib'), { recursive: true })
mkdirSync(outside)
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function link(path: string, target: string): ChangedFile {
  symlinkSync(target, join(worktree, path))
  return {
    path,
    status: 'A',
    oldMode: null,
    newMode: '120000',
    size: target.length,
    symlinkTarget: target,
    linesAdded: 1,
    linesDeleted: 0,
  }
}

const policy = configSchema.parse({ policy: { severities: { symlink_escape: 'error' } } }).policy
function escapes(files: ChangedFile[]) {
  return evaluatePolicy({ files, checkpoint: 1, worktree, policy, scope: 'checkpoint' })
}

describe('symlink_escape', () => {
  it('flags relative targets that climb out of the worktree', () => {
    const [v] = escapes([link('a/b/passwd', '../../../../etc/passwd')])
    expect(v).toMatchObject({ file: 'a/b/passwd', constraint: 'symlink_escape', severity: 'error' })
    expect(v!.message).toBe(
      'a/b/passwd is a symlink to "../../../../etc/passwd", which resolves outside the worktree (../../etc/passwd)',
    )
    expect(v!.suggestion).toContain('regular file')
  })

  it('flags absolute targets outside the worktree, and accepts absolute targets inside it', () => {
    expect(escapes([link('abs-out', '/etc/passwd')]).map((v) => v.file)).toEqual(['abs-out'])
    expect(escapes([link('abs-in', join(worktree, 'lib'))])).toEqual([])
    expect(escapes([link('abs-sneaky', `${worktree}/../outside/x`)]).map((v) => v.file)).toEqual([
      'abs-sneaky',
    ])
  })

  it('accepts targets that stay inside, including ones that go up and back down', () => {
    expect(
      escapes([link('a/b/up', '../../lib'), link('a/dangling', 'b/not-there'), link('a/self', '.')]),
    ).toEqual([])
  })

  it('flags links into the .git directory', () => {
    const [v] = escapes([link('hooks', '.git/hooks')])
    expect(v!.message).toContain('.git directory (.git/hooks)')
  })

  it('follows chains of links on disk, applying ".." after each hop like the kernel', () => {
    symlinkSync(outside, join(worktree, 'lib/out')) // an existing link the diff does not include
    const [v] = escapes([link('a/chain', '../lib/out/../secret')])
    expect(v!.message).toContain('through the link lib/out')
    expect(v!.message).toContain(outside)
  })

  it('reads the target from the worktree when the diff does not carry it', () => {
    const file = link('a/b/noted', '../../..')
    delete file.symlinkTarget
    expect(escapes([file]).map((v) => v.file)).toEqual(['a/b/noted'])
  })

  it('ignores deleted links and regular files', () => {
    const gone: ChangedFile = {
      path: 'gone',
      status: 'D',
      oldMode: '120000',
      newMode: null,
      size: null,
      linesAdded: 0,
      linesDeleted: 1,
    }
    expect(escapes([gone])).toEqual([])
  })
})

describe('findSymlinkEscape', () => {
  it('judges a target lexically when chains are not followed', () => {
    expect(findSymlinkEscape('x/y', '../z', '/nowhere', { followChains: false })).toBeNull()
    expect(findSymlinkEscape('x/y', '../../z', '/nowhere', { followChains: false })).toMatchObject({
      resolved: '../z',
      reason: 'outside',
    })
    expect(findSymlinkEscape('y', 'C:\\Windows', '/nowhere', { followChains: false })).toMatchObject({
      reason: 'outside',
    })
  })

  it('survives link loops inside the worktree', () => {
    symlinkSync('loop2', join(worktree, 'loop1'))
    symlinkSync('loop1', join(worktree, 'loop2'))
    expect(findSymlinkEscape('entry', 'loop1/x', worktree)).toBeNull()
  })
})
