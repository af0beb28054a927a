// A checkpoint's two diffs (since the previous checkpoint, since the baseline) come from one `diff-tree
// --stdin` and one `cat-file` (issue 35): each pair reads exactly as its own diffTrees would, whatever the
// paths hold, and an empty pair stays empty.
import { afterEach, describe, expect, it } from 'vitest'

import { diffTreePairs, diffTrees } from '../../src/checkpoints/diff.js'
import { Git } from '../../src/git/runner.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

describe('diffTreePairs', () => {
  it('reads each pair as diffTrees does: renames, a path with a newline, an empty pair', async () => {
    const r = makeTempRepo({ files: { 'a.txt': 'a\n'.repeat(20), 'keep.txt': 'k\n', 'gone.txt': 'g\n' } })
    repos.push(r)
    const tree = () => r.git(['rev-parse', 'HEAD^{tree}']).trim()
    const base = tree()
    r.remove('a.txt')
    r.write('moved.txt', 'a\n'.repeat(20))
    r.write('line\nbreak.txt', 'x\n')
    r.commitAll('second')
    const middle = tree()
    r.remove('gone.txt')
    r.write('keep.txt', 'changed\n')
    r.commitAll('third')
    const tip = tree()
    const git = new Git({ cwd: r.dir, env: r.env })
    const pairs = [
      [middle, tip],
      [tip, tip],
      [base, tip],
    ] as const
    const together = await diffTreePairs(git, pairs)
    const alone = await Promise.all(pairs.map(([from, to]) => diffTrees(git, from, to)))
    expect(together).toEqual(alone)
    expect(together[1]).toEqual([])
    expect(together[2]!.map((f) => [f.status, f.path])).toEqual(
      expect.arrayContaining([
        ['R', 'moved.txt'],
        ['A', 'line\nbreak.txt'],
        ['D', 'gone.txt'],
        ['M', 'keep.txt'],
      ]),
    )
  })
})
