// Secrets in content, end to end (issue 31): the built CLI supervising a scripted agent that writes the
// token proctor holds (GITHUB_TOKEN in proctor's environment, never in the agent's) into a .env, base64'd
// into a JSON file, and split over two files. Each file is withheld and a critical secret_content
// violation; the agent is sent back with the files and the rule, never the token; nothing of it reaches a
// checkpoint, the remote, report.json, the transcript or the log; once the agent removes them, the gate passes.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo } from '../helpers/git-repo.js'
import { startGitHttpServer } from '../servers/git-http.js'
import type { SessionReport } from '../../src/report/model.js'
import { renderJobSummary, renderSessionComment } from '../../src/report/markdown.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { links } from '../unit/github-fixtures.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')
const agent = join(root, 'test/fixtures/agents/policy-agent.mjs')
const TOKEN = 'Zq7mW2xK9vB4nR8tL1yH6cJ3dF5gS0pAeUoIiQw'

const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('secret_content: a token the agent writes never leaves the machine', () => {
  it('in a .env, base64d, split over two files: withheld, the agent sent back without the token, nothing pushed', async () => {
    const projectRoot = mkdtempSync(join(tmpdir(), 'proctor-srv-'))
    const server = await startGitHttpServer({ projectRoot })
    cleanups.push(() => rmSync(projectRoot, { recursive: true, force: true }))
    cleanups.push(() => server.close())
    const bare = server.createRepo('origin.git')
    const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
    cleanups.push(() => r.cleanup())
    const log = join(r.dir, '..', `${r.dir.split('/').pop()}-reasons.log`)
    cleanups.push(() => rmSync(log, { force: true }))
    r.write(
      'proctor.yml',
      `agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
  continue: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}, --continue, "{reason}"]
  pty: false
timeouts: { total: 2m, idle: 1m, grace: 2s }
checkpoints: { push: always, interval: 1h }
`,
    )
    r.commitAll('config')
    r.git(['remote', 'add', 'origin', server.repoUrl('origin.git')])

    const env: NodeJS.ProcessEnv = { ...r.env }
    for (const key of Object.keys(env))
      if (key.startsWith('GITHUB_') || key === 'PROCTOR_SESSION_ID' || key === 'CI') delete env[key]
    const child = spawn(process.execPath, [cli, 'run'], {
      cwd: r.dir,
      env: {
        ...env,
        NO_COLOR: '1',
        // proctor's own token: withheld from the agent, which gets the same value under a name proctor
        // does not know, as if it had found it somewhere.
        GITHUB_TOKEN: TOKEN,
        POLICY_AGENT_LEAK: TOKEN,
        POLICY_AGENT_PLAN: 'leak',
        POLICY_AGENT_LOG: log,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const code = await new Promise<number | null>((done) => child.on('close', done))

    const sessions = join(r.dir, '.proctor/sessions')
    const [id] = readdirSync(sessions)
    const dir = join(sessions, id!)
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as SessionReport
    expect(code, output).toBe(0)
    expect(report).toMatchObject({ verdict: 'allow', rounds: 2 })
    expect(report.stop_hooks.map((h) => [h.name, h.verdict])).toEqual([
      ['policy', 'block'],
      ['policy', 'allow'],
    ])
    const flagged = report.violations.map((v) => [v.constraint, v.file, v.severity, v.resolved])
    for (const file of ['.env', 'src/auth.json', 'src/part1.txt', 'src/part2.txt'])
      expect(flagged).toContainEqual(['secret_content', file, 'critical', true])
    expect(report.checkpoints.some((c) => c.skipped_reasons?.['.env'] === 'secret')).toBe(true)

    // The agent heard which file and which rule, never the token.
    const told = readFileSync(log, 'utf8')
    expect(told).toContain('secret_content: .env line 1 holds a secret (the value of GITHUB_TOKEN, as it is')
    expect(told).toContain('src/auth.json line 1 holds a secret (the value of GITHUB_TOKEN, base64-encoded')

    // Nowhere: not in a checkpoint, not on the remote, not in the report, the transcript or the log.
    const base64 = Buffer.from(`x:${TOKEN}`).toString('base64')
    const pieces = [TOKEN, TOKEN.slice(0, 20), TOKEN.slice(20), base64.slice(4, 40)]
    const local = r.git(['log', '-p', '--binary', '--format=%B', `refs/proctor/${report.session_id}`])
    const remote = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], {
      cwd: bare,
    }).toString('latin1')
    expect(report.pushed).toMatchObject({ ok: true })
    // The PR comment and the job summary, rendered from this report as the action renders them.
    const sanitizer = createSanitizer({ secrets: [] })
    const comment = renderSessionComment(report, { key: 'proctor', links, sanitizer })
    expect(comment).toContain('secret\\_content')
    expect(comment).toContain('.env (holds a secret)')
    const seen = {
      comment,
      summary: renderJobSummary(report, { links, sanitizer }),
      told,
      local,
      remote,
      output,
      report: readFileSync(join(dir, 'report.json'), 'utf8'),
      transcript: readFileSync(join(dir, 'transcript.log'), 'utf8'),
    }
    for (const [where, text] of Object.entries(seen))
      for (const piece of pieces) expect(text.includes(piece), `${where} holds ${piece}`).toBe(false)
  })
})
