import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../src/config/schema.js'
import { defaultAt, defaultConfig } from '../../src/config/defaults.js'
import { loadConfig } from '../../src/config/load.js'

// `proctor run` without a proctor.yml takes its defaults from src/config/defaults.ts instead of parsing
// with zod (its agent starts sooner): they must be exactly what the schema gives.
describe('the defaults proctor uses without a proctor.yml', () => {
  it('are what the schema gives for an empty config', () => {
    expect(defaultConfig()).toStrictEqual(configSchema.parse({}))
  })

  it('are what each section written empty gives, field by field (the schema takes a section left out from them)', () => {
    const sections = {
      agent: {},
      timeouts: {},
      output: {},
      checkpoints: {},
      policy: {},
      batch: {},
      github: {},
    }
    expect(configSchema.parse(sections)).toStrictEqual(defaultConfig())
    expect(configSchema.parse({ agent: { typing: {} } }).agent).toStrictEqual(defaultConfig().agent)
  })

  it('are fresh in each parse: a config changed in place leaves the next parse alone', () => {
    const first = configSchema.parse({})
    first.agent.env.LEAKED = '1'
    first.agent.env_passthrough.push('LEAKED')
    first.agent.typing.submit_attempts = 9
    first.checkpoints.on_events.push('idle')
    first.policy.forbidden_areas.push('leaked/**')
    first.policy.severities.file_size = 'critical'
    first.batch.tasks.push({ name: 'leaked' })
    expect(configSchema.parse({})).toStrictEqual(defaultConfig())
  })

  it('come fresh for each caller, so one session changing its copy changes no other', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-defaults-'))
    try {
      const a = await loadConfig({ cwd: dir })
      const b = await loadConfig({ cwd: dir })
      expect(a.source).toBe('defaults')
      expect(a.file).toBeNull()
      a.config.checkpoints.on_events.push('idle')
      a.config.timeouts.total = 1
      expect(b.config).toStrictEqual(configSchema.parse({}))
      expect(defaultConfig()).toStrictEqual(configSchema.parse({}))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('are read by the schema from the one copy, which names a key it does not hold', () => {
    expect(defaultAt(['agent', 'typing', 'paste'])).toBe('auto')
    expect(defaultAt(['timeouts'])).toStrictEqual(defaultConfig().timeouts)
    expect(() => defaultAt(['agent', 'ptty'])).toThrow('config/defaults.ts has no default for agent.ptty')
  })
})
