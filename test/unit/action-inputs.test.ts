// action.yml, src/action/inputs.ts and docs/action.md must agree: an input read but not declared never
// reaches the action, one declared but not read silently does nothing, one undocumented nobody finds.
import { describe, it, expect, afterEach } from 'vitest'
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'
import { configSchema } from '../../src/config/schema.js'
import { agentCommand, applyInputs, InputError, readInputs } from '../../src/action/inputs.js'
import { exitCodeFor } from '../../src/action/run.js'
import { batchStatus, readReportGlobs } from '../../src/action/aggregate.js'
import { aggregateReports } from '../../src/report/aggregate.js'
import { sessionReport } from './github-fixtures.js'
import { ACTION_TABLE_DOCS, actionTables, withActionTables } from '../../scripts/action-tables.js'
import { usageOutputs } from '../../src/usage/summary.js'

const root = resolve(import.meta.dirname, '../..')
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  name: string
  description: string
  branding: { icon: string; color: string }
  inputs: Record<string, { description: string; default?: string }>
  outputs: Record<string, { description: string }>
  runs: Record<string, string>
}
const readInSource = [
  ...readFileSync(join(root, 'src/action/inputs.ts'), 'utf8').matchAll(/input\(env, '([a-z-]+)'\)/g),
].map((m) => m[1]!)
const docs = readFileSync(join(root, 'docs/action.md'), 'utf8')

describe('action.yml', () => {
  it('declares exactly the inputs src/action/inputs.ts reads, each with a description that names its default', () => {
    expect(readInSource.length).toBeGreaterThan(10)
    expect(Object.keys(action.inputs).sort()).toEqual([...new Set(readInSource)].sort())
    for (const [name, spec] of Object.entries(action.inputs)) {
      expect(spec.description, name).toMatch(/default/i)
    }
    expect(action.inputs['github-token']!.default).toBe('${{ github.token }}')
    expect(action.inputs.config!.default).toBe('proctor.yml')
  })

  it('declares every output the action writes', () => {
    const written = ['src/action/run.ts', 'src/action/aggregate.ts', 'src/action/acknowledge.ts'].flatMap(
      (file) => {
        const text = readFileSync(join(root, file), 'utf8')
        const block = text.slice(
          text.indexOf('writeOutputs({'),
          text.indexOf('})', text.indexOf('writeOutputs({')),
        )
        return [...block.matchAll(/(?:^|\{)\s*'?([a-z-]+)'?:/gm)].map((m) => m[1]!)
      },
    )
    // Spread into run and aggregate's outputs from the usage summary.
    written.push(...Object.keys(usageOutputs(undefined)))
    // The acknowledge job's answers to follow-ups (src/action/commands.ts) are written as `outputs: { … }`.
    const commands = readFileSync(join(root, 'src/action/commands.ts'), 'utf8')
    for (const block of commands.matchAll(/outputs: \{([^}]*)\}/g))
      written.push(...[...block[1]!.matchAll(/'?([a-z-]+)'?:/g)].map((m) => m[1]!))
    expect(written).toEqual(expect.arrayContaining(['command', 'ref', 'round', 'pull-request']))
    expect(written).toContain('checkpoint-sha')
    expect(written).toContain('errored-count')
    expect(written).toContain('task')
    expect(Object.keys(action.outputs).sort()).toEqual([...new Set(written)].sort())
  })

  it('runs main and post on node24 and always runs the post step', () => {
    expect(action.runs).toEqual({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post.js',
      'post-if': 'always()',
    })
    expect(action.branding.icon).toBeTruthy()
  })

  it('docs/action.md documents every input and output', () => {
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) {
      expect(docs, name).toContain(`\`${name}\``)
    }
  })

  it('the README and docs/action.md show the tables action.yml renders (npm run docs:action)', () => {
    const tables = actionTables(readFileSync(join(root, 'action.yml'), 'utf8'))
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(tables, name).toContain(`| \`${name}\` |`)
    for (const doc of ACTION_TABLE_DOCS) {
      const text = readFileSync(join(root, doc), 'utf8')
      expect(withActionTables(text, tables) === text, `${doc}: run npm run docs:action`).toBe(true)
    }
  })
})

