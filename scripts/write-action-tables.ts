// npm run docs:action: rewrites the action's inputs and outputs tables in the README and docs/action.md from
// action.yml.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ACTION_TABLE_DOCS, actionTables, withActionTables } from './action-tables.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const tables = actionTables(readFileSync(join(root, 'action.yml'), 'utf8'))
for (const doc of ACTION_TABLE_DOCS) {
  const path = join(root, doc)
  writeFileSync(path, withActionTables(readFileSync(path, 'utf8'), tables))
  console.log(`wrote the action's inputs and outputs into ${doc}`)
}
