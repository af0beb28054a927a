// What a release needs besides the code: workflows GitHub accepts (CI is .ci/run), one Node version
// everywhere, a licence that matches package.json, complete action metadata, a changelog.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import actionValidator from '@action-validator/core'
import { agentPresets } from '../../src/agents/presets/index.js'
import { parse as parseYaml } from 'yaml'
import { describe, expect, it } from 'vitest'
import { workflowTemplate } from '../../src/init/templates.js'

const root = join(import.meta.dirname, '../..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const workflows = readdirSync(join(root, '.github/workflows')).filter((f) => f.endsWith('.yml'))

interface Steps {
  jobs: Record<string, { steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }>
}

describe('release engineering', () => {
  it('has CI, check-dist, release and agents-latest workflows that GitHub accepts; CI runs .ci/run', () => {
    expect(workflows.sort()).toEqual(['agents-latest.yml', 'check-dist.yml', 'ci.yml', 'release.yml'])
    for (const file of workflows) {
      expect(actionValidator.validateWorkflow(read(`.github/workflows/${file}`)).errors, file).toEqual([])
    }
    const ci = parseYaml(read('.github/workflows/ci.yml')) as Steps
    expect(ci.jobs.ci!.steps.map((s) => s.run)).toContain('bash .ci/run')
  })

  it('releases on a vX.Y.Z tag or by hand: the gate and CI before publishing, only contents and id-token to write', () => {
    interface Release {
      on: { push: { tags: string[] }; workflow_dispatch: { inputs: Record<string, { required: boolean }> } }
      permissions: Record<string, string>
      jobs: Record<
        string,
        { needs?: string; permissions: Record<string, string>; steps: { name?: string; run?: string }[] }
      >
    }
    const release = parseYaml(read('.github/workflows/release.yml')) as Release
    expect(release.on.push.tags).toEqual(['v*.*.*'])
    expect(release.on.workflow_dispatch.inputs.version?.required).toBe(true)
    expect(release.permissions).toEqual({})
    const { check, publish } = release.jobs
    expect(Object.keys(release.jobs).sort()).toEqual(['check', 'publish'])
    // The tests run with no write token; publishing waits for them.
    expect(check!.permissions).toEqual({ contents: 'read' })
    expect(publish!.permissions).toEqual({ contents: 'write', 'id-token': 'write' })
    expect(publish!.needs).toBe('check')
    const runs = (job: typeof check) => job!.steps.map((step) => step.run ?? '')
    const at = (job: typeof check, text: string) => runs(job).findIndex((run) => run.includes(text))
    expect(at(check, 'scripts/release-check.ts')).toBeGreaterThanOrEqual(0)
    expect(at(check, 'scripts/release-check.ts')).toBeLessThan(at(check, 'bash .ci/run'))
    // In order: the gate, npm, the tags, the GitHub release.
    const order = ['scripts/release-check.ts', 'npm publish', 'git tag -fa "$MAJOR"', 'gh release create']
    const indexes = order.map((text) => at(publish, text))
    expect(indexes.every((index) => index >= 0)).toBe(true)
    expect([...indexes].sort((a, b) => a - b)).toEqual(indexes)
    expect(runs(publish).join('\n')).toContain('npm publish --ignore-scripts --provenance --access public')
  })

  it('runs the presets against the newest agent CLIs weekly; only the job that files the issue may write issues', () => {
    interface Workflow {
      on: { schedule?: { cron: string }[] }
      permissions: Record<string, string>
      jobs: Record<string, { permissions: Record<string, string>; needs?: string; steps: { run?: string }[] }>
    }
    const workflow = parseYaml(read('.github/workflows/agents-latest.yml')) as Workflow
    // Weekly: minute hour * * one weekday.
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/^\d+ \d+ \* \* [0-6]$/)
    expect(workflow.permissions).toEqual({})
    const { test, report } = workflow.jobs
    expect(test!.permissions).toEqual({ contents: 'read' })
    expect(test!.steps.some((s) => s.run?.includes('npm run test:agents-latest'))).toBe(true)
    expect(report!.permissions).toEqual({ issues: 'write' })
    expect(report!.needs).toBe('test')
    expect(Object.keys(workflow.jobs).sort()).toEqual(['report', 'test'])
    // Every CLI with a preset is tried at its newest release.
    const script = read('scripts/test-agents-latest.mjs')
    for (const preset of Object.values(agentPresets)) expect(script).toContain(`package: '${preset.package}'`)
  })

  it('tells one Node story: .node-version, the action runtime, the workflows and init agree', () => {
    const major = read('.node-version').trim()
    expect(major).toBe('24')
    expect((parseYaml(read('action.yml')) as { runs: { using: string } }).runs.using).toBe(`node${major}`)
    for (const file of workflows) {
      const setup = (parseYaml(read(`.github/workflows/${file}`)) as Steps).jobs
      for (const job of Object.values(setup)) {
        for (const step of job.steps.filter((s) => s.uses?.startsWith('actions/setup-node@'))) {
          expect(step.with?.['node-version-file'], file).toBe('.node-version')
        }
      }
    }
    const generated = parseYaml(
      workflowTemplate({ agent: 'claude-code', action: 'a/b@v1', install: null }),
    ) as Steps
    const setupNode = generated.jobs.agent!.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))
    expect(String(setupNode?.with?.['node-version'])).toBe(major)
    // The CLI also runs on older Node; the floor is stated once, in engines, and in the README.
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node
    expect(read('README.md')).toContain(`Node ${engines.replace('>=', '')}`)
  })

  it('ships the MIT licence package.json names, complete action metadata and a changelog', () => {
    const pkg = JSON.parse(read('package.json')) as { license: string; author: string }
    expect(pkg.license).toBe('MIT')
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /)
    const action = parseYaml(read('action.yml')) as {
      author: string
      branding: { icon: string; color: string }
    }
    expect(action.author).toBe(pkg.author)
    expect(action.branding.icon).toBeTruthy()
    expect(action.branding.color).toBeTruthy()
    expect(read('CHANGELOG.md')).toMatch(/^## Unreleased$/m)
  })
})
