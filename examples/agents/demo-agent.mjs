#!/usr/bin/env node
// A scripted stand-in for a coding agent, used by `npm run demo` and the end-to-end tests.
// It behaves like a real one where proctor cares: it prints progress, edits files in the working tree,
// stops at an approval prompt until someone answers on the terminal, and exits when its task is done.
// Run again with `--continue "<reason>"` it addresses the reason: it writes the missing test, and removes
// the forbidden file the policy gate named.
import { mkdirSync, writeFileSync, existsSync, rmSync } from 'node:fs'
import { createInterface } from 'node:readline'

const args = process.argv.slice(2)
const continueAt = args.indexOf('--continue')
const reason = continueAt >= 0 ? (args[continueAt + 1] ?? '') : null
const pause = (ms) => new Promise((r) => setTimeout(r, ms))
const say = (line) => process.stdout.write(line + '\n')

async function ask(question) {
  process.stdout.write(question)
  const rl = createInterface({ input: process.stdin, terminal: false })
  const answer = await new Promise((resolve) => rl.once('line', resolve))
  rl.close()
  return answer.trim()
}

if (reason !== null) {
  // The reason is proctor's message: a header, then one "- hook: reason" line per blocking stop hook.
  const asked = reason.split('\n').filter((line) => line.startsWith('- '))
  say(`● Continuing after the stop hooks blocked: ${asked.join(' ') || reason}`)
  // The policy gate names the forbidden file and suggests removing it: the agent does.
  if (reason.includes('secrets/token.txt') && existsSync('secrets/token.txt')) {
    rmSync('secrets', { recursive: true, force: true })
    say('● Removed secrets/token.txt: credentials do not belong in the change')
  }
  mkdirSync('test', { recursive: true })
  writeFileSync(
    'test/greeting.test.js',
    "import { greet } from '../src/greeting.js'\nif (greet('ci') !== 'hello, ci') throw new Error('greet')\n",
  )
  say('● Wrote test/greeting.test.js')
  say('✔ Task complete.')
  process.exit(0)
}

say('● Reading the task: add a greeting module')
await pause(150)
mkdirSync('src', { recursive: true })
writeFileSync('src/greeting.js', 'export function greet(name) {\n  return `hello, ${name}`\n}\n')
say('● Wrote src/greeting.js')
await pause(150)

const answer = await ask('Do you want to make this edit to src/index.js? [y/N] ')
if (/^y/i.test(answer)) {
  writeFileSync('src/index.js', "import { greet } from './greeting.js'\nconsole.log(greet('world'))\n")
  say('● Edited src/index.js')
} else {
  say('● Edit declined; leaving src/index.js alone')
}
await pause(150)

// A step a real agent sometimes takes and a policy should catch: touching credentials.
mkdirSync('secrets', { recursive: true })
if (!existsSync('secrets/token.txt')) writeFileSync('secrets/token.txt', 'not-a-real-token\n')
say('● Updated secrets/token.txt')
await pause(150)
say('✔ Task complete.')
