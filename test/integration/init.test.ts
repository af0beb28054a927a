import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import actionValidator from '@action-validator/core'
import { parse as parseYaml } from 'yaml'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/parse.js'
import { INIT_AGENTS } from '../../src/init/agents.js'
import { initFiles, layoutFor, writeInitFiles } from '../../src/init/init.js'
import { PRE_PUSH_SCRIPT } from '../../src/init/pre-push.js'
import { twoJobWorkflowTemplate, workflowTemplate } from '../../src/init/templates.js'
import { githubRepositoryOf } from '../../src/util/package-manifest.js'

const repoRoot = join(import.meta.dirname, '../..')
/** This checkout's package.json: what `init` run from it reads (the packed package: test/e2e/package.test.ts). */
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  name: string
  version: string
  repository?: unknown
}
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-init-'))
  dirs.push(dir)
  return dir
}
function repo(): string {
  const dir = tempDir()
  mkdirSync(join(dir, '.git'))
  mkdirSync(join(dir, 'sub'))
  return dir
}
function gitRepo(): string {
  const dir = tempDir()
  execFileSync('git', ['init', '-q', dir])
  return dir
}

/** GitHub's workflow schema (SchemaStore's github-workflow.json, as @action-validator/core embeds it). */
function schemaErrors(workflow: string): string[] {
  const state = actionValidator.validateWorkflow(workflow)
  return state.errors.map((error) => JSON.stringify(error))
}

interface Workflow {
  on: Record<string, unknown>
  permissions: Record<string, string>
  concurrency: { group: string }
  jobs: Record<
    string,
    {
      if: string
      'timeout-minutes': number
      permissions: Record<string, string>
      steps: { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }[]
    }
  >
}

