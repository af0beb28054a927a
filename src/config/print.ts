// The effective config as YAML users can paste back into proctor.yml (durations and sizes written
// with units, not as the ms and bytes proctor uses internally).
import { stringify } from 'yaml'
import { configSchema, type Config } from './schema.js'
import { toInputForm } from './input-form.js'

export function configToYaml(config: Config): string {
  return stringify(toInputForm(configSchema, config), { lineWidth: 0 })
}
