// The owner of a repository's proctor state (src/state/workspace.ts): every entry point opens a session's
// checkpoint store and push queue through it, with config and policy wired one way.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { configSchema, type Config } from '../../src/config/schema.js'
import { Workspace } from '../../src/state/workspace.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

function setup(over: Record<string, unknown> = {}): { r: TempRepo; workspace: Workspace; config: Config } {
  const r = makeTempRepo({ files: { 'README.md': 'hello\n' } })
  repos.push(r)
  fs.mkdirSync(path.join(r.dir, 'src'))
  const workspace = Workspace.find(path.join(r.dir, 'src'), r.env)!
  return { r, workspace, config: configSchema.parse(over) }
}

describe('Workspace', () => {
  it('is found from a subdirectory of the repository, and not outside one', () => {
    const { r, workspace } = setup()
    expect(workspace.root).toBe(r.dir)
    expect(Workspace.find(path.parse(r.dir).root)).toBeNull()
    expect(workspace.sessionDir('s1')).toBe(path.join(r.dir, '.proctor', 'sessions', 's1'))
    expect(fs.readFileSync(path.join(r.dir, '.proctor', '.gitignore'), 'utf8')).toContain('*')
  })

  it('opens a store that withholds forbidden areas and, when asked to judge, records the policy', async () => {
    const { r, workspace, config } = setup({
      policy: { forbidden_areas: ['secrets/**'], protected_areas: ['README.md'] },
    })
    r.write('secrets/key.pem', 'never checkpoint me\n')
    r.write('README.md', 'changed\n')
    const store = await workspace.store('s1', config, { judge: true })
    try {
      await store.open()
      const result = (await store.createDetailed('manual'))!
      expect(result.record.skipped.join(' ')).toContain('secrets/key.pem')
      expect(r.git(['ls-tree', '-r', '--name-only', result.record.sha])).not.toContain('secrets/key.pem')
      const constraints = result.violations.map((v) => `${v.constraint}:${v.file}`)
      expect(constraints).toContain('protected_area:README.md')
      expect(constraints).toContain('forbidden_area:secrets/key.pem')
      // Nothing new since: the standing violations are the cumulative diff's, judged as a whole.
      const standing = await workspace.standingViolations(store, config)
      expect(standing.map((v) => `${v.constraint}:${v.file}`)).toContain('protected_area:README.md')
    } finally {
      await store.close()
    }
  })

  it('pushes a session to its remote branch, and answers null for a session without checkpoints', async () => {
    const remote = makeTempRepo({ bare: true })
    repos.push(remote)
    const { r, workspace, config } = setup({ checkpoints: { remote: remote.dir } })
    expect(await workspace.pushSession('nothing-here', config)).toBeNull()
    r.write('a.txt', 'a\n')
    const store = await workspace.store('s2', config)
    try {
      await store.open()
      await store.create('manual')
    } finally {
      await store.close()
    }
    const record = (await workspace.pushSession('s2', config, { mode: 'always' }))!
    expect(record.ok).toBe(true)
    expect(remote.git(['for-each-ref', '--format=%(refname)'])).toContain('refs/heads/proctor/s2')
  })
})