describe('proctor init', () => {
  it('writes a valid proctor.yml, an executable husky pre-push hook and a workflow at the repository root', async () => {
    const root = repo()
    const result = await writeInitFiles(join(root, 'sub'), false)
    expect(result.written).toEqual(['proctor.yml', '.husky/pre-push', '.github/workflows/proctor.yml'])
    const text = readFileSync(join(root, 'proctor.yml'), 'utf8')
    expect(text.split('\n')[0]).toBe(
      `# yaml-language-server: $schema=https://unpkg.com/${pkg.name}@${pkg.version}/schema/proctor.schema.json`,
    )
    const { config } = parseConfigText(text, 'proctor.yml')
    expect(config.stop_hooks.map((hook) => [hook.name, hook.command])).toEqual([['tests', 'npm test']])
    expect(statSync(join(root, '.husky/pre-push')).mode & 0o111).not.toBe(0)
    expect(readFileSync(join(root, '.husky/pre-push'), 'utf8')).toContain('check --pre-push "$@"')
  })

  it.each(INIT_AGENTS)(
    '--agent %s --trigger pull_request: a proctor.yml that validates and a workflow GitHub accepts',
    (agent) => {
      const root = tempDir()
      writeFileSync(join(root, 'package.json'), '{}\n')
      writeFileSync(join(root, 'package-lock.json'), '{}\n')
      const files = Object.fromEntries(
        initFiles(root, { agent, action: 'acme/proctor@v1', trigger: 'pull_request' }).map((f) => [
          f.path,
          f.content,
        ]),
      )
      const { config } = parseConfigText(files['proctor.yml']!, 'proctor.yml')
      const workflowText = files['.github/workflows/proctor.yml']!
      expect(schemaErrors(workflowText)).toEqual([])

      const workflow = parseYaml(workflowText) as Workflow
      const job = workflow.jobs.agent!
      const step = (uses: string) => job.steps.find((s) => s.uses?.startsWith(uses))
      expect(step('actions/checkout@')?.with).toEqual({ 'persist-credentials': false })
      expect(workflow.permissions).toEqual({})
      expect(job.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', checks: 'write' })
      expect(workflow.concurrency.group).toContain('github.event.pull_request.number')
      expect(job['timeout-minutes']).toBeGreaterThan(30)
      // Fork PRs and bot-triggered runs never start a session with this job's write token.
      expect(job.if).toContain('github.event.pull_request.head.repo.full_name == github.repository')
      expect(job.if).toContain("!endsWith(github.actor, '[bot]')")
      expect(Object.keys(workflow.on)).not.toContain('pull_request_target')
      expect(job.steps.some((s) => s.run === 'npm ci')).toBe(true)
      const proctor = step('acme/proctor@v1')!
      expect(proctor.with).toEqual({ config: 'proctor.yml' })

      const runs = job.steps.map((s) => s.run ?? '')
      if (agent === 'shell') {
        expect(config.agent.shell).toBe('./scripts/agent.sh')
        expect(proctor.env).toBeUndefined()
        return
      }
      const expected = {
        'claude-code': {
          pkg: '@anthropic-ai/claude-code',
          secret: 'ANTHROPIC_API_KEY',
          flags: ['--permission-mode', 'acceptEdits'],
        },
        codex: {
          pkg: '@openai/codex',
          secret: 'OPENAI_API_KEY',
          flags: ['exec', '--sandbox', 'workspace-write'],
        },
        gemini: {
          pkg: '@google/gemini-cli',
          secret: 'GEMINI_API_KEY',
          flags: ['--approval-mode', 'auto_edit'],
        },
        copilot: {
          pkg: '@github/copilot',
          secret: 'COPILOT_GITHUB_TOKEN',
          flags: ['--allow-tool', 'write'],
        },
        opencode: {
          pkg: 'opencode-ai',
          secret: 'ANTHROPIC_API_KEY',
          flags: ['run'],
        },
      }[agent]
      expect(runs).toContain(`npm install --global ${expected.pkg}`)
      expect(proctor.env?.[expected.secret]).toBe(`\${{ secrets.${expected.secret} }}`)
      const argv = config.agent.command!
      const at = argv.indexOf(expected.flags[0]!)
      expect(argv.slice(at, at + expected.flags.length)).toEqual(expected.flags)
      expect(config.agent.continue).toContain('{reason}')
      // The next round resumes the agent's own session, with the permission the one-shot agent needs;
      // opencode, whose session id proctor cannot learn (no hook), goes on in its last one.
      if (agent === 'opencode') expect(config.agent.continue).toContain('--continue')
      else
        expect(config.agent.continue).toEqual(
          expect.arrayContaining([expect.stringContaining('{agent_session}')]),
        )
      if (agent !== 'codex') expect(config.agent.continue).toEqual(expect.arrayContaining(expected.flags))
      else expect(config.agent.continue).toContain('sandbox_mode="workspace-write"')
    },
  )

  it('installs dependencies the way the repository can: npm ci with a lock file, npm install without, none without package.json', () => {
    for (const install of ['npm ci', 'npm install', null] as const) {
      const text = workflowTemplate({ agent: 'claude-code', action: 'acme/proctor@v1', install })
      expect(schemaErrors(text)).toEqual([])
      const runs = (parseYaml(text) as Workflow).jobs.agent!.steps.map((s) => s.run)
      expect(runs.includes('npm ci')).toBe(install === 'npm ci')
      expect(runs.includes('npm install')).toBe(install === 'npm install')
    }
  })

  it.each(INIT_AGENTS)(
    '--layout two-job --agent %s: neither the agent job nor the verify job holds a write token; publish runs no agent code',
    (agent) => {
      const text = twoJobWorkflowTemplate({ agent, action: 'acme/proctor@v1', install: 'npm ci' })
      expect(schemaErrors(text)).toEqual([])
      const workflow = parseYaml(text) as Workflow & {
        jobs: Record<
          string,
          {
            needs?: string | string[]
            steps: { uses?: string; run?: string; with?: Record<string, unknown> }[]
          }
        >
      }
      expect(workflow.permissions).toEqual({})
      const { agent: run, verify, publish } = workflow.jobs
      expect(run!.permissions).toEqual({ contents: 'read' })
      expect(run!.if).toContain("!endsWith(github.actor, '[bot]')")
      const proctorStep = (job: typeof run) => job!.steps.find((s) => s.uses === 'acme/proctor@v1')!
      expect(proctorStep(run).with).toMatchObject({ mode: 'run', handoff: true, 'github-token': '' })
      expect(verify!.needs).toBe('agent')
      // The stop hooks run the agent's code in the verify job: no write permission there.
      expect(verify!.permissions).toEqual({ contents: 'read' })
      expect(proctorStep(verify).with).toEqual({ mode: 'verify', 'artifact-pattern': 'proctor-handoff-*' })
      expect(proctorStep(verify).env).toBeUndefined() // the agent's secret stays in the agent's job
      expect(publish!.needs).toEqual(['agent', 'verify'])
      expect(publish!.permissions).toEqual({
        contents: 'write',
        'pull-requests': 'write',
        checks: 'write',
        actions: 'read',
      })
      expect(proctorStep(publish).with).toEqual({ mode: 'publish', 'verify-job': 'verify' })
      // Nothing but the checkout and proctor: no install, no setup that could run the agent's code.
      expect(publish!.steps.map((s) => s.uses ?? s.run)).toEqual(['actions/checkout@v5', 'acme/proctor@v1'])
      for (const job of [run!, verify!, publish!]) {
        const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))
        expect(checkout?.with?.['persist-credentials']).toBe(false)
      }
    },
  )

  it('offers the two-job layout for untrusted triggers and writes it with --layout two-job', async () => {
    const root = repo()
    const oneJob = await writeInitFiles(root, false, { action: 'acme/proctor@v1', trigger: 'pull_request' })
    expect(oneJob.hints.join('\n')).toContain(
      'For issues, comments or fork pull requests use the two-job layout, where the agent holds no write token: `proctor init --trigger mention --force` (comments) or `--layout two-job` (fork pull requests)',
    )
    const twoJob = await writeInitFiles(root, true, {
      action: 'acme/proctor@v1',
      trigger: 'pull_request',
      layout: 'two-job',
    })
    expect(twoJob.hints.join('\n')).not.toContain('two-job layout')
    expect(readFileSync(join(root, '.github/workflows/proctor.yml'), 'utf8')).toContain('mode: verify')
  })

  it.each(INIT_AGENTS)(
    'by default (--trigger mention) --agent %s: comments start it, an acknowledge job gates the agent, {task} is one argument',
    (agent) => {
      const root = tempDir()
      const files = Object.fromEntries(
        initFiles(root, { agent, action: 'acme/proctor@v1' }).map((f) => [f.path, f.content]),
      )
      const { config } = parseConfigText(files['proctor.yml']!, 'proctor.yml')
      expect(config.github.trigger).toEqual({ phrase: ['@proctor', '/proctor'], label: 'proctor' })
      const prompt = {
        'claude-code': '-p',
        codex: 'workspace-write',
        gemini: '-p',
        copilot: '-p',
        opencode: 'run',
        shell: null,
      }[agent]
      if (prompt) {
        const argv = config.agent.command!
        expect(argv[argv.indexOf(prompt) + 1]).toBe('{task}')
        expect(argv.filter((a) => a.includes('{task}'))).toEqual(['{task}'])
      } else expect(files['proctor.yml']).toContain('"$PROCTOR_TASK"')

      const text = files['.github/workflows/proctor.yml']!
      expect(schemaErrors(text)).toEqual([])
      const workflow = parseYaml(text) as Workflow & {
        jobs: Record<string, { needs?: string | string[]; outputs?: Record<string, string> }>
      }
      expect(Object.keys(workflow.on)).toEqual([
        'issue_comment',
        'pull_request_review_comment',
        'pull_request_review',
      ])
      const { acknowledge, agent: run, verify, publish } = workflow.jobs
      // The comment's text decides nothing before proctor does, but a runner is saved for chatter.
      expect(acknowledge!.if).toContain("contains(github.event.comment.body, '@proctor')")
      expect(acknowledge!.if).toContain("!endsWith(github.actor, '[bot]')")
      // Nothing of the agent's or the pull request's runs beside the reaction's write token.
      expect(acknowledge!.steps.map((s) => s.uses ?? s.run)).toEqual([
        'actions/checkout@v5',
        'acme/proctor@v1',
      ])
      expect(acknowledge!.steps[0]!.with?.ref).toBe('${{ github.event.repository.default_branch }}')
      expect(acknowledge!.steps[1]!.with).toEqual({ mode: 'acknowledge' })
      expect(run!.needs).toBe('acknowledge')
      expect(run!.if).toBe("needs.acknowledge.outputs.task == 'true'")
      expect(run!.permissions).toEqual({ contents: 'read', issues: 'read', 'pull-requests': 'read' })
      expect(verify!.if).toContain("needs.agent.outputs.session-id != ''")
      // The follow-ups (docs/github.md#the-conversation): the write commands run in the job without agent
      // code; a continue's round starts, in every later job, from the commit the acknowledge job names.
      expect(acknowledge!.permissions).toEqual({
        contents: 'write',
        issues: 'write',
        'pull-requests': 'write',
        actions: 'write',
      })
      expect(acknowledge!.outputs).toMatchObject({ ref: '${{ steps.proctor.outputs.ref }}' })
      for (const job of [run, verify, publish])
        expect(job!.steps[0]!.with?.ref).toMatch(/^\$\{\{ needs\.acknowledge\.outputs\.ref \|\| /)
      // `/proctor stop` must not queue behind the round it cancels: only the agent job is serialized.
      expect((workflow as { concurrency?: unknown }).concurrency).toBeUndefined()
      expect((run as { concurrency?: { group: string } }).concurrency!.group).toContain(
        'github.event.issue.number',
      )
      expect(publish!.permissions).toMatchObject({ issues: 'write', 'pull-requests': 'write' })
    },
  )

  it('--trigger label: issues and pull requests labeled; --trigger mention never gets one job', () => {
    const root = tempDir()
    const files = initFiles(root, { agent: 'codex', action: 'acme/proctor@v1', trigger: 'label' })
    const workflow = parseYaml(files[2]!.content) as Workflow
    expect(workflow.on).toEqual({ issues: { types: ['labeled'] }, pull_request: { types: ['labeled'] } })
    expect(workflow.jobs.acknowledge!.if).toContain("github.event.label.name == 'proctor'")
    expect(() => layoutFor({ trigger: 'mention', layout: 'one-job' })).toThrow(
      /--trigger mention writes the two-job layout .* drop --layout one-job/,
    )
    expect(layoutFor({ trigger: 'pull_request' })).toBe('one-job')
  })

  it('--trigger pull_request: not a paid agent on every push', () => {
    const workflow = parseYaml(
      workflowTemplate({ agent: 'claude-code', action: 'acme/proctor@v1', install: null }),
    ) as Workflow
    expect(workflow.on.pull_request).toEqual({ types: ['opened', 'reopened'] })
  })

  it('the schema check catches a broken workflow (so a passing check means something)', () => {
    const text = workflowTemplate({ agent: 'codex', action: 'acme/proctor@v1', install: null })
    expect(schemaErrors(text.replace('timeout-minutes: 45', 'timeout-minutes: soon'))).not.toEqual([])
    expect(schemaErrors(text.replace('runs-on: ubuntu-latest', 'run-on: ubuntu-latest'))).not.toEqual([])
  })

  it("fills `uses:` from proctor's package.json, a placeholder and a note when it names no repository, or --action", async () => {
    const repository = githubRepositoryOf(pkg.repository)
    const root = repo()
    const written = await writeInitFiles(root, false)
    expect(readFileSync(join(root, '.github/workflows/proctor.yml'), 'utf8')).toContain(
      `uses: ${repository ?? 'OWNER/proctor'}@v1`,
    )
    if (repository === null)
      expect(written.hints.join('\n')).toMatch(
        /names no GitHub repository\): replace OWNER .*--action <owner>\/proctor@v1 --force/,
      )
    else expect(written.hints.join('\n')).not.toMatch(/replace OWNER/)

    const given = await writeInitFiles(root, true, { action: 'acme/proctor@v1.2.3' })
    expect(readFileSync(join(root, '.github/workflows/proctor.yml'), 'utf8')).toContain(
      'uses: acme/proctor@v1.2.3',
    )
    expect(given.hints.join('\n')).not.toMatch(/replace OWNER/)
  })

  it('never overwrites an existing file without --force', async () => {
    const root = repo()
    writeFileSync(join(root, 'proctor.yml'), 'max_stop_rounds: 5\n')
    const kept = await writeInitFiles(root, false)
    expect(kept.kept).toEqual(['proctor.yml'])
    expect(readFileSync(join(root, 'proctor.yml'), 'utf8')).toBe('max_stop_rounds: 5\n')
    const forced = await writeInitFiles(root, true)
    expect(forced.written).toContain('proctor.yml')
    expect(readFileSync(join(root, 'proctor.yml'), 'utf8')).toContain('stop_hooks:')
  })

  it('says exactly how to set up husky when it may not install it, or when there is no package.json', async () => {
    const bare = gitRepo()
    const noManifest = await writeInitFiles(bare, false, { husky: 'install' })
    expect(noManifest.hints.join('\n')).toContain(
      'npm init -y && npm install --save-dev husky@^9 && npm pkg set scripts.prepare=husky && npx husky',
    )
    const node = gitRepo()
    writeFileSync(join(node, 'package.json'), '{ "name": "x" }\n')
    const skipped = await writeInitFiles(node, false, { husky: 'skip' })
    expect(skipped.hints.join('\n')).toContain(
      '`npm install --save-dev husky@^9 && npm pkg set scripts.prepare=husky && npx husky`',
    )
  })

  it('sets husky up so git runs the hook: prepare script added, core.hooksPath pointing at .husky/_', async () => {
    const root = gitRepo()
    writeFileSync(join(root, 'package.json'), '{\n    "name": "x",\n    "scripts": { "test": "exit 0" }\n}\n')
    // husky already installed (as after `npm install`): init runs it rather than installing it again.
    cpSync(join(repoRoot, 'node_modules/husky'), join(root, 'node_modules/husky'), { recursive: true })
    mkdirSync(join(root, 'node_modules/.bin'))
    execFileSync('ln', ['-s', '../husky/bin.js', join(root, 'node_modules/.bin/husky')])
    const result = await writeInitFiles(root, false, { husky: 'install' })
    expect(result.hints.join('\n')).toContain('husky is set up')
    const manifest = readFileSync(join(root, 'package.json'), 'utf8')
    expect(JSON.parse(manifest)).toMatchObject({ scripts: { test: 'exit 0', prepare: 'husky' } })
    expect(manifest).toContain('\n    "name"') // the file's own indentation is kept
    expect(execFileSync('git', ['config', 'core.hooksPath'], { cwd: root, encoding: 'utf8' }).trim()).toBe(
      '.husky/_',
    )
    expect(statSync(join(root, '.husky/_/pre-push')).mode & 0o111).not.toBe(0)
  })

  it('ships the same script as the repository’s hooks/pre-push', () => {
    expect(readFileSync(new URL('../../hooks/pre-push', import.meta.url), 'utf8')).toBe(PRE_PUSH_SCRIPT)
  })
})
