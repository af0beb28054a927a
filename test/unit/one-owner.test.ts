// One owner per fact (docs/architecture.md): a session's checkpoint store is wired one way, through the
// workspace (src/state/workspace.ts), which gives it the config's limits and the policy's forbidden areas
// (only a restore keeps its own safety store, "Who owns a session's state"); a session report is built one
// way, by the report builder.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const src = path.resolve(import.meta.dirname, '../../src')

/** The modules under src/ whose text holds `needle`. */
function holding(needle: string): string[] {
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .filter((file) => fs.readFileSync(path.join(src, file), 'utf8').includes(needle))
    .sort()
}

describe('who opens a checkpoint store', () => {
  it('is the workspace, and a restore for its safety checkpoint: no other module', () => {
    expect(holding('new CheckpointStore(')).toEqual(['checkpoints/restore.ts', 'state/workspace.ts'])
  })
})

describe('who writes a session report', () => {
  it("is the report builder (a batch report is the aggregate's): no module writes one by hand", () => {
    expect(holding('schema: REPORT_SCHEMA_VERSION')).toEqual(['report/aggregate.ts', 'report/builder.ts'])
  })
})
