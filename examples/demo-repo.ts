// The demo's throw-away repository (`npm run demo`, and the real sessions scripts/render-report-previews.ts
// draws): a git repository with a bare remote, the user's own uncommitted work in it, and a proctor.yml that
// runs examples/agents/demo-agent.mjs under a stop hook that wants tests and a forbidden area.
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const agent = join(root, 'examples/agents/demo-agent.mjs')
const hook = join(root, 'examples/hooks/require-tests.sh')

export interface DemoRepo {
  work: string
  repo: string
  remote: string
}

/** `maxStopRounds: 1` ends the session blocked (the agent is not sent back); the default lets it fix things. */
export function makeDemoRepo(opts: { maxStopRounds?: number } = {}): DemoRepo {
  const work = mkdtempSync(join(tmpdir(), 'proctor-demo-'))
  const repo = join(work, 'repo')
  const remote = join(work, 'remote.git')
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' })
  git(work, 'init', '-q', '--bare', remote)
  git(work, 'init', '-q', '-b', 'main', repo)
  git(repo, 'config', 'user.name', 'Demo User')
  git(repo, 'config', 'user.email', 'demo@example.com')
  writeFileSync(join(repo, 'README.md'), '# demo project\n')
  git(repo, 'add', 'README.md')
  git(repo, 'commit', '-q', '-m', 'initial commit')
  git(repo, 'remote', 'add', 'origin', remote)
  // The user's own uncommitted work: proctor records it as the baseline before the agent starts.
  appendFileSync(join(repo, 'README.md'), '\nWork in progress: the user was editing this.\n')
  writeFileSync(join(repo, 'notes.txt'), 'my notes, not for the agent to judge\n')
  writeFileSync(join(repo, '.env'), 'API_KEY=the-users-own\n')

  writeFileSync(
    join(repo, 'proctor.yml'),
    `# proctor.yml for the demo: see docs/configuration.md for every key
agent:
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]
  # When the stop hooks block after the agent exited, it is re-run with the reasons as one argument.
  continue: [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}, --continue, "{reason}"]
timeouts: { total: 2m, idle: 30s, grace: 2s }${opts.maxStopRounds ? `\nmax_stop_rounds: ${opts.maxStopRounds}` : ''}
detect:
  - name: approve-edit
    match: 'Do you want to make this edit'
    kind: approval_request
    respond: { send: "y\\r" }
checkpoints:
  interval: 1s
  min_interval: 0s
  push: always        # auto pushes only in CI; the demo pushes to its own bare remote
policy:
  forbidden_areas: ["secrets/**", ".env"]
  violation_severity: error
stop_hooks:
  - name: tests
    command: ${JSON.stringify(hook)}
    timeout: 30s
`,
  )
  return { work, repo, remote }
}
