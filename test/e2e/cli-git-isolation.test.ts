// The built CLI (dist/cli.js) against an agent that configures git to run its programs, and a remote that
// never answers (issue 26): `proctor run`'s own git runs none of the agent's programs, and a push with no
// answer ends the session on time with a clear reason.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createServer, type Socket } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const root = path.resolve(import.meta.dirname, '../..')
const cli = path.join(root, 'dist/cli.js')

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

function run(
  r: TempRepo,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })))
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = path.join(r.dir, '.proctor/sessions')
  const [id] = fs.readdirSync(sessions)
  return JSON.parse(fs.readFileSync(path.join(sessions, id!, 'report.json'), 'utf8')) as SessionReport
}

/** proctor started as on a machine whose ~/.gitconfig and XDG config git reads (no GIT_CONFIG_GLOBAL). */
function envWithHome(r: TempRepo, home: string, xdg: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...r.env, HOME: home, XDG_CONFIG_HOME: xdg, NO_COLOR: '1' }
  delete env.GIT_CONFIG_GLOBAL
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
  return env
}

describe('proctor run: the agent configures git to run its programs', () => {
  it('filters in ~/.gitconfig, the XDG config and .git/config (rewritten in a loop) never run in proctor', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
    cleanups.push(r.cleanup)
    const base = tempDir('proctor-e2e-home-')
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }))
    const home = path.join(base, 'home')
    const xdg = path.join(base, 'xdg')
    const markers = path.join(base, 'markers')
    for (const dir of [home, path.join(xdg, 'git'), markers]) fs.mkdirSync(dir, { recursive: true })
    const program = (name: string): string => {
      const file = path.join(base, `${name}.sh`)
      fs.writeFileSync(file, `#!/bin/sh\ntouch ${JSON.stringify(path.join(markers, name))}\nexec cat\n`)
      fs.chmodSync(file, 0o755)
      return file
    }
    const config = path.join(r.dir, '.git/config')
    // The agent: plants a filter in each config, keeps putting the repository's back (the tamper check
    // undoes it), and edits files meanwhile so proctor checkpoints them.
    const agent = [
      `printf '[filter "g"]\\n\\tclean = %s\\n' ${program('global')} >> "$HOME/.gitconfig"`,
      `printf '[filter "x"]\\n\\tclean = %s\\n' ${program('xdg')} >> "$XDG_CONFIG_HOME/git/config"`,
      `printf '*.txt filter=g\\n*.md filter=x\\n*.js filter=r\\n' > .gitattributes`,
      `planted="$(cat ${config}; printf '[filter "r"]\\n\\tclean = %s\\n' ${program('repo')})"`,
      `(while :; do printf '%s\\n' "$planted" > ${config}.new && mv -f ${config}.new ${config}; done) & loop=$!`,
      'i=0; while [ $i -lt 12 ]; do echo "$i" >> src/a.txt; echo "$i" > src/b.js; echo "$i" >> README.md; i=$((i+1)); sleep 0.25; done',
      'kill $loop',
    ].join('\n')
    r.write('proctor.yml', 'checkpoints: { interval: 1s, min_interval: 1s }\n')
    r.commitAll('config')
    const result = await run(r, ['run', '--no-pty', '--', 'sh', '-c', agent], envWithHome(r, home, xdg))
    const report = onlyReport(r)
    expect(report.checkpoints.length, result.stderr).toBeGreaterThanOrEqual(2)
    expect(fs.readdirSync(markers)).toEqual([])
    // Still a policy signal: the user's own git would run the agent's filter later.
    expect(report.violations.some((v) => v.constraint === 'git_tamper')).toBe(true)
  })
})

