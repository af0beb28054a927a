// `npm run demo`: a supervised session of the bundled example agent in a throw-away repository.
// It shows proctor answering an approval prompt, taking checkpoints, catching a forbidden-area
// violation (its content never enters a checkpoint), a stop hook and the policy gate sending the agent back
// once (it writes the missing test and removes the forbidden file), and the final report. The repository
// is dirty when the session starts, as on a laptop (an unfinished README edit, untracked notes, a .env in a
// forbidden area): that is the user's work, recorded as the session's baseline and never judged or touched.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { makeDemoRepo } from './demo-repo.js'

const root = resolve(import.meta.dirname, '..')
const cli = join(root, 'dist/cli.js')
if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first')
  process.exit(2)
}
const { repo } = makeDemoRepo()
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' })

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
