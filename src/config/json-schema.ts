// The JSON Schema of proctor.yml for editors (yaml-language-server) and other tools, generated from
// the zod schema so the two cannot drift (a test compares it with schema/proctor.schema.json).
import { z } from 'zod'
import { configSchema } from './schema.js'
import { toInputForm } from './input-form.js'

/** A URN rather than a URL: the schema is published with the repository, whose address is not fixed here. */
export const CONFIG_SCHEMA_ID = 'urn:proctor:schema:proctor.yml:v1'

type JsonSchema = Record<string, unknown>

export function configJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(configSchema, {
    io: 'input',
    // Defaults are stored parsed (ms, bytes); zod leaves them out for inputs it cannot reverse. Write
    // them as users do ("30m", "5MiB") so an editor's suggestion means the same thing when pasted.
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as unknown as { type: string; defaultValue?: unknown }
      if (def.type !== 'default') return
      jsonSchema.default = toInputForm(zodSchema, def.defaultValue)
    },
  }) as JsonSchema
  const { $schema, ...rest } = generated
  return {
    $schema,
    $id: CONFIG_SCHEMA_ID,
    title: 'proctor.yml',
    description:
      'Configuration of proctor, the supervisor for AI coding-agent sessions. Reference: docs/configuration.md',
    ...rest,
  }
}

/** The checked-in file's exact text: two-space JSON with a trailing newline. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`
}
