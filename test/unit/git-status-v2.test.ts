// parseStatusV2Z: what a first checkpoint reads from `git status --porcelain=v2 -z --branch` (store.ts,
// openFromStatus). Real output of git for the common lines is checked in the integration tests; these pin
// the rarer forms (renames, conflicts, paths with spaces and newlines, an unborn branch).
import { describe, expect, it } from 'vitest'

import { parseStatusV2Z } from '../../src/git/nul.js'

const oid = (c: string) => c.repeat(40)

describe('parseStatusV2Z', () => {
  it('HEAD, worktree changes apart from untracked files, and nothing staged', () => {
    const out = [
      `# branch.oid ${oid('a')}`,
      '# branch.head main',
      `1 .M N... 100644 100644 100644 ${oid('b')} ${oid('b')} dir/a file.txt`,
      `1 .D N... 100644 100644 000000 ${oid('c')} ${oid('c')} gone.txt`,
      `1 .T N... 100644 100644 120000 ${oid('d')} ${oid('d')} now a link`,
      '? new\nline.txt',
      '? nested/',
      '',
    ].join('\0')
    expect(parseStatusV2Z(out)).toEqual({
      head: oid('a'),
      staged: false,
      changed: ['dir/a file.txt', 'gone.txt', 'now a link'],
      untracked: ['new\nline.txt', 'nested/'],
    })
  })

  it('a staged change, a rename (two paths) and a conflict all say the index differs from HEAD', () => {
    const staged = `1 M. N... 100644 100644 100644 ${oid('b')} ${oid('c')} a.txt\0`
    expect(parseStatusV2Z(staged)).toMatchObject({ staged: true, changed: [] })
    const renamed = `2 R. N... 100644 100644 100644 ${oid('b')} ${oid('b')} R100 new name\0old name\0? x\0`
    expect(parseStatusV2Z(renamed)).toMatchObject({ staged: true, changed: [], untracked: ['x'] })
    const conflict = `u UU N... 100644 100644 100644 100644 ${oid('1')} ${oid('2')} ${oid('3')} f with space.txt\0`
    expect(parseStatusV2Z(conflict)).toMatchObject({ staged: true, changed: ['f with space.txt'] })
  })

  it('an unborn branch has no HEAD commit', () => {
    expect(parseStatusV2Z('# branch.oid (initial)\0# branch.head main\0? a\0')).toEqual({
      head: null,
      staged: false,
      changed: [],
      untracked: ['a'],
    })
  })
})
