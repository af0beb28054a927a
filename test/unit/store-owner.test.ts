// A session's checkpoint store is wired one way: through the workspace (src/state/workspace.ts), which
// gives it the config's limits and the policy's forbidden areas. Only a restore keeps its own safety store
// (docs/architecture.md, "Who owns a session's state").
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const src = path.resolve(import.meta.dirname, '../../src')

describe('who opens a checkpoint store', () => {
  it('is the workspace, and a restore for its safety checkpoint: no other module', () => {
    const opening = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => fs.readFileSync(path.join(src, file), 'utf8').includes('new CheckpointStore('))
      .sort()
    expect(opening).toEqual(['checkpoints/restore.ts', 'state/workspace.ts'])
  })
})
