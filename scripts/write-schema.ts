// npm run schema: regenerates schema/proctor.schema.json from the zod schema in src/config/schema.ts.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configJsonSchemaText } from '../src/config/json-schema.js'

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema', 'proctor.schema.json')
mkdirSync(dirname(target), { recursive: true })
writeFileSync(target, configJsonSchemaText())
console.log(`wrote ${target}`)
