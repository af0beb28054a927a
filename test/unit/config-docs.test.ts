import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError, configSchema, loadConfig } from '../../src/config/index.js'
import { keyPaths } from '../../src/config/schema-walk.js'

const repoPath = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url))
const read = (path: string): string => readFileSync(repoPath(path), 'utf8')

const examples = [
  'examples/proctor.yml',
  ...readdirSync(repoPath('examples/configs')).map((f) => `examples/configs/${f}`),
]

describe('examples', () => {
  it.each(examples)('%s is valid without warnings', async (file) => {
    const loaded = await loadConfig({ cwd: repoPath('.'), file })
    expect(loaded.warnings).toEqual([])
  })

  it('examples/proctor.yml shows every key', () => {
    const text = read('examples/proctor.yml')
    const names = new Set(
      keyPaths(configSchema).map((path) =>
        path
          .split(/[.[\]]+/)
          .filter(Boolean)
          .pop()!,
      ),
    )
    names.delete('<event>')
    names.delete('buffer') // output.buffer: deprecated, no effect (a warning when set)
    const missing = [...names].filter((name) => !new RegExp(`\\b${name}:`).test(text))
    expect(missing, 'keys missing from examples/proctor.yml').toEqual([])
  })
})

describe('docs/configuration.md', () => {
  const docs = read('docs/configuration.md')

  it('documents every key of the schema', () => {
    const missing = keyPaths(configSchema).filter((path) => !docs.includes(`\`${path}\``))
    expect(missing, 'keys missing from docs/configuration.md').toEqual([])
  })

  it('has one row per key', () => {
    const rowKeys = docs
      .split('\n')
      .map((line) => /^\| `([^`]+)`/.exec(line)?.[1])
      .filter((key) => key !== undefined)
    const twice = rowKeys.filter((key, i) => rowKeys.indexOf(key) !== i)
    expect(twice, 'keys with more than one row').toEqual([])
  })

  it('shows the errors proctor really prints for its example file', async () => {
    const block = /`proctor config validate` prints:\n\n```text\n([\s\S]*?)```/.exec(docs)?.[1]
    expect(block).toBeDefined()
    const example = /For this file:\n\n```yaml\n([\s\S]*?)```/.exec(docs)?.[1]
    expect(example).toBe(read('test/fixtures/config/docs-example.yml'))
    const error = await loadConfig({ cwd: repoPath('test/fixtures/config'), file: 'docs-example.yml' }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ConfigError)
    expect(`${(error as ConfigError).message.replaceAll('docs-example.yml', 'proctor.yml')}\n`).toBe(block)
  })
})

describe('the README and docs/', () => {
  const pages = [
    'README.md',
    ...readdirSync(repoPath('docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]

  // A row after a blank line starts a new table, which GitHub renders as text unless a delimiter row follows.
  it.each(pages)('%s: no table is cut in two by a blank line', (page) => {
    const lines = read(page).split('\n')
    const cut = lines.flatMap((line, i) =>
      line.startsWith('|') && i > 0 && lines[i - 1] === '' && !/^\|\s*:?-/.test(lines[i + 1] ?? '')
        ? [`line ${i + 1}: ${line.slice(0, 60)}`]
        : [],
    )
    expect(cut, 'table rows cut off from their table').toEqual([])
  })
})
