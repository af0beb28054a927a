// `npm run demo`: a supervised session of the bundled example agent in a throw-away repository.
// It shows proctor answering an approval prompt, taking checkpoints, catching a forbidden-area
// violation (its content never enters a checkpoint), a stop hook and the policy gate sending the agent back
// once (it writes the missing test and removes the forbidden file), and the final report. The repository
// is dirty when the session starts, as on a laptop (an unfinished README edit, untracked notes, a .env in a
// forbidden area): that is the user's work, recorded as the session's baseline and never judged or touched.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync, existsSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const cli = join(root, 'dist/cli.js')
if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first')
  process.exit(2)
}
const agent = join(root, 'examples/agents/demo-agent.mjs')
const hook = join(root, 'examples/hooks/require-tests.sh')

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
timeouts: { total: 2m, idle: 30s, grace: 2s }
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

console.log(`proctor demo: a throw-away repository at ${repo}\n`)
console.log(`$ proctor run   (agent: examples/agents/demo-agent.mjs)\n`)
const child = spawn(process.execPath, [cli, 'run'], { cwd: repo, stdio: 'inherit' })
child.on('exit', (code) => {
  console.log(
    `\nproctor exited with ${code}. The checkpoints are commits on refs/proctor/* (and pushed to the`,
  )
  console.log(`demo's bare remote as proctor/<session>); your branch and index were not touched, and the`)
  console.log(`README edit, notes.txt and .env you had before the session are yours, as you left them:\n`)
  const list = spawn(process.execPath, [cli, 'checkpoints', 'list'], { cwd: repo, stdio: 'inherit' })
  list.on('exit', () => {
    console.log(`\n$ git status --short   (in ${repo})`)
    process.stdout.write(git(repo, 'status', '--short').toString())
    process.exitCode = code ?? 1
  })
})