describe("proctor run: the agent rewrites proctor's private git directory", () => {
  it('a filter planted in its config copy never runs; the session ends as an error that says why', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
    cleanups.push(r.cleanup)
    // Its own temporary directory: the agent finds proctor's private directory there by name, and no other
    // test's.
    const tmp = tempDir('proctor-e2e-tmp-')
    cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }))
    const marker = path.join(tmp, 'planted-filter-ran')
    const program = path.join(tmp, 'filter.sh')
    fs.writeFileSync(program, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\nexec cat\n`)
    fs.chmodSync(program, 0o755)
    const agent = [
      `for d in "$TMPDIR"/proctor-git-*; do printf '[filter "p"]\\n\\tclean = %s\\n' ${program} >> "$d/global"; done`,
      "printf '*.txt filter=p\\n' > .gitattributes",
      'echo work > notes.txt',
    ].join('\n')
    const result = await run(r, ['run', '--no-pty', '--', 'sh', '-c', agent], {
      ...envWithHome(r, path.join(tmp, 'home'), path.join(tmp, 'xdg')),
      TMPDIR: tmp,
    })
    expect(fs.existsSync(marker)).toBe(false)
    const report = onlyReport(r)
    expect(result.code, result.stderr).not.toBe(0)
    expect(report.verdict).toBe('block')
    expect(JSON.stringify(report)).toMatch(/private git directory was changed by another process \(global/)
  })
})

describe('proctor run --timeout with push: always and a remote that never answers', () => {
  it('ends on time: the session deadline, then checkpoints.push_timeout, and says "push timed out"', async () => {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.resume()
    })
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy()
      server.close()
    })
    const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
    cleanups.push(r.cleanup)
    r.git([
      'remote',
      'add',
      'origin',
      `http://127.0.0.1:${(server.address() as { port: number }).port}/r.git`,
    ])
    r.write('proctor.yml', 'checkpoints: { push: always, push_timeout: 3s }\n')
    r.commitAll('config')
    const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1' }
    for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
    const started = Date.now()
    const result = await run(
      r,
      ['run', '--no-pty', '--timeout', '2s', '--', 'sh', '-c', 'echo work > work.txt; sleep 60'],
      env,
    )
    const took = Date.now() - started
    expect(result.code).toBe(124)
    // 2 s of session, 3 s of push, SIGTERM's grace and start-up: far from the 150 s it hung before.
    expect(took).toBeLessThan(12_000)
    const report = onlyReport(r)
    expect(report.pushed).toMatchObject({ ok: false })
    expect(report.pushed!.reason).toBe('push timed out after 3s (checkpoints.push_timeout)')
  })
})

describe('proctor run interrupted while a push hangs', () => {
  it('SIGINT: proctor exits 130 in its cancel window and takes the hanging git (and git-remote-http) with it', async () => {
    const sockets = new Set<Socket>()
    let connected: () => void = () => undefined
    const firstConnection = new Promise<void>((ok) => (connected = ok))
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.resume()
      connected()
    })
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy()
      server.close()
    })
    const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
    cleanups.push(r.cleanup)
    r.git([
      'remote',
      'add',
      'origin',
      `http://127.0.0.1:${(server.address() as { port: number }).port}/r.git`,
    ])
    r.write('proctor.yml', 'checkpoints: { push: always }\n')
    r.commitAll('config')
    const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1' }
    for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
    const child = spawn(
      process.execPath,
      [cli, 'run', '--no-pty', '--', 'sh', '-c', 'echo work > work.txt; echo ready; sleep 60'],
      { cwd: r.dir, env, stdio: ['ignore', 'pipe', 'ignore'] },
    )
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    const ready = new Promise<void>((ok) =>
      child.stdout.on('data', (d: Buffer) => d.includes('ready') && ok()),
    )
    await ready
    child.kill('SIGINT')
    // The final push starts, connects and hangs; proctor's cancel window ends it.
    await firstConnection
    expect(await exited).toBe(130)
    // Every connection git made is closed: no git left running for nobody (before: git push and
    // git-remote-http lived on, holding the connection).
    await new Promise<void>((done) => {
      const check = (): void => (sockets.size === 0 ? done() : void setTimeout(check, 20))
      check()
    })
    expect(sockets.size).toBe(0)
  })
})
