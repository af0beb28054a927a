import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import {
  configJsonSchema,
  configJsonSchemaText,
  configSchema,
  configToYaml,
  parseConfigText,
} from '../../src/config/index.js'

const repoFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url))

describe('schema/proctor.schema.json', () => {
  it('is exactly what the zod schema generates', () => {
    const checkedIn = readFileSync(repoFile('schema/proctor.schema.json'), 'utf8')
    expect(checkedIn, 'schema/proctor.schema.json is out of date: run `npm run schema` and commit it').toBe(
      configJsonSchemaText(),
    )
  })

  it('identifies itself and forbids unknown keys', () => {
    const schema = configJsonSchema()
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: expect.any(String),
      title: 'proctor.yml',
      type: 'object',
      additionalProperties: false,
    })
  })

  it('writes duration and size defaults the way users write them', () => {
    const properties = configJsonSchema().properties as Record<
      string,
      { properties: Record<string, { default: unknown }> }
    >
    expect(properties.timeouts!.properties.total!.default).toBe('30m')
    expect(properties.timeouts!.properties.grace!.default).toBe('5s')
    expect(properties.checkpoints!.properties.max_file_size!.default).toBe('5MiB')
    expect(properties.output!.properties.transcript_max!.default).toBe('64MiB')
  })

  it('lets an editor accept the example config and flag what proctor rejects', () => {
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(configJsonSchema())
    const example = parse(readFileSync(repoFile('examples/proctor.yml'), 'utf8'))
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ agent: { comand: ['x'] } })).toBe(false)
    expect(validate({ checkpoints: { push: 'sometimes' } })).toBe(false)
    expect(validate({ timeouts: { total: '30m', idle: 600 } })).toBe(true)
  })
})

describe('the printed effective config', () => {
  it('uses units and parses back to the same config', () => {
    const { config } = parseConfigText(readFileSync(repoFile('examples/proctor.yml'), 'utf8'), 'proctor.yml')
    const printed = configToYaml(config)
    expect(printed).toContain('total: 30m')
    expect(printed).toContain('max_file_size: 5MiB')
    expect(parseConfigText(printed, 'printed.yml').config).toEqual(config)
  })

  it('of the defaults also round-trips', () => {
    const defaults = configSchema.parse({})
    expect(parseConfigText(configToYaml(defaults), 'printed.yml').config).toEqual(defaults)
  })
})
