// The action's inputs and outputs as the docs show them, rendered from action.yml (the one place they are
// declared): `npm run docs:action` writes them between the action-io markers of ACTION_TABLE_DOCS, and a
// test checks each holds what this renders.
import { parse } from 'yaml'

/** The documents that show the tables. */
export const ACTION_TABLE_DOCS = ['README.md', 'docs/action.md'] as const

const START = '<!-- action-io:start (npm run docs:action writes this from action.yml) -->'
const END = '<!-- action-io:end -->'

interface ActionYml {
  inputs: Record<string, { description: string; default?: string }>
  outputs: Record<string, { description: string }>
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.trim().replace(/\s+/g, ' ').replaceAll('|', '\\|')
}

/** The inputs and outputs tables of an action.yml's text. */
export function actionTables(actionYml: string): string {
  const action = parse(actionYml) as ActionYml
  const inputs = Object.entries(action.inputs).map(
    ([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`,
  )
  const outputs = Object.entries(action.outputs).map(
    ([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`,
  )
  return [
    START,
    '| input | what it does (and its default) |',
    '| --- | --- |',
    ...inputs,
    '',
    '| output | what it holds |',
    '| --- | --- |',
    ...outputs,
    END,
  ].join('\n')
}

/** The README with its action-io section replaced by `tables`; throws when the markers are missing. */
export function withActionTables(readme: string, tables: string): string {
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`)
  return readme.slice(0, start) + tables + readme.slice(end + END.length)
}