describe('inputs', () => {
  const env = (inputs: Record<string, string>) =>
    Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))

  it('override proctor.yml, and leave it alone when empty', () => {
    const config = configSchema.parse({ github: { comment: 'new' } })
    const inputs = readInputs(
      env({
        timeout: '45m',
        'push-checkpoints': 'never',
        checks: 'false',
        publish: 'aggregate',
        'fail-on': 'never',
      }),
    )
    const next = applyInputs(config, inputs)
    expect(next.timeouts.total).toBe(45 * 60_000)
    expect(next.checkpoints.push).toBe('never')
    expect(next.github).toMatchObject({
      comment: 'new',
      checks: false,
      publish: 'aggregate',
      fail_on: 'never',
    })
  })

  it('reject bad values with the input name and what is allowed', () => {
    const config = configSchema.parse({})
    expect(() => applyInputs(config, readInputs(env({ comment: 'loud' })))).toThrow(
      'input comment: expected one of sticky, new, off, got "loud"',
    )
    expect(() => applyInputs(config, readInputs(env({ publish: 'once' })))).toThrow(
      'input publish: expected one of each, aggregate, got "once"',
    )
    expect(() => applyInputs(config, readInputs(env({ timeout: 'soon' })))).toThrow(InputError)
  })

  it('split command into argv like a shell, but refuse shell operators', () => {
    const config = configSchema.parse({})
    expect(agentCommand(readInputs(env({ command: `claude -p "Fix the 'flaky' test"` })), config)).toEqual({
      file: 'claude',
      args: ['-p', "Fix the 'flaky' test"],
    })
    expect(() => agentCommand(readInputs(env({ command: 'npm test && rm -rf /' })), config)).toThrow(
      /use the shell input/,
    )
    expect(() => agentCommand(readInputs(env({ command: 'a', shell: 'b' })), config)).toThrow(/not both/)
  })
})

describe('exit code (fail-on)', () => {
  const clean = sessionReport({ violations: [] })
  const withError = sessionReport({ violations: [{ ...sessionReport().violations[0]!, severity: 'error' }] })
  it('block follows the session; violation-error also fails on error violations; never passes; interruption always counts', () => {
    expect(exitCodeFor(clean, 1, 'block')).toBe(1)
    expect(exitCodeFor(withError, 0, 'block')).toBe(0)
    expect(exitCodeFor(withError, 0, 'violation-error')).toBe(1)
    expect(exitCodeFor(clean, 1, 'never')).toBe(0)
    expect(exitCodeFor(sessionReport({ status: 'interrupted' }), 130, 'never')).toBe(130)
  })
})

describe('aggregate: reading reports', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reads globs and paths; malformed, missing and unmatched ones become errored children with a problem', () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-agg-'))
    const save = (rel: string, text: string) => {
      mkdirSync(join(dir, rel, '..'), { recursive: true })
      writeFileSync(join(dir, rel), text)
    }
    save('r/one/report.json', JSON.stringify(sessionReport({ session_id: 'one' })))
    save('r/two/report.json', 'not json')
    save('r/three/report.json', JSON.stringify({ schema: 2 }))
    const children = readReportGlobs('r/*/report.json, r/one\nmissing/report.json\nnothing/*.json', dir)
    const batch = aggregateReports('b', children)
    expect(batch.child_count).toBe(5)
    expect(batch.completed_count).toBe(1)
    expect(batch.errored_count).toBe(4)
    expect(batch.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^malformed report: unsupported report schema 2/),
      expect.stringMatching(/^malformed report: not JSON/),
      'report file is missing',
      expect.stringContaining('no report file matches "nothing/*.json"'),
    ])
    expect(batchStatus(batch)).toBe('errored')
    expect(batch.verdict).toBe('block')
  })
})
